//! Declining a win (DOMAIN.md: `first_win` / `second_win` ──declines──▶ `decline`, slot freed):
//! `PUT /api/v1/user/event_entries/{id}/applications/{application_id}/decline` and the entry
//! history's decline link with its confirmation page — who may (the owner; a member 403, a
//! stranger 404), when (a win to pay inside its payment window: before it opens, after it
//! closes, once paid: 409), in Japanese and English; an open payment attempt is closed with it,
//! and a payment that settles while the owner declines is kept and flagged for staff, never both
//! applied.

use chrono::Duration;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::Value;
use vmarket::db::entities::{event_entry, event_entry_application, order, payment_history};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::entry_status::{LotteryRound, LotteryStatus};
use vmarket::model::lottery;
use vmarket::model::order::open_order;
use vmarket::model::payment::{OrderState, Payable, PaymentType};
use vmarket::model::phase::PhaseType;
use vmarket::model::settlement::Settlement;

use crate::support::TestApp;
use crate::support::actors::{Actor, Form};
use crate::support::circles::Cast;
use crate::support::entries::EntryEvent;
use crate::support::html::Doc;

/// The cast's circle applies to a new event `permalink` for the square booth (8,000 JPY) and
/// wins the first draw; the clock moves one hour into the first payment window. (event, entry,
/// application)
async fn won(app: &TestApp, c: &mut Cast<'_>, permalink: &str) -> (EntryEvent, i32, i32) {
    let ev = app.entry_event(permalink).await;
    let change = EntryChange {
        is_multiple_win: false,
        wishes: vec![Wish { choice: 1, plan_id: ev.plans[0], options: AmpOptions::default() }],
        agreed_terms: None,
    };
    let entry = event_entry::Model::apply(&app.db, ev.id, c.circle as i32, c.owner.user.id, change, app.clock.now())
        .await
        .expect("applied");
    let draw_at = ev.at(PhaseType::FirstLotteryStart) + Duration::hours(1);
    lottery::commit(&app.db, ev.id, LotteryRound::First, None, draw_at).await.unwrap();
    lottery::preview(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    lottery::publish(&app.db, ev.id, LotteryRound::First, draw_at).await.unwrap();
    let application = event_entry_application::Entity::find()
        .filter(event_entry_application::Column::EntryId.eq(entry.id))
        .one(&app.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(application.lottery_status, LotteryStatus::FirstWin);
    move_clock(app, c, ev.at(PhaseType::FirstPaymentStart) + Duration::hours(1)).await;
    (ev, entry.id, application.id)
}

/// Moves the clock to `at` and renews the cast's tokens (they follow the clock).
async fn move_clock(app: &TestApp, c: &mut Cast<'_>, at: chrono::DateTime<chrono::Utc>) {
    app.clock.set(at);
    for actor in [&mut c.owner, &mut c.member, &mut c.stranger] {
        app.refresh(actor).await;
    }
}

/// The stored status of application `id`.
async fn stored(app: &TestApp, id: i32) -> LotteryStatus {
    event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap().lottery_status
}

fn decline_path(entry: i32, application: i32, lang: &str) -> String {
    format!("/api/v1/user/event_entries/{entry}/applications/{application}/decline?lang={lang}")
}

async fn decline(actor: &Actor<'_>, entry: i32, application: i32, lang: &str) -> (u16, Value) {
    actor.put_json(&decline_path(entry, application, lang), &Value::Null).await
}

#[rocket::async_test]
async fn the_owner_declines_a_win_to_pay_inside_its_payment_window_only() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "dc").await;
    let (ev, entry, application) = won(&app, &mut c, "DeclineFair").await;

    // Before the payment window opens (the result is out, the window not yet): refused.
    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentStart) - Duration::minutes(1)).await;
    let (status, body) = decline(&c.owner, entry, application, "ja").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("decline_closed")), "{body}");
    assert_eq!(body["message"], "この申込は現在辞退できません（お支払い前の当選を、支払期間中に限り辞退できます）。");
    let (_, body) = decline(&c.owner, entry, application, "en").await;
    assert_eq!(
        body["message"],
        "This application cannot be declined now: a win can be declined only before it is paid, while its payment \
         period is open."
    );

    // Inside the window: strangers find nothing, members may not, an application of another
    // entry is not this entry's.
    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentStart)).await;
    let (status, body) = decline(&c.stranger, entry, application, "ja").await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");
    let (status, body) = decline(&c.member, entry, application, "en").await;
    assert_eq!((status, body["code"].as_str()), (403, Some("forbidden")), "{body}");
    let (status, _) = decline(&c.owner, entry, application + 1000, "ja").await;
    assert_eq!(status, 404);
    let (status, _) =
        c.owner.put_json(&format!("/api/v1/user/event_entries/{entry}/applications/x/decline"), &Value::Null).await;
    assert_eq!(status, 404);
    assert_eq!(stored(&app, application).await, LotteryStatus::FirstWin);

    // The member sees the win without a way to decline it; the owner may.
    let (_, list) = c.member.get_json("/api/v1/user/event_entries?permalink=DeclineFair").await;
    assert_eq!(list["data"][0]["applications"][0]["can_decline"], false);
    let (_, list) = c.owner.get_json("/api/v1/user/event_entries?permalink=DeclineFair").await;
    assert_eq!(list["data"][0]["applications"][0]["can_decline"], true);

    // An attempt to pay is open; the owner declines: the slot is freed, the attempt closed.
    let now = app.clock.now();
    let payable = Payable::load(&app.db, application, c.owner.user.id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, c.owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let (status, body) = decline(&c.owner, entry, application, "ja").await;
    assert_eq!(status, 200, "{body}");
    let wish = &body["applications"][0];
    assert_eq!((wish["lottery_status"].as_str(), wish["can_decline"].as_bool()), (Some("decline"), Some(false)));
    assert_eq!(stored(&app, application).await, LotteryStatus::Decline);
    let closed = order::Entity::find_by_id(opened.id).one(&app.db).await.unwrap().unwrap();
    assert_eq!((closed.state, closed.failure.as_deref()), (OrderState::Failed, Some("declined")));
    assert_eq!(Payable::load(&app.db, application, c.owner.user.id, now).await.unwrap_err().code(), "payment_closed");

    // Declining again, or after the window: refused, nothing changes.
    let (status, body) = decline(&c.owner, entry, application, "ja").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("decline_closed")));
    assert_eq!(stored(&app, application).await, LotteryStatus::Decline);

    // The freed slot is offered again in the second draw.
    move_clock(&app, &mut c, ev.at(PhaseType::SecondLotteryStart)).await;
    let (inputs, _) =
        vmarket::model::lottery_inputs::load_inputs(&app.db, ev.id, LotteryRound::Second, app.clock.now())
            .await
            .unwrap();
    let square = inputs.plans().iter().find(|p| p.id == i64::from(ev.plans[0])).unwrap();
    assert_eq!(square.capacity, 2, "both square slots are free again");
}

#[rocket::async_test]
async fn a_paid_win_or_a_lapsed_one_cannot_be_declined() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "dp").await;
    let (ev, entry, application) = won(&app, &mut c, "PaidFair").await;

    // The first payment window closed unpaid: the win lapsed.
    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentEnd)).await;
    let (status, body) = decline(&c.owner, entry, application, "en").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("decline_closed")), "{body}");
    assert_eq!(stored(&app, application).await, LotteryStatus::FirstWin, "stored as drawn; shown unpaid");

    // Paid inside the window: refused as paid, in both languages.
    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentStart) + Duration::hours(2)).await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, application, c.owner.user.id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, c.owner.user.id, PaymentType::Stripe, now).await.unwrap();
    assert!(matches!(
        app.senders().outbox().settle(&app.db, opened.id, "pi_paid", now).await.unwrap(),
        Settlement::Settled(_)
    ));
    for (lang, message) in [("ja", "この申込はお支払い済みです。"), ("en", "This application has already been paid.")]
    {
        let (status, body) = decline(&c.owner, entry, application, lang).await;
        assert_eq!(
            (status, body["code"].as_str(), body["message"].as_str()),
            (409, Some("already_paid"), Some(message))
        );
    }
    assert_eq!(stored(&app, application).await, LotteryStatus::Paid);
}

/// The invariant a payment and a decline keep together: an application is `paid` with its payment
/// applied, or `decline` with any payment for it flagged `is_late` for staff — never declined
/// with a payment that counts as settled.
async fn one_of_them_applied(app: &TestApp, application: i32) -> Result<LotteryStatus, String> {
    let payment = payment_history::Entity::find()
        .filter(payment_history::Column::ApplicationId.eq(application))
        .one(&app.db)
        .await
        .unwrap();
    match (stored(app, application).await, payment) {
        (LotteryStatus::Paid, Some(p)) if !p.is_late => Ok(LotteryStatus::Paid),
        (LotteryStatus::Decline, None) => Ok(LotteryStatus::Decline),
        (LotteryStatus::Decline, Some(p)) if p.is_late => Ok(LotteryStatus::Decline),
        (status, payment) => Err(format!("{status:?} with {payment:?}")),
    }
}

#[rocket::async_test]
async fn a_payment_and_a_decline_at_once_never_both_apply() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "dr").await;
    let owner_id = c.owner.user.id;

    // Control: what a decline racing a payment left before the settle checked its own update —
    // declined, with the payment counted as settled. The check sees it.
    let (_, _, control) = won(&app, &mut c, "RaceControl").await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, control, owner_id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, owner_id, PaymentType::Stripe, now).await.unwrap();
    app.senders().outbox().settle(&app.db, opened.id, "pi_control", now).await.unwrap();
    event_entry_application::Entity::update_many()
        .col_expr(
            event_entry_application::Column::LotteryStatus,
            sea_orm::sea_query::Expr::value(LotteryStatus::Decline),
        )
        .filter(event_entry_application::Column::Id.eq(control))
        .exec(&app.db)
        .await
        .unwrap();
    assert!(one_of_them_applied(&app, control).await.is_err(), "the check can fail");

    // The real race, a few times: whichever comes first applies, the other gives way.
    let senders = app.senders();
    let outbox = senders.outbox();
    for round in 0..3 {
        let (_, entry, application) = won(&app, &mut c, &format!("RaceFair{round}")).await;
        let now = app.clock.now();
        let payable = Payable::load(&app.db, application, owner_id, now).await.unwrap();
        let opened = open_order(&app.db, &payable, owner_id, PaymentType::Stripe, now).await.unwrap();
        let reference = format!("pi_race_{round}");
        let (settled, declined) = tokio::join!(
            outbox.settle(&app.db, opened.id, &reference, now),
            event_entry::Model::decline(&app.db, entry, application, owner_id, now)
        );
        settled.expect("the money is always recorded");
        match (one_of_them_applied(&app, application).await, declined) {
            (Ok(LotteryStatus::Paid), Err(e)) => assert_eq!(e.code(), "already_paid"),
            (Ok(LotteryStatus::Decline), Ok(_)) => {}
            other => panic!("a payment and a decline both applied, or neither: {other:?}"),
        }
    }
}

#[rocket::async_test]
async fn the_entry_history_offers_the_decline_with_a_confirmation_in_both_languages() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "dh").await;
    let (_, _, application) = won(&app, &mut c, "PageDecline").await;

    for (prefix, link, heading, warning) in [
        ("", "辞退する", "この当選を辞退しますか？", "「広場ブース」"),
        ("/en", "Decline", "Decline this win?", "“Square booth”"),
    ] {
        let (status, html) = c.owner.page(&format!("{prefix}/mypage/entry_history/PageDecline/apply")).await;
        assert_eq!(status, 200);
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-testid=decline]"), link);
        let href = doc.attr("[data-testid=decline]", "href");
        assert_eq!(href, format!("{prefix}/mypage/event/PageDecline/apply/decline?application={application}"));
        let (status, html) = c.owner.page(&href).await;
        assert_eq!(status, 200);
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("h1"), heading);
        assert!(
            doc.text("[data-testid=decline-warning]").contains(warning),
            "{}",
            doc.text("[data-testid=decline-warning]")
        );
        // The member reads the history without the link, and cannot open the page.
        let (_, html) = c.member.page(&format!("{prefix}/mypage/entry_history/PageDecline/apply")).await;
        assert_eq!(Doc::parse(&html).count("[data-testid=decline]"), 0);
        assert_eq!(c.member.page(&href).await.0, 403);
        assert_eq!(c.stranger.page(&href).await.0, 404);
    }

    // The form needs its CSRF field; others' posts are refused like their pages.
    let path = format!("/mypage/event/PageDecline/apply/decline?application={application}");
    let form = c.owner.form(&path, "[data-testid=decline-form]").await;
    let (status, _, _) = c.owner.submit(&form, &[("csrf_token", "forged")], None).await;
    assert_eq!(status, 403);
    for (actor, expected) in [(&c.member, 403), (&c.stranger, 404)] {
        let (_, html) = actor.page("/mypage/entry_history").await;
        let token = Doc::parse(&html).attr("meta[name=csrf-token]", "content");
        let theirs = Form { hidden: vec![("csrf_token".into(), token)], ..form.clone() };
        let (status, _, _) = actor.submit(&theirs, &[("application_id", &application.to_string())], None).await;
        assert_eq!(status, expected);
    }
    assert_eq!(stored(&app, application).await, LotteryStatus::FirstWin);

    // Confirmed: back to the history, which says so and shows the status.
    let (status, location, _) = c.owner.submit(&form, &[], None).await;
    assert_eq!(status, 303);
    assert_eq!(location.as_deref(), Some("/mypage/entry_history/PageDecline/apply?done=declined"));
    let (_, html) = c.owner.page("/en/mypage/entry_history/PageDecline/apply?done=declined").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "You declined the win.");
    assert_eq!(doc.attr("[data-testid=application]", "data-status"), "decline");
    assert_eq!(doc.count("[data-testid=decline]"), 0);
    assert_eq!(stored(&app, application).await, LotteryStatus::Decline);

    // Once declined (or outside the window) the page explains why there is nothing to confirm.
    let (status, html) = c.owner.page(&path).await;
    assert_eq!(status, 409);
    let doc = Doc::parse(&html);
    assert_eq!(
        doc.text("[data-testid=refused]"),
        "この申込は現在辞退できません（お支払い前の当選を、支払期間中に限り辞退できます）。"
    );
    assert_eq!(doc.count("[data-testid=decline-form]"), 0);
    // Posting anyway (a stale page): back to the history with the reason.
    let (status, location, _) = c.owner.submit(&form, &[], None).await;
    assert_eq!(
        (status, location.as_deref()),
        (303, Some("/mypage/entry_history/PageDecline/apply?error=decline_closed"))
    );
}

/// The entry history tells a winner what comes next and when (issue 26): between the draw and
/// the payment window "payment opens …" with no pay button and a type that does not say
/// "payment open"; inside the window "pay by …" beside the button; nothing once it closed.
#[rocket::async_test]
async fn the_status_line_says_when_payment_opens_and_when_it_ends() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "nx").await;
    let (ev, _, _) = won(&app, &mut c, "NextFair").await;
    let opens = vmarket::i18n::tera::format_jst(ev.at(PhaseType::FirstPaymentStart), true);
    let ends = vmarket::i18n::tera::format_jst(ev.at(PhaseType::FirstPaymentEnd), true);
    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentStart) - Duration::minutes(1)).await;
    for (prefix, next, kind) in [
        ("", format!("お支払いの受付は{opens}（日本時間）から"), "一次当選（お支払い受付前）"),
        ("/en", format!("Payment opens {opens} (Japan time)"), "Won the first draw: payment not open yet"),
    ] {
        let doc = history(&c.owner, prefix).await;
        assert_eq!(doc.text("[data-testid=next-step]"), next);
        assert_eq!(doc.attr("[data-testid=next-step]", "data-kind"), "payment_opens");
        assert_eq!(doc.text("[data-testid=lottery-type]"), kind);
        assert_eq!(doc.count("[data-testid=pay]"), 0, "nothing to pay yet");
    }

    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentStart)).await;
    for (prefix, next, kind) in [
        ("", format!("{ends}（日本時間）までにお支払いください"), "一次当選・お支払い受付中"),
        ("/en", format!("Pay by {ends} (Japan time)"), "Won the first draw: payment open"),
    ] {
        let doc = history(&c.owner, prefix).await;
        assert_eq!(doc.text("[data-testid=next-step]"), next);
        assert_eq!(doc.text("[data-testid=lottery-type]"), kind);
        assert_eq!(doc.count("[data-testid=pay]"), 1);
    }

    move_clock(&app, &mut c, ev.at(PhaseType::FirstPaymentEnd)).await;
    let doc = history(&c.owner, "").await;
    assert_eq!(doc.count("[data-testid=next-step]"), 0, "the status says it: not paid in time");
    assert_eq!(doc.text("[data-testid=status]"), "一次当選・期限内にお支払いがありませんでした");
    let (_, list) = c.owner.get_json("/api/v1/user/event_entries?permalink=NextFair").await;
    assert_eq!(list["data"][0]["applications"][0]["next"], Value::Null);
}

/// The owner's entry history of NextFair under `prefix` (`""` or `"/en"`).
async fn history(owner: &Actor<'_>, prefix: &str) -> Doc {
    let (status, html) = owner.page(&format!("{prefix}/mypage/entry_history/NextFair/apply")).await;
    assert_eq!(status, 200);
    Doc::parse(&html)
}
