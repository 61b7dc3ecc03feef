//! `/mypage/booth-maker/assets/{id}`: one of the user's assets (anyone else's is the 404 page) —
//! its versions with their status (the `asset-status` island watches a version in the pipeline
//! and reloads the page when it is done), the newest report written for people (what is over,
//! by how much, how to fix it), its picture with a 3D view of GLB and VRM files on request (the
//! `model-preview` island) and the way to upload a new version.

use rocket::{Route, get, routes};
use serde_json::{Value, json};

use super::views::{in_progress, version_json};
use crate::assets::api::assets::views_with_links;
use crate::assets::api::uploader::Uploader;
use crate::assets::api::versions::translated_report;
use crate::auth::guards::CurrentUser;
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};
use crate::http::template::Template;
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pages::mypage_nav::nav;

/// The kinds of file the preview draws.
const PREVIEWED: &[&str] = &["glb", "vrm", "gltf"];

/// The page.
#[get("/mypage/booth-maker/assets/<id>")]
pub async fn show(p: Page<'_>, up: Uploader<'_>, current: CurrentUser, id: Id) -> Result<Template> {
    let row = asset::Model::for_owner(p.db, id.0, current.user.id).await?;
    let setting = asset_setting::Model::by_id(p.db, row.asset_setting_id).await?;
    let view = views_with_links(&up, vec![row]).await?.pop().ok_or_else(Error::not_found)?;
    let versions: Vec<Value> = view.asset_versions.iter().map(|v| version_json(&p, v)).collect();
    // The newest version with a report (a failed upload keeps its report; a newer one in the
    // pipeline has none yet).
    let reported = view.asset_versions.iter().find(|v| v.report.is_some());
    let report = match reported {
        Some(v) => {
            let row = asset_version::Model::by_id(p.db, v.id).await?;
            Some(report_json(&p, v.version, &translated_report(&row, &p.site.messages, p.lang)?))
        }
        None => None,
    };
    let picture = view.latest_version.as_ref().and_then(|v| v.thumbnail.as_ref()).map(|t| t.large.clone());
    let picture_alt = p.site.messages.tf(p.lang, "booth_maker.preview.picture", &[("name", &view.name)]);
    let preview = view.latest_version.as_ref().and_then(|v| {
        let kind = v.detail.file_type.as_deref()?;
        let url = &v.download_url.as_ref()?.url;
        PREVIEWED.contains(&kind).then(|| {
            json!({
                "lang": p.lang.code(),
                "url": url,
                "kind": kind,
                "picture": picture,
                "picture_alt": picture_alt,
            })
            .to_string()
        })
    });
    let watching: Vec<Value> = view
        .asset_versions
        .iter()
        .filter(|v| in_progress(v.upload_status))
        .map(|v| json!({ "id": v.id, "status": v.upload_status.as_str() }))
        .collect();
    let status_props = (!watching.is_empty())
        .then(|| json!({ "lang": p.lang.code(), "asset_id": view.id, "versions": watching }).to_string());
    let ctx = json!({
        "nav": nav(&p),
        "asset": {
            "id": view.id,
            "name": view.name,
            "description": view.description,
            "kind": p.lang.pick(&setting.name_ja, &setting.name_en),
            "created_at": view.created_at.to_rfc3339(),
            "published": view.published,
        },
        "versions": versions,
        "report": report,
        "preview_props": preview,
        "status_props": status_props,
        "picture": picture,
        "list_href": p.href("/mypage/booth-maker"),
        "new_version_href": p.href(&format!("/mypage/booth-maker/assets/upload?asset={}", view.id)),
    });
    Ok(p.render("mypage/booth_maker/asset", &view.name, ctx))
}

/// The severity of a report message, as its label key's last part.
fn severity(value: &Value) -> &'static str {
    match value.as_u64() {
        Some(0) => "error",
        Some(1) => "warning",
        _ => "info",
    }
}

/// A figure of the report as text (numbers as they are, strings without quotes).
fn figure(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// The report for people: the verdict, each finding with its limit, actual value and fix, the
/// main measurements, the VRM meta and VRChat's rank.
fn report_json(p: &Page<'_>, version: i32, report: &Value) -> Value {
    let status = report["status"].as_str().unwrap_or("failed");
    let messages: Vec<Value> = report
        .pointer("/issues/messages")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|m| {
                    let severity = severity(&m["severity"]);
                    json!({
                        "severity": severity,
                        "severity_label": p.t(&format!("booth_maker.report.severity.{severity}")),
                        "message": m["message"],
                        "solution": m["solution"],
                        "limit": figure(&m["limit"]),
                        "actual": figure(&m["actual"]),
                        "rule_id": m["rule_id"],
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let stats = &report["stats"];
    let mut measured = Vec::new();
    let mut add = |key: &str, value: Option<String>| {
        if let Some(value) = value {
            measured.push(json!({ "label": p.t(&format!("booth_maker.report.stats.{key}")), "value": value }));
        }
    };
    for key in [
        "triangles",
        "vertices",
        "materials",
        "draw_calls",
        "skinned_meshes",
        "joints",
        "width",
        "height",
        "entry_count",
    ] {
        add(key, stats[key].as_u64().map(|n| n.to_string()));
    }
    add("texture_memory", stats["texture_gpu_bytes"].as_i64().filter(|b| *b > 0).map(super::views::size_label));
    add("duration", stats["duration_seconds"].as_f64().map(|s| format!("{s:.1}")));
    if let Some(size) = stats.pointer("/bounding_box/size").and_then(Value::as_array) {
        let metres: Vec<String> = size.iter().filter_map(Value::as_f64).map(|m| format!("{m:.2}")).collect();
        add("bounding_box", (metres.len() == 3).then(|| format!("{} × {} × {} m", metres[0], metres[2], metres[1])));
    }
    let rank = |platform: &str| {
        report
            .pointer(&format!("/vrchat_rank/{platform}/rank"))
            .and_then(Value::as_str)
            .map(|r| p.t(&format!("booth_maker.report.rank.{r}")))
    };
    let vrm = report.get("vrm").filter(|v| !v.is_null()).map(|v| {
        json!({
            "spec_version": v["spec_version"],
            "title": v.pointer("/meta/title"),
            "authors": v.pointer("/meta/authors").and_then(Value::as_array).map(|a| {
                a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(", ")
            }),
        })
    });
    json!({
        "version": version,
        "status": status,
        "status_label": p.t(&format!("booth_maker.verdict.{status}")),
        "counts": p.site.messages.tf(
            p.lang,
            "booth_maker.verdict.counts",
            &[
                ("errors", &report.pointer("/issues/num_errors").and_then(Value::as_u64).unwrap_or(0).to_string()),
                ("warnings", &report.pointer("/issues/num_warnings").and_then(Value::as_u64).unwrap_or(0).to_string()),
            ],
        ),
        "messages": messages,
        "truncated": report.pointer("/issues/truncated").and_then(Value::as_bool).unwrap_or(false),
        "stats": measured,
        "rank": rank("pc").map(|pc| json!({ "pc": pc, "mobile": rank("mobile") })),
        "vrm": vrm,
        "rule_set": report.pointer("/rule_set/id"),
        "validated_at": report["validated_at"],
    })
}

/// Routes of this page.
pub fn routes() -> Vec<Route> {
    routes![show]
}
