//! The payment history pages (spec §2 `/mypage/payment_history[?page=]`,
//! `/mypage/payment_history/{transaction}`): the payer's settled payments in both languages, a
//! printable receipt per transaction UUID, and the 404 page for anything else or anyone else's.

use serde_json::json;
use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::settlement::settle;

use crate::support::TestApp;
use crate::support::html::Doc;

#[rocket::async_test]
async fn the_payer_sees_the_payment_and_its_receipt_in_both_languages_and_nobody_else_does() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("receipt_owner").await;
    let mut stranger = app.with_user("receipt_stranger").await;
    let won = app.won_application(&owner, "ReceiptFair").await;
    owner.renew().await;
    stranger.renew().await;
    let (status, empty) = owner.page("/mypage/payment_history").await;
    assert_eq!(status, 200);
    assert!(empty.contains("お支払いの記録はまだありません"), "{empty}");

    let now = app.clock.now();
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let mailer = vmarket::mail::Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, opened.id, "pi_receipt", now).await.unwrap();
    let uuid = opened.transaction_uuid;

    let (status, ja) = owner.page("/mypage/payment_history").await;
    assert_eq!(status, 200);
    for text in ["お支払い履歴", "テスト展 ReceiptFair", "広場ブース", "8,000円", "クレジットカード（Stripe）"]
    {
        assert!(ja.contains(text), "{text} on the Japanese list");
    }
    assert!(ja.contains(&format!("/mypage/payment_history/{uuid}")), "the list links the receipt");
    let (status, en) = owner.page("/en/mypage/payment_history").await;
    assert_eq!(status, 200);
    for text in ["Payment history", "Test Fair ReceiptFair", "Square booth", "¥8,000", "Credit card (Stripe)"] {
        assert!(en.contains(text), "{text} on the English list");
    }
    assert!(en.contains(&format!("/en/mypage/payment_history/{uuid}")));

    let (status, receipt) = owner.page(&format!("/mypage/payment_history/{uuid}")).await;
    assert_eq!(status, 200);
    for text in ["領収書", "8,000円", uuid.as_str(), "pi_receipt", "receipt_ownerさん 様"] {
        assert!(receipt.contains(text), "{text} on the receipt");
    }
    let (status, receipt_en) = owner.page(&format!("/en/mypage/payment_history/{uuid}")).await;
    assert_eq!(status, 200);
    assert!(receipt_en.contains("Receipt") && receipt_en.contains("¥8,000"));

    for path in [
        format!("/mypage/payment_history/{uuid}").replace(&uuid[..8], "00000000"),
        "/mypage/payment_history/not-a-uuid".to_string(),
        "/mypage/payment_history/12".to_string(),
    ] {
        let (status, body) = owner.page(&path).await;
        assert_eq!(status, 404, "{path}");
        assert!(body.contains("Page Not Found") || body.contains("ページが見つかりません"), "{path}: the 404 page");
    }
    let (status, _) = stranger.page(&format!("/mypage/payment_history/{uuid}")).await;
    assert_eq!(status, 404, "someone else's receipt");
    let (_, theirs) = stranger.page("/mypage/payment_history").await;
    // Their history lists none of it (the header's strip may name the event: it takes payments).
    let theirs = Doc::parse(&theirs);
    assert_eq!(theirs.count("[data-testid=payment-row]"), 0);
    assert!(!theirs.text("main").contains("ReceiptFair"));
    let (status, _) = owner.page("/mypage/payment_history?page=0").await;
    assert_eq!(status, 404, "page must be a positive integer");
}

/// The other spellings `uuid` parsers accept for `uuid` (a canonical lower-case UUID).
fn other_spellings(uuid: &str) -> Vec<String> {
    vec![
        uuid.to_uppercase(),
        uuid.replace('-', ""),
        format!("%7B{uuid}%7D"),
        format!("urn:uuid:{uuid}"),
        format!("{uuid}%20"),
    ]
}

#[rocket::async_test]
async fn a_transaction_is_only_its_canonical_uuid_everywhere_anything_else_is_the_404_page() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("canonical_owner").await;
    let won = app.won_application(&owner, "CanonicalFair").await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let mailer = vmarket::mail::Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, opened.id, "pi_canonical", now).await.unwrap();
    let paid = opened.transaction_uuid;
    // A PayPal attempt not sent to PayPal yet: `/checkout` reports on it.
    owner.renew().await;
    let other = app.won_application(&owner, "CanonicalOther").await;
    owner.renew().await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, other.application_id, owner.user.id, now).await.unwrap();
    let pending = open_order(&app.db, &payable, owner.user.id, PaymentType::Paypal, now).await.unwrap();
    let pending = pending.transaction_uuid;

    for (page, uuid) in [
        ("/mypage/payment_history/", &paid),
        ("/payment/complete?transaction=", &paid),
        ("/checkout?transaction=", &pending),
    ] {
        let (status, _) = owner.page(&format!("{page}{uuid}")).await;
        assert_eq!(status, 200, "{page}{uuid}");
        for spelling in other_spellings(uuid) {
            for prefix in ["", "/en"] {
                let path = format!("{prefix}{page}{spelling}");
                let (status, body) = owner.page(&path).await;
                assert_eq!(status, 404, "{path}");
                assert!(body.contains("Page Not Found") || body.contains("ページが見つかりません"), "{path}");
            }
        }
    }
    // The API names attempts the same way.
    let (status, body) = owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": paid})).await;
    assert_eq!(status, 200, "{body}");
    for spelling in [paid.to_uppercase(), paid.replace('-', ""), format!("{{{paid}}}"), format!("urn:uuid:{paid}")] {
        let (status, body) =
            owner.post_json("/api/v1/user/payment/capture", &json!({"transaction_uuid": spelling})).await;
        assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{spelling}: {body}");
    }
}
