//! `users`: everyone who signed in, with their staff role. Staff with access read them; only
//! admins change a role — never their own, and never the last admin's (409 `last_admin`), also
//! when two admins demote each other at once: the change locks every admin row first
//! (PostgreSQL `FOR UPDATE`; SQLite's write transaction holds the database), so the second
//! change sees the first.

use chrono::{DateTime, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, Set,
};
use serde::{Deserialize, Serialize};
use validator::Validate;

use crate::admin::api::contract::Columns;
use crate::admin::api::cx::Cx;
use crate::admin::api::resource::Resource;
use crate::admin::permissions::{Action, Area};
use crate::db::entities::user;
use crate::error::{Error, Result};
use crate::model::user::{Role, UserAttribute};

/// The resource.
pub struct Users;

/// A user as staff see them.
#[derive(Debug, Clone, Serialize)]
pub struct UserRecord {
    /// User id.
    pub id: i32,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Email, when the account service shares it.
    pub email: Option<String>,
    /// Staff role.
    pub role: Role,
    /// Attribute (certificated streamer).
    pub attribute: UserAttribute,
    /// Language of their mails.
    pub lang: String,
    /// Icon (64 px), if any.
    pub icon: Option<String>,
    /// First sign-in.
    pub created_at: DateTime<Utc>,
    /// Last change.
    pub updated_at: DateTime<Utc>,
}

/// What an admin changes on a user.
#[derive(Debug, Clone, Default, Serialize, Deserialize, Validate)]
#[serde(default)]
pub struct UserInput {
    /// The staff role (`none` takes it away).
    #[validate(required)]
    pub role: Option<Role>,
}

impl Resource for Users {
    type Entity = user::Entity;
    type Record = UserRecord;
    type Input = UserInput;

    const NAME: &'static str = "users";
    const AREA: Area = Area::Users;
    const ACTIONS: &'static [Action] = Action::READ_EDIT;
    // Who, and their role: no email, names or icon in the log.
    const AUDIT_FIELDS: Option<&'static [&'static str]> = Some(&["id", "vmarket_id", "role"]);
    const COLUMNS: Columns = Columns {
        sort: &["vmarket_id", "role", "created_at", "updated_at"],
        filter: &["role", "attribute", "vmarket_id", "created_at"],
        search: &["vmarket_id", "name_ja", "name_en", "email"],
        computed: &[],
    };

    async fn records<C: ConnectionTrait + Sync>(_db: &C, rows: Vec<user::Model>) -> Result<Vec<UserRecord>> {
        Ok(rows
            .into_iter()
            .map(|u| UserRecord {
                icon: u.icon().small,
                id: u.id,
                vmarket_id: u.vmarket_id,
                name_ja: u.name_ja,
                name_en: u.name_en,
                email: u.email,
                role: u.role,
                attribute: u.attribute,
                lang: u.lang,
                created_at: u.created_at,
                updated_at: u.updated_at,
            })
            .collect())
    }

    async fn update(txn: &DatabaseTransaction, row: user::Model, input: UserInput, cx: &Cx<'_>) -> Result<()> {
        let role = input.role.unwrap_or(Role::None);
        if row.id == cx.staff.id && role != row.role {
            return Err(Error::invalid("role", "validation.own_role"));
        }
        if row.role == Role::Admin && role != Role::Admin {
            let admins = user::Entity::find()
                .filter(user::Column::Role.eq(Role::Admin))
                .order_by_asc(user::Column::Id)
                .lock_exclusive()
                .all(txn)
                .await?;
            if !admins.iter().any(|a| a.id != row.id) {
                return Err(Error::Conflict { code: "last_admin" });
            }
        }
        if role != row.role {
            let mut row: user::ActiveModel = row.into();
            row.role = Set(role);
            row.updated_at = Set(cx.acted_at());
            row.update(txn).await?;
        }
        Ok(())
    }
}
