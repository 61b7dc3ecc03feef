//! Mypage user events, as a browser without JavaScript uses them: the form posts multipart with
//! its CSRF field; errors come back beside their fields with the input kept; the list shows each
//! post's standing; the hub shows the post; editing and deleting work for the author only.

use rocket::http::{ContentType, Method};

use crate::support::TestApp;
use crate::support::actors::{Form, Via};
use crate::support::auth::png;
use crate::support::html::Doc;

const BASE: &str = "/mypage/event/2026Winter/my_notification";
const EVENT_FORM: &str = "[data-testid=event-form]";
const DELETE_FORM: &str = "[data-testid=delete-form]";

#[rocket::async_test]
async fn post_edit_and_delete_an_event_without_javascript() {
    let app = TestApp::builder().live().build().await;
    let res = app.get(&format!("{BASE}/new")).await;
    assert_eq!(
        res.headers().get_one("Location"),
        Some("/auth/login?next=%2Fmypage%2Fevent%2F2026Winter%2Fmy_notification%2Fnew&auto=1")
    );
    let hina = app.with_named_user("hina_s", "灯野ひな", "Hina Tono").await;

    // The dashboard and the hub lead to the form.
    let doc = Doc::parse(&hina.page("/mypage").await.1);
    assert_eq!(doc.attr("[data-testid=my-events-link]", "href"), BASE);
    let doc = Doc::parse(&hina.page("/en/hub/2026Winter/virtual_events").await.1);
    assert_eq!(doc.attr("[data-testid=post-event]", "href"), format!("/en{BASE}/new"));

    let new = format!("{BASE}/new");
    let (status, html) = hina.page(&new).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("main h1"), "イベントを投稿する");
    let worlds = doc.attrs("select[name=world_id] option", "value");
    assert!(worlds.len() > 5, "the event's worlds are offered: {worlds:?}");
    let tags = doc.attrs("input[name=hub_tags]", "value");
    let form = Form::parse(&html, EVENT_FORM, &new);

    // A form with mistakes: every one is shown beside its field, the input is kept, nothing is stored.
    let bad = [
        ("title", "星空ランタン会"),
        ("content", ""),
        ("locale", "jp"),
        ("start_at", "2026-12-20T21:00"),
        ("end_at", "2026-12-20T20:00"),
        ("link_url", "ftp://lantern.example"),
        ("hub_tags", &tags[0]),
    ];
    let (status, _, html) = hina.submit(&form, &bad, None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=form-notice]"), "入力内容を確認してください。");
    assert_eq!(doc.attrs(".field__error", "data-field"), ["content", "end_at", "link_url"]);
    assert_eq!(doc.text("[data-field=content]"), "入力してください。");
    assert_eq!(doc.attr("input[name=title]", "value"), "星空ランタン会");
    assert_eq!(doc.attr("input[name=start_at]", "value"), "2026-12-20T21:00");
    assert_eq!(doc.attrs("input[name=hub_tags][checked]", "value"), [tags[0].clone()]);
    let doc = Doc::parse(&hina.page(BASE).await.1);
    assert_eq!(doc.text("[data-testid=my-events-empty]"), "まだ投稿したイベントはありません。");

    // Without the page's CSRF token the post is refused.
    let (status, _, _) = hina.submit(&form, &[&[("csrf_token", "forged")], &bad[..]].concat(), None).await;
    assert_eq!(status, 403);

    // Posted: back to the list with a message; the hub shows it at once.
    let good = [
        ("title", "星空ランタン会"),
        ("content", "ともしびの駅で、星を見ながらランタンを灯します。"),
        ("locale", "jp"),
        ("start_at", "2026-12-20T20:00"),
        ("end_at", "2026-12-20T22:00"),
        ("world_id", &worlds[1]),
        ("hub_tags", &tags[0]),
        ("hub_tags", &tags[1]),
    ];
    let thumb = png(640, 360);
    let (status, location, _) = hina.submit(&form, &good, Some(("thumbnail", "t.png", &thumb))).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{BASE}?done=created").as_str())));
    let doc = Doc::parse(&hina.page(&format!("{BASE}?done=created")).await.1);
    assert_eq!(doc.text("[data-testid=done]"), "イベントを投稿しました。");
    assert_eq!(doc.texts("[data-testid=my-event-title]"), ["星空ランタン会"]);
    assert_eq!(doc.text("[data-testid=standing]"), "公開中");
    let hub_href = doc.attr("[data-testid=on-hub]", "href");
    let (status, html) = hina.page(&hub_href).await;
    assert_eq!(status, 200, "{hub_href}");
    let hub = Doc::parse(&html);
    assert_eq!(hub.text("[data-testid=hub-detail] h1"), "星空ランタン会");
    assert_eq!(hub.text("[data-testid=hub-when]"), "2026/12/20 20:00 – 2026/12/20 22:00");
    assert_eq!(hub.text("[data-testid=hub-host]"), "灯野ひな");

    // A scheduled one, and the tabs.
    let later = [
        ("title", "年越しカウントダウン"),
        ("content", "みんなで新年を迎えましょう。"),
        ("locale", "jp"),
        ("start_at", "2026-12-31T23:00"),
        ("publish_at", "2026-12-01T12:00"),
    ];
    let (status, _, _) = hina.submit(&form, &later, None).await;
    assert_eq!(status, 303);
    let doc = Doc::parse(&hina.page(&format!("{BASE}/open")).await.1);
    assert_eq!(doc.texts("[data-testid=my-event-title]"), ["年越しカウントダウン", "星空ランタン会"]);
    assert_eq!(doc.texts("[data-testid=standing]"), ["公開予約", "公開中"]);
    assert_eq!(
        doc.count("[data-testid=my-event]:first-child [data-testid=on-hub]"),
        0,
        "not on the hub before its time"
    );
    assert_eq!(doc.text(".tabs a[aria-current=page]"), "開催前・開催中");
    let doc = Doc::parse(&hina.page(&format!("{BASE}/close")).await.1);
    assert_eq!(doc.count("[data-testid=my-event]"), 0);

    // Editing: the form is filled in (Japan time); a change is saved, the thumbnail kept.
    let edit = Doc::parse(&hina.page(BASE).await.1).attrs("[data-testid=edit]", "href")[1].clone();
    let (status, html) = hina.page(&edit).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("input[name=title]", "value"), "星空ランタン会");
    assert_eq!(doc.attr("input[name=start_at]", "value"), "2026-12-20T20:00");
    assert_eq!(doc.attr("select[name=world_id] option[selected]", "value"), worlds[1]);
    assert_eq!(doc.attrs("input[name=hub_tags][checked]", "value").len(), 2);
    assert!(doc.attr("[data-testid=current-thumbnail]", "src").starts_with("/media/hub/users/"));
    let mut changed = good.to_vec();
    changed[0] = ("title", "星空ランタン会（満員御礼）");
    let (status, location, _) = hina.submit(&Form::parse(&html, EVENT_FORM, &edit), &changed, None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("{BASE}?done=updated").as_str())));
    let doc = Doc::parse(&hina.page(&edit).await.1);
    assert_eq!(doc.attr("input[name=title]", "value"), "星空ランタン会（満員御礼）");
    assert!(doc.count("[data-testid=current-thumbnail]") == 1);

    // One that is already over is listed as ended.
    let past = [
        ("title", "前夜祭"),
        ("content", "開幕前夜のおしゃべり会でした。"),
        ("locale", "jp"),
        ("start_at", "2026-11-20T20:00"),
        ("end_at", "2026-11-20T22:00"),
    ];
    let (status, _, _) = hina.submit(&form, &past, None).await;
    assert_eq!(status, 303);
    let doc = Doc::parse(&hina.page(&format!("{BASE}/close")).await.1);
    assert_eq!(doc.texts("[data-testid=my-event-title]"), ["前夜祭"]);
    assert_eq!(doc.text("[data-testid=standing]"), "終了");
    assert_eq!(Doc::parse(&hina.page(&format!("{BASE}/open")).await.1).count("[data-testid=my-event]"), 2);

    // Taken off the hub by staff: the author sees why, and no hub link.
    {
        use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};
        use vmarket::db::entities::hub_notification as n;
        n::Entity::update_many()
            .col_expr(n::Column::IsPublic, Expr::value(false))
            .filter(n::Column::Title.eq("前夜祭"))
            .exec(&app.db)
            .await
            .unwrap();
    }
    let doc = Doc::parse(&hina.page(&format!("{BASE}/close")).await.1);
    assert_eq!(doc.text("[data-testid=standing]"), "非公開（運営が停止）");
    assert_eq!(doc.count("[data-testid=on-hub]"), 0);

    // Another user sees nothing of it, and their own forms (with their own CSRF token) aimed at
    // it change nothing.
    let delete = hina.form(&edit, DELETE_FORM).await;
    let kuro = app.with_user("kuro_m").await;
    let (status, _) = kuro.page(&edit).await;
    assert_eq!(status, 404);
    let mut theirs = kuro.form(&new, EVENT_FORM).await;
    theirs.action = edit.clone();
    let (status, _, _) = kuro.submit(&theirs, &changed, None).await;
    assert_eq!(status, 404);
    theirs.action = delete.action.clone();
    let (status, _, _) = kuro.submit(&theirs, &[], None).await;
    assert_eq!(status, 404);
    assert_eq!(Doc::parse(&kuro.page(BASE).await.1).count("[data-testid=my-event]"), 0);
    assert_eq!(hina.page(&edit).await.0, 200, "still there for its author");
}

#[rocket::async_test]
async fn the_author_deletes_an_event_and_pages_speak_english() {
    let app = TestApp::builder().live().build().await;
    let hina = app.with_user("hina_s").await;
    let new = format!("/en{BASE}/new");
    let (_, html) = hina.page(&new).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("main h1"), "Post an event");
    assert_eq!(doc.text("label[for=start_at]"), "Starts Required");
    let form = Form::parse(&html, EVENT_FORM, &new);
    let (status, _, html) = hina.submit(&form, &[("start_at", "someday")], None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-field=title]"), "This field is required.");
    assert!(doc.text("[data-field=start_at]").starts_with("Use an RFC 3339 date-time"));

    let event = [
        ("title", "Lantern night"),
        ("content", "Lanterns by the station."),
        ("locale", "global"),
        ("start_at", "2026-12-20T20:00"),
    ];
    let (status, location, _) = hina.submit(&form, &event, None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("/en{BASE}?done=created").as_str())));
    let doc = Doc::parse(&hina.page(&format!("/en{BASE}")).await.1);
    assert_eq!(doc.text("[data-testid=standing]"), "Published");
    let edit = doc.attr("[data-testid=edit]", "href");
    let on_hub = doc.attr("[data-testid=on-hub]", "href");
    let delete = hina.form(&edit, DELETE_FORM).await;
    let (status, location, _) = hina.submit(&delete, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some(format!("/en{BASE}?done=deleted").as_str())));
    let doc = Doc::parse(&hina.page(location.as_deref().unwrap()).await.1);
    assert_eq!(doc.text("[data-testid=done]"), "The event is deleted.");
    assert_eq!(doc.count("[data-testid=my-event]"), 0);
    assert_eq!(hina.page(&on_hub).await.0, 404);
    assert_eq!(hina.page(&edit).await.0, 404);
    // A form that is not multipart at all is the client's error, not a 500.
    let res = hina.via(Via::Cookie).request(Method::Post, &new).header(ContentType::JSON).body("{}").dispatch().await;
    assert!(res.status().code < 500, "{}", res.status());
}
