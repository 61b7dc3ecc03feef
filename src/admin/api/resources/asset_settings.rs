//! `asset_settings`: the uploader's kinds of upload (spec §7 `asset_settings/{label}`,
//! ASSETS.md "Asset settings"): their names, the kinds of file their pickers offer, the largest
//! file an upload may send and the rule set that checks it. Staff edit them; the label and the
//! asset type are fixed (clients and stored assets rely on them), and there is no creating or
//! deleting: the kinds are the product's. The kinds offered must be ones the rule set allows,
//! so a picker never offers a file the check would refuse for its kind. A kind the server makes
//! (the booth maker's frozen booths, `booth_scene`) offers none and cannot be given any.

use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::{Resource, must_exist};
use crate::admin::permissions::{Action, Area};
use crate::assets::analyse::{Kind, Limit};
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset_rule_set, asset_setting};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;

/// The largest ceiling staff may set: 5 GiB.
const MAX_BYTES: i64 = 5 * 1024 * 1024 * 1024;

/// The resource.
pub struct AssetSettings;

/// A setting as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct AssetSettingRecord {
    /// Id.
    pub id: i32,
    /// The kind's label (`avatar`, `furniture`, …), fixed.
    pub label: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// The type its assets get, fixed.
    pub asset_type: AssetType,
    /// The kinds of file its picker offers.
    pub accepted_kinds: Vec<Kind>,
    /// The largest file an upload may send, in bytes.
    pub max_bytes: i64,
    /// The rule set that checks its uploads.
    pub rule_set_id: i32,
    /// Last change.
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

/// What staff send for a setting.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AssetSettingInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// The kinds of file its picker offers: at least one for a kind users upload, none for one
    /// the server makes (the booth maker's `booth_scene`).
    #[validate(required, length(max = 16))]
    pub accepted_kinds: Option<Vec<Kind>>,
    /// The largest file an upload may send, 1 byte to 5 GiB.
    #[validate(required, range(min = 1, max = MAX_BYTES))]
    pub max_bytes: Option<i64>,
    /// The rule set that checks its uploads.
    #[validate(required)]
    pub rule_set_id: Option<i32>,
}

impl Resource for AssetSettings {
    type Entity = asset_setting::Entity;
    type Record = AssetSettingRecord;
    type Input = AssetSettingInput;

    const NAME: &'static str = "asset_settings";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    const COLUMNS: Columns = Columns {
        sort: &["label", "max_bytes", "updated_at"],
        filter: &[],
        search: &["label", "name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<asset_setting::Model>,
    ) -> Result<Vec<AssetSettingRecord>> {
        Ok(rows
            .into_iter()
            .map(|row| AssetSettingRecord {
                accepted_kinds: row.accepted_kinds(),
                id: row.id,
                label: row.label,
                name_ja: row.name_ja,
                name_en: row.name_en,
                asset_type: row.asset_type,
                max_bytes: row.max_bytes,
                rule_set_id: row.rule_set_id,
                updated_at: row.updated_at,
            })
            .collect())
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: asset_setting::Model,
        input: AssetSettingInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        let rule_set_id = input.rule_set_id.unwrap_or_default();
        must_exist::<asset_rule_set::Entity, _>(txn, rule_set_id, "rule_set_id").await?;
        let kinds = input.accepted_kinds.unwrap_or_default();
        match (row.uploadable(), kinds.is_empty()) {
            (true, true) => return Err(Error::invalid("accepted_kinds", "validation.required")),
            (false, false) => return Err(Error::invalid("accepted_kinds", "validation.server_made_kind")),
            _ => {}
        }
        refuse_kinds_outside(txn, rule_set_id, &kinds).await?;
        let mut active: asset_setting::ActiveModel = row.into();
        active.name_ja = Set(input.name_ja.unwrap_or_default());
        active.name_en = Set(input.name_en.unwrap_or_default());
        active.accepted = Set(serde_json::to_string(&kinds).map_err(|e| Error::Internal(e.to_string()))?);
        active.max_bytes = Set(input.max_bytes.unwrap_or_default());
        active.rule_set_id = Set(rule_set_id);
        active.updated_at = Set(cx.now);
        active.update(txn).await?;
        Ok(())
    }
}

/// 422 on `accepted_kinds` when a kind is one the rule set's kind rule refuses (a set without
/// one allows every kind).
async fn refuse_kinds_outside(db: &impl ConnectionTrait, rule_set_id: i32, kinds: &[Kind]) -> Result<()> {
    let Some(set) = asset_rule_set::Entity::find_by_id(rule_set_id).one(db).await? else {
        return Ok(());
    };
    let allowed: Option<Vec<Kind>> = set.rule_set()?.rules.into_iter().find_map(|rule| match rule.limit {
        Limit::AllowedKinds(kinds) => Some(kinds),
        _ => None,
    });
    let Some(allowed) = allowed else {
        return Ok(());
    };
    let outside: Vec<&str> = kinds.iter().filter(|k| !allowed.contains(k)).map(|k| k.as_str()).collect();
    if outside.is_empty() {
        return Ok(());
    }
    Err(Error::Validation(vec![
        Invalid::new("accepted_kinds", "validation.kinds_outside_rule_set")
            .with("kinds", outside.join(", "))
            .with("allowed", allowed.iter().map(|k| k.as_str()).collect::<Vec<_>>().join(", ")),
    ]))
}
