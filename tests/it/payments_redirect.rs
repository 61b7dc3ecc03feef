//! The redirect flow as a whole (both redirect providers): the page form `POST /payment/redirect`
//! (CSRF, the 303 to the provider), the open-redirect regression (a provider answering with a
//! link elsewhere is never followed), access (404 to strangers everywhere), providers without
//! keys hidden, the window closing before an approved PayPal order is captured, the demo label,
//! and the providers' credentials kept out of every log line and every stored row.

use std::io::Write;
use std::sync::{Arc, Mutex};

use rocket::http::{ContentType, Cookie};
use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, Statement};
use serde_json::json;
use vmarket::model::payment::PaymentType;
use vmarket::model::phase::PhaseType;
use vmarket::payments::Providers;

use crate::support::TestApp;
use crate::support::fakes::{Fake, GMO_SHOP_PASS, Kind, PAYPAL_CLIENT_ID, PAYPAL_SECRET, app_with, path_of};
use crate::support::html::Doc;

/// The form `/payment/confirm` renders for a redirect provider, posted by `actor`'s browser with
/// `csrf` as the form field; status and Location.
async fn post_form(
    actor: &crate::support::actors::Actor<'_>,
    path: &str,
    application_id: i32,
    payment_type: &str,
    csrf: Option<&str>,
) -> (u16, Option<String>, String) {
    let form = crate::support::actors::Form {
        action: path.to_string(),
        hidden: csrf.map(|c| vec![("csrf_token".to_string(), c.to_string())]).unwrap_or_default(),
        multipart: false,
    };
    let id = application_id.to_string();
    actor.submit(&form, &[("application_id", id.as_str()), ("payment_type", payment_type)], None).await
}

/// The CSRF token every test actor's browser holds (see `support::actors`).
const CSRF: &str = "c5f0a0c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffe1";

#[rocket::async_test]
async fn the_page_form_sends_the_payer_to_the_provider_and_only_there() {
    let (Some(paypal), Some(gmo)) = (Fake::start(Kind::PayPal), Fake::start(Kind::Gmo)) else { return };
    let app = app_with(Some(&paypal), Some(&gmo), 5_000).await;
    let mut owner = app.with_user("rd_owner").await;
    let mut stranger = app.with_user("rd_stranger").await;
    let won = app.won_application(&owner, "RedirectFair").await;
    paypal.follow(&app).await;
    gmo.follow(&app).await;
    owner.renew().await;
    stranger.renew().await;

    let (status, _, _) = post_form(&owner, "/payment/redirect", won.application_id, "paypal", None).await;
    assert_eq!(status, 403, "no CSRF field, no payment");
    let (status, location, _) = post_form(&owner, "/payment/redirect", won.application_id, "paypal", Some(CSRF)).await;
    assert_eq!(status, 303);
    let location = location.unwrap();
    assert!(location.starts_with(&format!("{}/checkoutnow?token=", paypal.base)), "{location}");
    let (status, location, _) =
        post_form(&owner, "/en/payment/redirect", won.application_id, "smbc_gmo", Some(CSRF)).await;
    assert_eq!(status, 303);
    let gmo_page = location.unwrap();
    assert!(gmo_page.starts_with(&format!("{}/v1/plus/", gmo.base)), "{gmo_page}");

    // Strangers: the form, the API and the PayPal calls all answer 404.
    let (status, _, html) = post_form(&stranger, "/payment/redirect", won.application_id, "paypal", Some(CSRF)).await;
    assert_eq!(status, 404, "{html}");
    for path in ["/api/v1/user/payment/redirect", "/api/v1/user/payment/pre_order"] {
        let (status, _) =
            stranger.post_json(path, &json!({"application_id": won.application_id, "payment_type": "smbc_gmo"})).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, _) = stranger
        .post_json("/api/v1/user/payment/paypal/create_order_id", &json!({"application_id": won.application_id}))
        .await;
    assert_eq!(status, 404);
    // Stripe is not a redirect provider; a provider we do not know is refused with a page.
    let (status, _, html) = post_form(&owner, "/payment/redirect", won.application_id, "stripe", Some(CSRF)).await;
    assert_eq!(status, 422, "{html}");
    let (status, _, html) = post_form(&owner, "/payment/redirect", won.application_id, "bitcoin", Some(CSRF)).await;
    assert_eq!(status, 422);
    assert_eq!(
        Doc::parse(&html).attr("[data-testid=checkout-retry]", "href"),
        format!("/payment?application_id={}", won.application_id)
    );
    // Signed out: nothing opens.
    let res = app
        .client
        .post("/payment/redirect")
        .header(ContentType::Form)
        .cookie(Cookie::new("vmarket_csrf", CSRF))
        .body(format!("application_id={}&payment_type=paypal&csrf_token={CSRF}", won.application_id))
        .dispatch()
        .await;
    assert!(matches!(res.status().code, 401 | 303), "signed out: {}", res.status());
    assert_ne!(
        res.headers().get_one("Location").map(|l| l.starts_with(&paypal.base)),
        Some(true),
        "never to the provider"
    );
}

#[rocket::async_test]
async fn a_provider_link_to_another_origin_is_never_followed() {
    let (Some(paypal), Some(gmo)) = (Fake::start(Kind::PayPal), Fake::start(Kind::Gmo)) else { return };
    let app = app_with(Some(&paypal), Some(&gmo), 5_000).await;
    let mut owner = app.with_user("rd_evil").await;
    let won = app.won_application(&owner, "EvilLinks").await;
    paypal.follow(&app).await;
    gmo.follow(&app).await;
    owner.renew().await;
    // A compromised or impersonated provider answers with a link to a site of the attacker's.
    paypal.config(json!({"approve_base": "https://evil.example"})).await;
    gmo.config(json!({"link_base": "http://127.0.0.1:1"})).await;

    for payment_type in ["paypal", "smbc_gmo"] {
        let (status, location, html) =
            post_form(&owner, "/payment/redirect", won.application_id, payment_type, Some(CSRF)).await;
        assert_eq!(status, 502, "{payment_type}: {location:?}");
        assert_eq!(location, None);
        assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "refused");
        let (status, body) = owner
            .post_json(
                "/api/v1/user/payment/redirect",
                &json!({"application_id": won.application_id, "payment_type": payment_type}),
            )
            .await;
        assert_eq!((status, body["code"].as_str()), (502, Some("provider_refused")), "{payment_type}: {body}");
        assert!(!body.to_string().contains("evil.example"));
    }
    // Once the provider behaves again, the stored attempt goes to the provider's own page.
    paypal.config(json!({"approve_base": null})).await;
    let (status, location, _) = post_form(&owner, "/payment/redirect", won.application_id, "paypal", Some(CSRF)).await;
    assert_eq!(status, 303);
    assert!(location.unwrap().starts_with(&paypal.base));
}

#[rocket::async_test]
async fn providers_without_keys_are_hidden_and_the_demo_is_labelled() {
    let app = TestApp::builder().live().build().await;
    let providers = Providers::from_config(&app.config);
    assert_eq!(providers.available(), Vec::<PaymentType>::new());
    let mut owner = app.with_user("rd_none").await;
    let won = app.won_application(&owner, "NoKeys").await;
    owner.renew().await;
    for payment_type in ["paypal", "smbc_gmo"] {
        let (status, body) = owner
            .post_json(
                "/api/v1/user/payment/redirect",
                &json!({"application_id": won.application_id, "payment_type": payment_type}),
            )
            .await;
        assert_eq!((status, body["code"].as_str()), (422, Some("validation_failed")), "{body}");
    }
    let (status, _) = app.page("/api/v1/payment/gmo/notification").await;
    assert_eq!(status, 404);

    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let base = paypal.base.clone();
    let demo = TestApp::builder()
        .live()
        .config(move |c| {
            c.paypal_api_base = base.clone();
            c.paypal_web_base = base;
            c.paypal_client_id = PAYPAL_CLIENT_ID.into();
            c.paypal_client_secret = PAYPAL_SECRET.into();
            c.payment_demo_providers = true;
        })
        .build()
        .await;
    assert_eq!(Providers::from_config(&demo.config).available(), vec![PaymentType::Paypal]);
    let mut owner = demo.with_user("rd_demo").await;
    let won = demo.won_application(&owner, "DemoFair").await;
    owner.renew().await;
    let (_, to) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "paypal"}),
        )
        .await;
    let uuid = to["transaction_uuid"].as_str().unwrap();
    for (lang, label) in [("", "PayPal（デモ）"), ("/en", "PayPal (demo)")] {
        let (_, html) = owner.page(&format!("{lang}/checkout?transaction={uuid}")).await;
        let doc = Doc::parse(&html);
        assert_eq!(doc.count("[data-testid=demo-provider]"), 1, "{lang}");
        assert_eq!(doc.text("[data-testid=checkout-provider]"), label);
    }
    let mut production = vmarket::config::Config { payment_demo_providers: true, ..Default::default() };
    production.environment = vmarket::config::Environment::Production;
    assert!(production.check_payments().is_err(), "production refuses the demo's fakes");
    let plain_http = vmarket::config::Config {
        environment: vmarket::config::Environment::Staging,
        gmo_shop_id: "shop".into(),
        gmo_api_base: "http://p01.mul-pay.jp".into(),
        ..Default::default()
    };
    assert!(plain_http.check_payments().is_err(), "keys are not sent in clear outside development");
}

#[rocket::async_test]
async fn an_approved_order_is_not_captured_once_the_window_closed() {
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app_with(Some(&paypal), None, 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("rd_late").await;
    let won = app.won_application(&owner, "LateFair").await;
    paypal.follow(&app).await;
    owner.renew().await;
    let (_, to) = owner
        .post_json(
            "/api/v1/user/payment/redirect",
            &json!({"application_id": won.application_id, "payment_type": "paypal"}),
        )
        .await;
    let (url, uuid) = (to["redirect_url"].as_str().unwrap(), to["transaction_uuid"].as_str().unwrap());
    let order_id = url::Url::parse(url).unwrap().query_pairs().next().unwrap().1.into_owned();
    let approved = paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    app.clock.set(won.event.at(PhaseType::FirstPaymentEnd) + chrono::Duration::minutes(1));
    let back = path_of(approved["return_url"].as_str().unwrap());
    let (status, html) = app.page(&back).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).attr("[data-testid=checkout]", "data-outcome"), "window_closed");
    assert_eq!(paypal.get(&format!("/_fake/orders/{order_id}")).await["captures"], 0, "no money taken late");
    let providers = Providers::from_config(&app.config);
    let id = app.attempt(uuid).await.id;
    let outcome =
        vmarket::payments::reconcile(&app.db, app.senders().outbox(), &providers, id, app.clock.now()).await.unwrap();
    assert_eq!(outcome, vmarket::payments::Reconciled::Done("expired"));
    assert_eq!(app.settled_payments(won.application_id).await, 0);
}

#[rocket::async_test]
async fn pre_order_for_a_redirect_provider_opens_it_in_the_payer_s_language() {
    let (Some(paypal), Some(gmo)) = (Fake::start(Kind::PayPal), Fake::start(Kind::Gmo)) else { return };
    let app = app_with(Some(&paypal), Some(&gmo), 5_000).await;
    paypal.config(json!({"webhook_url": ""})).await;
    let mut owner = app.with_user("rd_english").await;
    let won = app.won_application(&owner, "EnglishFair").await;
    paypal.follow(&app).await;
    gmo.follow(&app).await;
    owner.renew().await;
    let checkout = |uuid: &str| format!("{}/en/checkout?transaction={uuid}", app.origin);

    // PayPal: English at PayPal (locale, item), back to the English `/checkout`.
    let ask = json!({"application_id": won.application_id, "payment_type": "paypal"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order?lang=en", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let (order_id, uuid) = (opened["order_id"].as_str().unwrap(), opened["transaction_uuid"].as_str().unwrap());
    let at_paypal = paypal.get(&format!("/_fake/orders/{order_id}")).await;
    assert_eq!(at_paypal["locale"], "en-US");
    assert_eq!(at_paypal["purchase_units"][0]["description"], "Test Fair EnglishFair / Square booth");
    assert_eq!(at_paypal["return_url"].as_str(), Some(checkout(uuid).as_str()));
    assert_eq!(at_paypal["cancel_url"].as_str(), Some(format!("{}&cancel=1", checkout(uuid)).as_str()));
    let approved = paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
    let back = approved["return_url"].as_str().unwrap();
    assert!(back.starts_with(&checkout(uuid)), "{back}");
    let (status, html) = owner.page(&path_of(back)).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("html", "lang"), "en");
    assert_eq!(doc.attr("[data-testid=checkout]", "data-outcome"), "paid", "{html}");
    assert_eq!(doc.text("[data-testid=checkout] h1"), "Payment complete");

    // GMO, for another application: its payment page returns to the English `/checkout` too.
    let other = app.won_application(&owner, "EnglishGmo").await;
    gmo.follow(&app).await;
    owner.renew().await;
    let ask = json!({"application_id": other.application_id, "payment_type": "smbc_gmo"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order?lang=en", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let (trade, uuid) = (opened["order_id"].as_str().unwrap(), opened["transaction_uuid"].as_str().unwrap());
    let at_gmo = gmo.get(&format!("/_fake/trades/{trade}")).await;
    assert_eq!(at_gmo["RetUrl"].as_str(), Some(checkout(uuid).as_str()), "{at_gmo}");
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// Every row of every table (the job queue's too), as text.
async fn every_row(db: &DatabaseConnection) -> String {
    let backend = db.get_database_backend();
    let list = match backend {
        DatabaseBackend::Sqlite => "SELECT name AS t FROM sqlite_master WHERE type = 'table'".to_string(),
        _ => "SELECT CAST(table_schema || '.\"' || table_name || '\"' AS TEXT) AS t FROM information_schema.tables \
              WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'"
            .to_string(),
    };
    let tables = db.query_all_raw(Statement::from_string(backend, list)).await.unwrap();
    let mut out = String::new();
    for row in tables {
        let table: String = row.try_get("", "t").unwrap();
        let sql = match backend {
            DatabaseBackend::Sqlite => {
                let cols = db
                    .query_all_raw(Statement::from_string(
                        backend,
                        format!("SELECT name FROM pragma_table_info('{table}')"),
                    ))
                    .await
                    .unwrap();
                // Blobs (the job queue's payloads) as text too, so that their bytes are searched.
                let names: Vec<String> = cols
                    .iter()
                    .map(|c| format!("COALESCE(CAST(\"{}\" AS TEXT), '')", c.try_get::<String>("", "name").unwrap()))
                    .collect();
                format!("SELECT {} AS r FROM \"{table}\"", names.join(" || ' | ' || "))
            }
            _ => format!("SELECT CAST(row_to_json(x) AS TEXT) AS r FROM {table} x"),
        };
        for r in db.query_all_raw(Statement::from_string(backend, sql)).await.unwrap() {
            out.push_str(&r.try_get::<String>("", "r").unwrap_or_default());
            out.push('\n');
        }
    }
    out
}

/// The providers' credentials in every form they could leak in: never in a log line, never in
/// a stored row, while payments succeed, fail, time out and are reconciled.
#[test]
fn provider_credentials_never_reach_a_log_or_a_stored_row() {
    let buffer = Captured::default();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(buffer.clone())
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let runtime = rocket::tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let leaks = runtime.block_on(async {
        let (Some(paypal), Some(gmo)) = (Fake::start(Kind::PayPal), Fake::start(Kind::Gmo)) else { return None };
        let app = app_with(Some(&paypal), Some(&gmo), 800).await;
        let mut owner = app.with_user("rd_secrets").await;
        let won = app.won_application(&owner, "SecretFair").await;
        paypal.follow(&app).await;
        gmo.follow(&app).await;
        owner.renew().await;
        let ask = |t: &str| json!({"application_id": won.application_id, "payment_type": t});

        // PayPal: a token, an expired token, a refused capture, a silent provider, a webhook.
        owner.post_json("/api/v1/user/payment/redirect", &ask("paypal")).await;
        paypal.config(json!({"expire_tokens": true})).await;
        let (status, to) = owner.post_json("/api/v1/user/payment/redirect", &ask("paypal")).await;
        assert_eq!(status, 200, "{to}");
        let order_id =
            url::Url::parse(to["redirect_url"].as_str().unwrap()).unwrap().query_pairs().next().unwrap().1.into_owned();
        paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({"funding": "declined"})).await;
        owner.post_json("/api/v1/user/payment/paypal/capture", &json!({"order_id": order_id})).await;
        paypal.fault("POST", "/capture$", "hang", 1).await;
        paypal.post(&format!("/_fake/orders/{order_id}/approve"), json!({})).await;
        owner.post_json("/api/v1/user/payment/paypal/capture", &json!({"order_id": order_id})).await;
        paypal.heal().await;
        let hook = paypal
            .post(
                "/_fake/webhooks/sign",
                json!({"event_type": "CHECKOUT.ORDER.APPROVED",
            "resource": {"id": order_id}, "webhook_id": "WH-OTHER"}),
            )
            .await;
        let mut req = app
            .client
            .post("/api/v1/payment/paypal/webhook")
            .header(ContentType::JSON)
            .body(hook["body"].as_str().unwrap());
        for (name, value) in hook["headers"].as_object().unwrap() {
            req = req.header(rocket::http::Header::new(name.clone(), value.as_str().unwrap().to_string()));
        }
        req.dispatch().await;
        let providers = Providers::from_config(&app.config);
        let attempt = app.attempt(to["transaction_uuid"].as_str().unwrap()).await;
        vmarket::payments::reconcile(&app.db, app.senders().outbox(), &providers, attempt.id, app.clock.now())
            .await
            .unwrap();

        assert_eq!(app.settled_payments(won.application_id).await, 1, "the reconcile settled it");

        // GMO (another won application): down at the link, then a page, a notification while
        // GMO cannot be asked, a forged one.
        let won = app.won_application(&owner, "SecretFairGmo").await;
        gmo.follow(&app).await;
        owner.renew().await;
        let ask = json!({"application_id": won.application_id, "payment_type": "smbc_gmo"});
        gmo.fault("POST", "GetLinkplusUrlPayment", "503", 1).await;
        owner.post_json("/api/v1/user/payment/redirect", &ask).await;
        let (status, g) = owner.post_json("/api/v1/user/payment/redirect", &ask).await;
        assert_eq!(status, 200, "{g}");
        let gmo_attempt = app.attempt(g["transaction_uuid"].as_str().unwrap()).await;
        let gmo_order = gmo_attempt.provider_order_id.unwrap();
        gmo.fault("POST", "SearchTrade", "500", 1).await;
        gmo.post("/_fake/notify", json!({"order_id": gmo_order, "fields": {"Status": "CAPTURE"}})).await;
        gmo.post("/_fake/notify", json!({"order_id": gmo_order, "fields": {"Status": "CAPTURE"}})).await;

        // A wrong secret: PayPal refuses the client.
        let base = paypal.base.clone();
        let wrong = TestApp::builder()
            .live()
            .config(move |c| {
                c.paypal_api_base = base.clone();
                c.paypal_web_base = base;
                c.paypal_client_id = PAYPAL_CLIENT_ID.into();
                c.paypal_client_secret = "pp-wrong-Rk2Lm9Xz".into();
            })
            .build()
            .await;
        let mut someone = wrong.with_user("rd_wrong").await;
        let won2 = wrong.won_application(&someone, "WrongKey").await;
        someone.renew().await;
        let (status, _) = someone
            .post_json(
                "/api/v1/user/payment/redirect",
                &json!({"application_id": won2.application_id, "payment_type": "paypal"}),
            )
            .await;
        assert_eq!(status, 502);

        let tokens: Vec<String> = paypal.get("/_fake/state").await["tokens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let rows = format!("{}{}", every_row(&app.db).await, every_row(&wrong.db).await);
        Some((tokens, rows))
    });
    let Some((tokens, rows)) = leaks else { return };
    let log = String::from_utf8_lossy(&buffer.0.lock().unwrap()).into_owned();
    assert!(log.contains("paypal"), "the flows above were logged: {log}");
    use base64::Engine;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("{PAYPAL_CLIENT_ID}:{PAYPAL_SECRET}"));
    let mut secrets =
        vec![PAYPAL_SECRET.to_string(), "pp-wrong-Rk2Lm9Xz".to_string(), GMO_SHOP_PASS.to_string(), basic];
    assert!(!tokens.is_empty(), "PayPal issued access tokens");
    secrets.extend(tokens);
    for secret in &secrets {
        assert!(!log.contains(secret.as_str()), "a credential reached the log");
        assert!(!rows.contains(secret.as_str()), "a credential was stored");
    }
    assert!(rows.contains("smbc_gmo") && rows.contains("reconcile_payment"), "the attempts and the jobs were read");
}
