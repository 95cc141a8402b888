"""A scripted SyncML client for the integration tests: one device of one user, one session at a time.

It sends what a phone sends (Alert, Sync with Adds, Alert 222 for the rest of package 4, Map) and can be told to
ignore RespURI, to leave out Cred, or to send from another address, as the hostile-input cases need.
"""

import itertools
import time

import syncml_client as sc

# SessionIDs count up like a phone's, across the driver's processes too: a reused one would restart an old session
# or meet the busy guard of a newer one.
_session_ids = itertools.count(int(time.time() * 1000) % 10**9)


def new_session_id():
    return str(next(_session_ids))


class Phone:
    def __init__(self, base, tenant, user, password, device, source_ip="127.0.0.1", store="contacts",
                 use_resp_uri=True):
        self.url = "%s/sync/%s" % (base, tenant)
        self.user, self.password, self.device = user, password, device
        self.source_ip, self.store, self.use_resp_uri = source_ip, store, use_resp_uri
        self.session_id, self.msg_id, self.resp_uri = None, 0, None
        self.last_body, self.server_items = None, []
        self.body_filter = None  # bytes -> bytes applied to every message before it is sent

    def target(self, use_token):
        return self.resp_uri if use_token and self.resp_uri else self.url

    def send(self, commands, cred="", final=True, meta="", use_token=None, source_ip=None, msg_id=None):
        """One message of the running session; MsgID counts up unless given."""
        if msg_id is None:
            self.msg_id += 1
            msg_id = self.msg_id
        use_token = self.use_resp_uri if use_token is None else use_token
        body = sc.message(self.session_id, msg_id, self.device, self.url, commands, cred, meta, final, self.user)
        if self.body_filter:
            body = self.body_filter(body)
        self.last_body = body
        reply = sc.post(self.target(use_token), body, source_ip=source_ip or self.source_ip)
        if reply.resp_uri:
            self.resp_uri = reply.resp_uri
        return reply

    def cred(self):
        return sc.basic_cred(self.user, self.password)

    def start(self, mode=201, session_id=None, cred=None, meta="", commands=()):
        """MsgID 1 with Cred (basic unless given) and the Alert for the store."""
        self.session_id = str(session_id) if session_id is not None else new_session_id()
        self.msg_id, self.resp_uri, self.server_items = 0, None, []
        cmds = [sc.alert(1, mode, self.store)] + list(commands)
        return self.send(cmds, cred=self.cred() if cred is None else cred, meta=meta)

    def send_changes(self, adds=(), mime=sc.VCARD_TYPE, **kw):
        """Package 3: a Sync with one Add per (luid, data)."""
        inner = [sc.add(2 + i, luid, data, mime) for i, (luid, data) in enumerate(adds)]
        return self.send([sc.sync(1, self.store, inner)], **kw)

    def drain(self, reply, **kw):
        """Asks for the rest of package 4 (Alert 222) until a reply carries Final; collects the server's items."""
        self.server_items += reply.server_items()
        for _ in range(50):
            if reply.final or reply.http_status != 200:
                return reply
            reply = self.send([sc.plain_alert(1, 222)], final=False, **kw)
            self.server_items += reply.server_items()
        return reply

    def finish(self, **kw):
        """Package 5: the Map of every server item received; the reply ends the session."""
        pairs = [(guid, "m%d" % i) for i, (guid, _) in enumerate(self.server_items) if guid]
        return self.send([sc.map_items(1, self.store, pairs)] if pairs else [], **kw)

    def full_sync(self, adds=(), mode=201, mime=sc.VCARD_TYPE, **kw):
        """A whole session; returns None when it completed, else what went wrong."""
        first = self.start(mode)
        if first.header_status() not in ("200", "212"):
            return "MsgID 1: " + first.describe()
        return self.continue_sync(adds, mime, **kw)

    def continue_sync(self, adds=(), mime=sc.VCARD_TYPE, **kw):
        """Packages 3 to 5 of a session started with start(); None when it completed, else what went wrong."""
        reply = self.send_changes(adds, mime, **kw)
        if reply.header_status() != "200" or reply.codes("Sync")[:1] != ["200"]:
            return "Sync: " + reply.describe()
        bad = [c for c in reply.codes("Add") if not c.startswith("2")]
        if bad:
            return "Add statuses %s: %s" % (bad, reply.describe())
        reply = self.drain(reply, **kw)
        if not reply.final:
            return "package 4 did not end: " + reply.describe()
        done = self.finish(**kw)
        if done.header_status() != "200" or not done.final or any(c != "200" for c in done.codes("Map")):
            return "Map: " + done.describe()
        return None
