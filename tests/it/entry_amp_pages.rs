//! The AMP options page (`/mypage/event/{permalink}/apply/amp?circle=`, the form of `PUT
//! /api/v1/user/event_entries/{id}/update_amp_ids`) as a browser without JavaScript uses it:
//! linked from the entry history for the owner, every wish's options prefilled, problems
//! beside the wish they concern with everything typed kept (Japanese and English), saved through
//! the API's model; members 403, strangers 404; the CSRF field required; an application of
//! another circle refused; closed at `submission_end` by the clock.

use chrono::Duration;
use sea_orm::EntityTrait;
use serde_json::Value;
use vmarket::db::entities::{event_entry, event_entry_application};
use vmarket::model::entry::{AmpOptions, EntryChange, Wish};
use vmarket::model::phase::PhaseType;

use crate::support::TestApp;
use crate::support::actors::{Actor, Form};
use crate::support::circles::Cast;
use crate::support::html::Doc;

/// The options of application `id` as stored: (use_amp, amp_id, free_submission).
async fn options(app: &TestApp, id: i32) -> (bool, Option<String>, bool) {
    let a = event_entry_application::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap();
    (a.use_amp, a.amp_id, a.free_submission)
}

/// The application ids of `owner`'s entry to `permalink`, first wish first (through the API).
async fn applications(owner: &Actor<'_>, permalink: &str) -> Vec<i32> {
    let (_, body) = owner.get_json(&format!("/api/v1/user/event_entries?permalink={permalink}")).await;
    body["data"][0]["applications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a: &Value| a["id"].as_i64().unwrap() as i32)
        .collect()
}

#[rocket::async_test]
async fn the_owner_changes_the_amp_options_until_submission_ends() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "amp").await;
    let ev = app.entry_event("AmpFair").await;
    let wishes = vec![
        Wish {
            choice: 1,
            plan_id: ev.plans[0],
            options: AmpOptions { use_amp: true, amp_id: Some("amp-01".into()), free_submission: false },
        },
        Wish { choice: 2, plan_id: ev.plans[1], options: AmpOptions::default() },
    ];
    let change = EntryChange { is_multiple_win: false, wishes, agreed_terms: None };
    event_entry::Model::apply(&app.db, ev.id, c.circle as i32, c.owner.user.id, change, app.clock.now()).await.unwrap();
    let ids = applications(&c.owner, "AmpFair").await;
    // A stranger's own entry to the same event, whose application the owner must not reach.
    let theirs = app.create_circle(&c.stranger, "よその工房").await["id"].as_i64().unwrap() as i32;
    let change = EntryChange {
        is_multiple_win: false,
        wishes: vec![Wish { choice: 1, plan_id: ev.plans[0], options: AmpOptions::default() }],
        agreed_terms: None,
    };
    event_entry::Model::apply(&app.db, ev.id, theirs, c.stranger.user.id, change, app.clock.now()).await.unwrap();
    let their_id = applications(&c.stranger, "AmpFair").await[0];
    let circle = c.circle.to_string();
    let path = format!("/mypage/event/AmpFair/apply/amp?circle={circle}");

    // Linked from the history for the owner only.
    let (_, html) = c.owner.page("/mypage/entry_history/AmpFair/apply").await;
    assert_eq!(Doc::parse(&html).attr("[data-testid=amp]", "href"), path);
    let (_, html) = c.member.page("/mypage/entry_history/AmpFair/apply").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=amp]"), 0);
    assert_eq!(c.member.page(&path).await.0, 403);
    assert_eq!(c.stranger.page(&path).await.0, 404);

    // Every wish with its options as stored.
    let (status, html) = c.owner.page(&path).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=plan-name]"), ["広場ブース", "回廊ブース"]);
    assert_eq!(doc.attr("#amp_id_1", "value"), "amp-01");
    assert_eq!(doc.count("input[name=use_amp_1][checked]"), 1);
    assert_eq!(doc.count("input[name=use_amp_2][checked]"), 0);
    assert!(doc.text("[data-testid=amp-until]").contains("まで"));

    // A malformed AMP id on the second wish: the message beside it, everything typed kept, nothing
    // saved — in both languages.
    for (prefix, message) in [
        ("", "AMP IDは半角英数字・「-」・「_」の1〜32文字で入力してください。"),
        ("/en", "An AMP ID is 1 to 32 letters, digits, - or _."),
    ] {
        let form = c.owner.form(&format!("{prefix}{path}"), "[data-testid=amp-form]").await;
        let fields = [
            ("use_amp_1", "1"),
            ("amp_id_1", "amp-02"),
            ("free_submission_1", "1"),
            ("use_amp_2", "1"),
            ("amp_id_2", "amp 02"),
        ];
        let (status, _, html) = c.owner.submit(&form, &fields, None).await;
        assert_eq!(status, 422, "{prefix}");
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-field=amp_id_2]"), message);
        assert_eq!(doc.count("[data-field=amp_id_1]"), 0, "the first wish is fine");
        assert_eq!(doc.attr("#amp_id_2", "value"), "amp 02");
        assert_eq!(doc.attr("#amp_id_1", "value"), "amp-02");
        assert_eq!(doc.count("input[name=use_amp_2][checked]"), 1);
        assert_eq!(doc.count("input[name=free_submission_1][checked]"), 1);
    }
    assert_eq!(options(&app, ids[0]).await, (true, Some("amp-01".into()), false));

    // The CSRF field is required.
    let form = c.owner.form(&path, "[data-testid=amp-form]").await;
    let (status, _, _) = c.owner.submit(&form, &[("csrf_token", "forged"), ("amp_id_1", "forged")], None).await;
    assert_eq!(status, 403);

    // Another circle's application slipped into the form is refused beside that wish, and left
    // alone.
    let their = their_id.to_string();
    let (status, _, html) = c
        .owner
        .submit(&form, &[("application_2", their.as_str()), ("use_amp_2", "1"), ("amp_id_2", "stolen")], None)
        .await;
    assert_eq!(status, 422);
    assert!(!Doc::parse(&html).text("[data-field=wish_2]").is_empty());
    assert_eq!(options(&app, their_id).await, (false, None, false));

    // Members and strangers posting for the circle: refused like the page.
    for (actor, expected) in [(&c.member, 403), (&c.stranger, 404)] {
        let (_, html) = actor.page("/mypage/entry_history").await;
        let token = Doc::parse(&html).attr("meta[name=csrf-token]", "content");
        let forged =
            Form { hidden: vec![("csrf_token".into(), token), ("circle_id".into(), circle.clone())], ..form.clone() };
        let id = ids[0].to_string();
        let (status, _, _) = actor.submit(&forged, &[("application_1", id.as_str()), ("amp_id_1", "x")], None).await;
        assert_eq!(status, expected);
    }

    // Saved: back to the history, which says so; the API shows the new options.
    let fields = [
        ("use_amp_1", "1"),
        ("amp_id_1", "amp-02"),
        ("use_amp_2", "1"),
        ("amp_id_2", "amp-03"),
        ("free_submission_2", "1"),
    ];
    let (status, location, _) = c.owner.submit(&form, &fields, None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/entry_history/AmpFair/apply?done=amp_updated")));
    let (_, html) = c.owner.page("/en/mypage/entry_history/AmpFair/apply?done=amp_updated").await;
    assert_eq!(Doc::parse(&html).text("[data-testid=done]"), "The AMP options were saved.");
    assert_eq!(options(&app, ids[0]).await, (true, Some("amp-02".into()), false));
    assert_eq!(options(&app, ids[1]).await, (true, Some("amp-03".into()), true));

    // The submission period ends: the page shows the options read-only and why; a post is refused
    // with what was typed kept.
    app.clock.set(ev.at(PhaseType::SubmissionEnd) + Duration::minutes(1));
    app.refresh(&mut c.owner).await;
    for (prefix, closed) in [
        ("", "入稿期間が終了したため、AMPの設定は変更できません。"),
        ("/en", "The AMP options can no longer be changed: the submission period has ended."),
    ] {
        let (status, html) = c.owner.page(&format!("{prefix}{path}")).await;
        assert_eq!(status, 200);
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-testid=refused]"), closed);
        assert_eq!(doc.count("[data-testid=save-amp]"), 0);
        assert_eq!(doc.count("#amp_id_1[disabled]"), 1);
        let late = Form { action: format!("{prefix}{}", form.action), ..form.clone() };
        let (status, _, html) = c.owner.submit(&late, &[("amp_id_1", "amp-late")], None).await;
        assert_eq!(status, 409);
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-testid=refused]"), closed);
        assert_eq!(doc.attr("#amp_id_1", "value"), "amp-late");
    }
    assert_eq!(options(&app, ids[0]).await, (true, Some("amp-02".into()), false));
    let (_, html) = c.owner.page("/mypage/entry_history/AmpFair/apply").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=amp]"), 0);
}
