"""Short ids through the real server (issue 36), driven by short_guids.sh. A desktop client (SyncML 1.2, GUIDs as
they are) keeps two notes; a Nokia E51 whose DevInf (taken from the corpus capture) declares MaxGUIDSize 8 for its
notepad syncs them in SyncML 1.1:

  1. every Add the E51 gets carries a Source LocURI of at most 8 bytes, and the ids differ;
  2. its Map naming those ids answers 200, and a Map item naming an id it was never given 404;
  3. after the desktop edits one note and deletes the other, the E51's next two-way sync gets a Replace of the LUID
     it mapped (Source: the same short id) and a Delete of the other LUID: the Map mapped the right notes.
Prints PASS/FAIL lines; exit status 1 when any failed.
Usage: short_guids.py BASE_URL TENANT USER PASSWORD E51_CAPTURE_XML
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402

base, tenant, user, password, capture = sys.argv[1:6]
failures = 0
NOTE = "text/plain"


def check(what, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", what, "" if ok or not detail else " (%r)" % (detail,)))
    failures += 0 if ok else 1


def e51_devinf():
    """The DevInf of the captured E51 package 1 (a WBXML message that the capture renders as XML), with the
    namespace the capture spells xml-ns and the DevID tag it spells DeviceId."""
    with open(capture, encoding="utf-8") as f:
        text = f.read()
    devinf = re.search(r"<DevInf\b.*?</DevInf>", text, re.S).group(0)
    devinf = re.sub(r"<DevInf [^>]*>", '<DevInf xmlns="syncml:devinf">', devinf, count=1)
    return re.sub(r"(</?)DeviceId>", r"\1DevID>", devinf)


class E51:
    """The E51's messages as it sends them: SyncML 1.1, its notepad ./c:Notepad.dat synced with the server's memo."""

    device, store, local = "IMEI:357663013249630", "memo", "./c:Notepad.dat"

    def __init__(self):
        self.url = "%s/sync/%s" % (base, tenant)
        self.session_id, self.msg_id, self.resp_uri, self.next_anchor = None, 0, None, ""

    def send(self, commands, cred="", final=True):
        self.msg_id += 1
        hdr = ("<SyncHdr><VerDTD>1.1</VerDTD><VerProto>SyncML/1.1</VerProto><SessionID>%s</SessionID>"
               "<MsgID>%d</MsgID><Target><LocURI>%s</LocURI></Target><Source><LocURI>%s</LocURI></Source>%s"
               "<Meta>%s</Meta></SyncHdr>" % (self.session_id, self.msg_id, self.url, self.device, cred,
                                              sc.metinf("MaxMsgSize", 65535)))
        body = "<SyncBody>%s%s</SyncBody>" % ("".join(commands), "<Final/>" if final else "")
        msg = '<?xml version="1.0" encoding="UTF-8"?><SyncML xmlns="SYNCML:SYNCML1.1">%s%s</SyncML>' % (hdr, body)
        reply = sc.post(self.resp_uri or self.url, msg.encode())
        self.resp_uri = reply.resp_uri or self.resp_uri
        return reply

    def start(self, mode):
        self.session_id, self.msg_id, self.resp_uri = sp.new_session_id(), 0, None
        last, self.next_anchor = self.next_anchor, "anchor-%s" % self.session_id
        alert = ("<Alert><CmdID>1</CmdID><Data>%d</Data><Item><Target><LocURI>%s</LocURI></Target><Source><LocURI>"
                 "%s</LocURI></Source><Meta><Anchor xmlns=\"syncml:metinf\"><Last>%s</Last><Next>%s</Next></Anchor>"
                 "</Meta></Item></Alert>" % (mode, self.store, self.local, last, self.next_anchor))
        put = ("<Put><CmdID>2</CmdID><Meta>%s</Meta><Item><Source><LocURI>./devinf11</LocURI></Source><Data>%s"
               "</Data></Item></Put>" % (sc.metinf("Type", "application/vnd.syncml-devinf+xml"), e51_devinf()))
        return self.send([alert, put], cred=sc.basic_cred(user, password))

    def sync(self):
        """Its empty package 3, then package 4 to its end: the Sync commands' (command, source, target) triples."""
        reply = self.send(["<Sync><CmdID>1</CmdID><Target><LocURI>%s</LocURI></Target><Source><LocURI>%s</LocURI>"
                           "</Source></Sync>" % (self.store, self.local)])
        sent = []
        for _ in range(50):
            body = reply._body()
            for s in sc.children(body, "Sync") if body is not None else []:
                for cmd in s:
                    if sc.local(cmd.tag) in ("Add", "Replace", "Delete"):
                        for it in sc.children(cmd, "Item"):
                            sent.append((sc.local(cmd.tag), sc.child_text(it, "Source", "LocURI"),
                                         sc.child_text(it, "Target", "LocURI"), sc.child_text(it, "Data") or ""))
            if reply.final or reply.http_status != 200:
                break
            reply = self.send([sc.plain_alert(1, 222)], final=False)
        return sent

    def map(self, pairs):
        items = "".join("<MapItem><Target><LocURI>%s</LocURI></Target><Source><LocURI>%s</LocURI></Source>"
                        "</MapItem>" % (sc.esc(target), sc.esc(luid)) for target, luid in pairs)
        return self.send(["<Map><CmdID>1</CmdID><Target><LocURI>%s</LocURI></Target><Source><LocURI>%s</LocURI>"
                          "</Source>%s</Map>" % (self.store, self.local, items)])


# The desktop client's two notes.
desk = sp.Phone(base, tenant, user, password, "desktop-notes", store="memo")
problem = desk.full_sync([("n1", "Shopping list"), ("n2", "Call the plumber")], mode=201, mime=NOTE)
check("the desktop client stores two notes", problem is None, problem)

e51 = E51()
first = e51.start(201)
check("the E51's package 1 with its DevInf is accepted", first.header_status() in ("200", "212") and
      first.codes("Put") == ["200"], first.describe())
sent = e51.sync()
adds = [(source, data) for cmd, source, _, data in sent if cmd == "Add"]
check("the E51 gets both notes as Adds", sorted(d for _, d in adds) == ["Call the plumber", "Shopping list"], sent)
check("every Add's Source fits the E51's MaxGUIDSize of 8", all(s and len(s) <= 8 for s, _ in adds), adds)
check("each note has an id of its own", len({s for s, _ in adds}) == len(adds), adds)

luid_of = {data: "100%d" % i for i, (_, data) in enumerate(adds)}
pairs = [(source, luid_of[data]) for source, data in adds] + [("4242", "1099")]
done = e51.map(pairs)
check("the Map answers 200 for the notes and 404 for the id the E51 was never given",
      done.codes("Map") == ["200", "404"] and done.final, done.describe())

# The desktop client edits the shopping list and deletes the other note, in a two-way sync after its first one.
desk.session_id, desk.msg_id, desk.resp_uri = sp.new_session_id(), 0, None
alerted = desk.send([sc.alert(1, 200, "memo", last="1", next_anchor="2")], cred=desk.cred())
edits = ["<Replace><CmdID>2</CmdID><Meta>%s</Meta><Item><Source><LocURI>n1</LocURI></Source><Data>Shopping list: "
         "milk</Data></Item></Replace>" % sc.metinf("Type", NOTE),
         "<Delete><CmdID>3</CmdID><Item><Source><LocURI>n2</LocURI></Source></Item></Delete>"]
edited = desk.drain(desk.send([sc.sync(1, "memo", edits)]))
ended = desk.finish()
check("the desktop client's edit and delete are accepted",
      alerted.codes("Alert") == ["200"] and edited.codes("Replace") == ["200"] and edited.codes("Delete") == ["200"]
      and ended.final, [alerted.describe(), edited.describe()])

second = e51.start(200)
check("the E51's two-way sync is granted", second.codes("Alert") == ["200"], second.describe())
sent = e51.sync()
replaces = [(source, target, data) for cmd, source, target, data in sent if cmd == "Replace"]
deletes = [target for cmd, _, target, _ in sent if cmd == "Delete"]
shopping = [source for source, data in adds if data == "Shopping list"]
check("the edit arrives as a Replace of the E51's LUID from the same short id",
      replaces == [(shopping[0] if shopping else None, luid_of["Shopping list"], "Shopping list: milk")], sent)
check("the delete arrives as a Delete of the E51's LUID", deletes == [luid_of["Call the plumber"]], sent)
check("no id longer than 8 bytes in any command", all(len(x or "") <= 8 for _, s, t, _ in sent for x in (s, t)), sent)
done = e51.send([])
check("the E51's session ends", done.final and done.header_status() == "200", done.describe())

sys.exit(1 if failures else 0)
