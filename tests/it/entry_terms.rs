//! Terms agreed with an entry (issue 26 item 3): the entry form shows the event's terms,
//! guideline and submission rules and requires agreement; the entry records when and to which
//! version (the documents shown and their digest); a change of the terms asks again on the next
//! edit, not before; the API applies the same rule; staff read the agreement in the console.

use rocket::http::Method;
use sea_orm::{ActiveModelTrait, EntityTrait, Set};
use serde_json::{Value, json};
use vmarket::db::entities::{event, event_entry};
use vmarket::model::user::Role;

use crate::admin::call;
use crate::support::TestApp;
use crate::support::actors::Form;
use crate::support::circles::Cast;
use crate::support::entries::EntryEvent;
use crate::support::html::Doc;

const ENTRIES: &str = "/api/v1/user/event_entries";

/// Gives event `id` the three documents at `version`'s URLs.
async fn set_terms(app: &TestApp, id: i32, version: &str) {
    let found = event::Entity::find_by_id(id).one(&app.db).await.unwrap().unwrap();
    let mut row: event::ActiveModel = found.into();
    row.exhibition_term_url = Set(Some(format!("https://docs.test/{version}/terms")));
    row.exhibition_guideline_url = Set(Some(format!("https://docs.test/{version}/guideline")));
    row.submission_rule_url = Set(Some(format!("https://docs.test/{version}/rules")));
    row.update(&app.db).await.unwrap();
}

fn body(ev: &EntryEvent, circle: i64, agreed: Option<&str>) -> Value {
    json!({
        "event_id": ev.id,
        "circle_id": circle,
        "applications": [{"choice": 1, "plan_id": ev.plans[0]}],
        "agreed_terms": agreed,
    })
}

#[rocket::async_test]
async fn the_api_applies_only_with_the_current_terms_agreed_and_asks_again_when_they_change() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "t").await;
    let ev = app.entry_event("TermsFair").await;
    set_terms(&app, ev.id, "v1").await;
    let (_, shown) = c.owner.get_json(&format!("/api/v1/events/{}", ev.id)).await;
    let v1 = shown["terms_digest"].as_str().expect("the event names its terms' version").to_owned();

    // Without agreeing, or agreeing to another version: 422 on agreed_terms, nothing saved.
    for agreed in [None, Some("0".repeat(64))] {
        let (status, refused) = c.owner.post_json(ENTRIES, &body(&ev, c.circle, agreed.as_deref())).await;
        assert_eq!((status, refused["details"][0]["attribute"].as_str()), (422, Some("agreed_terms")), "{refused}");
        assert_eq!(refused["details"][0]["message"], "応募するには、出展規約などへの同意が必要です");
    }
    assert!(event_entry::Entity::find().all(&app.db).await.unwrap().iter().all(|e| e.event_id != ev.id));

    let (status, created) = c.owner.post_json(ENTRIES, &body(&ev, c.circle, Some(&v1))).await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["terms_digest"], v1);
    assert_eq!(created["terms_current"], true);
    let agreed_at = created["terms_agreed_at"].as_str().unwrap().to_owned();
    let id = created["id"].as_i64().unwrap();

    // An edit under the same terms asks nothing.
    let (status, edited) = c.owner.put_json(&format!("{ENTRIES}/{id}"), &body(&ev, c.circle, None)).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!(edited["terms_agreed_at"], agreed_at.as_str());

    // Staff change the terms: the entry says so, and the next edit asks again.
    set_terms(&app, ev.id, "v2").await;
    let (_, shown) = c.owner.get_json(&format!("/api/v1/events/{}", ev.id)).await;
    let v2 = shown["terms_digest"].as_str().unwrap().to_owned();
    assert_ne!(v1, v2);
    let (_, listed) = c.owner.get_json(&format!("{ENTRIES}?permalink=TermsFair")).await;
    assert_eq!(listed["data"][0]["terms_current"], false);
    let (status, refused) = c.owner.put_json(&format!("{ENTRIES}/{id}"), &body(&ev, c.circle, Some(&v1))).await;
    assert_eq!((status, refused["details"][0]["attribute"].as_str()), (422, Some("agreed_terms")));
    let (status, edited) = c.owner.put_json(&format!("{ENTRIES}/{id}"), &body(&ev, c.circle, Some(&v2))).await;
    assert_eq!(status, 200, "{edited}");
    assert_eq!((edited["terms_digest"].as_str(), edited["terms_current"].as_bool()), (Some(v2.as_str()), Some(true)));

    // Staff read the agreement: when, which version, what was shown.
    let staff = app.as_staff(Role::UcStaff).await;
    let record = call(&app, &staff, Method::Get, &format!("/admin/api/entries/{id}"), None).await;
    assert_eq!(record.status, 200);
    assert_eq!(record.body["terms_digest"], v2);
    assert!(record.body["terms_agreed_at"].is_string());
    let shown = record.body["terms_shown"].as_str().unwrap();
    for part in ["exhibition_terms", "https://docs.test/v2/terms", "submission_rules", "https://docs.test/v2/rules"] {
        assert!(shown.contains(part), "{shown}");
    }
}

#[rocket::async_test]
async fn the_entry_form_shows_the_terms_and_requires_agreement() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "f").await;
    let ev = app.entry_event("TermsPageFair").await;
    set_terms(&app, ev.id, "v1").await;
    let circle = c.circle.to_string();
    let plan = ev.plans[0].to_string();
    let apply = format!("/mypage/event/TermsPageFair/apply/new?circle={circle}");

    // Each document linked by name, in both languages, and the box to tick.
    for (prefix, names) in [
        ("", ["出展規約", "出展ガイドライン", "入稿規定"]),
        ("/en", ["Exhibition terms", "Exhibition guideline", "Submission rules"]),
    ] {
        let (status, html) = c.owner.page(&format!("{prefix}{apply}")).await;
        assert_eq!(status, 200);
        let doc = Doc::parse(&html);
        assert_eq!(doc.texts("[data-testid=terms-document]"), names);
        assert_eq!(
            doc.attrs("[data-testid=terms-document]", "href"),
            ["https://docs.test/v1/terms", "https://docs.test/v1/guideline", "https://docs.test/v1/rules"]
        );
        assert_eq!(doc.count("[data-testid=agree-terms]:not([checked])"), 1);
    }

    // Not ticked: the form again, the message beside the box, the wishes kept.
    let form = c.owner.form(&apply, "[data-testid=entry-form]").await;
    let fields = [("circle_id", circle.as_str()), ("plan_1", plan.as_str())];
    let (status, _, html) = c.owner.submit(&form, &fields, None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&html);
    assert!(doc.text("[data-testid=terms]").contains("応募するには、出展規約などへの同意が必要です"));
    assert_eq!(doc.attr("#plan_1 option[selected]", "value"), plan);

    // Ticked: the details page says so, and the saved entry records the version.
    let digest = Doc::parse(&c.owner.page(&apply).await.1).attr("[data-testid=agree-terms]", "value");
    let mut ticked = fields.to_vec();
    ticked.push(("agreed_terms", digest.as_str()));
    let (status, _, html) = c.owner.submit(&form, &ticked, None).await;
    assert_eq!(status, 200);
    assert_eq!(Doc::parse(&html).text("[data-testid=terms-agreed]"), "同意済み");
    let confirm = Form::parse(&html, "[data-testid=confirm-form]", &form.action);
    let (status, _, _) = c.owner.submit(&confirm, &[("action", "save")], None).await;
    assert_eq!(status, 303);
    let saved = event_entry::Model::of_circle(&app.db, ev.id, c.circle as i32).await.unwrap().unwrap();
    assert_eq!(saved.terms_digest.as_deref(), Some(digest.as_str()));
    assert!(saved.terms_agreed_at.is_some());

    // The edit form: agreed, so ticked; after a change of the terms, unticked with a notice.
    let edit = format!("/mypage/event/TermsPageFair/apply/edit?circle={circle}");
    let doc = Doc::parse(&c.owner.page(&edit).await.1);
    assert_eq!(doc.count("[data-testid=agree-terms][checked]"), 1);
    assert_eq!(doc.count("[data-testid=terms-changed]"), 0);
    set_terms(&app, ev.id, "v2").await;
    let doc = Doc::parse(&c.owner.page(&edit).await.1);
    assert_eq!(doc.count("[data-testid=agree-terms]:not([checked])"), 1);
    assert!(doc.text("[data-testid=terms-changed]").contains("規約類が更新されました"));
}
