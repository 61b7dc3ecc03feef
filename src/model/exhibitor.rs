//! Exhibitors: the circles exhibiting at an event, filtered keyword search, detail with slots
//! and items, and the client views.

use std::collections::HashMap;

use sea_orm::entity::prelude::*;
use sea_orm::sea_query::Query;
use sea_orm::{Condition, ConnectionTrait, Order, PaginatorTrait, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{catalog_item, circle, event_slot_placement, exhibitor, exhibitor_slot, world, world_area};
use crate::error::{Error, Result};
use crate::model::catalog::{CatalogItemView, visible_circle};
use crate::model::pagination::PageRequest;
use crate::model::search::{self, Searchable};
use crate::types::kinds::ConceptKind;
use crate::types::{Lang, Localized, localized};

/// The names an exhibitor is ranked by (its display-name snapshot); not a search index.
const EXHIBITOR_NAMES: Searchable =
    Searchable { table: "exhibitors", fts_table: "", columns: &["name_ja", "name_en"], name_columns: 2 };

/// A circle (spec §3 Circle), as shown on its exhibitors.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CircleView {
    /// Circle id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// Thumbnail.
    pub thumbnail: Option<String>,
    /// The circle's website.
    pub website_link: Option<String>,
    /// Suspended by staff.
    pub is_suspended: bool,
}

impl CircleView {
    /// The view of `c` in `lang`.
    pub fn new(c: &circle::Model, lang: Lang) -> Self {
        Self {
            id: c.id,
            name: Localized::new(lang, c.name_ja.clone(), c.name_en.clone()),
            description: Localized::new(lang, c.description_ja.clone(), c.description_en.clone()),
            thumbnail: c.thumbnail.clone(),
            website_link: c.website_link.clone(),
            is_suspended: c.is_suspended,
        }
    }
}

/// A world named by an exhibitor or company.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorldRefView {
    /// World id.
    pub id: i32,
    /// Its concept.
    pub concept_id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
}

impl WorldRefView {
    /// The view of `w` in `lang`.
    pub fn new(w: &world::Model, lang: Lang) -> Self {
        Self { id: w.id, concept_id: w.concept_id, name: Localized::new(lang, w.name_ja.clone(), w.name_en.clone()) }
    }
}

/// An area of a world, as named on a slot.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AreaView {
    /// Area id.
    pub id: i32,
    /// Area name.
    pub name: String,
    /// Area number.
    pub number: i32,
}

/// Where an exhibitor's booth stands (spec §3 "submission placement").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SlotView {
    /// Slot id.
    pub id: i32,
    /// Booth number within the area.
    pub number: i32,
    /// The area.
    pub world_area: Option<AreaView>,
}

/// An exhibitor as clients see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExhibitorView {
    /// Exhibitor id.
    pub id: i32,
    /// Event id.
    pub event_id: i32,
    /// Kind (from the concept of its world).
    pub kind: ConceptKind,
    /// Display name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// The circle behind it.
    pub circle: Option<CircleView>,
    /// The company behind it (company booths).
    pub company_id: Option<i32>,
    /// The world it exhibits in.
    pub world: Option<WorldRefView>,
    /// Its booth placements.
    pub slots: Vec<SlotView>,
    /// How many catalogue items it offers.
    pub item_count: u64,
}

/// An exhibitor with its catalogue items.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ExhibitorDetailView {
    /// The exhibitor.
    #[serde(flatten)]
    pub exhibitor: ExhibitorView,
    /// Its items, in display order.
    pub catalog_items: Vec<CatalogItemView>,
}

/// Filters of exhibitor lists.
#[derive(Debug, Clone, Default)]
pub struct ExhibitorFilter {
    /// Words that must all appear in the circle's (or company's) names or descriptions, or
    /// in one of its items.
    pub keyword: Option<String>,
    /// Only exhibitors in this world.
    pub world_id: Option<i32>,
    /// Only exhibitors with an item in this category.
    pub category_id: Option<i32>,
    /// Only exhibitors with an item handed out free (or not).
    pub is_distributable: Option<bool>,
    /// Only this kind.
    pub kind: Option<ConceptKind>,
}

/// One page of exhibitors.
pub struct ExhibitorPage {
    /// The exhibitors on this page.
    pub exhibitors: Vec<exhibitor::Model>,
    /// How many match.
    pub count: u64,
    /// How many the event has.
    pub all: u64,
}

fn having_items(cond: Condition) -> sea_orm::sea_query::SelectStatement {
    Query::select()
        .column(catalog_item::Column::ExhibitorId)
        .from(catalog_item::Entity)
        .cond_where(cond)
        .and_where(catalog_item::Column::ExhibitorId.is_not_null())
        .to_owned()
}

impl exhibitor::Model {
    fn visible_in(event_id: i32) -> Condition {
        Condition::all().add(exhibitor::Column::EventId.eq(event_id)).add(visible_circle())
    }

    /// Exhibitors of `event_id` matching `filter`: name matches first, then display order.
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        filter: &ExhibitorFilter,
        page: PageRequest,
    ) -> Result<ExhibitorPage> {
        let backend = db.get_database_backend();
        let mut cond = Self::visible_in(event_id);
        if let Some(id) = filter.world_id {
            cond = cond.add(exhibitor::Column::WorldId.eq(id));
        }
        if let Some(kind) = filter.kind {
            cond = cond.add(exhibitor::Column::Kind.eq(kind));
        }
        if let Some(id) = filter.category_id {
            cond = cond.add(
                exhibitor::Column::Id
                    .in_subquery(having_items(Condition::all().add(catalog_item::Column::CategoryId.eq(id)))),
            );
        }
        if let Some(flag) = filter.is_distributable {
            cond = cond.add(
                exhibitor::Column::Id
                    .in_subquery(having_items(Condition::all().add(catalog_item::Column::IsDistributable.eq(flag)))),
            );
        }
        let keyword = filter.keyword.as_deref().unwrap_or("");
        if let (Some(circles), Some(companies), Some(items)) = (
            search::matches(backend, search::CIRCLES, keyword),
            search::matches(backend, search::COMPANIES, keyword),
            search::matches(backend, search::ITEMS, keyword),
        ) {
            let ids = |table: &str, m| {
                let mut q = Query::select();
                q.expr(sea_orm::sea_query::Expr::cust(format!("\"{table}\".\"id\"")))
                    .from(sea_orm::sea_query::Alias::new(table))
                    .and_where(m);
                q
            };
            cond = cond.add(
                Condition::any()
                    .add(exhibitor::Column::CircleId.in_subquery(ids("circles", circles)))
                    .add(exhibitor::Column::CompanyId.in_subquery(ids("companies", companies)))
                    .add(exhibitor::Column::Id.in_subquery(having_items(
                        Condition::all().add(catalog_item::Column::EventId.eq(event_id)).add(items),
                    ))),
            );
        }
        let select = exhibitor::Entity::find().filter(cond);
        let count = select.clone().count(db).await?;
        let all = exhibitor::Entity::find().filter(Self::visible_in(event_id)).count(db).await?;
        let mut ordered = select;
        if let Some(rank) = search::name_rank(backend, EXHIBITOR_NAMES, keyword) {
            ordered = ordered.order_by(rank, Order::Asc);
        }
        let exhibitors = ordered
            .order_by_asc(exhibitor::Column::DisplayIndex)
            .order_by_asc(exhibitor::Column::Id)
            .offset(page.offset())
            .limit(page.limit)
            .all(db)
            .await?;
        Ok(ExhibitorPage { exhibitors, count, all })
    }

    /// A visible exhibitor of `event_id` by id.
    pub async fn find_visible(db: &impl ConnectionTrait, event_id: i32, id: i32) -> Result<Self> {
        exhibitor::Entity::find_by_id(id).filter(Self::visible_in(event_id)).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Every visible exhibitor of a world, in display order.
    pub async fn in_world(db: &impl ConnectionTrait, event_id: i32, world_id: i32) -> Result<Vec<Self>> {
        Ok(exhibitor::Entity::find()
            .filter(Self::visible_in(event_id))
            .filter(exhibitor::Column::WorldId.eq(world_id))
            .order_by_asc(exhibitor::Column::DisplayIndex)
            .order_by_asc(exhibitor::Column::Id)
            .all(db)
            .await?)
    }

    /// How many visible exhibitors each world of the event has.
    pub async fn count_by_world(db: &impl ConnectionTrait, event_id: i32) -> Result<HashMap<i32, u64>> {
        let rows: Vec<(Option<i32>, i64)> = exhibitor::Entity::find()
            .select_only()
            .column(exhibitor::Column::WorldId)
            .column_as(exhibitor::Column::Id.count(), "n")
            .filter(Self::visible_in(event_id))
            .group_by(exhibitor::Column::WorldId)
            .into_tuple()
            .all(db)
            .await?;
        Ok(rows.into_iter().filter_map(|(id, n)| Some((id?, n as u64))).collect())
    }
}

impl ExhibitorView {
    /// Views of `exhibitors` in `lang`, with circles, worlds, slots and item counts in a fixed
    /// number of queries.
    pub async fn load(db: &impl ConnectionTrait, exhibitors: Vec<exhibitor::Model>, lang: Lang) -> Result<Vec<Self>> {
        let ids: Vec<i32> = exhibitors.iter().map(|e| e.id).collect();
        let circles: HashMap<i32, circle::Model> = circle::Entity::find()
            .filter(circle::Column::Id.is_in(exhibitors.iter().filter_map(|e| e.circle_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let worlds: HashMap<i32, world::Model> = world::Entity::find()
            .filter(world::Column::Id.is_in(exhibitors.iter().filter_map(|e| e.world_id)))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        // Imported exhibitors keep their booths in `exhibitor_slots`; an exhibitor made from a
        // won application (`application_id`) stands where staff placed that slot.
        let mut booths: Vec<(i32, i32, i32, Option<i32>)> = exhibitor_slot::Entity::find()
            .filter(exhibitor_slot::Column::ExhibitorId.is_in(ids.clone()))
            .order_by_asc(exhibitor_slot::Column::Id)
            .all(db)
            .await?
            .into_iter()
            .map(|s| (s.exhibitor_id, s.id, s.number, s.world_area_id))
            .collect();
        let by_application: HashMap<i32, i32> =
            exhibitors.iter().filter_map(|e| e.application_id.map(|a| (a, e.id))).collect();
        let placements = if by_application.is_empty() {
            Vec::new()
        } else {
            event_slot_placement::Entity::find()
                .filter(event_slot_placement::Column::ApplicationId.is_in(by_application.keys().copied()))
                .all(db)
                .await?
        };
        booths.extend(placements.into_iter().filter_map(|p| {
            let exhibitor_id = *by_application.get(&p.application_id)?;
            Some((exhibitor_id, p.application_id, p.number, Some(p.world_area_id)))
        }));
        let areas: HashMap<i32, world_area::Model> = world_area::Entity::find()
            .filter(world_area::Column::Id.is_in(booths.iter().filter_map(|b| b.3)))
            .all(db)
            .await?
            .into_iter()
            .map(|a| (a.id, a))
            .collect();
        let mut slots_by: HashMap<i32, Vec<SlotView>> = HashMap::new();
        for (exhibitor_id, id, number, area) in booths {
            slots_by.entry(exhibitor_id).or_default().push(SlotView {
                id,
                number,
                world_area: area.and_then(|a| areas.get(&a)).map(|a| AreaView {
                    id: a.id,
                    name: a.name.clone(),
                    number: a.number,
                }),
            });
        }
        let counts = catalog_item::Model::count_by_exhibitor(db, ids).await?;
        Ok(exhibitors
            .into_iter()
            .map(|e| Self {
                id: e.id,
                event_id: e.event_id,
                kind: e.kind,
                name: Localized::new(lang, e.name_ja, e.name_en),
                circle: e.circle_id.and_then(|c| circles.get(&c)).map(|c| CircleView::new(c, lang)),
                company_id: e.company_id,
                world: e.world_id.and_then(|w| worlds.get(&w)).map(|w| WorldRefView::new(w, lang)),
                slots: slots_by.remove(&e.id).unwrap_or_default(),
                item_count: counts.get(&e.id).copied().unwrap_or(0),
            })
            .collect())
    }
}

impl ExhibitorDetailView {
    /// The detail view of `e` in `lang`.
    pub async fn load(db: &impl ConnectionTrait, e: exhibitor::Model, lang: Lang) -> Result<Self> {
        let items = catalog_item::Model::of_exhibitor(db, e.id).await?;
        let catalog_items = CatalogItemView::load(db, items, lang).await?;
        let exhibitor = ExhibitorView::load(db, vec![e], lang)
            .await?
            .pop()
            .ok_or_else(|| Error::Internal("exhibitor view vanished".into()))?;
        Ok(Self { exhibitor, catalog_items })
    }
}
