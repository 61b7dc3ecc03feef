//! The VRChat avatar order sweep (`AvatarOrderSweep`, once a minute, issue 31): an order the
//! payer approved at PayPal but never came back to is settled once and its avatar queued; an
//! unpaid one expires once its closing date has passed (time travel counts).

use sea_orm::EntityTrait;
use serde_json::json;
use vmarket::db::entities::{vrchat_avatar, vrchat_avatar_order};

use crate::store::vrchat_avatars::{AVTR, HANA, app, avatar_row, linked, uploaded_avatar};
use crate::support::at;
use crate::support::fakes::{Fake, Kind};

#[rocket::async_test]
async fn the_sweep_settles_an_approval_nobody_came_back_from_and_expires_an_unpaid_order() {
    use vmarket::queue::JobContext;
    use vmarket::store::jobs::AvatarOrderSweep;
    let Some(paypal) = Fake::start(Kind::PayPal) else { return };
    let app = app(Some(&paypal), None, None, false).await;
    let workers = app.start_workers().await;
    let mut payer = app.user("vrca_sweep_payer").await;
    let mut idler = app.user("vrca_sweep_idler").await;
    let (payer_asset, idler_asset) = (uploaded_avatar(&payer).await, uploaded_avatar(&idler).await);
    // The sweep is called here, not left to the workers' minute: the test decides when it looks.
    drop(workers);
    let ctx = JobContext::new(app.db.clone(), app.config.clone(), app.clock.clone()).expect("job context");
    linked(&app, &payer, HANA).await;
    linked(&app, &idler, AVTR).await;
    let order =
        |asset: i64| json!({"purchase_type": "new", "payment_type": "paypal", "asset_id": asset, "avatar_name": "S"});
    let (_, paid) = payer.post_json("/api/v1/store/vrchat/avatar_orders", &order(payer_asset)).await;
    let (_, unpaid) = idler.post_json("/api/v1/store/vrchat/avatar_orders", &order(idler_asset)).await;
    let paid_path = format!("/api/v1/store/vrchat/avatar_orders/{}", paid["uuid"].as_str().unwrap());
    let unpaid_path = format!("/api/v1/store/vrchat/avatar_orders/{}", unpaid["uuid"].as_str().unwrap());
    let (_, to) = payer.post_json(&format!("{paid_path}/pay"), &json!({})).await;
    let paypal_id = to["redirect_url"].as_str().unwrap().split("token=").nth(1).unwrap().to_string();

    // Nothing approved yet: the sweep asks and leaves both open.
    let swept = AvatarOrderSweep::tick(&ctx).await.unwrap();
    assert_eq!((swept.asked, swept.settled, swept.expired), (1, 0, 0), "only the order that went to PayPal is asked");
    // The payer approves at PayPal and closes the tab: the sweep captures it, once.
    paypal.post(&format!("/_fake/orders/{paypal_id}/approve"), json!({})).await;
    let swept = AvatarOrderSweep::tick(&ctx).await.unwrap();
    assert_eq!((swept.settled, swept.expired), (1, 0));
    let row = vrchat_avatar_order::Entity::find().all(&app.db).await.unwrap();
    let settled = row.iter().find(|r| r.user_id == payer.user.id).unwrap();
    assert_eq!(settled.state, vrchat_avatar_order::AvatarOrderState::Paid);
    assert_eq!(avatar_row(&app).await.status, vrchat_avatar::VrcAvatarStatus::Waiting, "queued for conversion");
    assert_eq!(AvatarOrderSweep::tick(&ctx).await.unwrap().asked, 0, "a paid order is not asked again");
    assert_eq!(paypal.get(&format!("/_fake/orders/{paypal_id}")).await["captures"].as_i64(), Some(1));

    // The unpaid order expires once its closing date has passed (time travel counts).
    app.clock.set(at(unpaid["closing_date"].as_str().unwrap()) + chrono::Duration::minutes(1));
    let swept = AvatarOrderSweep::tick(&ctx).await.unwrap();
    assert_eq!((swept.asked, swept.expired), (1, 1));
    // A week on, both sign in again (tokens live a day).
    idler.renew().await;
    payer.renew().await;
    assert_eq!(idler.get_json(&unpaid_path).await.1["state"], "expired");
    assert_eq!(payer.get_json(&paid_path).await.1["state"], "paid");
}
