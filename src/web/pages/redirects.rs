//! Redirect pages: an event's VRC redirects (`/{permalink}/redirect/{id}`) and the `/{slug}`
//! catch-all that applies the site's slug rules (spec §2), then serves a public event's top page
//! at its permalink. The catch-all ranks after every other page route, so it never shadows one.

use crate::http::template::Template;
use rocket::http::uri::Origin;
use rocket::response::{Redirect, Responder};
use rocket::{Route, get, routes};

use crate::db::entities::{event, redirect_rule, vrc_redirect};
use crate::error::{Error, Result};
use crate::http::redirect::{Kind, Target, redirect};
use crate::model::redirect::RuleTarget;
use crate::types::Permalink;
use crate::web::page::Page;

/// The rank of the `/{slug}` catch-all: larger than that of every other page route.
pub const SLUG_RANK: isize = 100;

/// Follows a VRC redirect of the event `permalink` (by id or url_key) with 302 Found.
#[get("/<permalink>/redirect/<id>", rank = 5)]
pub async fn follow_vrc_redirect(page: Page<'_>, permalink: Permalink, id: &str) -> Result<Redirect> {
    let event = event::Model::resolve(page.db, permalink.as_str()).await?;
    let row = vrc_redirect::Model::find_in_event(page.db, event.id, id).await?;
    let url = row.destination().ok_or_else(Error::not_found)?;
    Ok(redirect(Kind::Found, Target::Url(&url)))
}

/// What `/{slug}` answers: a redirect, or an event's top page.
#[derive(Responder)]
pub enum SlugPage {
    /// A slug rule's redirect.
    Redirect(Box<Redirect>),
    /// The top page of the event whose permalink is the slug.
    Event(Template),
}

/// Applies the active slug rule for `slug` (case-insensitive): 301 when permanent, else 302.
/// Site-path targets keep the visitor's language, and the request's query string is passed on to
/// site-path targets that have none (campaign parameters survive). External targets never get the
/// query: it may carry anything, a sign-in code included. No rule (or a slug with characters
/// outside the permalink rule) → the top page of the public event with that permalink, if any
/// (`crate::web::pages::home::event_top`), else the normal "page not found".
#[get("/<slug>", rank = 100)]
pub async fn slug(page: Page<'_>, origin: &Origin<'_>, slug: &str) -> Result<Option<SlugPage>> {
    if Permalink::parse(slug).is_err() {
        return Ok(None);
    }
    let rule = redirect_rule::Model::find_active(page.db, slug).await?;
    let Some((rule, target)) = rule.and_then(|r| r.destination().map(|t| (r, t))) else {
        return Ok(super::home::event_top(&page, slug).await?.map(SlugPage::Event));
    };
    let kind = if rule.permanent { Kind::Moved } else { Kind::Found };
    Ok(Some(SlugPage::Redirect(Box::new(match target {
        RuleTarget::External(url) => redirect(kind, Target::Url(&url)),
        RuleTarget::SitePath(_) => {
            let mut location = target.location(page.lang);
            if let Some(query) = origin.query().filter(|q| !q.is_empty())
                && !location.contains('?')
            {
                location = format!("{location}?{query}");
            }
            redirect(kind, Target::Site(&location))
        }
    }))))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![follow_vrc_redirect, slug]
}
