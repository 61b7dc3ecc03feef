//! An event's public hub notifications in memory (issue 10), with their tags, users and worlds and
//! the text they are searched by, folded as the database folds it ([`crate::model::keyword`]).
//! Loaded once per data version and event, on first use ([`Tree::hub`], defined here), so
//! that the notification lists and their keyword search run no statement. What is published is
//! decided per request by the clock, as in the database; a page from here is the page
//! `hub_notification::Model::page` reads from the database (same notifications, order and counts;
//! `tests/it/keyword_memory.rs` compares them).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use sea_orm::sea_query::Query;
use sea_orm::{ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};

use crate::db::entities::{hub_notification, hub_notification_tag, user, world};
use crate::error::Result;
use crate::model::fold::Folding;
use crate::model::hub_notification::{HubFilter, HubNotificationView};
use crate::model::hub_tag::HubTagView;
use crate::model::keyword::{FoldedText, KeywordMatch, Span};
use crate::model::pagination::{PageRequest, ViewPage};
use crate::model::tree::Tree;
use crate::types::Lang;

/// The public notifications of one event.
pub struct HubList {
    /// Every public notification of the event (published or not yet), by id.
    items: Vec<hub_notification::Model>,
    /// Each one's title and content, folded.
    folded: FoldedText,
    spans: Vec<[Span; 2]>,
    /// The tags of each notification, in link order.
    tags: HashMap<i32, Vec<i32>>,
    /// The users they name.
    users: HashMap<i32, user::Model>,
    /// The worlds they name that the tree does not hold (worlds of events not public).
    worlds: HashMap<i32, world::Model>,
}

impl std::fmt::Debug for HubList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HubList").field("items", &self.items.len()).field("bytes", &self.size()).finish()
    }
}

impl HubList {
    /// Loads the public notifications of `event_id` with what their views show (two to four
    /// statements), folding their text as `folding`; `None` when they hold more than `budget`
    /// bytes (they are then listed from the database).
    pub async fn load(
        db: &impl ConnectionTrait,
        tree: &Tree,
        event_id: i32,
        folding: &Folding,
        budget: usize,
    ) -> Result<Option<Self>> {
        let items = hub_notification::Entity::find()
            .filter(hub_notification::Column::EventId.eq(event_id))
            .filter(hub_notification::Column::IsPublic.eq(true))
            .order_by_asc(hub_notification::Column::Id)
            .all(db)
            .await?;
        let public = Query::select()
            .column(hub_notification::Column::Id)
            .from(hub_notification::Entity)
            .and_where(hub_notification::Column::EventId.eq(event_id))
            .and_where(hub_notification::Column::IsPublic.eq(true))
            .to_owned();
        let mut tags: HashMap<i32, Vec<i32>> = HashMap::new();
        for link in hub_notification_tag::Entity::find()
            .filter(hub_notification_tag::Column::HubNotificationId.in_subquery(public))
            .order_by_asc(hub_notification_tag::Column::Id)
            .all(db)
            .await?
        {
            tags.entry(link.hub_notification_id).or_default().push(link.hub_tag_id);
        }
        let users = user::Model::by_ids(db, items.iter().filter_map(|i| i.user_id)).await?;
        let mut world_ids: Vec<i32> =
            items.iter().filter_map(|i| i.world_id).filter(|w| tree.world_by_id(*w).is_none()).collect();
        world_ids.sort_unstable();
        world_ids.dedup();
        let worlds = if world_ids.is_empty() {
            HashMap::new()
        } else {
            world::Entity::find()
                .filter(world::Column::Id.is_in(world_ids))
                .all(db)
                .await?
                .into_iter()
                .map(|w| (w.id, w))
                .collect()
        };
        let mut folded = FoldedText::default();
        let spans = items.iter().map(|n| [folded.push(folding, &n.title), folded.push(folding, &n.content)]).collect();
        folded.shrink_to_fit();
        let list = Self { items, folded, spans, tags, users, worlds };
        Ok((list.size() <= budget).then_some(list))
    }

    /// The bytes it holds.
    pub fn size(&self) -> usize {
        let text = |n: &hub_notification::Model| {
            n.title.len()
                + n.content.len()
                + n.link_url.as_ref().map_or(0, String::len)
                + n.thumbnail.as_ref().map_or(0, String::len)
        };
        self.items.iter().map(|n| std::mem::size_of::<hub_notification::Model>() + text(n)).sum::<usize>()
            + self.folded.size()
            + self.spans.capacity() * std::mem::size_of::<[Span; 2]>()
            + self.tags.values().map(|t| 32 + t.len() * 4).sum::<usize>()
            + self.users.len() * (std::mem::size_of::<user::Model>() + 256)
            + self.worlds.len() * (std::mem::size_of::<world::Model>() + 1024)
    }

    /// Whether `n` passes every condition of `filter` but the keyword.
    fn passes(&self, n: &hub_notification::Model, filter: &HubFilter) -> bool {
        let before = |at: Option<DateTime<Utc>>, bound: Option<DateTime<Utc>>| match bound {
            None => true,
            Some(b) => at.is_some_and(|a| a < b),
        };
        let from = |at: Option<DateTime<Utc>>, bound: Option<DateTime<Utc>>| match bound {
            None => true,
            Some(b) => at.is_some_and(|a| a >= b),
        };
        (filter.categories.is_empty() || filter.categories.contains(&n.category))
            && filter.locale.is_none_or(|l| l == n.locale)
            && filter.hub_tag_id.is_none_or(|t| self.tags.get(&n.id).is_some_and(|tags| tags.contains(&t)))
            && filter.world_id.is_none_or(|w| n.world_id == Some(w))
            && filter.user_id.is_none_or(|u| n.user_id == Some(u))
            && filter.is_official.is_none_or(|f| f == n.is_official)
            && filter.by_ambassador.is_none_or(|f| f == n.by_ambassador)
            && from(Some(n.start_at), filter.start_from)
            && before(Some(n.start_at), filter.start_to)
            && from(n.end_at, filter.end_from)
            && before(n.end_at, filter.end_to)
            && filter.live_at.is_none_or(|t| n.start_at <= t && n.end_at.is_some_and(|e| e > t))
    }

    /// One page of the notifications of the event public at `now` and matching `filter`, as views
    /// in `lang` (tags and worlds from `tree`), with the keyword folded as `folding`.
    pub fn page(
        &self,
        tree: &Tree,
        folding: &Folding,
        now: DateTime<Utc>,
        filter: &HubFilter,
        page: PageRequest,
        lang: Lang,
    ) -> ViewPage<HubNotificationView> {
        let keyword = KeywordMatch::new(folding, filter.keyword.as_deref().unwrap_or(""));
        let mut found: Vec<(u8, &hub_notification::Model)> = Vec::new();
        let mut all = 0;
        for (n, span) in self.items.iter().zip(&self.spans) {
            if n.publish_at > now {
                continue;
            }
            all += 1;
            if !self.passes(n, filter) {
                continue;
            }
            let rank = match &keyword {
                None => 0,
                Some(k) => {
                    let columns = [n.title.as_str(), n.content.as_str()];
                    let folded = [self.folded.get(span[0], columns[0]), self.folded.get(span[1], columns[1])];
                    if !k.matches(&folded, &columns) {
                        continue;
                    }
                    k.rank(&folded[..1], &columns[..1])
                }
            };
            found.push((rank, n));
        }
        if filter.live_at.is_some() {
            // What is on now: whatever ends soonest first.
            found.sort_by_key(|(rank, n)| (*rank, n.end_at, n.id));
        } else {
            found.sort_by_key(|(rank, n)| (*rank, Reverse((n.is_strong_recommended, n.start_at, n.id))));
        }
        let skip = usize::try_from(page.offset()).unwrap_or(usize::MAX);
        let take = usize::try_from(page.limit).unwrap_or(usize::MAX);
        let tag_of: HashMap<i32, &crate::db::entities::hub_tag::Model> =
            tree.hub_tags.iter().map(|t| (t.id, t)).collect();
        let data = found
            .iter()
            .skip(skip)
            .take(take)
            .map(|(_, n)| {
                let tags = self
                    .tags
                    .get(&n.id)
                    .map(|ids| ids.iter().filter_map(|t| tag_of.get(t)).map(|t| HubTagView::new(t, lang)).collect())
                    .unwrap_or_default();
                let world = n.world_id.and_then(|w| tree.world_by_id(w).or_else(|| self.worlds.get(&w)));
                let user = n.user_id.and_then(|u| self.users.get(&u));
                HubNotificationView::assemble((*n).clone(), tags, world, user, lang, now)
            })
            .collect();
        ViewPage { data, count: found.len() as u64, all }
    }
}

impl Tree {
    /// The public hub notifications of `event_id` in memory, with the folding their text was
    /// folded by; `None` — list them from the database then — while they are being loaded (the
    /// first request for them at a data version starts that, in the background: two to four
    /// statements) and when they do not fit the version's memory budget.
    pub async fn hub(
        self: &Arc<Self>,
        db: &DatabaseConnection,
        event_id: i32,
    ) -> Result<Option<(Arc<HubList>, Arc<Folding>)>> {
        let folding = self.folding(db).await?;
        let (db, f) = (db.clone(), folding.clone());
        let list = self.held_or_load(event_id, HubList::size, |tree, free| async move {
            HubList::load(&db, &tree, event_id, &f, free).await
        });
        Ok(list.map(|h| (h, folding)))
    }
}

impl HubNotificationView {
    /// One page of the notifications of `event_id` public at `now` and matching `filter`, as views
    /// in `lang`: from the event's notifications in memory ([`Tree::hub`]: no statement once
    /// loaded), or, when they do not fit there, from the database.
    pub async fn page(
        db: &DatabaseConnection,
        tree: &Arc<Tree>,
        event_id: i32,
        now: DateTime<Utc>,
        filter: &HubFilter,
        page: PageRequest,
        lang: Lang,
    ) -> Result<ViewPage<Self>> {
        if let Some((list, folding)) = tree.hub(db, event_id).await? {
            return Ok(list.page(tree, &folding, now, filter, page, lang));
        }
        let found = hub_notification::Model::page_in(db, tree, event_id, now, filter, page).await?;
        let data = Self::load_with_tree(db, tree, found.items, lang, now).await?;
        Ok(ViewPage { data, count: found.count, all: found.all })
    }
}
