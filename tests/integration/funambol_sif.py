"""Funambol's SIF through the real server (issue 36), driven by funambol_sif.sh: a scripted client in the manner of
Funambol's (SIF-C contacts in b64 through the scard datastore) and a CardDAV client (plain HTTP) of the same user.

  1. the client's slow sync stores its SIF-C contacts: CardDAV lists them as vCards with their fields;
  2. a vCard PUT over CardDAV reaches the client's next two-way sync as SIF-C in b64 (Meta Format and Type);
  3. SIF that is not well-formed, a DOCTYPE with entities, b64 that does not decode and des;b64 are refused
     with 415 and stored nowhere.
Prints PASS/FAIL lines; exit status 1 when any failed.
Usage: funambol_sif.py BASE_URL TENANT USER PASSWORD
"""

import base64
import os
import re
import sys
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import syncml_client as sc  # noqa: E402
import syncml_phone as sp  # noqa: E402

base, tenant, user, password = sys.argv[1:5]
failures = 0


def check(what, ok, detail=""):
    global failures
    print("%s: %s%s" % ("PASS" if ok else "FAIL", what, "" if ok or not detail else " (%r)" % (detail,)))
    failures += 0 if ok else 1


def sif_contact(first, last, mobile):
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<contact>\n<SIFVersion>1.1</SIFVersion>\n<FileAs>%s, %s</FileAs>'
            "\n<FirstName>%s</FirstName>\n<LastName>%s</LastName>\n<MobileTelephoneNumber>%s</MobileTelephoneNumber>"
            "\n<Email1Address>%s@example.com</Email1Address>\n<CompanyName>Acme &amp; Co</CompanyName>\n</contact>"
            % (last, first, first, last, mobile, first.lower()))


def sif_add(cmd_id, luid, data, encoded=None, fmt="b64"):
    """An Add as Funambol's clients send it: Type and Format in the item's Meta, the data base64-encoded."""
    meta = sc.metinf("Type", "text/x-s4j-sifc") + (sc.metinf("Format", fmt) if fmt else "")
    payload = encoded if encoded is not None else (sc.b64(data) if fmt else sc.esc(data))
    return ("<Add><CmdID>%s</CmdID><Item><Source><LocURI>%s</LocURI></Source><Meta>%s</Meta><Data>%s</Data>"
            "</Item></Add>" % (cmd_id, luid, meta, payload))


def server_adds(reply):
    """(Type, Format, data) of each Add in the reply's Sync."""
    out = []
    body = reply._body()
    for s in sc.children(body, "Sync") if body is not None else []:
        for cmd in sc.children(s, "Add"):
            for it in sc.children(cmd, "Item"):
                out.append((sc.child_text(it, "Meta", "Type"), sc.child_text(it, "Meta", "Format"),
                            sc.child_text(it, "Data") or ""))
    return out


def dav(method, path, body=None, headers=None):
    url = "%s/dav/%s/%s/contacts/%s" % (base, tenant, user, path)
    req = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    token = base64.b64encode(("%s:%s" % (user, password)).encode()).decode()
    req.add_header("Authorization", "Basic " + token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def dav_vcards():
    status, listing = dav("PROPFIND", "", '<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop>'
                          "</propfind>", {"Depth": "1", "Content-Type": "application/xml"})
    if status != 207:
        return None
    cards = []
    for href in re.findall(r"<[^>]*href>([^<]+\.vcf)</", listing):
        status, card = dav("GET", href.rsplit("/", 1)[-1])
        if status == 200:
            cards.append(card)
    return cards


client = sp.Phone(base, tenant, user, password, "fol-sif-test", store="scard")

# 1. The client's slow sync: two contacts in SIF-C, b64.
first = client.start(201)
check("the client's Alert on scard is accepted", first.codes("Alert") == ["200"], first.describe())
reply = client.send([sc.sync(1, "scard", [sif_add(2, "101", sif_contact("Anna", "Rossi", "+39 333 1111111")),
                                          sif_add(3, "102", sif_contact("Bruno", "Verdi", "+39 333 2222222"))])])
check("its SIF-C contacts are added", reply.codes("Add") == ["201", "201"], reply.describe())
client.drain(reply)
done = client.finish()
check("its session completes", done.final and done.header_status() == "200", done.describe())

cards = dav_vcards() or []
anna = [c for c in cards if "Rossi" in c]
check("CardDAV lists both contacts as vCards", len(cards) == 2 and all(c.startswith("BEGIN:VCARD") for c in cards),
      "%d cards" % len(cards))
check("with the client's fields", len(anna) == 1 and "FN:Rossi\\, Anna" in anna[0] and
      "TEL;TYPE=CELL:+39 333 1111111" in anna[0] and "ORG:Acme & Co" in anna[0], anna[:1])

# 2. A vCard from CardDAV reaches the client's next two-way sync as SIF-C in b64.
status, _ = dav("PUT", "carla.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:carla-1\r\nFN:Carla Bianchi\r\n"
                "N:Bianchi;Carla;;;\r\nTEL;TYPE=WORK,VOICE:+39 0523 444444\r\nNOTE:caf\u00e9 & <b>\r\nEND:VCARD\r\n",
                {"Content-Type": "text/vcard", "If-None-Match": "*"})
check("CardDAV PUT of a vCard", status == 201, status)
client.session_id, client.msg_id, client.resp_uri, client.server_items = sp.new_session_id(), 0, None, []
second = client.send([sc.alert(1, 200, "scard", last="1", next_anchor="2")], cred=client.cred())
check("the client's next sync is two-way", second.codes("Alert") == ["200"], second.describe())
reply = client.send([sc.sync(1, "scard", [sif_add(2, "103", "<contact><FirstName>Broken</contact>"),
                                          sif_add(3, "104", '<!DOCTYPE contact [<!ENTITY a "aaaaaaaa">]>'
                                                  "<contact><FirstName>&a;</FirstName></contact>"),
                                          sif_add(4, "105", None, encoded="!!not base64!!"),
                                          sif_add(5, "106", sif_contact("Dario", "Neri", "1"), fmt="des;b64")])])
check("unreadable SIF, a DOCTYPE, bad b64 and des;b64 get 415", reply.codes("Add") == ["415"] * 4, reply.describe())
adds = server_adds(reply)
reply = client.drain(reply)
adds += [a for a in server_adds(reply) if reply is not None and a not in adds]
check("the CardDAV contact is the one item sent", len(adds) == 1, adds)
if adds:
    mime, fmt, data = adds[0]
    check("as text/x-s4j-sifc in b64", mime == "text/x-s4j-sifc" and fmt == "b64", (mime, fmt))
    try:
        sif = base64.b64decode(data).decode()
        root = ET.fromstring(sif)
        check("that decodes to a SIF-C contact", root.tag == "contact" and root.findtext("FirstName") == "Carla" and
              root.findtext("BusinessTelephoneNumber") == "+39 0523 444444" and
              root.findtext("Body") == "caf\u00e9 & <b>", sif)
    except Exception as e:  # noqa: BLE001 -- any failure to read it is the finding
        check("that decodes to a SIF-C contact", False, repr(e))
done = client.finish()
check("the second session completes", done.final and done.header_status() == "200", done.describe())
check("nothing refused was stored", len(dav_vcards() or []) == 3)

sys.exit(1 if failures else 0)
