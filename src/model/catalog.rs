//! The event catalogue: category groups, catalogue items (filtered keyword search, pagination,
//! client views), a world's catalogue summary, and the event-open gate (spec §4).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Query;
use sea_orm::{Condition, ConnectionTrait, DatabaseBackend, Order, PaginatorTrait, QueryOrder, QuerySelect, Select};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{
    catalog_item, catalog_item_category, catalog_item_category_group, circle, company, company_world, exhibitor,
};
use crate::error::Result;
use crate::model::event::EventWithPhases;
use crate::model::pagination::PageRequest;
use crate::model::phase::PhaseType;
use crate::model::search;
use crate::model::tree::Tree;
use crate::types::{Lang, Localized, localized};

/// Defined with its entity (`db::entities::catalog_item_category_group`); part of this model's API.
pub use crate::db::entities::catalog_item_category_group::CategoryGroupType;

/// Defined with its entity (`db::entities::catalog_item`); part of this model's API.
pub use crate::db::entities::catalog_item::OwnerType;

/// Whether the catalogue of `event` is open to the public at `now`: exhibitor and company
/// details, the catalogue of a world, keyword search and launch buttons unlock when the
/// event-open phase is reached (spec §4), and stay open afterwards as an archive.
pub fn is_open(event: &EventWithPhases, now: DateTime<Utc>) -> bool {
    event.reached(PhaseType::EventOpen, now)
}

/// A catalogue item category.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CategoryView {
    /// Category id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Sort position within its group.
    pub display_index: i32,
}

impl CategoryView {
    /// The view of `c` in `lang`.
    pub fn new(c: &catalog_item_category::Model, lang: Lang) -> Self {
        Self {
            id: c.id,
            name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()),
            display_index: c.display_index,
        }
    }
}

/// A category group with its categories (spec §3 Catalog "Category group").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CategoryGroupView {
    /// Group id.
    pub id: i32,
    /// General (exhibitor items) or company.
    pub group_type: CategoryGroupType,
    /// Sort position.
    pub display_index: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// The group's categories in display order.
    pub categories: Vec<CategoryView>,
}

impl CategoryGroupView {
    /// The groups of `group_type` with their categories, in display order, from the event tree.
    pub fn from_tree(tree: &Tree, group_type: CategoryGroupType, lang: Lang) -> Vec<Self> {
        tree.category_groups
            .iter()
            .filter(|g| g.group_type == group_type)
            .map(|g| Self {
                id: g.id,
                group_type: g.group_type,
                display_index: g.display_index,
                name: Localized::new(lang, g.name_ja.clone(), g.name_en.clone()),
                categories: tree
                    .categories
                    .iter()
                    .filter(|c| c.group_id == g.id)
                    .map(|c| CategoryView::new(c, lang))
                    .collect(),
            })
            .collect()
    }

    /// The groups of `group_type` with their categories, in display order.
    pub async fn load(db: &impl ConnectionTrait, group_type: CategoryGroupType, lang: Lang) -> Result<Vec<Self>> {
        let groups = catalog_item_category_group::Entity::find()
            .filter(catalog_item_category_group::Column::GroupType.eq(group_type))
            .order_by_asc(catalog_item_category_group::Column::DisplayIndex)
            .order_by_asc(catalog_item_category_group::Column::Id)
            .all(db)
            .await?;
        let mut categories: HashMap<i32, Vec<CategoryView>> = HashMap::new();
        for c in catalog_item_category::Entity::find()
            .filter(catalog_item_category::Column::GroupId.is_in(groups.iter().map(|g| g.id)))
            .order_by_asc(catalog_item_category::Column::DisplayIndex)
            .order_by_asc(catalog_item_category::Column::Id)
            .all(db)
            .await?
        {
            categories.entry(c.group_id).or_default().push(CategoryView::new(&c, lang));
        }
        Ok(groups
            .into_iter()
            .map(|g| Self {
                id: g.id,
                group_type: g.group_type,
                display_index: g.display_index,
                name: Localized::new(lang, g.name_ja, g.name_en),
                categories: categories.remove(&g.id).unwrap_or_default(),
            })
            .collect())
    }
}

/// A catalogue item as clients see it (spec §3 Catalog "Catalog item").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CatalogItemView {
    /// Item id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// Thumbnail.
    pub thumbnail: Option<String>,
    /// Where to get it.
    pub url: Option<String>,
    /// Handed out free at the event.
    pub is_distributable: bool,
    /// Price in yen, if sold.
    pub price: Option<i32>,
    /// Its category.
    pub category: CategoryView,
    /// The exhibitor offering it (exhibitor items).
    pub exhibitor_id: Option<i32>,
    /// The company offering it (company items).
    pub company_id: Option<i32>,
    /// The name of whoever offers it, in the requested language.
    pub owner_name: String,
}

/// Filters of catalogue item lists.
#[derive(Debug, Clone)]
pub struct ItemFilter {
    /// Exhibitor items or company items.
    pub owner: OwnerType,
    /// Words that must all appear in a name or description (either language).
    pub keyword: Option<String>,
    /// Only items shown in this world.
    pub world_id: Option<i32>,
    /// Only this category.
    pub category_id: Option<i32>,
    /// Only items that are (or are not) handed out free.
    pub is_distributable: Option<bool>,
}

impl ItemFilter {
    /// A filter for `owner` items with nothing else set.
    pub fn of(owner: OwnerType) -> Self {
        Self { owner, keyword: None, world_id: None, category_id: None, is_distributable: None }
    }
}

/// One page of items.
pub struct ItemPage {
    /// The items on this page.
    pub items: Vec<catalog_item::Model>,
    /// How many match.
    pub count: u64,
    /// How many the event's catalogue holds for that owner type.
    pub all: u64,
}

/// Ids of the event's exhibitors whose circle is not suspended.
pub(crate) fn visible_exhibitors(event_id: i32) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(exhibitor::Column::Id)
        .from(exhibitor::Entity)
        .and_where(exhibitor::Column::EventId.eq(event_id))
        .cond_where(visible_circle())
        .to_owned()
}

/// The exhibitor has no circle or its circle is not suspended.
pub(crate) fn visible_circle() -> Condition {
    Condition::any().add(exhibitor::Column::CircleId.is_null()).add(
        exhibitor::Column::CircleId.in_subquery(
            Query::select()
                .column(circle::Column::Id)
                .from(circle::Entity)
                .and_where(circle::Column::IsSuspended.eq(false))
                .to_owned(),
        ),
    )
}

/// Ids of the event's public companies.
pub(crate) fn public_companies(event_id: i32) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(company::Column::Id)
        .from(company::Entity)
        .and_where(company::Column::EventId.eq(event_id))
        .and_where(company::Column::IsPublic.eq(true))
        .to_owned()
}

impl catalog_item::Model {
    fn owned_by(event_id: i32, owner: OwnerType) -> Condition {
        let cond = Condition::all().add(catalog_item::Column::EventId.eq(event_id));
        match owner {
            OwnerType::Exhibitor => {
                cond.add(catalog_item::Column::ExhibitorId.in_subquery(visible_exhibitors(event_id)))
            }
            OwnerType::Company => cond.add(catalog_item::Column::CompanyId.in_subquery(public_companies(event_id))),
        }
    }

    /// The query of items of `event_id` matching `filter`, ordered: name matches first, then
    /// display order. Also used by the query-plan tests.
    pub fn filtered(backend: DatabaseBackend, event_id: i32, filter: &ItemFilter) -> Select<catalog_item::Entity> {
        let mut cond = Self::owned_by(event_id, filter.owner);
        if let Some(id) = filter.category_id {
            cond = cond.add(catalog_item::Column::CategoryId.eq(id));
        }
        if let Some(flag) = filter.is_distributable {
            cond = cond.add(catalog_item::Column::IsDistributable.eq(flag));
        }
        if let Some(world_id) = filter.world_id {
            cond = cond.add(match filter.owner {
                OwnerType::Exhibitor => catalog_item::Column::ExhibitorId.in_subquery(
                    Query::select()
                        .column(exhibitor::Column::Id)
                        .from(exhibitor::Entity)
                        .and_where(exhibitor::Column::WorldId.eq(world_id))
                        .to_owned(),
                ),
                OwnerType::Company => catalog_item::Column::CompanyId.in_subquery(
                    Query::select()
                        .column(company_world::Column::CompanyId)
                        .from(company_world::Entity)
                        .and_where(company_world::Column::WorldId.eq(world_id))
                        .to_owned(),
                ),
            });
        }
        let keyword = filter.keyword.as_deref().unwrap_or("");
        if let Some(m) = search::matches(backend, search::ITEMS, keyword) {
            cond = cond.add(m);
        }
        let mut select = catalog_item::Entity::find().filter(cond);
        if let Some(rank) = search::name_rank(backend, search::ITEMS, keyword) {
            select = select.order_by(rank, Order::Asc);
        }
        select.order_by_asc(catalog_item::Column::DisplayIndex).order_by_asc(catalog_item::Column::Id)
    }

    /// One page of the items of `event_id` matching `filter` (see [`Self::filtered`]).
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        filter: &ItemFilter,
        page: PageRequest,
    ) -> Result<ItemPage> {
        let select = Self::filtered(db.get_database_backend(), event_id, filter);
        let count = select.clone().count(db).await?;
        let unfiltered = filter.keyword.is_none()
            && filter.category_id.is_none()
            && filter.world_id.is_none()
            && filter.is_distributable.is_none();
        let all = if unfiltered {
            count
        } else {
            catalog_item::Entity::find().filter(Self::owned_by(event_id, filter.owner)).count(db).await?
        };
        let items = select.offset(page.offset()).limit(page.limit).all(db).await?;
        Ok(ItemPage { items, count, all })
    }

    /// [`Self::page`], with the unfiltered count taken from the event tree, and the filtered count
    /// from the page itself when it is the last one ([`PageRequest::count_from_rows`]): one or
    /// two statements less.
    pub async fn page_in(
        db: &impl ConnectionTrait,
        tree: &Tree,
        event_id: i32,
        filter: &ItemFilter,
        page: PageRequest,
    ) -> Result<ItemPage> {
        let Some(all) = tree.item_counts.get(&(event_id, filter.owner)).copied() else {
            return Self::page(db, event_id, filter, page).await;
        };
        let select = Self::filtered(db.get_database_backend(), event_id, filter);
        let items = select.clone().offset(page.offset()).limit(page.limit).all(db).await?;
        let count = match page.count_from_rows(items.len()) {
            Some(count) => count,
            None => select.count(db).await?,
        };
        Ok(ItemPage { items, count, all })
    }

    /// How many items the catalogue of `event_id` holds for `owner` (the unfiltered count).
    pub async fn count_all(db: &impl ConnectionTrait, event_id: i32, owner: OwnerType) -> Result<u64> {
        Ok(catalog_item::Entity::find().filter(Self::owned_by(event_id, owner)).count(db).await?)
    }

    /// Every item of one exhibitor, in display order.
    pub async fn of_exhibitor(db: &impl ConnectionTrait, exhibitor_id: i32) -> Result<Vec<Self>> {
        Ok(catalog_item::Entity::find()
            .filter(catalog_item::Column::ExhibitorId.eq(exhibitor_id))
            .order_by_asc(catalog_item::Column::DisplayIndex)
            .order_by_asc(catalog_item::Column::Id)
            .all(db)
            .await?)
    }

    /// Every item of one company, in display order.
    pub async fn of_company(db: &impl ConnectionTrait, company_id: i32) -> Result<Vec<Self>> {
        Ok(catalog_item::Entity::find()
            .filter(catalog_item::Column::CompanyId.eq(company_id))
            .order_by_asc(catalog_item::Column::DisplayIndex)
            .order_by_asc(catalog_item::Column::Id)
            .all(db)
            .await?)
    }

    /// How many items each of the given exhibitors offers.
    pub async fn count_by_exhibitor(db: &impl ConnectionTrait, ids: Vec<i32>) -> Result<HashMap<i32, u64>> {
        let rows: Vec<(Option<i32>, i64)> = catalog_item::Entity::find()
            .select_only()
            .column(catalog_item::Column::ExhibitorId)
            .column_as(catalog_item::Column::Id.count(), "n")
            .filter(catalog_item::Column::ExhibitorId.is_in(ids))
            .group_by(catalog_item::Column::ExhibitorId)
            .into_tuple()
            .all(db)
            .await?;
        Ok(rows.into_iter().filter_map(|(id, n)| Some((id?, n as u64))).collect())
    }
}

impl CatalogItemView {
    /// Views of `items` in `lang`, with categories and owner names in three queries.
    pub async fn load(db: &impl ConnectionTrait, items: Vec<catalog_item::Model>, lang: Lang) -> Result<Vec<Self>> {
        let categories: HashMap<i32, catalog_item_category::Model> = catalog_item_category::Entity::find()
            .filter(catalog_item_category::Column::Id.is_in(items.iter().map(|i| i.category_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        Self::with_categories(db, items, &categories, lang).await
    }

    /// Views of `items` in `lang`, categories from the event tree and owner names in one query
    /// per owner type present.
    pub async fn load_with_tree(
        db: &impl ConnectionTrait,
        tree: &Tree,
        items: Vec<catalog_item::Model>,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let categories: HashMap<i32, catalog_item_category::Model> =
            tree.categories.iter().map(|c| (c.id, c.clone())).collect();
        Self::with_categories(db, items, &categories, lang).await
    }

    async fn with_categories(
        db: &impl ConnectionTrait,
        items: Vec<catalog_item::Model>,
        categories: &HashMap<i32, catalog_item_category::Model>,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let exhibitor_ids: Vec<i32> = items.iter().filter_map(|i| i.exhibitor_id).collect();
        let exhibitors: HashMap<i32, String> = if exhibitor_ids.is_empty() {
            HashMap::new()
        } else {
            exhibitor::Entity::find()
                .select_only()
                .columns([exhibitor::Column::Id, exhibitor::Column::NameJa, exhibitor::Column::NameEn])
                .filter(exhibitor::Column::Id.is_in(exhibitor_ids))
                .into_tuple::<(i32, String, String)>()
                .all(db)
                .await?
                .into_iter()
                .map(|(id, ja, en)| (id, lang.pick(&ja, &en).to_string()))
                .collect()
        };
        let company_ids: Vec<i32> = items.iter().filter_map(|i| i.company_id).collect();
        let companies: HashMap<i32, String> = if company_ids.is_empty() {
            HashMap::new()
        } else {
            company::Entity::find()
                .select_only()
                .columns([company::Column::Id, company::Column::NameJa, company::Column::NameEn])
                .filter(company::Column::Id.is_in(company_ids))
                .into_tuple::<(i32, String, String)>()
                .all(db)
                .await?
                .into_iter()
                .map(|(id, ja, en)| (id, lang.pick(&ja, &en).to_string()))
                .collect()
        };
        Ok(items
            .into_iter()
            .filter_map(|i| {
                let category = CategoryView::new(categories.get(&i.category_id)?, lang);
                let owner_name = match (i.exhibitor_id, i.company_id) {
                    (Some(e), _) => exhibitors.get(&e).cloned(),
                    (None, Some(c)) => companies.get(&c).cloned(),
                    (None, None) => None,
                }
                .unwrap_or_default();
                Some(Self {
                    id: i.id,
                    name: Localized::new(lang, i.name_ja, i.name_en),
                    description: Localized::new(lang, i.description_ja, i.description_en),
                    thumbnail: i.thumbnail,
                    url: i.url,
                    is_distributable: i.is_distributable,
                    price: i.price,
                    category,
                    exhibitor_id: i.exhibitor_id,
                    company_id: i.company_id,
                    owner_name,
                })
            })
            .collect())
    }
}

/// An event looked up for its catalogue, with whether the catalogue is open at "now".
pub struct CatalogEvent {
    /// The event and its phases.
    pub event: EventWithPhases,
    /// Whether the catalogue is open (see [`is_open`]).
    pub open: bool,
}

impl CatalogEvent {
    /// Resolves the event `key` (permalink or id) and checks the gate at `now`.
    pub async fn resolve(db: &impl ConnectionTrait, key: &str, now: DateTime<Utc>) -> Result<Self> {
        let event = crate::db::entities::event::Model::resolve(db, key).await?;
        let event = EventWithPhases::load(db, event).await?;
        let open = is_open(&event, now);
        Ok(Self { event, open })
    }

    /// Resolves the event `key` (permalink or id) in the event tree and checks the gate at `now`.
    pub fn from_tree(tree: &Tree, key: &str, now: DateTime<Utc>) -> Result<Self> {
        let event = tree.resolve(key).cloned().ok_or_else(crate::error::Error::unknown_permalink)?;
        let open = is_open(&event, now);
        Ok(Self { event, open })
    }

    /// The event id.
    pub fn id(&self) -> i32 {
        self.event.event.id
    }
}
