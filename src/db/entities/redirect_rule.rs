//! A slug redirect rule applied by the `/{slug}` catch-all: `/winter` → `/2026Winter/worlds`.

use sea_orm::entity::prelude::*;

/// A row of `redirect_rules`.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "redirect_rules")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The slug, stored lower-case; matched case-insensitively.
    #[sea_orm(unique)]
    pub slug: String,
    /// A site-relative path (`/…`, language-neutral) or an absolute http(s) URL.
    #[sea_orm(column_type = "Text")]
    pub target: String,
    /// 301 when true, 302 otherwise.
    pub permanent: bool,
    /// Inactive rules are ignored.
    pub is_active: bool,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
