//! Rate limits hold across nodes (issue 32 item 4): their state is in the database, so a client
//! that spreads its requests over the nodes behind a load balancer meets the limit of one node,
//! and concurrent requests on two nodes never pass more than the limit.

use std::sync::Arc;

use rocket::http::{ContentType, Status};
use serde_json::json;
use vmarket::http::limit::Limiter;

use crate::support::TestApp;

#[rocket::async_test]
async fn inquiries_spread_over_two_nodes_meet_one_limit() {
    let app = TestApp::builder().config(|c| c.inquiry_rate_per_minute = 3).build().await;
    let other = app.browser().await;
    let body = json!({
        "email": "mika@example.com",
        "name": "Mika",
        "message": "出展枠の追加募集はありますか？",
        "inquiry_category_id": 1,
        "agreement": true,
    })
    .to_string();
    let mut statuses = Vec::new();
    for client in [&app.client, &other, &app.client, &other] {
        let res = client.post("/api/v1/inquiry").header(ContentType::JSON).body(body.clone()).dispatch().await;
        statuses.push(res.status());
    }
    assert_eq!(statuses, [Status::Created, Status::Created, Status::Created, Status::TooManyRequests]);
}

#[rocket::async_test]
async fn concurrent_checks_on_two_nodes_pass_exactly_the_limit() {
    let app = TestApp::builder().empty().build().await;
    // Two nodes: two pools on one database, each with its own limiter.
    let second = vmarket::db::connect(&app.config.database_url).await.unwrap();
    let nodes = [Arc::new(Limiter::per_minute(&app.db, "race", 5)), Arc::new(Limiter::per_minute(&second, "race", 5))];
    let now = chrono::Utc::now().timestamp_millis();
    let mut tasks = Vec::new();
    for i in 0..40 {
        let limiter = nodes[i % 2].clone();
        tasks.push(rocket::tokio::spawn(async move { limiter.check_at(&"one client", now).await }));
    }
    let mut passed = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok(()) => passed += 1,
            Err(vmarket::error::Error::RateLimited { retry_after }) => assert!((1..=12).contains(&retry_after)),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(passed, 5, "a burst of five, whichever node answers");
    // One interval (12 s) later, one more passes; another key was never limited.
    assert!(nodes[0].check_at(&"one client", now + 12_000).await.is_ok());
    assert!(nodes[1].check_at(&"one client", now + 12_000).await.is_err());
    assert!(nodes[1].check_at(&"another client", now).await.is_ok());
}
