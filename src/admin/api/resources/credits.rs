//! What worlds and concepts carry besides their own columns (spec §3 World, Concept): keywords
//! (`keyword_ids`, the shared [`keywords`](super::keywords) list), artist credits (`artists`: an
//! artist of [`artists`](super::artists) and the role they played) and, for worlds, numbered
//! areas, each with a picture (uploaded like any console picture, as the worlds' field
//! `areas.image`). Loaded for a page of records in a fixed number of queries; a form sends the
//! whole list and it replaces the stored one (areas are kept by id, so the exhibitor slots in
//! them stay). An area exhibitors have slots in is never removed (422 on `areas`).

use std::collections::{HashMap, HashSet};

use sea_orm::{
    ActiveModelBehavior, ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, DeleteMany, EntityTrait,
    IntoActiveModel, QueryFilter, QueryOrder, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::input;
use crate::db::entities::{
    artist, concept_artist, concept_keyword, event_slot_placement, exhibitor_slot, keyword, world_area, world_artist,
    world_keyword,
};
use crate::error::{Error, Invalid, Result};
use crate::forms::checks;
use crate::types::kinds::{ConceptArtistCategory, WorldArtistCategory};

/// The most keywords, artists or areas one world or concept lists.
pub const MAX_LINKS: u64 = 50;

/// An artist credited on a world or concept, with their role (`C`: the vocabulary of roles).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Credit<C> {
    /// The artist.
    pub artist_id: i32,
    /// What they did.
    pub category: C,
}

/// An artist credit as staff send it (both parts required).
#[derive(Debug, Clone, Serialize, Deserialize, Validate)]
pub struct CreditInput<C: Serialize> {
    /// The artist.
    #[serde(default)]
    #[validate(required)]
    pub artist_id: Option<i32>,
    /// What they did.
    #[serde(default = "none")]
    #[validate(required)]
    pub category: Option<C>,
}

fn none<C>() -> Option<C> {
    None
}

/// A numbered area of a world.
#[derive(Debug, Clone, Serialize)]
pub struct AreaRecord {
    /// Area id.
    pub id: i32,
    /// Its name.
    pub name: String,
    /// Its number in the world.
    pub number: i32,
    /// Its picture, if any.
    pub image: Option<String>,
}

/// An area as staff send it: with its id to keep an existing one.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct AreaInput {
    /// The area's id when it already exists.
    pub id: Option<i32>,
    /// Its name.
    #[serde(deserialize_with = "input::trimmed")]
    #[validate(length(min = 1, max = 128), custom(function = "checks::clean_text"))]
    pub name: String,
    /// Its number in the world.
    #[validate(required, range(min = 1, max = 10000))]
    pub number: Option<i32>,
    /// Its picture (an uploaded picture's address; none clears it).
    #[serde(deserialize_with = "input::blank")]
    #[validate(custom(function = "input::picture"))]
    pub image: Option<String>,
}

/// Keyword ids per owner, from link rows `(owner, keyword)`.
fn group(pairs: impl IntoIterator<Item = (i32, i32)>) -> HashMap<i32, Vec<i32>> {
    let mut out: HashMap<i32, Vec<i32>> = HashMap::new();
    for (owner, linked) in pairs {
        out.entry(owner).or_default().push(linked);
    }
    out
}

/// The keywords of worlds `ids`, by world.
pub async fn world_keywords<C: ConnectionTrait>(db: &C, ids: Vec<i32>) -> Result<HashMap<i32, Vec<i32>>> {
    let rows = world_keyword::Entity::find()
        .filter(world_keyword::Column::WorldId.is_in(ids))
        .order_by_asc(world_keyword::Column::Id)
        .all(db)
        .await?;
    Ok(group(rows.into_iter().map(|r| (r.world_id, r.keyword_id))))
}

/// The keywords of concepts `ids`, by concept.
pub async fn concept_keywords<C: ConnectionTrait>(db: &C, ids: Vec<i32>) -> Result<HashMap<i32, Vec<i32>>> {
    let rows = concept_keyword::Entity::find()
        .filter(concept_keyword::Column::ConceptId.is_in(ids))
        .order_by_asc(concept_keyword::Column::Id)
        .all(db)
        .await?;
    Ok(group(rows.into_iter().map(|r| (r.concept_id, r.keyword_id))))
}

/// The artist credits of worlds `ids`, by world.
pub async fn world_artists<C: ConnectionTrait>(
    db: &C,
    ids: Vec<i32>,
) -> Result<HashMap<i32, Vec<Credit<WorldArtistCategory>>>> {
    let rows = world_artist::Entity::find()
        .filter(world_artist::Column::WorldId.is_in(ids))
        .order_by_asc(world_artist::Column::Id)
        .all(db)
        .await?;
    let mut out: HashMap<i32, Vec<_>> = HashMap::new();
    for r in rows {
        out.entry(r.world_id).or_default().push(Credit { artist_id: r.artist_id, category: r.category });
    }
    Ok(out)
}

/// The artist credits of concepts `ids`, by concept.
pub async fn concept_artists<C: ConnectionTrait>(
    db: &C,
    ids: Vec<i32>,
) -> Result<HashMap<i32, Vec<Credit<ConceptArtistCategory>>>> {
    let rows = concept_artist::Entity::find()
        .filter(concept_artist::Column::ConceptId.is_in(ids))
        .order_by_asc(concept_artist::Column::Id)
        .all(db)
        .await?;
    let mut out: HashMap<i32, Vec<_>> = HashMap::new();
    for r in rows {
        out.entry(r.concept_id).or_default().push(Credit { artist_id: r.artist_id, category: r.category });
    }
    Ok(out)
}

/// The areas of worlds `ids`, by world, in number order.
pub async fn world_areas<C: ConnectionTrait>(db: &C, ids: Vec<i32>) -> Result<HashMap<i32, Vec<AreaRecord>>> {
    let rows = world_area::Entity::find()
        .filter(world_area::Column::WorldId.is_in(ids))
        .order_by_asc(world_area::Column::Number)
        .order_by_asc(world_area::Column::Id)
        .all(db)
        .await?;
    let mut out: HashMap<i32, Vec<_>> = HashMap::new();
    for a in rows {
        out.entry(a.world_id).or_default().push(AreaRecord {
            id: a.id,
            name: a.name,
            number: a.number,
            image: a.image,
        });
    }
    Ok(out)
}

/// The problems of keyword ids and credits that name no keyword or artist.
pub async fn unknown_references<C: ConnectionTrait, K: Serialize>(
    db: &C,
    keyword_ids: &[i32],
    artists: &[CreditInput<K>],
) -> Result<Vec<Invalid>> {
    let mut problems = Vec::new();
    let known: HashSet<i32> = keyword::Entity::find()
        .filter(keyword::Column::Id.is_in(keyword_ids.to_vec()))
        .all(db)
        .await?
        .into_iter()
        .map(|k| k.id)
        .collect();
    if keyword_ids.iter().any(|id| !known.contains(id)) {
        problems.push(Invalid::new("keyword_ids", "validation.unknown_reference"));
    }
    let wanted: Vec<i32> = artists.iter().filter_map(|c| c.artist_id).collect();
    let known: HashSet<i32> = artist::Entity::find()
        .filter(artist::Column::Id.is_in(wanted))
        .all(db)
        .await?
        .into_iter()
        .map(|a| a.id)
        .collect();
    for (i, credit) in artists.iter().enumerate() {
        if credit.artist_id.is_some_and(|id| !known.contains(&id)) {
            problems.push(Invalid::new(format!("artists.{i}.artist_id"), "validation.unknown_reference"));
        }
    }
    Ok(problems)
}

/// Deletes what `stale` selects, then inserts `rows`: a link list replaced as a whole.
async fn replace<E, A>(txn: &DatabaseTransaction, stale: DeleteMany<E>, rows: Vec<A>) -> Result<()>
where
    E: EntityTrait,
    A: ActiveModelTrait<Entity = E> + ActiveModelBehavior + Send,
    E::Model: IntoActiveModel<A>,
{
    stale.exec(txn).await?;
    for row in rows {
        row.insert(txn).await?;
    }
    Ok(())
}

/// The complete credits of `artists` (both parts given).
fn complete<C: Serialize + Copy>(artists: &[CreditInput<C>]) -> impl Iterator<Item = (i32, C)> + '_ {
    artists.iter().filter_map(|c| Some((c.artist_id?, c.category?)))
}

/// Makes world `id`'s keywords exactly `keyword_ids` (duplicates once) and its credits `artists`.
pub async fn replace_world_links(
    txn: &DatabaseTransaction,
    id: i32,
    keyword_ids: &[i32],
    artists: &[CreditInput<WorldArtistCategory>],
) -> Result<()> {
    let keywords = distinct(keyword_ids)
        .into_iter()
        .map(|keyword_id| world_keyword::ActiveModel {
            world_id: Set(id),
            keyword_id: Set(keyword_id),
            ..Default::default()
        })
        .collect();
    replace(txn, world_keyword::Entity::delete_many().filter(world_keyword::Column::WorldId.eq(id)), keywords).await?;
    let credits = complete(artists)
        .map(|(artist_id, category)| world_artist::ActiveModel {
            world_id: Set(id),
            artist_id: Set(artist_id),
            category: Set(category),
            ..Default::default()
        })
        .collect();
    replace(txn, world_artist::Entity::delete_many().filter(world_artist::Column::WorldId.eq(id)), credits).await
}

/// Makes concept `id`'s keywords exactly `keyword_ids` and its credits `artists`.
pub async fn replace_concept_links(
    txn: &DatabaseTransaction,
    id: i32,
    keyword_ids: &[i32],
    artists: &[CreditInput<ConceptArtistCategory>],
) -> Result<()> {
    let keywords = distinct(keyword_ids)
        .into_iter()
        .map(|keyword_id| concept_keyword::ActiveModel {
            concept_id: Set(id),
            keyword_id: Set(keyword_id),
            ..Default::default()
        })
        .collect();
    replace(txn, concept_keyword::Entity::delete_many().filter(concept_keyword::Column::ConceptId.eq(id)), keywords)
        .await?;
    let credits = complete(artists)
        .map(|(artist_id, category)| concept_artist::ActiveModel {
            concept_id: Set(id),
            artist_id: Set(artist_id),
            category: Set(category),
            ..Default::default()
        })
        .collect();
    replace(txn, concept_artist::Entity::delete_many().filter(concept_artist::Column::ConceptId.eq(id)), credits).await
}

/// `ids` without repeats, in their order.
fn distinct(ids: &[i32]) -> Vec<i32> {
    let mut seen = HashSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

/// Makes world `id`'s areas exactly `areas`: those with an id of this world are kept (name,
/// number and picture updated), the others added, the rest removed — unless exhibitors have
/// slots in one (422 on `areas`).
pub async fn replace_areas(txn: &DatabaseTransaction, id: i32, areas: &[AreaInput]) -> Result<()> {
    let existing = world_area::Entity::find().filter(world_area::Column::WorldId.eq(id)).all(txn).await?;
    let kept: HashSet<i32> =
        areas.iter().filter_map(|a| a.id).filter(|a| existing.iter().any(|e| e.id == *a)).collect();
    let removed: Vec<i32> = existing.iter().map(|e| e.id).filter(|e| !kept.contains(e)).collect();
    let occupied = exhibitor_slot::Entity::find()
        .filter(exhibitor_slot::Column::WorldAreaId.is_in(removed.clone()))
        .one(txn)
        .await?;
    let placed = event_slot_placement::Entity::find()
        .filter(event_slot_placement::Column::WorldAreaId.is_in(removed.clone()))
        .one(txn)
        .await?;
    if occupied.is_some() || placed.is_some() {
        return Err(Error::invalid("areas", "validation.area_in_use"));
    }
    world_area::Entity::delete_many().filter(world_area::Column::Id.is_in(removed)).exec(txn).await?;
    for area in areas {
        let mut row = world_area::ActiveModel {
            world_id: Set(id),
            name: Set(area.name.clone()),
            number: Set(area.number.unwrap_or(1)),
            image: Set(area.image.clone()),
            ..Default::default()
        };
        match area.id.filter(|a| kept.contains(a)) {
            Some(area_id) => {
                row.id = Set(area_id);
                row.update(txn).await?;
            }
            None => {
                row.insert(txn).await?;
            }
        }
    }
    Ok(())
}
