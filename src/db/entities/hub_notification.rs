//! A hub notification: an official stream, a metaverse event, a campaign or a user event.

use sea_orm::entity::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The audience of a notification: the Japanese site or the global (English) one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum HubLocale {
    /// Written in Japanese for the Japanese audience.
    Jp,
    /// Written in English for everyone else.
    Global,
}

/// What a notification is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum, Serialize, Deserialize, ToSchema)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum HubCategory {
    /// An official live stream.
    OfficialStream,
    /// An event held in a virtual world.
    EventInMetaverse,
    /// A campaign (giveaways, stamp rallies, hashtags…).
    Campaign,
    /// An event organised by a user.
    UserEvent,
}

/// A row of `hub_notifications`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "hub_notifications")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    pub title: String,
    pub content: String,
    pub link_url: Option<String>,
    pub thumbnail: Option<String>,
    pub publish_at: DateTimeUtc,
    pub start_at: DateTimeUtc,
    pub end_at: Option<DateTimeUtc>,
    pub display_date: Option<DateTimeUtc>,
    pub locale: HubLocale,
    pub category: HubCategory,
    pub is_official: bool,
    pub by_ambassador: bool,
    pub is_certificated_stream: bool,
    pub is_public: bool,
    pub is_strong_recommended: bool,
    pub world_id: Option<i32>,
    pub user_id: Option<i32>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
