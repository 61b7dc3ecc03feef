//! Catalogue pages: the catalogue top (concepts and worlds as entry points), a world's
//! catalogue, keyword search, and the catalogue summary (`/{permalink}/confirmation`). Each
//! exists for the current event (`/catalog…`) and for any event (`/{permalink}/catalog…`).
//!
//! Before the event-open phase (spec §4) the search header, a world's catalogue and the launch
//! button are hidden; the pages say when the catalogue opens instead.

use crate::http::template::Template;
use rocket::{FromForm, Route, get, routes};
use serde_json::{Value, json};

use crate::db::entities::{catalog_item, company, exhibitor, world};
use crate::error::{Error, Result};
use crate::model::catalog::{self, CatalogItemView, CategoryGroupType, CategoryGroupView, ItemFilter, OwnerType};
use crate::model::company::{CompanyFilter, CompanyView};
use crate::model::concept::ConceptView;
use crate::model::event::{EventView, EventWithPhases};
use crate::model::exhibitor::{ExhibitorFilter, ExhibitorView};
use crate::model::pagination::{DEFAULT_LIMIT, PageRequest, Pagination};
use crate::model::phase::PhaseType;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};

/// A page parameter that failed its check: 404 "Page Not Found".
fn invalid() -> Error {
    Error::NotFound { code: "invalid_parameter" }
}

/// The event a catalogue page is about, and the path prefix of its pages.
pub(crate) struct CatalogContext {
    pub(crate) event: EventWithPhases,
    /// `""` for the current event, `/{permalink}` otherwise.
    pub(crate) base: String,
    pub(crate) open: bool,
}

impl CatalogContext {
    pub(crate) async fn load(page: &Page<'_>, permalink: Option<&Permalink>) -> Result<Self> {
        let (event, base) = match permalink {
            Some(p) => {
                let e = page.tree.resolve(p.as_str()).ok_or_else(Error::unknown_permalink)?;
                (e.clone(), format!("/{}", p.as_str()))
            }
            None => (page.tree.current(page.now).cloned().ok_or_else(Error::unknown_permalink)?, String::new()),
        };
        let open = catalog::is_open(&event, page.now);
        Ok(Self { event, base, open })
    }

    /// Context every catalogue template reads.
    pub(crate) fn common(&self, page: &Page<'_>) -> Value {
        let permalink = &self.event.event.permalink;
        json!({
            "event": EventView::new(&self.event, page.lang, page.now),
            "catalog_open": self.open,
            "opens_at": self.event.at(PhaseType::EventOpen),
            "catalog_href": page.href(&format!("{}/catalog", self.base)),
            "search_href": page.href(&format!("{}/catalog/search", self.base)),
            "exhibitor_base": page.href(&format!("/{permalink}/exhibitor")),
            "company_base": page.href(&format!("/{permalink}/company")),
        })
    }

    fn world_href(&self, page: &Page<'_>, w: &world::Model) -> String {
        page.href(&format!("{}/catalog/{}?world_id={}", self.base, w.concept_id, w.id))
    }
}

/// Renders `template` with the common context merged into `ctx`.
fn render(page: &Page<'_>, cx: &CatalogContext, template: &'static str, title: &str, ctx: Value) -> Template {
    let mut all = cx.common(page);
    if let (Value::Object(all), Value::Object(extra)) = (&mut all, ctx) {
        all.extend(extra);
    }
    page.render(template, title, all)
}

/// The catalogue of the current event.
#[get("/catalog")]
pub async fn current_index(page: Page<'_>) -> Result<Template> {
    index(&page, CatalogContext::load(&page, None).await?).await
}

/// The catalogue of the event `permalink`.
#[get("/<permalink>/catalog", rank = 5)]
pub async fn event_index(page: Page<'_>, permalink: Permalink) -> Result<Template> {
    index(&page, CatalogContext::load(&page, Some(&permalink)).await?).await
}

async fn index(page: &Page<'_>, cx: CatalogContext) -> Result<Template> {
    let event_id = cx.event.event.id;
    let tree = page.tree.clone();
    let worlds = tree.worlds_of(event_id);
    let counts = if cx.open { exhibitor::Model::count_by_world(page.db, event_id).await? } else { Default::default() };
    let views = ConceptView::from_tree(&tree, tree.concepts_of(event_id), page.lang);
    let sections: Vec<Value> = views
        .iter()
        .map(|c| {
            let cards: Vec<Value> = worlds
                .iter()
                .filter(|w| w.concept_id == c.id)
                .map(|w| {
                    json!({
                        "id": w.id,
                        "name": page.lang.pick(&w.name_ja, &w.name_en),
                        "image": w.image,
                        "href": cx.world_href(page, w),
                        "exhibitors": counts.get(&w.id).copied().unwrap_or(0),
                    })
                })
                .collect();
            json!({ "concept": c, "worlds": cards })
        })
        .collect();
    let title = page.t("catalog.title");
    Ok(render(page, &cx, "catalog/index", &title, json!({ "sections": sections, "search": SearchView::blank() })))
}

/// A world's catalogue in the current event.
#[get("/catalog/<concept_id>?<world_id>", rank = 2)]
pub async fn current_world(page: Page<'_>, concept_id: Id, world_id: Option<&str>) -> Result<Template> {
    let cx = CatalogContext::load(&page, None).await?;
    world_page(&page, cx, concept_id, world_id).await
}

/// A world's catalogue in the event `permalink`.
#[get("/<permalink>/catalog/<concept_id>?<world_id>", rank = 7)]
pub async fn event_world(
    page: Page<'_>,
    permalink: Permalink,
    concept_id: Id,
    world_id: Option<&str>,
) -> Result<Template> {
    let cx = CatalogContext::load(&page, Some(&permalink)).await?;
    world_page(&page, cx, concept_id, world_id).await
}

async fn world_page(page: &Page<'_>, cx: CatalogContext, concept_id: Id, world_id: Option<&str>) -> Result<Template> {
    let world_id = Id::parse(world_id.ok_or_else(invalid)?).map_err(|_| invalid())?;
    let event_id = cx.event.event.id;
    let tree = page.tree.clone();
    let c = tree.concept(event_id, concept_id.0).ok_or_else(Error::not_found)?;
    let w = tree.world(event_id, world_id.0).ok_or_else(Error::not_found)?;
    if w.concept_id != c.id {
        return Err(Error::not_found());
    }
    let mut ctx = json!({
        "concept_name": page.lang.pick(&c.name_ja, &c.name_en),
        "world": { "id": w.id, "name": page.lang.pick(&w.name_ja, &w.name_en),
                   "description": page.lang.pick(&w.description_ja, &w.description_en),
                   "image": w.image, "launch_link": w.launch_link },
        "world_href": page.href(&format!("{}/world/{}", cx.base, w.id)),
    });
    if cx.open {
        let exhibitors =
            ExhibitorView::load(page.db, exhibitor::Model::in_world(page.db, event_id, w.id).await?, page.lang).await?;
        let companies =
            CompanyView::load(page.db, company::Model::in_world(page.db, event_id, w.id).await?, page.lang).await?;
        let owner = if c.is_company { OwnerType::Company } else { OwnerType::Exhibitor };
        let filter = ItemFilter { world_id: Some(w.id), ..ItemFilter::of(owner) };
        let found = CatalogItemView::page(
            page.db,
            &page.tree,
            event_id,
            &filter,
            PageRequest { page: 1, limit: 12 },
            page.lang,
        )
        .await?;
        let items = found.data;
        let type_key = if c.is_company { "company" } else { "exhibitor" };
        ctx["exhibitors"] = json!(exhibitors);
        ctx["companies"] = json!(companies);
        ctx["items"] = json!(items);
        ctx["item_count"] = json!(found.count);
        ctx["more_items_href"] =
            json!(page.href(&format!("{}/catalog/search?viewType=item&type={type_key}&world_id={}", cx.base, w.id)));
    }
    let title = page.lang.pick(&w.name_ja, &w.name_en).to_string();
    Ok(render(page, &cx, "catalog/world", &title, ctx))
}

/// Raw query of the search page; every value is checked before use.
#[derive(Debug, FromForm)]
pub struct SearchQuery<'r> {
    keyword: Option<&'r str>,
    #[field(name = "viewType")]
    view_type: Option<&'r str>,
    #[field(name = "type")]
    owner: Option<&'r str>,
    category_id: Option<&'r str>,
    world_id: Option<&'r str>,
    is_distributable: Option<&'r str>,
    page: Option<&'r str>,
}

/// The checked search query, as the form shows it again.
#[derive(Debug, Clone, serde::Serialize)]
struct SearchView {
    keyword: String,
    view_type: &'static str,
    owner: &'static str,
    category_id: Option<i32>,
    world_id: Option<i32>,
    is_distributable: bool,
    page: u64,
}

impl SearchView {
    fn blank() -> Self {
        Self {
            keyword: String::new(),
            view_type: "item",
            owner: "exhibitor",
            category_id: None,
            world_id: None,
            is_distributable: false,
            page: 1,
        }
    }

    fn parse(q: &SearchQuery<'_>) -> Result<Self> {
        let id = |raw: Option<&str>| match raw.filter(|r| !r.is_empty()) {
            None => Ok(None),
            Some(r) => Id::parse(r).map(|i| Some(i.0)).map_err(|_| invalid()),
        };
        Ok(Self {
            keyword: q.keyword.unwrap_or("").trim().to_string(),
            view_type: match q.view_type.filter(|v| !v.is_empty()) {
                None | Some("item") => "item",
                Some("circle") => "circle",
                Some(_) => return Err(invalid()),
            },
            owner: match q.owner.filter(|v| !v.is_empty()) {
                None | Some("exhibitor") => "exhibitor",
                Some("company") => "company",
                Some(_) => return Err(invalid()),
            },
            category_id: id(q.category_id)?,
            world_id: id(q.world_id)?,
            is_distributable: match q.is_distributable.filter(|v| !v.is_empty()) {
                None | Some("false" | "0") => false,
                Some("true" | "1" | "on") => true,
                Some(_) => return Err(invalid()),
            },
            page: page_number(q.page)?,
        })
    }

    /// The query string of this search on page `n`.
    fn query(&self, n: u64) -> String {
        let mut pairs = url::form_urlencoded::Serializer::new(String::new());
        if !self.keyword.is_empty() {
            pairs.append_pair("keyword", &self.keyword);
        }
        pairs.append_pair("viewType", self.view_type).append_pair("type", self.owner);
        if let Some(c) = self.category_id {
            pairs.append_pair("category_id", &c.to_string());
        }
        if let Some(w) = self.world_id {
            pairs.append_pair("world_id", &w.to_string());
        }
        if self.is_distributable {
            pairs.append_pair("is_distributable", "true");
        }
        if n > 1 {
            pairs.append_pair("page", &n.to_string());
        }
        pairs.finish()
    }
}

/// Catalogue search in the current event.
#[get("/catalog/search?<q..>", rank = 1)]
pub async fn current_search(page: Page<'_>, q: SearchQuery<'_>) -> Result<Template> {
    let cx = CatalogContext::load(&page, None).await?;
    search(&page, cx, q).await
}

/// Catalogue search in the event `permalink`.
#[get("/<permalink>/catalog/search?<q..>", rank = 6)]
pub async fn event_search(page: Page<'_>, permalink: Permalink, q: SearchQuery<'_>) -> Result<Template> {
    let cx = CatalogContext::load(&page, Some(&permalink)).await?;
    search(&page, cx, q).await
}

async fn search(page: &Page<'_>, cx: CatalogContext, q: SearchQuery<'_>) -> Result<Template> {
    let s = SearchView::parse(&q)?;
    let title = page.t("catalog.search_title");
    if !cx.open {
        return Ok(render(page, &cx, "catalog/search", &title, json!({ "search": s })));
    }
    let event_id = cx.event.event.id;
    let req = PageRequest { page: s.page, limit: DEFAULT_LIMIT };
    let keyword = (!s.keyword.is_empty()).then(|| s.keyword.clone());
    let owner = if s.owner == "company" { OwnerType::Company } else { OwnerType::Exhibitor };
    let (results, count, all) = match (s.view_type, owner) {
        ("item", _) => {
            let filter = ItemFilter {
                owner,
                keyword,
                world_id: s.world_id,
                category_id: s.category_id,
                is_distributable: s.is_distributable.then_some(true),
            };
            let found = CatalogItemView::page(page.db, &page.tree, event_id, &filter, req, page.lang).await?;
            (json!(found.data), found.count, found.all)
        }
        (_, OwnerType::Exhibitor) => {
            let filter = ExhibitorFilter {
                keyword,
                world_id: s.world_id,
                category_id: s.category_id,
                is_distributable: s.is_distributable.then_some(true),
                kind: None,
            };
            let found = exhibitor::Model::page(page.db, event_id, &filter, req).await?;
            (json!(ExhibitorView::load(page.db, found.exhibitors, page.lang).await?), found.count, found.all)
        }
        (_, OwnerType::Company) => {
            let filter = CompanyFilter { keyword, world_id: s.world_id };
            let found = company::Model::page(page.db, event_id, &filter, req).await?;
            (json!(CompanyView::load(page.db, found.companies, page.lang).await?), found.count, found.all)
        }
    };
    let pagination = Pagination::new(req, count, all);
    let search_href = page.href(&format!("{}/catalog/search", cx.base));
    let link = |n: u64| format!("{search_href}?{}", s.query(n));
    let group_type = if owner == OwnerType::Company { CategoryGroupType::Company } else { CategoryGroupType::General };
    let groups = CategoryGroupView::from_tree(&page.tree, group_type, page.lang);
    let worlds: Vec<Value> = page
        .tree
        .worlds_of(event_id)
        .iter()
        .take(1000)
        .map(|w| json!({ "id": w.id, "name": page.lang.pick(&w.name_ja, &w.name_en) }))
        .collect();
    Ok(render(
        page,
        &cx,
        "catalog/search",
        &title,
        json!({
            "search": s,
            "results": results,
            "pagination": pagination,
            "pager": pager(&pagination, link),
            "groups": groups,
            "worlds": worlds,
        }),
    ))
}

/// The catalogue summary of the event `permalink`: when it opens and closes, and what it holds.
#[get("/<permalink>/confirmation", rank = 5)]
pub async fn confirmation(page: Page<'_>, permalink: Permalink) -> Result<Template> {
    let cx = CatalogContext::load(&page, Some(&permalink)).await?;
    let event_id = cx.event.event.id;
    let tree = &page.tree;
    let count_items = |owner| async move {
        if let Some(n) = tree.item_counts.get(&(event_id, owner)) {
            return Ok::<u64, Error>(*n);
        }
        let one = PageRequest { page: 1, limit: 1 };
        Ok::<u64, Error>(catalog_item::Model::page(page.db, event_id, &ItemFilter::of(owner), one).await?.count)
    };
    let exhibitors = exhibitor::Model::count_by_world(page.db, event_id).await?;
    let concepts = page.tree.concepts_of(event_id);
    let worlds = page.tree.worlds_of(event_id);
    let rows: Vec<Value> = concepts
        .iter()
        .map(|c| {
            let mine: Vec<_> = worlds.iter().filter(|w| w.concept_id == c.id).collect();
            json!({
                "name": page.lang.pick(&c.name_ja, &c.name_en),
                "worlds": mine.len(),
                "exhibitors": mine.iter().map(|w| exhibitors.get(&w.id).copied().unwrap_or(0)).sum::<u64>(),
            })
        })
        .collect();
    let companies =
        company::Model::page(page.db, event_id, &CompanyFilter::default(), PageRequest { page: 1, limit: 1 })
            .await?
            .count;
    let status = if cx.event.reached(PhaseType::EventClose, page.now) {
        "closed"
    } else if cx.open {
        "open"
    } else {
        "upcoming"
    };
    let title = page.t("confirmation.title");
    let ctx = json!({
        "status": status,
        "closes_at": cx.event.at(PhaseType::EventClose),
        "concept_rows": rows,
        "totals": {
            "exhibitors": exhibitors.values().sum::<u64>(),
            "items": count_items(OwnerType::Exhibitor).await?,
            "companies": companies,
            "company_items": count_items(OwnerType::Company).await?,
        },
    });
    Ok(render(&page, &cx, "catalog/confirmation", &title, ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![current_index, event_index, current_world, event_world, current_search, event_search, confirmation]
}
