//! Companies exhibiting at an event: listing (public ones, by display index), detail with
//! highlights, worlds and items, and a world's catalogue summary.

use std::collections::HashMap;

use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Query;
use sea_orm::{Condition, ConnectionTrait, Order, PaginatorTrait, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{catalog_item, company, company_highlight, company_world, exhibitor, world};
use crate::error::{Error, Result};
use crate::model::catalog::{CatalogItemView, ItemFilter, OwnerType};
use crate::model::exhibitor::{ExhibitorView, WorldRefView};
use crate::model::pagination::PageRequest;
use crate::model::search;
use crate::types::{Lang, Localized, localized};

/// A highlight image of a company.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HighlightView {
    /// Image URL.
    pub image: String,
    /// Sort position.
    pub display_index: i32,
}

/// A company as clients see it (spec §3 Catalog "Company").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompanyView {
    /// Company id.
    pub id: i32,
    /// Event id.
    pub event_id: i32,
    /// Sort position.
    pub display_index: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// Thumbnail (logo).
    pub thumbnail: Option<String>,
    /// The company's website.
    pub website_link: Option<String>,
    /// Name of that website: `site_name` in the request's language, `site_name_ja`, `site_name_en`.
    #[serde(flatten)]
    pub site_name: localized::SiteName,
    /// Its booth on Virtual Market Cloud.
    pub vmarket_cloud_url: Option<String>,
    /// Listed publicly.
    pub is_public: bool,
    /// Highlight images in display order.
    pub highlights: Vec<HighlightView>,
    /// Worlds it exhibits in.
    pub worlds: Vec<WorldRefView>,
    /// Its catalogue items in display order.
    pub catalog_items: Vec<CatalogItemView>,
}

/// Filters of company lists.
#[derive(Debug, Clone, Default)]
pub struct CompanyFilter {
    /// Words that must all appear in the company's names or descriptions, or in one of its items.
    pub keyword: Option<String>,
    /// Only companies in this world.
    pub world_id: Option<i32>,
}

/// One page of companies.
pub struct CompanyPage {
    /// The companies on this page.
    pub companies: Vec<company::Model>,
    /// How many match.
    pub count: u64,
    /// How many public companies the event has.
    pub all: u64,
}

impl company::Model {
    fn public_in(event_id: i32) -> Condition {
        Condition::all().add(company::Column::EventId.eq(event_id)).add(company::Column::IsPublic.eq(true))
    }

    /// Public companies of `event_id` matching `filter`, by display index.
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        filter: &CompanyFilter,
        page: PageRequest,
    ) -> Result<CompanyPage> {
        let backend = db.get_database_backend();
        let mut cond = Self::public_in(event_id);
        if let Some(world_id) = filter.world_id {
            cond = cond.add(
                company::Column::Id.in_subquery(
                    Query::select()
                        .column(company_world::Column::CompanyId)
                        .from(company_world::Entity)
                        .and_where(company_world::Column::WorldId.eq(world_id))
                        .to_owned(),
                ),
            );
        }
        let keyword = filter.keyword.as_deref().unwrap_or("");
        if let (Some(own), Some(items)) =
            (search::matches(backend, search::COMPANIES, keyword), search::matches(backend, search::ITEMS, keyword))
        {
            cond = cond.add(
                Condition::any().add(own).add(
                    company::Column::Id.in_subquery(
                        Query::select()
                            .column(catalog_item::Column::CompanyId)
                            .from(catalog_item::Entity)
                            .and_where(catalog_item::Column::EventId.eq(event_id))
                            .and_where(catalog_item::Column::CompanyId.is_not_null())
                            .and_where(items)
                            .to_owned(),
                    ),
                ),
            );
        }
        let select = company::Entity::find().filter(cond);
        let count = select.clone().count(db).await?;
        let all = company::Entity::find().filter(Self::public_in(event_id)).count(db).await?;
        let mut ordered = select;
        if let Some(rank) = search::name_rank(backend, search::COMPANIES, keyword) {
            ordered = ordered.order_by(rank, Order::Asc);
        }
        let companies = ordered
            .order_by_asc(company::Column::DisplayIndex)
            .order_by_asc(company::Column::Id)
            .offset(page.offset())
            .limit(page.limit)
            .all(db)
            .await?;
        Ok(CompanyPage { companies, count, all })
    }

    /// A public company of `event_id` by id.
    pub async fn find_public(db: &impl ConnectionTrait, event_id: i32, id: i32) -> Result<Self> {
        company::Entity::find_by_id(id).filter(Self::public_in(event_id)).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Public companies of the event in a world, by display index.
    pub async fn in_world(db: &impl ConnectionTrait, event_id: i32, world_id: i32) -> Result<Vec<Self>> {
        let filter = CompanyFilter { world_id: Some(world_id), keyword: None };
        Ok(Self::page(db, event_id, &filter, PageRequest { page: 1, limit: 1000 }).await?.companies)
    }
}

impl CompanyView {
    /// Views of `companies` in `lang` with highlights, worlds and items.
    pub async fn load(db: &impl ConnectionTrait, companies: Vec<company::Model>, lang: Lang) -> Result<Vec<Self>> {
        let ids: Vec<i32> = companies.iter().map(|c| c.id).collect();
        let mut highlights: HashMap<i32, Vec<HighlightView>> = HashMap::new();
        for h in company_highlight::Entity::find()
            .filter(company_highlight::Column::CompanyId.is_in(ids.clone()))
            .order_by_asc(company_highlight::Column::DisplayIndex)
            .all(db)
            .await?
        {
            highlights
                .entry(h.company_id)
                .or_default()
                .push(HighlightView { image: h.image, display_index: h.display_index });
        }
        let links = company_world::Entity::find()
            .filter(company_world::Column::CompanyId.is_in(ids.clone()))
            .order_by_asc(company_world::Column::Id)
            .all(db)
            .await?;
        let worlds: HashMap<i32, world::Model> = world::Entity::find()
            .filter(world::Column::Id.is_in(links.iter().map(|l| l.world_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        let mut worlds_by: HashMap<i32, Vec<WorldRefView>> = HashMap::new();
        for l in &links {
            if let Some(w) = worlds.get(&l.world_id) {
                worlds_by.entry(l.company_id).or_default().push(WorldRefView::new(w, lang));
            }
        }
        let items = catalog_item::Entity::find()
            .filter(catalog_item::Column::CompanyId.is_in(ids))
            .order_by_asc(catalog_item::Column::DisplayIndex)
            .order_by_asc(catalog_item::Column::Id)
            .all(db)
            .await?;
        let mut items_by: HashMap<i32, Vec<CatalogItemView>> = HashMap::new();
        for item in CatalogItemView::load(db, items, lang).await? {
            if let Some(c) = item.company_id {
                items_by.entry(c).or_default().push(item);
            }
        }
        Ok(companies
            .into_iter()
            .map(|c| Self {
                name: Localized::new(lang, c.name_ja, c.name_en),
                description: Localized::new(lang, c.description_ja, c.description_en),
                site_name: Localized::new(lang, c.site_name_ja, c.site_name_en),
                highlights: highlights.remove(&c.id).unwrap_or_default(),
                worlds: worlds_by.remove(&c.id).unwrap_or_default(),
                catalog_items: items_by.remove(&c.id).unwrap_or_default(),
                id: c.id,
                event_id: c.event_id,
                display_index: c.display_index,
                thumbnail: c.thumbnail,
                website_link: c.website_link,
                vmarket_cloud_url: c.vmarket_cloud_url,
                is_public: c.is_public,
            })
            .collect())
    }

    /// The view of one company.
    pub async fn load_one(db: &impl ConnectionTrait, c: company::Model, lang: Lang) -> Result<Self> {
        Self::load(db, vec![c], lang).await?.pop().ok_or_else(|| Error::Internal("company view vanished".into()))
    }
}

/// A world's catalogue: its exhibitors and companies and how many items they offer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorldCatalogInfo {
    /// The world.
    pub world: WorldRefView,
    /// How many exhibitors exhibit in it.
    pub exhibitor_count: u64,
    /// How many companies exhibit in it.
    pub company_count: u64,
    /// How many items its exhibitors offer.
    pub exhibitor_item_count: u64,
    /// How many items its companies offer.
    pub company_item_count: u64,
    /// Its exhibitors in display order.
    pub exhibitors: Vec<ExhibitorView>,
    /// Its companies in display order.
    pub companies: Vec<CompanyView>,
}

impl WorldCatalogInfo {
    /// The catalogue of `world` (of event `event_id`) in `lang`.
    pub async fn load(db: &impl ConnectionTrait, event_id: i32, w: &world::Model, lang: Lang) -> Result<Self> {
        let exhibitors = ExhibitorView::load(db, exhibitor::Model::in_world(db, event_id, w.id).await?, lang).await?;
        let companies = CompanyView::load(db, company::Model::in_world(db, event_id, w.id).await?, lang).await?;
        let one = PageRequest { page: 1, limit: 1 };
        let items_of = |owner| ItemFilter { world_id: Some(w.id), ..ItemFilter::of(owner) };
        let exhibitor_item_count =
            catalog_item::Model::page(db, event_id, &items_of(OwnerType::Exhibitor), one).await?.count;
        let company_item_count =
            catalog_item::Model::page(db, event_id, &items_of(OwnerType::Company), one).await?.count;
        Ok(Self {
            world: WorldRefView::new(w, lang),
            exhibitor_count: exhibitors.len() as u64,
            company_count: companies.len() as u64,
            exhibitor_item_count,
            company_item_count,
            exhibitors,
            companies,
        })
    }
}
