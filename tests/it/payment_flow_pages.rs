//! The payer's pages (spec §2 `/payment?application_id=`, `/payment/confirm`,
//! `/payment/complete?transaction=`; issue 13): who may open them (the owner; a member, a
//! stranger and a bad parameter get the 404 page; signed out → sign-in), what they say as the
//! clock moves through the payment window, the card page's Content-Security-Policy, the links
//! from the entry history and the dashboard, and the outcome page of every way an attempt ends,
//! in Japanese and English. The card itself is paid in a browser by `e2e/payments.test.mjs`;
//! here the browser's API calls are made directly against localstripe.

use chrono::Duration;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use vmarket::db::entities::{event_entry, event_entry_application, order};
use vmarket::i18n::tera::format_jst;
use vmarket::mail::Mailer;
use vmarket::model::order::open_order;
use vmarket::model::payment::{OrderState, Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::settle;

use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::html::Doc;
use crate::support::localstripe::{Gate, GateMode, LocalStripe};
use crate::support::payments::Won;

/// A live app whose Stripe is localstripe at `base` (or a gate in front of it), with its fake
/// Stripe.js.
async fn app_with(stripe: &LocalStripe, base: &str) -> TestApp {
    let mut with_stripe = vmarket::config::Config::default();
    stripe.configure(&mut with_stripe);
    let base = base.to_string();
    TestApp::builder()
        .live()
        .config(move |c| {
            c.stripe_secret_key = with_stripe.stripe_secret_key;
            c.stripe_publishable_key = with_stripe.stripe_publishable_key;
            c.stripe_js_url = with_stripe.stripe_js_url;
            c.stripe_api_base = base;
            c.payment_timeout_ms = 1_000;
        })
        .build()
        .await
}

/// The circle of application `won`.
async fn circle_of(app: &TestApp, won: &Won) -> i64 {
    let a = event_entry_application::Entity::find_by_id(won.application_id).one(&app.db).await.unwrap().unwrap();
    let e = event_entry::Entity::find_by_id(a.entry_id).one(&app.db).await.unwrap().unwrap();
    i64::from(e.circle_id)
}

/// Status and, for a redirect, where to (signed out), or status and body.
async fn open(app: &TestApp, who: Option<&Actor<'_>>, path: &str) -> (u16, String) {
    match who {
        Some(actor) => actor.page(path).await,
        None => {
            let res = app.get(path).await;
            (res.status().code, res.headers().get_one("Location").unwrap_or_default().to_string())
        }
    }
}

fn is_not_found_page(body: &str) -> bool {
    body.contains("Page Not Found") || body.contains("ページが見つかりません")
}

/// Opens the attempt as the payer's browser would and pays it with a card through the API.
async fn pay_by_card(owner: &Actor<'_>, stripe: &LocalStripe, application_id: i32) -> String {
    let ask = json!({"application_id": application_id, "payment_type": "stripe"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let uuid = opened["transaction_uuid"].as_str().unwrap().to_string();
    let capture = json!({"transaction_uuid": uuid, "payment_method": stripe.card("4242424242424242").await});
    let (status, paid) = owner.post_json("/api/v1/user/payment/capture", &capture).await;
    assert_eq!(status, 200, "{paid}");
    uuid
}

#[rocket::async_test]
async fn only_the_owner_opens_the_payment_pages_and_bad_parameters_are_the_404_page() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe, &stripe.base).await;
    let mut owner = app.with_user("flow_owner").await;
    let mut member = app.with_user("flow_member").await;
    let mut stranger = app.with_user("flow_stranger").await;
    let won = app.won_application(&owner, "FlowAccess").await;
    for actor in [&mut owner, &mut member, &mut stranger] {
        actor.renew().await;
    }
    let circle = circle_of(&app, &won).await;
    app.join(&owner, circle, &member).await;
    let id = won.application_id;
    let uuid = pay_by_card(&owner, &stripe, id).await;

    let people: [(&str, Option<&Actor<'_>>); 4] =
        [("owner", Some(&owner)), ("member", Some(&member)), ("stranger", Some(&stranger)), ("anonymous", None)];
    let owner_only = [200, 404, 404, 303];
    let pages = [
        format!("/payment?application_id={id}"),
        format!("/payment/confirm?application_id={id}&payment_type=stripe"),
        format!("/payment/complete?transaction={uuid}"),
    ];
    let mut wrong = Vec::new();
    for path in &pages {
        for prefix in ["", "/en"] {
            let path = format!("{prefix}{path}");
            for ((who, actor), expected) in people.iter().zip(owner_only) {
                let (got, body) = open(&app, *actor, &path).await;
                let fine = match got {
                    303 => body.starts_with("/auth/login?next="),
                    404 => is_not_found_page(&body),
                    _ => true,
                };
                if got != expected || !fine {
                    wrong.push(format!("{path} as {who}: {got} (expected {expected}) {}", &body[..body.len().min(80)]));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "page access mismatches:\n  {}", wrong.join("\n  "));

    // The sign-in comes back to the page asked for.
    let (_, location) = open(&app, None, &format!("/en/payment?application_id={id}")).await;
    assert!(location.contains(&format!("next=%2Fen%2Fpayment%3Fapplication_id%3D{id}")), "{location}");

    let bad = [
        "/payment".to_string(),
        "/payment?application_id=".into(),
        "/payment?application_id=0".into(),
        "/payment?application_id=-1".into(),
        "/payment?application_id=abc".into(),
        "/payment?application_id=99999999999".into(),
        "/payment?application_id=999999".into(),
        format!("/payment/confirm?application_id={id}"),
        format!("/payment/confirm?application_id={id}&payment_type=cash"),
        format!("/payment/confirm?application_id={id}&payment_type=STRIPE"),
        format!("/payment/confirm?application_id={id}&payment_type=paypal"),
        format!("/payment/confirm?application_id={id}&payment_type=smbc_gmo"),
        "/payment/confirm?application_id=x&payment_type=stripe".into(),
        "/payment/complete".into(),
        "/payment/complete?transaction=12".into(),
        "/payment/complete?transaction=not-a-uuid".into(),
        format!("/payment/complete?transaction={}", uuid.replace(&uuid[..8], "00000000")),
    ];
    for path in bad {
        for prefix in ["", "/en"] {
            let path = format!("{prefix}{path}");
            let (status, body) = owner.page(&path).await;
            assert_eq!(status, 404, "{path}");
            assert!(is_not_found_page(&body), "{path}: the 404 page");
        }
    }
}

#[rocket::async_test]
async fn the_payment_page_follows_the_window_by_the_clock_in_both_languages() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe, &stripe.base).await;
    let mut owner = app.with_user("flow_window").await;
    let won = app.won_application(&owner, "FlowWindow").await;
    let id = won.application_id;
    let path = format!("/payment?application_id={id}");

    // Drawn, before the window: not yet, and when it opens.
    app.clock.set(won.event.at(PhaseType::FirstPaymentStart) - Duration::hours(2));
    owner.renew().await;
    let (status, html) = owner.page(&path).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=pay-state]", "data-state"), "not_yet");
    let opens = format_jst(won.event.at(PhaseType::FirstPaymentStart), true);
    assert_eq!(doc.text("[data-testid=pay-state]"), format!("お支払いの受付は {opens}（日本時間）から始まります。"));
    assert_eq!(doc.count("[data-testid=choose-form]"), 0);
    let (_, html) = owner.page(&format!("/payment/confirm?application_id={id}&payment_type=stripe")).await;
    assert_eq!(Doc::parse(&html).count("[data-testid=card-island]"), 0, "no card form before the window");

    // Inside: the summary, the deadline in Japan time and the providers offered.
    app.clock.set(won.event.at(PhaseType::FirstPaymentStart) + Duration::hours(1));
    owner.renew().await;
    let deadline = format_jst(won.event.at(PhaseType::FirstPaymentEnd), true);
    let (status, html) = owner.page(&path).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "出展料のお支払い");
    assert_eq!(doc.count("[data-testid=pay-state]"), 0);
    assert_eq!(doc.text("[data-testid=pay-event]"), "テスト展 FlowWindow");
    assert_eq!(doc.text("[data-testid=pay-circle]"), "FlowWindowの工房");
    assert_eq!(doc.text("[data-testid=pay-world]"), "灯りの広場");
    assert_eq!(doc.text("[data-testid=pay-plan]"), "広場ブース");
    assert_eq!(doc.text("[data-testid=pay-category]"), "スペース");
    assert_eq!(doc.text("[data-testid=pay-amount]"), "8,000円");
    assert_eq!(doc.text("[data-testid=pay-deadline]"), format!("{deadline}（日本時間）"));
    assert_eq!(doc.attrs("[data-testid=provider]", "value"), ["stripe"], "the providers with keys");
    assert_eq!(doc.attr("[data-testid=choose-form]", "action"), "/payment/confirm");
    assert_eq!(doc.attr("[data-testid=choose-form]", "method"), "get");
    let (_, html) = owner.page(&format!("/en{path}")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "Pay the exhibition fee");
    assert_eq!(doc.text("[data-testid=pay-event]"), "Test Fair FlowWindow");
    assert_eq!(doc.text("[data-testid=pay-plan]"), "Square booth");
    assert_eq!(doc.text("[data-testid=pay-amount]"), "¥8,000");
    assert_eq!(doc.text("[data-testid=pay-deadline]"), format!("{deadline} (Japan time)"));
    assert_eq!(doc.attr("[data-testid=choose-form]", "action"), "/en/payment/confirm");

    // The card page: Stripe.js from its configured origin, allowed by this page's policy only.
    let confirm = format!("/payment/confirm?application_id={id}&payment_type=stripe");
    let res = owner.request(rocket::http::Method::Get, &confirm).dispatch().await;
    let csp = res.headers().get_one("Content-Security-Policy").unwrap_or_default().to_string();
    let html = res.into_string().await.unwrap();
    assert!(csp.contains(&format!("script-src 'self' {}", stripe.base)), "{csp}");
    assert!(csp.contains(&format!("frame-src {}", stripe.base)), "{csp}");
    assert!(csp.contains(&format!("connect-src 'self' blob: {}", stripe.base)), "{csp}");
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("script#stripe-js", "src"), format!("{}/js.stripe.com/v3/", stripe.base));
    let props: serde_json::Value = serde_json::from_str(&doc.attr("[data-testid=card-island]", "data-props")).unwrap();
    assert_eq!(props["applicationId"], id);
    assert_eq!(props["publishableKey"], "pk_test_vmarket");
    assert_eq!(props["completePath"], "/payment/complete");
    assert_eq!(doc.text("[data-testid=confirm-provider]"), "クレジットカード（Stripe）");
    assert!(html.contains("カードでのお支払いには JavaScript が必要です"), "the no-JS notice");
    for other in [path.clone(), "/mypage".into(), "/".into()] {
        let res = owner.request(rocket::http::Method::Get, &other).dispatch().await;
        let csp = res.headers().get_one("Content-Security-Policy").unwrap_or_default();
        assert!(csp.contains("script-src 'self';") && !csp.contains(&stripe.base), "{other}: {csp}");
    }

    // After the window: closed, nothing to pay, no form.
    app.clock.set(won.event.at(PhaseType::FirstPaymentEnd) + Duration::minutes(1));
    owner.renew().await;
    let (_, html) = owner.page(&path).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=pay-state]", "data-state"), "closed");
    assert_eq!(doc.count("[data-testid=choose-form]"), 0);
    let (_, html) = owner.page(&format!("/en/payment/confirm?application_id={id}&payment_type=stripe")).await;
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=pay-state]").starts_with("This application has nothing to pay now"));
    assert_eq!(doc.count("[data-testid=card-island]"), 0);
    let (status, body) = owner
        .post_json("/api/v1/user/payment/pre_order", &json!({"application_id": id, "payment_type": "stripe"}))
        .await;
    assert_eq!((status, body["code"].as_str()), (409, Some("payment_closed")), "the API agrees");
}

#[rocket::async_test]
async fn a_paid_application_links_its_receipt_everywhere_and_is_no_longer_due() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe, &stripe.base).await;
    let mut owner = app.with_user("flow_paid").await;
    let mut member = app.with_user("flow_paid_member").await;
    let won = app.won_application(&owner, "FlowPaid").await;
    owner.renew().await;
    member.renew().await;
    app.join(&owner, circle_of(&app, &won).await, &member).await;
    let id = won.application_id;

    // Due: the dashboard lists it, the entry history links it (for the owner only).
    let (_, html) = owner.page("/mypage").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=payment-due]"), 1);
    assert_eq!(doc.attr("[data-testid=dashboard-pay]", "href"), format!("/payment?application_id={id}"));
    assert_eq!(doc.text("[data-testid=payments-due-count]"), "お支払いが必要な当選が 1 件あります。");
    let (_, html) = owner.page("/en/mypage").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=dashboard-pay]", "href"), format!("/en/payment?application_id={id}"));
    assert_eq!(doc.attr("[data-testid=dashboard-pay]", "aria-label"), "Pay the fee of Square booth");
    for list in ["/mypage/entry_history", "/mypage/entry_history/FlowPaid/apply"] {
        let (_, html) = owner.page(list).await;
        assert_eq!(
            Doc::parse(&html).attrs("[data-testid=pay]", "href"),
            [format!("/payment?application_id={id}")],
            "{list}"
        );
        let (_, html) = member.page(list).await;
        assert_eq!(Doc::parse(&html).count("[data-testid=pay]"), 0, "{list}: a member does not pay");
    }
    let (_, html) = member.page("/mypage").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=payment-due]"), 0);

    let uuid = pay_by_card(&owner, &stripe, id).await;
    let receipt = format!("/mypage/payment_history/{uuid}");

    // Paid: the complete page, the payment page and the entry history link the receipt.
    let (status, html) = owner.page(&format!("/payment/complete?transaction={uuid}")).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=outcome]", "data-outcome"), "paid");
    assert_eq!(doc.text("[data-testid=complete-heading]"), "お支払いが完了しました");
    assert_eq!(doc.text("[data-testid=complete-amount]"), "8,000円");
    assert_eq!(doc.text("[data-testid=complete-transaction]"), uuid);
    assert_eq!(doc.attr("[data-testid=complete-receipt]", "href"), receipt);
    let (_, html) = owner.page(&format!("/en/payment/complete?transaction={uuid}")).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=complete-heading]"), "Payment complete");
    assert_eq!(doc.attr("[data-testid=complete-receipt]", "href"), format!("/en{receipt}"));

    for prefix in ["", "/en"] {
        let (_, html) = owner.page(&format!("{prefix}/payment?application_id={id}")).await;
        let doc = Doc::parse(&html);
        assert_eq!(doc.attr("[data-testid=pay-state]", "data-state"), "paid");
        assert_eq!(doc.attr("[data-testid=pay-receipt]", "href"), format!("{prefix}{receipt}"));
        assert_eq!(doc.count("[data-testid=choose-form]"), 0);
        let (_, html) = owner.page(&format!("{prefix}/payment/confirm?application_id={id}&payment_type=stripe")).await;
        let doc = Doc::parse(&html);
        assert_eq!(doc.attr("[data-testid=pay-state]", "data-state"), "paid", "no card form for a paid application");
        assert_eq!(doc.count("[data-testid=card-island]"), 0);
    }
    let (_, html) = owner.page("/mypage/entry_history/FlowPaid/apply").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=application]", "data-status"), "paid");
    assert_eq!(doc.text("[data-testid=status]"), "当選・お支払い済み");
    assert_eq!(doc.attr("[data-testid=receipt]", "href"), receipt);
    assert_eq!(doc.count("[data-testid=pay]"), 0);
    let (_, html) = owner.page("/en/mypage/entry_history/FlowPaid/apply").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=status]"), "Won and paid");
    assert_eq!(doc.attr("[data-testid=receipt]", "aria-label"), "Receipt of Square booth");
    let (_, html) = member.page("/mypage/entry_history/FlowPaid/apply").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=receipt]"), 0, "the receipt is the payer's");
    let (_, html) = owner.page("/mypage").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-testid=payment-due]"), 0);
    assert_eq!(doc.text("[data-testid=dashboard-payments] p"), "お支払いが必要なお申し込みはありません。");
}

#[rocket::async_test]
async fn the_complete_page_tells_each_way_an_attempt_ends() {
    let Some(stripe) = LocalStripe::start() else { return };
    let gate = Gate::start(stripe.base.trim_start_matches("http://")).await;
    let app = app_with(&stripe, &gate.base).await;
    let mut owner = app.with_user("flow_outcomes").await;
    let won = app.won_application(&owner, "FlowOutcomes").await;
    owner.renew().await;
    let id = won.application_id;
    let outcome = |html: &str| Doc::parse(html).attr("[data-testid=outcome]", "data-outcome");

    // The provider falls silent during the capture: pending, "we are checking", a reload link.
    let ask = json!({"application_id": id, "payment_type": "stripe"});
    let (_, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    let uuid = opened["transaction_uuid"].as_str().unwrap().to_string();
    let card = stripe.card("4242424242424242").await;
    gate.set(GateMode::Hang);
    let (status, body) = owner
        .post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid, "payment_method": card}))
        .await;
    assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")), "{body}");
    gate.set(GateMode::Up);
    let (status, html) = owner.page(&format!("/payment/complete?transaction={uuid}")).await;
    assert_eq!(status, 200);
    assert_eq!(outcome(&html), "pending");
    assert!(html.contains("お支払いが二重に行われることはありません"), "{html}");
    assert_eq!(
        Doc::parse(&html).attr("[data-testid=complete-reload]", "href"),
        format!("/payment/complete?transaction={uuid}")
    );
    let (_, html) = owner.page(&format!("/en/payment/complete?transaction={uuid}")).await;
    assert_eq!(Doc::parse(&html).text("[data-testid=complete-heading]"), "Confirming your payment");

    // Refused at the provider (closed here as failed): not completed, pay again.
    order::Model::close(&app.db, order_id(&app, &uuid).await, OrderState::Failed, "canceled", app.clock.now())
        .await
        .unwrap();
    let (_, html) = owner.page(&format!("/payment/complete?transaction={uuid}")).await;
    assert_eq!(outcome(&html), "failed");
    assert_eq!(Doc::parse(&html).attr("[data-testid=complete-retry]", "href"), format!("/payment?application_id={id}"));

    // Paid through another attempt, then money taken a second time: the duplicate says so and
    // links the real payment's receipt.
    let now = app.clock.now();
    let payable = Payable::load(&app.db, id, owner.user.id, now).await.unwrap();
    let first = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let second = open_order(&app.db, &payable, owner.user.id, PaymentType::Paypal, now).await.unwrap();
    let mailer = Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, first.id, "pi_first", now).await.unwrap();
    settle(&app.db, &mailer, second.id, "PAYPAL-SECOND", now).await.unwrap();
    let (_, html) = owner.page(&format!("/payment/complete?transaction={}", second.transaction_uuid)).await;
    assert_eq!(outcome(&html), "duplicate");
    assert_eq!(
        Doc::parse(&html).attr("[data-testid=complete-receipt]", "href"),
        format!("/mypage/payment_history/{}", first.transaction_uuid)
    );
    assert!(html.contains("こちらのお支払いは運営事務局から返金します"));
}

async fn order_id(app: &TestApp, uuid: &str) -> i32 {
    order::Entity::find().filter(order::Column::TransactionUuid.eq(uuid)).one(&app.db).await.unwrap().unwrap().id
}

/// The demo, as `make run` leaves it: the demo exhibitor's win in 2027Spring is payable from the
/// dashboard and the entry history, in both languages.
#[rocket::async_test]
async fn the_demo_exhibitor_finds_the_demo_win_to_pay() {
    let Some(stripe) = LocalStripe::start() else { return };
    let app = app_with(&stripe, &stripe.base).await;
    let (_, html) = app.open_account_page("/mypage").await;
    let credentials = [("email", "exhibitor@demo.vmarket.test"), ("password", "vmarket-demo-2026")];
    let (status, location, _) = app.submit("/account/auth/sign_in", &html, &credentials).await;
    assert_eq!(status, 303);
    let (path, status, html) = app.follow(location.expect("a redirect")).await;
    assert_eq!((path.as_str(), status), ("/mypage", 200));
    let doc = Doc::parse(&html);
    let pay = doc.attrs("[data-testid=dashboard-pay]", "href");
    assert_eq!(pay.len(), 1, "one win to pay: {}", doc.text("[data-testid=dashboard-payments]"));
    assert!(
        doc.text("[data-testid=payment-due]")
            .contains("バーチャルマーケット2027 Spring／ともしび工房：さくら並木のホーム ブース（9,000円")
    );
    let (status, html) = app.page(&pay[0]).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=pay-amount]"), "9,000円");
    assert_eq!(doc.attrs("[data-testid=provider]", "value"), ["stripe"]);
    let (_, html) = app.page("/en/mypage/entry_history/2027Spring/apply").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attrs("[data-testid=pay]", "href"), [pay[0].replacen("/payment", "/en/payment", 1)]);
}
