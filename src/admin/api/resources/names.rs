//! Lists of names in both languages that worlds and concepts refer to: `keywords` (the tags they
//! carry) and `artists` (the people credited on them). Each is a resource with the same record,
//! input and rules — a name in Japanese and English, and a row still referred to is never
//! deleted (409 `in_use`) — made by [`name_list!`] from the table and what counts its uses.

use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::input::blank;
use crate::forms::checks;

/// A name as staff see it.
#[derive(Debug, Clone, Serialize)]
pub struct NameRecord {
    /// Row id.
    pub id: i32,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Worlds and concepts referring to it.
    pub use_count: u64,
}

/// What staff send for a name.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct NameInput {
    /// Japanese name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_ja: Option<String>,
    /// English name.
    #[serde(deserialize_with = "blank")]
    #[validate(required, length(max = 128), custom(function = "checks::clean_text"))]
    pub name_en: Option<String>,
}

/// A name-list resource `$resource` named `$name` over table module `$table` (columns `id`,
/// `name_ja`, `name_en`), whose rows `$uses(db, id)` finds the uses of ([`Uses`]).
///
/// [`Uses`]: crate::admin::api::uses::Uses
macro_rules! name_list {
    ($(#[$doc:meta])* $resource:ident, $name:literal, $table:ident, $uses:path) => {
        $(#[$doc])*
        pub struct $resource;

        impl $crate::admin::api::resource::Resource for $resource {
            type Entity = $table::Entity;
            type Record = $crate::admin::api::resources::names::NameRecord;
            type Input = $crate::admin::api::resources::names::NameInput;

            const NAME: &'static str = $name;
            const AREA: $crate::admin::permissions::Area = $crate::admin::permissions::Area::Event;
            const ACTIONS: &'static [$crate::admin::permissions::Action] = $crate::admin::permissions::Action::CRUD;
            const COLUMNS: $crate::admin::api::contract::Columns = $crate::admin::api::contract::Columns {
                sort: &["name_ja", "name_en"],
                filter: &[],
                search: &["name_ja", "name_en"],
                computed: &[],
            };

            async fn records<C: sea_orm::ConnectionTrait + Sync>(
                db: &C,
                rows: Vec<$table::Model>,
            ) -> $crate::error::Result<Vec<Self::Record>> {
                let mut out = Vec::with_capacity(rows.len());
                for row in rows {
                    let use_count = $uses(db, row.id).await?.total();
                    out.push($crate::admin::api::resources::names::NameRecord {
                        id: row.id,
                        name_ja: row.name_ja,
                        name_en: row.name_en,
                        use_count,
                    });
                }
                Ok(out)
            }

            async fn create(
                txn: &sea_orm::DatabaseTransaction,
                input: Self::Input,
                _cx: &$crate::admin::api::cx::Cx<'_>,
            ) -> $crate::error::Result<i32> {
                use sea_orm::ActiveModelTrait;
                let row = $table::ActiveModel {
                    name_ja: sea_orm::Set(input.name_ja.unwrap_or_default()),
                    name_en: sea_orm::Set(input.name_en.unwrap_or_default()),
                    ..Default::default()
                };
                Ok(row.insert(txn).await?.id)
            }

            async fn update(
                txn: &sea_orm::DatabaseTransaction,
                row: $table::Model,
                input: Self::Input,
                _cx: &$crate::admin::api::cx::Cx<'_>,
            ) -> $crate::error::Result<()> {
                use sea_orm::ActiveModelTrait;
                let mut row: $table::ActiveModel = row.into();
                row.name_ja = sea_orm::Set(input.name_ja.unwrap_or_default());
                row.name_en = sea_orm::Set(input.name_en.unwrap_or_default());
                row.update(txn).await?;
                Ok(())
            }

            async fn delete(
                txn: &sea_orm::DatabaseTransaction,
                row: $table::Model,
                _cx: &$crate::admin::api::cx::Cx<'_>,
            ) -> $crate::error::Result<()> {
                use sea_orm::EntityTrait;
                $uses(txn, row.id).await?.refuse("in_use")?;
                $table::Entity::delete_by_id(row.id).exec(txn).await?;
                Ok(())
            }
        }
    };
}

pub(crate) use name_list;
