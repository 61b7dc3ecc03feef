#!/usr/bin/env python3
"""A real SMTP server for the test suite (aiosmtpd): stores every message it accepts.

    smtp-sink.py DIR --port N [--host 127.0.0.1] [--auth USER:PASS]

Each accepted message becomes DIR/NNNN.eml (the bytes received after DATA) with
DIR/NNNN.json beside it ({"mail_from", "rcpt_tos", "login"}), both written atomically,
the .eml last. With --auth, clients must log in (AUTH PLAIN or LOGIN, allowed without TLS
because tests run on loopback). Recipients whose local part starts with "bounce" are refused
with 550. Prints "ready HOST:PORT" once it accepts connections; exits on SIGTERM/SIGINT or
when its standard input closes (the test that started it has ended).
"""

import argparse
import itertools
import json
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Store:
    """aiosmtpd handler: refuses "bounce…" recipients, writes everything else to a directory."""

    def __init__(self, directory):
        self.directory = directory
        self.counter = itertools.count(1)
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.split("@", 1)[0].lower().startswith("bounce"):
            return f"550 5.1.1 <{address}>: no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            n = next(self.counter)
        login = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
        meta = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos, "login": login}
        raw = envelope.original_content or envelope.content
        if isinstance(raw, str):
            raw = raw.encode()
        self._write(f"{n:04}.json", json.dumps(meta).encode())
        self._write(f"{n:04}.eml", raw)
        return "250 2.0.0 OK: queued"

    def _write(self, name, data):
        partial = os.path.join(self.directory, "." + name + ".partial")
        with open(partial, "wb") as f:
            f.write(data)
        os.replace(partial, os.path.join(self.directory, name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--auth", help="USER:PASS that clients must log in with")
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)

    options = {}
    if args.auth:
        user, _, password = args.auth.partition(":")

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login.decode() == user
                and auth_data.password.decode() == password
            )
            return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

        options = {"authenticator": authenticator, "auth_required": True, "auth_require_tls": False}

    controller = Controller(Store(args.directory), hostname=args.host, port=args.port, **options)
    controller.start()
    print(f"ready {args.host}:{args.port}", flush=True)

    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: done.set())
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait()
    controller.stop()


if __name__ == "__main__":
    main()
