#!/usr/bin/env python3
"""Driver of tests/integration/hostile_input.sh: a legitimate SyncML client and an attacker against the real server.

  hostile_input.py setup          tenants and users (admin CLI), tenant limits (psql), alice's seeded contacts
  hostile_input.py CASE           one case (see CASES); prints one PASS/FAIL line per check
  hostile_input.py list           the case names, in the order the script runs them
  hostile_input.py log-check FORMAT LOG   the log-forging check on a server log written in FORMAT (text, json)

Exit status: 0 all checks passed, 1 a check failed, 3 the server died or is still busy (the script restarts it).
Environment (set by the script): HOSTILE_BASE (http://127.0.0.1:PORT), HOSTILE_PID, HOSTILE_SERVER (binary),
SYNCML_TEST_DATABASE_URL, HOSTILE_BODY_LIMIT (bytes), HOSTILE_SANITIZED (1 for the ASan build); for the edge cases
(lib/hostile_edge.py) HOSTILE_METRICS_BASE, HOSTILE_ADMIN_BASE, HOSTILE_PER_ADDRESS, HOSTILE_HEADER_TIMEOUT (seconds)
and HOSTILE_BODY_BUDGET (bytes).
"""

import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

import hostile_auth  # noqa: E402
import hostile_bombs  # noqa: E402
import hostile_edge  # noqa: E402
import hostile_logs  # noqa: E402
import hostile_objects  # noqa: E402
import hostile_session  # noqa: E402
from server_probe import ServerGone, ServerProbe  # noqa: E402

TENANTS = {
    "h-hijack": [("alice", "pw"), ("bob", "pw2"), ("dora", "pw")],
    "h-token": [("alice", "pw")],
    "h-bomb": [("alice", "pw"), ("nora", "pw")],
    "h-lo": [("alice", "pw")],
    "h-lock": [("alice", "pw")],
    "h-rotate": [("alice", "pw")],
    "h-time": [("k1", "pw"), ("k2", "pw"), ("k3", "pw")],
    "h-state": [("carol", "pw")],
    "h-log": [("alice", "pw")],
    hostile_edge.NO_PASSWORDS_TENANT: [("alice", "pw")],
}


class Context:
    def __init__(self):
        self.base = os.environ["HOSTILE_BASE"]
        self.probe = ServerProbe(os.environ["HOSTILE_PID"]) if os.environ.get("HOSTILE_PID") else None
        self.server = os.environ["HOSTILE_SERVER"]
        self.db = os.environ["SYNCML_TEST_DATABASE_URL"]
        self.body_limit = int(os.environ.get("HOSTILE_BODY_LIMIT", str(4 << 20)))
        # Issue 15 asks for at most 1 s of CPU per hostile input in the product (Release build). The test build is
        # Debug with ASan+UBSan, several times slower: there the bound is 5 s, still far below the 13 s and more
        # that the unbounded code paths take.
        self.sanitized = os.environ.get("HOSTILE_SANITIZED") == "1"
        self.cpu_limit = 5.0 if self.sanitized else 1.0
        self.rss_limit_mb = 64
        self.failures = 0
        self.restart = False

    def check(self, name, ok, detail=""):
        if ok:
            print("PASS: %s%s" % (name, " (%s)" % detail if detail else ""), flush=True)
        else:
            self.failures += 1
            print("FAIL: %s%s" % (name, ": %s" % detail if detail else ""), flush=True)
        return ok

    def psql(self, sql):
        out = subprocess.run(["psql", self.db, "-Atq", "-c", sql], capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("psql: %s" % out.stderr.strip())
        return out.stdout.strip()

    def admin(self, *args, stdin=None, env=None):
        return subprocess.run([self.server, "admin"] + list(args), capture_output=True, text=True, input=stdin,
                              env=env)

    def admin_password(self, *args, password, env=None):
        """An admin command that takes a password: on the command line, else (issue 15 moves passwords off argv)
        from a file or standard input, whichever this binary accepts."""
        with tempfile.NamedTemporaryFile("w", delete=False) as f:
            f.write(password + "\n")
        try:
            tried = []
            for extra in (["--password", password], ["--password-file", f.name], ["--password-stdin"], []):
                out = self.admin(*(list(args) + extra), stdin=password + "\n", env=env)
                if out.returncode == 0:
                    return out
                tried.append(out)
                if out.returncode != 2:  # not a usage error: the form was understood and failed
                    return out
            return tried[0]
        finally:
            os.unlink(f.name)


def add_user(ctx, tenant, user, password):
    env = None
    if tenant == hostile_auth.TIMING_TENANT:
        # The timing case compares password checks at the cost its server runs with (see hostile_input.sh).
        env = dict(os.environ, SYNCML_PASSWORD_HASH_ITERATIONS=os.environ.get("HOSTILE_TIMING_HASH_ITERATIONS", ""))
    out = ctx.admin_password("user", "add", "--tenant", tenant, "--user", user, password=password, env=env)
    return "" if out.returncode == 0 else "user add %s/%s: %s" % (tenant, user, out.stderr.strip())


def add_tenant(ctx, tenant, existing):
    if tenant in existing:
        ctx.admin("tenant", "delete", tenant)
    out = ctx.admin("tenant", "add", tenant)
    return "" if out.returncode == 0 else "tenant add %s: %s" % (tenant, out.stderr.strip())


def setup(ctx):
    existing = {line.split("\t")[0] for line in ctx.admin("tenant", "list").stdout.splitlines()}
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        errors = [e for e in pool.map(lambda t: add_tenant(ctx, t, existing), TENANTS) if e]
    if errors:
        return ctx.check("setup: tenants", False, "; ".join(errors))
    users = [(t, u, p) for t, list_ in TENANTS.items() for u, p in list_]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        errors = [e for e in pool.map(lambda a: add_user(ctx, *a), users) if e]
    if errors:
        return ctx.check("setup: users", False, "; ".join(errors))
    # Every byte the server accepts reaches the parsers (the tenant's own message limit would stop a 4 MB body
    # earlier); the large-object cases run against a small tenant object limit.
    ctx.psql("UPDATE tenants SET max_message_bytes = %d WHERE name = 'h-bomb'" % ctx.body_limit)
    ctx.psql("UPDATE tenants SET max_object_bytes = %d WHERE name = 'h-lo'" % hostile_objects.OBJECT_LIMIT)
    return hostile_session.opt_in(ctx) and hostile_session.seed(ctx) and hostile_auth.seed(ctx)


CASES = (hostile_session.CASES + hostile_bombs.CASES + hostile_objects.CASES + hostile_auth.CASES + hostile_edge.CASES +
         hostile_logs.CASES)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    if argv[1] == "list":
        print(" ".join(name for name, _ in CASES))
        return 0
    if argv[1] == "log-check":
        return 0 if hostile_logs.check_log(argv[2], argv[3]) else 1
    ctx = Context()
    cases = dict(CASES)
    try:
        if argv[1] == "setup":
            ok = setup(ctx)
            return 0 if ok and ctx.failures == 0 else 1
        if argv[1] not in cases:
            print("unknown case %s" % argv[1], file=sys.stderr)
            return 2
        cases[argv[1]](ctx)
    except ServerGone as e:
        ctx.check(argv[1], False, "the server is gone: %s" % e)
        return 3
    except OSError as e:
        ctx.check(argv[1], False, "no answer: %s" % e)
        ctx.restart = True
    if ctx.restart:
        return 3
    return 1 if ctx.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
