//! The entry pages as a browser without JavaScript uses them: an owner applies with two wishes
//! through the form (form → details → complete), edits the entry and withdraws it; who may open
//! which page; the API's rules shown beside the fields in Japanese and English with what was
//! typed kept; the clock closing the window; the CSRF field required.

use serde_json::Value;

use crate::support::TestApp;
use crate::support::actors::{Actor, Form};
use crate::support::circles::Cast;
use crate::support::html::Doc;

/// The owner's entries to `permalink` through the API (what was really saved).
async fn saved(owner: &Actor<'_>, permalink: &str) -> Vec<Value> {
    let (status, body) = owner.get_json(&format!("/api/v1/user/event_entries?permalink={permalink}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().cloned().unwrap_or_default()
}

/// The plan ids and statuses of an entry body, first wish first.
fn wishes_of(entry: &Value) -> Vec<(i64, String)> {
    entry["applications"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| (x["plan"]["id"].as_i64().unwrap(), x["lottery_status"].as_str().unwrap().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// Fills the entry form at `path` with `fields` and confirms it: the location of the saved
/// entry's page.
async fn apply_through_forms(owner: &Actor<'_>, path: &str, fields: &[(&str, &str)]) -> String {
    let form = owner.form(path, "[data-testid=entry-form]").await;
    let (status, _, html) = owner.submit(&form, fields, None).await;
    assert_eq!(status, 200, "the details page: {}", &html[..html.len().min(400)]);
    let confirm = Form::parse(&html, "[data-testid=confirm-form]", &form.action);
    let (status, location, _) = owner.submit(&confirm, &[("action", "save")], None).await;
    assert_eq!(status, 303);
    location.expect("to the complete page")
}

#[rocket::async_test]
async fn an_owner_applies_with_two_wishes_edits_and_withdraws() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "a").await;
    let ev = app.entry_event("PageFair").await;
    let circle = c.circle.to_string();
    let (p0, p1, p2) = (ev.plans[0].to_string(), ev.plans[1].to_string(), ev.plans[2].to_string());

    // The events page offers the open event to the owner's circle.
    let (status, html) = c.owner.page("/mypage/events").await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    let apply = doc.attr("[data-permalink=PageFair] [data-testid=apply]", "href");
    assert_eq!(apply, format!("/mypage/event/PageFair/apply/new?circle={circle}"));
    assert_eq!(doc.text("[data-permalink=PageFair] [data-testid=entry-open]"), "エントリー受付中");

    // The form: the owner's circle preselected, the plans with fee, world and rate label.
    let (status, html) = c.owner.page(&apply).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("#circle_id option[selected]", "value"), circle);
    assert_eq!(doc.texts("[data-testid=plan] [data-testid=fee]"), ["8,000円", "5,000円", "無料", "3,000円"]);
    assert_eq!(doc.texts("[data-testid=plan] [data-testid=rate]"), ["通常"; 4]);
    let (_, html) = c.owner.page(&format!("{apply}&category=space")).await;
    assert_eq!(Doc::parse(&html).count("[data-testid=plan]"), 2, "the space plans only");

    // Two wishes, AMP on the first: the details page shows them, then the entry is saved.
    let fields = [
        ("circle_id", circle.as_str()),
        ("plan_1", p0.as_str()),
        ("use_amp_1", "1"),
        ("amp_id_1", "amp-01"),
        ("plan_2", p1.as_str()),
    ];
    let form = c.owner.form(&apply, "[data-testid=entry-form]").await;
    let (status, _, html) = c.owner.submit(&form, &fields, None).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=wish] [data-testid=plan-name]"), ["広場ブース", "回廊ブース"]);
    assert_eq!(doc.text("[data-testid=circle]"), "星灯り工房 a");
    assert!(saved(&c.owner, "PageFair").await.is_empty(), "nothing is saved before confirming");
    let confirm = Form::parse(&html, "[data-testid=confirm-form]", &form.action);
    let (status, location, _) = c.owner.submit(&confirm, &[("action", "save")], None).await;
    assert_eq!(status, 303);
    let location = location.unwrap();
    assert_eq!(location, format!("/mypage/event/PageFair/apply/complete?circle={circle}&done=applied"));
    let entries = saved(&c.owner, "PageFair").await;
    assert_eq!(entries.len(), 1);
    assert_eq!(
        wishes_of(&entries[0]),
        [(ev.plans[0] as i64, "applied".into()), (ev.plans[1] as i64, "applied".into())]
    );
    assert_eq!(entries[0]["applications"][0]["options"]["amp_id"], "amp-01");

    let (status, html) = c.owner.page(&location).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("h1"), "応募を受け付けました");
    assert_eq!(doc.texts("[data-testid=application] [data-testid=status]"), ["応募済み（抽選待ち）"; 2]);
    assert_eq!(doc.text("[data-testid=lottery-type]"), "応募受付済み");

    // The events page now offers an edit instead of a second entry.
    let (_, html) = c.owner.page("/mypage/events").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.count("[data-permalink=PageFair] [data-testid=apply]"), 0);
    assert_eq!(doc.count("[data-permalink=PageFair] [data-testid=applied]"), 1);

    // Edit in English: the form shows the saved wishes; one wish, multiple-win on.
    let edit = format!("/en/mypage/event/PageFair/apply/edit?circle={circle}");
    let (status, html) = c.owner.page(&edit).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("#plan_1 option[selected]", "value"), p0);
    assert_eq!(doc.attr("#plan_2 option[selected]", "value"), p1);
    assert_eq!(doc.attr("#amp_id_1", "value"), "amp-01");
    assert_eq!(doc.text("[data-testid=fixed-circle]"), "星灯り工房 a");
    let location =
        apply_through_forms(&c.owner, &edit, &[("plan_1", p2.as_str()), ("plan_2", ""), ("is_multiple_win", "1")])
            .await;
    assert_eq!(location, format!("/en/mypage/event/PageFair/apply/complete?circle={circle}&done=updated"));
    let (_, html) = c.owner.page(&location).await;
    assert_eq!(Doc::parse(&html).text("h1"), "Your entry was saved");
    let entries = saved(&c.owner, "PageFair").await;
    assert_eq!(wishes_of(&entries[0]), [(ev.plans[2] as i64, "applied".into())]);
    assert_eq!(entries[0]["is_multiple_win"], true);
    assert_eq!(entries[0]["applications"][0]["options"]["use_amp"], false, "the edit replaced the wishes");

    // The history lists it; its page shows the wish and the owner's links.
    let (_, html) = c.owner.page("/mypage/entry_history").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=entry-link]", "href"), "/mypage/entry_history/PageFair/apply");
    let (_, html) = c.owner.page("/mypage/entry_history/PageFair/apply").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=application] [data-testid=plan-name]"), ["アイテム展示"]);
    assert_eq!(doc.count("[data-testid=tab-apply]"), 1);
    assert_eq!(doc.count(".tabs a"), 1, "only the tab that exists");
    let withdraw = doc.attr("[data-testid=withdraw]", "href");
    assert_eq!(withdraw, format!("/mypage/event/PageFair/apply/withdraw?circle={circle}"));

    // Withdraw: a confirmation first, then the POST.
    let form = c.owner.form(&withdraw, "[data-testid=withdraw-form]").await;
    assert_eq!(saved(&c.owner, "PageFair").await.len(), 1, "opening the confirmation changes nothing");
    let (status, location, _) = c.owner.submit(&form, &[], None).await;
    assert_eq!(status, 303);
    let location = location.unwrap();
    assert_eq!(location, "/mypage/entry_history/PageFair/apply?done=withdrawn");
    let (_, html) = c.owner.page(&location).await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.text("[data-testid=done]"), "応募を取り下げました。");
    assert_eq!(doc.count("[data-testid=entry]"), 0);
    assert!(saved(&c.owner, "PageFair").await.is_empty());
}

/// Status and, for a redirect, where to.
async fn open(app: &TestApp, who: Option<&Actor<'_>>, path: &str) -> (u16, String) {
    match who {
        Some(actor) => actor.page(path).await,
        None => {
            let res = app.get(path).await;
            (res.status().code, res.headers().get_one("Location").unwrap_or_default().to_string())
        }
    }
}

#[rocket::async_test]
async fn pages_follow_the_access_matrix() {
    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "m").await;
    let ev = app.entry_event("AccessFair").await;
    let circle = c.circle.to_string();
    let p0 = ev.plans[0].to_string();
    apply_through_forms(
        &c.owner,
        &format!("/mypage/event/AccessFair/apply/new?circle={circle}"),
        &[("circle_id", circle.as_str()), ("plan_1", p0.as_str())],
    )
    .await;

    let people: [(&str, Option<&Actor<'_>>); 4] =
        [("owner", Some(&c.owner)), ("member", Some(&c.member)), ("stranger", Some(&c.stranger)), ("anonymous", None)];
    let anyone = [200, 200, 200, 303];
    let owner_only = [200, 403, 404, 303];
    let pages: Vec<(String, [u16; 4])> = vec![
        ("/mypage/events".into(), anyone),
        ("/mypage/entry_history".into(), anyone),
        ("/mypage/entry_history/AccessFair/apply".into(), anyone),
        ("/mypage/event/AccessFair/apply/new".into(), anyone),
        (format!("/mypage/event/AccessFair/apply/edit?circle={circle}"), owner_only),
        (format!("/mypage/event/AccessFair/apply/complete?circle={circle}"), owner_only),
        (format!("/mypage/event/AccessFair/apply/withdraw?circle={circle}"), owner_only),
        ("/mypage/event/NoSuchFair/apply/new".into(), [404, 404, 404, 303]),
    ];
    let mut wrong = Vec::new();
    for (path, expected) in &pages {
        for prefix in ["", "/en"] {
            let path = format!("{prefix}{path}");
            for ((who, actor), status) in people.iter().zip(expected) {
                let (got, body) = open(&app, *actor, &path).await;
                let redirect_ok = got != 303 || body.starts_with("/auth/login?next=");
                if got != *status || !redirect_ok {
                    wrong.push(format!("{path} as {who}: {got} (expected {status}) {}", &body[..body.len().min(80)]));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "page access mismatches:\n  {}", wrong.join("\n  "));

    // The member reads the entry without the owner's links; the stranger sees none.
    let (_, html) = c.member.page("/mypage/entry_history/AccessFair/apply").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attrs("[data-testid=entry]", "data-circle-id"), [circle.as_str()]);
    assert_eq!(doc.count("[data-testid=edit]") + doc.count("[data-testid=withdraw]"), 0);
    let (_, html) = c.stranger.page("/mypage/entry_history/AccessFair/apply").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=entry]"), 0);

    // Posting for someone else's circle: a member is refused, a stranger finds nothing.
    for (actor, expected) in [(&c.member, 403), (&c.stranger, 404)] {
        let form = actor.form("/mypage/event/AccessFair/apply/new", "[data-testid=entry-form]").await;
        let fields = [("mode", "edit"), ("circle_id", circle.as_str()), ("plan_1", p0.as_str())];
        let (status, _, _) = actor.submit(&form, &fields, None).await;
        assert_eq!(status, expected);
        let withdraw = Form {
            action: "/mypage/event/AccessFair/apply/withdraw".into(),
            hidden: form.hidden.iter().filter(|(n, _)| n == "csrf_token").cloned().collect(),
            multipart: false,
        };
        let (status, _, _) = actor.submit(&withdraw, &[("circle_id", circle.as_str())], None).await;
        assert_eq!(status, expected);
    }
    assert_eq!(saved(&c.owner, "AccessFair").await.len(), 1, "the entry is still there");
}

#[rocket::async_test]
async fn rules_show_beside_the_fields_in_both_languages_and_keep_the_input() {
    let app = TestApp::builder().live().build().await;
    let mut c = Cast::new(&app, "r").await;
    let ev = app.entry_event("RuleFair").await;
    let circle = c.circle.to_string();
    let p0 = ev.plans[0].to_string();

    for (prefix, same_plan, bad_amp, gap) in [
        (
            "",
            "希望ごとに異なるプランを選んでください。",
            "AMP IDは半角英数字・「-」・「_」の1〜32文字で入力してください。",
            "希望順位は1, 2, 3の順に、抜けや重複なく付けてください。",
        ),
        (
            "/en",
            "Choose a different plan for each wish.",
            "An AMP ID is 1 to 32 letters, digits, - or _.",
            "Rank your wishes 1, 2, 3 in order, without gaps or repeats.",
        ),
    ] {
        let path = format!("{prefix}/mypage/event/RuleFair/apply/new");
        let form = c.owner.form(&path, "[data-testid=entry-form]").await;
        // The same plan twice, and an AMP id with a space.
        let fields = [
            ("circle_id", circle.as_str()),
            ("plan_1", p0.as_str()),
            ("use_amp_1", "1"),
            ("amp_id_1", "amp 01"),
            ("plan_2", p0.as_str()),
            ("is_multiple_win", "1"),
        ];
        let (status, _, html) = c.owner.submit(&form, &fields, None).await;
        assert_eq!(status, 422, "{prefix}");
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-field=wishes]"), same_plan);
        assert_eq!(doc.text("[data-field=amp_id_1]"), bad_amp);
        // Everything typed is still there.
        assert_eq!(doc.attr("#circle_id option[selected]", "value"), circle);
        assert_eq!(doc.attr("#plan_1 option[selected]", "value"), p0);
        assert_eq!(doc.attr("#plan_2 option[selected]", "value"), p0);
        assert_eq!(doc.attr("#amp_id_1", "value"), "amp 01");
        assert_eq!(doc.count("input[name=use_amp_1][checked]"), 1);
        assert_eq!(doc.count("input[name=is_multiple_win][checked]"), 1);

        // A first wish left empty: the API's gap.
        let fields = [("circle_id", circle.as_str()), ("plan_2", p0.as_str())];
        let (status, _, html) = c.owner.submit(&form, &fields, None).await;
        assert_eq!(status, 422);
        assert_eq!(Doc::parse(&html).text("[data-field=wishes]"), gap);

        // No circle chosen.
        let (status, _, html) = c.owner.submit(&form, &[("plan_1", p0.as_str())], None).await;
        assert_eq!(status, 422);
        assert!(!Doc::parse(&html).text("[data-field=circle_id]").is_empty());
    }
    assert!(saved(&c.owner, "RuleFair").await.is_empty());

    // The CSRF field is required: missing or wrong, nothing is saved.
    let form = c.owner.form("/mypage/event/RuleFair/apply/new", "[data-testid=entry-form]").await;
    let fields = [("circle_id", circle.as_str()), ("plan_1", p0.as_str())];
    let (status, _, html) = c.owner.submit(&form, &fields, None).await;
    assert_eq!(status, 200, "control: with the token the details page opens");
    let confirm = Form::parse(&html, "[data-testid=confirm-form]", &form.action);
    for token in ["", "forged"] {
        let (status, _, _) = c.owner.submit(&confirm, &[("action", "save"), ("csrf_token", token)], None).await;
        assert_eq!(status, 403, "csrf {token:?}");
    }
    assert!(saved(&c.owner, "RuleFair").await.is_empty());

    // The window closes between the details page and the confirmation.
    app.clock.set(ev.at(vmarket::model::phase::PhaseType::EntryEnd));
    app.refresh(&mut c.owner).await;
    for (prefix, closed) in [
        ("", "現在このイベントへの応募は受け付けていません（応募期間外です）。"),
        ("/en", "Entries for this event are not being accepted now: the entry period is closed."),
    ] {
        let confirm = Form { action: format!("{prefix}{}", confirm.action), ..confirm.clone() };
        let (status, _, html) = c.owner.submit(&confirm, &[("action", "save")], None).await;
        assert_eq!(status, 409, "{prefix}");
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-testid=refused]"), closed);
        assert_eq!(doc.attr("#plan_1 option[selected]", "value"), p0, "the wishes are kept");
        assert_eq!(doc.count("[data-testid=submit]"), 0, "no way to send it while closed");
        let (_, html) = c.owner.page(&format!("{prefix}/mypage/event/RuleFair/apply/new")).await;
        assert_eq!(Doc::parse(&html).text("[data-testid=refused]"), closed);
    }
    assert!(saved(&c.owner, "RuleFair").await.is_empty());
    let (_, html) = c.owner.page("/mypage/events").await;
    assert_eq!(Doc::parse(&html).count("[data-permalink=RuleFair]"), 0, "a closed event without entries is not listed");
}

#[rocket::async_test]
async fn the_demo_exhibitor_can_apply_to_the_open_demo_event() {
    let app = TestApp::builder().live().build().await;
    let (_, html) = app.open_account_page("/mypage/events").await;
    let credentials = [("email", "exhibitor@demo.vmarket.test"), ("password", "vmarket-demo-2026")];
    let (status, location, _) = app.submit("/account/auth/sign_in", &html, &credentials).await;
    assert_eq!(status, 303);
    let (path, status, html) = app.follow(location.expect("a redirect")).await;
    assert_eq!((path.as_str(), status), ("/mypage/events", 200));
    let doc = Doc::parse(&html);
    // 2027Summer takes entries; ともしび工房 applied to 2027Spring (won, to pay) and 2026Winter.
    assert_eq!(doc.attrs("[data-testid=entry-event]", "data-permalink"), ["2027Summer", "2027Spring", "2026Winter"]);
    assert_eq!(doc.text("[data-permalink='2027Summer'] [data-testid=entry-open]"), "エントリー受付中");
    let apply = doc.attrs("[data-permalink='2027Summer'] [data-testid=apply]", "href");
    assert_eq!(apply.len(), 1, "ともしび工房 can apply; the suspended こもれび喫茶部 cannot");
    let (status, html) = app.page(&apply[0]).await;
    assert_eq!(status, 200);
    let doc = Doc::parse(&html);
    assert_eq!(doc.texts("[data-testid=plan] [data-testid=rate]"), ["通常", "定員超過", "通常", "残りわずか"]);
    let (_, html) = app.page("/en/mypage").await;
    assert_eq!(Doc::parse(&html).text("[data-testid=dashboard-entries] p"), "1 event(s) open for entry.");
}

/// A suspended circle's entry says "not in the draw" once, at the top and in every row, where
/// its rows said "applied (waiting for the draw)" under an "excluded" badge (issue 26, wording).
#[rocket::async_test]
async fn a_suspended_circles_entry_says_not_in_the_draw_everywhere() {
    use sea_orm::{ActiveModelTrait, EntityTrait, Set};
    use vmarket::db::entities::{circle, event_entry};
    use vmarket::model::entry::{AmpOptions, EntryChange, Wish};

    let app = TestApp::builder().live().build().await;
    let c = Cast::new(&app, "sx").await;
    let ev = app.entry_event("HaltFair").await;
    let wishes = ev.plans[..2]
        .iter()
        .enumerate()
        .map(|(i, plan)| Wish { choice: i as i32 + 1, plan_id: *plan, options: AmpOptions::default() })
        .collect();
    let change = EntryChange { is_multiple_win: false, wishes, agreed_terms: None };
    event_entry::Model::apply(&app.db, ev.id, c.circle as i32, c.owner.user.id, change, app.clock.now())
        .await
        .expect("applied");
    let found = circle::Entity::find_by_id(c.circle as i32).one(&app.db).await.unwrap().unwrap();
    let mut suspended: circle::ActiveModel = found.into();
    suspended.is_suspended = Set(true);
    suspended.update(&app.db).await.unwrap();

    for (prefix, label) in [("", "抽選対象外"), ("/en", "Not in the draw")] {
        let (status, html) = c.owner.page(&format!("{prefix}/mypage/entry_history/HaltFair/apply")).await;
        assert_eq!(status, 200);
        let doc = Doc::parse(&html);
        assert_eq!(doc.text("[data-testid=lottery-type]"), label);
        assert_eq!(doc.texts("[data-testid=status]"), [label, label], "every row as the top");
        assert_eq!(doc.attrs("[data-testid=application]", "data-status"), ["applied", "applied"], "stored as is");
        assert_eq!(doc.count("[data-testid=next-step]"), 0, "no draw ahead for it");
    }
    let (_, list) = c.owner.get_json("/api/v1/user/event_entries?permalink=HaltFair").await;
    let nexts: Vec<&Value> = list["data"][0]["applications"].as_array().unwrap().iter().map(|a| &a["next"]).collect();
    assert_eq!(nexts, [&Value::Null, &Value::Null], "the API agrees: no draw ahead");
}
