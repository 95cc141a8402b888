"""Issue 15, log forging: client-controlled values (here device ids) are escaped in text logs and are real JSON
fields, so a device id containing " user=admin" or a newline forges neither a field nor a line.

The case sends the inputs (failed and successful logins with hostile device ids); check_log reads the log the
server wrote, after the script stopped it (so that everything is flushed)."""

import json

import syncml_client as sc
from syncml_phone import Phone

TENANT = "h-log"
MARKER = "FORGED-LINE"
NEWLINE = "@NEWLINE@"  # replaced by a character reference (&#10;) in the XML text
DEVICES = [
    "IMEI:LOG-1 user=admin",
    "IMEI:LOG-2\n%s [critical] forged user=admin" % MARKER,
    "IMEI:LOG-3%s%s [critical] forged user=admin" % (NEWLINE, MARKER),
]


def phone(ctx, user, password, device, source_ip="127.0.0.1"):
    p = Phone(ctx.base, TENANT, user, password, device, source_ip=source_ip)
    p.body_filter = lambda body: body.replace(NEWLINE.encode(), b"&#10;")
    return p


def send_inputs(ctx):
    for device in DEVICES:
        for user, password in (("alice", "wrong"), ("nobody", "pw")):
            phone(ctx, user, password, device, "127.0.0.2").start(201)
        phone(ctx, "alice", "pw", device, "127.0.0.2").start(201, cred="")
        problem = phone(ctx, "alice", "pw", device).full_sync([("f1", sc.vcard("Forge Test"))])
        ctx.check("log forging: a sync with device id %r" % device, problem is None, problem or "")


def text_fields(line):
    """Splits a text log line into fields as a key=value reader would: at spaces outside double quotes, with
    backslash escapes."""
    fields, current, quoted, i = [], "", False, 0
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line):
            current += line[i + 1]
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c == " " and not quoted:
            if current:
                fields.append(current)
            current = ""
        else:
            current += c
        i += 1
    if current:
        fields.append(current)
    return fields


def log_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            # LeakSanitizer appends its suppression summary (a test-build artifact) after the last log line.
            if line.startswith("-----"):
                return
            yield line.rstrip("\n")


def check_text(lines):
    forged_fields = [l for l in lines if "user=admin" in text_fields(l)]
    forged_lines = [l for l in lines if l.lstrip().startswith(MARKER)]
    return forged_fields, forged_lines


SENT_DEVICES = {d.replace(NEWLINE, "\n") for d in DEVICES}
SESSION_MESSAGES = ("sync: ", "session end", "conflict", "merge")


def check_json(lines):
    """Every line a JSON object; no forged user or line; a hostile device id is the whole value of one device
    field; every line about a session names its session, device and client address."""
    bad, forged, mangled, unnamed, devices = [], [], [], [], 0
    for line in lines:
        try:
            obj = json.loads(line)
        except ValueError:
            bad.append(line)
            continue
        if not isinstance(obj, dict):
            bad.append(line)
            continue
        if obj.get("user") == "admin" or str(obj.get("msg", "")).startswith(MARKER):
            forged.append(line)
        device = obj.get("device")
        if isinstance(device, str) and "LOG-" in device:
            devices += 1
            if device not in SENT_DEVICES:
                mangled.append(line)
        if str(obj.get("msg", "")).startswith(SESSION_MESSAGES) and not all(
                k in obj for k in ("session", "device", "client", "tenant")):
            unnamed.append(line)
    return bad, forged, mangled, unnamed, devices


def check_log(fmt, path):
    lines = list(log_lines(path))
    mentioned = sum(1 for l in lines if "LOG-1" in l or "LOG-2" in l or "LOG-3" in l)
    ok = True
    if fmt == "json":
        bad, forged, mangled, unnamed, devices = check_json(lines)
        ok &= report("log forging (json): every line is a JSON object", not bad, bad)
        ok &= report("log forging (json): no object with user \"admin\" or a forged message", not forged, forged)
        ok &= report("log forging (json): %d device fields hold a hostile id exactly as sent" % devices,
                     devices > 0 and not mangled, mangled)
        ok &= report("logs (json): every session line names its tenant, session, device and client address",
                     not unnamed, unnamed)
    else:
        fields, forged = check_text(lines)
        ok &= report("log forging (text): no line with a forged user=admin field", not fields, fields)
        ok &= report("log forging (text): no forged line", not forged, forged)
    print("note: %d %s log lines mention the hostile device ids" % (mentioned, fmt))
    return ok


def report(name, ok, examples):
    if ok:
        print("PASS: " + name, flush=True)
    else:
        print("FAIL: %s: %d lines, e.g. %r" % (name, len(examples), examples[:3]), flush=True)
    return ok


CASES = [
    ("log-forging", send_inputs),
]
