//! The small generator behind the demo catalogue: from the words of `catalogue.json` it makes
//! the circle pool (every name prefix with one suffix) and, world by world, 4–7 exhibitors
//! (circles in turn) with booths in the world's areas and 3–8 items each, mostly of the
//! circle's specialty. Everything follows from fixed ids through [`mix`], so every run writes
//! the same rows.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set};

use super::catalogue_file::{Catalogue, FILE, LineSeed, slug};
use super::data;
use crate::db::entities::{catalog_item, circle, exhibitor, exhibitor_slot, world, world_area};
use crate::error::Result;
use crate::types::kinds::ConceptKind;

/// A small deterministic mix of two numbers.
pub(super) fn mix(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 29;
    x = x.wrapping_mul(0x1656_67B1_9E37_79F9);
    x ^ (x >> 32)
}

/// Picks from `list` (not empty: [`check_circles`] and the catalogue's checks see to it) by `n`.
fn pick<T>(list: &[T], n: u64) -> &T {
    &list[(n % list.len() as u64) as usize]
}

/// How many circles the pool holds (ids 1..=count).
fn circle_count(c: &Catalogue) -> usize {
    c.circles.prefixes.len() * c.circles.suffixes.len()
}

/// The `(name_ja, name_en)` of circle `i` (0-based).
fn circle_name(c: &Catalogue, i: usize) -> (String, String) {
    let (prefixes, suffixes) = (&c.circles.prefixes, &c.circles.suffixes);
    let (p, q) = (i % prefixes.len(), i / prefixes.len());
    let [pj, pe] = &prefixes[p];
    let [sj, se] = &suffixes[(p + q) % suffixes.len()];
    (format!("{pj}{sj}"), format!("{pe} {se}"))
}

/// The `(name_ja, name_en)` of product `n` of `line`: from its second round on, with a variant.
fn item_name(line: &LineSeed, n: u64) -> (String, String) {
    let [bj, be] = pick(&line.products, n);
    let round = n / line.products.len() as u64;
    if round == 0 {
        return (bj.clone(), be.clone());
    }
    let [vj, ve] = pick(&line.variants, round - 1 + n);
    (format!("{bj}（{vj}）"), format!("{be} ({ve})"))
}

/// Checks the circle words: none of the lists empty, every suspended circle in the pool.
pub(super) fn check_circles(c: &Catalogue) -> Result<()> {
    let w = &c.circles;
    if c.lines.is_empty()
        || w.prefixes.is_empty()
        || w.suffixes.is_empty()
        || w.notes.is_empty()
        || w.thumbnails.is_empty()
    {
        let problem = "circles: needs prefixes, suffixes, notes, thumbnails and at least one general category";
        return Err(data::fail(FILE.name, problem));
    }
    for (i, name) in w.suspended.iter().enumerate() {
        let found = (0..circle_count(c)).any(|n| circle_name(c, n).1 == *name);
        data::known(found, FILE.name, "circles.suspended", i, format_args!("circle `{name}`"))?;
    }
    Ok(())
}

/// Writes the circle pool unless there are circles already.
pub(super) async fn ensure_circles(db: &impl ConnectionTrait, c: &Catalogue, now: DateTime<Utc>) -> Result<()> {
    if circle::Entity::find().count(db).await? > 0 {
        return Ok(());
    }
    let rows = (0..circle_count(c)).map(|i| {
        let (name_ja, name_en) = circle_name(c, i);
        let [intro_ja, intro_en] = &c.lines[i % c.lines.len()].circle_intro;
        let [note_ja, note_en] = &c.circles.notes[(i / c.lines.len()) % c.circles.notes.len()];
        let suspended = c.circles.suspended.contains(&name_en);
        circle::ActiveModel {
            id: Set(i as i32 + 1),
            website_link: Set(Some(format!("https://{}.example.com/", slug(&name_en)))),
            is_suspended: Set(suspended),
            suspension_reason: Set(suspended.then(|| super::circles::SUSPENSION_REASON.to_string())),
            name_ja: Set(name_ja),
            name_en: Set(name_en),
            description_ja: Set(format!("{intro_ja}{note_ja}")),
            description_en: Set(format!("{intro_en} {note_en}")),
            thumbnail: Set(Some(c.circles.thumbnails[i % c.circles.thumbnails.len()].clone())),
            thumbnail_key: Set(None),
            owner_user_id: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
    });
    circle::Entity::insert_many(rows).exec(db).await?;
    Ok(())
}

/// Places circles as exhibitors in one event's worlds, in turn.
pub(super) struct Placing {
    event_id: i32,
    circles: Vec<circle::Model>,
    next_circle: usize,
    exhibitor_index: i32,
}

impl Placing {
    /// Starts with the circle the event's id points at.
    pub async fn start(db: &impl ConnectionTrait, event_id: i32) -> Result<Self> {
        let circles = circle::Entity::find().order_by_asc(circle::Column::Id).all(db).await?;
        let next_circle = (event_id as usize * 17) % circles.len().max(1);
        Ok(Self { event_id, circles, next_circle, exhibitor_index: 0 })
    }

    /// The exhibitors of world `w`, their booths and items; `item_index` counts the event's items.
    pub async fn seed_world(
        &mut self,
        db: &impl ConnectionTrait,
        catalogue: &Catalogue,
        w: &world::Model,
        kind: ConceptKind,
        item_index: &mut i32,
    ) -> Result<()> {
        if self.circles.is_empty() {
            return Ok(());
        }
        let areas = world_area::Entity::find()
            .filter(world_area::Column::WorldId.eq(w.id))
            .order_by_asc(world_area::Column::Number)
            .all(db)
            .await?;
        let mut booth_numbers: HashMap<i32, i32> = HashMap::new();
        for n in 0..4 + mix(w.id as u64, 1) % 4 {
            let c = &self.circles[self.next_circle % self.circles.len()];
            self.next_circle += 1;
            self.exhibitor_index += 1;
            let row = exhibitor::ActiveModel {
                event_id: Set(self.event_id),
                circle_id: Set(Some(c.id)),
                company_id: Set(None),
                kind: Set(kind),
                world_id: Set(Some(w.id)),
                name_ja: Set(c.name_ja.clone()),
                name_en: Set(c.name_en.clone()),
                display_index: Set(self.exhibitor_index),
                ..Default::default()
            };
            let ex = exhibitor::Entity::insert(row).exec(db).await?.last_insert_id;
            if !areas.is_empty() {
                let area = &areas[(n as usize) % areas.len()];
                let number = booth_numbers.entry(area.id).or_insert(0);
                *number += 1;
                let slot = exhibitor_slot::ActiveModel {
                    exhibitor_id: Set(ex),
                    world_area_id: Set(Some(area.id)),
                    number: Set(*number),
                    ..Default::default()
                };
                exhibitor_slot::Entity::insert(slot).exec(db).await?;
            }
            let items = circle_items(&catalogue.lines, self.event_id, w, c, ex, item_index);
            catalog_item::Entity::insert_many(items).exec(db).await?;
        }
        Ok(())
    }
}

/// The items one circle shows in world `w`: mostly its specialty, one from a neighbour line.
fn circle_items(
    lines: &[LineSeed],
    event_id: i32,
    w: &world::Model,
    c: &circle::Model,
    exhibitor_id: i32,
    item_index: &mut i32,
) -> Vec<catalog_item::ActiveModel> {
    let seed = mix(c.id as u64, event_id as u64);
    let specialty = (c.id as usize - 1) % lines.len();
    let count = 3 + seed % 6;
    let item = |k: u64, item_index: i32| {
        let l = &lines[if k + 1 == count && count > 3 { (specialty + 1) % lines.len() } else { specialty }];
        // Every circle leads with its line's first products now and then, so the classics
        // (猫耳カチューシャ, 和風浴衣セット …) appear at every event.
        let n = if k == 0 && seed.is_multiple_of(3) {
            (c.id as u64 / lines.len() as u64) % l.products.len() as u64
        } else {
            mix(seed, k) % (l.products.len() as u64 * 3)
        };
        let (name_ja, name_en) = item_name(l, n);
        let [dj, de] = pick(&l.descriptions, seed.wrapping_add(k));
        let distributable = mix(seed, k + 100).is_multiple_of(4);
        let price = l.price_from + 100 * (mix(seed, k + 200) % l.price_steps as u64) as i32;
        catalog_item::ActiveModel {
            event_id: Set(event_id),
            exhibitor_id: Set(Some(exhibitor_id)),
            company_id: Set(None),
            category_id: Set(l.id),
            name_ja: Set(name_ja),
            name_en: Set(name_en),
            description_ja: Set(dj.clone()),
            description_en: Set(de.clone()),
            thumbnail: Set(w.image.clone()),
            url: Set(c.website_link.as_ref().map(|site| format!("{site}items/{item_index}"))),
            is_distributable: Set(distributable),
            price: Set((!distributable).then_some(price)),
            display_index: Set(item_index),
            ..Default::default()
        }
    };
    (0..count)
        .map(|k| {
            *item_index += 1;
            item(k, *item_index)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_name_fits_the_limits() {
        let c = super::super::catalogue_file::read().expect("catalogue.json");
        for l in &c.lines {
            for n in 0..(l.products.len() as u64 * 3) {
                let (ja, en) = item_name(l, n);
                assert!(ja.chars().count() <= 32, "{ja} is longer than 32");
                assert!(en.chars().count() <= 64, "{en} is longer than 64");
            }
        }
        let names: std::collections::HashSet<_> = (0..circle_count(&c)).map(|i| circle_name(&c, i)).collect();
        assert_eq!(names.len(), circle_count(&c), "circle names are unique");
        assert!(names.iter().all(|(ja, en)| ja.chars().count() <= 64 && en.len() <= 128));
    }

    #[test]
    fn variants_read_naturally() {
        let c = super::super::catalogue_file::read().expect("catalogue.json");
        let accessories = c.lines.iter().find(|l| l.id == 3).expect("category 3");
        assert_eq!(item_name(accessories, 0), ("猫耳カチューシャ".to_string(), "Cat-Ear Headband".to_string()));
        let (ja, en) = item_name(accessories, 10);
        assert!(ja.starts_with("猫耳カチューシャ（") && en.starts_with("Cat-Ear Headband ("), "{ja} / {en}");
    }
}
