//! The companies of the demo's corporate worlds (the `companies` of `data/catalogue.json`):
//! one company per world, named by world id, with its brand art as thumbnail and highlight and
//! its items in the company categories (named by key).

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, Set};

use super::catalogue_file::{Catalogue, CategorySeed, CompanySeed, FILE, slug};
use super::data::{self, Keys};
use crate::db::entities::{catalog_item, company, company_highlight, company_world, world};
use crate::error::Result;

/// Checks that every item names a company category.
pub(super) fn check(companies: &[CompanySeed], categories: &[CategorySeed]) -> Result<()> {
    for (i, s) in companies.iter().enumerate() {
        for item in &s.items {
            let ok = categories.iter().any(|c| c.key == item.category);
            data::known(ok, FILE.name, "companies", i, format_args!("category `{}`", item.category))?;
        }
    }
    Ok(())
}

/// Checks that every company names a world of `events.json`.
pub(super) fn check_worlds(companies: &[CompanySeed], keys: &Keys) -> Result<()> {
    for (i, s) in companies.iter().enumerate() {
        data::known(
            keys.worlds.contains(&s.world_id),
            FILE.name,
            "companies",
            i,
            format_args!("world {}", s.world_id),
        )?;
    }
    Ok(())
}

/// Writes company `s` of world `w` with its highlights and items; `item_index` counts the
/// event's items.
pub(super) async fn seed(
    db: &impl ConnectionTrait,
    catalogue: &Catalogue,
    event_id: i32,
    w: &world::Model,
    s: &CompanySeed,
    item_index: &mut i32,
) -> Result<()> {
    let brand = format!("/static/demo/brands/{}.svg", s.brand);
    let site = format!("https://{}.example.com/", slug(&s.name_en));
    let display_index =
        company::Entity::find().filter(company::Column::EventId.eq(event_id)).count(db).await? as i32 + 1;
    let id = company::Entity::insert(company::ActiveModel {
        event_id: Set(event_id),
        display_index: Set(display_index),
        name_ja: Set(s.name_ja.clone()),
        name_en: Set(s.name_en.clone()),
        description_ja: Set(s.description_ja.clone()),
        description_en: Set(s.description_en.clone()),
        thumbnail: Set(Some(brand.clone())),
        website_link: Set(Some(site.clone())),
        site_name_ja: Set(s.site_name_ja.clone()),
        site_name_en: Set(s.site_name_en.clone()),
        vmarket_cloud_url: Set(Some(format!("https://cloud.vmarket.example/booths/{}", s.brand))),
        is_public: Set(true),
        ..Default::default()
    })
    .exec(db)
    .await?
    .last_insert_id;
    let placed = company_world::ActiveModel { company_id: Set(id), world_id: Set(w.id), ..Default::default() };
    company_world::Entity::insert(placed).exec(db).await?;
    let highlights = [w.image.clone(), Some(brand)].into_iter().flatten().enumerate().map(|(i, image)| {
        company_highlight::ActiveModel {
            company_id: Set(id),
            image: Set(image),
            display_index: Set(i as i32 + 1),
            ..Default::default()
        }
    });
    company_highlight::Entity::insert_many(highlights).exec(db).await?;
    let rows = items(catalogue, event_id, id, w, s, &site, item_index)?;
    catalog_item::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

/// The items of company `company_id` (seed `s`), numbered on from `item_index`.
fn items(
    catalogue: &Catalogue,
    event_id: i32,
    company_id: i32,
    w: &world::Model,
    s: &CompanySeed,
    site: &str,
    item_index: &mut i32,
) -> Result<Vec<catalog_item::ActiveModel>> {
    let mut rows = Vec::new();
    for item in &s.items {
        let category = catalogue.company.iter().find(|c| c.key == item.category);
        let category =
            category.ok_or_else(|| data::fail(FILE.name, format_args!("unknown category `{}`", item.category)))?;
        *item_index += 1;
        rows.push(catalog_item::ActiveModel {
            event_id: Set(event_id),
            exhibitor_id: Set(None),
            company_id: Set(Some(company_id)),
            category_id: Set(category.id),
            name_ja: Set(item.name_ja.clone()),
            name_en: Set(item.name_en.clone()),
            description_ja: Set(item.description_ja.clone()),
            description_en: Set(item.description_en.clone()),
            thumbnail: Set(w.image.clone()),
            url: Set(Some(site.to_string())),
            is_distributable: Set(item.distributable),
            price: Set(item.price),
            display_index: Set(*item_index),
            ..Default::default()
        });
    }
    Ok(rows)
}
