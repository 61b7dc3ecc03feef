//! Submitting a booth for a slot (issue 29 item 5): the draft at the revision the editor shows is
//! checked, over no error rule of the booth's rule set (422 `scene_over_limit`, each rule named),
//! saved as the scene, and frozen — a new version of the scene's own asset (setting
//! `booth_scene`), its bytes the scene with its home and totals as JSON, its report built by the
//! asset analysers' evaluation from the totals — which becomes the slot's next upload file with
//! `submission_tools_type = booth_maker`, inspected like any other. The slot must be one of a
//! circle the user owns, inside the event's submission term.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, EntityTrait, Set, TransactionTrait};
use serde_json::json;

use super::check::{Placeable, Weighed, weigh};
use super::housing::{draft_at, json, save};
use crate::assets::analyse::finding::Severity;
use crate::assets::analyse::{Analysis, Findings, ReportInput, Stats, build_report, sha256_hex};
use crate::booth::totals::{Amount, Breach, as_model_stats};
use crate::db::entities::asset_version::UploadStatus;
use crate::db::entities::event_slot_submission::ToolsType;
use crate::db::entities::{asset, asset_version, event, housing_scene, preset_home};
use crate::error::{Error, Invalid, Result};
use crate::exhibit::slot::all_slots_for;
use crate::exhibit::submission::{SubmissionView, ensure_open, record, views};
use crate::exhibit::term::SubmissionTerm;
use crate::forms::asset::NewAsset;
use crate::model::event::EventWithPhases;
use crate::storage::Storage;
use crate::types::Lang;

/// The file name of a frozen scene.
pub const FILE_NAME: &str = "booth-scene.json";

/// What a submission needs.
pub struct Submission<'a> {
    /// The scene.
    pub scene: housing_scene::Model,
    /// Its home.
    pub home: &'a preset_home::Model,
    /// The draft revision the editor shows.
    pub revision: i32,
    /// The slot.
    pub slot_id: i32,
    /// Who submits.
    pub user_id: i32,
}

/// The breaches of error rules as field errors (`attribute` the rule's id).
pub fn errors_of(found: &[Breach]) -> Vec<Invalid> {
    let text = |a: &Amount| match a {
        Amount::Box([x, y, z]) => format!("{x:.2} × {y:.2} × {z:.2} m"),
        Amount::Number(n) => n.to_string(),
    };
    found
        .iter()
        .filter(|b| b.severity == Severity::Error)
        .map(|b| {
            let kind = serde_json::to_value(b.kind).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
            Invalid::new(b.rule_id.clone(), format!("booth_maker.breach.{kind}"))
                .with("limit", text(&b.limit))
                .with("actual", text(&b.actual))
        })
        .collect()
}

/// Submits `s`; the new submission.
pub async fn submit<C: ConnectionTrait + TransactionTrait>(
    db: &C,
    storage: &Storage,
    s: Submission<'_>,
    now: DateTime<Utc>,
) -> Result<SubmissionView> {
    let slot = all_slots_for(db, s.user_id, Lang::Ja)
        .await?
        .into_iter()
        .find(|slot| slot.id == s.slot_id)
        .ok_or_else(Error::not_found)?;
    if !slot.circle.is_owner {
        return Err(Error::Forbidden);
    }
    let found = event::Entity::find_by_id(slot.event_id).one(db).await?.ok_or_else(Error::not_found)?;
    let event = EventWithPhases::load(db, found).await?;
    ensure_open(&SubmissionTerm::of(&event, now), now)?;
    let draft = draft_at(db, &s.scene, s.revision, now).await?;
    let Weighed { placed, totals: sums, breaches, setting, rules } = weigh(db, s.user_id, s.home, &draft).await?;
    let over = errors_of(&breaches);
    if !over.is_empty() {
        return Err(Error::Breaches { code: "scene_over_limit", found: over });
    }
    let scene = save(db, s.scene, &draft, &sums, now).await?;
    let bytes = frozen_bytes(&scene, s.home, &draft, &placed, &sums)?;
    let asset = scene_asset(db, &scene, &setting, now).await?;
    let version = asset_version::Model::open(db, &asset, FILE_NAME, bytes.len() as i64, now).await?;
    storage.put(&version.object_key, bytes.clone()).await?;
    let analysis = Analysis {
        kind: None,
        byte_length: bytes.len() as u64,
        stats: Stats::Model(as_model_stats(&sums)),
        vrm: None,
        findings: Findings::default(),
    };
    let input = ReportInput {
        asset_id: asset.id as u64,
        version: version.version as u32,
        mime_type: Some("application/json".into()),
        byte_length: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
        validated_at: now.to_rfc3339(),
    };
    let report = build_report(&input, &analysis, &rules);
    let mut row: asset_version::ActiveModel = version.into();
    row.upload_status = Set(UploadStatus::Uploaded);
    row.sha256 = Set(Some(input.sha256.clone()));
    row.mime_type = Set(Some("application/json".into()));
    row.report = Set(Some(json(&report)?));
    row.rule_set_id = Set(Some(setting.rule_set_id));
    row.rule_set_version = Set(Some(rules.version as i32));
    row.completed_at = Set(Some(now));
    row.uploaded_at = Set(Some(now));
    row.updated_at = Set(now);
    let version = row.update(db).await?;
    version.promote(db, now).await?;
    let submitted = record(db, slot.id, &version, ToolsType::BoothMaker, s.user_id, now).await?;
    views(db, vec![submitted]).await?.pop().ok_or_else(Error::not_found)
}

/// The frozen file: the scene, its home, each placed version's asset and file, and the totals.
fn frozen_bytes(
    scene: &housing_scene::Model,
    home: &preset_home::Model,
    draft: &crate::booth::scene::SceneJson,
    placed: &std::collections::HashMap<i32, Placeable>,
    sums: &crate::booth::totals::Totals,
) -> Result<Vec<u8>> {
    let versions: Vec<_> = draft
        .version_ids()
        .iter()
        .filter_map(|id| placed.get(id))
        .map(|p| {
            json!({
                "asset_version_id": p.version.id,
                "asset_id": p.asset.id,
                "name": p.asset.name,
                "uuid": p.version.uuid,
                "file_name": p.version.file_name,
                "sha256": p.version.sha256,
            })
        })
        .collect();
    let document = json!({
        "housing_scene": { "id": scene.id, "name": scene.name, "revision": scene.revision },
        "home": home.view(Lang::En),
        "scene": draft,
        "versions": versions,
        "totals": sums,
    });
    serde_json::to_vec_pretty(&document).map_err(|e| Error::Internal(e.to_string()))
}

/// The scene's own asset, made on its first submission.
async fn scene_asset(
    db: &impl ConnectionTrait,
    scene: &housing_scene::Model,
    setting: &crate::db::entities::asset_setting::Model,
    now: DateTime<Utc>,
) -> Result<asset::Model> {
    if let Some(id) = scene.asset_id
        && let Some(found) = asset::Entity::find_by_id(id).one(db).await?.filter(|a| !a.deleted)
    {
        return Ok(found);
    }
    let input = NewAsset {
        asset_setting_label: setting.label.clone(),
        name: scene.name.clone(),
        description: scene.introduction.clone(),
        sub_type: None,
        file_name: FILE_NAME.into(),
        byte_size: 0,
        temporary_upload_id: None,
    };
    let made = asset::Model::create(db, scene.user_id, setting, &input, now).await?;
    let mut row: housing_scene::ActiveModel = scene.clone().into();
    row.asset_id = Set(Some(made.id));
    row.update(db).await?;
    Ok(made)
}
