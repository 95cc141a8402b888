"""Issue 15, session hijack: an attacker who knows a device id and SessionID but has no password and no RespURI
token, sending from another address, can neither read, inject, wipe nor kill a live session; phones that ignore
RespURI keep working from their own address where the tenant opted in (session_binding token-or-address, the tenant
h-hijack), and only there. Issue 35: by default (session_binding token, the tenant h-token) not even from the
phone's own address (everyone behind its NAT shares it), and on the opt-in's address path a resend never gets the
stored reply."""

import syncml_client as sc
from syncml_phone import Phone

TENANT = "h-hijack"
ATTACKER_IP = "127.0.0.2"
SECRETS = ["HOSTILE-SECRET-%d" % i for i in range(1, 4)]


def phone(ctx, device, user="alice", password="pw", tenant=TENANT, **kw):
    return Phone(ctx.base, tenant, user, password, device, **kw)


def opt_in(ctx):
    """h-hijack continues sessions by address (its phones ignore RespURI); h-token keeps the default."""
    out = ctx.admin("tenant", "set", TENANT, "--session-binding", "token-or-address")
    return ctx.check("setup: admin tenant set %s --session-binding token-or-address" % TENANT, out.returncode == 0,
                     "" if out.returncode == 0 else (out.stderr or out.stdout).strip())


def seed(ctx):
    """alice's contacts on the server, from another phone: package 4 of every later slow sync carries them."""
    seeder = phone(ctx, "IMEI:HIJACK-SEED")
    adds = [("s%d" % i, sc.vcard("Secret Contact %d" % i, secret)) for i, secret in enumerate(SECRETS, 1)]
    problem = seeder.full_sync(adds)
    return ctx.check("setup: alice's seeded contacts", problem is None, problem or "")


def live_items(ctx, tenant=TENANT, user="alice", like=None):
    cond = " AND i.content LIKE '%%%s%%'" % like if like else ""
    return int(ctx.psql(
        "SELECT count(*) FROM items i JOIN datastores d USING (tenant_id, user_id, datastore_id) JOIN users u "
        "USING (tenant_id, user_id) JOIN tenants t USING (tenant_id) WHERE t.name = '%s' AND u.name = '%s' "
        "AND NOT i.deleted%s" % (tenant, user, cond)))


def attack(victim, msg_id, commands, cred="", source_ip=ATTACKER_IP):
    """A message in the victim's session (device id and SessionID), without token, from the attacker."""
    body = sc.message(victim.session_id, msg_id, victim.device, victim.url, commands, cred)
    return sc.post(victim.url, body, source_ip=source_ip)


def refused(reply):
    """Challenged (401/407 on SyncHdr) and nothing of the session in the reply."""
    leaked = [s for s in SECRETS if s.encode() in reply.body]
    ok = reply.header_status() in ("401", "407") and not leaked and not reply.server_items()
    return ok, ("leaked %s; " % leaked if leaked else "") + reply.describe()


def started(ctx, name, victim, mode=201):
    first = victim.start(mode)
    return ctx.check(name + ": legitimate MsgID 1", first.header_status() in ("200", "212"), first.describe())


def victim_with_package4(ctx, name, device, **kw):
    """A session of alice's whose last reply (package 4) carries her seeded contacts; (None, None) when it could not
    be set up."""
    seed(ctx)  # again: an earlier case may have lost them
    victim = phone(ctx, device, **kw)
    if not started(ctx, name, victim):
        return None, None
    package4 = victim.send_changes([])
    if not ctx.check(name + ": setup, package 4 carries alice's contacts",
                     all(s.encode() in package4.body for s in SECRETS), package4.describe()):
        return None, None
    return victim, package4


def hijack_read(ctx):
    name = "hijack (a) read"
    victim, package4 = victim_with_package4(ctx, name, "IMEI:HIJACK-VICTIM")
    if not victim:
        return
    ok, detail = refused(sc.post(victim.url, victim.last_body, source_ip=ATTACKER_IP))
    ctx.check(name + ": resending the last MsgID from another address gets no stored reply", ok, detail)
    victim.drain(package4)
    done = victim.finish()
    ctx.check(name + ": the legitimate session then completes", done.header_status() == "200" and done.final,
              done.describe())


def hijack_inject(ctx):
    name = "hijack (b) inject"
    victim = phone(ctx, "IMEI:HIJACK-VICTIM")
    if not started(ctx, name, victim):
        return
    evil = sc.add(2, "evil-1", sc.vcard("Injected Contact", "HOSTILE-INJECTED"), sc.VCARD_TYPE)
    ok, detail = refused(attack(victim, 2, [sc.sync(1, "contacts", [evil])]))
    ctx.check(name + ": a Sync with an Add from another address is refused", ok, detail)
    problem = victim.continue_sync([])
    ctx.check(name + ": the legitimate session then completes", problem is None, problem or "")
    stored = live_items(ctx, like="HOSTILE-INJECTED")
    ctx.check(name + ": the injected contact is not stored", stored == 0, "%d stored" % stored)


def hijack_wipe(ctx):
    name = "hijack (c) wipe"
    before = live_items(ctx)
    victim = phone(ctx, "IMEI:HIJACK-VICTIM")
    if not started(ctx, name, victim):
        return
    ok, detail = refused(attack(victim, 2, [sc.alert(1, 203, "contacts"), sc.sync(2, "contacts", [])]))
    ctx.check(name + ": Alert 203 (refresh from client) from another address is refused", ok, detail)
    after = live_items(ctx)
    ctx.check(name + ": nothing deleted", after == before, "alice's contacts %d -> %d" % (before, after))
    problem = victim.continue_sync([])
    ctx.check(name + ": the legitimate session then completes", problem is None, problem or "")


def hijack_kill(ctx):
    name = "hijack (d) kill"
    victim = phone(ctx, "IMEI:HIJACK-VICTIM")
    if not started(ctx, name, victim):
        return
    ok, detail = refused(attack(victim, 1, [sc.alert(1, 201, "contacts")]))
    ctx.check(name + ": MsgID 1 without Cred on the live SessionID is refused", ok, detail)
    problem = victim.continue_sync([])
    ctx.check(name + ": the legitimate session continues unharmed", problem is None, problem or "")


def address_binding(ctx):
    name = "token-or-address (the tenant's opt-in)"
    p = phone(ctx, "IMEI:HIJACK-NOTOKEN", use_resp_uri=False)
    problem = p.full_sync([("n1", sc.vcard("No Token", "HOSTILE-NOTOKEN"))])
    ctx.check(name + ": a phone ignoring RespURI, without Cred after MsgID 1, completes from its own address",
              problem is None, problem or "")
    # Someone behind the phone's address resends its last message: the stored reply (her items) needs the token or
    # the credentials.
    victim, _ = victim_with_package4(ctx, name, "IMEI:HIJACK-NAT-RESEND", use_resp_uri=False)
    if not victim:
        return
    ok, detail = refused(sc.post(victim.url, victim.last_body, source_ip=victim.source_ip))
    ctx.check(name + ": resending the last MsgID from the phone's own address gets no stored reply", ok, detail)


def token_binding(ctx):
    name = "session_binding=token (the default)"
    out = ctx.admin("tenant", "show", "h-token")
    if not ctx.check(name + ": a new tenant binds sessions to the token", out.returncode == 0 and
                     "session-binding=token " in out.stdout.replace("\n", " ") + " ", out.stdout.strip()):
        return
    p = phone(ctx, "IMEI:TOKEN-1", tenant="h-token")
    if not started(ctx, name, p):
        return
    adds = [("t1", sc.vcard("Token Test", "HOSTILE-TOKEN"))]
    reply = p.send_changes(adds, use_token=False)
    stored = live_items(ctx, tenant="h-token", like="HOSTILE-TOKEN")
    ctx.check(name + ": a continuation without token and Cred from the same address is refused",
              reply.header_status() in ("401", "407") and stored == 0, "%d stored; %s" % (stored, reply.describe()))
    p.msg_id -= 1  # the phone sends the same message again, through RespURI
    problem = p.continue_sync(adds, use_token=True)
    ctx.check(name + ": the same continuation through the RespURI token works", problem is None, problem or "")


def other_user(ctx):
    name = "another user"
    seed(ctx)
    alice = phone(ctx, "IMEI:HIJACK-SHARED")
    if not started(ctx, name, alice):
        return
    package4 = alice.send_changes([])
    if not ctx.check(name + ": setup, alice's package 4 carries her contacts",
                     all(s.encode() in package4.body for s in SECRETS), package4.describe()):
        return
    bob = phone(ctx, "IMEI:HIJACK-SHARED", user="bob", password="pw2")
    reply = attack(alice, 2, [sc.sync(1, "contacts", [])], cred=bob.cred(), source_ip="127.0.0.1")
    leaked = [s for s in SECRETS if s.encode() in reply.body]
    ctx.check(name + ": bob resending alice's MsgID with his own valid Cred reads nothing of hers", not leaked,
              "leaked %s; %s" % (leaked, reply.describe()))
    first = bob.start(201, session_id=alice.session_id)
    ctx.check(name + ": bob's MsgID 1 on the same device and SessionID authenticates",
              first.header_status() in ("200", "212"), first.describe())
    alice.drain(package4)
    done = alice.finish()
    ctx.check(name + ": alice's session is not superseded and completes", done.header_status() == "200" and
              done.final and all(c == "200" for c in done.codes("Map")), done.describe())


def bob_starts_the_same_session(ctx, name, victim, source_ip, where):
    """bob's MsgID 1, with his own valid Cred, on the victim's device id and SessionID."""
    bob = phone(ctx, victim.device, user="bob", password="pw2", source_ip=source_ip)
    first = bob.start(201, session_id=victim.session_id)
    ctx.check(name + ": bob's MsgID 1 on the same device and SessionID %s authenticates" % where,
              first.header_status() in ("200", "212"), first.describe())


def another_users_session_of_the_phones_session_id(ctx, name, device, bob_ip, where, marker, ambiguous):
    """Another user starts a session of the phone's device id and SessionID with valid credentials of his own, from
    bob_ip: the phone, ignoring RespURI, must never go on in his session (its changes into his account, his contacts
    onto the phone). Behind the same address (ambiguous) its message without token or Cred could be either user's
    phone, so it gets a challenge, and with its Cred it goes on in its own session. From elsewhere his later session
    changes nothing (issue 35: else any co-user could stop the phone's continuation)."""
    p = phone(ctx, device, use_resp_uri=False)
    if not started(ctx, name, p):
        return
    bob_starts_the_same_session(ctx, name, p, bob_ip, where)
    adds = [("n1", sc.vcard("Same Session Id", marker))]
    reply = p.send_changes(adds)
    in_bobs = live_items(ctx, user="bob", like=marker)
    if ambiguous:
        ctx.check(name + ": the phone's message without token or Cred gets a challenge, nothing goes into bob's account",
                  reply.header_status() in ("401", "407") and in_bobs == 0 and not reply.server_items(),
                  "%d in bob's account; %s" % (in_bobs, reply.describe()))
        p.msg_id -= 1  # the phone answers the challenge: the same message with its Cred
        problem = p.continue_sync(adds, cred=p.cred())
    else:
        ctx.check(name + ": the phone's message without token or Cred goes on in its own session",
                  reply.header_status() == "200" and in_bobs == 0, "%d in bob's account; %s" % (in_bobs, reply.describe()))
        problem = "not continued"
        if reply.header_status() == "200":
            done = p.finish() if p.drain(reply).final else None
            problem = None if done is not None and done.header_status() == "200" and done.final else \
                "package 4 or Map: %s" % (done.describe() if done is not None else "no Final")
    ctx.check(name + ": the phone completes in its own session", problem is None, problem or "")
    ctx.check(name + ": its contact is alice's", live_items(ctx, like=marker) == 1 and
              live_items(ctx, user="bob", like=marker) == 0, "")


def other_user_elsewhere(ctx):
    another_users_session_of_the_phones_session_id(ctx, "another user from elsewhere", "IMEI:HIJACK-ROUTE", ATTACKER_IP,
                                                   "from elsewhere", "HOSTILE-ROUTE", ambiguous=False)


def other_user_same_address(ctx):  # behind the phone's address: a carrier's NAT
    another_users_session_of_the_phones_session_id(ctx, "another user at the same address", "IMEI:HIJACK-NAT",
                                                   "127.0.0.1", "from the same address", "HOSTILE-NAT", ambiguous=True)


def other_user_phone_moves(ctx):
    """The phone, ignoring RespURI, moves to the address from which another user started a session of its device id and
    SessionID (a carrier's NAT gave it another public address): its message without token or Cred finds only his
    session at that address, and must not go on in it."""
    name = "the phone moves to another user's address"
    p = phone(ctx, "IMEI:HIJACK-MOVE", use_resp_uri=False)
    if not started(ctx, name, p):
        return
    bob_starts_the_same_session(ctx, name, p, ATTACKER_IP, "from elsewhere")
    adds = [("m1", sc.vcard("Moved Phone", "HOSTILE-MOVED"))]
    reply = p.send_changes(adds, source_ip=ATTACKER_IP)
    in_bobs = live_items(ctx, user="bob", like="HOSTILE-MOVED")
    ctx.check(name + ": its message without token or Cred from there gets a challenge, nothing goes into bob's account",
              reply.header_status() in ("401", "407") and in_bobs == 0 and not reply.server_items(),
              "%d in bob's account; %s" % (in_bobs, reply.describe()))


def password_change(ctx):
    name = "password change"
    p = phone(ctx, "IMEI:HIJACK-PW", user="dora", use_resp_uri=False)
    if not started(ctx, name, p):
        return
    for verb in ("set-password", "password"):  # the name, and the one the CLI may have chosen
        out = ctx.admin_password("user", verb, "--tenant", TENANT, "--user", "dora", password="changed")
        if out.returncode == 0:
            break
    if not ctx.check(name + ": admin user set-password (or user password)", out.returncode == 0,
                     "" if out.returncode == 0 else "not available: %s" % (out.stderr or out.stdout).strip()):
        return
    reply = p.send_changes([("p1", sc.vcard("After Change", "HOSTILE-PWCHANGE"))])
    stored = live_items(ctx, user="dora", like="HOSTILE-PWCHANGE")
    ctx.check(name + ": an address-bound continuation of the old session is refused",
              reply.header_status() in ("401", "407") and stored == 0, "%d stored; %s" % (stored, reply.describe()))


CASES = [
    ("hijack-read", hijack_read),
    ("hijack-inject", hijack_inject),
    ("hijack-wipe", hijack_wipe),
    ("hijack-kill", hijack_kill),
    ("address-binding", address_binding),
    ("token-binding", token_binding),
    ("other-user", other_user),
    ("other-user-elsewhere", other_user_elsewhere),
    ("other-user-same-address", other_user_same_address),
    ("other-user-phone-moves", other_user_phone_moves),
    ("password-change", password_change),
]
