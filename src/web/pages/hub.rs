//! Hub pages (spec §2 "Hub routes"): `/hub/search`, and under `/hub/{permalink}/` the sections
//! `notification` (official announcements), `virtual_events` (metaverse and user events),
//! `official_stream`, `campaign`, `official_streamers` and `official_ambassador`, each a
//! paginated list with `/{id}` detail pages. `/hub` leads to the current event's hub.
//!
//! Pages show the notifications written for the page's audience (Japanese pages: `jp`,
//! English pages: `global`). A bad `page` or id, a hidden notification or one outside the
//! section is 404.

use crate::http::template::Template;
use rocket::request::FromParam;
use rocket::response::Redirect;
use rocket::{FromForm, Route, get, routes};
use serde_json::{Value, json};

use crate::db::entities::hub_notification;
use crate::error::{Error, Result};
use crate::model::ambassador::{AmbassadorFilter, AmbassadorView};
use crate::model::event::{EventView, EventWithPhases};
use crate::model::hub_notification::{HubCategory, HubFilter, HubLocale, HubNotificationView};
use crate::model::hub_tag::HubTagView;
use crate::model::pagination::{PageRequest, Pagination};
use crate::model::streamer::StreamerView;
use crate::types::{Id, InvalidParam, Permalink};
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};

/// Notifications per list page.
pub const PAGE_SIZE: u64 = 12;
/// Streamers or ambassadors per list page.
pub const PEOPLE_PAGE_SIZE: u64 = 24;

/// A page parameter that failed its check: 404 "Page Not Found".
fn invalid() -> Error {
    Error::NotFound { code: "invalid_parameter" }
}

/// A section of an event's hub.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Official announcements of every category.
    Notification,
    /// Metaverse events and user events.
    VirtualEvents,
    /// Official streams.
    OfficialStream,
    /// Campaigns.
    Campaign,
    /// Official streamers.
    OfficialStreamers,
    /// Ambassadors.
    OfficialAmbassador,
}

/// Every section, in navigation order.
pub const SECTIONS: [Section; 6] = [
    Section::Notification,
    Section::OfficialStream,
    Section::VirtualEvents,
    Section::Campaign,
    Section::OfficialStreamers,
    Section::OfficialAmbassador,
];

impl Section {
    /// The path segment.
    pub fn slug(self) -> &'static str {
        match self {
            Self::Notification => "notification",
            Self::VirtualEvents => "virtual_events",
            Self::OfficialStream => "official_stream",
            Self::Campaign => "campaign",
            Self::OfficialStreamers => "official_streamers",
            Self::OfficialAmbassador => "official_ambassador",
        }
    }

    /// The notifications this section lists (`None` for the people sections).
    fn filter(self) -> Option<HubFilter> {
        let of = |categories: Vec<HubCategory>| Some(HubFilter { categories, ..Default::default() });
        match self {
            Self::Notification => Some(HubFilter { is_official: Some(true), ..Default::default() }),
            Self::VirtualEvents => of(vec![HubCategory::EventInMetaverse, HubCategory::UserEvent]),
            Self::OfficialStream => of(vec![HubCategory::OfficialStream]),
            Self::Campaign => of(vec![HubCategory::Campaign]),
            Self::OfficialStreamers | Self::OfficialAmbassador => None,
        }
    }

    /// Whether `n` belongs to this section.
    fn contains(self, n: &hub_notification::Model) -> bool {
        match self {
            Self::Notification => n.is_official,
            Self::VirtualEvents => matches!(n.category, HubCategory::EventInMetaverse | HubCategory::UserEvent),
            Self::OfficialStream => n.category == HubCategory::OfficialStream,
            Self::Campaign => n.category == HubCategory::Campaign,
            Self::OfficialStreamers | Self::OfficialAmbassador => false,
        }
    }
}

impl<'a> FromParam<'a> for Section {
    type Error = InvalidParam;

    fn from_param(param: &'a str) -> std::result::Result<Self, InvalidParam> {
        SECTIONS.into_iter().find(|s| s.slug() == param).ok_or(InvalidParam)
    }
}

/// The section a notification is filed under by its category.
fn home_section(category: HubCategory) -> Section {
    match category {
        HubCategory::OfficialStream => Section::OfficialStream,
        HubCategory::Campaign => Section::Campaign,
        HubCategory::EventInMetaverse | HubCategory::UserEvent => Section::VirtualEvents,
    }
}

/// `items` as JSON, each with the `href` of its detail page: under `section`, or under its
/// category's section when `None`.
fn with_hrefs(base: &str, section: Option<Section>, items: Vec<HubNotificationView>) -> Value {
    Value::Array(
        items
            .into_iter()
            .map(|i| {
                let s = section.unwrap_or_else(|| home_section(i.category));
                let href = format!("{base}/{}/{}", s.slug(), i.id);
                let mut v = json!(i);
                v["href"] = json!(href);
                v
            })
            .collect(),
    )
}

/// The event a hub page is about, and the context every hub template reads.
struct HubContext {
    event: EventWithPhases,
    base: String,
}

impl HubContext {
    async fn load(page: &Page<'_>, permalink: &Permalink) -> Result<Self> {
        let event = page.tree.resolve(permalink.as_str()).cloned().ok_or_else(Error::unknown_permalink)?;
        let base = page.href(&format!("/hub/{}", event.event.permalink));
        Ok(Self { event, base })
    }

    fn id(&self) -> i32 {
        self.event.event.id
    }

    fn render(&self, page: &Page<'_>, current: Section, template: &'static str, title: &str, ctx: Value) -> Template {
        let nav: Vec<Value> = SECTIONS
            .iter()
            .map(|s| {
                json!({
                    "href": format!("{}/{}", self.base, s.slug()),
                    "label": page.t(&format!("hub.sections.{}", s.slug())),
                    "current": *s == current,
                })
            })
            .collect();
        let mut all = json!({
            "event": EventView::new(&self.event, page.lang, page.now),
            "hub_nav": nav,
            "section": current.slug(),
            "section_title": page.t(&format!("hub.sections.{}", current.slug())),
            "section_href": format!("{}/{}", self.base, current.slug()),
            "search_href": page.href("/hub/search"),
            "hub_base": self.base,
        });
        if let (Value::Object(all), Value::Object(extra)) = (&mut all, ctx) {
            all.extend(extra);
        }
        page.render(template, title, all)
    }
}

/// The current event's hub.
#[get("/hub")]
pub async fn index(page: Page<'_>) -> Result<Redirect> {
    let current = page.tree.current(page.now).ok_or_else(Error::unknown_permalink)?;
    Ok(crate::http::redirect::to_site(&page.href(&format!("/hub/{}/notification", current.event.permalink))))
}

/// A section of the hub of `permalink`, paginated.
#[get("/hub/<permalink>/<section>?<page>", rank = 3)]
pub async fn list(p: Page<'_>, permalink: Permalink, section: Section, page: Option<&str>) -> Result<Template> {
    let n = page_number(page)?;
    let cx = HubContext::load(&p, &permalink).await?;
    let section_href = format!("{}/{}", cx.base, section.slug());
    let link = |n: u64| if n > 1 { format!("{section_href}?page={n}") } else { section_href.clone() };
    let title = format!("{} | {}", p.t(&format!("hub.sections.{}", section.slug())), p.t("hub.title"));
    match section.filter() {
        Some(mut filter) => {
            filter.locale = Some(HubLocale::of(p.lang));
            let req = PageRequest { page: n, limit: PAGE_SIZE };
            let found = HubNotificationView::page(p.db, &p.tree, cx.id(), p.now, &filter, req, p.lang).await?;
            let items = found.data;
            let pagination = Pagination::new(req, found.count, found.all);
            let items = with_hrefs(&cx.base, Some(section), items);
            let ctx = json!({ "items": items, "pagination": pagination, "pager": pager(&pagination, link) });
            Ok(cx.render(&p, section, "hub/list", &title, ctx))
        }
        None => {
            let req = PageRequest { page: n, limit: PEOPLE_PAGE_SIZE };
            let (people, count) = if section == Section::OfficialStreamers {
                let (s, count) =
                    StreamerView::page(p.db, cx.id(), p.now, Some(HubLocale::of(p.lang)), req, p.lang).await?;
                (json!(s), count)
            } else {
                let active = AmbassadorFilter { is_inactive: Some(false), ..Default::default() };
                let (a, count, _) = AmbassadorView::page(p.db, &active, req, p.lang).await?;
                (json!(a), count)
            };
            let pagination = Pagination::new(req, count, count);
            let ctx = json!({ "people": people, "pagination": pagination, "pager": pager(&pagination, link) });
            Ok(cx.render(&p, section, "hub/people", &title, ctx))
        }
    }
}

/// One notification, streamer or ambassador in a section of the hub of `permalink`.
#[get("/hub/<permalink>/<section>/<id>", rank = 3)]
pub async fn detail(p: Page<'_>, permalink: Permalink, section: Section, id: Id) -> Result<Template> {
    let cx = HubContext::load(&p, &permalink).await?;
    let related =
        |user_id: i32| HubFilter { user_id: Some(user_id), locale: Some(HubLocale::of(p.lang)), ..Default::default() };
    let all = PageRequest { page: 1, limit: 50 };
    match section {
        Section::OfficialStreamers | Section::OfficialAmbassador => {
            let (person, user_id, title) = if section == Section::OfficialStreamers {
                let s = StreamerView::find(p.db, id.0, cx.id(), p.now, Some(HubLocale::of(p.lang)), p.lang).await?;
                let (uid, name) = (s.user.id, s.user.name.get().clone());
                (json!(s), uid, name)
            } else {
                let a = AmbassadorView::find(p.db, id.0, p.lang).await?;
                let (uid, name) = (a.user.id, a.user.name.get().clone());
                (json!(a), uid, name)
            };
            let found = hub_notification::Model::page(p.db, cx.id(), p.now, &related(user_id), all).await?;
            let items = HubNotificationView::load(p.db, found.items, p.lang, p.now).await?;
            let items = with_hrefs(&cx.base, None, items);
            Ok(cx.render(&p, section, "hub/person", &title, json!({ "person": person, "items": items })))
        }
        _ => {
            let n = hub_notification::Model::find_visible(p.db, cx.id(), id.0, p.now).await?;
            if !section.contains(&n) {
                return Err(Error::not_found());
            }
            let item = HubNotificationView::load_one(p.db, n, p.lang, p.now).await?;
            let title = item.title.clone();
            Ok(cx.render(&p, section, "hub/detail", &title, json!({ "item": item })))
        }
    }
}

/// Raw query of the search page; every value is checked before use.
#[derive(Debug, FromForm)]
pub struct SearchQuery<'r> {
    keyword: Option<&'r str>,
    category: Option<&'r str>,
    hub_tag_id: Option<&'r str>,
    page: Option<&'r str>,
}

/// Keyword search over the current event's hub, by category and tag, paginated.
#[get("/hub/search?<q..>")]
pub async fn search(p: Page<'_>, q: SearchQuery<'_>) -> Result<Template> {
    let n = page_number(q.page)?;
    let keyword = q.keyword.unwrap_or("").trim().to_string();
    let category: Option<HubCategory> = match q.category.filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(serde_json::from_value(json!(c)).map_err(|_| invalid())?),
    };
    let tag = match q.hub_tag_id.filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(Id::parse(t).map_err(|_| invalid())?.0),
    };
    let current = p.tree.current(p.now).cloned().ok_or_else(Error::unknown_permalink)?;
    let cx = HubContext { base: p.href(&format!("/hub/{}", current.event.permalink)), event: current };
    let filter = HubFilter {
        categories: category.into_iter().collect(),
        locale: Some(HubLocale::of(p.lang)),
        hub_tag_id: tag,
        keyword: (!keyword.is_empty()).then(|| keyword.clone()),
        ..Default::default()
    };
    let req = PageRequest { page: n, limit: PAGE_SIZE };
    let found = HubNotificationView::page(p.db, &p.tree, cx.id(), p.now, &filter, req, p.lang).await?;
    let items = found.data;
    let pagination = Pagination::new(req, found.count, found.all);
    let search_href = p.href("/hub/search");
    let link = |n: u64| {
        let mut pairs = url::form_urlencoded::Serializer::new(String::new());
        if !keyword.is_empty() {
            pairs.append_pair("keyword", &keyword);
        }
        if let Some(c) = category {
            pairs.append_pair("category", c.as_str());
        }
        if let Some(t) = tag {
            pairs.append_pair("hub_tag_id", &t.to_string());
        }
        if n > 1 {
            pairs.append_pair("page", &n.to_string());
        }
        let query = pairs.finish();
        if query.is_empty() { search_href.clone() } else { format!("{search_href}?{query}") }
    };
    let categories: Vec<Value> =
        [HubCategory::OfficialStream, HubCategory::EventInMetaverse, HubCategory::Campaign, HubCategory::UserEvent]
            .iter()
            .map(|c| json!({ "value": c.as_str(), "label": p.t(&format!("hub.categories.{}", c.as_str())) }))
            .collect();
    let ctx = json!({
        "search": { "keyword": keyword, "category": category.map(HubCategory::as_str), "hub_tag_id": tag },
        "categories": categories,
        "tags": p.tree.hub_tags.iter().map(|t| HubTagView::new(t, p.lang)).collect::<Vec<_>>(),
        "items": with_hrefs(&cx.base, None, items),
        "pagination": pagination,
        "pager": pager(&pagination, link),
    });
    let title = p.t("hub.search_title");
    Ok(cx.render(&p, Section::Notification, "hub/search", &title, ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![index, list, detail, search]
}
