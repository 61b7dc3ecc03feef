//! Redirects: VRC redirects of an event and the site-wide slug rules. Only absolute http(s)
//! URLs and site-relative paths are ever stored (checked on create) or followed (checked again
//! before answering), so a redirect can never send a visitor to `javascript:` or `data:`.

use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, Set};
use serde::Serialize;
use url::Url;
use utoipa::ToSchema;

use crate::db::entities::{redirect_rule, vrc_redirect};
use crate::error::{Error, Result};
use crate::types::lang::localized_path;
use crate::types::{Id, Permalink};
use crate::types::{Lang, Localized, localized};

/// The URL if `raw` is an absolute `http`/`https` URL with a host and no credentials.
pub fn http_url(raw: &str) -> Option<Url> {
    let url = Url::parse(raw.trim()).ok()?;
    let ok = matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none();
    ok.then_some(url)
}

/// Where a slug rule points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleTarget {
    /// A language-neutral site path such as `/2026Winter/worlds`.
    SitePath(String),
    /// An absolute http(s) URL.
    External(Url),
}

impl RuleTarget {
    /// Parses a rule target: a path starting with a single `/` (no `//`, no backslash, no
    /// control characters), or an absolute http(s) URL.
    pub fn parse(raw: &str) -> Option<Self> {
        if raw.starts_with('/') {
            let ok = !raw.starts_with("//") && !raw.chars().any(|c| c == '\\' || c.is_control() || c.is_whitespace());
            return ok.then(|| Self::SitePath(raw.to_string()));
        }
        http_url(raw).map(Self::External)
    }

    /// The `Location` for a visitor in `lang`: site paths get the `/en` prefix in English.
    pub fn location(&self, lang: Lang) -> String {
        match self {
            Self::SitePath(path) => localized_path(lang, path),
            Self::External(url) => url.to_string(),
        }
    }
}

/// Input of [`vrc_redirect::Model::create`].
#[derive(Debug, Clone)]
pub struct NewVrcRedirect<'a> {
    /// The event.
    pub event_id: i32,
    /// The short key (permalink characters).
    pub url_key: &'a str,
    /// The destination, absolute http(s).
    pub url: &'a str,
    /// Japanese description.
    pub description_ja: &'a str,
    /// English description.
    pub description_en: &'a str,
}

impl vrc_redirect::Model {
    /// The redirect `key` of an event: a numeric id, or else a `url_key`.
    pub async fn find_in_event(db: &impl ConnectionTrait, event_id: i32, key: &str) -> Result<Self> {
        let by_event = vrc_redirect::Entity::find().filter(vrc_redirect::Column::EventId.eq(event_id));
        let found = if let Ok(id) = Id::parse(key) {
            by_event.filter(vrc_redirect::Column::Id.eq(id.0)).one(db).await?
        } else if Permalink::parse(key).is_ok() {
            by_event.filter(vrc_redirect::Column::UrlKey.eq(key)).one(db).await?
        } else {
            None
        };
        found.ok_or_else(Error::not_found)
    }

    /// The redirect with `url_key` in the event, if any.
    pub async fn by_key(db: &impl ConnectionTrait, event_id: i32, url_key: &str) -> Result<Option<Self>> {
        Ok(vrc_redirect::Entity::find()
            .filter(vrc_redirect::Column::EventId.eq(event_id))
            .filter(vrc_redirect::Column::UrlKey.eq(url_key))
            .one(db)
            .await?)
    }

    /// Stores a redirect after checking its key and URL (422 `validation_failed` otherwise).
    pub async fn create(db: &impl ConnectionTrait, new: NewVrcRedirect<'_>) -> Result<Self> {
        if Permalink::parse(new.url_key).is_err() {
            return Err(Error::invalid("url_key", "validation.permalink"));
        }
        let Some(url) = http_url(new.url) else {
            return Err(Error::invalid("url", "validation.url"));
        };
        let row = vrc_redirect::ActiveModel {
            event_id: Set(new.event_id),
            url_key: Set(new.url_key.to_string()),
            url: Set(url.to_string()),
            description_ja: Set(new.description_ja.to_string()),
            description_en: Set(new.description_en.to_string()),
            ..Default::default()
        };
        Ok(row.insert(db).await?)
    }

    /// The destination, if it is (still) an http(s) URL.
    pub fn destination(&self) -> Option<Url> {
        http_url(&self.url)
    }
}

/// A VRC redirect as clients see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VrcRedirectView {
    /// Id.
    pub id: i32,
    /// The event.
    pub event_id: i32,
    /// Short key, unique within the event.
    pub url_key: String,
    /// Destination (absolute http or https URL).
    pub url: String,
    /// Description: `description` in the request's language, `description_ja`, `description_en`.
    #[serde(flatten)]
    pub description: localized::Description,
}

impl VrcRedirectView {
    /// The view of `row` in `lang`.
    pub fn new(row: vrc_redirect::Model, lang: Lang) -> Self {
        Self {
            id: row.id,
            event_id: row.event_id,
            description: Localized::new(lang, row.description_ja, row.description_en),
            url_key: row.url_key,
            url: row.url,
        }
    }
}

/// Input of [`redirect_rule::Model::create`].
#[derive(Debug, Clone)]
pub struct NewRedirectRule<'a> {
    /// The slug (permalink characters; stored lower-case).
    pub slug: &'a str,
    /// A site path or an http(s) URL.
    pub target: &'a str,
    /// 301 rather than 302.
    pub permanent: bool,
    /// Whether the rule applies.
    pub is_active: bool,
}

impl redirect_rule::Model {
    /// The active rule for `slug`, compared case-insensitively.
    pub async fn find_active(db: &impl ConnectionTrait, slug: &str) -> Result<Option<Self>> {
        Ok(redirect_rule::Entity::find()
            .filter(redirect_rule::Column::Slug.eq(slug.to_ascii_lowercase()))
            .filter(redirect_rule::Column::IsActive.eq(true))
            .one(db)
            .await?)
    }

    /// The rule for `slug`, active or not.
    pub async fn by_slug(db: &impl ConnectionTrait, slug: &str) -> Result<Option<Self>> {
        Ok(redirect_rule::Entity::find()
            .filter(redirect_rule::Column::Slug.eq(slug.to_ascii_lowercase()))
            .one(db)
            .await?)
    }

    /// Stores a rule after checking its slug and target (422 `validation_failed` otherwise).
    pub async fn create(db: &impl ConnectionTrait, new: NewRedirectRule<'_>) -> Result<Self> {
        if Permalink::parse(new.slug).is_err() {
            return Err(Error::invalid("slug", "validation.permalink"));
        }
        if RuleTarget::parse(new.target).is_none() {
            return Err(Error::invalid("target", "validation.redirect_target"));
        }
        let row = redirect_rule::ActiveModel {
            slug: Set(new.slug.to_ascii_lowercase()),
            target: Set(new.target.to_string()),
            permanent: Set(new.permanent),
            is_active: Set(new.is_active),
            ..Default::default()
        };
        Ok(row.insert(db).await?)
    }

    /// Where the rule points, if its target is (still) acceptable.
    pub fn destination(&self) -> Option<RuleTarget> {
        RuleTarget::parse(&self.target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls_are_followed() {
        assert!(http_url("https://example.com/map").is_some());
        assert!(http_url("http://example.com").is_some());
        for bad in [
            "javascript:alert(1)",
            "data:text/html,x",
            "ftp://example.com",
            "//example.com",
            "/x",
            "",
            "https://u:p@example.com/",
        ] {
            assert!(http_url(bad).is_none(), "{bad:?} is refused");
        }
    }

    #[test]
    fn rule_targets() {
        assert_eq!(RuleTarget::parse("/access").map(|t| t.location(Lang::En)), Some("/en/access".into()));
        assert_eq!(RuleTarget::parse("/access").map(|t| t.location(Lang::Ja)), Some("/access".into()));
        assert_eq!(
            RuleTarget::parse("https://example.com/a").map(|t| t.location(Lang::En)),
            Some("https://example.com/a".into())
        );
        for bad in ["//evil.example", "/\\evil", "javascript:x", "access", "/a b"] {
            assert!(RuleTarget::parse(bad).is_none(), "{bad:?} is refused");
        }
    }
}
