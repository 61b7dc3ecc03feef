//! The event tree held in memory per data version (issue 10): the public events with their
//! phases, concepts, worlds, keywords and artists with their links, the public side of the
//! lottery runs, the catalogue's category groups and the hub tags — what nearly every public page
//! and list starts from — plus every instant at which public output changes by the clock alone
//! (phases, hub notifications' publication, start and end). Loaded once per data version
//! ([`Trees::get`]), so a page or list runs only the statements of its own rows.
//!
//! The catalogue and the hub notifications of an event are larger: the tree holds them too, but
//! loads them only when a request first asks ([`Tree::held_or_load`], called by
//! `catalog_memory::Catalogue::held` and `hub_memory::HubList::held`), in the background — that request and those after it are answered from the database until the list is
//! held, so a write never makes visitors wait for a reload — one load of a list at a time, and
//! only within a memory budget per version (`list_memory_mib`); an event whose lists do not fit is
//! listed from the database, as before.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};

use crate::db::entities::catalog_item;
use crate::db::entities::catalog_item::OwnerType;
use crate::db::entities::{
    artist, catalog_item_category, catalog_item_category_group, concept, concept_artist, concept_keyword,
    hub_notification, hub_tag, keyword, lottery_run, world, world_artist, world_keyword,
};
use crate::error::Result;
use crate::model::event::EventWithPhases;
use crate::model::fold::Folding;
use crate::model::lottery::PublicRun;

/// A public hub notification's event, publication, start and end.
type HubTimes = (i32, DateTime<Utc>, DateTime<Utc>, Option<DateTime<Utc>>);

/// The public event tree at one data version.
#[derive(Debug, Default)]
pub struct Tree {
    /// The data version it was loaded at (its rows may be newer, never older).
    pub version: i64,
    /// Every public event with its phases, newest edition first (as
    /// [`EventWithPhases::all_public`]).
    pub events: Vec<EventWithPhases>,
    /// Concepts of each public event, in display order.
    pub concepts: HashMap<i32, Vec<concept::Model>>,
    /// Worlds of each public event, in display order.
    pub worlds: HashMap<i32, Vec<world::Model>>,
    /// Keywords by id.
    pub keywords: HashMap<i32, keyword::Model>,
    /// Artists by id.
    pub artists: HashMap<i32, artist::Model>,
    /// Keyword links of each world, by link id.
    pub world_keywords: HashMap<i32, Vec<world_keyword::Model>>,
    /// Artist links of each world, by link id.
    pub world_artists: HashMap<i32, Vec<world_artist::Model>>,
    /// Keyword links of each concept, by link id.
    pub concept_keywords: HashMap<i32, Vec<concept_keyword::Model>>,
    /// Artist links of each concept, by link id.
    pub concept_artists: HashMap<i32, Vec<concept_artist::Model>>,
    /// The committed lottery runs of each event as the public sees them, first round first.
    pub lottery_runs: HashMap<i32, Vec<PublicRun>>,
    /// Catalogue category groups in display order.
    pub category_groups: Vec<catalog_item_category_group::Model>,
    /// Catalogue categories in display order.
    pub categories: Vec<catalog_item_category::Model>,
    /// Hub tags in display order.
    pub hub_tags: Vec<hub_tag::Model>,
    /// Every instant at which public output changes by the clock alone, sorted.
    pub moments: Vec<DateTime<Utc>>,
    /// How many catalogue items each public event holds, per owner type (visible owners only).
    pub item_counts: HashMap<(i32, OwnerType), u64>,
    /// When each public hub notification of each event is published, sorted.
    pub hub_published: HashMap<i32, Vec<DateTime<Utc>>>,
    /// Every world of the public events, by id.
    pub world_index: HashMap<i32, (i32, usize)>,
    /// What every version's tree shares.
    shared: Arc<Shared>,
    /// The lists loaded on first use.
    held: Held,
}

/// What the trees of every data version share.
#[derive(Debug, Default)]
pub struct Shared {
    /// How the database folds case in its keyword search, read on first use.
    folding: tokio::sync::OnceCell<Arc<Folding>>,
    /// The bytes the lists of one version may hold.
    budget: usize,
    /// The lists being loaded, by kind and event, whatever the version: one load of a list at a
    /// time, however often the data version moves while it runs.
    loading: Mutex<HashSet<ListKey>>,
}

impl Shared {
    async fn folding(&self, db: &impl ConnectionTrait) -> Result<Arc<Folding>> {
        Ok(self.folding.get_or_try_init(|| async { Folding::load(db).await.map(Arc::new) }).await?.clone())
    }
}

/// A list a tree holds, of any kind (the kinds are the types of the lists, e.g. the catalogue).
type AnyList = Arc<dyn Any + Send + Sync>;

/// Which list of which event: the list's type and the event.
type ListKey = (TypeId, i32);

/// An event's list in a tree: being loaded, or held (`None` when it did not fit the budget).
#[derive(Debug)]
enum Slot {
    Loading,
    Held(Option<AnyList>),
}

/// The lists of one version's events held in memory.
#[derive(Debug, Default)]
struct Held {
    /// The bytes they hold.
    bytes: AtomicUsize,
    /// Each event's lists, by kind.
    lists: Mutex<HashMap<ListKey, Slot>>,
    /// How many of them are being loaded.
    loading: AtomicUsize,
    /// Told each time a load ends.
    loaded: tokio::sync::Notify,
}

/// The end of a list's background load, however it ends (a panic included): the slot is left
/// holding the list, or emptied for a later request to try again, and waiters are told.
struct Loading {
    tree: Arc<Tree>,
    key: ListKey,
    outcome: Option<Slot>,
}

impl Loading {
    /// The load ended: the slot becomes `outcome` (emptied when `None`) once this is dropped.
    fn ended(mut self, outcome: Option<Slot>) {
        self.outcome = outcome;
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        {
            let mut lists = self.tree.held.lists.lock().unwrap_or_else(PoisonError::into_inner);
            match self.outcome.take() {
                Some(slot) => lists.insert(self.key, slot),
                None => lists.remove(&self.key),
            };
        }
        self.tree.shared.loading.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.key);
        self.tree.held.loading.fetch_sub(1, Ordering::AcqRel);
        self.tree.held.loaded.notify_waiters();
    }
}

impl Tree {
    /// The list of kind `T` of `event_id` if this tree holds it. Otherwise `None`, and the first
    /// request to ask starts loading it in the background with `load` (given the bytes still
    /// free), unless the list of another version is being loaded (one load of a list at a time):
    /// until it is held, requests are answered from the database. `size` tells the bytes a
    /// loaded list holds; a list that does not fit the budget stays `None`.
    pub fn held_or_load<T, F>(
        self: &Arc<Self>,
        event_id: i32,
        size: fn(&T) -> usize,
        load: impl FnOnce(Arc<Tree>, usize) -> F,
    ) -> Option<Arc<T>>
    where
        T: Send + Sync + 'static,
        F: Future<Output = Result<Option<T>>> + Send + 'static,
    {
        let key = (TypeId::of::<T>(), event_id);
        {
            let mut held = self.held.lists.lock().unwrap_or_else(PoisonError::into_inner);
            match held.get(&key) {
                Some(Slot::Held(list)) => return list.clone().and_then(|list| list.downcast::<T>().ok()),
                Some(Slot::Loading) => return None,
                None => {}
            }
            if !self.shared.loading.lock().unwrap_or_else(PoisonError::into_inner).insert(key) {
                return None;
            }
            held.insert(key, Slot::Loading);
        }
        self.held.loading.fetch_add(1, Ordering::AcqRel);
        let budget = self.shared.budget;
        let free = budget.saturating_sub(self.held.bytes.load(Ordering::Acquire));
        // The guard first: should making the load panic, the slot is still emptied.
        let end = Loading { tree: self.clone(), key, outcome: None };
        let loaded = load(self.clone(), free);
        drop(tokio::spawn(async move {
            let outcome = match loaded.await {
                Ok(Some(list)) => {
                    let bytes = size(&list);
                    let kept = end
                        .tree
                        .held
                        .bytes
                        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |b| {
                            b.checked_add(bytes).filter(|total| *total <= budget)
                        })
                        .is_ok();
                    Some(Slot::Held(kept.then(|| Arc::new(list) as AnyList)))
                }
                Ok(None) => Some(Slot::Held(None)),
                Err(e) => {
                    let kind = std::any::type_name::<T>();
                    tracing::warn!(error = %e, event_id, kind, "list not loaded into memory; answering from the database");
                    None
                }
            };
            end.ended(outcome);
        }));
        None
    }

    /// Waits until every list this tree started loading is loaded (or failed to).
    pub async fn settled(&self) {
        loop {
            let loaded = self.held.loaded.notified();
            tokio::pin!(loaded);
            loaded.as_mut().enable();
            if self.held.loading.load(Ordering::Acquire) == 0 {
                return;
            }
            loaded.await;
        }
    }
}

impl Tree {
    /// Loads the tree (15 statements plus two per public event, whatever the size of the data);
    /// its lists share `shared`.
    pub async fn load(db: &impl ConnectionTrait, version: i64, shared: Arc<Shared>) -> Result<Self> {
        let events = EventWithPhases::all_public(db).await?;
        let ids: Vec<i32> = events.iter().map(|e| e.event.id).collect();
        let mut concepts: HashMap<i32, Vec<concept::Model>> = HashMap::new();
        for c in concept::Entity::find()
            .filter(concept::Column::EventId.is_in(ids.clone()))
            .order_by_asc(concept::Column::DisplayOrder)
            .order_by_asc(concept::Column::Id)
            .all(db)
            .await?
        {
            concepts.entry(c.event_id).or_default().push(c);
        }
        let mut worlds: HashMap<i32, Vec<world::Model>> = HashMap::new();
        for w in world::Entity::find()
            .filter(world::Column::EventId.is_in(ids.clone()))
            .order_by_asc(world::Column::DisplayOrder)
            .order_by_asc(world::Column::Id)
            .all(db)
            .await?
        {
            worlds.entry(w.event_id).or_default().push(w);
        }
        let keywords = keyword::Entity::find().all(db).await?.into_iter().map(|k| (k.id, k)).collect();
        let artists = artist::Entity::find().all(db).await?.into_iter().map(|a| (a.id, a)).collect();
        let mut world_keywords: HashMap<i32, Vec<world_keyword::Model>> = HashMap::new();
        for l in world_keyword::Entity::find().order_by_asc(world_keyword::Column::Id).all(db).await? {
            world_keywords.entry(l.world_id).or_default().push(l);
        }
        let mut world_artists: HashMap<i32, Vec<world_artist::Model>> = HashMap::new();
        for l in world_artist::Entity::find().order_by_asc(world_artist::Column::Id).all(db).await? {
            world_artists.entry(l.world_id).or_default().push(l);
        }
        let mut concept_keywords: HashMap<i32, Vec<concept_keyword::Model>> = HashMap::new();
        for l in concept_keyword::Entity::find().order_by_asc(concept_keyword::Column::Id).all(db).await? {
            concept_keywords.entry(l.concept_id).or_default().push(l);
        }
        let mut concept_artists: HashMap<i32, Vec<concept_artist::Model>> = HashMap::new();
        for l in concept_artist::Entity::find().order_by_asc(concept_artist::Column::Id).all(db).await? {
            concept_artists.entry(l.concept_id).or_default().push(l);
        }
        let permalinks: HashMap<i32, &str> = events.iter().map(|e| (e.event.id, e.event.permalink.as_str())).collect();
        let mut runs = lottery_run::Entity::find().filter(lottery_run::Column::EventId.is_in(ids)).all(db).await?;
        runs.sort_by(|a, b| (a.event_id, a.round.as_str()).cmp(&(b.event_id, b.round.as_str())));
        let mut lottery_runs: HashMap<i32, Vec<PublicRun>> = HashMap::new();
        for run in &runs {
            if let Some(permalink) = permalinks.get(&run.event_id) {
                lottery_runs.entry(run.event_id).or_default().push(PublicRun::of(run, permalink));
            }
        }
        drop(runs);
        let category_groups = catalog_item_category_group::Entity::find()
            .order_by_asc(catalog_item_category_group::Column::DisplayIndex)
            .order_by_asc(catalog_item_category_group::Column::Id)
            .all(db)
            .await?;
        let categories = catalog_item_category::Entity::find()
            .order_by_asc(catalog_item_category::Column::DisplayIndex)
            .order_by_asc(catalog_item_category::Column::Id)
            .all(db)
            .await?;
        let hub_tags = hub_tag::Entity::find()
            .order_by_asc(hub_tag::Column::DisplayIndex)
            .order_by_asc(hub_tag::Column::Id)
            .all(db)
            .await?;
        let mut moments: Vec<DateTime<Utc>> = events
            .iter()
            .flat_map(|e| e.phases.iter().map(|p| p.phase_timestamp).chain([e.event.created_at]))
            .collect();
        let hub_times: Vec<HubTimes> = hub_notification::Entity::find()
            .select_only()
            .column(hub_notification::Column::EventId)
            .column(hub_notification::Column::PublishAt)
            .column(hub_notification::Column::StartAt)
            .column(hub_notification::Column::EndAt)
            .filter(hub_notification::Column::IsPublic.eq(true))
            .into_tuple()
            .all(db)
            .await?;
        let mut hub_published: HashMap<i32, Vec<DateTime<Utc>>> = HashMap::new();
        for (event_id, publish, start, end) in hub_times {
            moments.extend([publish, start]);
            moments.extend(end);
            hub_published.entry(event_id).or_default().push(publish);
        }
        for times in hub_published.values_mut() {
            times.sort();
        }
        moments.sort();
        moments.dedup();
        let mut item_counts = HashMap::new();
        for e in &events {
            for owner in [OwnerType::Exhibitor, OwnerType::Company] {
                item_counts.insert((e.event.id, owner), catalog_item::Model::count_all(db, e.event.id, owner).await?);
            }
        }
        let world_index = worlds
            .iter()
            .flat_map(|(event_id, ws)| ws.iter().enumerate().map(move |(i, w)| (w.id, (*event_id, i))))
            .collect();
        Ok(Self {
            version,
            events,
            concepts,
            worlds,
            keywords,
            artists,
            world_keywords,
            world_artists,
            concept_keywords,
            concept_artists,
            lottery_runs,
            category_groups,
            categories,
            hub_tags,
            moments,
            item_counts,
            hub_published,
            world_index,
            shared,
            held: Held::default(),
        })
    }

    /// How the database folds case in its keyword search (read once, shared by every version):
    /// the folding the lists held in memory are folded by.
    pub async fn folding(&self, db: &impl ConnectionTrait) -> Result<Arc<Folding>> {
        self.shared.folding(db).await
    }

    /// How many of the clock's [`Tree::moments`] have passed at `now`: public output at two
    /// instants with the same count is the same (at the same data version).
    pub fn epoch(&self, now: DateTime<Utc>) -> usize {
        self.moments.partition_point(|m| *m <= now)
    }

    /// The first of the clock's [`Tree::moments`] after `now`: until then public output stays
    /// the same (at the same data version).
    pub fn next_moment(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.moments.get(self.epoch(now)).copied()
    }

    /// The public event with this permalink.
    pub fn event_by_permalink(&self, permalink: &str) -> Option<&EventWithPhases> {
        self.events.iter().find(|e| e.event.permalink == permalink)
    }

    /// The public event `key` names: its permalink, or else its numeric id (as
    /// [`event::Model::resolve`]).
    pub fn resolve(&self, key: &str) -> Option<&EventWithPhases> {
        self.event_by_permalink(key).or_else(|| {
            let id = key.parse::<i32>().ok()?;
            self.events.iter().find(|e| e.event.id == id)
        })
    }

    /// The current event at `now` ([`crate::model::event::pick_current`]).
    pub fn current(&self, now: DateTime<Utc>) -> Option<&EventWithPhases> {
        let picked = crate::model::event::pick_current_index(&self.events, now)?;
        self.events.get(picked)
    }

    /// The concepts of `event_id`, in display order.
    pub fn concepts_of(&self, event_id: i32) -> &[concept::Model] {
        self.concepts.get(&event_id).map_or(&[], Vec::as_slice)
    }

    /// The worlds of `event_id`, in display order.
    pub fn worlds_of(&self, event_id: i32) -> &[world::Model] {
        self.worlds.get(&event_id).map_or(&[], Vec::as_slice)
    }

    /// The world `id` of `event_id`.
    pub fn world(&self, event_id: i32, id: i32) -> Option<&world::Model> {
        self.worlds_of(event_id).iter().find(|w| w.id == id)
    }

    /// How many public notifications of `event_id` are published at `now`.
    pub fn hub_published_count(&self, event_id: i32, now: DateTime<Utc>) -> u64 {
        self.hub_published.get(&event_id).map_or(0, |t| t.partition_point(|p| *p <= now) as u64)
    }

    /// The world `id` of any public event.
    pub fn world_by_id(&self, id: i32) -> Option<&world::Model> {
        let (event_id, i) = self.world_index.get(&id)?;
        self.worlds.get(event_id)?.get(*i)
    }

    /// The concept `id` of `event_id`.
    pub fn concept(&self, event_id: i32, id: i32) -> Option<&concept::Model> {
        self.concepts_of(event_id).iter().find(|c| c.id == id)
    }
}

/// The tree of the newest data version seen, shared by every request of a node (managed state).
#[derive(Debug)]
pub struct Trees {
    current: Mutex<Option<Arc<Tree>>>,
    loading: tokio::sync::Mutex<()>,
    shared: Arc<Shared>,
}

impl Trees {
    /// No tree yet; the lists of a version may hold `list_memory_mib` MiB.
    pub fn new(list_memory_mib: u32) -> Self {
        Self {
            current: Mutex::new(None),
            loading: tokio::sync::Mutex::new(()),
            shared: Arc::new(Shared { budget: (list_memory_mib as usize) << 20, ..Shared::default() }),
        }
    }

    /// The tree at `version` or newer, loading it when this node has only an older one. Loads
    /// once however many requests ask at the same time.
    pub async fn get(&self, db: &impl ConnectionTrait, version: i64) -> Result<Arc<Tree>> {
        if let Some(tree) = self.fresh(version) {
            return Ok(tree);
        }
        let _loading = self.loading.lock().await;
        if let Some(tree) = self.fresh(version) {
            return Ok(tree);
        }
        let tree = Arc::new(Tree::load(db, version, self.shared.clone()).await?);
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Some(tree.clone());
        Ok(tree)
    }

    /// Waits until the lists the newest tree started loading are held (see [`Tree::settled`]).
    pub async fn settled(&self) {
        let current = self.current.lock().unwrap_or_else(PoisonError::into_inner).clone();
        if let Some(tree) = current {
            tree.settled().await;
        }
    }

    fn fresh(&self, version: i64) -> Option<Arc<Tree>> {
        self.current.lock().unwrap_or_else(PoisonError::into_inner).as_ref().filter(|t| t.version >= version).cloned()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::error::Error;

    /// Two trees (two data versions) sharing what every version shares.
    fn two_versions() -> (Arc<Tree>, Arc<Tree>) {
        let shared = Arc::new(Shared { budget: 1 << 20, ..Shared::default() });
        let tree = |version| Arc::new(Tree { version, shared: shared.clone(), ..Tree::default() });
        (tree(1), tree(2))
    }

    /// A list of some kind.
    struct List;

    /// Asks `tree` for event 1's list with a load that ends as `outcome` says; tells whether
    /// that load was started.
    fn ask(tree: &Arc<Tree>, outcome: impl Future<Output = Result<Option<List>>> + Send + 'static) -> bool {
        let started = Arc::new(AtomicBool::new(false));
        let flag = started.clone();
        let held = tree.held_or_load(
            1,
            |_: &List| 0,
            move |_, _| {
                flag.store(true, Ordering::SeqCst);
                outcome
            },
        );
        assert!(held.is_none(), "nothing is held before a load ends");
        started.load(Ordering::SeqCst)
    }

    #[tokio::test]
    async fn one_load_of_a_list_at_a_time_whatever_the_version() {
        let (old, new) = two_versions();
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        assert!(ask(&old, async move {
            let _ = released.await;
            Ok(None)
        }));
        assert!(!ask(&old, async { Ok(None) }), "the same tree does not load it twice");
        assert!(!ask(&new, async { Ok(None) }), "a newer version waits for the running load");
        release.send(()).unwrap();
        old.settled().await;
        assert!(!ask(&old, async { Ok(None) }), "a list that did not fit stays unloaded at its version");
        assert!(ask(&new, async { Ok(None) }), "the newer version loads once the other load ended");
        new.settled().await;
    }

    #[tokio::test]
    async fn a_load_that_fails_or_panics_is_tried_again_later() {
        let (tree, _) = two_versions();
        assert!(ask(&tree, async { Err(Error::not_found()) }));
        tree.settled().await;
        assert!(ask(&tree, async { panic!("a load that panics") }));
        tree.settled().await;
        assert!(ask(&tree, async { Ok(None) }), "neither left the list marked as loading");
        tree.settled().await;
    }
}
