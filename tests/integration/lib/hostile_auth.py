"""Issue 15, authentication: wrong passwords from elsewhere do not lock a known device out, unknown and known users
cost the same, and failed logins write nothing (no session or device rows, no new md5 nonce on a real device).
Issue 35: rotating addresses with the victim's device id buys no more guesses than the failed-login limit."""

import statistics

import syncml_client as sc
from syncml_phone import Phone

ATTACKER_IP = "127.0.0.2"
TIMING_TENANT = "h-time"


def login(ctx, tenant, user, password, device, source_ip=ATTACKER_IP, cred=None):
    """MsgID 1 of a fresh session; basic Cred unless given."""
    p = Phone(ctx.base, tenant, user, password, device, source_ip=source_ip)
    return p.start(201, cred=cred)


def seed(ctx):
    """carol's phone: one basic session, then md5 (challenged once for the nonce), so her device has a nonce."""
    p = Phone(ctx.base, "h-state", "carol", "pw", "IMEI:STATE-REAL")
    problem = p.full_sync([("c1", sc.vcard("Carol Contact"))])
    if not ctx.check("setup: carol's first sync", problem is None, problem or ""):
        return False
    challenged = p.start(201, cred=sc.md5_cred(sc.md5_digest("carol", "pw", b"")))
    nonce = challenged.next_nonce()
    if not ctx.check("setup: md5 challenge with a nonce", nonce is not None, challenged.describe()):
        return False
    first = p.start(201, cred=sc.md5_cred(sc.md5_digest("carol", "pw", nonce)))
    return ctx.check("setup: carol authenticates with md5", first.header_status() == "212", first.describe())


def lockout(ctx):
    name = "lockout"
    real = Phone(ctx.base, "h-lock", "alice", "pw", "IMEI:LOCK-REAL")
    problem = real.full_sync([("l1", sc.vcard("Lock Contact"))])
    if not ctx.check(name + ": alice's real device syncs first", problem is None, problem or ""):
        return
    codes = [login(ctx, "h-lock", "alice", "guess%d" % i, "IMEI:LOCK-EVIL").header_status() for i in range(12)]
    ctx.check(name + ": 12 wrong passwords from another device and address are refused",
              all(c in ("401", "407") for c in codes), "SyncHdr statuses %s" % codes)
    first = real.start(201)
    ctx.check(name + ": alice's known device still authenticates with her password",
              first.header_status() in ("200", "212"), first.describe())


def rotation(ctx):
    """A guesser who knows alice's phone's id sends one wrong password from each of 40 addresses (before, each address
    had its own allowance: 50 guesses from 5 addresses were all checked). A checked guess gets a plain 401, a
    throttled one a Retry-After."""
    name = "rotation"
    real = Phone(ctx.base, "h-rotate", "alice", "pw", "IMEI:ROT-REAL")
    problem = real.full_sync([("r1", sc.vcard("Rotation Contact"))])
    if not ctx.check(name + ": alice's phone syncs first from her address", problem is None, problem or ""):
        return
    replies = [login(ctx, "h-rotate", "alice", "guess%d" % i, "IMEI:ROT-REAL", source_ip="127.0.1.%d" % (i + 1))
               for i in range(40)]
    checked = [r for r in replies if "retry-after" not in r.headers]
    ctx.check(name + ": 40 addresses got at most the failed-login limit (10) of checked guesses in all",
              len(checked) <= 10 and all(r.header_status() in ("401", "407") for r in replies),
              "%d checked; SyncHdr statuses %s" % (len(checked), [r.header_status() for r in replies]))
    ctx.check(name + ": the phone's id at a new address is refused even with her password",
              "retry-after" in login(ctx, "h-rotate", "alice", "pw", "IMEI:ROT-REAL", source_ip="127.0.1.99").headers)
    first = real.start(201)
    ctx.check(name + ": her phone at her own address still authenticates", first.header_status() in ("200", "212"),
              first.describe())


def timing(ctx):
    """Median answer time for an unknown user against a known user with a wrong password, interleaved. Every
    request uses a new device and no user is tried more often than the failed-login limit, so the throttle
    answers none of them."""
    known, unknown = [], []
    for i in range(15):
        k = login(ctx, TIMING_TENANT, "k%d" % (i % 3 + 1), "wrong", "IMEI:TIME-K%d" % i, source_ip="127.0.0.3")
        u = login(ctx, TIMING_TENANT, "nobody%d" % i, "wrong", "IMEI:TIME-U%d" % i, source_ip="127.0.0.3")
        if i >= 2:  # warm-up
            known.append(k.seconds)
            unknown.append(u.seconds)
    mk, mu = statistics.median(known), statistics.median(unknown)
    ratio = mk / mu if mu > 0 else float("inf")
    ctx.check("timing: known user with a wrong password vs unknown user, median ratio within 0.5..2",
              0.5 <= ratio <= 2.0, "%.1f ms vs %.1f ms, ratio %.2f" % (mk * 1000, mu * 1000, ratio))


def state_counts(ctx):
    return ctx.psql(
        "SELECT (SELECT count(*) FROM sessions WHERE device_uri LIKE 'HOSTILE-NOSTATE-%'), "
        "(SELECT count(*) FROM devices WHERE device_uri LIKE 'HOSTILE-NOSTATE-%'), "
        "(SELECT count(*) FROM sessions WHERE device_uri = 'IMEI:STATE-REAL'), "
        "(SELECT count(*) FROM devices WHERE device_uri = 'IMEI:STATE-REAL'), "
        "(SELECT coalesce(encode(nonce, 'hex'), 'null') FROM devices WHERE device_uri = 'IMEI:STATE-REAL')")


def no_state(ctx):
    name = "failed logins"
    before = state_counts(ctx).split("|")
    # carol gets 8 wrong logins in all (setup's md5 challenge makes 9): below the failed-login limit of 10.
    for i in range(4):
        login(ctx, "h-state", "carol", "pw", "HOSTILE-NOSTATE-anon-%d" % i, cred="")
        login(ctx, "h-state", "nobody%d" % i, "pw", "HOSTILE-NOSTATE-unknown-%d" % i)
        if i < 3:
            login(ctx, "h-state", "carol", "wrong%d" % i, "HOSTILE-NOSTATE-pw-%d" % i)
    wrong_md5 = sc.md5_cred(sc.md5_digest("carol", "wrong", b"guess"))
    for _ in range(2):
        login(ctx, "h-state", "carol", "pw", "IMEI:STATE-REAL", cred=wrong_md5)
        login(ctx, "h-state", "carol", "wrong", "IMEI:STATE-REAL")
    after = state_counts(ctx).split("|")
    ctx.check(name + ": no session rows for new devices", after[0] == "0", "%s rows" % after[0])
    ctx.check(name + ": no device rows for new devices", after[1] == "0", "%s rows" % after[1])
    ctx.check(name + ": no session or device rows for carol's real device", after[2:4] == before[2:4],
              "sessions, devices %s -> %s" % (before[2:4], after[2:4]))
    ctx.check(name + ": the md5 nonce of carol's real device is unchanged", after[4] == before[4],
              "%s -> %s" % (before[4], after[4]))


CASES = [
    ("lockout", lockout),
    ("rotation", rotation),
    ("timing", timing),
    ("no-state", no_state),
]
