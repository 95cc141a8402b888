"""caldav_suite.py: the helpers of caldav_suite.sh around python-caldav's functional suite.

  conf OUT OURS_URL RADICALE_URL USER PASSWORD FLAGS    writes tests/conf_private.py: our server as "Ours" with
                                                        FLAGS (comma-separated incompatibilities), Radicale as
                                                        "Radicale" with those the suite declares for it
  probe URL USER PASSWORD                               prints the incompatibilities our server has, one a line,
                                                        by asking it (MKCALENDAR, scheduling, free-busy, tasks in
                                                        the default calendar, journals)
  compare JUNIT_XML                                     prints both servers' counts and the tests that pass on
                                                        Radicale but not here; exit 1 when one fails here
"""
import sys
import uuid
import xml.etree.ElementTree as ET

import requests

OURS = "Ours"
RADICALE = "Radicale"

# The suite's own in-process Radicale (conf.py's LocalRadicale) always listens on port 5232, which two runs on one
# machine would share: caldav_suite.sh starts one on a free port and names it here like any server, with the
# incompatibilities the suite declares for Radicale.
CONF = '''# Written by tests/integration/caldav_suite.sh for one run.
from caldav import compatibility_hints
test_public_test_servers = False
test_private_test_servers = True
test_xandikos = False
test_radicale = False
caldav_servers = [
    {{"name": "{ours}", "url": {url!r}, "username": {user!r}, "password": {password!r},
     "incompatibilities": {flags!r}}},
    {{"name": "{radicale}", "url": {radicale_url!r}, "username": {user!r}, "password": {password!r},
     "incompatibilities": compatibility_hints.radicale}},
]
'''


def conf(out, url, radicale_url, user, password, flags):
    flags = [f for f in flags.split(",") if f]
    with open(out, "w", encoding="utf-8") as f:
        f.write(CONF.format(ours=OURS, radicale=RADICALE, url=url, radicale_url=radicale_url, user=user,
                            password=password, flags=flags))


PROPFIND_HOME = """<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop>
<d:current-user-principal/><c:calendar-home-set/><c:schedule-outbox-URL/></d:prop></d:propfind>"""

MKCALENDAR = """<?xml version="1.0" encoding="utf-8"?>
<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>
<d:displayname>caldav_suite probe</d:displayname></d:prop></d:set></c:mkcalendar>"""

FREEBUSY = """<?xml version="1.0" encoding="utf-8"?>
<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav">
<c:time-range start="20060104T140000Z" end="20060105T220000Z"/></c:free-busy-query>"""

LIST_CALENDARS = """<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:resourcetype/>
<c:supported-calendar-component-set/></d:prop></d:propfind>"""


def item(component, uid):
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav_suite probe//EN\r\nBEGIN:%s\r\nUID:%s\r\n"
            "DTSTAMP:20060101T000000Z\r\nDTSTART:20060102T100000Z\r\nSUMMARY:probe\r\nEND:%s\r\nEND:VCALENDAR\r\n"
            % (component, uid, component))


def first_calendar(session, url):
    """The href of the first calendar of the user's calendar home, as the suite's _fixCalendar takes it without
    MKCALENDAR (principal.calendars()[0])."""
    ns = {"d": "DAV:", "c": "urn:ietf:params:xml:ns:caldav"}
    r = session.request("PROPFIND", url, data=PROPFIND_HOME, headers={"Depth": "0"})
    root = ET.fromstring(r.content)
    principal = root.find(".//d:current-user-principal/d:href", ns).text
    r = session.request("PROPFIND", requests.compat.urljoin(url, principal), data=PROPFIND_HOME,
                        headers={"Depth": "0"})
    root = ET.fromstring(r.content)
    home = requests.compat.urljoin(url, root.find(".//c:calendar-home-set/d:href", ns).text)
    outbox = root.find(".//c:schedule-outbox-URL/d:href", ns)
    r = session.request("PROPFIND", home, data=LIST_CALENDARS, headers={"Depth": "1"})
    for response in ET.fromstring(r.content).findall("d:response", ns):
        if response.find(".//d:resourcetype/c:calendar", ns) is not None:
            return home, requests.compat.urljoin(url, response.find("d:href", ns).text), outbox is not None
    raise SystemExit("no calendar in the calendar home " + home)


def probe(url, user, password):
    session = requests.Session()
    session.auth = (user, password)
    session.headers["Content-Type"] = "application/xml; charset=utf-8"
    flags = []
    home, calendar, outbox = first_calendar(session, url)
    made = home + "caldav-suite-probe-%s/" % uuid.uuid4().hex[:8]
    r = session.request("MKCALENDAR", made, data=MKCALENDAR)
    if r.status_code == 201:
        session.delete(made)
    else:
        flags.append("no_mkcalendar")
    dav = session.options(url).headers.get("DAV", "")
    if "calendar-auto-schedule" not in dav:
        flags.append("no_scheduling")
    if not outbox:
        flags.append("no_scheduling_mailbox")
    r = session.request("REPORT", calendar, data=FREEBUSY, headers={"Depth": "1"})
    if r.status_code != 200 or "VFREEBUSY" not in r.text:
        flags.append("no_freebusy_rfc4791")
    if "no_mkcalendar" in flags:
        # The suite then keeps every item, tasks and journals too, in the first calendar.
        for component, flag in (("VTODO", "no_todo"), ("VJOURNAL", "no_journal")):
            href = calendar + "caldav-suite-probe-%s.ics" % uuid.uuid4().hex[:8]
            r = session.put(href, data=item(component, uuid.uuid4().hex),
                            headers={"Content-Type": "text/calendar; charset=utf-8"})
            if r.status_code in (200, 201, 204):
                session.delete(href)
            else:
                flags.append(flag)
    print("\n".join(flags))


def outcomes(junit):
    """{server: {test: passed|failed|skipped}} from pytest's JUnit XML."""
    out = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        server = case.get("classname", "").rsplit(".", 1)[-1].replace("TestForServer", "", 1)
        if case.find("failure") is not None or case.find("error") is not None:
            state = "failed"
        elif case.find("skipped") is not None:
            state = "skipped"
        else:
            state = "passed"
        # a test with an error in its teardown is reported twice: the worse outcome stands
        prev = out.setdefault(server, {}).get(case.get("name"))
        if prev != "failed":
            out[server][case.get("name")] = state
    return out


def compare(junit):
    results = outcomes(junit)
    ours, theirs = results.get(OURS, {}), results.get(RADICALE, {})
    for name, r in ((OURS, ours), (RADICALE, theirs)):
        counts = {s: sum(1 for v in r.values() if v == s) for s in ("passed", "failed", "skipped")}
        print("%-14s %3d passed, %3d failed, %3d skipped" % (name, counts["passed"], counts["failed"],
                                                              counts["skipped"]))
    behind = sorted(t for t, s in theirs.items() if s == "passed" and ours.get(t) == "failed")
    skipped = sorted(t for t, s in theirs.items() if s == "passed" and ours.get(t) == "skipped")
    ahead = sorted(t for t, s in ours.items() if s == "passed" and theirs.get(t) != "passed")
    print("passing on Radicale, failing here (%d): %s" % (len(behind), " ".join(behind) or "none"))
    print("passing on Radicale, skipped here by a declared incompatibility (%d): %s"
          % (len(skipped), " ".join(skipped) or "none"))
    print("passing here, not on Radicale (%d): %s" % (len(ahead), " ".join(ahead) or "none"))
    if not ours or not theirs:
        print("one of the servers ran no test")
        return 1
    return 1 if behind else 0


def main(argv):
    if len(argv) == 7 and argv[0] == "conf":
        return conf(*argv[1:])
    if len(argv) == 4 and argv[0] == "probe":
        return probe(*argv[1:])
    if len(argv) == 2 and argv[0] == "compare":
        return compare(argv[1])
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
