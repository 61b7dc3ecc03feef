//! A VRC redirect: a short, stable link of an event (`/{permalink}/redirect/{id}`) that sends
//! visitors on to an http(s) URL (a world launch, the community page, the venue map).

use sea_orm::entity::prelude::*;

/// A row of `vrc_redirects`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "vrc_redirects")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub event_id: i32,
    /// Short key, unique within the event (permalink characters).
    pub url_key: String,
    /// Where the redirect goes; always an absolute http or https URL.
    #[sea_orm(column_type = "Text")]
    pub url: String,
    #[sea_orm(column_type = "Text")]
    pub description_ja: String,
    #[sea_orm(column_type = "Text")]
    pub description_en: String,
}

/// No relations are navigated through SeaORM; queries filter by foreign key.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
