//! An exhibitor notification: news from the organisers to exhibitors, read on mypage.

use sea_orm::entity::prelude::*;

/// A row of `exhibitor_notifications`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "exhibitor_notifications")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The event it is about, if any.
    pub event_id: Option<i32>,
    pub title_ja: String,
    pub title_en: String,
    /// A short label such as "重要" / "Important".
    pub label_ja: String,
    pub label_en: String,
    pub description_ja: String,
    pub description_en: String,
    /// When it becomes visible.
    pub published_at: DateTimeUtc,
    pub is_public: bool,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
