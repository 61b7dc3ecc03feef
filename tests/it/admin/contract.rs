//! The ra-data-simple-rest contract of `/admin/api/{resource}`, shown on `events` (the demo has
//! four: 2025Summer id 1 v14, 2025Winter id 11 v15, 2026Summer id 12 v16, 2026Winter id 13 v17):
//! sort, range and `Content-Range` at the edges, filters (getMany, `q`, columns, bounds), one
//! record, writes, and the 4xx answers for everything a client can get wrong.

use rocket::http::Method;
use serde_json::json;
use vmarket::model::user::Role;

use super::{Answer, call, list_path};
use crate::support::TestApp;
use crate::support::actors::Actor;

async fn setup() -> TestApp {
    TestApp::builder().live().build().await
}

async fn list(app: &TestApp, who: &Actor<'_>, sort: Option<&str>, range: Option<&str>, filter: Option<&str>) -> Answer {
    call(app, who, Method::Get, &list_path("/admin/api/events", sort, range, filter), None).await
}

fn permalinks(answer: &Answer) -> Vec<&str> {
    answer.body.as_array().unwrap().iter().map(|e| e["permalink"].as_str().unwrap()).collect()
}

#[rocket::async_test]
async fn a_list_says_its_range_and_total_and_exposes_the_header() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let all = list(&app, &director, None, None, None).await;
    assert_eq!(all.status, 200);
    assert_eq!(all.content_range.as_deref(), Some("events 0-5/6"));
    assert_eq!(all.expose.as_deref(), Some("Content-Range"));
    assert_eq!(all.ids(), [1, 11, 12, 13, 14, 15], "by id when no sort is given");
    let winter = &all.body[3];
    assert_eq!(winter["permalink"], "2026Winter");
    assert_eq!(winter["name_ja"], "バーチャルマーケット2026 Winter");
    let phases = winter["phases"].as_array().unwrap();
    assert!(phases.iter().any(|p| p["phase_type"] == "event_open" && p["phase_timestamp"] == "2026-12-12T03:00:00Z"));

    let sorted = list(&app, &director, Some(r#"["version","DESC"]"#), Some("[0,1]"), None).await;
    assert_eq!(permalinks(&sorted), ["2027Summer", "2027Spring"]);
    assert_eq!(sorted.content_range.as_deref(), Some("events 0-1/6"));

    let middle = list(&app, &director, Some(r#"["version","desc"]"#), Some("[1,2]"), None).await;
    assert_eq!(permalinks(&middle), ["2027Spring", "2026Winter"]);
    assert_eq!(middle.content_range.as_deref(), Some("events 1-2/6"));

    let at_the_end = list(&app, &director, Some(r#"["version","ASC"]"#), Some("[3,9]"), None).await;
    assert_eq!(permalinks(&at_the_end), ["2026Winter", "2027Spring", "2027Summer"]);
    assert_eq!(at_the_end.content_range.as_deref(), Some("events 3-5/6"));

    let past_the_end = list(&app, &director, None, Some("[6,9]"), None).await;
    assert_eq!(past_the_end.status, 200);
    assert_eq!(past_the_end.body, json!([]));
    assert_eq!(past_the_end.content_range.as_deref(), Some("events */6"));

    let nothing = list(&app, &director, None, Some("[0,24]"), Some(r#"{"permalink":"1999Spring"}"#)).await;
    assert_eq!((nothing.status, nothing.body.clone()), (200, json!([])));
    assert_eq!(nothing.content_range.as_deref(), Some("events */0"));
}

#[rocket::async_test]
async fn filters_pick_records_by_id_words_values_and_bounds() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let many = list(&app, &director, None, None, Some(r#"{"id":[13,1,999]}"#)).await;
    assert_eq!(many.ids(), [1, 13], "getMany answers the ids that exist");
    assert_eq!(many.content_range.as_deref(), Some("events 0-1/2"));

    let words = list(&app, &director, None, None, Some(r#"{"q":"2026 winter"}"#)).await;
    assert_eq!(permalinks(&words), ["2026Winter"], "every word, any case");
    let japanese = list(&app, &director, None, None, Some(r#"{"q":"マーケット2025"}"#)).await;
    assert_eq!(permalinks(&japanese), ["2025Summer", "2025Winter"]);

    let value = list(&app, &director, None, None, Some(r#"{"version":"15","q":""}"#)).await;
    assert_eq!(permalinks(&value), ["2025Winter"], "a numeric string filters a number; an empty q is no filter");
    let bounds = list(&app, &director, None, None, Some(r#"{"version_gte":15,"version_lte":16}"#)).await;
    assert_eq!(permalinks(&bounds), ["2025Winter", "2026Summer"]);
    let public = list(&app, &director, None, None, Some(r#"{"is_public":false}"#)).await;
    assert_eq!(public.content_range.as_deref(), Some("events */0"));
}

#[rocket::async_test]
async fn what_a_client_gets_wrong_is_a_422_naming_the_parameter() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let cases = [
        (Some(r#"["password","ASC"]"#), None, None, "sort"),
        (Some(r#"["version","UP"]"#), None, None, "sort"),
        (Some("version"), None, None, "sort"),
        (None, Some("[5,2]"), None, "range"),
        (None, Some("[0,5000]"), None, "range"),
        (None, Some("[-1,3]"), None, "range"),
        (None, Some("0-24"), None, "range"),
        (None, None, Some("{not json"), "filter"),
        (None, None, Some("[1,2]"), "filter"),
        (None, None, Some(r#"{"secret":1}"#), "filter"),
        (None, None, Some(r#"{"permalink_gte":"a"}"#), "filter"),
        (None, None, Some(r#"{"version":"fifteen"}"#), "filter.version"),
        (None, None, Some(r#"{"id":["x"]}"#), "filter.id"),
        (None, None, Some(r#"{"q":5}"#), "filter.q"),
    ];
    for (sort, range, filter, attribute) in cases {
        let answer = list(&app, &director, sort, range, filter).await;
        assert_eq!(answer.status, 422, "{sort:?} {range:?} {filter:?}: {:?}", answer.body);
        assert_eq!(answer.body["code"], "validation_failed");
        assert_eq!(answer.attributes(), [attribute], "{sort:?} {range:?} {filter:?}");
        assert!(!answer.body["details"][0]["message"].as_str().unwrap().is_empty());
    }
    let english =
        call(&app, &director, Method::Get, "/admin/api/events?lang=en&sort=%5B%22x%22%2C%22ASC%22%5D", None).await;
    assert_eq!(
        english.body["details"][0]["message"],
        "sort must be [\"field\", \"ASC\" or \"DESC\"] with a sortable field (id, permalink, version, name_ja, name_en, is_public, created_at, updated_at)."
    );
}

#[rocket::async_test]
async fn one_record_or_a_404() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let one = call(&app, &director, Method::Get, "/admin/api/events/12", None).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.body["permalink"], "2026Summer");
    for path in ["/admin/api/events/999", "/admin/api/events/abc", "/admin/api/events/0", "/admin/api/no_such_thing"] {
        let missing = call(&app, &director, Method::Get, path, None).await;
        assert_eq!((missing.status, missing.body["code"].as_str()), (404, Some("not_found")), "{path}");
    }
}

fn new_event() -> serde_json::Value {
    json!({
        "permalink": "2028Summer",
        "version": 19,
        "name_ja": "バーチャルマーケット2028 Summer",
        "name_en": "Virtual Market 2028 Summer",
        "theme_ja": "夏",
        "theme_en": "Summer",
        "is_public": true,
        "exhibition_term_url": "",
        "phases": [
            {"phase_type": "entry_start", "phase_timestamp": "2027-03-01T12:00", "is_displayable": true},
            {"phase_type": "event_open", "phase_timestamp": "2027-08-01T03:00:00Z", "is_displayable": true},
        ],
    })
}

#[rocket::async_test]
async fn create_change_and_delete_an_event_with_its_phases() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let created = call(&app, &director, Method::Post, "/admin/api/events", Some(&new_event())).await;
    assert_eq!(created.status, 201, "{:?}", created.body);
    let id = created.body["id"].as_i64().unwrap();
    assert_eq!(created.body["exhibition_term_url"], serde_json::Value::Null, "a cleared field is no value");
    let phases = created.body["phases"].as_array().unwrap().clone();
    assert_eq!(phases.len(), 2);
    assert_eq!(phases[0]["phase_timestamp"], "2027-03-01T03:00:00Z", "a bare date-time is Japan time");
    assert_eq!(phases[1]["phase_code"], 5002);

    // The edit form sends the whole record back: keep one phase, change it, add one, drop one.
    let mut record = created.body.clone();
    record["name_en"] = json!("Virtual Market 2028 Summer (edited)");
    record["phases"] = json!([
        {"id": phases[1]["id"], "phase_type": "event_open", "phase_timestamp": "2027-08-02T03:00:00Z", "is_displayable": true},
        {"phase_type": "event_close", "phase_timestamp": "2027-08-10T03:00:00Z", "is_private": true},
    ]);
    let updated = call(&app, &director, Method::Put, &format!("/admin/api/events/{id}"), Some(&record)).await;
    assert_eq!(updated.status, 200, "{:?}", updated.body);
    assert_eq!(updated.body["name_en"], "Virtual Market 2028 Summer (edited)");
    let now = updated.body["phases"].as_array().unwrap();
    assert_eq!(now.len(), 2);
    assert_eq!(now[0]["id"], phases[1]["id"], "a phase sent with its id is kept");
    assert_eq!(now[0]["phase_timestamp"], "2027-08-02T03:00:00Z");
    assert_eq!((now[1]["phase_type"].as_str(), now[1]["is_private"].as_bool()), (Some("event_close"), Some(true)));

    // The public API sees it.
    let (status, public) = app.get_json(&format!("/api/v1/events/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(public["name_en"], "Virtual Market 2028 Summer (edited)");

    let deleted = call(&app, &director, Method::Delete, &format!("/admin/api/events/{id}"), None).await;
    assert_eq!((deleted.status, deleted.body["permalink"].as_str()), (200, Some("2028Summer")));
    let gone = call(&app, &director, Method::Get, &format!("/admin/api/events/{id}"), None).await;
    assert_eq!(gone.status, 404);
}

#[rocket::async_test]
async fn bad_inputs_are_reported_beside_their_fields() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let mut bad = new_event();
    bad["permalink"] = json!("2027 summer!");
    bad["name_ja"] = json!("  ");
    bad["exhibition_term_url"] = json!("javascript:alert(1)");
    bad["phases"][1]["phase_timestamp"] = serde_json::Value::Null;
    let answer = call(&app, &director, Method::Post, "/admin/api/events?lang=en", Some(&bad)).await;
    assert_eq!(answer.status, 422);
    assert_eq!(answer.attributes(), ["exhibition_term_url", "name_ja", "permalink", "phases.1.phase_timestamp"]);
    assert_eq!(answer.body["details"][1]["message"], "This field is required.");
    assert_eq!(answer.body["details"][2]["message"], "Use letters, digits, _ or - only.");

    let mut wrong_type = new_event();
    wrong_type["version"] = json!("eighteen");
    let answer = call(&app, &director, Method::Post, "/admin/api/events", Some(&wrong_type)).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["version".to_string()]));

    let mut bad_phase = new_event();
    bad_phase["phases"][0]["phase_type"] = json!("party_time");
    let answer = call(&app, &director, Method::Post, "/admin/api/events", Some(&bad_phase)).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["phases".to_string()]));

    let mut taken = new_event();
    taken["permalink"] = json!("2026Winter");
    let answer = call(&app, &director, Method::Post, "/admin/api/events", Some(&taken)).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["permalink".to_string()]));

    let answer = call(&app, &director, Method::Post, "/admin/api/events", Some(&json!(["not", "an", "object"]))).await;
    assert_eq!((answer.status, answer.attributes()), (422, vec!["body".to_string()]));

    let raw =
        app.request_as(&director, crate::support::actors::Via::Bearer, Method::Post, "/admin/api/events", None).await;
    let answer = super::answer(raw).await;
    assert_eq!((answer.status, answer.body["code"].as_str()), (400, Some("bad_request")), "no body is not JSON");

    let events = call(&app, &director, Method::Get, "/admin/api/events", None).await;
    assert_eq!(events.content_range.as_deref(), Some("events 0-5/6"), "nothing was stored");
}

#[rocket::async_test]
async fn an_event_with_content_is_not_deleted() {
    let app = setup().await;
    let director = app.as_staff(Role::Director).await;
    let answer = call(&app, &director, Method::Delete, "/admin/api/events/13", None).await;
    assert_eq!((answer.status, answer.body["code"].as_str()), (409, Some("event_not_empty")));
    let still = call(&app, &director, Method::Get, "/admin/api/events/13", None).await;
    assert_eq!(still.status, 200);
}

/// Values a client may send for a filter, a bound, a sort or a range: negative, huge, fractional,
/// of the wrong type, nested, not JSON at all.
const ODD_VALUES: &[&str] = &[
    "-1",
    "9223372036854775808",
    "-9223372036854775809",
    "1e308",
    "1.5",
    r#""x""#,
    r#""+275760-09-13T00:00:00Z""#,
    r#""%_\\""#,
    "true",
    "[]",
    "[[1]]",
    r#"{"a":1}"#,
    "null",
];

#[rocket::async_test]
async fn no_list_parameter_gets_a_500_from_any_resource() {
    let app = setup().await;
    let admin = app.as_staff(Role::Admin).await;
    let mut asked = 0;
    for resource in vmarket::admin::api::resources() {
        let columns = resource.columns;
        let mut filters: Vec<String> = vec!["id".into(), "q".into(), "unknown_field".into()];
        filters.extend(columns.filter.iter().map(|f| f.to_string()));
        filters.extend(columns.computed.iter().map(|(f, _)| f.to_string()));
        let mut cases: Vec<(Option<String>, Option<String>, Option<String>)> = Vec::new();
        for field in &filters {
            for value in ODD_VALUES {
                cases.push((None, None, Some(format!(r#"{{"{field}":{value}}}"#))));
            }
            for bound in ["_gte", "_lte"] {
                for value in ["-9223372036854775809", "99999999999999999999", r#""+275760-09-13T00:00:00Z""#, "[1]"] {
                    cases.push((None, None, Some(format!(r#"{{"{field}{bound}":{value}}}"#))));
                }
            }
        }
        for field in columns.sort.iter().chain(["id", "nope"].iter()) {
            for order in [r#""ASC""#, r#""desc""#, "1", "null"] {
                cases.push((Some(format!(r#"["{field}",{order}]"#)), None, None));
            }
        }
        for range in [
            "[9223372036854775808,9223372036854775808]",
            "[2147483647,2147483647]",
            "[2147483648,2147483649]",
            "[18446744073709551615,18446744073709551615]",
            "[-5,-1]",
            "[1e3,2e3]",
            "[0]",
            "[0,1,2]",
            r#"["0","9"]"#,
            "{}",
            "nonsense",
        ] {
            cases.push((None, Some(range.to_string()), None));
        }
        for filter in ["[]", "1", "\"q\"", "{", "null"] {
            cases.push((None, None, Some(filter.to_string())));
        }
        for (sort, range, filter) in cases {
            let path = list_path(
                &format!("/admin/api/{}", resource.name),
                sort.as_deref(),
                range.as_deref(),
                filter.as_deref(),
            );
            let answer = call(&app, &admin, Method::Get, &path, None).await;
            asked += 1;
            match answer.status {
                200 => assert!(answer.body.is_array(), "{path}"),
                422 => {
                    assert_eq!(answer.body["code"], "validation_failed", "{path}");
                    assert!(!answer.attributes().is_empty(), "{path}: the parameter is named");
                }
                other => panic!("{path}: {other} {:?}", answer.body),
            }
        }
    }
    assert!(asked > 2000, "{asked} lists asked");
    let huge = list(&app, &admin, None, Some("[9223372036854775808,9223372036854775808]"), None).await;
    assert_eq!((huge.status, huge.attributes()), (422, vec!["range".to_string()]));
    let last = list(&app, &admin, None, Some("[2147483647,2147483647]"), None).await;
    assert_eq!((last.status, last.content_range.as_deref()), (200, Some("events */6")), "the last position is empty");
}

/// Values a client may send for a record's field: of every JSON type, out of every range.
const ODD_FIELDS: &[&str] = &[
    "-1",
    "9223372036854775808",
    "1e308",
    "1.5",
    r#""x""#,
    r#""""#,
    r#""2026-13-45T99:99""#,
    "true",
    "null",
    "[]",
    "[null, -1, {}]",
    r#"{"id": -1}"#,
];

#[rocket::async_test]
async fn no_field_of_any_record_gets_a_500() {
    let app = setup().await;
    let admin = app.as_staff(Role::Admin).await;
    let long = serde_json::Value::String("長".repeat(20_000));
    let mut sent = 0;
    for resource in vmarket::admin::api::resources() {
        if !resource.actions.contains(&vmarket::admin::permissions::Action::Edit) {
            continue;
        }
        let path = list_path(&format!("/admin/api/{}", resource.name), None, Some("[0,0]"), None);
        let listed = call(&app, &admin, Method::Get, &path, None).await;
        let Some(record) = listed.body.get(0).cloned() else { continue };
        let id = record["id"].as_i64().unwrap();
        let fields: Vec<String> = record.as_object().unwrap().keys().filter(|k| *k != "id").cloned().collect();
        for field in fields.iter().map(String::as_str).chain(["unknown_field", "reason", "action"]) {
            for value in ODD_FIELDS.iter().map(|v| serde_json::from_str(v).unwrap()).chain([long.clone()]) {
                let body = json!({ field: value });
                let answer =
                    call(&app, &admin, Method::Put, &format!("/admin/api/{}/{id}", resource.name), Some(&body)).await;
                sent += 1;
                assert!(answer.status < 500, "{} {id} {body}: {} {:?}", resource.name, answer.status, answer.body);
                assert!(
                    answer.body["code"].is_string() || answer.status == 200,
                    "{} {body}: an error body",
                    resource.name
                );
            }
        }
        for body in [json!([]), json!("x"), json!(null), json!(7)] {
            let answer =
                call(&app, &admin, Method::Put, &format!("/admin/api/{}/{id}", resource.name), Some(&body)).await;
            assert!(answer.status < 500, "{} {body}: {}", resource.name, answer.status);
        }
        if resource.actions.contains(&vmarket::admin::permissions::Action::Create) {
            for body in [json!({}), json!([]), json!({"id": 1}), record.clone()] {
                let answer =
                    call(&app, &admin, Method::Post, &format!("/admin/api/{}", resource.name), Some(&body)).await;
                assert!(answer.status < 500, "POST {} {body}: {} {:?}", resource.name, answer.status, answer.body);
            }
        }
    }
    assert!(sent > 1000, "{sent} changes sent");
}
