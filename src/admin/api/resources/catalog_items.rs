//! `catalog_items`: the items of an event's catalogue, each an exhibitor's or a company's
//! (exactly one of `exhibitor_id`, `company_id`, of the item's event), filed under a category.
//! `filter={"company_id":…}` lists a company's items.

use sea_orm::{ActiveModelTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, Set};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{catalog_item, catalog_item_category, company, event, exhibitor};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;

/// The resource.
pub struct CatalogItems;

/// An item as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogItemRecord {
    /// Item id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// The exhibitor selling it, if an exhibitor's.
    pub exhibitor_id: Option<i32>,
    /// The company selling it, if a company's.
    pub company_id: Option<i32>,
    /// Its category.
    pub category_id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Japanese description.
    pub description_ja: String,
    /// English description.
    pub description_en: String,
    /// Thumbnail.
    pub thumbnail: Option<String>,
    /// Where to get it.
    pub url: Option<String>,
    /// Given away in the world.
    pub is_distributable: bool,
    /// Price in JPY, if sold.
    pub price: Option<i32>,
    /// Position in lists.
    pub display_index: i32,
}

/// What staff send for an item.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct CatalogItemInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// The exhibitor selling it.
    pub exhibitor_id: Option<i32>,
    /// The company selling it.
    pub company_id: Option<i32>,
    /// Its category.
    #[validate(required)]
    pub category_id: Option<i32>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Japanese description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub description_ja: String,
    /// English description.
    #[validate(length(max = 4096), custom(function = "checks::clean_text"))]
    pub description_en: String,
    /// Where to get it (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub url: Option<String>,
    /// Given away in the world.
    pub is_distributable: bool,
    /// Price in JPY.
    #[validate(range(min = 0, max = 10000000))]
    pub price: Option<i32>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
    /// Thumbnail.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub thumbnail: Option<String>,
}

impl Resource for CatalogItems {
    type Entity = catalog_item::Entity;
    type Record = CatalogItemRecord;
    type Input = CatalogItemInput;

    const NAME: &'static str = "catalog_items";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "category_id", "display_index", "name_ja", "name_en", "price"],
        filter: &["event_id", "exhibitor_id", "company_id", "category_id", "is_distributable", "price"],
        search: &["name_ja", "name_en", "description_ja", "description_en"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[ImageSlot::square("thumbnail")];

    async fn records<C: ConnectionTrait + Sync>(
        _db: &C,
        rows: Vec<catalog_item::Model>,
    ) -> Result<Vec<CatalogItemRecord>> {
        Ok(rows
            .into_iter()
            .map(|i| CatalogItemRecord {
                id: i.id,
                event_id: i.event_id,
                exhibitor_id: i.exhibitor_id,
                company_id: i.company_id,
                category_id: i.category_id,
                name_ja: i.name_ja,
                name_en: i.name_en,
                description_ja: i.description_ja,
                description_en: i.description_en,
                thumbnail: i.thumbnail,
                url: i.url,
                is_distributable: i.is_distributable,
                price: i.price,
                display_index: i.display_index,
            })
            .collect())
    }

    async fn create(txn: &DatabaseTransaction, input: CatalogItemInput, _cx: &Cx<'_>) -> Result<i32> {
        let row: catalog_item::ActiveModel = Default::default();
        Ok(fill(txn, row, input).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: catalog_item::Model,
        input: CatalogItemInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }
}

/// Exactly one seller, of the item's event.
async fn seller_problem(txn: &DatabaseTransaction, input: &CatalogItemInput, event_id: i32) -> Result<Option<Invalid>> {
    Ok(match (input.exhibitor_id, input.company_id) {
        (Some(id), None) => {
            let found = exhibitor::Entity::find_by_id(id).one(txn).await?;
            (found.map(|e| e.event_id) != Some(event_id))
                .then(|| Invalid::new("exhibitor_id", "validation.unknown_reference"))
        }
        (None, Some(id)) => {
            let found = company::Entity::find_by_id(id).one(txn).await?;
            (found.map(|c| c.event_id) != Some(event_id))
                .then(|| Invalid::new("company_id", "validation.unknown_reference"))
        }
        (Some(_), Some(_)) => Some(Invalid::new("company_id", "validation.one_seller")),
        (None, None) => Some(Invalid::new("exhibitor_id", "validation.one_seller")),
    })
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: catalog_item::ActiveModel,
    input: CatalogItemInput,
) -> Result<catalog_item::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    let category_id = input.category_id.unwrap_or_default();
    let mut problems = Vec::new();
    if catalog_item_category::Entity::find_by_id(category_id).one(txn).await?.is_none() {
        problems.push(Invalid::new("category_id", "validation.unknown_reference"));
    }
    problems.extend(seller_problem(txn, &input, event_id).await?);
    if !problems.is_empty() {
        return Err(Error::Validation(problems));
    }
    row.event_id = Set(event_id);
    row.exhibitor_id = Set(input.exhibitor_id);
    row.company_id = Set(input.company_id);
    row.category_id = Set(category_id);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.description_ja = Set(input.description_ja);
    row.description_en = Set(input.description_en);
    row.url = Set(input.url);
    row.is_distributable = Set(input.is_distributable);
    row.price = Set(input.price);
    row.display_index = Set(input.display_index);
    row.thumbnail = Set(input.thumbnail);
    Ok(row)
}
