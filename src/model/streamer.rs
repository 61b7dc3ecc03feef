//! Official streamers (spec §3 "Hub"): users with the `certificated_streamer` attribute and how
//! many of their notifications an event's hub shows.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ConnectionTrait, PaginatorTrait, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{hub_notification, user};
use crate::error::{Error, Result};
use crate::model::hub_notification::HubLocale;
use crate::model::hub_user::HubUserView;
use crate::model::pagination::PageRequest;
use crate::model::user::UserAttribute;
use crate::types::Lang;

/// An official streamer: a user with the `certificated_streamer` attribute, with how many of
/// their notifications the event's hub shows (to one audience, or to both).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct StreamerView {
    /// The user.
    #[serde(flatten)]
    pub user: HubUserView,
    /// Their visible notifications in the event.
    pub stream_count: u64,
}

impl StreamerView {
    /// One page of official streamers (by id) with their counts in `event_id` at `now`.
    pub async fn page(
        db: &impl ConnectionTrait,
        event_id: i32,
        now: DateTime<Utc>,
        locale: Option<HubLocale>,
        page: PageRequest,
        lang: Lang,
    ) -> Result<(Vec<Self>, u64)> {
        let select = user::Entity::find()
            .filter(user::Column::Attribute.eq(UserAttribute::CertificatedStreamer))
            .order_by_asc(user::Column::Id);
        let count = select.clone().count(db).await?;
        let users = select.offset(page.offset()).limit(page.limit).all(db).await?;
        Ok((Self::with_counts(db, users, event_id, now, locale, lang).await?, count))
    }

    /// The official streamer `id`; 404 for unknown users and users who are not streamers.
    pub async fn find(
        db: &impl ConnectionTrait,
        id: i32,
        event_id: i32,
        now: DateTime<Utc>,
        locale: Option<HubLocale>,
        lang: Lang,
    ) -> Result<Self> {
        let u = user::Entity::find_by_id(id)
            .filter(user::Column::Attribute.eq(UserAttribute::CertificatedStreamer))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)?;
        Self::with_counts(db, vec![u], event_id, now, locale, lang).await?.pop().ok_or_else(Error::not_found)
    }

    async fn with_counts(
        db: &impl ConnectionTrait,
        users: Vec<user::Model>,
        event_id: i32,
        now: DateTime<Utc>,
        locale: Option<HubLocale>,
        lang: Lang,
    ) -> Result<Vec<Self>> {
        let mut cond = hub_notification::Model::visible(event_id, now);
        if let Some(l) = locale {
            cond = cond.add(hub_notification::Column::Locale.eq(l));
        }
        let rows: Vec<(Option<i32>, i64)> = hub_notification::Entity::find()
            .select_only()
            .column(hub_notification::Column::UserId)
            .column_as(hub_notification::Column::Id.count(), "n")
            .filter(cond)
            .filter(hub_notification::Column::UserId.is_in(users.iter().map(|u| u.id)))
            .group_by(hub_notification::Column::UserId)
            .into_tuple()
            .all(db)
            .await?;
        let counts: HashMap<i32, u64> = rows.into_iter().filter_map(|(id, n)| Some((id?, n as u64))).collect();
        Ok(users
            .iter()
            .map(|u| Self { user: HubUserView::new(u, lang), stream_count: counts.get(&u.id).copied().unwrap_or(0) })
            .collect())
    }
}
