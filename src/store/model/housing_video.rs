//! Housing videos (`housing_videos`, issue 31): made by their owner from an uploaded version of
//! one of their `housing_video` assets, converted by [`crate::store::jobs::ConvertHousingVideo`],
//! discarded by their owner. Every change of status is a compare-and-set, so a job that runs
//! twice, or a discard during a conversion, changes nothing twice.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, Set};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::housing_video::{self, ConvertStatus, DiscardStatus};
use crate::db::entities::{asset, asset_setting, asset_version};
use crate::error::{Error, Result};

/// The asset setting whose uploads become housing videos.
pub const SETTING: &str = "housing_video";

/// Where a housing video's files are stored (deleted together when it is discarded).
pub fn folder(uuid: &str) -> String {
    format!("housing_videos/{uuid}")
}

/// The storage key of a housing video's file `name` (`video.mp4`, `thumbnail.jpg`).
pub fn key(uuid: &str, name: &str) -> String {
    format!("{}/{name}", folder(uuid))
}

/// A housing video as its owner sees it (spec §3 "Housing video").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HousingVideoView {
    /// Its public id.
    pub uuid: String,
    /// The asset it was made from.
    pub asset_id: i32,
    /// That asset's name (as its owner named it in the uploader).
    pub name: String,
    /// The name it was uploaded as.
    pub video_filename: String,
    /// `converting`, `finished` or `error`.
    pub convert_status: ConvertStatus,
    /// Why it is `error`: `not_a_video`, `too_long`, `timed_out`, `too_large`, `conversion_failed`.
    pub convert_error: Option<String>,
    /// `active` or `discarded`.
    pub discard_status: DiscardStatus,
    /// The converted MP4 (its owner's link), once finished.
    pub converted_video: Option<String>,
    /// Its thumbnail (its owner's link), once finished.
    pub video_thumbnail: Option<String>,
    /// Bytes of the MP4.
    pub converted_bytes: Option<i64>,
    /// Its duration in milliseconds.
    pub duration_ms: Option<i32>,
    /// Its width in pixels.
    pub width: Option<i32>,
    /// Its height in pixels.
    pub height: Option<i32>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
}

impl HousingVideoView {
    /// The view of `v`, made from the asset named `name`.
    fn of(v: &housing_video::Model, name: &str) -> Self {
        let finished = v.convert_status == ConvertStatus::Finished && v.discard_status == DiscardStatus::Active;
        let link = |file: &str| finished.then(|| format!("/api/v1/store/housing_videos/{}/{file}", v.uuid));
        Self {
            uuid: v.uuid.clone(),
            asset_id: v.asset_id,
            name: name.to_string(),
            video_filename: v.video_filename.clone(),
            convert_status: v.convert_status,
            convert_error: v.convert_error.clone(),
            discard_status: v.discard_status,
            converted_video: link("video.mp4"),
            video_thumbnail: link("thumbnail.jpg"),
            converted_bytes: v.converted_bytes,
            duration_ms: v.duration_ms,
            width: v.width,
            height: v.height,
            created_at: v.created_at,
        }
    }
}

/// The views of `rows`, with their assets' names (one query).
pub async fn views(db: &impl ConnectionTrait, rows: &[housing_video::Model]) -> Result<Vec<HousingVideoView>> {
    let ids: Vec<i32> = rows.iter().map(|r| r.asset_id).collect();
    let assets = asset::Entity::find().filter(asset::Column::Id.is_in(ids)).all(db).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let name = assets.iter().find(|a| a.id == r.asset_id).map_or("", |a| a.name.as_str());
            HousingVideoView::of(r, name)
        })
        .collect())
}

/// An uploaded video of the owner's that is not a housing video yet.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Convertible {
    /// The asset.
    pub asset_id: i32,
    /// Its name.
    pub name: String,
    /// The file name of its newest uploaded version.
    pub file_name: String,
}

/// What the owner's housing-video page and list show.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HousingVideos {
    /// Their housing videos, newest first (discarded ones too).
    pub videos: Vec<HousingVideoView>,
    /// Their uploaded videos not converted yet.
    pub convertible: Vec<Convertible>,
}

/// The owner's housing videos and the uploads they can convert.
pub async fn of_user(db: &impl ConnectionTrait, user_id: i32) -> Result<HousingVideos> {
    let rows = housing_video::Entity::find()
        .filter(housing_video::Column::UserId.eq(user_id))
        .order_by_desc(housing_video::Column::Id)
        .all(db)
        .await?;
    let made: Vec<i32> = rows.iter().map(|r| r.asset_version_id).collect();
    let setting = asset_setting::Entity::find().filter(asset_setting::Column::Label.eq(SETTING)).one(db).await?;
    let mut convertible = Vec::new();
    if let Some(setting) = setting {
        let assets = asset::Entity::find()
            .filter(asset::Column::UserId.eq(user_id))
            .filter(asset::Column::AssetSettingId.eq(setting.id))
            .filter(asset::Column::Deleted.eq(false))
            .filter(asset::Column::LatestVersionId.is_not_null())
            .order_by_desc(asset::Column::Id)
            .all(db)
            .await?;
        let versions: Vec<i32> = assets.iter().filter_map(|a| a.latest_version_id).collect();
        let files = asset_version::Entity::find().filter(asset_version::Column::Id.is_in(versions)).all(db).await?;
        for a in assets {
            let Some(version) = files.iter().find(|v| Some(v.id) == a.latest_version_id) else { continue };
            if !made.contains(&version.id) {
                convertible.push(Convertible { asset_id: a.id, name: a.name, file_name: version.file_name.clone() });
            }
        }
    }
    Ok(HousingVideos { videos: views(db, &rows).await?, convertible })
}

impl housing_video::Model {
    /// Housing video `uuid` if `user_id` owns it: 404 to anyone else.
    pub async fn of_owner(db: &impl ConnectionTrait, uuid: &str, user_id: i32) -> Result<Self> {
        housing_video::Entity::find()
            .filter(housing_video::Column::Uuid.eq(uuid))
            .filter(housing_video::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// Housing video `id` (the job).
    pub async fn by_id(db: &impl ConnectionTrait, id: i32) -> Result<Self> {
        housing_video::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Every video waiting for its conversion (resumed when workers start).
    pub async fn converting(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(housing_video::Entity::find()
            .filter(housing_video::Column::ConvertStatus.eq(ConvertStatus::Converting))
            .filter(housing_video::Column::DiscardStatus.eq(DiscardStatus::Active))
            .all(db)
            .await?)
    }

    /// A housing video of `user_id`'s asset `asset_id`, made from its newest uploaded version:
    /// 404 for an asset not theirs, 422 at `asset_id` for an asset of another setting, 409
    /// `asset_not_uploaded` for one with no uploaded version. Made once per version: asking
    /// again (or twice at once) gives the one already made (`false`: not new).
    pub async fn make(
        db: &impl ConnectionTrait,
        user_id: i32,
        asset_id: i32,
        now: DateTime<Utc>,
    ) -> Result<(Self, bool)> {
        let asset = asset::Model::for_owner(db, asset_id, user_id).await?;
        if asset.deleted {
            return Err(Error::not_found());
        }
        let setting = asset_setting::Model::by_id(db, asset.asset_setting_id).await?;
        if setting.label != SETTING {
            return Err(Error::invalid("asset_id", "validation.not_a_housing_video"));
        }
        let version = asset_version::Model::newest_uploaded(db, &asset).await?;
        let existing =
            || housing_video::Entity::find().filter(housing_video::Column::AssetVersionId.eq(version.id)).one(db);
        if let Some(found) = existing().await? {
            return Ok((found, false));
        }
        let inserted = housing_video::ActiveModel {
            uuid: Set(uuid::Uuid::new_v4().to_string()),
            user_id: Set(user_id),
            asset_id: Set(asset.id),
            asset_version_id: Set(version.id),
            video_filename: Set(version.file_name.clone()),
            convert_status: Set(ConvertStatus::Converting),
            convert_error: Set(None),
            convert_attempts: Set(0),
            converted_bytes: Set(None),
            duration_ms: Set(None),
            width: Set(None),
            height: Set(None),
            discard_status: Set(DiscardStatus::Active),
            created_at: Set(now),
            updated_at: Set(now),
            converted_at: Set(None),
            discarded_at: Set(None),
            ..Default::default()
        }
        .insert(db)
        .await;
        match inserted {
            Ok(row) => Ok((row, true)),
            // The unique index on the version: another request made it first.
            Err(e) => existing().await?.map(|found| (found, false)).ok_or_else(|| e.into()),
        }
    }

    /// Counts a run of the conversion job; the runs so far.
    pub async fn count_attempt(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<i32> {
        housing_video::Entity::update_many()
            .col_expr(housing_video::Column::ConvertAttempts, Expr::col(housing_video::Column::ConvertAttempts).add(1))
            .col_expr(housing_video::Column::UpdatedAt, Expr::value(now))
            .filter(housing_video::Column::Id.eq(self.id))
            .exec(db)
            .await?;
        Ok(self.convert_attempts + 1)
    }

    /// `converting → finished` with what the conversion made; false when it no longer converts
    /// (discarded meanwhile, or another run finished it).
    pub async fn finish(&self, db: &impl ConnectionTrait, made: &Finished, now: DateTime<Utc>) -> Result<bool> {
        let done = housing_video::Entity::update_many()
            .col_expr(housing_video::Column::ConvertStatus, Expr::value(ConvertStatus::Finished))
            .col_expr(housing_video::Column::ConvertedBytes, Expr::value(made.bytes))
            .col_expr(housing_video::Column::DurationMs, Expr::value(made.duration_ms))
            .col_expr(housing_video::Column::Width, Expr::value(made.width))
            .col_expr(housing_video::Column::Height, Expr::value(made.height))
            .col_expr(housing_video::Column::ConvertedAt, Expr::value(now))
            .col_expr(housing_video::Column::UpdatedAt, Expr::value(now))
            .filter(housing_video::Column::Id.eq(self.id))
            .filter(housing_video::Column::ConvertStatus.eq(ConvertStatus::Converting))
            .filter(housing_video::Column::DiscardStatus.eq(DiscardStatus::Active))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// `converting → error` with the error's code; false when it no longer converts.
    pub async fn fail(&self, db: &impl ConnectionTrait, code: &str, now: DateTime<Utc>) -> Result<bool> {
        let done = housing_video::Entity::update_many()
            .col_expr(housing_video::Column::ConvertStatus, Expr::value(ConvertStatus::Error))
            .col_expr(housing_video::Column::ConvertError, Expr::value(code))
            .col_expr(housing_video::Column::UpdatedAt, Expr::value(now))
            .filter(housing_video::Column::Id.eq(self.id))
            .filter(housing_video::Column::ConvertStatus.eq(ConvertStatus::Converting))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// `active → discarded` (a conversion still running is abandoned: its result is not kept);
    /// false when it was discarded already.
    pub async fn discard(&self, db: &impl ConnectionTrait, now: DateTime<Utc>) -> Result<bool> {
        let done = housing_video::Entity::update_many()
            .col_expr(housing_video::Column::DiscardStatus, Expr::value(DiscardStatus::Discarded))
            .col_expr(housing_video::Column::DiscardedAt, Expr::value(now))
            .col_expr(housing_video::Column::UpdatedAt, Expr::value(now))
            .filter(housing_video::Column::Id.eq(self.id))
            .filter(housing_video::Column::DiscardStatus.eq(DiscardStatus::Active))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }
}

/// What a finished conversion records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// Bytes of the MP4.
    pub bytes: i64,
    /// Milliseconds.
    pub duration_ms: i32,
    /// Pixels.
    pub width: i32,
    /// Pixels.
    pub height: i32,
}
