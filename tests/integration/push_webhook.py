"""Server-alerted sync through the real server and a webhook (issue 37), driven by push_webhook.sh: phones of one user,
a CardDAV client, and the HTTP receiver the server's webhook posts to (its requests are JSON lines in HOOK_LOG).

  1. a CardDAV PUT gives each device that opted in one notification within seconds, none to the device that did not;
     each decodes as OMA DS 1.2 package 0 (checked field by field against the specification here) and its digest
     verifies with the device's server password;
  2. the phone answers with Alert 206 and its session brings the contact;
  3. a change a phone makes notifies the other device, never itself;
  4. 50 CardDAV PUTs in a row give one notification per device, announcing 50 changes;
  5. the metrics count what was sent and coalesced, and `admin device show` names the last notification.
Prints PASS/FAIL lines; exit status 1 when any failed.
Usage: push_webhook.py BASE_URL METRICS_URL TENANT USER PASSWORD HOOK_LOG ADMIN_COMMAND...
"""

import base64
import json
import os
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402
from push_san import decode_san, digest_of  # noqa: E402

base, metrics_url, tenant, user, password, hook_log = sys.argv[1:7]
admin_command = sys.argv[7:]
failures = 0
SERVER_ID = "%s/sync/%s" % (base, tenant)
SECRETS = {"phone-a": "secret-a", "phone-b": "secret-b"}


def check(what, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", what, "" if ok or not detail else " (%r)" % (detail,)))
    failures += 0 if ok else 1


def admin(*args):
    out = subprocess.run(admin_command + list(args), capture_output=True, text=True)
    return out.returncode, out.stdout + out.stderr


def hooks():
    try:
        with open(hook_log) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def wait_for_hooks(count, seconds=15):
    """The webhook's requests once there are `count` (or after `seconds`), and one more second for stragglers."""
    deadline = time.time() + seconds
    while time.time() < deadline and len(hooks()) < count:
        time.sleep(0.2)
    time.sleep(1.0)
    return hooks()


def check_notification(hook, device):
    san = base64.b64decode(hook["notification"])
    d = decode_san(san)
    check("%s: a DS 1.2 notification (version 12, background, by the server, future use 0)" % device,
          (d["version"], d["ui_mode"], d["initiator"], d["future"], d["future2"]) == (12, 1, 1, 0, 0), d)
    check("%s: it names the server and alerts a two-way sync of contacts" % device,
          d["server_id"] == SERVER_ID and [s[0] for s in d["syncs"]] == [206] and d["syncs"][0][2] == "contacts" and
          not d["rest"], d)
    check("%s: its digest verifies with the device's server password" % device,
          d["digest"] == digest_of(SERVER_ID, SECRETS[device], "", san[16:]) and
          d["digest"] != digest_of(SERVER_ID, "wrong", "", san[16:]))
    check("%s: the webhook names tenant, user and content type" % device,
          hook["tenant"] == tenant and hook["user"] == user and
          hook["content_type"] == "application/vnd.syncml.ds.notification", hook)


def dav_put(name, fn):
    url = "%s/dav/%s/%s/contacts/%s" % (base, tenant, user, name)
    req = urllib.request.Request(url, data=sc.vcard(fn).encode(), method="PUT")
    req.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode())
    req.add_header("Content-Type", "text/vcard")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status


def alerted_sync(phone):
    """The phone answers a notification: Alert 206, then an ordinary session. The server's contacts it got."""
    first = phone.start(206)
    codes = first.codes("Alert")
    ok = first.header_status() in ("200", "212") and codes and codes[0] in ("200", "508")
    problem = phone.continue_sync()
    return ok and problem is None, [data for _, data in phone.server_items], (codes, problem)


def metric(name, labels=""):
    with urllib.request.urlopen(metrics_url, timeout=10) as resp:
        text = resp.read().decode()
    for line in text.splitlines():
        if line.startswith(name + labels + " ") or (not labels and line.startswith(name + " ")):
            return float(line.split()[-1])
    return None


phones = {name: sp.Phone(base, tenant, user, password, name) for name in ("phone-a", "phone-b", "phone-c")}
for name, phone in phones.items():
    check("%s: first slow sync" % name, phone.full_sync() is None)
for name, secret in SECRETS.items():
    code, out = admin("device", "push", "--tenant", tenant, "--user", user, "--device", name, "--server-password",
                      secret)
    check("%s opted in" % name, code == 0 and "push\ton" in out, out)

# 1. A CardDAV client's change.
check("CardDAV PUT", dav_put("ann.vcf", "Ann Example") == 201)
got = wait_for_hooks(2)
devices = sorted(h["device"] for h in got)
check("one notification to each device that opted in, none to phone-c", devices == ["phone-a", "phone-b"], devices)
for hook in got:
    check_notification(hook, hook["device"])

# 2. The phones answer with Alert 206 and get the contact.
for name in ("phone-a", "phone-b"):
    ok, items, detail = alerted_sync(phones[name])
    check("%s: the alerted session (Alert 206) runs and brings the contact" % name,
          ok and any("Ann Example" in i for i in items), detail)

# 3. A phone's own change notifies only the other device.
open(hook_log, "w").close()
problem = phones["phone-b"].full_sync(adds=[("b1", sc.vcard("Bea Phone"))], mode=200)
check("phone-b sends a contact", problem is None, problem)
got = wait_for_hooks(1)
check("its change notifies phone-a, not phone-b itself, nor phone-c", [h["device"] for h in got] == ["phone-a"],
      [h["device"] for h in got])

# 4. 50 changes, one notification per device (phone-a syncs first: it was notified and has not synced since).
ok, items, detail = alerted_sync(phones["phone-a"])
check("phone-a syncs Bea's contact", ok and any("Bea Phone" in i for i in items), detail)
ok, _, detail = alerted_sync(phones["phone-b"])
check("phone-b syncs", ok, detail)
open(hook_log, "w").close()
statuses = [dav_put("bulk-%d.vcf" % i, "Bulk %d" % i) for i in range(50)]
check("50 CardDAV PUTs", statuses == [201] * 50, statuses)
got = wait_for_hooks(2)
check("one notification per device for the 50 changes", sorted(h["device"] for h in got) == ["phone-a", "phone-b"],
      [h["device"] for h in got])
check("each announces the 50 changes", all(h["changes"] == 50 for h in got), [h["changes"] for h in got])

# 5. What operators see.
sent = metric("syncml_push_sent_total", '{transport="webhook"}')
check("syncml_push_sent_total counts the webhook's notifications", sent is not None and sent >= 5, sent)
coalesced = metric("syncml_push_coalesced_total")
check("syncml_push_coalesced_total counts the changes announced together", coalesced is not None and coalesced >= 98,
      coalesced)
code, out = admin("device", "show", "--tenant", tenant, "--user", user, "--device", "phone-a")
check("device show says push is on and when it was last notified",
      code == 0 and "push\ton" in out and "push_last\t20" in out and "(sent)" in out, out)
code, out = admin("device", "show", "--tenant", tenant, "--user", user, "--device", "phone-c")
check("device show of a device that did not opt in says off", code == 0 and "push\toff" in out, out)

sys.exit(1 if failures else 0)
