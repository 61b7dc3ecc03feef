//! `companies`: the companies of an event's catalogue (spec §3 Catalog "Company"), with how
//! many highlights and items each has (those are the `company_highlights` and `catalog_items`
//! resources, filtered by `company_id`). A company that still has highlights, items, worlds or
//! exhibitors cannot be deleted; make it private instead.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::image_slot::ImageSlot;
use crate::admin::api::input::{self, blank};
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{catalog_item, company, company_highlight, company_world, event, exhibitor};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct Companies;

/// A company as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct CompanyRecord {
    /// Company id.
    pub id: i32,
    /// Its event.
    pub event_id: i32,
    /// Position in lists.
    pub display_index: i32,
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
    /// The company's website.
    pub website_link: Option<String>,
    /// Japanese name of the website.
    pub site_name_ja: String,
    /// English name of the website.
    pub site_name_en: String,
    /// Its page on VketCloud.
    pub vmarket_cloud_url: Option<String>,
    /// Shown on the public site.
    pub is_public: bool,
    /// Highlight images.
    pub highlight_count: u64,
    /// Catalogue items.
    pub item_count: u64,
}

/// What staff send for a company.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct CompanyInput {
    /// Its event.
    #[validate(required)]
    pub event_id: Option<i32>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
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
    /// The company's website (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub website_link: Option<String>,
    /// Japanese name of the website.
    #[validate(length(max = 128), custom(function = "checks::clean_text"))]
    pub site_name_ja: String,
    /// English name of the website.
    #[validate(length(max = 128), custom(function = "checks::clean_text"))]
    pub site_name_en: String,
    /// Its page on VketCloud (http or https).
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "checks::http_url"))]
    pub vmarket_cloud_url: Option<String>,
    /// Shown on the public site.
    pub is_public: bool,
    /// Thumbnail.
    #[serde(deserialize_with = "blank")]
    #[validate(custom(function = "input::picture"))]
    pub thumbnail: Option<String>,
}

impl Resource for Companies {
    type Entity = company::Entity;
    type Record = CompanyRecord;
    type Input = CompanyInput;

    const NAME: &'static str = "companies";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["event_id", "display_index", "name_ja", "name_en", "is_public"],
        filter: &["event_id", "is_public"],
        search: &["name_ja", "name_en", "description_ja", "description_en"],
        computed: &[],
    };
    const IMAGES: &'static [ImageSlot] = &[ImageSlot::thumbnail("thumbnail")];

    async fn records<C: ConnectionTrait + Sync>(db: &C, rows: Vec<company::Model>) -> Result<Vec<CompanyRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for c in rows {
            let highlight_count = company_highlight::Entity::find()
                .filter(company_highlight::Column::CompanyId.eq(c.id))
                .count(db)
                .await?;
            let item_count =
                catalog_item::Entity::find().filter(catalog_item::Column::CompanyId.eq(c.id)).count(db).await?;
            out.push(CompanyRecord {
                id: c.id,
                event_id: c.event_id,
                display_index: c.display_index,
                name_ja: c.name_ja,
                name_en: c.name_en,
                description_ja: c.description_ja,
                description_en: c.description_en,
                thumbnail: c.thumbnail,
                website_link: c.website_link,
                site_name_ja: c.site_name_ja,
                site_name_en: c.site_name_en,
                vmarket_cloud_url: c.vmarket_cloud_url,
                is_public: c.is_public,
                highlight_count,
                item_count,
            });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: CompanyInput, _cx: &Cx<'_>) -> Result<i32> {
        let row: company::ActiveModel = Default::default();
        Ok(fill(txn, row, input).await?.insert(txn).await?.id)
    }

    async fn update(txn: &DatabaseTransaction, row: company::Model, input: CompanyInput, _cx: &Cx<'_>) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: company::Model, _cx: &Cx<'_>) -> Result<()> {
        let id = row.id;
        Uses::new()
            .count(
                txn,
                "company_highlights",
                company_highlight::Entity::find().filter(company_highlight::Column::CompanyId.eq(id)),
            )
            .await?
            .count(txn, "catalog_items", catalog_item::Entity::find().filter(catalog_item::Column::CompanyId.eq(id)))
            .await?
            .count(txn, "worlds", company_world::Entity::find().filter(company_world::Column::CompanyId.eq(id)))
            .await?
            .count(txn, "exhibitors", exhibitor::Entity::find().filter(exhibitor::Column::CompanyId.eq(id)))
            .await?
            .refuse("in_use")?;
        company::Entity::delete_by_id(id).exec(txn).await?;
        Ok(())
    }
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: company::ActiveModel,
    input: CompanyInput,
) -> Result<company::ActiveModel> {
    let event_id = input.event_id.unwrap_or_default();
    must_exist::<event::Entity, _>(txn, event_id, "event_id").await?;
    row.event_id = Set(event_id);
    row.display_index = Set(input.display_index);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.description_ja = Set(input.description_ja);
    row.description_en = Set(input.description_en);
    row.website_link = Set(input.website_link);
    row.site_name_ja = Set(input.site_name_ja);
    row.site_name_en = Set(input.site_name_en);
    row.vmarket_cloud_url = Set(input.vmarket_cloud_url);
    row.is_public = Set(input.is_public);
    row.thumbnail = Set(input.thumbnail);
    Ok(row)
}
