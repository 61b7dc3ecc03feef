//! A suspended circle cannot pay (issue 25, item 2; failed on e1df045): opening a payment
//! (`pre_order`) and capturing one opened before the suspension answer 409 `circle_suspended`
//! in both languages, and Stripe's word that money arrived anyway for such an attempt (the payer
//! confirmed it before staff suspended the circle) settles nothing: the attempt is flagged for a
//! refund, as the console's `needs_refund` lists it, and the application stays an unpaid win.
//! Lifting the suspension makes the win payable again.

use rocket::http::Method;
use sea_orm::EntityTrait;
use serde_json::json;
use vmarket::db::entities::{event_entry_application, order};
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::order::open_order;
use vmarket::model::payment::{OrderState, Payable, PaymentType};
use vmarket::model::user::Role;

use crate::support::TestApp;

const SECRET: &str = "whsec_suspended";

#[rocket::async_test]
async fn a_suspended_circle_can_neither_open_nor_capture_a_payment_and_money_it_sends_is_flagged() {
    let app = TestApp::builder().live().config(|c| c.stripe_webhook_secrets = vec![SECRET.into()]).build().await;
    let mut owner = app.with_user("suspended_payer").await;
    let won = app.won_application(&owner, "SuspendedPay").await;
    owner.renew().await;
    let now = app.clock.now();

    // The payer opens an attempt while the circle is in good standing…
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.expect("payable");
    let opened = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.expect("opened");
    order::Model::set_provider_id(&app.db, opened.id, "pi_before_suspension", now).await.unwrap();

    // …then staff suspend the circle.
    let staff = app.as_staff(Role::UcStaff).await;
    let suspend = json!({"is_suspended": true, "suspension_reason": "支払いの確認"});
    let answer =
        app.call_as(&staff, Method::Put, &format!("/admin/api/circles/{}", won.circle_id), Some(&suspend)).await;
    assert_eq!(answer.0, 200, "{:?}", answer.1);

    for (lang, message) in [
        ("ja", "このサークルは運営により利用停止中のため、変更できません。"),
        ("en", "This circle has been suspended by the organisers, so it cannot be changed."),
    ] {
        let ask = json!({"application_id": won.application_id, "payment_type": "stripe"});
        let (status, body) = owner.post_json(&format!("/api/v1/user/payment/pre_order?lang={lang}"), &ask).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (409, Some("circle_suspended"), Some(message))
        );
        let capture = json!({"transaction_uuid": opened.transaction_uuid, "payment_method": "pm_card_visa"});
        let (status, body) = owner.post_json(&format!("/api/v1/user/payment/capture?lang={lang}"), &capture).await;
        assert_eq!((status, body["code"].as_str()), (409, Some("circle_suspended")), "{body}");
    }

    // Stripe says the attempt opened before the suspension took the fee: nothing settles.
    assert_eq!(app.stripe_succeeded(SECRET, "evt_suspended", "pi_before_suspension", 8000).await, 200);
    let row = order::Entity::find_by_id(opened.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!((row.state, row.failure.as_deref()), (OrderState::Failed, Some("circle_suspended")));
    assert_eq!(app.settled_payments(won.application_id).await, 0);
    let stored = event_entry_application::Entity::find_by_id(won.application_id).one(&app.db).await.unwrap().unwrap();
    assert_eq!(stored.lottery_status, LotteryStatus::FirstWin, "not paid");
    let admin = app.as_staff(Role::Admin).await;
    let (_, record) = admin.get_json(&format!("/admin/api/payments/{}", opened.id)).await;
    assert_eq!(record["needs_refund"], true, "{record}");

    // The payer's result page says so.
    let (status, html) = owner.page(&format!("/en/payment/complete?transaction={}", opened.transaction_uuid)).await;
    assert_eq!(status, 200);
    assert!(html.contains("The organisers suspended this circle, so the payment was not accepted."), "{html}");

    // Lifted: the win can be paid again.
    let lift = json!({"is_suspended": false});
    let answer = app.call_as(&staff, Method::Put, &format!("/admin/api/circles/{}", won.circle_id), Some(&lift)).await;
    assert_eq!(answer.0, 200, "{:?}", answer.1);
    assert!(Payable::load(&app.db, won.application_id, owner.user.id, app.clock.now()).await.is_ok());
}
