//! Link preview results (spec §3 "Link preview result") and their cache in `link_previews`,
//! shared by every node and expired by the application clock.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::OnConflict;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::db::entities::link_preview;
use crate::error::Result;

/// What `GET /api/ogp` answers when the remote server gave an HTTP response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct LinkPreview {
    /// The page title (`og:title`, else `twitter:title`, else `<title>`), or null.
    pub title: Option<String>,
    /// Absolute URL of the page image (`og:image`, else `twitter:image`), or null.
    pub image: Option<String>,
    /// HTTP status of the page's final response after redirects, e.g. 200 or 404. Title and
    /// image are only read from 2xx `text/html` responses; a client shows a card when
    /// `status` is 2xx and title or image is set.
    pub status: u16,
}

impl LinkPreview {
    /// Whether this result may be cached: anything but a server error on the remote side.
    pub fn cacheable(&self) -> bool {
        self.status < 500
    }
}

fn url_hash(url: &str) -> String {
    hex::encode(Sha256::digest(url.as_bytes()))
}

impl link_preview::Model {
    /// The cached preview of `url` if it was fetched after `fresh_since`.
    pub async fn fresh(
        db: &impl ConnectionTrait,
        url: &str,
        fresh_since: DateTime<Utc>,
    ) -> Result<Option<LinkPreview>> {
        let row = link_preview::Entity::find()
            .filter(link_preview::Column::UrlHash.eq(url_hash(url)))
            .filter(link_preview::Column::FetchedAt.gt(fresh_since))
            .one(db)
            .await?;
        Ok(row.and_then(|r| serde_json::from_str(&r.result).ok()))
    }

    /// Stores (or replaces) the preview of `url`, fetched at `now`.
    pub async fn store(db: &impl ConnectionTrait, url: &str, preview: &LinkPreview, now: DateTime<Utc>) -> Result<()> {
        let row = link_preview::ActiveModel {
            url_hash: Set(url_hash(url)),
            url: Set(url.to_string()),
            result: Set(serde_json::to_string(preview).map_err(|e| crate::error::Error::Internal(e.to_string()))?),
            fetched_at: Set(now),
            ..Default::default()
        };
        link_preview::Entity::insert(row)
            .on_conflict(
                OnConflict::column(link_preview::Column::UrlHash)
                    .update_columns([
                        link_preview::Column::Url,
                        link_preview::Column::Result,
                        link_preview::Column::FetchedAt,
                    ])
                    .to_owned(),
            )
            .exec(db)
            .await?;
        Ok(())
    }

    /// Deletes previews fetched before `expired_before`; returns how many.
    pub async fn prune(db: &impl ConnectionTrait, expired_before: DateTime<Utc>) -> Result<u64> {
        let res = link_preview::Entity::delete_many()
            .filter(link_preview::Column::FetchedAt.lt(expired_before))
            .exec(db)
            .await?;
        Ok(res.rows_affected)
    }
}
