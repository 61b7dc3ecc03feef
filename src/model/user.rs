//! Product users: roles and attributes, provisioning from verified token claims, the profile
//! view (spec §3 User) and profile updates.

use chrono::{DateTime, Utc};
use sea_orm::entity::prelude::*;
use sea_orm::{ActiveModelTrait, ConnectionTrait, QueryOrder, Set, TransactionSession, TransactionTrait};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::db::entities::{user, user_external_link};
use crate::error::{Error, Result};
use crate::types::{Lang, Localized, localized};

/// Defined with its entity (`db::entities::user`); part of this model's API.
pub use crate::db::entities::user::{Role, UserAttribute};

impl Role {
    /// Parses a role name such as `admin`.
    pub fn parse(s: &str) -> Option<Self> {
        serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
    }
}

/// The identity a verified token vouches for.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Identity {
    /// Stable account id from the account service.
    pub sub: String,
    /// Public handle.
    pub vmarket_id: String,
    /// Japanese name at sign-up.
    pub name_ja: String,
    /// English name at sign-up.
    pub name_en: String,
    /// Email address, when the account service shares it.
    pub email: Option<String>,
}

/// Icon URLs: the original and three sizes (spec §3 User `icon`).
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct IconView {
    /// The largest version, or null without an icon.
    pub url: Option<String>,
    /// 64 px.
    pub small: Option<String>,
    /// 128 px.
    pub medium: Option<String>,
    /// 256 px.
    pub large: Option<String>,
}

/// An external link.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct ExternalLinkView {
    /// Link id.
    pub id: i32,
    /// The URL.
    pub url: String,
}

/// A user as they see themselves (spec §3 User).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct UserView {
    /// User id.
    pub id: i32,
    /// Account id at the account service.
    pub sub: String,
    /// Public handle.
    pub vmarket_id: String,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Icon URLs.
    pub icon: IconView,
    /// Links shown on the profile.
    pub external_links: Vec<ExternalLinkView>,
    /// Staff memo.
    pub memo: Option<String>,
    /// Score.
    pub score: i32,
    /// Staff role.
    pub role: Role,
    /// Roles as a list (spec §3 `roles`).
    pub roles: Vec<Role>,
    /// Attribute.
    pub attribute: UserAttribute,
}

/// Icon sizes in pixels, smallest first, with their names.
pub const ICON_SIZES: [(&str, u32); 3] = [("small", 64), ("medium", 128), ("large", 256)];

/// The storage key of one size of an icon version.
pub fn icon_key(user_id: i32, version: i32, size: &str) -> String {
    format!("users/{user_id}/icon-v{version}-{size}.png")
}

impl user::Model {
    /// The users of `ids` by id, in one statement (none when `ids` is empty; repeats are fine).
    pub async fn by_ids(
        db: &impl ConnectionTrait,
        ids: impl IntoIterator<Item = i32>,
    ) -> Result<std::collections::HashMap<i32, Self>> {
        let mut ids: Vec<i32> = ids.into_iter().collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        Ok(user::Entity::find()
            .filter(user::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|u| (u.id, u))
            .collect())
    }

    /// The icon URLs of this user, served under `/media`.
    pub fn icon(&self) -> IconView {
        match &self.icon_key {
            None => IconView { url: None, small: None, medium: None, large: None },
            Some(_) => {
                let url = |size: &str| Some(format!("/media/{}", icon_key(self.id, self.icon_version, size)));
                IconView { url: url("large"), small: url("small"), medium: url("medium"), large: url("large") }
            }
        }
    }

    /// The display name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick(&self.name_ja, &self.name_en)
    }

    /// The address and language a mail to this user goes to and is written in (none without an
    /// address).
    pub fn mail_to(&self) -> Option<(&str, Lang)> {
        let email = self.email.as_deref().filter(|e| !e.trim().is_empty())?;
        Some((email, Lang::parse(&self.lang).unwrap_or_default()))
    }

    /// Finds the user of `sub`.
    pub async fn by_sub(db: &impl ConnectionTrait, sub: &str) -> Result<Option<Self>> {
        Ok(user::Entity::find().filter(user::Column::Sub.eq(sub)).one(db).await?)
    }

    /// The user of a verified identity, created on first sign-in.
    pub async fn provision(db: &impl ConnectionTrait, id: &Identity, now: DateTime<Utc>) -> Result<Self> {
        if let Some(found) = Self::by_sub(db, &id.sub).await? {
            if id.email.is_some() && found.email != id.email {
                let mut row: user::ActiveModel = found.into();
                row.email = Set(id.email.clone());
                return Ok(row.update(db).await?);
            }
            return Ok(found);
        }
        let row = user::ActiveModel {
            sub: Set(id.sub.clone()),
            vmarket_id: Set(id.vmarket_id.clone()),
            name_ja: Set(id.name_ja.clone()),
            name_en: Set(id.name_en.clone()),
            icon_version: Set(0),
            icon_key: Set(None),
            memo: Set(None),
            score: Set(0),
            role: Set(Role::None),
            attribute: Set(UserAttribute::None),
            min_token_generation: Set(0),
            email: Set(id.email.clone()),
            lang: Set(Lang::Ja.code().to_string()),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        };
        match row.insert(db).await {
            Ok(created) => Ok(created),
            // Two first requests raced: the other one created it.
            Err(_) => Self::by_sub(db, &id.sub).await?.ok_or_else(|| Error::Internal("user provisioning".into())),
        }
    }

    /// Refuses every token of a generation below `generation` from now on (sign-out
    /// everywhere). Generations only move forward.
    pub async fn revoke_tokens_below(&self, db: &impl ConnectionTrait, generation: i64) -> Result<()> {
        user::Entity::update_many()
            .col_expr(user::Column::MinTokenGeneration, Expr::value(generation))
            .filter(user::Column::Id.eq(self.id))
            .filter(user::Column::MinTokenGeneration.lt(generation))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Whether a token of `generation` is still accepted for this user.
    pub fn accepts_generation(&self, generation: i64) -> bool {
        generation >= self.min_token_generation
    }

    /// Remembers the language the user last signed in with (mails follow it).
    pub async fn set_lang(&self, db: &impl ConnectionTrait, lang: Lang) -> Result<()> {
        if self.lang != lang.code() {
            user::Entity::update_many()
                .col_expr(user::Column::Lang, Expr::value(lang.code()))
                .filter(user::Column::Id.eq(self.id))
                .exec(db)
                .await?;
        }
        Ok(())
    }

    /// Sets the staff role.
    pub async fn set_role(self, db: &impl ConnectionTrait, role: Role, now: DateTime<Utc>) -> Result<Self> {
        let mut row: user::ActiveModel = self.into();
        row.role = Set(role);
        row.updated_at = Set(now);
        Ok(row.update(db).await?)
    }

    /// The external links, in order.
    pub async fn links(&self, db: &impl ConnectionTrait) -> Result<Vec<user_external_link::Model>> {
        Ok(user_external_link::Entity::find()
            .filter(user_external_link::Column::UserId.eq(self.id))
            .order_by_asc(user_external_link::Column::Position)
            .all(db)
            .await?)
    }
}

/// A validated profile change.
#[derive(Debug, Clone)]
pub struct ProfileUpdate {
    /// New Japanese name.
    pub name_ja: String,
    /// New English name.
    pub name_en: String,
    /// New links, replacing the old ones.
    pub external_links: Vec<String>,
    /// Whether a new icon version was stored.
    pub new_icon: bool,
}

impl ProfileUpdate {
    /// Applies the change in one transaction.
    pub async fn apply<C: ConnectionTrait + TransactionTrait>(
        self,
        db: &C,
        user: user::Model,
        now: DateTime<Utc>,
    ) -> Result<user::Model> {
        let txn = crate::db::begin_write(db).await?;
        let user_id = user.id;
        let next_version = user.icon_version + 1;
        let mut row: user::ActiveModel = user.into();
        row.name_ja = Set(self.name_ja);
        row.name_en = Set(self.name_en);
        row.updated_at = Set(now);
        if self.new_icon {
            row.icon_version = Set(next_version);
            row.icon_key = Set(Some(icon_key(user_id, next_version, "large")));
        }
        let updated = row.update(&txn).await?;
        user_external_link::Entity::delete_many()
            .filter(user_external_link::Column::UserId.eq(user_id))
            .exec(&txn)
            .await?;
        for (position, url) in self.external_links.into_iter().enumerate() {
            user_external_link::ActiveModel {
                user_id: Set(user_id),
                url: Set(url),
                position: Set(position as i32),
                ..Default::default()
            }
            .insert(&txn)
            .await?;
        }
        txn.commit().await?;
        Ok(updated)
    }
}

impl UserView {
    /// The view of `user` in `lang`.
    pub async fn load(db: &impl ConnectionTrait, user: &user::Model, lang: Lang) -> Result<Self> {
        let links = user.links(db).await?;
        Ok(Self {
            id: user.id,
            sub: user.sub.clone(),
            vmarket_id: user.vmarket_id.clone(),
            name: Localized::new(lang, user.name_ja.clone(), user.name_en.clone()),
            icon: user.icon(),
            external_links: links.into_iter().map(|l| ExternalLinkView { id: l.id, url: l.url }).collect(),
            memo: user.memo.clone(),
            score: user.score,
            role: user.role,
            roles: if user.role == Role::None { vec![] } else { vec![user.role] },
            attribute: user.attribute,
        })
    }
}
