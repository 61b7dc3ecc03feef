//! GMO Payment Gateway (`smbc_gmo`) over its HTTP interfaces (no module): the link-type Plus
//! payment page (リンクタイプPlus, key type), the trade search, and the result notification.
//!
//! Why link type Plus rather than EntryTran/ExecTran: the card number, the 3-D Secure challenge
//! and the choice of payment method all happen on GMO's page, so no card data ever crosses this
//! site (no PCI DSS scope beyond a redirect) and 3-D Secure needs no return handling of our own
//! (EntryTran/ExecTran would need GMO's card token script in our page, our own 3-D Secure return
//! with `SecureTran2`, and its error cases). It is also exactly the contract's redirect flow: the
//! payer goes to GMO and comes back to `/checkout`.
//!
//! Calls:
//!
//! - `POST /payment/GetLinkplusUrlPayment.json` (JSON): `geturlparam {ShopID, ShopPass}`,
//!   `configid`, `transaction {OrderID, Amount, Tax: 0, PayMethods: ["credit"], RetUrl,
//!   CancelUrl, PaymentExpireDate}`, `credit {JobCd: "CAPTURE", Method: "1"}` → `{OrderID,
//!   LinkUrl, ProcessDate}`; errors are `[{errCode, errInfo}]` with a 4xx. GMO issues a URL once
//!   per `OrderID` (`E01040010`: the id is taken), so the order id is the idempotency key of the
//!   call and the URL is stored with the attempt. `OrderID` (at most 27 characters) is derived
//!   from the attempt's UUID ([`order_id`]), so it is known before the call is made.
//! - `POST /payment/SearchTrade.idPass` (form: `ShopID`, `ShopPass`, `OrderID`) →
//!   `OrderID=…&Status=…&JobCd=…&Amount=…&Tax=…&AccessID=…&TranID=…` (or `ErrCode=…&ErrInfo=…`,
//!   several joined by `|`): the truth about a trade. `Status` `CAPTURE` (or `SALES`) means the
//!   money was taken.
//! - `POST /payment/AlterTran.idPass` (form: `ShopID`, `ShopPass`, `AccessID`, `AccessPass` of the
//!   trade, `JobCd` `VOID` the day of the charge or `RETURN` later) gives a charge back (a store
//!   refund); `Key=Value` answer, errors as `SearchTrade`'s.
//! - The result notification (結果通知プログラム) GMO posts to our endpoint (form: `ShopID`,
//!   `OrderID`, `Status`, `JobCd`, `Amount`, `TranID`, `ErrCode`, …; the passwords masked) and
//!   the `result` parameter of the return to `RetUrl` carry no HMAC we could check with a shared
//!   secret — anyone can post them. They are only a hint of *which* trade to look at: the trade
//!   is then asked for with `SearchTrade` (authenticated by the shop password) before anything is
//!   settled. The endpoint answers `0` once it is done with a notification; anything else makes
//!   GMO send it again later.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use url::Url;

use crate::config::{Config, Secret};
use crate::payments::provider_http::ProviderError;
use crate::payments::provider_http::provider_client;

/// `GetLinkplusUrlPayment`: this `OrderID` already has a payment URL.
pub const ORDER_ID_TAKEN: &str = "E01040010";
/// `SearchTrade`: no trade with this `OrderID`.
pub const TRADE_NOT_FOUND: &str = "E01110002";

/// A GMO client for the configured shop.
#[derive(Clone)]
pub struct Gmo {
    http: reqwest::Client,
    api_base: String,
    /// The origin of GMO's payment pages, where a payer may be redirected.
    pub link_origin: Option<Url>,
    /// The shop id (not a secret: GMO's notifications carry it).
    pub shop_id: String,
    shop_pass: Secret,
    config_id: String,
}

impl std::fmt::Debug for Gmo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gmo")
            .field("api_base", &self.api_base)
            .field("link_origin", &self.link_origin)
            .field("shop_id", &self.shop_id)
            .finish_non_exhaustive()
    }
}

/// A trade as `SearchTrade` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trade {
    /// `UNPROCESSED`, `AUTHENTICATED`, `CHECK`, `CAPTURE`, `AUTH`, `SALES`, `VOID`, `RETURN`,
    /// `RETURNX`, `SAUTH`.
    pub status: String,
    /// JPY.
    pub amount: i64,
    /// JPY (tax and shipping; we send 0).
    pub tax: i64,
    /// GMO's transaction id, once a card was charged.
    pub tran_id: String,
}

impl Trade {
    /// Whether the money was taken (`CAPTURE` or `SALES`).
    pub fn is_paid(&self) -> bool {
        matches!(self.status.as_str(), "CAPTURE" | "SALES")
    }
}

#[derive(Deserialize)]
struct LinkAnswer {
    #[serde(rename = "LinkUrl")]
    link_url: String,
}

/// The GMO `OrderID` of attempt `transaction_uuid`: its 128 bits in lower-case base32 (26
/// characters, within GMO's 27; letters and digits only).
pub fn order_id(transaction_uuid: &str) -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let bytes = uuid::Uuid::parse_str(transaction_uuid).map(|u| *u.as_bytes()).unwrap_or_default();
    let mut out = String::with_capacity(26);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

/// Whether `id` can be a GMO order id (what we send: letters, digits, `-`, at most 27).
pub fn is_order_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 27 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Parses GMO's `Key=Value&Key=Value` answers and notification bodies (Shift_JIS or UTF-8;
/// values are percent-decoded when they are encoded). Unknown bytes become U+FFFD.
pub fn parse_pairs(body: &[u8]) -> Vec<(String, String)> {
    let text = match std::str::from_utf8(body) {
        Ok(text) => text.to_string(),
        Err(_) => encoding_rs::SHIFT_JIS.decode(body).0.into_owned(),
    };
    url::form_urlencoded::parse(text.trim().as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

/// The value of `key` in `pairs`.
pub fn field<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

impl Gmo {
    /// The client, when a shop id and password are configured (else GMO is not offered).
    pub fn from_config(config: &Config) -> Option<Self> {
        if config.gmo_shop_id.trim().is_empty() || config.gmo_shop_pass.is_empty() {
            return None;
        }
        let http = provider_client(config)?;
        Some(Self {
            http,
            api_base: config.gmo_api_base.trim_end_matches('/').to_string(),
            link_origin: Url::parse(config.gmo_link_base.trim()).ok(),
            shop_id: config.gmo_shop_id.trim().to_string(),
            shop_pass: config.gmo_shop_pass.clone(),
            config_id: config.gmo_config_id.trim().to_string(),
        })
    }

    /// The link-type Plus payment URL for order `order_id` of `amount` JPY, payable until
    /// `expires` (the payment window's end), returning to `ret_url` (or `cancel_url`).
    pub async fn link_url(
        &self,
        order_id: &str,
        amount: i32,
        ret_url: &str,
        cancel_url: &str,
        expires: DateTime<Utc>,
    ) -> Result<String, ProviderError> {
        let expire = expires.with_timezone(&chrono_tz::Asia::Tokyo).format("%Y%m%d%H%M").to_string();
        let mut body = json!({
            "geturlparam": {"ShopID": self.shop_id, "ShopPass": self.shop_pass.expose()},
            "transaction": {
                "OrderID": order_id,
                "Amount": amount,
                "Tax": 0,
                "PayMethods": ["credit"],
                "RetUrl": ret_url,
                "CancelUrl": cancel_url,
                "PaymentExpireDate": expire,
            },
            "credit": {"JobCd": "CAPTURE", "Method": "1"},
        });
        if !self.config_id.is_empty() {
            body["configid"] = json!(self.config_id);
        }
        let res = self
            .http
            .post(format!("{}/payment/GetLinkplusUrlPayment.json", self.api_base))
            .json(&body)
            .send()
            .await
            .map_err(|e| {
                tracing::warn!(error = %e.without_url(), "gmo link request failed");
                ProviderError::Unknown
            })?;
        let status = res.status();
        let bytes = res.bytes().await.map_err(|_| ProviderError::Unknown)?;
        if status.is_success()
            && let Ok(answer) = serde_json::from_slice::<LinkAnswer>(&bytes)
        {
            return Ok(answer.link_url);
        }
        if status.is_server_error() || status.as_u16() == 429 {
            return Err(ProviderError::Unknown);
        }
        match link_error(&bytes) {
            Some(info) if is_transient(&info) => Err(ProviderError::Unknown),
            Some(info) => Err(ProviderError::Refused { code: info }),
            None => Err(ProviderError::Unknown),
        }
    }

    /// The trade of order `order_id`, or `None` when GMO has none (the payer never started).
    pub async fn search_trade(&self, order_id: &str) -> Result<Option<Trade>, ProviderError> {
        let Some(pairs) = self.search(order_id).await? else { return Ok(None) };
        let number = |key: &str| field(&pairs, key).and_then(|v| v.trim().parse::<i64>().ok()).unwrap_or(0);
        let Some(status) = field(&pairs, "Status").filter(|s| !s.is_empty()) else {
            return Err(ProviderError::Unknown);
        };
        Ok(Some(Trade {
            status: status.to_string(),
            amount: number("Amount"),
            tax: number("Tax"),
            tran_id: field(&pairs, "TranID").unwrap_or_default().to_string(),
        }))
    }

    /// `SearchTrade`'s answer for `order_id` as pairs, or `None` when GMO has no such trade.
    async fn search(&self, order_id: &str) -> Result<Option<Vec<(String, String)>>, ProviderError> {
        if !is_order_id(order_id) {
            return Ok(None);
        }
        let form = [("ShopID", self.shop_id.as_str()), ("ShopPass", self.shop_pass.expose()), ("OrderID", order_id)];
        let pairs = self.call("SearchTrade.idPass", &form).await?;
        if let Some(info) = field(&pairs, "ErrInfo").filter(|i| !i.is_empty()) {
            if info.split('|').any(|i| i == TRADE_NOT_FOUND) {
                return Ok(None);
            }
            return Err(refusal(info));
        }
        Ok(Some(pairs))
    }

    /// Gives the money of paid trade `order_id` back with `AlterTran.idPass` (the trade's
    /// `AccessID` and `AccessPass` from `SearchTrade`): `JobCd` `VOID` on the day it was charged
    /// (Japan time, by `now`: the real clock, as GMO's) and `RETURN` after it, as GMO allows
    /// them. `Ok(false)` when the trade was given back already; refused when it was never paid.
    pub async fn refund(&self, order_id: &str, now: DateTime<Utc>) -> Result<bool, ProviderError> {
        let pairs = self.search(order_id).await?.ok_or(ProviderError::Refused { code: TRADE_NOT_FOUND.into() })?;
        match field(&pairs, "Status").unwrap_or_default() {
            "VOID" | "RETURN" | "RETURNX" => return Ok(false),
            "CAPTURE" | "SALES" => {}
            _ => return Err(ProviderError::Refused { code: "not_paid".into() }),
        }
        let today = now.with_timezone(&chrono_tz::Asia::Tokyo).format("%Y%m%d").to_string();
        // `ProcessDate` (yyyyMMddHHmmss, Japan time) is when the trade was last processed: for a
        // charged trade, the charge.
        let charged = field(&pairs, "ProcessDate").unwrap_or_default();
        let job = if charged.starts_with(&today) { "VOID" } else { "RETURN" };
        let form = [
            ("ShopID", self.shop_id.as_str()),
            ("ShopPass", self.shop_pass.expose()),
            ("AccessID", field(&pairs, "AccessID").unwrap_or_default()),
            ("AccessPass", field(&pairs, "AccessPass").unwrap_or_default()),
            ("JobCd", job),
        ];
        let answer = self.call("AlterTran.idPass", &form).await?;
        match field(&answer, "ErrInfo").filter(|i| !i.is_empty()) {
            Some(info) => Err(refusal(info)),
            None => Ok(true),
        }
    }

    /// POSTs `form` to GMO's `/payment/{call}` and parses its `Key=Value` answer.
    async fn call(&self, call: &str, form: &[(&str, &str)]) -> Result<Vec<(String, String)>, ProviderError> {
        let res = self.http.post(format!("{}/payment/{call}", self.api_base)).form(form).send().await.map_err(|e| {
            tracing::warn!(call, error = %e.without_url(), "gmo request failed");
            ProviderError::Unknown
        })?;
        let status = res.status();
        let bytes = res.bytes().await.map_err(|_| ProviderError::Unknown)?;
        if !status.is_success() {
            tracing::warn!(call, status = status.as_u16(), "gmo answered without a result");
            return Err(ProviderError::Unknown);
        }
        Ok(parse_pairs(&bytes))
    }

    /// The order id in the `result` parameter of a return to `RetUrl`
    /// (`<base64 JSON>.<hex SHA-256 of the base64 and the shop password>`), when its hash checks
    /// out, with GMO's `Result` (`PAYSUCCESS`, `ERROR`, …). Only a hint: the trade is still asked.
    pub fn return_result(&self, result: &str) -> Option<(String, String)> {
        use base64::Engine;
        use sha2::{Digest, Sha256};
        let (payload, hash) = result.trim().rsplit_once('.')?;
        let mut hasher = Sha256::new();
        hasher.update(payload.as_bytes());
        hasher.update(self.shop_pass.expose().as_bytes());
        let expected = hex::encode(hasher.finalize());
        if !bool::from(subtle::ConstantTimeEq::ct_eq(expected.as_bytes(), hash.to_ascii_lowercase().as_bytes())) {
            return None;
        }
        use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
        let engines = [URL_SAFE, STANDARD, URL_SAFE_NO_PAD, STANDARD_NO_PAD];
        let decoded = engines.iter().find_map(|e| e.decode(payload).ok())?;
        let value: serde_json::Value = serde_json::from_slice(&decoded).ok()?;
        let tr = &value["transactionresult"];
        let order_id = tr["OrderID"].as_str().filter(|id| is_order_id(id))?.to_string();
        Some((order_id, tr["Result"].as_str().unwrap_or_default().to_string()))
    }
}

/// The error of a `Key=Value` answer's `ErrInfo` (several joined by `|`): unknown for GMO's
/// system errors, else refused with the first code.
fn refusal(info: &str) -> ProviderError {
    let infos: Vec<&str> = info.split('|').collect();
    if infos.iter().any(|i| is_transient(i)) {
        return ProviderError::Unknown;
    }
    ProviderError::Refused { code: safe_code(infos[0]) }
}

/// GMO's system errors (`E90`: busy, `E91`: system error, `E92`: temporarily unavailable):
/// the request was not processed, the outcome is unknown.
fn is_transient(info: &str) -> bool {
    info.starts_with("E90") || info.starts_with("E91") || info.starts_with("E92")
}

fn safe_code(info: &str) -> String {
    let code: String = info.chars().filter(|c| c.is_ascii_alphanumeric()).take(32).collect();
    if code.is_empty() { "gmo_error".into() } else { code }
}

/// The first `errInfo` of a link-type Plus error answer (`[{errCode, errInfo}]`, or one object).
fn link_error(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let first = match &value {
        serde_json::Value::Array(items) => items.first()?.clone(),
        other => other.clone(),
    };
    ["errInfo", "ErrInfo"].iter().find_map(|k| first[*k].as_str()).map(safe_code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_ids_fit_gmo_and_keep_every_bit() {
        let a = order_id("0f8fad5b-d9cb-469f-a165-70867728950e");
        let b = order_id("0f8fad5b-d9cb-469f-a165-70867728950f");
        assert_eq!(a.len(), 26);
        assert!(is_order_id(&a));
        assert_ne!(a, b, "the last bit counts");
        assert_eq!(order_id("00000000-0000-4000-8000-000000000000"), "aaaaaaaaabaabaaaaaaaaaaaaa");
    }

    #[test]
    fn answers_are_parsed_in_either_encoding() {
        let pairs = parse_pairs(b"OrderID=abc&Status=CAPTURE&Amount=8000&Tax=0&ErrCode=&ErrInfo=");
        assert_eq!(field(&pairs, "Status"), Some("CAPTURE"));
        assert_eq!(field(&pairs, "ErrInfo"), Some(""));
        let sjis = encoding_rs::SHIFT_JIS.encode("OrderID=abc&ClientField1=テスト").0;
        assert_eq!(field(&parse_pairs(&sjis), "ClientField1"), Some("テスト"));
    }

    #[test]
    fn link_errors_are_read_from_the_array() {
        assert_eq!(link_error(br#"[{"errCode":"E01","errInfo":"E01040010"}]"#).as_deref(), Some("E01040010"));
        assert_eq!(link_error(br#"{"ErrCode":"E01","ErrInfo":"E01010001"}"#).as_deref(), Some("E01010001"));
        assert_eq!(link_error(b"<html>").as_deref(), None);
    }
}
