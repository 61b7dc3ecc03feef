//! Store item sets (`store_item_parents`, issue 31, spec §3 "Store item" `parentItems`): a seller
//! sells several of their items together as one item, a *set*. Whoever holds a standing purchase
//! of a set holds each item in it: its file downloads through the set's purchase, furniture in it
//! is in the booth maker's palette, parts in it are theirs in the avatar maker, and buying an
//! item they hold through a set is refused (`held_through_set`).
//!
//! The rules of a set's contents ([`set_contents`]):
//! - the seller's own items only (another's, or an unknown one, is 422 at `items`), not the set
//!   itself, at most [`MAX_CONTENTS`];
//! - one level: a set is not put in a set, and an item in a set gets no contents of its own
//!   (409 `set_in_set`);
//! - once a set has been bought its contents only grow: what a buyer paid for stays theirs
//!   (removing an item is 409 `set_sold`).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, Set,
    TransactionSession, TransactionTrait,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::store_item::{self, AccessibleStatus};
use crate::db::entities::store_item_parent;
use crate::db::entities::store_purchase::{self, PurchaseStatus};
use crate::error::{Error, Invalid, Result};

/// The most items one set holds.
pub const MAX_CONTENTS: usize = 20;

/// Another item as an item names it: a set's contents, or the sets an item is in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ItemRef {
    /// Its public id.
    pub uuid: String,
    /// Name.
    pub name: String,
    /// English name ("" when none).
    pub name_en: String,
    /// Whether anyone may open its page (published or limited, not hidden by staff); a private
    /// item in a set is named, not linked.
    pub public: bool,
}

impl ItemRef {
    /// What `item` is named and whether its page is open.
    pub fn of(item: &store_item::Model) -> Self {
        Self {
            uuid: item.uuid.clone(),
            name: item.name.clone(),
            name_en: item.name_en.clone(),
            public: !item.is_forced_private && item.accessible_status != AccessibleStatus::Private,
        }
    }
}

/// Which side of a link [`links`] looks up by.
#[derive(Clone, Copy)]
enum Side {
    /// By set: its items.
    Set,
    /// By item: its sets.
    Item,
}

/// The links of `ids` looked up by `side`, as a map to the other side's ids (in the sets'
/// order, then the oldest link first); an id without links is absent.
async fn links(
    db: &impl ConnectionTrait,
    side: Side,
    ids: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, Vec<i32>>> {
    let column = match side {
        Side::Set => store_item_parent::Column::ParentId,
        Side::Item => store_item_parent::Column::ItemId,
    };
    let rows = store_item_parent::Entity::find()
        .filter(column.is_in(ids))
        .order_by_asc(store_item_parent::Column::Position)
        .order_by_asc(store_item_parent::Column::Id)
        .all(db)
        .await?;
    let mut out: HashMap<i32, Vec<i32>> = HashMap::new();
    for row in rows {
        let (from, to) = match side {
            Side::Set => (row.parent_id, row.item_id),
            Side::Item => (row.item_id, row.parent_id),
        };
        out.entry(from).or_default().push(to);
    }
    Ok(out)
}

/// The contents of each of the sets `parents` (item ids in the set's order); a set without
/// contents is absent.
pub async fn contents_of(
    db: &impl ConnectionTrait,
    parents: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, Vec<i32>>> {
    links(db, Side::Set, parents).await
}

/// The sets each of `items` is in (set ids); an item in none is absent.
pub async fn sets_of(
    db: &impl ConnectionTrait,
    items: impl IntoIterator<Item = i32>,
) -> Result<HashMap<i32, Vec<i32>>> {
    links(db, Side::Item, items).await
}

/// The item `uuid` in set `set_id`: 404 when the set does not hold it.
pub async fn item_in(db: &impl ConnectionTrait, set_id: i32, uuid: &str) -> Result<store_item::Model> {
    let contents = contents_of(db, [set_id]).await?.remove(&set_id).unwrap_or_default();
    store_item::Entity::find()
        .filter(store_item::Column::Uuid.eq(uuid))
        .filter(store_item::Column::Id.is_in(contents))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)
}

/// Whether set `set_id` has a purchase that stands.
async fn sold(db: &impl ConnectionTrait, set_id: i32) -> Result<bool> {
    Ok(store_purchase::Entity::find()
        .filter(store_purchase::Column::ItemId.eq(set_id))
        .filter(store_purchase::Column::Status.eq(PurchaseStatus::Paid))
        .count(db)
        .await?
        > 0)
}

/// Makes the seller's item `set` hold exactly the items `uuids` (their order is the set's; a
/// repeat counts once; none makes it an ordinary item again), by the rules of this module. The
/// checks that read other rows run in the same write transaction as the change.
pub async fn set_contents(
    db: &(impl ConnectionTrait + TransactionTrait),
    set: &store_item::Model,
    uuids: &[String],
    now: DateTime<Utc>,
) -> Result<Vec<i32>> {
    let mut seen = HashSet::new();
    let wanted: Vec<&str> = uuids.iter().map(|u| u.trim()).filter(|u| seen.insert(*u)).collect();
    if wanted.len() > MAX_CONTENTS {
        return Err(Error::Validation(vec![
            Invalid::new("items", "validation.set_too_many").with("max", MAX_CONTENTS),
        ]));
    }
    if wanted.contains(&set.uuid.as_str()) {
        return Err(Error::invalid("items", "validation.set_itself"));
    }
    let found: HashMap<String, store_item::Model> = store_item::Entity::find()
        .filter(store_item::Column::Uuid.is_in(wanted.iter().copied()))
        .filter(store_item::Column::UserId.eq(set.user_id))
        .all(db)
        .await?
        .into_iter()
        .map(|i| (i.uuid.clone(), i))
        .collect();
    let ids = wanted
        .iter()
        .map(|u| found.get(*u).map(|i| i.id))
        .collect::<Option<Vec<i32>>>()
        .ok_or_else(|| Error::invalid("items", "validation.set_unknown_item"))?;

    let txn = crate::db::begin_write(db).await?;
    let nested = if ids.is_empty() {
        false
    } else {
        let in_a_set = sets_of(&txn, [set.id]).await?.contains_key(&set.id);
        in_a_set || !contents_of(&txn, ids.iter().copied()).await?.is_empty()
    };
    if nested {
        txn.rollback().await?;
        return Err(Error::Conflict { code: "set_in_set" });
    }
    let before = contents_of(&txn, [set.id]).await?.remove(&set.id).unwrap_or_default();
    if before.iter().any(|id| !ids.contains(id)) && sold(&txn, set.id).await? {
        txn.rollback().await?;
        return Err(Error::Conflict { code: "set_sold" });
    }
    store_item_parent::Entity::delete_many().filter(store_item_parent::Column::ParentId.eq(set.id)).exec(&txn).await?;
    for (place, id) in ids.iter().enumerate() {
        store_item_parent::ActiveModel {
            parent_id: Set(set.id),
            item_id: Set(*id),
            position: Set(place as i32 + 1),
            created_at: Set(now),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(ids)
}

/// The seller's items that could go in their item `set` now: not the set, not a set themselves;
/// none when `set` is in a set (it cannot hold any). In their order.
pub async fn candidates(db: &impl ConnectionTrait, set: &store_item::Model) -> Result<Vec<store_item::Model>> {
    if sets_of(db, [set.id]).await?.contains_key(&set.id) {
        return Ok(Vec::new());
    }
    let all: Vec<store_item::Model> =
        store_item::Model::all_of_seller(db, set.user_id).await?.into_iter().filter(|i| i.id != set.id).collect();
    let sets = contents_of(db, all.iter().map(|i| i.id)).await?;
    Ok(all.into_iter().filter(|i| !sets.contains_key(&i.id)).collect())
}
