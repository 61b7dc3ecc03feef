//! `vrc_redirects`: an event's short links to VRChat (`/{event}/redirect/{url_key}`).

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{event, vrc_redirect};
use crate::error::{Error, Result};
use crate::forms::checks;

/// The resource.
pub struct VrcRedirects;

/// A VRC redirect as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct VrcRedirectRecord {
    /// Redirect id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// Short key, unique within the event.
    pub url_key: String,
    /// Destination.
    pub url: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
}

/// What staff send for a VRC redirect.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct VrcRedirectInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// Short key: letters, digits, `_`, `-`.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "input::permalink"))]
    pub url_key: Option<String>,
    /// Destination (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(required, custom(function = "checks::http_url"))]
    pub url: Option<String>,
    /// Japanese description.
    #[validate(length(max = 1024), custom(function = "checks::clean_text"))]
    pub description_ja: String,
    /// English description.
    #[validate(length(max = 1024), custom(function = "checks::clean_text"))]
    pub description_en: String,
}

impl Resource for VrcRedirects {
    type Entity = vrc_redirect::Entity;
    type Record = VrcRedirectRecord;
    type Input = VrcRedirectInput;

    const NAME: &'static str = "vrc_redirects";
    const AREA: Area = Area::Support;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "url_key"],
        filter: &["event_id", "url_key"],
        search: &["url_key", "url", "description_ja", "description_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<vrc_redirect::Model>,
    ) -> Result<Vec<VrcRedirectRecord>> {
        Ok(rows
            .into_iter()
            .map(|r| VrcRedirectRecord {
                id: r.id,
                event_id: r.event_id,
                url_key: r.url_key,
                url: r.url,
                description_ja: r.description_ja,
                description_en: r.description_en,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: VrcRedirectInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input, None).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: vrc_redirect::Model,
        input: VrcRedirectInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        let id = row.id;
        fill(txn, row.into(), input, Some(id)).await?.update(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: vrc_redirect::ActiveModel,
    input: VrcRedirectInput,
    id: Option<i32>,
) -> Result<vrc_redirect::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    let url_key = input.url_key.unwrap_or_default();
    let taken = vrc_redirect::Entity::find()
        .filter(vrc_redirect::Column::EventId.eq(event_id))
        .filter(vrc_redirect::Column::UrlKey.eq(url_key.as_str()))
        .one(txn)
        .await?
        .is_some_and(|other| Some(other.id) != id);
    if taken {
        return Err(Error::invalid("url_key", "validation.taken"));
    }
    row.event_id = Set(event_id);
    row.url_key = Set(url_key);
    row.url = Set(input.url.unwrap_or_default());
    row.description_ja = Set(input.description_ja);
    row.description_en = Set(input.description_en);
    Ok(row)
}
