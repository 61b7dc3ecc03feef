//! Asset settings and their rule sets: one setting per upload kind (spec §7
//! `GET /uploader/asset_settings/{label}`), what it accepts (by content), its byte ceiling and the
//! rule set that checks it.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};
use serde::Serialize;
use utoipa::ToSchema;

use crate::assets::analyse::{Kind, RuleSet};
use crate::db::entities::asset_setting::AssetType;
use crate::db::entities::{asset_rule_set, asset_setting};
use crate::error::{Error, Result};
use crate::types::Lang;

/// The smallest part of a multipart upload but the last (S3's own floor): 5 MiB.
pub const MIN_PART_SIZE: u64 = 5 * 1024 * 1024;
/// The most parts an upload may have (S3's own cap).
pub const MAX_PARTS: u64 = 10_000;

/// An asset setting as clients see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SettingView {
    /// Id.
    pub id: i32,
    /// `avatar`, `furniture`, `scene_asset`, `avatar_part_bundle`, `booth_package`, `housing_video`.
    pub label: String,
    /// Its name in the request's language.
    pub name: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// The asset type its assets get.
    pub asset_type: AssetType,
    /// The kinds of file accepted (decided from the bytes, never from the name).
    pub accepted_kinds: Vec<String>,
    /// Their media types, for a file picker's `accept`.
    pub accepted_mime_types: Vec<String>,
    /// The largest file accepted, in bytes.
    pub max_bytes: i64,
    /// Files up to this size go in one request (`POST /uploader/temporary_uploads`); larger ones
    /// in parts.
    pub single_request_max_bytes: u64,
    /// The rule set that checks uploads of this kind.
    pub rule_set: RuleSetView,
}

/// A rule set as clients see it: its identity and its rules.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RuleSetView {
    /// Id.
    pub id: i32,
    /// Stable name (`vket_avatar`, …).
    pub key: String,
    /// Raised by every change.
    pub version: i32,
    /// Its name in the request's language.
    pub name: String,
    /// The rules (JSON of the analysers' `RuleSet`).
    #[schema(value_type = Object)]
    pub rules: serde_json::Value,
}

impl asset_rule_set::Model {
    /// The rules as the analysers take them (id and version from the row).
    pub fn rule_set(&self) -> Result<RuleSet> {
        let mut rules: RuleSet = serde_json::from_str(&self.rules)
            .map_err(|e| Error::Internal(format!("rule set {} is not valid: {e}", self.key)))?;
        rules.id.clone_from(&self.key);
        rules.version = u32::try_from(self.version).unwrap_or(0);
        Ok(rules)
    }

    /// The view clients see.
    pub fn view(&self, lang: Lang) -> RuleSetView {
        RuleSetView {
            id: self.id,
            key: self.key.clone(),
            version: self.version,
            name: lang.pick(&self.name_ja, &self.name_en).to_string(),
            rules: serde_json::from_str(&self.rules).unwrap_or(serde_json::Value::Null),
        }
    }
}

impl asset_setting::Model {
    /// The setting labelled `label` (404 `unknown_asset_setting`).
    pub async fn by_label(db: &impl ConnectionTrait, label: &str) -> Result<Self> {
        asset_setting::Entity::find()
            .filter(asset_setting::Column::Label.eq(label))
            .one(db)
            .await?
            .ok_or(Error::NotFound { code: "unknown_asset_setting" })
    }

    /// Every setting, in the order they were made (the built-in ones first).
    pub async fn all(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(asset_setting::Entity::find().order_by_asc(asset_setting::Column::Id).all(db).await?)
    }

    /// The setting with id `id`.
    pub async fn by_id(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        asset_setting::Entity::find_by_id(id).one(db).await?.ok_or(Error::NotFound { code: "unknown_asset_setting" })
    }

    /// Whether users upload files of it (a setting that accepts no kind is made by the server,
    /// as the booth maker's frozen scenes are).
    pub fn uploadable(&self) -> bool {
        !self.accepted_kinds().is_empty()
    }

    /// The kinds of file it accepts.
    pub fn accepted_kinds(&self) -> Vec<Kind> {
        serde_json::from_str(&self.accepted).unwrap_or_default()
    }

    /// Its rule set.
    pub async fn rule_set_row(&self, db: &impl ConnectionTrait) -> Result<asset_rule_set::Model> {
        asset_rule_set::Entity::find_by_id(self.rule_set_id)
            .one(db)
            .await?
            .ok_or_else(|| Error::Internal(format!("asset setting {} has no rule set", self.label)))
    }

    /// The view clients see, with its rule set.
    pub async fn view(&self, db: &impl ConnectionTrait, lang: Lang) -> Result<SettingView> {
        let kinds = self.accepted_kinds();
        let rule_set = self.rule_set_row(db).await?;
        Ok(SettingView {
            id: self.id,
            label: self.label.clone(),
            name: lang.pick(&self.name_ja, &self.name_en).to_string(),
            name_ja: self.name_ja.clone(),
            name_en: self.name_en.clone(),
            asset_type: self.asset_type,
            accepted_kinds: kinds.iter().map(|k| k.as_str().to_string()).collect(),
            accepted_mime_types: kinds.iter().map(|k| k.mime_type().to_string()).collect(),
            max_bytes: self.max_bytes,
            single_request_max_bytes: MIN_PART_SIZE,
            rule_set: rule_set.view(lang),
        })
    }
}
