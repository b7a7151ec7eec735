#!/usr/bin/env python3
"""Issues a steerd connect token the way a matchmaker backend would, in plain Python.

What `steerd --issue-token` does, step by step (docs/PROTOCOL.md, "Connect tokens"), so a backend
in any language can copy it: fresh client-to-server and server-to-client keys, the grant sealed
with the servers' token key (XChaCha20-Poly1305, libsodium's AEAD: PyNaCl here), and the client's
token beside it. The protobuf messages are written by hand (they are a few varints and byte
strings), so nothing but PyNaCl is needed.

  issue_token.py --key KEYFILE --client-id 42 [--ttl 3600] [--role player|control]
                 [--server HOST:PORT ...] [--timeout S]

Prints the ClientToken in hex, as `steerd --issue-token` does: give it to the client over your
own TLS (the viewer and the load tester read it with --token FILE).
"""
import argparse
import os
import struct
import sys
import time

try:
    from nacl.bindings import crypto_aead_xchacha20poly1305_ietf_encrypt
except ImportError:
    sys.exit("issue_token.py needs PyNaCl (Debian: python3-nacl)")

ROLES = {"player": 0, "control": 1}


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(number, value):
    # proto3 leaves zero-valued scalars out
    return varint(number << 3) + varint(value) if value else b""


def field_bytes(number, data):
    return varint((number << 3) | 2) + varint(len(data)) + data if data else b""


def issue(token_key, client_id, expires, role=0, servers=(), timeout=0):
    c2s, s2c = os.urandom(32), os.urandom(32)
    # PrivateTokenBody {client_id 1, role 2, expires_unix_s 3, server_addresses 4, timeout_s 5,
    #                   client_to_server_key 6, server_to_client_key 7}
    body = (field_varint(1, client_id) + field_varint(2, role) + field_varint(3, expires)
            + b"".join(field_bytes(4, s.encode()) for s in servers) + field_varint(5, timeout)
            + field_bytes(6, c2s) + field_bytes(7, s2c))
    nonce = os.urandom(24)
    ad = b"steerdT1" + struct.pack("<Q", expires)
    sealed = crypto_aead_xchacha20poly1305_ietf_encrypt(body, ad, nonce, token_key)
    # PrivateToken {expires_unix_s 1, nonce 2, sealed 3}
    private = field_varint(1, expires) + field_bytes(2, nonce) + field_bytes(3, sealed)
    # ClientToken {private_token 1, client_id 2, role 3, expires_unix_s 4, server_addresses 5,
    #              timeout_s 6, client_to_server_key 7, server_to_client_key 8}
    return (field_bytes(1, private) + field_varint(2, client_id) + field_varint(3, role)
            + field_varint(4, expires) + b"".join(field_bytes(5, s.encode()) for s in servers)
            + field_varint(6, timeout) + field_bytes(7, c2s) + field_bytes(8, s2c))


def main():
    p = argparse.ArgumentParser(description="Issue a steerd connect token (hex on stdout).")
    p.add_argument("--key", required=True, help="the servers' token key file (64 hex digits)")
    p.add_argument("--client-id", required=True, type=int)
    p.add_argument("--ttl", type=int, default=3600, help="seconds the token stays valid")
    p.add_argument("--role", choices=sorted(ROLES), default="player")
    p.add_argument("--server", action="append", default=[], help="host:port it is good for (repeat)")
    p.add_argument("--timeout", type=int, default=0, help="seconds of silence that end the session")
    a = p.parse_args()
    with open(a.key, "rb") as f:
        text = f.read(4097).strip()
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        sys.exit(f"{a.key}: a token key is 64 hex digits (32 bytes)")
    if not 0 <= a.client_id < 1 << 62 or a.ttl < 1 or not 0 <= a.timeout <= 3600:
        sys.exit("--client-id, --ttl or --timeout out of range")
    token = issue(key, a.client_id, int(time.time()) + a.ttl, ROLES[a.role], a.server, a.timeout)
    print(token.hex())


if __name__ == "__main__":
    main()
