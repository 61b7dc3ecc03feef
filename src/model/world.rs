//! Worlds: filtered, paginated listing and the view with keywords and artists attached.

use std::collections::HashMap;

use sea_orm::sea_query::{Expr, ExprTrait, Func, LikeExpr, Query};
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{keyword, poster, world, world_area, world_artist, world_keyword};
use crate::error::{Error, Result};
use crate::model::pagination::PageRequest;
use crate::model::people::{ArtistView, KeywordView, artists_by_id, keywords_by_id};
use crate::model::search::{self, escape_like};
use crate::model::tree::Tree;
use crate::types::kinds::{Platform, Venue, WorldArtistCategory};
use crate::types::{Lang, Localized, localized};

/// A keyword link of a world.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorldKeywordView {
    /// Link id.
    pub id: i32,
    /// The keyword.
    pub keyword: KeywordView,
}

/// An artist credit on a world.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorldArtistView {
    /// Link id.
    pub id: i32,
    /// What the artist did.
    pub category: WorldArtistCategory,
    /// The artist.
    pub artist: ArtistView,
}

/// A world as clients see it (spec §3 World).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorldView {
    /// World id.
    pub id: i32,
    /// Owning event.
    pub event_id: i32,
    /// Owning concept.
    pub concept_id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
    /// Logo.
    pub logo: Option<String>,
    /// Thumbnail.
    pub image: Option<String>,
    /// Keyword names in Japanese.
    pub keywords_ja: Vec<String>,
    /// Keyword names in English.
    pub keywords_en: Vec<String>,
    /// Keyword names in the requested language.
    pub keywords: Vec<String>,
    /// Supported clients.
    pub exhibition_platform: Platform,
    /// Hosting venue.
    pub venue: Venue,
    /// A corporate world.
    pub is_company: bool,
    /// Where to launch the world.
    pub launch_link: Option<String>,
    /// Keyword links.
    pub world_keywords: Vec<WorldKeywordView>,
    /// Artist credits.
    pub world_artists: Vec<WorldArtistView>,
}

/// List filters for worlds of one event.
#[derive(Debug, Clone, Default)]
pub struct WorldFilter {
    /// Only worlds of this concept.
    pub concept_id: Option<i32>,
    /// Part of a name or keyword, either language, case-insensitive.
    pub keyword: Option<String>,
    /// Only this venue.
    pub venue: Option<Venue>,
    /// Only this platform.
    pub exhibition_platform: Option<Platform>,
    /// Only corporate (or only non-corporate) worlds.
    pub is_company: Option<bool>,
}

impl WorldFilter {
    fn condition(&self, event_id: i32) -> Condition {
        let mut cond = Condition::all().add(world::Column::EventId.eq(event_id));
        if let Some(id) = self.concept_id {
            cond = cond.add(world::Column::ConceptId.eq(id));
        }
        if let Some(v) = self.venue {
            cond = cond.add(world::Column::Venue.eq(v));
        }
        if let Some(p) = self.exhibition_platform {
            cond = cond.add(world::Column::ExhibitionPlatform.eq(p));
        }
        if let Some(c) = self.is_company {
            cond = cond.add(world::Column::IsCompany.eq(c));
        }
        if let Some(kw) = self.keyword.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
            // The keyword as one phrase, in any of its forms (hiragana or katakana, either width).
            let mut any = Condition::any();
            for variant in search::variants(kw) {
                any = any.add(phrase_matches(&variant));
            }
            cond = cond.add(any);
        }
        cond
    }
}

/// A world whose name, or one of whose keywords' names, contains `phrase` (case-insensitively).
fn phrase_matches(phrase: &str) -> Condition {
    let pattern = LikeExpr::new(format!("%{}%", escape_like(&phrase.to_lowercase()))).escape('\\');
    let lower_like = |col: world::Column| Expr::expr(Func::lower(Expr::col(col))).like(pattern.clone());
    let keyword_match = Query::select()
        .column(world_keyword::Column::WorldId)
        .from(world_keyword::Entity)
        .inner_join(
            keyword::Entity,
            Expr::col((keyword::Entity, keyword::Column::Id))
                .equals((world_keyword::Entity, world_keyword::Column::KeywordId)),
        )
        .cond_where(
            Condition::any()
                .add(
                    Expr::expr(Func::lower(Expr::col((keyword::Entity, keyword::Column::NameJa))))
                        .like(pattern.clone()),
                )
                .add(
                    Expr::expr(Func::lower(Expr::col((keyword::Entity, keyword::Column::NameEn))))
                        .like(pattern.clone()),
                ),
        )
        .to_owned();
    Condition::any()
        .add(lower_like(world::Column::NameJa))
        .add(lower_like(world::Column::NameEn))
        .add(world::Column::Id.in_subquery(keyword_match))
}

/// One page of worlds.
pub struct WorldPage {
    /// The worlds on this page.
    pub worlds: Vec<world::Model>,
    /// How many match the filter.
    pub count: u64,
    /// How many the event has in all.
    pub all: u64,
}

impl world::Model {
    /// Finds a world of `event_id` by id.
    pub async fn find_in_event(db: &impl ConnectionTrait, event_id: i32, id: i32) -> Result<Self> {
        world::Entity::find_by_id(id)
            .filter(world::Column::EventId.eq(event_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Finds a world by id in any public event.
    pub async fn find(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        world::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Worlds of `event_id` matching `filter`, in display order, one page of them.
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        filter: &WorldFilter,
        page: PageRequest,
    ) -> Result<WorldPage> {
        let select = world::Entity::find().filter(filter.condition(event_id));
        let count = select.clone().count(db).await?;
        let all = world::Entity::find().filter(world::Column::EventId.eq(event_id)).count(db).await?;
        let worlds = select
            .order_by_asc(world::Column::DisplayOrder)
            .order_by_asc(world::Column::Id)
            .offset(page.offset())
            .limit(page.limit)
            .all(db)
            .await?;
        Ok(WorldPage { worlds, count, all })
    }

    /// Every world of `event_id`, in display order.
    pub async fn of_event(db: &impl ConnectionTrait, event_id: i32) -> Result<Vec<Self>> {
        Ok(world::Entity::find()
            .filter(world::Column::EventId.eq(event_id))
            .order_by_asc(world::Column::DisplayOrder)
            .order_by_asc(world::Column::Id)
            .all(db)
            .await?)
    }

    /// Every world of the given concepts, in display order.
    pub async fn of_concepts(db: &impl ConnectionTrait, concept_ids: Vec<i32>) -> Result<Vec<Self>> {
        Ok(world::Entity::find()
            .filter(world::Column::ConceptId.is_in(concept_ids))
            .order_by_asc(world::Column::DisplayOrder)
            .order_by_asc(world::Column::Id)
            .all(db)
            .await?)
    }

    /// The world's areas, by number.
    pub async fn areas(&self, db: &impl ConnectionTrait) -> Result<Vec<world_area::Model>> {
        Ok(world_area::Entity::find()
            .filter(world_area::Column::WorldId.eq(self.id))
            .order_by_asc(world_area::Column::Number)
            .all(db)
            .await?)
    }

    /// The world's posters, by number.
    pub async fn posters(&self, db: &impl ConnectionTrait) -> Result<Vec<poster::Model>> {
        Ok(poster::Entity::find()
            .filter(poster::Column::WorldId.eq(self.id))
            .order_by_asc(poster::Column::Number)
            .all(db)
            .await?)
    }
}

impl WorldView {
    /// Views of `worlds` in `lang`, with keywords and artists loaded in four queries in all.
    pub async fn load(db: &impl ConnectionTrait, worlds: Vec<world::Model>, lang: Lang) -> Result<Vec<Self>> {
        let ids: Vec<i32> = worlds.iter().map(|w| w.id).collect();
        let kw_links = world_keyword::Entity::find()
            .filter(world_keyword::Column::WorldId.is_in(ids.clone()))
            .order_by_asc(world_keyword::Column::Id)
            .all(db)
            .await?;
        let artist_links = world_artist::Entity::find()
            .filter(world_artist::Column::WorldId.is_in(ids))
            .order_by_asc(world_artist::Column::Id)
            .all(db)
            .await?;
        let keywords = keywords_by_id(db, kw_links.iter().map(|l| l.keyword_id).collect()).await?;
        let artists = artists_by_id(db, artist_links.iter().map(|l| l.artist_id).collect()).await?;

        let mut kw_by_world: HashMap<i32, Vec<WorldKeywordView>> = HashMap::new();
        for link in &kw_links {
            if let Some(k) = keywords.get(&link.keyword_id) {
                kw_by_world
                    .entry(link.world_id)
                    .or_default()
                    .push(WorldKeywordView { id: link.id, keyword: KeywordView::new(k, lang) });
            }
        }
        let mut artists_by_world: HashMap<i32, Vec<WorldArtistView>> = HashMap::new();
        for link in &artist_links {
            if let Some(a) = artists.get(&link.artist_id) {
                artists_by_world.entry(link.world_id).or_default().push(WorldArtistView {
                    id: link.id,
                    category: link.category,
                    artist: ArtistView::new(a, lang),
                });
            }
        }
        Ok(worlds
            .into_iter()
            .map(|w| {
                let world_keywords = kw_by_world.remove(&w.id).unwrap_or_default();
                Self {
                    keywords_ja: world_keywords.iter().map(|k| k.keyword.name.text().ja.clone()).collect(),
                    keywords_en: world_keywords.iter().map(|k| k.keyword.name.text().en.clone()).collect(),
                    keywords: world_keywords.iter().map(|k| k.keyword.name.get().clone()).collect(),
                    world_keywords,
                    world_artists: artists_by_world.remove(&w.id).unwrap_or_default(),
                    name: Localized::new(lang, w.name_ja, w.name_en),
                    description: Localized::new(lang, w.description_ja, w.description_en),
                    id: w.id,
                    event_id: w.event_id,
                    concept_id: w.concept_id,
                    logo: w.logo,
                    image: w.image,
                    exhibition_platform: w.exhibition_platform,
                    venue: w.venue,
                    is_company: w.is_company,
                    launch_link: w.launch_link,
                }
            })
            .collect())
    }

    /// Views of `worlds` in `lang` from the event tree (no statement).
    pub fn from_tree<'a>(tree: &Tree, worlds: impl IntoIterator<Item = &'a world::Model>, lang: Lang) -> Vec<Self> {
        worlds
            .into_iter()
            .map(|w| {
                let world_keywords: Vec<WorldKeywordView> = tree
                    .world_keywords
                    .get(&w.id)
                    .into_iter()
                    .flatten()
                    .filter_map(|link| {
                        let k = tree.keywords.get(&link.keyword_id)?;
                        Some(WorldKeywordView { id: link.id, keyword: KeywordView::new(k, lang) })
                    })
                    .collect();
                let world_artists = tree
                    .world_artists
                    .get(&w.id)
                    .into_iter()
                    .flatten()
                    .filter_map(|link| {
                        let a = tree.artists.get(&link.artist_id)?;
                        Some(WorldArtistView { id: link.id, category: link.category, artist: ArtistView::new(a, lang) })
                    })
                    .collect();
                Self {
                    keywords_ja: world_keywords.iter().map(|k| k.keyword.name.text().ja.clone()).collect(),
                    keywords_en: world_keywords.iter().map(|k| k.keyword.name.text().en.clone()).collect(),
                    keywords: world_keywords.iter().map(|k| k.keyword.name.get().clone()).collect(),
                    world_keywords,
                    world_artists,
                    name: Localized::new(lang, w.name_ja.clone(), w.name_en.clone()),
                    description: Localized::new(lang, w.description_ja.clone(), w.description_en.clone()),
                    id: w.id,
                    event_id: w.event_id,
                    concept_id: w.concept_id,
                    logo: w.logo.clone(),
                    image: w.image.clone(),
                    exhibition_platform: w.exhibition_platform,
                    venue: w.venue,
                    is_company: w.is_company,
                    launch_link: w.launch_link.clone(),
                }
            })
            .collect()
    }

    /// The view of one world.
    pub async fn load_one(db: &impl ConnectionTrait, world: world::Model, lang: Lang) -> Result<Self> {
        let mut views = Self::load(db, vec![world], lang).await?;
        views.pop().ok_or_else(|| Error::Internal("world view vanished".into()))
    }
}
