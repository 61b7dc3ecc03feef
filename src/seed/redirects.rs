//! Demo redirects (`data/redirects.json`): the site-wide slug rules (`/winter`, `/summer`,
//! `/guide`, …) and a few VRC redirects per demo event (the community page, the venue map, a
//! launch shortcut to the first world of each concept that has a launch link), each naming its
//! event by permalink. Rows are written through the models' checked `create`; rows that already
//! exist (same slug, same event and key) are left alone.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::db::entities::{event, redirect_rule, vrc_redirect};
use crate::error::Result;
use crate::model::redirect::{NewRedirectRule, NewVrcRedirect};

/// The file.
const FILE: Source = Source { name: "redirects.json", text: include_str!("data/redirects.json") };

/// The contents of `redirects.json`.
pub struct Redirects {
    rules: Vec<RuleSeed>,
    vrc_redirects: Vec<VrcSeed>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSeed {
    slug: String,
    /// A site path or an http(s) URL.
    target: String,
    permanent: bool,
    active: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VrcSeed {
    /// The event's permalink.
    event: String,
    key: String,
    url: String,
    description_ja: String,
    description_en: String,
}

/// Reads `redirects.json`.
pub fn load() -> Result<Redirects> {
    let mut file = Reader::open(FILE)?;
    let redirects = Redirects { rules: file.list("rules")?, vrc_redirects: file.list("vrc_redirects")? };
    file.finish()?;
    Ok(redirects)
}

impl Redirects {
    /// Checks the events the VRC redirects name.
    pub fn check(&self, keys: &Keys) -> Result<()> {
        for (i, v) in self.vrc_redirects.iter().enumerate() {
            let event = &v.event;
            data::known(keys.events.contains(event), FILE.name, "vrc_redirects", i, format_args!("event `{event}`"))?;
        }
        Ok(())
    }
}

/// Writes the missing demo redirects; returns how many rows were created.
pub async fn seed(db: &impl ConnectionTrait) -> Result<usize> {
    write(db, &load()?).await
}

/// Writes the missing rows of `redirects` (VRC redirects of an event that is not there are
/// skipped); returns how many were created.
pub(super) async fn write(db: &impl ConnectionTrait, redirects: &Redirects) -> Result<usize> {
    let mut created = 0;
    for r in &redirects.rules {
        if redirect_rule::Model::by_slug(db, &r.slug).await?.is_none() {
            let rule =
                NewRedirectRule { slug: &r.slug, target: &r.target, permanent: r.permanent, is_active: r.active };
            redirect_rule::Model::create(db, rule).await?;
            created += 1;
        }
    }
    for v in &redirects.vrc_redirects {
        let Some(ev) = event::Entity::find().filter(event::Column::Permalink.eq(&v.event)).one(db).await? else {
            continue;
        };
        if vrc_redirect::Model::by_key(db, ev.id, &v.key).await?.is_none() {
            let new = NewVrcRedirect {
                event_id: ev.id,
                url_key: &v.key,
                url: &v.url,
                description_ja: &v.description_ja,
                description_en: &v.description_en,
            };
            vrc_redirect::Model::create(db, new).await?;
            created += 1;
        }
    }
    Ok(created)
}
