#!/usr/bin/env python3
"""A fake VRChat for vmarket's tests and the `make run` demo: the parts of VRChat's web API
(https://api.vrchat.cloud/api/1) the app calls, over real HTTP, stateful, Python standard library
only. Every page it shows is labelled as a demo.

    python3 scripts/fakes/vrchat.py --port 8423 --auth-cookie authcookie_demo

VRChat's protocol as spoken here:

- Every call needs a User-Agent (403 otherwise, as VRChat answers a client without one) and the
  session cookie `auth=<--auth-cookie>` (401 "Missing Credentials" otherwise).
- GET /api/1/users/{userId} -> the user: id, displayName, bio, bioLinks, userIcon,
  profilePicOverride, currentAvatarThumbnailImageUrl, ... (404 "User Not Found"). Errors are
  {"error": {"message": "...", "status_code": N}}.

Test and demo controls under /_fake/ (not VRChat's): POST /_fake/users (JSON: id, displayName,
bio, userIcon) makes or replaces a user; GET /_fake/users lists them; faults (see fakehttp.py);
GET/POST /_fake/home/user/{id} is a small page on which a demo user edits their bio, as they would
on vrchat.com. Two demo users exist from the start (see DEMO_USERS).
"""

import argparse
import json
import re
import threading
import urllib.parse

import fakehttp
from fakehttp import escape, html_response, json_response, page, redirect

USER_ID = re.compile(r"^(usr_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{10})$")

DEMO_USERS = [
    {"id": "usr_4f0c6a3e-8d1b-4f52-9a77-1c2e3d4b5a60", "displayName": "Kaede_Kohaku", "bio": "ともしび工房の楓です。",
     "userIcon": ""},
    {"id": "usr_9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "displayName": "Noa_Tsukishiro", "bio": "星を見るのが好き。",
     "userIcon": ""},
]


def error(status, message):
    return json_response(status, {"error": {"message": json.dumps(message), "status_code": status}})


class VRChat(fakehttp.App):
    name = "fake VRChat"

    def __init__(self, args):
        super().__init__()
        self.auth_cookie = args.auth_cookie
        self.users = {}
        for user in DEMO_USERS:
            self.put_user(user)
        self.route("GET", r"/api/1/users/(?P<id>[^/]+)", self.get_user)
        self.route("POST", r"/_fake/users", self.add_user)
        self.route("GET", r"/_fake/users", self.list_users)
        self.route("GET", r"/_fake/home/user/(?P<id>[^/]+)", self.home)
        self.route("POST", r"/_fake/home/user/(?P<id>[^/]+)", self.edit_bio)

    def put_user(self, spec):
        user = {
            "id": spec["id"],
            "displayName": spec.get("displayName", spec["id"]),
            "bio": spec.get("bio", ""),
            "bioLinks": spec.get("bioLinks", []),
            "userIcon": spec.get("userIcon", ""),
            "profilePicOverride": spec.get("profilePicOverride", ""),
            "currentAvatarThumbnailImageUrl": spec.get(
                "currentAvatarThumbnailImageUrl",
                "https://api.vrchat.cloud/api/1/image/file_00000000-0000-0000-0000-000000000000/1/256"),
            "developerType": "none",
            "status": "offline",
            "tags": [],
        }
        with self.lock:
            self.users[user["id"]] = user
        return user

    def authorised(self, req):
        if not req.header("User-Agent"):
            return error(403, "A User-Agent is required")
        cookies = {}
        for part in (req.header("Cookie") or "").split(";"):
            name, _, value = part.strip().partition("=")
            cookies[name] = value
        if not self.auth_cookie or cookies.get("auth") != self.auth_cookie:
            return error(401, "Missing Credentials")
        return None

    def get_user(self, req):
        refused = self.authorised(req)
        if refused:
            return refused
        user_id = urllib.parse.unquote(req.params["id"])
        with self.lock:
            user = self.users.get(user_id)
        if not user:
            return error(404, "User Not Found")
        return json_response(200, user)

    def add_user(self, req):
        body = req.json() or {}
        if not USER_ID.match(body.get("id", "")):
            return json_response(400, {"error": "id must be usr_<uuid> or a legacy 10-character id"})
        return json_response(200, self.put_user(body))

    def list_users(self, req):
        with self.lock:
            return json_response(200, list(self.users.values()))

    def home(self, req):
        with self.lock:
            user = self.users.get(req.params["id"])
        if not user:
            return html_response(404, page("VRChat (demo)", "<p>User Not Found</p>"))
        body = """<p class="demo">デモ用の VRChat です / A demo VRChat</p>
<h1>%s</h1><p><code>%s</code></p>
<form method="post"><label for="bio">Bio</label>
<textarea id="bio" name="bio" rows="4" style="width:100%%">%s</textarea>
<button class="primary" type="submit">Save</button></form>""" % (
            escape(user["displayName"]), escape(user["id"]), escape(user["bio"]))
        return html_response(200, page("VRChat (demo)", body))

    def edit_bio(self, req):
        with self.lock:
            user = self.users.get(req.params["id"])
            if not user:
                return html_response(404, page("VRChat (demo)", "<p>User Not Found</p>"))
            user["bio"] = req.form().get("bio", "")[:512]
        return redirect(req.path)


def main():
    parser = argparse.ArgumentParser(description="A fake VRChat web API for tests and the demo")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8423)
    parser.add_argument("--auth-cookie", default="authcookie_demo")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    app = VRChat(args)
    app.verbose = args.verbose
    fakehttp.serve(app, args.host, args.port)


if __name__ == "__main__":
    main()
