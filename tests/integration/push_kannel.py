"""Server-alerted sync through a real SMS gateway (issue 37), driven by push_kannel.sh: Kannel's bearerbox and smsbox
with its fake SMSC, whose received messages are lines in FAKE_LOG ("Got message N: <from to udh UDH data DATA>").

  1. a CardDAV PUT reaches each opted-in device's number as one binary SMS within seconds: a UDH addressing WAP push
     port 2948 from 9200, a WSP push PDU with content type application/vnd.syncml.ds.notification (0x4E) and
     application id x-wap-application:syncml.ds (7), and a notification that decodes (by the specification here, and
     by libsynthesis's SanPackage through SAN_DECODE) with a digest that verifies with the device's server password;
     nothing to the device that did not opt in;
  2. the phone answers with Alert 206 and gets the contact;
  3. a phone's own change sends an SMS to the other device only.
Prints PASS/FAIL lines; exit status 1 when any failed.
Usage: push_kannel.py BASE_URL TENANT USER PASSWORD FAKE_LOG SAN_DECODE ADMIN_COMMAND...
"""

import base64
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402
from push_san import decode_san, decode_wap_push, digest_of  # noqa: E402

base, tenant, user, password, fake_log, san_decode = sys.argv[1:7]
admin_command = sys.argv[7:]
failures = 0
SERVER_ID = "%s/sync/%s" % (base, tenant)
DEVICES = {"phone-a": ("+41791234501", "secret-a"), "phone-b": ("+41791234502", "secret-b")}


def check(what, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", what, "" if ok or not detail else " (%r)" % (detail,)))
    failures += 0 if ok else 1


def admin(*args):
    out = subprocess.run(admin_command + list(args), capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def messages():
    """(receiver, udh bytes, data bytes) of each message the fake SMSC got."""
    out = []
    with open(fake_log, errors="replace") as f:
        # Kannel logs the bytes form-encoded: a space is "+" (a "+" itself is %2B).
        for m in re.finditer(r"Got message \d+: <(\S+) (\S+) udh (\S+) data (\S+)>", f.read()):
            out.append((m.group(2), urllib.parse.unquote_to_bytes(m.group(3).replace("+", "%20")),
                        urllib.parse.unquote_to_bytes(m.group(4).replace("+", "%20"))))
    return out


def wait_for_messages(count, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline and len(messages()) < count:
        time.sleep(0.2)
    time.sleep(1.5)
    return messages()


def dav_put(name, fn):
    url = "%s/dav/%s/%s/contacts/%s" % (base, tenant, user, name)
    req = urllib.request.Request(url, data=sc.vcard(fn).encode(), method="PUT")
    req.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode())
    req.add_header("Content-Type", "text/vcard")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status


def libsynthesis(san, secret):
    out = subprocess.run([san_decode, SERVER_ID, secret, ""], input=san.hex(), capture_output=True, text=True)
    return out.stdout


phones = {name: sp.Phone(base, tenant, user, password, name) for name in ("phone-a", "phone-b", "phone-c")}
for name, phone in phones.items():
    check("%s: first slow sync" % name, phone.full_sync() is None)
for name, (number, secret) in DEVICES.items():
    code, out = admin("device", "push", "--tenant", tenant, "--user", user, "--device", name, "--phone", number,
                      "--server-password", secret)
    check("%s opted in with %s" % (name, number), code == 0 and "phone=" + number in out, out)

# 1. A CardDAV client's change, as SMS through Kannel.
seen = len(messages())
check("CardDAV PUT", dav_put("ann.vcf", "Ann Example") == 201)
got = wait_for_messages(seen + 2)[seen:]
numbers = {number: name for name, (number, _) in DEVICES.items()}
check("one SMS to each opted-in device's number, none to phone-c", sorted(m[0] for m in got) == sorted(numbers),
      [m[0] for m in got])
for receiver, udh, data in got:
    name = numbers.get(receiver, receiver)
    push = decode_wap_push(udh, data)
    check("%s: WAP push to port 2948 from 9200, DS notification, application syncml.ds" % name,
          push is not None and push["ports"] == (2948, 9200) and push["content_type"] == 0x4E and
          push["application"] == 7, (push, udh))
    if push is None:
        continue
    san = push["body"]
    d = decode_san(san)
    check("%s: a DS 1.2 notification of the server alerting contacts" % name,
          d["version"] == 12 and d["server_id"] == SERVER_ID and [s[0] for s in d["syncs"]] == [206] and
          d["syncs"][0][2] == "contacts", d)
    secret = DEVICES[name][1]
    check("%s: its digest verifies with the device's server password" % name,
          d["digest"] == digest_of(SERVER_ID, secret, "", san[16:]))
    decoded = libsynthesis(san, secret)
    check("%s: libsynthesis decodes it and its digest verifies" % name,
          "version 12\n" in decoded and "server_id %s\n" % SERVER_ID in decoded and
          re.search(r"^sync 206 \d+ contacts$", decoded, re.M) is not None and "digest ok" in decoded, decoded)
    check("%s: libsynthesis refuses another password" % name, "digest wrong" in libsynthesis(san, "other"))

# 2. The phone answers.
first = phones["phone-a"].start(206)
codes = first.codes("Alert")
problem = phones["phone-a"].continue_sync()
check("phone-a answers with Alert 206 and gets the contact",
      codes[:1] in (["200"], ["508"]) and problem is None and
      any("Ann Example" in data for _, data in phones["phone-a"].server_items), (codes, problem))

# 3. A phone's own change.
seen = len(messages())
problem = phones["phone-b"].full_sync(adds=[("b1", sc.vcard("Bea Phone"))], mode=200)
check("phone-b sends a contact", problem is None, problem)
got = wait_for_messages(seen + 1)[seen:]
check("its change sends an SMS to phone-a only", [m[0] for m in got] == [DEVICES["phone-a"][0]],
      [m[0] for m in got])

sys.exit(1 if failures else 0)
