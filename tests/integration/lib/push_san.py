"""The server-alerted notification as the specification defines it (OMA-TS-DS_DataSyncNotification-V1_2, package 0),
read bit by bit, and what carries it over SMS (WAP-259 WDP: the UDH's port addressing; WAP-230 WSP: the
connectionless push PDU), for the push integration tests. Written from the specifications, apart from the server's
encoder."""

import base64
import hashlib


def decode_san(data):
    bits = int.from_bytes(data[16:24], "big")  # version .. server id length: 64 bits
    out = {"digest": data[:16], "version": bits >> 54, "ui_mode": (bits >> 52) & 3, "initiator": (bits >> 51) & 1,
           "future": (bits >> 24) & ((1 << 27) - 1), "session": (bits >> 8) & 0xFFFF}
    id_len = bits & 0xFF
    at = 24
    out["server_id"] = data[at:at + id_len].decode()
    at += id_len
    out["num_syncs"], out["future2"] = data[at] >> 4, data[at] & 0xF
    at += 1
    syncs = []
    for _ in range(out["num_syncs"]):
        sync_type, content_type = 200 + (data[at] >> 4), int.from_bytes(data[at + 1:at + 4], "big")
        uri_len = data[at + 4]
        syncs.append((sync_type, content_type, data[at + 5:at + 5 + uri_len].decode()))
        at += 5 + uri_len
    out["syncs"], out["rest"] = syncs, data[at:]
    return out


def digest_of(server_id, password, nonce, body):
    """H(B64(H(server-identifier:password)):nonce:B64(H(notification)))"""
    b64md5 = lambda b: base64.b64encode(hashlib.md5(b).digest())  # noqa: E731
    return hashlib.md5(b64md5(("%s:%s" % (server_id, password)).encode()) + b":" + nonce.encode() + b":" +
                       b64md5(body)).digest()


def uintvar(data, at):
    value = 0
    while True:
        value = (value << 7) | (data[at] & 0x7F)
        at += 1
        if not data[at - 1] & 0x80:
            return value, at


def decode_wap_push(udh, pdu):
    """(destination port, source port, content type, application id, body) of a binary SMS with WAP push."""
    ports = None
    at = 1
    while at < 1 + udh[0]:  # information elements after the UDH length
        iei, length = udh[at], udh[at + 1]
        if iei == 5 and length == 4:
            ports = (int.from_bytes(udh[at + 2:at + 4], "big"), int.from_bytes(udh[at + 4:at + 6], "big"))
        at += 2 + length
    if pdu[1] != 0x06:  # PDU type Push (after the transaction id)
        return None
    headers_length, at = uintvar(pdu, 2)
    headers = pdu[at:at + headers_length]
    if headers[0] & 0x80:
        content_type, rest = headers[0] & 0x7F, headers[1:]
    else:
        end = headers.index(0)
        content_type, rest = headers[:end].decode(), headers[end + 1:]
    application = rest[1] & 0x7F if rest[:1] == b"\xaf" else None
    return {"ports": ports, "content_type": content_type, "application": application,
            "body": pdu[at + headers_length:]}
