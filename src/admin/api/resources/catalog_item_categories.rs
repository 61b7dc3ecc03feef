//! `catalog_item_categories`: the categories catalogue items are filed under, each in a group
//! (general items or company items). A category with items cannot be deleted.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::input::blank;
use crate::admin::api::resource::Resource;
use crate::admin::api::resource::must_exist;
use crate::admin::api::uses::Uses;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::{catalog_item, catalog_item_category, catalog_item_category_group};
use crate::error::Result;
use crate::forms::checks;

/// The resource.
pub struct CatalogItemCategories;

/// A category as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct CatalogItemCategoryRecord {
    /// Category id.
    pub id: i32,
    /// Its group.
    pub group_id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Position in lists.
    pub display_index: i32,
    /// Items filed under it.
    pub item_count: u64,
}

/// What staff send for a category.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct CatalogItemCategoryInput {
    /// Its group.
    #[validate(required)]
    pub group_id: Option<i32>,
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 64), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
    /// Position in lists.
    #[validate(range(min = 0, max = 100000))]
    pub display_index: i32,
}

impl Resource for CatalogItemCategories {
    type Entity = catalog_item_category::Entity;
    type Record = CatalogItemCategoryRecord;
    type Input = CatalogItemCategoryInput;

    const NAME: &'static str = "catalog_item_categories";
    const AREA: Area = Area::Event;
    const ACTIONS: &'static [Action] = Action::CRUD;
    const COLUMNS: Columns = Columns {
        sort: &["group_id", "display_index", "name_ja", "name_en"],
        filter: &["group_id"],
        search: &["name_ja", "name_en"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(
        db: &C,
        rows: Vec<catalog_item_category::Model>,
    ) -> Result<Vec<CatalogItemCategoryRecord>> {
        let mut out = Vec::with_capacity(rows.len());
        for c in rows {
            let item_count = items(db, c.id).await?;
            out.push(CatalogItemCategoryRecord {
                id: c.id,
                group_id: c.group_id,
                name_ja: c.name_ja,
                name_en: c.name_en,
                display_index: c.display_index,
                item_count,
            });
        }
        Ok(out)
    }

    async fn create(txn: &DatabaseTransaction, input: CatalogItemCategoryInput, _cx: &Cx<'_>) -> Result<i32> {
        Ok(fill(txn, Default::default(), input).await?.insert(txn).await?.id)
    }

    async fn update(
        txn: &DatabaseTransaction,
        row: catalog_item_category::Model,
        input: CatalogItemCategoryInput,
        _cx: &Cx<'_>,
    ) -> Result<()> {
        fill(txn, row.into(), input).await?.update(txn).await?;
        Ok(())
    }

    async fn delete(txn: &DatabaseTransaction, row: catalog_item_category::Model, _cx: &Cx<'_>) -> Result<()> {
        Uses::new().add("catalog_items", items(txn, row.id).await?).refuse("in_use")?;
        catalog_item_category::Entity::delete_by_id(row.id).exec(txn).await?;
        Ok(())
    }
}

async fn items<C: ConnectionTrait>(db: &C, category_id: i32) -> Result<u64> {
    Ok(catalog_item::Entity::find().filter(catalog_item::Column::CategoryId.eq(category_id)).count(db).await?)
}

async fn fill(
    txn: &DatabaseTransaction,
    mut row: catalog_item_category::ActiveModel,
    input: CatalogItemCategoryInput,
) -> Result<catalog_item_category::ActiveModel> {
    let group_id = input.group_id.unwrap_or_default();
    must_exist::<catalog_item_category_group::Entity, _>(txn, group_id, "group_id").await?;
    row.group_id = Set(group_id);
    row.name_ja = Set(input.name_ja.unwrap_or_default());
    row.name_en = Set(input.name_en.unwrap_or_default());
    row.display_index = Set(input.display_index);
    Ok(row)
}
