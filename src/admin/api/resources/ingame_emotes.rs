//! `ingame_emotes`: the emotes players put on their pallets in game (issue 30 item 3, spec §3
//! "Emote"): names in both languages, icon and motion URLs, list order, the client version each
//! needs, whether everyone owns it, and the blacklist (a blacklisted emote stays listed, flagged,
//! and no pallet can take it). Deleting an emote takes it off every pallet.

use chrono::{DateTime, Utc};
use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::ingame_emote;
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct IngameEmotes;

/// An emote as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct IngameEmoteRecord {
    /// Id.
    pub id: i32,
    /// Japanese name.
    pub name: String,
    /// English name.
    pub name_en: String,
    /// Its icon.
    pub icon_url: String,
    /// The motion the game loads.
    pub json_url: String,
    /// Position in lists.
    pub emote_order: i32,
    /// The client version it needs.
    pub version: i32,
    /// Everyone owns it.
    pub is_free: bool,
    /// Blacklisted: on no pallet.
    pub is_blacklist: bool,
    /// Made.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

/// What staff send for an emote.
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct IngameEmoteInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Its icon (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(required, custom(function = "checks::http_url"))]
    pub icon_url: Option<String>,
    /// The motion the game loads (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(required, custom(function = "checks::http_url"))]
    pub json_url: Option<String>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub emote_order: i32,
    /// The client version it needs, at least 1.
    #[validate(range(min = 1, max = 100000))]
    pub version: i32,
    /// Everyone owns it.
    pub is_free: bool,
    /// Blacklisted.
    pub is_blacklist: bool,
}

impl Default for IngameEmoteInput {
    fn default() -> Self {
        Self {
            name: None,
            name_en: None,
            icon_url: None,
            json_url: None,
            emote_order: 0,
            version: 1,
            is_free: true,
            is_blacklist: false,
        }
    }
}

impl Resource for IngameEmotes {
    type Entity = ingame_emote::Entity;
    type Record = IngameEmoteRecord;
    type Input = IngameEmoteInput;

    const NAME: &'static str = "ingame_emotes";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["emote_order", "name", "name_en", "version", "created_at"],
        filter: &["is_free", "is_blacklist"],
        search: &["name", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<ingame_emote::Model>,
    ) -> Result<Vec<IngameEmoteRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| IngameEmoteRecord {
                id: r.id,
                name: r.name,
                name_en: r.name_en,
                icon_url: r.icon_url,
                json_url: r.json_url,
                emote_order: r.emote_order,
                version: r.version,
                is_free: r.is_free,
                is_blacklist: r.is_blacklist,
                created_at: r.created_at,
                updated_at: r.updated_at,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: IngameEmoteInput, cx: &Cx<'_>) -> Result<i32> {
        let row = ingame_emote::ActiveModel { created_at: Set(cx.now), ..Default::default() };
        Ok(fill(row, input, cx).insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: ingame_emote::Model,
        input: IngameEmoteInput,
        cx: &Cx<'_>,
    ) -> Result<()> {
        fill(row.into(), input, cx).update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: ingame_emote::Model, _cx: &Cx<'_>) -> Result<()> {
        crate::ingame::model::emotes::off_every_pallet(txn, row.id).await?;
        ingame_emote::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

fn fill(mut row: ingame_emote::ActiveModel, input: IngameEmoteInput, cx: &Cx<'_>) -> ingame_emote::ActiveModel {
    row.name = Set(input.name.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.icon_url = Set(input.icon_url.unwrap_or_default());
    row.json_url = Set(input.json_url.unwrap_or_default());
    row.emote_order = Set(input.emote_order);
    row.version = Set(input.version);
    row.is_free = Set(input.is_free);
    row.is_blacklist = Set(input.is_blacklist);
    row.updated_at = Set(cx.now);
    row
}
