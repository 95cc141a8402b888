"""A phone that logs in with md5 only (OMA DS digest) and keeps its nonce between sessions, as a real one does.

    md5_phone.py STATE BASE TENANT USER PASSWORD DEVICE ADDS

One slow sync of the contacts store that adds ADDS new contacts; the nonce the server gives at the end is written
to STATE (base64) for the next session. Without a saved nonce the phone first asks for one (a 401 challenge).
Prints "login=<SyncHdr status> sent=<n> received=<n>"; exits 1 when the session did not complete.
"""

import base64
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import syncml_client as sc  # noqa: E402
from syncml_phone import Phone  # noqa: E402


def main():
    state, base, tenant, user, password, device, adds = sys.argv[1:8]
    nonce = b""
    if os.path.exists(state):
        with open(state, encoding="ascii") as f:
            nonce = base64.b64decode(f.read().strip())
    phone = Phone(base, tenant, user, password, device)
    reply = phone.start(201, cred=sc.md5_cred(sc.md5_digest(user, password, nonce)))
    if reply.header_status() == "401" and not nonce and reply.next_nonce() is not None:
        nonce = reply.next_nonce()
        reply = phone.start(201, cred=sc.md5_cred(sc.md5_digest(user, password, nonce)))
    login = reply.header_status()
    if login not in ("200", "212"):
        print("login=%s: %s" % (login, reply.describe()))
        return 1
    if reply.next_nonce() is not None:
        with open(state, "w", encoding="ascii") as f:
            f.write(base64.b64encode(reply.next_nonce()).decode())
    items = [("dr%d" % i, sc.vcard("Recovery Contact %d" % i)) for i in range(int(adds))]
    problem = phone.continue_sync(items)
    print("login=%s sent=%d received=%d" % (login, len(items), len(phone.server_items)))
    if problem:
        print(problem)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
