#!/usr/bin/env python3
"""A fake PayPal for vmarket's tests and the `make run` demo: the parts of PayPal's REST API the
app calls, over real HTTP, stateful, Python standard library only. It is clearly labelled as a
demo on every page it shows and never touches real money.

    python3 scripts/fakes/paypal.py --port 8421 --client-id ID --client-secret SECRET \
        --webhook-url http://127.0.0.1:8000/api/v1/payment/paypal/webhook --webhook-id WH-DEMO

PayPal's protocol as spoken here:

- POST /v1/oauth2/token (HTTP basic auth client id/secret, grant_type=client_credentials)
  -> {access_token, token_type, expires_in}. Tokens expire after --token-ttl seconds; any other
  call without a valid bearer token gets 401 invalid_token.
- POST /v2/checkout/orders (intent CAPTURE, purchase_units[0].amount, payment_source.paypal.
  experience_context.return_url/cancel_url) -> 201 order, status PAYER_ACTION_REQUIRED with a
  `payer-action` link to the approval page (status CREATED with an `approve` link without an
  experience context). JPY values must be whole numbers (DECIMAL_PRECISION otherwise).
- GET /v2/checkout/orders/{id} -> the order (404 RESOURCE_NOT_FOUND). Like PayPal, the fake
  forgets an order left unapproved for --order-ttl seconds (3 hours by default; measured on the
  fake's clock, which follows clock_offset): from then on every call about it — get, capture,
  the approval page — answers 404 RESOURCE_NOT_FOUND.
- POST /v2/checkout/orders/{id}/capture -> 201 order with purchase_units[0].payments.captures[0]
  (COMPLETED, or PENDING for a "pending" funding); 422 ORDER_NOT_APPROVED before approval,
  ORDER_ALREADY_CAPTURED after a capture, INSTRUMENT_DECLINED for a "declined" funding (the order
  then needs approving again). An order is captured at most once.
- POST /v2/payments/captures/{capture_id}/refund (an empty body: the whole capture) -> 201
  refund {id, status COMPLETED, amount}; the capture turns REFUNDED (the order shows it).
  422 CAPTURE_FULLY_REFUNDED for a capture refunded already, 404 RESOURCE_NOT_FOUND for one the
  fake never made.
- PayPal-Request-Id on create, capture and refund: a repeated id replays the first answer, byte for byte
  (also under concurrency: one capture, every caller gets its answer).
- POST /v1/notifications/verify-webhook-signature -> {verification_status: SUCCESS|FAILURE}.
- Webhooks to --webhook-url: CHECKOUT.ORDER.APPROVED on approval, PAYMENT.CAPTURE.COMPLETED /
  PAYMENT.CAPTURE.PENDING / PAYMENT.CAPTURE.DENIED at capture, with PAYPAL-TRANSMISSION-ID/-TIME/
  -SIG, PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO headers; retried three times on a non-2xx answer.
  PayPal signs with RSA over "<transmission id>|<time>|<webhook id>|<CRC32 of the raw body>";
  this fake signs the same string with an HMAC key of its own (the app never checks the signature
  itself: it asks verify-webhook-signature, which checks it here against the exact body bytes).
- GET /checkoutnow?token={id}: the approval page (pay, pay with a card that will be declined or
  stay pending, cancel), returning to return_url?token=&PayerID= or cancel_url?token=.

Test controls under /_fake/ (not PayPal's): config (webhook_url, webhook_id, token_ttl, order_ttl,
approve_base to hand out approval links on another origin, expire_tokens, clock_offset in seconds
so that transmission times and order expiry follow a test's clock), faults (see fakehttp.py),
approving an order without a browser, expiring one now (POST /_fake/orders/{id}/expire: PayPal
forgets it, as after 3 hours unapproved or a void), signing or delivering a webhook event, and
the recorded state.
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
import time
import urllib.parse
import zlib
from datetime import datetime, timezone

import fakehttp
from fakehttp import escape, html_response, json_response, redirect

AUTH_ALGO = "SHA256withRSA"


CLOCK = {"offset": 0.0}


def clock():
    """The fake's time in seconds (real time plus the configured clock offset)."""
    return time.time() + CLOCK["offset"]


def now_iso():
    """Now (plus the configured clock offset: tests run the app on a clock of their own)."""
    return datetime.fromtimestamp(time.time() + CLOCK["offset"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_id(length=17):
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))


def error(status, name, issue=None, message=""):
    body = {"name": name, "message": message or name, "debug_id": new_id(13).lower()}
    if issue:
        body["details"] = [{"issue": issue, "description": issue.replace("_", " ").lower()}]
    return json_response(status, body)


def with_query(url, extra):
    sep = "&" if urllib.parse.urlsplit(url).query else "?"
    return url + sep + urllib.parse.urlencode(extra)


class PayPal(fakehttp.App):
    name = "fake-paypal"

    def __init__(self, args):
        super().__init__()
        self.clients = {args.client_id: args.client_secret}
        self.token_ttl = args.token_ttl
        self.order_ttl = args.order_ttl
        self.public_base = args.public_base.rstrip("/")
        self.approve_base = None  # a test may make the fake hand out links elsewhere
        self.webhook_url = args.webhook_url
        self.webhook_id = args.webhook_id
        self.signing_key = os.urandom(32)
        self.tokens = {}
        self.orders = {}
        self.replays = {}
        self.inflight = {}
        self.captures = {}
        self.refunds = {}
        self.deliveries = []
        self.tokens_issued = 0
        r = self.route
        r("POST", "/v1/oauth2/token", self.token)
        r("POST", "/v2/checkout/orders", self.create)
        r("GET", "/v2/checkout/orders/(?P<id>[A-Za-z0-9]+)", self.get_order)
        r("POST", "/v2/checkout/orders/(?P<id>[A-Za-z0-9]+)/capture", self.capture)
        r("POST", "/v2/payments/captures/(?P<id>[A-Za-z0-9]+)/refund", self.refund)
        r("POST", "/v1/notifications/verify-webhook-signature", self.verify)
        r("GET", "/checkoutnow", self.approval_page)
        r("POST", "/checkoutnow", self.approval_answer)
        r("GET", "/certs/fake-paypal.pem", self.cert)
        r("POST", "/_fake/config", self.config)
        r("GET", "/_fake/state", self.state)
        r("GET", "/_fake/orders/(?P<id>[A-Za-z0-9]+)", self.raw_order)
        r("POST", "/_fake/orders/(?P<id>[A-Za-z0-9]+)/approve", self.approve_control)
        r("POST", "/_fake/orders/(?P<id>[A-Za-z0-9]+)/expire", self.expire_control)
        r("POST", "/_fake/webhooks/sign", self.sign_control)
        r("POST", "/_fake/webhooks/deliver", self.deliver_control)
        r("GET", "/_fake/webhooks", self.deliveries_control)

    # --- authentication -------------------------------------------------------------------

    def token(self, req):
        auth = req.header("Authorization") or ""
        ok = False
        if auth.startswith("Basic "):
            try:
                user, _, password = base64.b64decode(auth[6:]).decode().partition(":")
                ok = user in self.clients and hmac.compare_digest(self.clients[user], password)
            except Exception:
                ok = False
        if not ok:
            return json_response(401, {"error": "invalid_client", "error_description": "Client Authentication failed"})
        if req.form().get("grant_type") != "client_credentials":
            return json_response(400, {"error": "unsupported_grant_type"})
        token = "A21AA" + secrets.token_urlsafe(40)
        with self.lock:
            self.tokens[token] = time.time() + self.token_ttl
            self.tokens_issued += 1
        return json_response(200, {
            "scope": "https://uri.paypal.com/services/payments/payment",
            "access_token": token, "token_type": "Bearer", "app_id": "APP-FAKE", "expires_in": self.token_ttl,
            "nonce": now_iso() + secrets.token_hex(8),
        })

    def authorized(self, req):
        auth = req.header("Authorization") or ""
        if not auth.startswith("Bearer "):
            return False
        with self.lock:
            expires = self.tokens.get(auth[7:])
        return expires is not None and expires > time.time()

    def unauthorized(self):
        return json_response(401, {"error": "invalid_token", "error_description": "Token signature verification failed"})

    # --- orders ---------------------------------------------------------------------------

    def links(self, order):
        base = self.public_base
        web = self.approve_base or base
        links = [{"href": "%s/v2/checkout/orders/%s" % (base, order["id"]), "rel": "self", "method": "GET"}]
        if order["status"] in ("CREATED", "PAYER_ACTION_REQUIRED"):
            rel = "payer-action" if order["experience"] else "approve"
            links.append({"href": "%s/checkoutnow?token=%s" % (web, order["id"]), "rel": rel, "method": "GET"})
        if order["status"] == "APPROVED":
            links.append({"href": "%s/v2/checkout/orders/%s/capture" % (base, order["id"]), "rel": "capture", "method": "POST"})
        return links

    def view(self, order):
        unit = dict(order["unit"])
        if order["capture"]:
            unit["payments"] = {"captures": [order["capture"]]}
        body = {
            "id": order["id"], "intent": order["intent"], "status": order["status"],
            "purchase_units": [unit], "create_time": order["create_time"], "links": self.links(order),
        }
        if order["payer"]:
            body["payer"] = order["payer"]
            body["payment_source"] = {"paypal": {"email_address": order["payer"]["email_address"], "account_id": order["payer"]["payer_id"]}}
        if order["capture"]:
            body["update_time"] = order["capture"]["create_time"]
        return body

    def replayed(self, key, work):
        """Runs `work` once per request id; a repeated id (also while the first one is still being
        worked on) gets the first answer."""
        if not key:
            return work()
        with self.lock:
            if key in self.replays:
                return self.replays[key]
            event = self.inflight.get(key)
            if event is None:
                event = self.inflight[key] = threading.Event()
                mine = True
            else:
                mine = False
        if not mine:
            event.wait(60)
            with self.lock:
                return self.replays.get(key) or error(409, "DUPLICATE_REQUEST_ID", "DUPLICATE_REQUEST_ID")
        try:
            response = work()
        finally:
            with self.lock:
                if "response" in locals():
                    self.replays[key] = response
                self.inflight.pop(key, None)
            event.set()
        return response

    def create(self, req):
        if not self.authorized(req):
            return self.unauthorized()
        body = req.json()
        if not isinstance(body, dict):
            return error(400, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON")
        key = req.header("PayPal-Request-Id")
        return self.replayed(("create", key) if key else None, lambda: self.create_order(body))

    def create_order(self, body):
        if body.get("intent") not in ("CAPTURE", "AUTHORIZE"):
            return error(400, "INVALID_REQUEST", "INVALID_PARAMETER_VALUE")
        units = body.get("purchase_units") or []
        if len(units) != 1 or not isinstance(units[0], dict):
            return error(400, "INVALID_REQUEST", "INVALID_ARRAY_MAX_ITEMS")
        amount = units[0].get("amount") or {}
        currency, value = amount.get("currency_code"), str(amount.get("value", ""))
        if not currency or not re.fullmatch(r"\d+(\.\d+)?", value):
            return error(400, "INVALID_REQUEST", "INVALID_PARAMETER_VALUE")
        if currency == "JPY" and "." in value:
            return error(422, "UNPROCESSABLE_ENTITY", "DECIMAL_PRECISION")
        experience = ((body.get("payment_source") or {}).get("paypal") or {}).get("experience_context")
        context = experience or body.get("application_context") or {}
        order = {
            "id": new_id(), "intent": body["intent"],
            "status": "PAYER_ACTION_REQUIRED" if experience else "CREATED",
            "experience": bool(experience),
            "unit": {
                "reference_id": units[0].get("reference_id", "default"),
                "custom_id": units[0].get("custom_id"),
                "description": units[0].get("description"),
                "amount": {"currency_code": currency, "value": value},
                "payee": {"merchant_id": "FAKEMERCHANT1", "email_address": "merchant@demo.vmarket.test"},
            },
            "return_url": context.get("return_url"), "cancel_url": context.get("cancel_url"),
            "locale": context.get("locale", "ja-JP"),
            "create_time": now_iso(), "created": clock(), "payer": None, "funding": None, "capture": None,
        }
        with self.lock:
            self.orders[order["id"]] = order
        return json_response(201, self.view(order))

    def find(self, order_id):
        """The order `order_id`, unless PayPal would have forgotten it: left unapproved for longer
        than order_ttl (it is dropped then, for good). Call with the lock held."""
        order = self.orders.get(order_id)
        if order and order["status"] in ("CREATED", "PAYER_ACTION_REQUIRED") and clock() - order["created"] > float(self.order_ttl):
            del self.orders[order_id]
            return None
        return order

    def get_order(self, req):
        if not self.authorized(req):
            return self.unauthorized()
        with self.lock:
            order = self.find(req.params["id"])
            if not order:
                return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "The specified resource does not exist.")
            return json_response(200, self.view(order))

    def capture(self, req):
        if not self.authorized(req):
            return self.unauthorized()
        key = req.header("PayPal-Request-Id")
        order_id = req.params["id"]
        return self.replayed(("capture", key) if key else None, lambda: self.capture_order(order_id))

    def capture_order(self, order_id):
        with self.lock:
            order = self.find(order_id)
            if not order:
                return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "The specified resource does not exist.")
            if order["status"] == "COMPLETED":
                return error(422, "UNPROCESSABLE_ENTITY", "ORDER_ALREADY_CAPTURED", "Order already captured.")
            if order["status"] != "APPROVED":
                return error(422, "UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.")
            if order["funding"] == "declined":
                order["status"] = "PAYER_ACTION_REQUIRED" if order["experience"] else "CREATED"
                order["funding"] = None
                self.notify_later("PAYMENT.CAPTURE.DENIED", "capture", self.capture_resource(order, "DECLINED"))
                return error(422, "UNPROCESSABLE_ENTITY", "INSTRUMENT_DECLINED",
                             "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.")
            status = "PENDING" if order["funding"] == "pending" else "COMPLETED"
            order["capture"] = self.capture_resource(order, status)
            order["status"] = "COMPLETED"
            self.captures[order_id] = self.captures.get(order_id, 0) + 1
            kind = "PAYMENT.CAPTURE.COMPLETED" if status == "COMPLETED" else "PAYMENT.CAPTURE.PENDING"
            self.notify_later(kind, "capture", order["capture"])
            return json_response(201, self.view(order))

    def refund(self, req):
        if not self.authorized(req):
            return self.unauthorized()
        key = req.header("PayPal-Request-Id")
        capture_id = req.params["id"]
        return self.replayed(("refund", key) if key else None, lambda: self.refund_capture(capture_id))

    def refund_capture(self, capture_id):
        with self.lock:
            order = next((o for o in self.orders.values() if o["capture"] and o["capture"]["id"] == capture_id), None)
            if not order:
                return error(404, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "The specified resource does not exist.")
            if order["capture"]["status"] == "REFUNDED":
                return error(422, "UNPROCESSABLE_ENTITY", "CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.")
            order["capture"]["status"] = "REFUNDED"
            refund = {"id": new_id(), "status": "COMPLETED", "amount": dict(order["capture"]["amount"]), "create_time": now_iso()}
            self.refunds[capture_id] = refund
            return json_response(201, refund)

    def capture_resource(self, order, status):
        capture = {
            "id": new_id(),
            "status": status,
            "amount": dict(order["unit"]["amount"]),
            "final_capture": True,
            "custom_id": order["unit"].get("custom_id"),
            "create_time": now_iso(),
            "supplementary_data": {"related_ids": {"order_id": order["id"]}},
        }
        if status == "PENDING":
            capture["status_details"] = {"reason": "PENDING_REVIEW"}
        return capture

    # --- the payer's approval page ----------------------------------------------------------

    def approval_page(self, req):
        with self.lock:
            order = self.find(req.query.get("token", ""))
        if not order or order["status"] not in ("CREATED", "PAYER_ACTION_REQUIRED"):
            return html_response(404, fakehttp.page("PayPal (demo)", "<h1>この注文は承認できません / This order cannot be approved</h1>"))
        unit = order["unit"]
        body = """
<p class="demo" data-testid="fake-paypal-banner">デモ用の PayPal です。実際のお金は動きません。<br><span lang="en">Demo PayPal: no real money moves.</span></p>
<h1>PayPal <span lang="en">(demo)</span></h1>
<dl><dt>お支払い先 / Pay to</dt><dd>Virtual Market</dd>
<dt>内容 / Item</dt><dd data-testid="fake-paypal-item">%s</dd>
<dt>金額 / Amount</dt><dd data-testid="fake-paypal-amount">%s %s</dd></dl>
<form method="post" action="/checkoutnow">
<input type="hidden" name="token" value="%s">
<button class="primary" type="submit" name="choice" value="pay" data-testid="fake-paypal-pay">支払う / Pay</button>
<button type="submit" name="choice" value="declined" data-testid="fake-paypal-declined">承認されないカードで支払う / Pay with a card that will be declined</button>
<button type="submit" name="choice" value="pending" data-testid="fake-paypal-pending">審査待ちになる支払い / Pay, held for review</button>
<button type="submit" name="choice" value="cancel" data-testid="fake-paypal-cancel">キャンセルしてサイトに戻る / Cancel and return</button>
</form>""" % (escape(unit.get("description") or ""), escape(unit["amount"]["value"]), escape(unit["amount"]["currency_code"]), escape(order["id"]))
        return html_response(200, fakehttp.page("PayPal (demo)", body))

    def approve(self, order_id, funding):
        with self.lock:
            order = self.find(order_id)
            if not order or order["status"] not in ("CREATED", "PAYER_ACTION_REQUIRED"):
                return None
            order["status"] = "APPROVED"
            order["funding"] = funding
            order["payer"] = {
                "payer_id": "FAKEPAYER" + order_id[:4],
                "email_address": "payer@demo.vmarket.test",
                "name": {"given_name": "Demo", "surname": "Payer"},
            }
            view = self.view(order)
        self.notify_later("CHECKOUT.ORDER.APPROVED", "checkout-order", view)
        return order

    def approval_answer(self, req):
        form = req.form()
        order_id, choice = form.get("token", ""), form.get("choice", "")
        with self.lock:
            order = self.find(order_id)
        if not order:
            return html_response(404, fakehttp.page("PayPal (demo)", "<h1>注文が見つかりません / No such order</h1>"))
        if choice == "cancel":
            return redirect(with_query(order["cancel_url"] or "/", {"token": order_id}))
        funding = {"pay": "ok", "declined": "declined", "pending": "pending"}.get(choice, "ok")
        approved = self.approve(order_id, funding)
        if not approved:
            return html_response(409, fakehttp.page("PayPal (demo)", "<h1>この注文は承認済みです / Already approved</h1>"))
        return redirect(with_query(approved["return_url"] or "/", {"token": order_id, "PayerID": approved["payer"]["payer_id"]}))

    def cert(self, req):
        return fakehttp.Response(200, "-----BEGIN CERTIFICATE-----\nZmFrZQ==\n-----END CERTIFICATE-----\n", "text/plain")

    # --- webhooks ---------------------------------------------------------------------------

    def sign(self, raw, webhook_id, transmission_id=None, transmission_time=None):
        tid = transmission_id or "%s-%s" % (secrets.token_hex(4), secrets.token_hex(6))
        ttime = transmission_time or now_iso()
        crc = zlib.crc32(raw) & 0xFFFFFFFF
        message = ("%s|%s|%s|%d" % (tid, ttime, webhook_id, crc)).encode()
        sig = base64.b64encode(hmac.new(self.signing_key, message, hashlib.sha256).digest()).decode()
        return {
            "PAYPAL-TRANSMISSION-ID": tid,
            "PAYPAL-TRANSMISSION-TIME": ttime,
            "PAYPAL-TRANSMISSION-SIG": sig,
            "PAYPAL-CERT-URL": self.public_base + "/certs/fake-paypal.pem",
            "PAYPAL-AUTH-ALGO": AUTH_ALGO,
        }

    def event(self, kind, resource_type, resource):
        return {
            "id": "WH-" + new_id(8) + "-" + new_id(17),
            "event_version": "1.0",
            "create_time": now_iso(),
            "resource_type": resource_type,
            "resource_version": "2.0",
            "event_type": kind,
            "summary": kind.lower().replace(".", " "),
            "resource": resource,
        }

    def deliver(self, raw, headers):
        status, text = fakehttp.post(self.webhook_url, raw, dict(headers, **{"Content-Type": "application/json"}))
        with self.lock:
            self.deliveries.append({"status": status, "answer": text[:500], "headers": headers, "body": raw.decode()})
        return status, text

    def notify_later(self, kind, resource_type, resource):
        if not self.webhook_url:
            return
        raw = json.dumps(self.event(kind, resource_type, resource), separators=(",", ":")).encode()

        def run():
            for attempt in range(4):
                status, _ = self.deliver(raw, self.sign(raw, self.webhook_id))
                if 200 <= status < 300:
                    return
                time.sleep(1 + attempt)

        threading.Thread(target=run, daemon=True).start()

    def verify(self, req):
        if not self.authorized(req):
            return self.unauthorized()
        text = req.body.decode("utf-8", errors="replace")
        body = req.json()
        if not isinstance(body, dict):
            return error(400, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON")
        for field in ("auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id"):
            if not isinstance(body.get(field), str) or not body[field]:
                return error(400, "VALIDATION_ERROR", "MISSING_REQUIRED_PARAMETER")
        # The event exactly as the caller sent it: the signature covers the raw bytes.
        found = re.search(r'"webhook_event"\s*:\s*', text)
        if not found:
            return error(400, "VALIDATION_ERROR", "MISSING_REQUIRED_PARAMETER")
        try:
            _, end = json.JSONDecoder().raw_decode(text, found.end())
        except ValueError:
            return error(400, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON")
        raw = text[found.end():end].encode("utf-8")
        expected = self.sign(raw, body["webhook_id"], body["transmission_id"], body["transmission_time"])
        ok = (
            body["auth_algo"] == AUTH_ALGO
            and body["cert_url"] == self.public_base + "/certs/fake-paypal.pem"
            and body["webhook_id"] == self.webhook_id
            and hmac.compare_digest(expected["PAYPAL-TRANSMISSION-SIG"], body["transmission_sig"])
        )
        return json_response(200, {"verification_status": "SUCCESS" if ok else "FAILURE"})

    # --- test controls ----------------------------------------------------------------------

    def config(self, req):
        body = req.json() or {}
        with self.lock:
            for field in ("webhook_url", "webhook_id", "token_ttl", "order_ttl", "approve_base"):
                if field in body:
                    setattr(self, field, body[field])
            if "clock_offset" in body:
                CLOCK["offset"] = float(body["clock_offset"])
            if body.get("expire_tokens"):
                self.tokens.clear()
        return json_response(200, {"ok": True})

    def state(self, req):
        with self.lock:
            return json_response(200, {
                "orders": len(self.orders), "captures": self.captures, "refunds": self.refunds, "tokens_issued": self.tokens_issued,
                "tokens": list(self.tokens.keys()),
            })

    def raw_order(self, req):
        with self.lock:
            order = self.find(req.params["id"])
            if not order:
                return json_response(404, {})
            return json_response(200, dict(
                self.view(order), captures=self.captures.get(order["id"], 0), funding=order["funding"],
                locale=order["locale"], return_url=order["return_url"], cancel_url=order["cancel_url"]))

    def approve_control(self, req):
        body = req.json() or {}
        approved = self.approve(req.params["id"], body.get("funding", "ok"))
        if not approved:
            return json_response(409, {"error": "not approvable"})
        return json_response(200, {"return_url": with_query(approved["return_url"] or "/", {"token": approved["id"], "PayerID": approved["payer"]["payer_id"]})})

    def expire_control(self, req):
        with self.lock:
            gone = self.orders.pop(req.params["id"], None)
        return json_response(200 if gone else 404, {"expired": bool(gone)})

    def sign_control(self, req):
        body = req.json() or {}
        raw = body["raw"].encode() if "raw" in body else json.dumps(self.event(body.get("event_type", "CHECKOUT.ORDER.APPROVED"), body.get("resource_type", "checkout-order"), body.get("resource", {})), separators=(",", ":")).encode()
        headers = self.sign(raw, body.get("webhook_id", self.webhook_id), None, body.get("transmission_time"))
        return json_response(200, {"headers": headers, "body": raw.decode()})

    def deliver_control(self, req):
        body = req.json() or {}
        raw = body["raw"].encode() if "raw" in body else json.dumps(self.event(body.get("event_type", "CHECKOUT.ORDER.APPROVED"), body.get("resource_type", "checkout-order"), body.get("resource", {})), separators=(",", ":")).encode()
        status, text = self.deliver(raw, self.sign(raw, self.webhook_id))
        return json_response(200, {"status": status, "answer": text, "body": raw.decode()})

    def deliveries_control(self, req):
        with self.lock:
            return json_response(200, self.deliveries)


def main():
    parser = argparse.ArgumentParser(description="A fake PayPal (Orders v2) for tests and the demo")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8421)
    parser.add_argument("--public-base", help="this server's URL as others reach it (default http://HOST:PORT)")
    parser.add_argument("--client-id", default="demo-client")
    parser.add_argument("--client-secret", default="demo-secret")
    parser.add_argument("--webhook-url", default="")
    parser.add_argument("--webhook-id", default="WH-DEMO")
    parser.add_argument("--token-ttl", type=int, default=32400)
    parser.add_argument("--order-ttl", type=int, default=3 * 3600, help="seconds an unapproved order lives")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    args.public_base = args.public_base or "http://%s:%d" % (args.host, args.port)
    app = PayPal(args)
    app.verbose = args.verbose
    fakehttp.serve(app, args.host, args.port)


if __name__ == "__main__":
    main()
