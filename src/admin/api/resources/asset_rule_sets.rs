//! `asset_rule_sets`: the rule sets the uploader checks files against (ASSETS.md "Rule sets"),
//! as data staff edit. The rules are the JSON list of [`Rule`]s the analysers take; the server
//! reads them with the analysers' own types, so a set that saves is a set the pipeline can use.
//! A change of the rules raises `version` (names alone do not): each report names the set's key
//! and the version it was checked against, and the next upload uses the new rules. The key is
//! fixed once made. A set an asset setting uses, or a version was checked against, cannot be
//! deleted.

use std::collections::HashSet;

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::assets::analyse::{Rule, RuleSet};
use crate::db::entities::{asset_rule_set, asset_setting, asset_version};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;

/// The most rules one set may hold.
const MAX_RULES: usize = 100;

/// The resource.
pub struct AssetRuleSets;

/// A rule set as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct AssetRuleSetRecord {
    /// Id.
    pub id: i32,
    /// Stable name, named by every report checked against it.
    pub key: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Raised by every change of the rules.
    pub version: i32,
    /// The rules (the analysers' `Rule` list).
    pub rules: Value,
    /// How many rules.
    pub rule_count: usize,
    /// The asset settings that check uploads with it (their labels).
    pub used_by: Vec<String>,
    /// The staff member who changed it last (none for the built-in sets).
    pub updated_by: Option<i32>,
    /// Last change.
    pub updated_at: chrono::DateTime<chrono::Utc>,
}

/// What staff send for a rule set.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AssetRuleSetInput {
    /// Stable name: letters, digits, `_` or `-`; fixed once made.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "input::permalink"))]
    pub key: Option<String>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// The rules: a JSON list of rules, or the text of one (the console's editor sends text).
    #[validate(required)]
    pub rules: Option<Value>,
}

impl Resource for AssetRuleSets {
    type Entity = asset_rule_set::Entity;
    type Record = AssetRuleSetRecord;
    type Input = AssetRuleSetInput;

    const NAME: &'static str = "asset_rule_sets";
    const AREA: Area = Area::Assets;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["key", "version", "updated_at"],
        filter: &[],
        search: &["key", "name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<asset_rule_set::Model>,
    ) -> Result<Vec<AssetRuleSetRecord>> {
        let settings = asset_setting::Entity::find().all(db).await?;
        Ok(rows
            .into_iter()
            .map(|row| {
                let rules = row.rule_set().map(|set| set.rules).unwrap_or_default();
                AssetRuleSetRecord {
                    id: row.id,
                    used_by: settings.iter().filter(|s| s.rule_set_id == row.id).map(|s| s.label.clone()).collect(),
                    key: row.key,
                    name_ja: row.name_ja,
                    name_en: row.name_en,
                    version: row.version,
                    rule_count: rules.len(),
                    rules: serde_json::to_value(&rules).unwrap_or(Value::Null),
                    updated_by: row.updated_by,
                    updated_at: row.updated_at,
                }
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: AssetRuleSetInput, cx: &Cx<'_>) -> Result<i32> {
        let key = input.key.clone().unwrap_or_default();
        let taken =
            asset_rule_set::Entity::find().filter(asset_rule_set::Column::Key.eq(key.as_str())).one(txn).await?;
        if taken.is_some() {
            return Err(Error::invalid("key", "validation.taken"));
        }
        let rules = rules_of(input.rules.clone())?;
        let row = asset_rule_set::ActiveModel {
            key: Set(key.clone()),
            version: Set(1),
            rules: Set(stored(RuleSet { id: key, version: 1, rules })?),
            created_at: Set(cx.now),
            ..Default::default()
        };
        Ok(fill(row, input, cx).insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: asset_rule_set::Model,
        input: AssetRuleSetInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        if input.key.as_deref() != Some(row.key.as_str()) {
            return Err(Error::invalid("key", "validation.key_fixed"));
        }
        let rules = rules_of(input.rules.clone())?;
        let before = row.rule_set()?.rules;
        let version = if rules == before { row.version } else { row.version + 1 };
        let mut active: asset_rule_set::ActiveModel = row.clone().into();
        active.version = Set(version);
        active.rules =
            Set(stored(RuleSet { id: row.key, version: u32::try_from(version).unwrap_or(u32::MAX), rules })?);
        fill(active, input, cx).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: asset_rule_set::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new()
            .count(
                txn,
                "asset_settings",
                asset_setting::Entity::find().filter(asset_setting::Column::RuleSetId.eq(row.id)),
            )
            .await?
            .count(
                txn,
                "asset_versions",
                asset_version::Entity::find().filter(asset_version::Column::RuleSetId.eq(row.id)),
            )
            .await?
            .refuse("in_use")?;
        asset_rule_set::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

/// Names, the editor and the time; the key, version and rules are set by the caller.
fn fill(mut row: asset_rule_set::ActiveModel, input: AssetRuleSetInput, cx: &Cx<'_>) -> asset_rule_set::ActiveModel {
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.updated_by = Set(Some(cx.staff.id));
    row.updated_at = Set(cx.now);
    row
}

/// The rules staff sent, read with the analysers' types: a list of at most [`MAX_RULES`] rules
/// with distinct, non-empty ids.
fn rules_of(value: Option<Value>) -> Result<Vec<Rule>> {
    let unreadable = |e: serde_json::Error| {
        Error::Validation(vec![Invalid::new("rules", "validation.rules_json").with("detail", e)])
    };
    let value = match value.unwrap_or(Value::Null) {
        Value::String(text) => serde_json::from_str(&text).map_err(unreadable)?,
        other => other,
    };
    let rules: Vec<Rule> = serde_json::from_value(value).map_err(unreadable)?;
    if rules.len() > MAX_RULES {
        return Err(Error::Validation(vec![Invalid::new("rules", "validation.too_many_rules").with("max", MAX_RULES)]));
    }
    let mut seen = HashSet::new();
    if let Some(bad) = rules.iter().find(|r| r.rule_id.trim().is_empty() || !seen.insert(r.rule_id.as_str())) {
        return Err(Error::Validation(vec![Invalid::new("rules", "validation.rule_id").with("id", &bad.rule_id)]));
    }
    Ok(rules)
}

/// The stored JSON of a set.
fn stored(set: RuleSet) -> Result<String> {
    serde_json::to_string(&set).map_err(|e| Error::Internal(format!("rule set {}: {e}", set.id)))
}
