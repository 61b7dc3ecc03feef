//! An event's catalogue in memory (issue 10): its listed items with everything their views show,
//! the text they are searched by — folded as the database folds it ([`crate::model::keyword`]) —
//! and their owners. Loaded once per data version and event, on first use
//! ([`Tree::catalogue`], defined here), so that the item lists and their keyword search run
//! no statement. A page from here is the page `catalog_item::Model::page` reads from the database:
//! the same items, order and counts (`tests/it/keyword_memory.rs` compares them).
//!
//! The text of every item lives in one string that the items index into, and its searched columns
//! once more, folded, when folding changes them ([`FoldedText`]): an item costs its text, the
//! folded copy of its cased columns and about 100 bytes, not a dozen allocations.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::db::entities::{catalog_item, company, company_world, exhibitor};
use crate::error::Result;
use crate::model::catalog::{
    CatalogItemView, CategoryView, ItemFilter, OwnerType, public_companies, visible_exhibitors,
};
use crate::model::fold::Folding;
use crate::model::keyword::{FoldedText, KeywordMatch, Span};
use crate::model::pagination::{PageRequest, ViewPage};
use crate::model::tree::Tree;
use crate::types::{Lang, Localized};

/// The searched columns of an item, in the order of `search::ITEMS` (names first).
const SEARCHED: usize = 4;
/// Of which names.
const NAMES: usize = 2;
/// Rows loaded per statement.
const CHUNK: u64 = 2_000;

/// The catalogue of one event.
pub struct Catalogue {
    items: Vec<Item>,
    /// Exhibitors' items (their exhibitor visible in the event), in display order.
    exhibitor_order: Vec<u32>,
    /// Companies' items (their company public in the event), in display order.
    company_order: Vec<u32>,
    /// Every item's text as stored.
    text: String,
    /// Every item's searched columns, folded.
    folded: FoldedText,
    /// The exhibitors the items name, by id.
    exhibitors: HashMap<i32, Owner>,
    /// The companies the items name, by id.
    companies: HashMap<i32, Owner>,
    /// `(company, world)` of the event's public companies.
    company_worlds: HashSet<(i32, i32)>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalogue").field("items", &self.items.len()).field("bytes", &self.size()).finish()
    }
}

/// An item's owner.
struct Owner {
    name_ja: String,
    name_en: String,
    world_id: Option<i32>,
}

/// One item.
struct Item {
    id: i32,
    exhibitor_id: Option<i32>,
    company_id: Option<i32>,
    category_id: i32,
    display_index: i32,
    price: Option<i32>,
    is_distributable: bool,
    has_thumbnail: bool,
    has_url: bool,
    /// Where its text starts in [`Catalogue::text`], then where `name_ja`, `name_en`,
    /// `description_ja`, `description_en`, `thumbnail` and `url` end.
    text: [u32; 7],
    /// Where the folded text of each searched column is in [`Catalogue::folded`].
    folded: [Span; SEARCHED],
}

/// The position `at` of a string being built, as an index (the catalogue stays far below 4 GiB:
/// it is held only within the memory budget).
fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

impl Catalogue {
    /// Loads the catalogue of `event_id` (six statements, and one more per 2,000 items), folding its text as `folding`; `None`
    /// once it grows beyond `budget` bytes (it is then searched in the database).
    pub async fn load(
        db: &impl ConnectionTrait,
        event_id: i32,
        folding: &Folding,
        budget: usize,
    ) -> Result<Option<Self>> {
        let in_event = Query::select()
            .column(catalog_item::Column::ExhibitorId)
            .from(catalog_item::Entity)
            .and_where(catalog_item::Column::EventId.eq(event_id))
            .to_owned();
        let exhibitors: HashMap<i32, Owner> = exhibitor::Entity::find()
            .select_only()
            .columns([
                exhibitor::Column::Id,
                exhibitor::Column::NameJa,
                exhibitor::Column::NameEn,
                exhibitor::Column::WorldId,
            ])
            .filter(exhibitor::Column::Id.in_subquery(in_event))
            .into_tuple::<(i32, String, String, Option<i32>)>()
            .all(db)
            .await?
            .into_iter()
            .map(|(id, name_ja, name_en, world_id)| (id, Owner { name_ja, name_en, world_id }))
            .collect();
        let visible: HashSet<i32> = exhibitor::Entity::find()
            .select_only()
            .column(exhibitor::Column::Id)
            .filter(exhibitor::Column::Id.in_subquery(visible_exhibitors(event_id)))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        let companies: HashMap<i32, Owner> = company::Entity::find()
            .select_only()
            .columns([company::Column::Id, company::Column::NameJa, company::Column::NameEn])
            .filter(
                company::Column::Id.in_subquery(
                    Query::select()
                        .column(catalog_item::Column::CompanyId)
                        .from(catalog_item::Entity)
                        .and_where(catalog_item::Column::EventId.eq(event_id))
                        .to_owned(),
                ),
            )
            .into_tuple::<(i32, String, String)>()
            .all(db)
            .await?
            .into_iter()
            .map(|(id, name_ja, name_en)| (id, Owner { name_ja, name_en, world_id: None }))
            .collect();
        let public: HashSet<i32> = company::Entity::find()
            .select_only()
            .column(company::Column::Id)
            .filter(company::Column::Id.in_subquery(public_companies(event_id)))
            .into_tuple::<i32>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        let company_worlds: HashSet<(i32, i32)> = company_world::Entity::find()
            .select_only()
            .columns([company_world::Column::CompanyId, company_world::Column::WorldId])
            .filter(company_world::Column::CompanyId.in_subquery(public_companies(event_id)))
            .into_tuple::<(i32, i32)>()
            .all(db)
            .await?
            .into_iter()
            .collect();
        let mut catalogue = Self {
            items: Vec::new(),
            exhibitor_order: Vec::new(),
            company_order: Vec::new(),
            text: String::new(),
            folded: FoldedText::default(),
            exhibitors,
            companies,
            company_worlds,
        };
        // In chunks by id (then put in display order), so that the rows as loaded never all
        // sit in memory at once.
        let mut after = i32::MIN;
        loop {
            let rows = catalog_item::Entity::find()
                .filter(catalog_item::Column::EventId.eq(event_id))
                .filter(catalog_item::Column::Id.gt(after))
                .order_by_asc(catalog_item::Column::Id)
                .limit(CHUNK)
                .all(db)
                .await?;
            let Some(last) = rows.last().map(|r| r.id) else { break };
            after = last;
            let full = rows.len() as u64 == CHUNK;
            for row in rows {
                let by_exhibitor = row.exhibitor_id.is_some_and(|e| visible.contains(&e));
                let by_company = row.company_id.is_some_and(|c| public.contains(&c));
                if !by_exhibitor && !by_company {
                    continue;
                }
                let index = offset(catalogue.items.len());
                if by_exhibitor {
                    catalogue.exhibitor_order.push(index);
                }
                if by_company {
                    catalogue.company_order.push(index);
                }
                catalogue.push(row, folding);
            }
            if catalogue.size() > budget {
                return Ok(None);
            }
            if !full {
                break;
            }
        }
        let items = &catalogue.items;
        let display = |i: &u32| items.get(*i as usize).map(|it| (it.display_index, it.id));
        catalogue.exhibitor_order.sort_by_key(display);
        catalogue.company_order.sort_by_key(display);
        catalogue.items.shrink_to_fit();
        catalogue.text.shrink_to_fit();
        catalogue.folded.shrink_to_fit();
        Ok(Some(catalogue))
    }

    fn push(&mut self, row: catalog_item::Model, folding: &Folding) {
        let mut text = [offset(self.text.len()); 7];
        let fields = [
            row.name_ja.as_str(),
            row.name_en.as_str(),
            row.description_ja.as_str(),
            row.description_en.as_str(),
            row.thumbnail.as_deref().unwrap_or(""),
            row.url.as_deref().unwrap_or(""),
        ];
        for (i, field) in fields.iter().enumerate() {
            self.text.push_str(field);
            text[i + 1] = offset(self.text.len());
        }
        let folded = std::array::from_fn(|i| self.folded.push(folding, fields[i]));
        self.items.push(Item {
            id: row.id,
            exhibitor_id: row.exhibitor_id,
            company_id: row.company_id,
            category_id: row.category_id,
            display_index: row.display_index,
            price: row.price,
            is_distributable: row.is_distributable,
            has_thumbnail: row.thumbnail.is_some(),
            has_url: row.url.is_some(),
            text,
            folded,
        });
    }

    /// The bytes it holds.
    pub fn size(&self) -> usize {
        let owners = |m: &HashMap<i32, Owner>| {
            m.values().map(|o| o.name_ja.len() + o.name_en.len() + std::mem::size_of::<(i32, Owner)>()).sum::<usize>()
        };
        self.items.capacity() * std::mem::size_of::<Item>()
            + (self.exhibitor_order.capacity() + self.company_order.capacity()) * 4
            + self.text.capacity()
            + self.folded.size()
            + owners(&self.exhibitors)
            + owners(&self.companies)
            + self.company_worlds.len() * 8
    }

    /// Field `i` of `item` (0 `name_ja`, 1 `name_en`, 2 `description_ja`, 3 `description_en`,
    /// 4 `thumbnail`, 5 `url`).
    fn field(&self, item: &Item, i: usize) -> &str {
        self.text.get(item.text[i] as usize..item.text[i + 1] as usize).unwrap_or("")
    }

    /// One page of the items matching `filter`, as views in `lang` (categories from `tree`), with
    /// the keyword folded as `folding`.
    pub fn page(
        &self,
        tree: &Tree,
        folding: &Folding,
        filter: &ItemFilter,
        page: PageRequest,
        lang: Lang,
    ) -> ViewPage<CatalogItemView> {
        let order = match filter.owner {
            OwnerType::Exhibitor => &self.exhibitor_order,
            OwnerType::Company => &self.company_order,
        };
        let keyword = KeywordMatch::new(folding, filter.keyword.as_deref().unwrap_or(""));
        let mut found: Vec<(u8, u32)> = Vec::new();
        for &index in order {
            let Some(item) = self.items.get(index as usize) else { continue };
            if filter.category_id.is_some_and(|c| c != item.category_id)
                || filter.is_distributable.is_some_and(|d| d != item.is_distributable)
                || filter.world_id.is_some_and(|w| !self.in_world(item, filter.owner, w))
            {
                continue;
            }
            let rank = match &keyword {
                None => 0,
                Some(k) => {
                    let columns: [&str; SEARCHED] = std::array::from_fn(|i| self.field(item, i));
                    let folded: [&str; SEARCHED] = std::array::from_fn(|i| self.folded.get(item.folded[i], columns[i]));
                    if !k.matches(&folded, &columns) {
                        continue;
                    }
                    k.rank(&folded[..NAMES], &columns[..NAMES])
                }
            };
            found.push((rank, index));
        }
        // Stable: within a rank, display order.
        found.sort_by_key(|(rank, _)| *rank);
        let skip = usize::try_from(page.offset()).unwrap_or(usize::MAX);
        let take = usize::try_from(page.limit).unwrap_or(usize::MAX);
        let data = found
            .iter()
            .skip(skip)
            .take(take)
            .filter_map(|(_, index)| self.view(tree, self.items.get(*index as usize)?, lang))
            .collect();
        ViewPage { data, count: found.len() as u64, all: order.len() as u64 }
    }

    /// Whether `item` is shown in world `world_id` (for the owner type listed).
    fn in_world(&self, item: &Item, owner: OwnerType, world_id: i32) -> bool {
        match owner {
            OwnerType::Exhibitor => {
                item.exhibitor_id.and_then(|e| self.exhibitors.get(&e)).is_some_and(|e| e.world_id == Some(world_id))
            }
            OwnerType::Company => item.company_id.is_some_and(|c| self.company_worlds.contains(&(c, world_id))),
        }
    }

    /// The view of `item` (`None` when its category is unknown, as from the database).
    fn view(&self, tree: &Tree, item: &Item, lang: Lang) -> Option<CatalogItemView> {
        let category = tree.categories.iter().find(|c| c.id == item.category_id)?;
        let owner = match (item.exhibitor_id, item.company_id) {
            (Some(e), _) => self.exhibitors.get(&e),
            (None, Some(c)) => self.companies.get(&c),
            (None, None) => None,
        };
        let field = |i| self.field(item, i).to_string();
        Some(CatalogItemView {
            id: item.id,
            name: Localized::new(lang, field(0), field(1)),
            description: Localized::new(lang, field(2), field(3)),
            thumbnail: item.has_thumbnail.then(|| field(4)),
            url: item.has_url.then(|| field(5)),
            is_distributable: item.is_distributable,
            price: item.price,
            category: CategoryView::new(category, lang),
            exhibitor_id: item.exhibitor_id,
            company_id: item.company_id,
            owner_name: owner.map(|o| lang.pick(&o.name_ja, &o.name_en).to_string()).unwrap_or_default(),
        })
    }
}

impl Tree {
    /// The catalogue of `event_id` in memory, with the folding its text was folded by; `None` —
    /// list it from the database then — while it is being loaded (the first request for it at a
    /// data version starts that, in the background: about six statements) and when it does not fit
    /// the version's memory budget.
    pub async fn catalogue(
        self: &Arc<Self>,
        db: &DatabaseConnection,
        event_id: i32,
    ) -> Result<Option<(Arc<Catalogue>, Arc<Folding>)>> {
        let folding = self.folding(db).await?;
        let (db, f) = (db.clone(), folding.clone());
        let list = self.held_or_load(event_id, Catalogue::size, |_, free| async move {
            Catalogue::load(&db, event_id, &f, free).await
        });
        Ok(list.map(|c| (c, folding)))
    }
}

impl CatalogItemView {
    /// One page of the items of `event_id` matching `filter`, as views in `lang`: from the event's
    /// catalogue in memory ([`Tree::catalogue`]: no statement once loaded), or, when it does not
    /// fit there, from the database ([`catalog_item::Model::page_in`]).
    pub async fn page(
        db: &DatabaseConnection,
        tree: &Arc<Tree>,
        event_id: i32,
        filter: &ItemFilter,
        page: PageRequest,
        lang: Lang,
    ) -> Result<ViewPage<Self>> {
        if let Some((catalogue, folding)) = tree.catalogue(db, event_id).await? {
            return Ok(catalogue.page(tree, &folding, filter, page, lang));
        }
        let found = catalog_item::Model::page_in(db, tree, event_id, filter, page).await?;
        let data = Self::load_with_tree(db, tree, found.items, lang).await?;
        Ok(ViewPage { data, count: found.count, all: found.all })
    }
}
