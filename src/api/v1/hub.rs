//! The public hub: `GET /api/v1/{event}/hub_notifications` (filtered, paginated), `/{id}`,
//! `/top_live` (running now), `/vmarket_info` (official announcements), `GET /api/v1/ambassadors`,
//! `GET /api/v1/{event}/streamers` and `GET /api/v1/hub_tags`, `/hub_tags/{id}`.
//!
//! Only notifications that are public and published by "now" (the application clock) are seen.

use chrono::{DateTime, Utc};
use rocket::serde::json::Json;
use rocket::{FromForm, Route, get, routes};

use crate::api::Api;
use crate::api::v1::ListBody;
use crate::db::entities::{event, hub_notification};
use crate::error::{Error, Result};
use crate::forms::checks::parse_instant;
use crate::model::ambassador::{AmbassadorFilter, AmbassadorView};
use crate::model::hub_notification::{HubCategory, HubFilter, HubNotificationView};
use crate::model::hub_tag::HubTagView;
use crate::model::pagination::Pagination;
use crate::model::streamer::StreamerView;
use crate::types::{Id, Permalink};

impl Api<'_> {
    fn instant(&self, name: &str, raw: Option<&str>) -> Result<Option<DateTime<Utc>>> {
        match raw.filter(|r| !r.is_empty()) {
            None => Ok(None),
            Some(r) => parse_instant(r).map(Some).ok_or_else(|| Error::invalid(name, "validation.datetime")),
        }
    }
}

/// Raw query of the notification lists.
#[derive(Debug, FromForm)]
pub struct HubQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    category: Option<&'r str>,
    locale: Option<&'r str>,
    hub_tag_id: Option<&'r str>,
    world_id: Option<&'r str>,
    user_id: Option<&'r str>,
    keyword: Option<&'r str>,
    is_official: Option<&'r str>,
    by_ambassador: Option<&'r str>,
    start_from: Option<&'r str>,
    start_to: Option<&'r str>,
    end_from: Option<&'r str>,
    end_to: Option<&'r str>,
}

impl HubQuery<'_> {
    fn filter(&self, api: &Api<'_>) -> Result<HubFilter> {
        let f = HubFilter {
            categories: api.choice::<HubCategory>("category", self.category)?.into_iter().collect(),
            locale: api.choice("locale", self.locale)?,
            hub_tag_id: api.id("hub_tag_id", self.hub_tag_id)?,
            world_id: api.id("world_id", self.world_id)?,
            user_id: api.id("user_id", self.user_id)?,
            keyword: self.keyword.map(str::trim).filter(|k| !k.is_empty()).map(str::to_string),
            is_official: api.flag("is_official", self.is_official)?,
            by_ambassador: api.flag("by_ambassador", self.by_ambassador)?,
            start_from: api.instant("start_from", self.start_from)?,
            start_to: api.instant("start_to", self.start_to)?,
            end_from: api.instant("end_from", self.end_from)?,
            end_to: api.instant("end_to", self.end_to)?,
            live_at: None,
        };
        for (from, to, name) in [(f.start_from, f.start_to, "start_to"), (f.end_from, f.end_to, "end_to")] {
            if let (Some(from), Some(to)) = (from, to)
                && to <= from
            {
                return Err(Error::invalid(name, "validation.time_range"));
            }
        }
        Ok(f)
    }
}

async fn list(
    api: &Api<'_>,
    event: &Permalink,
    page: (Option<&str>, Option<&str>),
    filter: HubFilter,
) -> Result<Json<ListBody<HubNotificationView>>> {
    let event = &api.tree.resolve(event.as_str()).ok_or_else(crate::error::Error::unknown_permalink)?.event;
    let page = api.page(page.0, page.1)?;
    let found = HubNotificationView::page(api.db, &api.tree, event.id, api.now, &filter, page, api.lang).await?;
    Ok(Json(ListBody { data: found.data, pagination: Pagination::new(page, found.count, found.all) }))
}

/// The event's hub notifications, filtered and paginated: pinned first, then newest start first.
#[utoipa::path(get, path = "/api/v1/{event}/hub_notifications", tag = "hub",
    params(("event" = String, Path, description = "event permalink or id"),
           ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query, description = "1–100, default 20"),
           ("category" = Option<HubCategory>, Query), ("locale" = Option<crate::model::hub_notification::HubLocale>, Query),
           ("hub_tag_id" = Option<i32>, Query), ("world_id" = Option<i32>, Query), ("user_id" = Option<i32>, Query),
           ("keyword" = Option<String>, Query, description = "words in the title or content, partial"),
           ("is_official" = Option<bool>, Query), ("by_ambassador" = Option<bool>, Query),
           ("start_from" = Option<String>, Query, description = "starts at or after (RFC 3339, or a date: midnight JST)"),
           ("start_to" = Option<String>, Query, description = "starts before"),
           ("end_from" = Option<String>, Query, description = "ends at or after"),
           ("end_to" = Option<String>, Query, description = "ends before"),
           ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<HubNotificationView>),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/hub_notifications?<q..>", rank = 5)]
pub async fn list_notifications(
    api: Api<'_>,
    event: Permalink,
    q: HubQuery<'_>,
) -> Result<Json<ListBody<HubNotificationView>>> {
    let filter = q.filter(&api)?;
    list(&api, &event, (q.page, q.limit), filter).await
}

/// Raw page query of the shortcut lists.
#[derive(Debug, FromForm)]
pub struct PageQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    locale: Option<&'r str>,
}

/// The event's notifications running now (started, not yet ended), ending soonest first.
#[utoipa::path(get, path = "/api/v1/{event}/hub_notifications/top_live", tag = "hub",
    params(("event" = String, Path), ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query),
           ("locale" = Option<crate::model::hub_notification::HubLocale>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<HubNotificationView>),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/hub_notifications/top_live?<q..>", rank = 4)]
pub async fn top_live(api: Api<'_>, event: Permalink, q: PageQuery<'_>) -> Result<Json<ListBody<HubNotificationView>>> {
    let filter = HubFilter { live_at: Some(api.now), locale: api.choice("locale", q.locale)?, ..Default::default() };
    list(&api, &event, (q.page, q.limit), filter).await
}

/// The organisers' official announcements in the event's hub.
#[utoipa::path(get, path = "/api/v1/{event}/hub_notifications/vmarket_info", tag = "hub",
    params(("event" = String, Path), ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query),
           ("locale" = Option<crate::model::hub_notification::HubLocale>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<HubNotificationView>),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/hub_notifications/vmarket_info?<q..>", rank = 4)]
pub async fn vmarket_info(
    api: Api<'_>,
    event: Permalink,
    q: PageQuery<'_>,
) -> Result<Json<ListBody<HubNotificationView>>> {
    let filter = HubFilter { is_official: Some(true), locale: api.choice("locale", q.locale)?, ..Default::default() };
    list(&api, &event, (q.page, q.limit), filter).await
}

/// One hub notification; 404 when unknown, not public or not yet published.
#[utoipa::path(get, path = "/api/v1/{event}/hub_notifications/{id}", tag = "hub",
    params(("event" = String, Path), ("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = HubNotificationView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/<event>/hub_notifications/<id>", rank = 6)]
pub async fn show_notification(api: Api<'_>, event: Permalink, id: Id) -> Result<Json<HubNotificationView>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let n = hub_notification::Model::find_visible(api.db, event.id, id.0, api.now).await?;
    Ok(Json(HubNotificationView::load_one(api.db, n, api.lang, api.now).await?))
}

/// Raw query of the ambassador list.
#[derive(Debug, FromForm)]
pub struct AmbassadorQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    team_type: Option<&'r str>,
    #[field(name = "gen")]
    generation: Option<&'r str>,
    is_inactive: Option<&'r str>,
}

/// Ambassadors by team, then generation.
#[utoipa::path(get, path = "/api/v1/ambassadors", tag = "hub",
    params(("page" = Option<u64>, Query), ("limit" = Option<u64>, Query),
           ("team_type" = Option<crate::model::ambassador::TeamType>, Query), ("gen" = Option<i32>, Query),
           ("is_inactive" = Option<bool>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<AmbassadorView>), (status = 422, body = crate::error::ErrorBody)))]
#[get("/ambassadors?<q..>")]
pub async fn ambassadors(api: Api<'_>, q: AmbassadorQuery<'_>) -> Result<Json<ListBody<AmbassadorView>>> {
    let page = api.page(q.page, q.limit)?;
    let filter = AmbassadorFilter {
        team_type: api.choice("team_type", q.team_type)?,
        generation: api.id("gen", q.generation)?,
        is_inactive: api.flag("is_inactive", q.is_inactive)?,
    };
    let (data, count, all) = AmbassadorView::page(api.db, &filter, page, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(page, count, all) }))
}

/// Raw query of the streamer list.
#[derive(Debug, FromForm)]
pub struct StreamerQuery<'r> {
    page: Option<&'r str>,
    limit: Option<&'r str>,
    locale: Option<&'r str>,
}

/// Official streamers, with how many notifications each has in the event's hub (for one
/// audience with `locale`, otherwise both).
#[utoipa::path(get, path = "/api/v1/{event}/streamers", tag = "hub",
    params(("event" = String, Path), ("page" = Option<u64>, Query), ("limit" = Option<u64>, Query),
           ("locale" = Option<crate::model::hub_notification::HubLocale>, Query), ("lang" = Option<String>, Query)),
    responses((status = 200, body = ListBody<StreamerView>),
              (status = 404, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[get("/<event>/streamers?<q..>", rank = 5)]
pub async fn streamers(api: Api<'_>, event: Permalink, q: StreamerQuery<'_>) -> Result<Json<ListBody<StreamerView>>> {
    let event = event::Model::resolve(api.db, event.as_str()).await?;
    let page = api.page(q.page, q.limit)?;
    let locale = api.choice("locale", q.locale)?;
    let (data, count) = StreamerView::page(api.db, event.id, api.now, locale, page, api.lang).await?;
    Ok(Json(ListBody { data, pagination: Pagination::new(page, count, count) }))
}

/// Every hub tag in display order.
#[utoipa::path(get, path = "/api/v1/hub_tags", tag = "hub",
    params(("lang" = Option<String>, Query)), responses((status = 200, body = Vec<HubTagView>)))]
#[get("/hub_tags")]
pub async fn hub_tags(api: Api<'_>) -> Result<Json<Vec<HubTagView>>> {
    Ok(Json(HubTagView::all(api.db, api.lang).await?))
}

/// One hub tag.
#[utoipa::path(get, path = "/api/v1/hub_tags/{id}", tag = "hub",
    params(("id" = i32, Path), ("lang" = Option<String>, Query)),
    responses((status = 200, body = HubTagView), (status = 404, body = crate::error::ErrorBody)))]
#[get("/hub_tags/<id>")]
pub async fn hub_tag(api: Api<'_>, id: Id) -> Result<Json<HubTagView>> {
    Ok(Json(HubTagView::find(api.db, id.0, api.lang).await?))
}

/// The OpenAPI operations of this resource: the handlers of [`routes`], listed alike.
#[derive(utoipa::OpenApi)]
#[openapi(paths(
    list_notifications,
    top_live,
    vmarket_info,
    show_notification,
    ambassadors,
    streamers,
    hub_tags,
    hub_tag
))]
pub struct Doc;

/// Routes of this resource.
pub fn routes() -> Vec<Route> {
    routes![list_notifications, top_live, vmarket_info, show_notification, ambassadors, streamers, hub_tags, hub_tag]
}
