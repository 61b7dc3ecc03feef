#!/usr/bin/env python3
"""A fake GMO Payment Gateway for vmarket's tests and the `make run` demo: link type Plus (key
type), the trade search and the result notification, over real HTTP, stateful, Python standard
library only. Every page it shows says it is a demo; no real money moves.

    python3 scripts/fakes/gmo.py --port 8422 --shop-id tshop00000001 --shop-pass demopass \
        --notify-url http://127.0.0.1:8000/api/v1/payment/gmo/notification

GMO's protocol as spoken here:

- POST /payment/GetLinkplusUrlPayment.json (JSON: geturlparam {ShopID, ShopPass}, configid,
  transaction {OrderID, Amount, Tax, PayMethods, RetUrl, CancelUrl, PaymentExpireDate
  yyyyMMddHHmm JST}, credit {JobCd, Method}) -> {OrderID, LinkUrl, ProcessDate}; errors are
  HTTP 400 with [{"errCode": "E01", "errInfo": "E01…"}]: E01030002 wrong shop, E01040001 no
  OrderID, E01040002 OrderID too long or not alphanumeric, E01040010 OrderID already used (a URL
  is issued once per order id), E01050001 no amount.
- GET {LinkUrl}: the payment page (pay; a card that is refused with 42G020000; cancel). Paying
  makes the trade CAPTURE (JobCd CAPTURE), sends the result notification, and shows a "return to
  the shop" button that POSTs `result` = base64(JSON) + "." + hex(SHA-256(base64 + ShopPass)) to
  RetUrl; a cancel goes to CancelUrl. After PaymentExpireDate the page refuses to pay.
- POST /payment/SearchTrade.idPass (form ShopID, ShopPass, OrderID) -> `Key=Value&…`
  (OrderID, Status, ProcessDate, JobCd, AccessID, AccessPass, Amount, Tax, TranID, Approve,
  Forward, Method, PayType, …) or ErrCode=E01&ErrInfo=E01110002 for an unknown order.
- POST /payment/AlterTran.idPass (form ShopID, ShopPass, AccessID, AccessPass, JobCd VOID | RETURN)
  -> `AccessID=…&AccessPass=…&Forward=…&Approve=…&TranID=…&TranDate=…`: gives a charged trade back
  (its Status becomes the JobCd). VOID only on the day of the charge (JST, its ProcessDate), RETURN any day; the
  errors, as `ErrCode=E01&ErrInfo=…`: E01110002 an unknown AccessID or a wrong AccessPass,
  E01390002 a trade whose status does not allow it (not charged, given back already), E01390010
  a VOID after the day of the charge (the codes this fake uses; tests rely on them being errors).
- The result notification (結果通知プログラム): a form POST to --notify-url with ShopID, ShopPass
  and AccessPass masked, AccessID, OrderID, Status, JobCd, Amount, Tax, Currency, Forward, Method,
  PayTimes, TranID, Approve, TranDate, ErrCode, ErrInfo, PayType. The receiver answers "0";
  anything else is sent again (three more times, a second apart here; GMO retries for longer).

Test controls under /_fake/ (not GMO's): config (notify_url, link_base to hand out payment pages on
another origin, ignore_expiry, clock_offset in seconds so that dates follow a test's clock), faults (see fakehttp.py), paying or voiding a
trade without a browser (`hidden`: SearchTrade does not show it until /reveal), sending a notification, and the recorded state.
"""

import argparse
import base64
import hashlib
import json
import re
import secrets
import threading
import time
import urllib.parse
from datetime import datetime, timedelta, timezone

import fakehttp
from fakehttp import escape, html_response, json_response, redirect

JST = timezone(timedelta(hours=9))


CLOCK = {"offset": 0.0}


def now():
    """Now in JST (plus the configured clock offset: tests run the app on a clock of their own)."""
    return datetime.now(JST) + timedelta(seconds=CLOCK["offset"])


def stamp(fmt="%Y%m%d%H%M%S"):
    return now().strftime(fmt)


def link_error(info):
    return json_response(400, [{"errCode": info[:3], "errInfo": info}])


def pairs(values):
    return fakehttp.Response(200, urllib.parse.urlencode(values), "text/plain; charset=Windows-31J")


class Gmo(fakehttp.App):
    name = "fake-gmo"

    def __init__(self, args):
        super().__init__()
        self.shops = {args.shop_id: args.shop_pass}
        self.public_base = args.public_base.rstrip("/")
        self.link_base = None  # a test may make the fake hand out links elsewhere
        self.notify_url = args.notify_url
        self.ignore_expiry = args.ignore_expiry
        self.trades = {}
        self.by_token = {}
        self.notifications = []
        r = self.route
        r("POST", "/payment/GetLinkplusUrlPayment.json", self.link)
        r("POST", "/payment/SearchTrade.idPass", self.search)
        r("POST", "/payment/AlterTran.idPass", self.alter)
        r("GET", "/v1/plus/(?P<shop>[A-Za-z0-9]+)/checkout/(?P<token>[A-Za-z0-9_-]+)", self.page)
        r("POST", "/v1/plus/(?P<shop>[A-Za-z0-9]+)/checkout/(?P<token>[A-Za-z0-9_-]+)", self.answer)
        r("POST", "/_fake/config", self.config)
        r("GET", "/_fake/trades/(?P<id>[A-Za-z0-9-]+)", self.raw_trade)
        r("POST", "/_fake/trades/(?P<id>[A-Za-z0-9-]+)/pay", self.pay_control)
        r("POST", "/_fake/trades/(?P<id>[A-Za-z0-9-]+)/void", self.void_control)
        r("POST", "/_fake/trades/(?P<id>[A-Za-z0-9-]+)/reveal", self.reveal_control)
        r("POST", "/_fake/notify", self.notify_control)
        r("GET", "/_fake/notifications", self.notifications_control)

    def shop_ok(self, shop_id, shop_pass):
        return shop_id in self.shops and self.shops[shop_id] == shop_pass

    # --- link type Plus ---------------------------------------------------------------------

    def link(self, req):
        body = req.json()
        if not isinstance(body, dict):
            return link_error("E01010001")
        auth = body.get("geturlparam") or {}
        if not self.shop_ok(auth.get("ShopID"), auth.get("ShopPass")):
            return link_error("E01030002")
        tr = body.get("transaction") or {}
        order_id = str(tr.get("OrderID") or "")
        if not order_id:
            return link_error("E01040001")
        if len(order_id) > 27 or not re.fullmatch(r"[A-Za-z0-9-]+", order_id):
            return link_error("E01040002")
        try:
            amount = int(str(tr.get("Amount")))
            tax = int(str(tr.get("Tax") or 0))
        except ValueError:
            return link_error("E01050001")
        if amount <= 0:
            return link_error("E01050001")
        credit = body.get("credit") or {}
        with self.lock:
            if order_id in self.trades:
                return link_error("E01040010")
            token = secrets.token_urlsafe(24)
            trade = {
                "OrderID": order_id, "Status": "UNPROCESSED", "JobCd": credit.get("JobCd", "CAPTURE"),
                "Amount": amount, "Tax": tax, "AccessID": secrets.token_hex(16), "AccessPass": secrets.token_hex(16),
                "TranID": "", "Approve": "", "TranDate": "", "ProcessDate": stamp(), "ErrCode": "", "ErrInfo": "",
                "RetUrl": tr.get("RetUrl") or "", "CancelUrl": tr.get("CancelUrl") or tr.get("RetUrl") or "",
                "Expire": str(tr.get("PaymentExpireDate") or ""), "shop": auth["ShopID"], "token": token,
                "paid": 0,
            }
            self.trades[order_id] = trade
            self.by_token[token] = order_id
        base = self.link_base or self.public_base
        url = "%s/v1/plus/%s/checkout/%s" % (base, auth["ShopID"], token)
        return json_response(200, {"OrderID": order_id, "LinkUrl": url, "ProcessDate": trade["ProcessDate"]})

    def expired(self, trade):
        if self.ignore_expiry or not trade["Expire"]:
            return False
        try:
            deadline = datetime.strptime(trade["Expire"][:12], "%Y%m%d%H%M").replace(tzinfo=JST)
        except ValueError:
            return False
        return now() > deadline + timedelta(seconds=59)

    def trade_of(self, req):
        with self.lock:
            order_id = self.by_token.get(req.params["token"])
            trade = self.trades.get(order_id) if order_id else None
        if not trade or trade["shop"] != req.params["shop"]:
            return None
        return trade

    def page(self, req):
        trade = self.trade_of(req)
        if not trade:
            return html_response(404, fakehttp.page("GMO (demo)", "<h1>このお支払いページは存在しません / No such payment page</h1>"))
        banner = ('<p class="demo" data-testid="fake-gmo-banner">デモ用の GMO ペイメントゲートウェイです。実際のお金は動きません。'
                  '<br><span lang="en">Demo GMO Payment Gateway: no real money moves.</span></p>')
        if trade["Status"] in ("CAPTURE", "SALES"):
            return html_response(200, fakehttp.page("GMO (demo)", banner + "<h1>お支払い済みです / Already paid</h1>" + self.return_form(trade, "PAYSUCCESS")))
        if self.expired(trade):
            return html_response(200, fakehttp.page("GMO (demo)", banner + "<h1>お支払い期限を過ぎています / The payment period is over</h1>" + self.return_form(trade, "EXPIRED")))
        body = banner + """
<h1>クレジットカードでのお支払い <span lang="en">/ Pay by card</span></h1>
<dl><dt>オーダーID / Order</dt><dd>%s</dd><dt>金額 / Amount</dt><dd data-testid="fake-gmo-amount">%s 円 (JPY)</dd></dl>
<form method="post">
<label for="card">カード番号 / Card number</label>
<input id="card" name="card" inputmode="numeric" autocomplete="off" value="4111 1111 1111 1111">
<p><small>4111 1111 1111 1111: 承認されます / approved ・ 4000 0000 0000 0002: 承認されません / declined</small></p>
<button class="primary" type="submit" name="choice" value="pay" data-testid="fake-gmo-pay">支払う / Pay</button>
<button type="submit" name="choice" value="declined" data-testid="fake-gmo-declined">承認されないカードで支払う / Pay with a declined card</button>
<button type="submit" name="choice" value="cancel" data-testid="fake-gmo-cancel">キャンセルしてサイトに戻る / Cancel and return</button>
</form>""" % (escape(trade["OrderID"]), escape("{:,}".format(trade["Amount"] + trade["Tax"])))
        return html_response(200, fakehttp.page("GMO (demo)", body))

    def result_param(self, trade, result):
        shop_pass = self.shops[trade["shop"]]
        payload = {
            "transactionresult": {
                "AccessID": trade["AccessID"], "AccessPass": trade["AccessPass"], "OrderID": trade["OrderID"],
                "Result": result, "Processdate": stamp(), "ErrCode": trade["ErrCode"] or None,
                "ErrInfo": trade["ErrInfo"] or None, "Paymethod": "credit",
            },
            "credit": {"Status": trade["Status"], "Forward": "2a99662", "Method": "1", "PayTimes": None,
                       "TranID": trade["TranID"], "Approve": trade["Approve"], "TranDate": trade["TranDate"]},
        }
        encoded = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode()
        digest = hashlib.sha256((encoded + shop_pass).encode()).hexdigest()
        return encoded + "." + digest

    def return_form(self, trade, result):
        return """<form method="post" action="%s"><input type="hidden" name="result" value="%s">
<button class="primary" type="submit" data-testid="fake-gmo-return">サイトに戻る / Return to the shop</button></form>""" % (
            escape(trade["RetUrl"]), escape(self.result_param(trade, result)))

    def pay(self, trade, outcome):
        """Charges (or refuses) `trade`; sends the notification. Returns GMO's Result."""
        with self.lock:
            if trade["Status"] in ("CAPTURE", "SALES"):
                return "PAYSUCCESS"
            if outcome == "declined":
                trade["ErrCode"], trade["ErrInfo"] = "42G", "42G020000"
                result = "ERROR"
            else:
                trade["Status"] = trade["JobCd"] if trade["JobCd"] in ("CAPTURE", "AUTH") else "CAPTURE"
                trade["TranID"] = stamp("%y%m%d%H%M") + secrets.token_hex(9)
                trade["Approve"] = "%07d" % secrets.randbelow(10 ** 7)
                trade["TranDate"] = stamp()
                trade["ProcessDate"] = trade["TranDate"]
                trade["ErrCode"], trade["ErrInfo"] = "", ""
                trade["paid"] += 1
                result = "PAYSUCCESS"
        self.notify_later(trade)
        return result

    def answer(self, req):
        trade = self.trade_of(req)
        if not trade:
            return html_response(404, fakehttp.page("GMO (demo)", "<h1>このお支払いページは存在しません / No such payment page</h1>"))
        form = req.form()
        choice = form.get("choice", "pay")
        if choice == "cancel":
            return redirect(trade["CancelUrl"] or "/")
        if self.expired(trade):
            return html_response(200, fakehttp.page("GMO (demo)", "<h1>お支払い期限を過ぎています / The payment period is over</h1>" + self.return_form(trade, "EXPIRED")))
        card = re.sub(r"\D", "", form.get("card", ""))
        outcome = "declined" if choice == "declined" or card == "4000000000000002" else "paid"
        result = self.pay(trade, outcome)
        if result == "PAYSUCCESS":
            title = "お支払いが完了しました / Payment complete"
            more = ""
        else:
            title = "カードが承認されませんでした / The card was declined"
            more = '<p><a href="">別のカードで支払う / Pay with another card</a></p>'
        body = ('<p class="demo">デモ用の GMO ペイメントゲートウェイです。実際のお金は動きません。</p><h1 data-testid="fake-gmo-result">%s</h1>%s%s'
                % (title, more, self.return_form(trade, result)))
        return html_response(200, fakehttp.page("GMO (demo)", body))

    # --- the trade search and the result notification -----------------------------------------

    def search(self, req):
        form = req.form()
        if not self.shop_ok(form.get("ShopID"), form.get("ShopPass")):
            return pairs({"ErrCode": "E01", "ErrInfo": "E01030002"})
        with self.lock:
            trade = self.trades.get(form.get("OrderID", ""))
            if not trade:
                return pairs({"ErrCode": "E01", "ErrInfo": "E01110002"})
            if trade.get("hidden"):  # a test's "GMO's search has not caught up yet"
                trade = dict(trade, Status="UNPROCESSED", TranID="", Approve="")
            return pairs({
                "OrderID": trade["OrderID"], "Status": trade["Status"], "ProcessDate": trade["ProcessDate"],
                "JobCd": trade["JobCd"], "AccessID": trade["AccessID"], "AccessPass": trade["AccessPass"],
                "ItemCode": "0000990", "Amount": trade["Amount"], "Tax": trade["Tax"], "SiteID": "", "MemberID": "",
                "CardNo": "************1111" if trade["TranID"] else "", "Expire": "", "Method": "1", "PayTimes": "",
                "Forward": "2a99662" if trade["TranID"] else "", "TranID": trade["TranID"], "Approve": trade["Approve"],
                "ClientField1": "", "ClientField2": "", "ClientField3": "", "PayType": "0",
            })

    def alter(self, req):
        form = req.form()
        if not self.shop_ok(form.get("ShopID"), form.get("ShopPass")):
            return pairs({"ErrCode": "E01", "ErrInfo": "E01030002"})
        job = form.get("JobCd", "")
        with self.lock:
            trade = next((t for t in self.trades.values() if t["AccessID"] == form.get("AccessID")), None)
            if not trade or trade["AccessPass"] != form.get("AccessPass") or trade["shop"] != form.get("ShopID"):
                return pairs({"ErrCode": "E01", "ErrInfo": "E01110002"})
            if job not in ("VOID", "RETURN") or trade["Status"] not in ("CAPTURE", "SALES"):
                return pairs({"ErrCode": "E01", "ErrInfo": "E01390002"})
            if job == "VOID" and trade["ProcessDate"][:8] != stamp("%Y%m%d"):
                return pairs({"ErrCode": "E01", "ErrInfo": "E01390010"})
            trade["Status"] = job
            trade["ProcessDate"] = stamp()
            trade["returned"] = trade.get("returned", 0) + 1
            return pairs({
                "AccessID": trade["AccessID"], "AccessPass": trade["AccessPass"], "Forward": "2a99662",
                "Approve": trade["Approve"], "TranID": trade["TranID"], "TranDate": stamp(),
            })

    def notification(self, trade, overrides=None):
        fields = {
            "ShopID": trade["shop"], "ShopPass": "**********", "AccessID": trade["AccessID"], "AccessPass": "**********",
            "OrderID": trade["OrderID"], "Status": trade["Status"], "JobCd": trade["JobCd"], "Amount": trade["Amount"],
            "Tax": trade["Tax"], "Currency": "JPN", "Forward": "2a99662" if trade["TranID"] else "", "Method": "1",
            "PayTimes": "", "TranID": trade["TranID"], "Approve": trade["Approve"], "TranDate": trade["TranDate"],
            "ErrCode": trade["ErrCode"], "ErrInfo": trade["ErrInfo"], "PayType": "0",
        }
        fields.update(overrides or {})
        return urllib.parse.urlencode(fields).encode("ascii")

    def send(self, body):
        status, text = fakehttp.post(self.notify_url, body, {"Content-Type": "application/x-www-form-urlencoded"})
        with self.lock:
            self.notifications.append({"status": status, "answer": text[:200], "body": body.decode()})
        return status, text

    def notify_later(self, trade):
        if not self.notify_url:
            return
        body = self.notification(trade)

        def run():
            for attempt in range(4):
                status, text = self.send(body)
                if status == 200 and text.strip() == "0":
                    return
                time.sleep(1)

        threading.Thread(target=run, daemon=True).start()

    # --- test controls ----------------------------------------------------------------------

    def config(self, req):
        body = req.json() or {}
        with self.lock:
            for field in ("notify_url", "link_base", "ignore_expiry"):
                if field in body:
                    setattr(self, field, body[field])
            if "clock_offset" in body:
                CLOCK["offset"] = float(body["clock_offset"])
        return json_response(200, {"ok": True})

    def raw_trade(self, req):
        with self.lock:
            trade = self.trades.get(req.params["id"])
            return json_response(200, trade) if trade else json_response(404, {})

    def pay_control(self, req):
        body = req.json() or {}
        with self.lock:
            trade = self.trades.get(req.params["id"])
        if not trade:
            return json_response(404, {})
        result = self.pay(trade, body.get("outcome", "paid"))
        with self.lock:
            trade["hidden"] = bool(body.get("hidden"))
        return json_response(200, {"result": result, "ret_url": trade["RetUrl"], "result_param": self.result_param(trade, result)})

    def reveal_control(self, req):
        with self.lock:
            trade = self.trades.get(req.params["id"])
            if not trade:
                return json_response(404, {})
            trade["hidden"] = False
        return json_response(200, {"ok": True})

    def void_control(self, req):
        with self.lock:
            trade = self.trades.get(req.params["id"])
            if not trade:
                return json_response(404, {})
            trade["Status"] = "VOID"
        return json_response(200, {"ok": True})

    def notify_control(self, req):
        body = req.json() or {}
        if "raw" in body:
            raw = body["raw"].encode()
        else:
            with self.lock:
                trade = self.trades.get(body.get("order_id", ""))
            if not trade:
                return json_response(404, {})
            raw = self.notification(trade, body.get("fields"))
        status, text = self.send(raw)
        return json_response(200, {"status": status, "answer": text, "body": raw.decode()})

    def notifications_control(self, req):
        with self.lock:
            return json_response(200, self.notifications)


def main():
    parser = argparse.ArgumentParser(description="A fake GMO Payment Gateway (link type Plus) for tests and the demo")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8422)
    parser.add_argument("--public-base", help="this server's URL as others reach it (default http://HOST:PORT)")
    parser.add_argument("--shop-id", default="tshop00000001")
    parser.add_argument("--shop-pass", default="demopass")
    parser.add_argument("--notify-url", default="")
    parser.add_argument("--ignore-expiry", action="store_true",
                        help="accept payments after PaymentExpireDate (tests run on a clock of their own)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    args.public_base = args.public_base or "http://%s:%d" % (args.host, args.port)
    app = Gmo(args)
    app.verbose = args.verbose
    fakehttp.serve(app, args.host, args.port)


if __name__ == "__main__":
    main()
