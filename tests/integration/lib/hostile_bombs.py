"""Issue 15, amplification, quadratic and deep-nesting inputs: each one answered within the CPU bound (1 s Release,
5 s ASan), with peak RSS growth under 64 MB, and the server still answering /healthz and a normal sync after it."""

import itertools

import syncml_client as sc
from server_probe import measure
from syncml_phone import Phone

TENANT = "h-bomb"
ATTACKER_IP = "127.0.0.2"
ENVELOPE = 8192  # room for the SyncML around an item within the body limit
_normal = itertools.count(1)


def tag(token, content=b""):
    """A WBXML element of the SyncML code page with content."""
    return bytes([token | 0x40]) + content + b"\x01"


def inline(text):
    return b"\x03" + text.encode() + b"\x00"


def mb_uint(value):
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def wbxml_string_table_bomb(url, refs_per_element, elements, entry_bytes=1024):
    """A SyncML 1.2 WBXML message whose Item Data reference one string table entry (STR_T) again and again: each
    2-byte reference stands for entry_bytes of text."""
    entry = b"A" * (entry_bytes - 1) + b"\x00"
    hdr = tag(0x2C, tag(0x31, inline("1.2")) + tag(0x32, inline("SyncML/1.2")) + tag(0x25, inline("1")) +
              tag(0x1B, inline("1")) + tag(0x2E, tag(0x17, inline(url))) +
              tag(0x27, tag(0x17, inline("IMEI:BOMB-WBXML"))))
    refs = b"\x83\x00" * refs_per_element
    items = b"".join(tag(0x14, tag(0x0F, refs)) for _ in range(elements))
    body = tag(0x2B, tag(0x06, tag(0x0B, inline("1")) + tag(0x0F, inline("200")) + items) + b"\x12")
    # Version 1.2, public id 0x1201 (SyncML 1.2), charset 106 (UTF-8), then the string table.
    return b"\x02" + mb_uint(0x1201) + mb_uint(106) + mb_uint(len(entry)) + entry + tag(0x2D, hdr + body)


def nested_calendar(lines):
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n" + "BEGIN:VEVENT\r\n" * lines


def folded_vcard(lines):
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Folded\r\nN:Folded;;;;\r\nNOTE:x\r\n" + " y\r\n" * lines + \
        "END:VCARD\r\n"


def many_params_vcard(params):
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Params\r\nN:Params;;;;\r\nTEL" + ";TYPE=HOME" * params + \
        ":+49 30 1234567\r\nEND:VCARD\r\n"


def after_attack(ctx, name, cost):
    """The bounds, then /healthz and a normal sync of a fresh phone."""
    problems = []
    if not isinstance(cost.outcome, sc.Reply):
        problems.append("no answer (%s)" % cost.outcome)
        ctx.restart = True  # a worker may still be busy with it
    if cost.cpu > ctx.cpu_limit:
        problems.append("CPU over %.0f s" % ctx.cpu_limit)
    if cost.growth_mb >= ctx.rss_limit_mb:
        problems.append("RSS growth over %d MB" % ctx.rss_limit_mb)
    detail = "%s; %s" % (cost, cost.outcome.describe() if isinstance(cost.outcome, sc.Reply) else cost.outcome)
    ctx.check("%s: answered within the CPU and memory bounds" % name, not problems, "; ".join(problems + [detail]))
    health = sc.get_status(ctx.base + "/healthz")
    ctx.check("%s: /healthz answers afterwards" % name, health == 200, "got %s" % health)
    # Another user of the tenant: package 4 of the normal sync does not carry what the attack may have stored.
    normal = Phone(ctx.base, TENANT, "nora", "pw", "IMEI:BOMB-NORMAL-%d" % next(_normal))
    problem = normal.full_sync([("n1", sc.vcard("Normal Contact"))])
    ctx.check("%s: a normal sync completes afterwards" % name, problem is None, problem or "")


def unauthenticated(ctx, name, body, content_type):
    url = "%s/sync/%s" % (ctx.base, TENANT)
    timeout = ctx.cpu_limit * 2 + 5
    cost = measure(ctx.probe, ctx.cpu_limit,
                   lambda: sc.post(url, body, content_type, source_ip=ATTACKER_IP, timeout=timeout))
    after_attack(ctx, "%s (%d bytes)" % (name, len(body)), cost)


def authenticated_item(ctx, name, store, mime, data):
    """alice's phone starts a session and sends one Add carrying data; only that message is measured."""
    p = Phone(ctx.base, TENANT, "alice", "pw", "IMEI:BOMB-" + store.upper(), store=store)
    first = p.start(201)
    if not ctx.check(name + ": MsgID 1", first.header_status() in ("200", "212"), first.describe()):
        return
    cost = measure(ctx.probe, ctx.cpu_limit, lambda: p.send_changes([("bomb-1", data)], mime))
    after_attack(ctx, "%s (%d bytes)" % (name, len(data)), cost)


def wbxml_one_element(ctx):
    url = "%s/sync/%s" % (ctx.base, TENANT)
    unauthenticated(ctx, "WBXML STR_T x41000 of a 1 KB entry in one element",
                    wbxml_string_table_bomb(url, 41000, 1), sc.WBXML_TYPE)


def wbxml_many_elements(ctx):
    url = "%s/sync/%s" % (ctx.base, TENANT)
    unauthenticated(ctx, "WBXML STR_T x100 of a 1 KB entry in 400 elements",
                    wbxml_string_table_bomb(url, 100, 400), sc.WBXML_TYPE)


def xml_entities(ctx):
    # Bare '&' with no ';' after it: each one used to search to the end of the input.
    body = b"<SyncML>" + b"&" * 1500000 + b"</SyncML>"
    unauthenticated(ctx, "XML text of 1.5 M '&'", body, sc.XML_TYPE)


def xml_deep(ctx):
    body = b"<SyncML>" + b"<a>" * 100000 + b"</a>" * 100000 + b"</SyncML>"
    unauthenticated(ctx, "XML nested 100000 elements deep", body, sc.XML_TYPE)


def calendar_nesting(ctx):
    lines = (ctx.body_limit - ENVELOPE) // len("BEGIN:VEVENT\r\n")
    authenticated_item(ctx, "calendar item of %d nested BEGIN:VEVENT" % lines, "calendar", sc.ICAL_TYPE,
                       nested_calendar(lines))


def calendar_nesting_chunks(ctx):
    """450000 nested BEGIN:VEVENT lines (6.3 MB, the issue's crash) as a large object in chunks that fit the body
    limit; the last chunk, where the whole object is parsed, is measured."""
    name = "calendar large object of 450000 nested BEGIN:VEVENT"
    data = nested_calendar(450000)
    size = ctx.body_limit - ENVELOPE
    chunks = [data[i:i + size] for i in range(0, len(data), size)]
    p = Phone(ctx.base, TENANT, "alice", "pw", "IMEI:BOMB-CALENDAR-LO", store="calendar")
    first = p.start(201)
    if not ctx.check(name + ": MsgID 1", first.header_status() in ("200", "212"), first.describe()):
        return
    for i, chunk in enumerate(chunks[:-1]):
        add = sc.add(2, "bomb-lo", chunk, sc.ICAL_TYPE, size=len(data) if i == 0 else None, more_data=True)
        reply = p.send([sc.sync(1, "calendar", [add])], final=False)
        if reply.codes("Add") != ["213"]:
            # Refusing the object early (e.g. 413) is a fine answer too: nothing more to send.
            ctx.check(name + ": refused at chunk %d" % (i + 1), reply.header_status() == "200", reply.describe())
            return
    last = sc.add(2, "bomb-lo", chunks[-1], sc.ICAL_TYPE)
    cost = measure(ctx.probe, ctx.cpu_limit, lambda: p.send([sc.sync(1, "calendar", [last])]))
    after_attack(ctx, "%s (%d chunks, last measured)" % (name, len(chunks)), cost)


def vcard_folding(ctx):
    authenticated_item(ctx, "vCard with 100000 folded continuation lines", "contacts", sc.VCARD_TYPE,
                       folded_vcard(100000))


def vcard_params(ctx):
    authenticated_item(ctx, "vCard TEL with 50000 TYPE parameters", "contacts", sc.VCARD_TYPE,
                       many_params_vcard(50000))


CASES = [
    ("bomb-wbxml-one-element", wbxml_one_element),
    ("bomb-wbxml-many-elements", wbxml_many_elements),
    ("bomb-xml-entities", xml_entities),
    ("bomb-xml-deep", xml_deep),
    ("bomb-calendar-nesting", calendar_nesting),
    ("bomb-calendar-nesting-chunks", calendar_nesting_chunks),
    ("bomb-vcard-folding", vcard_folding),
    ("bomb-vcard-params", vcard_params),
]
