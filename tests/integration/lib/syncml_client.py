"""SyncML 1.2 over HTTP for the integration tests (Python 3 standard library only).

Messages are built as XML text, so a test can send exactly what a phone or an attacker would; replies are parsed
into Reply. Every POST uses a fresh connection from a chosen source address: Linux accepts any 127/8 address on
loopback, so 127.0.0.2 is "another client" to a server listening on 127.0.0.1.
"""

import base64
import hashlib
import http.client
import time
import urllib.parse
import xml.etree.ElementTree as ET

XML_TYPE = "application/vnd.syncml+xml"
WBXML_TYPE = "application/vnd.syncml+wbxml"
VCARD_TYPE = "text/x-vcard"
ICAL_TYPE = "text/calendar"


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def metinf(name, value):
    return '<%s xmlns="syncml:metinf">%s</%s>' % (name, esc(str(value)), name)


def b64(data):
    return base64.b64encode(data if isinstance(data, bytes) else data.encode()).decode()


def basic_cred(user, password):
    return "<Cred><Meta>%s%s</Meta><Data>%s</Data></Cred>" % (
        metinf("Format", "b64"), metinf("Type", "syncml:auth-basic"), b64("%s:%s" % (user, password)))


def md5_digest(user, password, nonce):
    """OMA DS 1.1+ digest: b64(md5(b64(md5(user:password)) ":" nonce)), nonce as raw bytes."""
    secret = b64(hashlib.md5(("%s:%s" % (user, password)).encode()).digest()).encode()
    return b64(hashlib.md5(secret + b":" + nonce).digest())


def md5_cred(digest):
    return "<Cred><Meta>%s%s</Meta><Data>%s</Data></Cred>" % (
        metinf("Format", "b64"), metinf("Type", "syncml:auth-md5"), digest)


def header_meta(max_msg_size=None, max_obj_size=None):
    parts = ""
    if max_msg_size is not None:
        parts += metinf("MaxMsgSize", max_msg_size)
    if max_obj_size is not None:
        parts += metinf("MaxObjSize", max_obj_size)
    return "<Meta>%s</Meta>" % parts if parts else ""


def message(session_id, msg_id, device, target_url, commands, cred="", meta="", final=True, loc_name=None):
    """A SyncML 1.2 message; loc_name is the user name in SyncHdr Source, which md5 Cred (a bare digest) needs."""
    source = "<LocURI>%s</LocURI>%s" % (esc(device), "<LocName>%s</LocName>" % esc(loc_name) if loc_name else "")
    hdr = ("<SyncHdr><VerDTD>1.2</VerDTD><VerProto>SyncML/1.2</VerProto><SessionID>%s</SessionID>"
           "<MsgID>%s</MsgID><Target><LocURI>%s</LocURI></Target><Source>%s</Source>%s%s</SyncHdr>"
           % (esc(str(session_id)), esc(str(msg_id)), esc(target_url), source, cred, meta))
    body = "<SyncBody>%s%s</SyncBody>" % ("".join(commands), "<Final/>" if final else "")
    return ('<?xml version="1.0" encoding="UTF-8"?><SyncML xmlns="SYNCML:SYNCML1.2">%s%s</SyncML>'
            % (hdr, body)).encode()


def alert(cmd_id, code, store, last="", next_anchor="1"):
    item = ("<Item><Target><LocURI>%s</LocURI></Target><Source><LocURI>./%s</LocURI></Source>"
            "<Meta><Anchor xmlns=\"syncml:metinf\"><Last>%s</Last><Next>%s</Next></Anchor></Meta></Item>"
            % (store, store, esc(last), esc(next_anchor)))
    return "<Alert><CmdID>%s</CmdID><Data>%s</Data>%s</Alert>" % (cmd_id, code, item)


def plain_alert(cmd_id, code):
    return "<Alert><CmdID>%s</CmdID><Data>%s</Data></Alert>" % (cmd_id, code)


def add(cmd_id, luid, data, mime, size=None, more_data=False):
    meta = "<Meta>%s</Meta>" % metinf("Size", size) if size is not None else ""
    return ("<Add><CmdID>%s</CmdID><Meta>%s</Meta><Item><Source><LocURI>%s</LocURI></Source>%s<Data>%s</Data>%s"
            "</Item></Add>" % (cmd_id, metinf("Type", mime), esc(luid), meta, esc(data),
                               "<MoreData/>" if more_data else ""))


def sync(cmd_id, store, inner):
    return ("<Sync><CmdID>%s</CmdID><Target><LocURI>%s</LocURI></Target><Source><LocURI>./%s</LocURI></Source>%s"
            "</Sync>" % (cmd_id, store, store, "".join(inner)))


def map_items(cmd_id, store, pairs):
    items = "".join("<MapItem><Target><LocURI>%s</LocURI></Target><Source><LocURI>%s</LocURI></Source></MapItem>"
                    % (esc(guid), esc(luid)) for guid, luid in pairs)
    return ("<Map><CmdID>%s</CmdID><Target><LocURI>%s</LocURI></Target><Source><LocURI>./%s</LocURI></Source>%s"
            "</Map>" % (cmd_id, store, store, items))


def vcard(name, note=""):
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:%s\r\nN:%s;;;;\r\n%sEND:VCARD\r\n" % (
        name, name, "NOTE:%s\r\n" % note if note else "")


def local(tag):
    return tag.rsplit("}", 1)[-1]


def children(node, name):
    return [c for c in node if local(c.tag) == name]


def child_text(node, *path):
    for name in path:
        found = children(node, name) if node is not None else []
        node = found[0] if found else None
    return (node.text or "").strip() if node is not None else None


class Reply:
    """One HTTP answer; for SyncML XML bodies the parsed SyncHdr and SyncBody."""

    def __init__(self, status, headers, body, seconds):
        self.http_status = status
        self.headers = headers
        self.body = body
        self.seconds = seconds
        self.root = None
        if body and "xml" in headers.get("content-type", "") and "wbxml" not in headers.get("content-type", ""):
            try:
                self.root = ET.fromstring(body)
            except ET.ParseError:
                self.root = None

    def _body(self):
        found = children(self.root, "SyncBody") if self.root is not None else []
        return found[0] if found else None

    def statuses(self):
        body = self._body()
        return [{"cmd": child_text(s, "Cmd"), "cmd_ref": child_text(s, "CmdRef"), "data": child_text(s, "Data"),
                 "next_nonce": child_text(s, "Chal", "Meta", "NextNonce")}
                for s in (children(body, "Status") if body is not None else [])]

    def codes(self, cmd):
        return [s["data"] for s in self.statuses() if s["cmd"] == cmd]

    def header_status(self):
        codes = self.codes("SyncHdr")
        return codes[0] if codes else None

    def next_nonce(self):
        for s in self.statuses():
            if s["cmd"] == "SyncHdr" and s["next_nonce"]:
                return base64.b64decode(s["next_nonce"])
        return None

    @property
    def resp_uri(self):
        return child_text(self.root, "SyncHdr", "RespURI") if self.root is not None else None

    @property
    def final(self):
        body = self._body()
        return body is not None and bool(children(body, "Final"))

    def commands(self):
        body = self._body()
        return [local(c.tag) for c in body] if body is not None else []

    def server_items(self):
        """(server id, data) of every Add and Replace in the reply's Sync commands."""
        out = []
        body = self._body()
        for s in (children(body, "Sync") if body is not None else []):
            for cmd in s:
                if local(cmd.tag) in ("Add", "Replace"):
                    for it in children(cmd, "Item"):
                        out.append((child_text(it, "Source", "LocURI"), child_text(it, "Data") or ""))
        return out

    def describe(self):
        if self.root is None:
            return "HTTP %s, %d bytes" % (self.http_status, len(self.body))
        return "HTTP %s, SyncHdr %s, statuses %s, commands %s" % (
            self.http_status, self.header_status(),
            ["%s:%s" % (s["cmd"], s["data"]) for s in self.statuses()][:12], self.commands())


def post(url, body, content_type=XML_TYPE, source_ip="127.0.0.1", timeout=60):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout, source_address=(source_ip, 0))
    path = u.path + ("?" + u.query if u.query else "")
    start = time.monotonic()
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": content_type})
        resp = conn.getresponse()
        data = resp.read()
        headers = {k.lower(): v for k, v in resp.getheaders()}
        return Reply(resp.status, headers, data, time.monotonic() - start)
    finally:
        conn.close()


def get_status(url, timeout=10):
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    try:
        conn.request("GET", u.path)
        resp = conn.getresponse()
        resp.read()
        return resp.status
    except OSError:
        return None
    finally:
        conn.close()
