//! The booth maker (issue 29): a user starts a booth in a preset home, places their own uploaded
//! furniture, the draft autosaves with a revision (a stale tab's write is refused, of parallel
//! writes exactly one lands), the server's totals and rule check are the editor's, and the booth
//! is submitted for a slot inside its term — refused over the rules with each rule named, then
//! accepted as an upload file of `submission_tools_type = booth_maker`. Bad scenes (someone
//! else's furniture, a failed version, NaN, huge numbers, 100,000 items, the wrong attachment)
//! get a clear 4xx and change nothing. The demo homes are real GLBs the analysers accept.

use chrono::Duration;
use rocket::http::{ContentType, Method};
use serde_json::{Value, json};
use vmarket::assets::analyse::samples::{ModelSpec, glb};
use vmarket::model::phase::PhaseType;

use crate::exhibit::slots::drawn;
use crate::support::TestApp;
use crate::support::actors::{Actor, json_of};
use crate::uploader::one_shot;

const EVENT: &str = "2031Booth";

/// A furniture GLB of `triangles` triangles, `materials` materials and `size` metres.
fn furniture(triangles: u32, materials: u32, size: [f32; 3]) -> Vec<u8> {
    glb(&ModelSpec { triangles, materials, size, ..ModelSpec::default() })
}

fn item(version: i64, sub_type: &str, position: [f64; 3]) -> Value {
    json!({"asset_version_id": version, "sub_type": sub_type, "position": position,
           "rotation": [0, 0, 0, 1], "scale": [1, 1, 1]})
}

fn scene(home: i64, items: Vec<Value>) -> Value {
    json!({"version": 1, "home": home, "items": items})
}

/// `owner` starts a booth in the first published home; the scene's id and the home's id.
async fn started(app: &TestApp, owner: &Actor<'_>) -> (i64, i64) {
    vmarket::booth::model::home::ensure_demo_homes(&app.db, app.clock.now()).await.unwrap();
    let (status, homes) = owner.get_json("/api/v1/booth_maker/preset_homes").await;
    assert_eq!(status, 200, "{homes}");
    let home = homes[0]["id"].as_i64().unwrap();
    let (status, made) =
        owner.post_json("/api/v1/booth_maker/scenes", &json!({"name": "灯りの屋台", "preset_home_id": home})).await;
    assert_eq!(status, 201, "{made}");
    (made["id"].as_i64().unwrap(), home)
}

async fn draft_revision(owner: &Actor<'_>, id: i64) -> i64 {
    let (status, view) = owner.get_json(&format!("/api/v1/booth_maker/scenes/{id}")).await;
    assert_eq!(status, 200, "{view}");
    view["draft"]["revision"].as_i64().unwrap()
}

#[rocket::async_test]
async fn a_booth_is_built_checked_and_submitted_for_a_slot() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let mut owner = app.user("booth_owner").await;
    let mut member = app.user("booth_member").await;
    let mut stranger = app.user("booth_stranger").await;
    let (ev, circles) = drawn(&app, &[&owner], EVENT, 2).await;
    app.join(&owner, circles[0] as i64, &member).await;
    let (_, slots) = owner.get_json(&format!("/api/v1/user/{EVENT}/event_slots")).await;
    let slot = slots["event_slots"][0]["id"].as_i64().unwrap();

    let (_, table) = one_shot(&owner, "furniture", "table.glb", &furniture(600, 1, [1.2, 0.75, 0.8])).await;
    let (_, lamp) = one_shot(&owner, "furniture", "lamp.glb", &furniture(14_000, 3, [0.3, 1.8, 0.3])).await;
    let (id, home) = started(&app, &owner).await;
    let path = format!("/api/v1/booth_maker/scenes/{id}");

    // What the editor reads: the two pieces with their reports' numbers, the rules, the slot.
    let (status, view) = owner.get_json(&path).await;
    assert_eq!(status, 200, "{view}");
    let palette = view["palette"].as_array().unwrap();
    let triangles: Vec<i64> = palette.iter().map(|p| p["stats"]["triangles"].as_i64().unwrap()).collect();
    assert_eq!(triangles, [14_000, 600], "newest first: {view}");
    let rules: Vec<&str> = view["rules"].as_array().unwrap().iter().map(|r| r["rule_id"].as_str().unwrap()).collect();
    assert_eq!(rules, ["booth_space", "polygons", "materials", "file_size"]);
    assert_eq!(view["slots"][0]["id"].as_i64(), Some(slot));
    assert_eq!(view["slots"][0]["open"], false, "before the term");
    assert_eq!(stranger.get_json(&path).await.0, 404, "someone else's booth");
    assert_eq!(app.get_json(&path).await.0, 401);

    // Autosave: two tables and a lamp; the server's totals.
    let placed = scene(
        home,
        vec![
            item(table, "floor", [-1.0, 0.0, -1.0]),
            item(table, "floor", [1.0, 0.0, -1.0]),
            item(lamp, "floor", [0.0, 0.0, 1.0]),
        ],
    );
    let (status, saved) = owner.put_json(&format!("{path}/draft"), &json!({"revision": 0, "scene": placed})).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["revision"], 1);
    let totals = &saved["totals"];
    assert_eq!((totals["items"].as_i64(), totals["triangles"].as_i64()), (Some(3), Some(15_200)), "{saved}");
    assert_eq!(totals["materials"].as_i64(), Some(4), "each version's materials once: {saved}");
    let width = totals["box"][0].as_f64().unwrap();
    assert!((width - 3.2).abs() < 1e-3, "from -1.6 to 1.6: {saved}");
    assert_eq!(saved["findings"], json!([]));

    // A second tab still at revision 0 is refused; the draft keeps the first tab's scene.
    let (status, body) =
        owner.put_json(&format!("{path}/draft"), &json!({"revision": 0, "scene": scene(home, vec![])})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("draft_conflict")), "{body}");
    let (_, view) = owner.get_json(&path).await;
    assert_eq!(view["draft"]["scene"]["items"].as_array().unwrap().len(), 3);

    // Submitting before the term: refused with the date; nothing frozen.
    let submissions = format!("{path}/submissions");
    let (status, body) = owner.post_json(&submissions, &json!({"slot_id": slot, "revision": 1})).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("submission_not_open")), "{body}");

    app.clock.set(ev.at(PhaseType::SubmissionStart) + Duration::hours(1));
    for actor in [&mut owner, &mut member, &mut stranger] {
        actor.renew().await;
    }

    // Over the polygons rule (three lamps: 42,000 > 40,000): refused, the rule named.
    let heavy = scene(
        home,
        vec![
            item(lamp, "floor", [-1.0, 0.0, 0.0]),
            item(lamp, "floor", [0.0, 0.0, 0.0]),
            item(lamp, "floor", [1.0, 0.0, 0.0]),
        ],
    );
    let (status, saved) = owner.put_json(&format!("{path}/draft"), &json!({"revision": 1, "scene": heavy})).await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["findings"][0]["rule_id"], "polygons", "{saved}");
    assert_eq!(saved["findings"][0]["actual"], 42_000);
    let (status, body) = owner.post_json(&submissions, &json!({"slot_id": slot, "revision": 2})).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("scene_over_limit")), "{body}");
    assert_eq!(body["details"][0]["attribute"], "polygons", "{body}");
    assert!(body["details"][0]["message"].as_str().unwrap().contains("42000"), "{body}");

    // A slot that is not the submitter's circle's: 404, whatever their own booth holds.
    let (theirs, _) = started(&app, &stranger).await;
    let path_theirs = format!("/api/v1/booth_maker/scenes/{theirs}/submissions");
    let (status, body) = stranger.post_json(&path_theirs, &json!({"slot_id": slot, "revision": 0})).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("not_found")), "{body}");

    // Back under the rules: a member may not submit, the owner may; the slot shows it.
    let (status, _) = owner.put_json(&format!("{path}/draft"), &json!({"revision": 2, "scene": placed})).await;
    assert_eq!(status, 200);
    assert_eq!(
        member.post_json(&submissions, &json!({"slot_id": slot, "revision": 3})).await.0,
        404,
        "not the member's booth"
    );
    let (status, sent) = owner.post_json(&submissions, &json!({"slot_id": slot, "revision": 3})).await;
    assert_eq!(status, 201, "{sent}");
    assert_eq!(sent["submission_tools_type"], "booth_maker");
    assert_eq!(sent["report"]["status"], "passed", "{sent}");
    let (_, listed) = owner.get_json(&format!("/api/v1/user/{EVENT}/event_slots/{slot}/submissions")).await;
    assert_eq!(listed["submissions"][0]["id"], sent["id"], "{listed}");
    assert_eq!(listed["submissions"][0]["submission_tools_type"], "booth_maker");

    // The frozen file is the scene with its totals; the asset takes no upload of another file.
    let (_, asset) = owner.get_json(&format!("/uploader/assets/{}", sent["asset_id"])).await;
    assert_eq!(asset["setting_label"], "booth_scene", "{asset}");
    let (status, body) =
        owner.get_json(&format!("/uploader/assets/{}/update_url?file_name=x.zip&byte_size=10", sent["asset_id"])).await;
    assert_eq!((status, body["code"].as_str()), (409, Some("asset_not_uploadable")), "{body}");
    let (_, view) = owner.get_json(&path).await;
    assert_eq!(view["scene"]["revision"], 1, "saved once, by the submission");
}

#[rocket::async_test]
async fn bad_scenes_get_a_clear_error_and_change_nothing() {
    let app = TestApp::builder().live().config(|c| c.job_poll_interval_ms = 50).build().await;
    let _workers = app.start_workers().await;
    let owner = app.user("booth_bad").await;
    let stranger = app.user("booth_bad_other").await;
    let (_, mine) = one_shot(&owner, "furniture", "chair.glb", &furniture(200, 1, [0.5, 0.9, 0.5])).await;
    // Over the housing prop's 15,000 polygons: the version fails its check.
    let (_, failed) = one_shot(&owner, "furniture", "huge.glb", &furniture(16_000, 1, [1.0, 1.0, 1.0])).await;
    let (_, theirs) = one_shot(&stranger, "furniture", "theirs.glb", &furniture(200, 1, [0.5, 0.9, 0.5])).await;
    let (id, home) = started(&app, &owner).await;
    let draft = format!("/api/v1/booth_maker/scenes/{id}/draft");
    let good = scene(home, vec![item(mine, "floor", [0.0, 0.0, 0.0])]);
    assert_eq!(owner.put_json(&draft, &json!({"revision": 0, "scene": good})).await.0, 200);

    let cases: Vec<(&str, Value, &str)> = vec![
        (
            "someone else's furniture",
            scene(home, vec![item(theirs, "floor", [0.0; 3])]),
            "scene.items.0.asset_version_id",
        ),
        ("a failed version", scene(home, vec![item(failed, "floor", [0.0; 3])]), "scene.items.0.asset_version_id"),
        ("a huge coordinate", scene(home, vec![item(mine, "floor", [1e300, 0.0, 0.0])]), "scene.items.0.position"),
        ("outside the room", scene(home, vec![item(mine, "floor", [0.0, 0.0, 9.0])]), "scene.items.0.position"),
        ("the wrong attachment", scene(home, vec![item(mine, "wall", [0.0; 3])]), "scene.items.0.sub_type"),
        ("another home", scene(home + 1000, vec![]), "scene.home"),
        ("too many items", scene(home, vec![item(mine, "floor", [0.0; 3]); 201]), "scene.items"),
    ];
    for (what, bad, field) in cases {
        let (status, body) = owner.put_json(&draft, &json!({"revision": 1, "scene": bad})).await;
        assert_eq!((status, body["code"].as_str()), (422, Some("validation_failed")), "{what}: {body}");
        let fields: Vec<&str> =
            body["details"].as_array().unwrap().iter().map(|d| d["attribute"].as_str().unwrap()).collect();
        assert!(fields.contains(&field), "{what}: {body}");
    }
    // Not JSON numbers at all (NaN, infinity), and 100,000 items: refused before any query.
    let nan = format!(
        r#"{{"revision":1,"scene":{{"version":1,"home":{home},"items":[{{"asset_version_id":{mine},"sub_type":"floor","position":[NaN,0,0],"rotation":[0,0,0,1],"scale":[1,1,1]}}]}}}}"#
    );
    let one = format!(
        r#"{{"asset_version_id":{mine},"sub_type":"floor","position":[0,0,0],"rotation":[0,0,0,1],"scale":[1,1,1]}}"#
    );
    let many =
        format!(r#"{{"revision":1,"scene":{{"version":1,"home":{home},"items":[{}]}}}}"#, vec![one; 100_000].join(","));
    for (what, raw) in [("NaN", nan.clone()), ("infinity", nan.replace("NaN", "1e999")), ("100,000 items", many)] {
        let res = owner.request(Method::Put, &draft).header(ContentType::JSON).body(raw).dispatch().await;
        let (status, body) = json_of(res).await;
        assert!(matches!(status, 400 | 413 | 422), "{what}: {status} {body}");
        assert!(body["code"].is_string(), "{what}: the API's error body: {body}");
    }
    // Nothing was written: the draft is the good one at revision 1.
    let (_, view) = owner.get_json(&format!("/api/v1/booth_maker/scenes/{id}")).await;
    assert_eq!(view["draft"]["revision"], 1);
    assert_eq!(view["draft"]["scene"]["items"][0]["asset_version_id"].as_i64(), Some(mine));
    // Someone else's scene is not there for a stranger, whatever they send.
    let (status, _) = stranger.put_json(&draft, &json!({"revision": 1, "scene": scene(home, vec![])})).await;
    assert_eq!(status, 404);
    // A booth needs a name and a home that is offered.
    let (status, body) =
        owner.post_json("/api/v1/booth_maker/scenes", &json!({"name": " ", "preset_home_id": 99_999})).await;
    assert_eq!((status, body["code"].as_str()), (422, Some("validation_failed")), "{body}");
}

#[rocket::async_test]
async fn of_parallel_autosaves_from_one_revision_exactly_one_lands() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("booth_race").await;
    let (id, home) = started(&app, &owner).await;
    let revision = draft_revision(&owner, id).await;
    let draft = format!("/api/v1/booth_maker/scenes/{id}/draft");
    let body = json!({"revision": revision, "scene": scene(home, vec![])});
    let writes = (0..8).map(|_| owner.put_json(&draft, &body));
    let statuses: Vec<u16> = rocket::futures::future::join_all(writes).await.into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 7, "{statuses:?}");
    assert_eq!(draft_revision(&owner, id).await, revision + 1);
}

#[test]
fn the_demo_homes_are_glbs_the_analysers_accept() {
    use vmarket::assets::analyse::{Limits, Stats, analyse};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("static/booth-maker/homes");
    for home in vmarket::booth::model::home::DEMO_HOMES {
        let bytes = std::fs::read(dir.join(format!("{}.glb", home.stem))).expect("the home's GLB is in the repository");
        let analysis = analyse(&bytes, &Limits::default());
        assert!(analysis.findings.list.is_empty(), "{}: {:?}", home.stem, analysis.findings.list);
        let Stats::Model(model) = analysis.stats else { panic!("{}: not a model", home.stem) };
        let b = model.bounding_box.expect("a box");
        let [w, h, d] = home.size;
        // The interior plus the walls' and floor's thickness (0.1 m).
        assert!(
            (b.size[0] - (w + 0.2)).abs() < 1e-3 && b.max[1] >= h - 1e-3 && (b.size[2] - (d + 0.1)).abs() < 1e-3,
            "{}: {b:?}",
            home.stem
        );
        assert!(dir.join(format!("{}.svg", home.stem)).exists());
    }
}

#[rocket::async_test]
async fn the_new_booth_form_keeps_what_was_typed_and_names_the_problem() {
    let app = TestApp::builder().live().build().await;
    vmarket::booth::model::home::ensure_demo_homes(&app.db, app.clock.now()).await.unwrap();
    let owner = app.user("booth_form").await;
    let form = owner.form("/mypage/booth-maker", "[data-testid=scene-form]").await;
    // A name over 100 characters: the list again, the field's error beside it, the name kept.
    let long = "屋".repeat(101);
    let (status, _, html) = owner.submit(&form, &[("name", &long), ("preset_home_id", "1")], None).await;
    assert_eq!(status, 200, "{html}");
    let doc = crate::support::html::Doc::parse(&html);
    assert_eq!(doc.attrs("[data-field=name]", "data-field"), ["name"], "the error beside the field");
    assert_eq!(doc.attr("#scene-name", "value"), long, "what was typed is kept");
    // A good one opens the editor.
    let (status, location, _) = owner.submit(&form, &[("name", "灯り"), ("preset_home_id", "1")], None).await;
    assert_eq!(status, 303);
    assert!(location.unwrap_or_default().starts_with("/mypage/booth-maker/scenes/"));
}
