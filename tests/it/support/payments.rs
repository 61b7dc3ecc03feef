//! A won application to pay: an entry event, one circle of `owner` entering the square booth
//! (8,000 JPY, 2 slots), the first draw committed, previewed and published (so the application is
//! `first_win` with its fee at the draw), and the clock inside the first payment window; and
//! Stripe's signed word that a payment went through.

use chrono::Duration;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;
use vmarket::db::entities::event_entry;
use vmarket::db::entities::event_entry_application;
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::LotteryRound;
use vmarket::model::lottery;
use vmarket::model::phase::PhaseType;

use super::TestApp;
use super::actors::Actor;
use super::entries::EntryEvent;

/// A won application of `owner`'s new circle.
pub struct Won {
    /// The event.
    pub event: EntryEvent,
    /// The application.
    pub application_id: i32,
    /// The owner's circle that won.
    pub circle_id: i32,
}

impl TestApp {
    /// `owner` applies for the square booth of a new event `permalink`, wins the first draw, and
    /// the clock moves one hour into the first payment window.
    pub async fn won_application(&self, owner: &Actor<'_>, permalink: &str) -> Won {
        let ev = self.entry_event(permalink).await;
        let circle = self.create_circle(owner, &format!("{permalink}の工房")).await["id"].as_i64().unwrap() as i32;
        let change = EntryChange {
            is_multiple_win: false,
            wishes: vec![Wish { choice: 1, plan_id: ev.plans[0], options: AmpOptions::default() }],
            agreed_terms: None,
        };
        let entry = event_entry::Model::apply(&self.db, ev.id, circle, owner.user.id, change, self.clock.now())
            .await
            .expect("applied");
        let draw_at = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
        lottery::commit(&self.db, ev.id, LotteryRound::First, None, draw_at).await.expect("committed");
        lottery::preview(&self.db, ev.id, LotteryRound::First, draw_at).await.expect("previewed");
        lottery::publish(&self.db, ev.id, LotteryRound::First, draw_at).await.expect("published");
        let application = event_entry_application::Entity::find()
            .filter(event_entry_application::Column::EntryId.eq(entry.id))
            .one(&self.db)
            .await
            .unwrap()
            .expect("the application");
        self.clock.set(ev.at(PhaseType::FirstPaymentStart) + Duration::hours(1));
        Won { event: ev, application_id: application.id, circle_id: circle }
    }

    /// Sends Stripe's signed `payment_intent.succeeded` event `event` for intent `intent`, which took
    /// `amount` yen; the app's status.
    pub async fn stripe_succeeded(&self, secret: &str, event: &str, intent: &str, amount: i64) -> u16 {
        let body = json!({"id": event, "object": "event", "type": "payment_intent.succeeded",
            "data": {"object": {"id": intent, "object": "payment_intent", "status": "succeeded",
                                "amount": amount, "currency": "jpy"}}})
        .to_string();
        let signature = vmarket::payments::stripe::sign(body.as_bytes(), secret, self.clock.real_now().timestamp());
        let res = self
            .client
            .post("/api/v1/payment/stripe/webhook")
            .header(rocket::http::ContentType::JSON)
            .header(rocket::http::Header::new("Stripe-Signature", signature))
            .body(body)
            .dispatch()
            .await;
        res.status().code
    }
}
