//! Payments (issue 13, DOMAIN.md "Payments"): exactly one settled payment per application under
//! concurrency (with a control run without the unique keys, which must break), the rules of who
//! may pay when, and the settle's idempotency.

use std::sync::Arc;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter};
use vmarket::db::entities::{event_entry_application, mail, order, payment_history};
use vmarket::mail::Mailer;
use vmarket::model::entry_status::LotteryStatus;
use vmarket::model::order::open_order;
use vmarket::model::payment::{OrderState, Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::{Settlement, settle};

use crate::support::TestApp;

/// Settles one order of a won application from `tasks` tasks at once; returns how many settled
/// payments the application has afterwards and what each call answered.
async fn settle_concurrently(
    app: &TestApp,
    application_id: i32,
    user_id: i32,
    tasks: usize,
) -> (u64, Vec<vmarket::error::Result<Settlement>>) {
    let now = app.clock.now();
    let payable = Payable::load(&app.db, application_id, user_id, now).await.expect("payable");
    let opened = open_order(&app.db, &payable, user_id, PaymentType::Stripe, now).await.unwrap();
    // As with a real attempt, the provider's id is known before the money is confirmed.
    order::Model::set_provider_id(&app.db, opened.id, "pi_concurrent", now).await.unwrap();
    let db = Arc::new(app.db.clone());
    let mailer = Arc::new(Mailer::new(&app.config).expect("mailer"));
    let tasks: Vec<_> = (0..tasks)
        .map(|_| {
            let (db, mailer) = (db.clone(), mailer.clone());
            rocket::tokio::spawn(async move { settle(db.as_ref(), &mailer, opened.id, "pi_concurrent", now).await })
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap().map(|s| s.outcome));
    }
    let count = payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(application_id))
        .count(&app.db)
        .await
        .unwrap();
    (count, results)
}

#[rocket::async_test]
async fn a_hundred_concurrent_settles_make_exactly_one_payment() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("pay_owner").await;
    let won = app.won_application(&owner, "PayFair").await;

    let (count, results) = settle_concurrently(&app, won.application_id, owner.user.id, 100).await;
    let results: Vec<Settlement> = results.into_iter().map(|r| r.expect("every settle answers")).collect();
    assert_eq!(count, 1, "exactly one settled payment");
    let settled = results.iter().filter(|r| matches!(r, Settlement::Settled(_))).count();
    assert_eq!(settled, 1, "one call settled, the others found it done: {results:?}");
    let first = results[0].payment().expect("settled").id;
    assert!(
        results.iter().all(|r| matches!(r, Settlement::Settled(p) | Settlement::AlreadySettled(p) if p.id == first))
    );
    let application =
        event_entry_application::Entity::find_by_id(won.application_id).one(&app.db).await.unwrap().unwrap();
    assert_eq!(application.lottery_status, LotteryStatus::Paid);
    let orders = order::Entity::find().filter(order::Column::ApplicationId.eq(won.application_id)).all(&app.db).await;
    let orders = orders.unwrap();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].state, OrderState::Captured);
    assert_eq!(orders[0].amount, 8000, "the fee at the draw");
    let receipts = mail::Entity::find().filter(mail::Column::Kind.eq("payment_receipt")).count(&app.db).await.unwrap();
    assert_eq!(receipts, 1, "one receipt, queued by the one settle that settled");
}

/// The control: the same run on a schema without the unique keys of `payment_histories` (what a
/// check-then-insert design would rely on) settles the application more than once, so the test
/// above can fail. It runs 24 settles, not 100: unguarded, every one of them commits, one after
/// the other on the order's row lock while holding a pooled connection, and on a busy machine the
/// hundredth would wait past the pool's acquire timeout — more than one is all the control needs.
/// Unguarded settles could also fail (deadlocks), so the control counts what was stored.
#[rocket::async_test]
async fn control_without_the_unique_keys_the_same_run_pays_twice() {
    let app = TestApp::builder().live().build().await;
    for index in ["application_id", "order_id", "transaction_uuid"] {
        app.db
            .execute_unprepared(&format!("DROP INDEX idx_payment_histories_{index}"))
            .await
            .expect("the control drops the unique key");
    }
    let owner = app.with_user("pay_control").await;
    let won = app.won_application(&owner, "PayControl").await;
    let (count, _) = settle_concurrently(&app, won.application_id, owner.user.id, 24).await;
    assert!(count > 1, "without the unique keys the settles are not guarded (got {count})");
}

#[rocket::async_test]
async fn only_the_owner_pays_only_a_win_only_inside_its_window() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("pay_rules").await;
    let stranger = app.with_user("pay_stranger").await;
    let won = app.won_application(&owner, "PayRules").await;
    let now = app.clock.now();
    assert_eq!(
        Payable::load(&app.db, won.application_id, stranger.user.id, now).await.unwrap_err().code(),
        "not_found"
    );
    assert_eq!(Payable::load(&app.db, 999_999, owner.user.id, now).await.unwrap_err().code(), "not_found");
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    assert_eq!((payable.amount, payable.deadline), (8000, won.event.at(PhaseType::FirstPaymentEnd)));

    let before = won.event.at(PhaseType::FirstPaymentStart) - chrono::Duration::seconds(1);
    let closed = won.event.at(PhaseType::FirstPaymentEnd);
    for at in [before, closed] {
        let err = Payable::load(&app.db, won.application_id, owner.user.id, at).await.unwrap_err();
        assert_eq!(err.code(), "payment_closed", "at {at}");
    }

    // Two opens of the same provider share the attempt; a settle makes the application paid.
    let a = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let b = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    assert_eq!(a.id, b.id);
    assert!(uuid::Uuid::parse_str(&a.transaction_uuid).is_ok_and(|u| u.get_version_num() == 4));
    let other = open_order(&app.db, &payable, owner.user.id, PaymentType::Paypal, now).await.unwrap();
    let mailer = Mailer::new(&app.config).unwrap();
    let first = settle(&app.db, &mailer, a.id, "pi_1", now).await.unwrap();
    assert!(matches!(first.outcome, Settlement::Settled(_)) && first.receipt.is_some(), "{first:?}");
    assert_eq!(
        Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap_err().code(),
        "already_paid"
    );
    // Money taken a second time through another provider is flagged, not settled twice.
    let dup = settle(&app.db, &mailer, other.id, "PAYPAL-2", now).await.unwrap();
    assert!(matches!(dup.outcome, Settlement::Duplicate(ref p) if p.order_id == a.id), "{dup:?}");
    assert_eq!(dup.receipt, None, "no receipt for money to refund");
    let again = settle(&app.db, &mailer, a.id, "pi_1", now).await.unwrap();
    assert!(matches!(again.outcome, Settlement::AlreadySettled(_)) && again.receipt.is_none(), "{again:?}");
    let other = order::Entity::find_by_id(other.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!((other.state, other.failure.as_deref()), (OrderState::Failed, Some("duplicate_payment")));
}

/// A payer's page read the application before another attempt settled it (the reconcile after a
/// restart, a webhook, another tab): opening an attempt then finds it paid and opens none,
/// instead of an attempt (and a provider payment) that can never be captured.
#[rocket::async_test]
async fn no_attempt_opens_once_the_application_is_paid() {
    let app = TestApp::builder().live().build().await;
    let owner = app.with_user("pay_stale").await;
    let won = app.won_application(&owner, "PayStale").await;
    let now = app.clock.now();
    let stale = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    let first = open_order(&app.db, &stale, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let mailer = Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, first.id, "pi_first", now).await.unwrap();
    let again = open_order(&app.db, &stale, owner.user.id, PaymentType::Stripe, now).await;
    assert_eq!(again.map(|o| o.id).map_err(|e| e.code()), Err("already_paid"));
    let orders = order::Entity::find().filter(order::Column::ApplicationId.eq(won.application_id)).all(&app.db).await;
    assert_eq!(orders.unwrap().len(), 1, "no second attempt");
}
