//! The `payments` console resource: every attempt with its settled payment, the filters staff
//! find the odd ones with (event, state, provider, late, duplicate), who may read them, and the
//! reconcile of a stuck attempt — refused to everyone but admins, answered 502 while the provider
//! is silent, settling it once it answers, audited every time.

use chrono::Duration;
use rocket::http::Method;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};
use vmarket::db::entities::{audit_log, event_entry_application, order, payment_history};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::order::open_order;
use vmarket::model::payment::{OrderState, Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::Settlement;
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;
use crate::support::localstripe::{Gate, GateMode, LocalStripe, PUBLISHABLE_KEY, SECRET_KEY};

/// Opens an attempt of `owner` for `application_id` through `provider`, as `pre_order` does.
async fn open(app: &TestApp, owner: &Actor<'_>, application_id: i32, provider: PaymentType) -> order::Model {
    let payable = Payable::load(&app.db, application_id, owner.user.id, app.clock.now()).await.expect("payable");
    open_order(&app.db, &payable, owner.user.id, provider, app.clock.now()).await.expect("opened")
}

async fn audit_rows(app: &TestApp) -> Vec<audit_log::Model> {
    audit_log::Entity::find()
        .filter(audit_log::Column::Resource.eq("payments"))
        .order_by_asc(audit_log::Column::Id)
        .all(&app.db)
        .await
        .unwrap()
}

fn json_of(text: &Option<String>) -> Value {
    text.as_deref().map(|t| serde_json::from_str(t).unwrap()).unwrap_or(Value::Null)
}

/// The ids a filter lists, as `who`, leaving out the demo's own payment attempts (the seeded
/// paid application has one): the test's attempts are the ones after them.
async fn listed(app: &TestApp, who: &Actor<'_>, filter: Value) -> Vec<i64> {
    let path = list_path("/admin/api/payments", Some(r#"["id","ASC"]"#), None, Some(&filter.to_string()));
    let answer: Answer = call(app, who, Method::Get, &path, None).await;
    assert_eq!(answer.status, 200, "{filter}: {:?}", answer.body);
    let demo = demo_attempts(app).await;
    answer.ids().into_iter().filter(|id| !demo.contains(id)).collect()
}

/// The transactions of the demo's settled payments (`src/seed/data/entries.json`).
const DEMO_TRANSACTIONS: [&str; 1] = ["c768c91c-5ddf-4b43-80c3-f9f2cd00890d"];

/// The payment attempts the demo seed made.
async fn demo_attempts(app: &TestApp) -> Vec<i64> {
    let seeded = order::Entity::find().filter(order::Column::TransactionUuid.is_in(DEMO_TRANSACTIONS));
    seeded.all(&app.db).await.unwrap().into_iter().map(|o| i64::from(o.id)).collect()
}

#[rocket::async_test]
async fn staff_find_duplicate_late_and_stuck_payments_and_only_admins_reconcile() {
    let app = TestApp::builder().live().build().await;
    // Event A: paid twice (two providers in two tabs): the second attempt is a duplicate.
    let payer = app.with_user("pay_admin_a").await;
    let won_a = app.won_application(&payer, "PayAdminA").await;
    let stripe_a = open(&app, &payer, won_a.application_id, PaymentType::Stripe).await;
    let paypal_a = open(&app, &payer, won_a.application_id, PaymentType::Paypal).await;
    let now = app.clock.now();
    assert!(matches!(
        app.senders().outbox().settle(&app.db, stripe_a.id, "pi_a", now).await.unwrap(),
        Settlement::Settled(_)
    ));
    assert!(matches!(
        app.senders().outbox().settle(&app.db, paypal_a.id, "PAYPAL-A", now).await.unwrap(),
        Settlement::Duplicate(_)
    ));
    // Event B: confirmed by the provider after the payment window closed.
    let late_payer = app.with_user("pay_admin_b").await;
    let won_b = app.won_application(&late_payer, "PayAdminB").await;
    let late = open(&app, &late_payer, won_b.application_id, PaymentType::Stripe).await;
    let after_window = won_b.event.at(PhaseType::FirstPaymentEnd) + Duration::hours(2);
    assert!(matches!(
        app.senders().outbox().settle(&app.db, late.id, "pi_b", after_window).await.unwrap(),
        Settlement::Settled(_)
    ));
    // Event C: one attempt stuck at Stripe (which this app has no keys for), one never opened there.
    let stuck_payer = app.with_user("pay_admin_c").await;
    let won_c = app.won_application(&stuck_payer, "PayAdminC").await;
    let stuck = open(&app, &stuck_payer, won_c.application_id, PaymentType::Stripe).await;
    order::Model::set_provider_id(&app.db, stuck.id, "pi_stuck", app.clock.now()).await.unwrap();
    let unopened = open(&app, &stuck_payer, won_c.application_id, PaymentType::Paypal).await;

    let admin = app.as_staff(Role::Admin).await;
    let director = app.as_staff(Role::Director).await;
    let support = app.as_staff(Role::UcStaff).await;
    let qa = app.as_staff(Role::QaTester).await;
    let ids = |orders: &[&order::Model]| orders.iter().map(|o| i64::from(o.id)).collect::<Vec<_>>();

    // What staff read: the attempt, its settled payment, application, circle and payer.
    let (status, record) = admin.get_json(&format!("/admin/api/payments/{}", late.id)).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["state"], "captured");
    assert_eq!(record["is_late"], true);
    assert_eq!(record["order_reference"], "pi_b");
    assert_eq!(record["amount"], 8000);
    assert_eq!(record["event_id"], won_b.event.id);
    assert_eq!(record["application_id"], won_b.application_id);
    assert_eq!(record["user_vmarket_id"], "pay_admin_b");
    assert_eq!(record["circle_name_ja"], "PayAdminBの工房");
    assert!(record["payment_id"].is_i64() && record["paid_at"].is_string());
    let (_, duplicate) = admin.get_json(&format!("/admin/api/payments/{}", paypal_a.id)).await;
    assert_eq!((duplicate["state"].as_str(), duplicate["is_duplicate"].as_bool()), (Some("failed"), Some(true)));
    assert_eq!(duplicate["payment_id"], Value::Null, "no second settled payment");

    // The filters.
    for reader in [&admin, &director, &support] {
        assert_eq!(listed(&app, reader, json!({"event_id": won_a.event.id})).await, ids(&[&stripe_a, &paypal_a]));
    }
    assert_eq!(listed(&app, &admin, json!({"is_duplicate": true})).await, ids(&[&paypal_a]));
    assert_eq!(listed(&app, &admin, json!({"is_late": true})).await, ids(&[&late]));
    assert_eq!(listed(&app, &admin, json!({"is_late": "false", "state": "captured"})).await, ids(&[&stripe_a]));
    assert_eq!(listed(&app, &admin, json!({"state": "pending"})).await, ids(&[&stuck, &unopened]));
    assert_eq!(listed(&app, &admin, json!({"provider": "paypal"})).await, ids(&[&paypal_a, &unopened]));
    assert_eq!(listed(&app, &admin, json!({"q": stuck.transaction_uuid})).await, ids(&[&stuck]));
    assert_eq!(listed(&app, &admin, json!({"q": "pi_stuck"})).await, ids(&[&stuck]));
    let circle = record["circle_id"].clone();
    assert_eq!(listed(&app, &admin, json!({"circle_id": circle})).await, ids(&[&late]));
    let bad =
        call(&app, &admin, Method::Get, &list_path("/admin/api/payments", None, None, Some(r#"{"is_late":3}"#)), None)
            .await;
    assert_eq!((bad.status, bad.attributes()), (422, vec!["filter.is_late".to_string()]));

    // Who may do what: qa_tester sees nothing; only admins reconcile.
    let path = format!("/admin/api/payments/{}/reconcile", stuck.id);
    assert_eq!(call(&app, &qa, Method::Get, "/admin/api/payments", None).await.status, 403);
    for refused in [&director, &support, &qa] {
        let answer = call(&app, refused, Method::Post, &path, None).await;
        assert_eq!((answer.status, answer.body["code"].as_str()), (403, Some("forbidden")));
    }
    assert!(audit_rows(&app).await.is_empty(), "refused reconciles leave no audit entry");

    // The provider cannot be asked (this app has no Stripe keys): 502, nothing changes, audited.
    let silent = call(&app, &admin, Method::Post, &format!("{path}?lang=en"), None).await;
    assert_eq!((silent.status, silent.body["code"].as_str()), (502, Some("provider_unavailable")), "{:?}", silent.body);
    assert!(silent.body["message"].as_str().unwrap().contains("payment service"));
    let row = order::Entity::find_by_id(stuck.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!(row.state, OrderState::Pending);
    // Never opened at its provider: nothing to ask, nothing changes.
    let never = call(&app, &admin, Method::Post, &format!("/admin/api/payments/{}/reconcile", unopened.id), None).await;
    assert_eq!((never.status, never.body["outcome"].as_str()), (200, Some("never_opened")), "{:?}", never.body);
    assert_eq!(never.body["state"], "pending");
    // Settled attempts are not reconciled.
    let settled = call(&app, &admin, Method::Post, &format!("/admin/api/payments/{}/reconcile", late.id), None).await;
    assert_eq!((settled.status, settled.body["code"].as_str()), (409, Some("payment_not_pending")));

    let rows = audit_rows(&app).await;
    assert_eq!(rows.len(), 2, "one entry per reconcile that ran");
    assert_eq!((rows[0].action.as_str(), rows[0].actor_id), ("reconcile", admin.user.id));
    assert_eq!(rows[0].record_id, stuck.id.to_string());
    assert_eq!(json_of(&rows[0].before)["state"], "pending");
    assert_eq!(json_of(&rows[0].after)["state"], "pending");
    assert_eq!(json_of(&rows[0].after)["outcome"], "provider_unavailable");
    assert_eq!(json_of(&rows[1].after)["outcome"], "never_opened");
    // Payments are read-only otherwise.
    let edit = call(&app, &admin, Method::Put, &format!("/admin/api/payments/{}", stuck.id), Some(&json!({}))).await;
    assert_eq!(edit.status, 405);
}

#[rocket::async_test]
async fn an_admin_reconciles_a_payment_stripe_took_while_our_capture_failed() {
    let Some(stripe) = LocalStripe::start() else { return };
    let gate = Gate::start(stripe.base.trim_start_matches("http://")).await;
    let base = gate.base.clone();
    let app = TestApp::builder()
        .live()
        .config(move |c| {
            c.stripe_api_base = base;
            c.stripe_secret_key = SECRET_KEY.into();
            c.stripe_publishable_key = PUBLISHABLE_KEY.into();
            c.payment_timeout_ms = 500;
        })
        .build()
        .await;
    let mut owner = app.with_user("console_reconcile").await;
    let won = app.won_application(&owner, "ConsoleReconcile").await;
    owner.renew().await;
    let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
    let (status, opened) = owner.post_json("/api/v1/user/payment/pre_order", &ask).await;
    assert_eq!(status, 200, "{opened}");
    let (pi, uuid) = (opened["order_id"].as_str().unwrap().to_string(), opened["transaction_uuid"].as_str().unwrap());
    // The payer's browser confirmed with Stripe.js: the money is taken at Stripe.
    let card = stripe.card("4242424242424242").await;
    let http = reqwest::Client::new();
    http.post(format!("{}/v1/payment_intents/{pi}", stripe.base))
        .bearer_auth(SECRET_KEY)
        .form(&[("payment_method", card.as_str())])
        .send()
        .await
        .unwrap();
    let confirmed =
        http.post(format!("{}/v1/payment_intents/{pi}/confirm", stripe.base)).bearer_auth(SECRET_KEY).send().await;
    assert!(confirmed.unwrap().status().is_success());
    // Our capture met a silent Stripe: the attempt is stuck pending.
    gate.set(GateMode::Down);
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": uuid})).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("payment_pending")));
    let id =
        order::Entity::find().filter(order::Column::TransactionUuid.eq(uuid)).one(&app.db).await.unwrap().unwrap().id;

    let admin = app.as_staff(Role::Admin).await;
    let path = format!("/admin/api/payments/{id}/reconcile");
    let silent = call(&app, &admin, Method::Post, &path, None).await;
    assert_eq!(silent.status, 502, "{:?}", silent.body);
    gate.set(GateMode::Up);
    let done = call(&app, &admin, Method::Post, &path, None).await;
    assert_eq!(done.status, 200, "{:?}", done.body);
    assert_eq!((done.body["outcome"].as_str(), done.body["state"].as_str()), (Some("settled"), Some("captured")));
    assert_eq!(done.body["order_reference"], pi.as_str());
    let application = event_entry_application::Entity::find_by_id(won.application_id).one(&app.db).await.unwrap();
    assert_eq!(application.unwrap().lottery_status, LotteryStatus::Paid);
    let settled = payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(won.application_id))
        .count(&app.db)
        .await
        .unwrap();
    assert_eq!(settled, 1);
    assert_eq!(stripe.intent(&pi).await["status"], "succeeded", "the reconcile only read the intent");
    // Again: nothing left to reconcile, and still one payment.
    let again = call(&app, &admin, Method::Post, &path, None).await;
    assert_eq!((again.status, again.body["code"].as_str()), (409, Some("payment_not_pending")));
    let rows = audit_rows(&app).await;
    let outcomes: Vec<_> = rows.iter().map(|r| json_of(&r.after)["outcome"].clone()).collect();
    assert_eq!(outcomes, [json!("provider_unavailable"), json!("settled")]);
    assert_eq!(json_of(&rows[1].before)["state"], "pending");
    assert_eq!(json_of(&rows[1].after)["state"], "captured");
}

#[rocket::async_test]
async fn money_taken_but_not_settled_is_flagged_for_a_refund_in_the_list_and_on_the_dashboard() {
    const SECRET: &str = "whsec_refund_due";
    let app = TestApp::builder().live().config(|c| c.stripe_webhook_secrets = vec![SECRET.into()]).build().await;
    // Stripe took 800 yen instead of the 8,000 of the fee (a signed event says so): the attempt
    // cannot settle the application, but the money is taken.
    let payer = app.with_user("pay_mismatch").await;
    let won = app.won_application(&payer, "PayMismatch").await;
    let mismatch = open(&app, &payer, won.application_id, PaymentType::Stripe).await;
    order::Model::set_provider_id(&app.db, mismatch.id, "pi_mismatch", app.clock.now()).await.unwrap();
    assert_eq!(app.stripe_succeeded(SECRET, "evt_mismatch", "pi_mismatch", 800).await, 200);
    let row = order::Entity::find_by_id(mismatch.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!((row.state, row.failure.as_deref()), (OrderState::Failed, Some("amount_mismatch")));
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    // And one application paid twice (two providers, two tabs).
    let twice = app.with_user("pay_twice").await;
    let won_twice = app.won_application(&twice, "PayTwice").await;
    let first = open(&app, &twice, won_twice.application_id, PaymentType::Stripe).await;
    let second = open(&app, &twice, won_twice.application_id, PaymentType::Paypal).await;
    let outbox = app.senders();
    outbox.outbox().settle(&app.db, first.id, "pi_first", app.clock.now()).await.unwrap();
    outbox.outbox().settle(&app.db, second.id, "PAYPALSECOND", app.clock.now()).await.unwrap();

    // Money taken for an attempt already closed here (expired while Stripe's answer was on its
    // way): the fee would be settled late (`is_late`); another amount is flagged all the same.
    let closer = app.with_user("pay_mismatch_closed").await;
    let won_closed = app.won_application(&closer, "PayMismatchClosed").await;
    let closed = open(&app, &closer, won_closed.application_id, PaymentType::Stripe).await;
    order::Model::set_provider_id(&app.db, closed.id, "pi_mismatch_closed", app.clock.now()).await.unwrap();
    assert!(
        order::Model::close(&app.db, closed.id, OrderState::Expired, "window_closed", app.clock.now()).await.unwrap()
    );
    assert_eq!(app.stripe_succeeded(SECRET, "evt_mismatch_closed", "pi_mismatch_closed", 800).await, 200);
    let row = order::Entity::find_by_id(closed.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!((row.state, row.failure.as_deref()), (OrderState::Failed, Some("amount_mismatch")));
    assert_eq!(app.settled_payments(won_closed.application_id).await, 0);

    let mut admin = app.as_staff(Role::Admin).await;
    let (_, record) = admin.get_json(&format!("/admin/api/payments/{}", mismatch.id)).await;
    assert_eq!((record["needs_refund"].as_bool(), record["is_duplicate"].as_bool()), (Some(true), Some(false)));
    let (_, record) = admin.get_json(&format!("/admin/api/payments/{}", second.id)).await;
    assert_eq!(record["needs_refund"], true);
    let (_, record) = admin.get_json(&format!("/admin/api/payments/{}", first.id)).await;
    assert_eq!(record["needs_refund"], false);
    let flagged = vec![i64::from(mismatch.id), i64::from(second.id), i64::from(closed.id)];
    assert_eq!(listed(&app, &admin, json!({"needs_refund": true})).await, flagged);
    let rest = listed(&app, &admin, json!({"needs_refund": false})).await;
    assert!(flagged.iter().all(|id| !rest.contains(id)) && rest.contains(&i64::from(first.id)));

    // The dashboard's card for staff: all three, the longest-waiting first, with why; its filter
    // lists them.
    admin.renew().await;
    let (status, board) = admin.get_json("/admin/api/dashboard?lang=en").await;
    assert_eq!(status, 200);
    let card = board["cards"].as_array().unwrap().iter().find(|c| c["key"] == "payments_to_refund").expect("card");
    assert_eq!((card["resource"].as_str(), card["count"].as_u64()), (Some("payments"), Some(3)));
    assert_eq!(card["items"][0]["id"], mismatch.id);
    assert_eq!(card["items"][0]["title"], format!("#{} PayMismatchの工房 ¥8,000 (Stripe)", mismatch.id));
    assert_eq!(card["items"][0]["detail"], "Amount differs from the fee");
    assert_eq!(card["items"][1]["detail"], "Paid twice");
    assert_eq!(
        (card["items"][2]["id"].as_i64(), card["items"][2]["detail"].as_str()),
        (Some(i64::from(closed.id)), Some("Amount differs from the fee"))
    );
    assert_eq!(listed(&app, &admin, card["filter"].clone()).await, flagged);
    let (_, board) = admin.get_json("/admin/api/dashboard?lang=ja").await;
    let card = board["cards"].as_array().unwrap().iter().find(|c| c["key"] == "payments_to_refund").unwrap();
    assert_eq!(card["items"][0]["detail"], "金額が料金と一致しない");
    assert_eq!(card["items"][1]["detail"], "二重の支払い");
}
