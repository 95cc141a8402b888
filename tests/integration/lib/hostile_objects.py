"""Issue 15, large objects: the server enforces min(server, tenant) object size whatever the client announces, on the
declared Size at the first chunk and on the accumulated chunks (413 for the item); absurd MaxObjSize values are
answered sanely and crash nothing."""

import syncml_client as sc
from syncml_phone import Phone

TENANT = "h-lo"
OBJECT_LIMIT = 65536  # tenants.max_object_bytes of TENANT (set by setup)
CHUNK = 16384


def chunk(i):
    head = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big\r\nN:Big;;;;\r\nNOTE:" if i == 0 else ""
    return head + "x" * (CHUNK - len(head))


def started(ctx, name, device, meta=""):
    """(phone, reply) when MsgID 1 was accepted; (None, reply) when it was answered otherwise."""
    p = Phone(ctx.base, TENANT, "alice", "pw", device)
    first = p.start(201, meta=meta)
    return (p if first.header_status() in ("200", "212") else None), first


def declared_size(ctx):
    name = "large object with declared Size 1000000 over the tenant's %d" % OBJECT_LIMIT
    p, first = started(ctx, name, "IMEI:LO-DECLARED")
    if not ctx.check(name + ": MsgID 1", p is not None, first.describe()):
        return
    add = sc.add(2, "big-1", chunk(0), sc.VCARD_TYPE, size=1000000, more_data=True)
    reply = p.send([sc.sync(1, "contacts", [add])], final=False)
    ctx.check(name + ": 413 for the item at the first chunk", reply.codes("Add") == ["413"], reply.describe())


def accumulate(ctx, name, p):
    """Chunks of 16 KB without declared size: 413 at the latest with the chunk that passes the limit."""
    crossing = OBJECT_LIMIT // CHUNK + 1
    codes = []
    for i in range(crossing + 1):
        add = sc.add(2, "big-2", chunk(i), sc.VCARD_TYPE, more_data=True)
        reply = p.send([sc.sync(1, "contacts", [add])], final=False)
        codes.append(",".join(reply.codes("Add")) or reply.describe())
        if reply.codes("Add") != ["213"]:
            break
    ok = "413" in codes[:crossing]
    ctx.check(name + ": accumulated chunks beyond the tenant's %d bytes get 413" % OBJECT_LIMIT, ok,
              "Add statuses per %d-byte chunk: %s" % (CHUNK, codes))


def accumulated_size(ctx):
    name = "large object without declared size, no MaxObjSize"
    p, first = started(ctx, name, "IMEI:LO-ACCUMULATE")
    if ctx.check(name + ": MsgID 1", p is not None, first.describe()):
        accumulate(ctx, name, p)


def absurd_max_obj_size(ctx, value):
    name = "MaxObjSize %s" % value
    p, first = started(ctx, name, "IMEI:LO-MAXOBJ-%s" % value.replace("-", "M")[:8],
                       meta=sc.header_meta(max_msg_size=1048576, max_obj_size=value))
    code = first.header_status() or ""
    sane = (first.http_status == 200 and code[:1] in ("2", "4")) or (first.http_status in (400, 413) and not code)
    ctx.check(name + ": answered sanely", sane, first.describe())
    health = sc.get_status(ctx.base + "/healthz")
    ctx.check(name + ": the server is alive", health == 200, "healthz %s" % health)
    if p is not None:
        accumulate(ctx, name, p)


def overflow(ctx):
    absurd_max_obj_size(ctx, "99999999999999999999")


def negative(ctx):
    absurd_max_obj_size(ctx, "-1")


CASES = [
    ("object-declared-size", declared_size),
    ("object-accumulated", accumulated_size),
    ("object-maxobjsize-overflow", overflow),
    ("object-maxobjsize-negative", negative),
]
