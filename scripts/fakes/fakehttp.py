"""Shared plumbing of the local provider fakes (paypal.py, gmo.py): a threaded HTTP/1.1 server
with a small router, JSON and form helpers, and fault injection, Python standard library only.

Faults (POST /_fake/faults, JSON) make the next matching requests fail the way a provider does:

    {"method": "POST", "path": "/capture$", "mode": "500", "times": 1}

`path` is a regular expression searched in the request path. Modes: "500" / "503" answer that
status without doing anything; "hang" accepts the request and never answers (the connection is
held for `delay` seconds, 30 by default, then closed); "500_after" does the work and then answers
500 (the provider acted, the caller cannot know); "slow" does the work and answers after `delay`
seconds (longer than the caller's timeout: the same unknown outcome). DELETE /_fake/faults
clears them.
"""

import json
import re
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Response:
    """What a route answers."""

    def __init__(self, status=200, body=b"", content_type="application/json", headers=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else body.encode("utf-8")
        self.content_type = content_type
        self.headers = headers or []


def json_response(status, value, headers=None):
    return Response(status, json.dumps(value, ensure_ascii=False), "application/json", headers)


def html_response(status, html):
    return Response(status, html, "text/html; charset=utf-8")


def redirect(location):
    return Response(303, b"", "text/plain", [("Location", location)])


def escape(text):
    return (
        str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


class Faults:
    """The faults waiting for matching requests."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items = []

    def add(self, spec):
        fault = {
            "method": (spec.get("method") or "").upper(),
            "path": re.compile(spec.get("path") or ""),
            "mode": spec.get("mode") or "500",
            "times": int(spec.get("times", 1)),
            "delay": float(spec.get("delay", 30)),
        }
        with self.lock:
            self.items.append(fault)

    def clear(self):
        with self.lock:
            self.items.clear()

    def take(self, method, path):
        """The fault for this request, counted, or None."""
        with self.lock:
            for fault in self.items:
                if fault["times"] == 0:
                    continue
                if fault["method"] and fault["method"] != method:
                    continue
                if not fault["path"].search(path):
                    continue
                if fault["times"] > 0:
                    fault["times"] -= 1
                return dict(fault)
        return None


class App:
    """A fake provider: its routes and state. Subclasses register routes in `routes`:
    a list of (method, regex, function(request) -> Response)."""

    name = "fake"

    def __init__(self):
        self.lock = threading.RLock()
        self.faults = Faults()
        self.routes = []
        self.verbose = False

    def route(self, method, pattern, fn):
        self.routes.append((method, re.compile("^" + pattern + "$"), fn))

    def dispatch(self, request):
        if request.path == "/_fake/faults":
            if request.method == "POST":
                self.faults.add(request.json() or {})
                return json_response(200, {"ok": True})
            if request.method == "DELETE":
                self.faults.clear()
                return json_response(200, {"ok": True})
        for method, pattern, fn in self.routes:
            if method != request.method:
                continue
            match = pattern.match(request.path)
            if match:
                request.params = match.groupdict()
                return fn(request)
        return json_response(404, {"name": "RESOURCE_NOT_FOUND", "message": "no such route on the " + self.name})


class Request:
    """One request as the routes see it."""

    def __init__(self, handler, body):
        parsed = urllib.parse.urlsplit(handler.path)
        self.method = handler.command
        self.path = parsed.path
        self.query = dict(urllib.parse.parse_qsl(parsed.query, keep_blank_values=True))
        self.headers = handler.headers
        self.body = body
        self.params = {}

    def header(self, name):
        return self.headers.get(name)

    def json(self):
        try:
            return json.loads(self.body.decode("utf-8")) if self.body else None
        except (ValueError, UnicodeDecodeError):
            return None

    def form(self):
        text = self.body.decode("utf-8", errors="replace")
        return dict(urllib.parse.parse_qsl(text, keep_blank_values=True))


def make_handler(app):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "vmarket-fake/1"

        def log_message(self, fmt, *args):
            if app.verbose:
                sys.stderr.write("[%s] %s\n" % (app.name, fmt % args))

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            request = Request(self, body)
            fault = None if request.path.startswith("/_fake/") else app.faults.take(request.method, request.path)
            if fault and fault["mode"] in ("500", "503"):
                return self.send(json_response(int(fault["mode"]), {"name": "INTERNAL_SERVER_ERROR"}))
            if fault and fault["mode"] == "hang":
                time.sleep(fault["delay"])
                self.close_connection = True
                return
            try:
                response = app.dispatch(request)
            except Exception as e:  # a fake must answer, even to what it did not expect
                response = json_response(500, {"name": "INTERNAL_SERVER_ERROR", "message": repr(e)})
            if fault and fault["mode"] == "500_after":
                response = json_response(500, {"name": "INTERNAL_SERVER_ERROR"})
            if fault and fault["mode"] == "slow":
                time.sleep(fault["delay"])
            self.send(response)

        def send(self, response):
            try:
                self.send_response(response.status)
                self.send_header("Content-Type", response.content_type)
                self.send_header("Content-Length", str(len(response.body)))
                for name, value in response.headers:
                    self.send_header(name, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(response.body)
            except (BrokenPipeError, ConnectionResetError, socket.timeout):
                self.close_connection = True

        do_GET = handle_any
        do_POST = handle_any
        do_DELETE = handle_any
        do_HEAD = handle_any

    return Handler


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 512


def serve(app, host, port):
    server = Server((host, port), make_handler(app))
    print("%s listening on http://%s:%d" % (app.name, host, server.server_address[1]), flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass


def post(url, body, headers, timeout=10):
    """POSTs `body` (bytes) to `url`; (status, text) or (0, error)."""
    import urllib.request

    req = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return res.status, res.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", errors="replace")
    except Exception as e:  # connection refused, timeout
        return 0, repr(e)


def page(title, body):
    """A small, accessible HTML page for the fakes' payer screens."""
    return """<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body{font-family:system-ui,"Noto Sans JP",sans-serif;margin:0;background:#f4f6fb;color:#1b1f2a}
main{max-width:34rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem 2rem;box-shadow:0 2px 12px rgba(0,0,0,.08)}
.demo{background:#fff0c2;color:#5c3d00;border-radius:6px;padding:.5rem .75rem;font-weight:700}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dd{margin:0}
button{font:inherit;padding:.6rem 1.2rem;border-radius:999px;border:1px solid #1b1f2a;background:#fff;color:#1b1f2a;cursor:pointer;margin:.25rem .25rem .25rem 0}
button.primary{background:#0b3d91;color:#fff;border-color:#0b3d91}
label{display:block;margin:.5rem 0 .25rem;font-weight:700}input{font:inherit;padding:.4rem;width:100%%;box-sizing:border-box}
</style></head><body><main>%s</main></body></html>""" % (escape(title), body)
