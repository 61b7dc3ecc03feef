//! `vmarket seed demo` writes the demo marketplace once; running it again changes nothing.

use sea_orm::{EntityTrait, PaginatorTrait};
use vmarket::db::entities::{artist, event, exhibitor_notification, keyword, world};

use crate::support::{TestApp, default_now};

#[rocket::async_test]
async fn the_demo_seed_is_idempotent() {
    let app = TestApp::new().await;
    let counts = async || {
        (
            event::Entity::find().count(&app.db).await.unwrap(),
            world::Entity::find().count(&app.db).await.unwrap(),
            artist::Entity::find().count(&app.db).await.unwrap(),
            keyword::Entity::find().count(&app.db).await.unwrap(),
            exhibitor_notification::Entity::find().count(&app.db).await.unwrap(),
        )
    };
    let before = counts().await;
    assert_eq!(before.0, 4);
    assert!(before.1 >= 48, "12+ worlds per event, got {}", before.1);
    assert_eq!(before.4, 23, "exhibitor news");
    let report = vmarket::seed::demo(&app.db, default_now()).await.expect("second seed");
    assert!(report.created.is_empty());
    assert_eq!(report.skipped, ["2025Summer", "2025Winter", "2026Summer", "2026Winter"]);
    assert_eq!(counts().await, before);
    let summer = event::Entity::find_by_id(1).one(&app.db).await.unwrap().expect("event 1");
    assert_eq!(summer.permalink, "2025Summer");
    let winter = event::Entity::find_by_id(11).one(&app.db).await.unwrap().expect("event 11");
    assert_eq!(winter.permalink, "2025Winter");
}
