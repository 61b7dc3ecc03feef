//! The demo catalogue (`data/catalogue.json`): the item category groups and categories, the
//! vocabulary of each general category and of circle names, and the companies of the corporate
//! worlds. The file holds words, not rows: a small deterministic generator ([`super::exhibitors`])
//! turns them into a pool of circles and, for every event, dozens of exhibitors placed in its
//! worlds with hundreds of bilingual items — the same on every run. An event that already has
//! exhibitors or companies is left alone, so seeding twice changes nothing.
//!
//! Group and category ids are explicit (clients filter by them); display order is file order.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set};

use super::catalogue_file::{Catalogue, FILE, read};
use super::data::{self, Keys};
use super::{companies, exhibitors};
use crate::db::entities::{
    catalog_item_category, catalog_item_category_group, company, concept, event, exhibitor, world,
};
use crate::error::Result;
use crate::model::catalog::CategoryGroupType;
use crate::types::kinds::ConceptKind;

/// Reads `catalogue.json` and checks it: one group of each type, unique category ids, no empty
/// word list, known categories and suspended circles.
pub fn load() -> Result<Catalogue> {
    let catalogue = read()?;
    for t in [CategoryGroupType::General, CategoryGroupType::Company] {
        catalogue.group_id(t)?;
    }
    let (mut ids, mut keys) = (HashSet::new(), HashSet::new());
    let general = catalogue.lines.iter().enumerate().map(|(i, l)| ("general_categories", i, l.id, &l.key));
    let company = catalogue.company.iter().enumerate().map(|(i, c)| ("company_categories", i, c.id, &c.key));
    for (section, i, id, key) in general.chain(company) {
        if !ids.insert(id) || !keys.insert(key) {
            return Err(data::bad_entry(
                FILE.name,
                section,
                i,
                format_args!("category id {id} or key `{key}` is taken"),
            ));
        }
    }
    for (i, l) in catalogue.lines.iter().enumerate() {
        let empty = l.products.is_empty() || l.variants.is_empty() || l.descriptions.is_empty();
        if empty || l.price_steps < 1 {
            let problem = "needs products, variants, descriptions and price_steps ≥ 1";
            return Err(data::bad_entry(FILE.name, "general_categories", i, problem));
        }
    }
    exhibitors::check_circles(&catalogue)?;
    companies::check(&catalogue.companies, &catalogue.company)?;
    Ok(catalogue)
}

impl Catalogue {
    /// Checks the worlds the companies name.
    pub fn check(&self, keys: &Keys) -> Result<()> {
        companies::check_worlds(&self.companies, keys)
    }
}

/// Writes the categories and the circle pool if there are none, then the catalogue of every
/// event that has none yet.
pub async fn seed(db: &impl ConnectionTrait, catalogue: &Catalogue, now: DateTime<Utc>) -> Result<()> {
    ensure_categories(db, catalogue).await?;
    exhibitors::ensure_circles(db, catalogue, now).await?;
    for ev in event::Entity::find().order_by_asc(event::Column::Version).all(db).await? {
        let has_exhibitors =
            exhibitor::Entity::find().filter(exhibitor::Column::EventId.eq(ev.id)).count(db).await? > 0;
        let has_companies = company::Entity::find().filter(company::Column::EventId.eq(ev.id)).count(db).await? > 0;
        if has_exhibitors || has_companies {
            continue;
        }
        seed_event(db, catalogue, ev.id).await?;
    }
    Ok(())
}

async fn ensure_categories(db: &impl ConnectionTrait, catalogue: &Catalogue) -> Result<()> {
    if catalog_item_category_group::Entity::find().count(db).await? > 0 {
        return Ok(());
    }
    let groups = catalogue.groups.iter().enumerate().map(|(i, g)| catalog_item_category_group::ActiveModel {
        id: Set(g.id),
        group_type: Set(g.group_type),
        display_index: Set(i as i32 + 1),
        name_ja: Set(g.name_ja.clone()),
        name_en: Set(g.name_en.clone()),
    });
    catalog_item_category_group::Entity::insert_many(groups).exec(db).await?;
    let general = catalogue.group_id(CategoryGroupType::General)?;
    let company = catalogue.group_id(CategoryGroupType::Company)?;
    let lines = catalogue.lines.iter().map(|l| (general, l.id, &l.name_ja, &l.name_en));
    let companies = catalogue.company.iter().map(|c| (company, c.id, &c.name_ja, &c.name_en));
    let rows = lines.chain(companies).enumerate().map(|(i, (group, id, ja, en))| catalog_item_category::ActiveModel {
        id: Set(id),
        group_id: Set(group),
        name_ja: Set(ja.clone()),
        name_en: Set(en.clone()),
        display_index: Set(i as i32 + 1),
    });
    catalog_item_category::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

/// The exhibitors and companies of one event, world by world in display order.
async fn seed_event(db: &impl ConnectionTrait, catalogue: &Catalogue, event_id: i32) -> Result<()> {
    let kinds: HashMap<i32, ConceptKind> = concept::Entity::find()
        .filter(concept::Column::EventId.eq(event_id))
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.id, c.kind))
        .collect();
    let worlds = world::Entity::find()
        .filter(world::Column::EventId.eq(event_id))
        .order_by_asc(world::Column::DisplayOrder)
        .order_by_asc(world::Column::Id)
        .all(db)
        .await?;
    let mut placing = exhibitors::Placing::start(db, event_id).await?;
    let mut item_index = 0;
    for w in &worlds {
        let kind = kinds.get(&w.concept_id).copied().unwrap_or(ConceptKind::General);
        if kind == ConceptKind::Company {
            if let Some(s) = catalogue.companies.iter().find(|s| s.world_id == w.id) {
                companies::seed(db, catalogue, event_id, w, s, &mut item_index).await?;
            }
            continue;
        }
        placing.seed_world(db, catalogue, w, kind, &mut item_index).await?;
    }
    Ok(())
}
