//! VRChat avatar orders (spec §3 "VRChat" avatar order): a user orders one of their uploaded
//! avatars converted for VRChat (`new`), or an avatar of theirs converted again from its newest
//! version (`update`). The price and the uploads it buys are fixed when the order opens, from
//! the configuration ([`Prices`]); it is paid like an application, through PayPal or GMO
//! ([`crate::store::vrchat::order_pay`]), until its `closing_date`; a free one is paid as it
//! opens. A user has one open order at a time (a unique key), and needs a linked VRChat account
//! (the avatar goes to it).
//!
//! [`settle`] is the one way an order becomes paid: a conditional update from `open` in a
//! write transaction, so whatever asks twice (the return from the provider, the user's reload)
//! pays once and makes one avatar.

use chrono::{DateTime, Duration, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set,
    SqlErr,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::db::begin_write;
use crate::db::entities::vrchat_account_link;
use crate::db::entities::vrchat_avatar::{self, VrcAvatarStatus};
use crate::db::entities::vrchat_avatar_order::{self, AvatarOrderState, AvatarPaymentType, PurchaseType};
use crate::error::{Error, Result};
use crate::store::model::box_submission::avatar_version;
use crate::store::vrchat::avatar;
use crate::store::vrchat::status::{Event, next};

/// How long an order waits to be paid.
pub const CLOSING_DAYS: i64 = 7;

/// What orders cost and buy, from the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
pub struct Prices {
    /// Yen for a new VRChat avatar.
    pub new_price: i32,
    /// Yen to convert an avatar again.
    pub update_price: i32,
    /// Uploads a new avatar comes with.
    pub new_uploads: i32,
    /// Uploads an update adds.
    pub update_uploads: i32,
}

impl Prices {
    /// As `config` says.
    pub fn from_config(config: &Config) -> Self {
        Self {
            new_price: config.vrchat_avatar_price_new,
            update_price: config.vrchat_avatar_price_update,
            new_uploads: config.vrchat_avatar_uploads_new,
            update_uploads: config.vrchat_avatar_uploads_update,
        }
    }

    /// Price and uploads of `purchase_type`.
    pub fn of(&self, purchase_type: PurchaseType) -> (i32, i32) {
        match purchase_type {
            PurchaseType::New => (self.new_price, self.new_uploads),
            PurchaseType::Update => (self.update_price, self.update_uploads),
        }
    }
}

/// An order as its user (and staff) see it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AvatarOrderView {
    /// Its id.
    pub uuid: String,
    /// `new` or `update`.
    pub purchase_type: PurchaseType,
    /// `paypal` or `gmo_payment`.
    pub payment_type: AvatarPaymentType,
    /// Yen.
    pub total_price: i32,
    /// Uploads to VRChat it buys.
    pub uploads: i32,
    /// Its name on VRChat.
    pub avatar_name: String,
    /// The avatar it made or converts again.
    pub vrc_avatar: Option<String>,
    /// Where the order stands.
    pub state: AvatarOrderState,
    /// Payable until then.
    pub closing_date: DateTime<Utc>,
    /// When it was paid.
    pub paid_at: Option<DateTime<Utc>>,
    /// PayPal's order and the invoice id sent with it; GMO's order id.
    pub paypal_order_id: Option<String>,
    /// The invoice id sent to PayPal (the order's uuid).
    pub invoice_id: Option<String>,
    /// GMO's order id, once a payment link was made.
    pub gmo_payment_order_id: Option<String>,
    /// When it was made.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

impl AvatarOrderView {
    /// The view of `row`, whose avatar (if any) has `avatar_uuid`.
    pub fn of(row: &vrchat_avatar_order::Model, avatar_uuid: Option<String>) -> Self {
        Self {
            uuid: row.uuid.clone(),
            purchase_type: row.purchase_type,
            payment_type: row.payment_type,
            total_price: row.total_price,
            uploads: row.uploads,
            avatar_name: row.avatar_name.clone(),
            vrc_avatar: avatar_uuid,
            state: row.state,
            closing_date: row.closing_date,
            paid_at: row.paid_at,
            paypal_order_id: row.paypal_order_id.clone(),
            invoice_id: row.invoice_id.clone(),
            gmo_payment_order_id: row.gmo_payment_order_id.clone(),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

/// The views of `rows`, with their avatars' ids.
pub async fn views(db: &impl ConnectionTrait, rows: &[vrchat_avatar_order::Model]) -> Result<Vec<AvatarOrderView>> {
    let ids: Vec<i32> = rows.iter().filter_map(|r| r.vrchat_avatar_id).collect();
    let avatars: std::collections::HashMap<i32, String> = if ids.is_empty() {
        Default::default()
    } else {
        vrchat_avatar::Entity::find()
            .filter(vrchat_avatar::Column::Id.is_in(ids))
            .all(db)
            .await?
            .into_iter()
            .map(|a| (a.id, a.uuid))
            .collect()
    };
    Ok(rows
        .iter()
        .map(|r| AvatarOrderView::of(r, r.vrchat_avatar_id.and_then(|id| avatars.get(&id).cloned())))
        .collect())
}

/// `user_id`'s orders, newest first.
pub async fn of_user(db: &impl ConnectionTrait, user_id: i32) -> Result<Vec<vrchat_avatar_order::Model>> {
    Ok(vrchat_avatar_order::Entity::find()
        .filter(vrchat_avatar_order::Column::UserId.eq(user_id))
        .order_by_desc(vrchat_avatar_order::Column::Id)
        .all(db)
        .await?)
}

/// `user_id`'s order `uuid`; 404 for anyone else's.
pub async fn of_owner(db: &impl ConnectionTrait, user_id: i32, uuid: &str) -> Result<vrchat_avatar_order::Model> {
    vrchat_avatar_order::Entity::find()
        .filter(vrchat_avatar_order::Column::Uuid.eq(uuid))
        .filter(vrchat_avatar_order::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(Error::not_found)
}

/// The order `id` as it is now.
pub async fn reload(db: &impl ConnectionTrait, id: i32) -> Result<vrchat_avatar_order::Model> {
    vrchat_avatar_order::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
}

/// What a user orders.
#[derive(Debug, Clone)]
pub struct OrderRequest {
    /// `new` or `update`.
    pub purchase_type: PurchaseType,
    /// `paypal` or `gmo_payment`.
    pub payment_type: AvatarPaymentType,
    /// `new`: the user's avatar asset to convert.
    pub asset_id: Option<i32>,
    /// `update`: the user's VRChat avatar to convert again.
    pub avatar_uuid: Option<String>,
    /// `new`: its name on VRChat (1–64 characters; checked by the caller).
    pub avatar_name: Option<String>,
}

/// Opens `user_id`'s order; a free one is paid at once. 409 `vrchat_not_linked` without a linked
/// VRChat account, `avatar_order_open` while another order of theirs is open, `avatar_status`
/// for an update of an avatar in a worker's hands or the queue, `asset_not_uploaded`; 404 for an
/// asset or avatar not theirs; 422 for a missing field or an asset that is not an avatar.
pub async fn open(
    db: &DatabaseConnection,
    prices: &Prices,
    user_id: i32,
    request: OrderRequest,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    let linked =
        vrchat_account_link::Entity::find().filter(vrchat_account_link::Column::UserId.eq(user_id)).one(db).await?;
    if linked.is_none() {
        return Err(Error::Conflict { code: "vrchat_not_linked" });
    }
    let (avatar_id, version, name) = match request.purchase_type {
        PurchaseType::New => {
            let asset_id = request.asset_id.ok_or_else(|| Error::invalid("asset_id", "validation.required"))?;
            let name = request.avatar_name.ok_or_else(|| Error::invalid("avatar_name", "validation.required"))?;
            (None, avatar_version(db, user_id, asset_id).await?, name)
        }
        PurchaseType::Update => {
            let uuid = request.avatar_uuid.ok_or_else(|| Error::invalid("avatar_uuid", "validation.required"))?;
            let found = avatar::of_owner(db, user_id, &uuid).await?;
            if next(found.status, Event::UpdatePaid, found.remaining_uploads).is_none() {
                return Err(Error::Conflict { code: "avatar_status" });
            }
            (Some(found.id), avatar_version(db, user_id, found.asset_id).await?, found.avatar_name)
        }
    };
    let (total_price, uploads) = prices.of(request.purchase_type);
    let txn = begin_write(db).await?;
    expire_overdue(&txn, user_id, now).await?;
    let row = vrchat_avatar_order::ActiveModel {
        uuid: Set(uuid::Uuid::new_v4().to_string()),
        user_id: Set(user_id),
        vrchat_avatar_id: Set(avatar_id),
        asset_version_id: Set(version.id),
        avatar_name: Set(name),
        purchase_type: Set(request.purchase_type),
        payment_type: Set(request.payment_type),
        total_price: Set(total_price),
        uploads: Set(uploads),
        closing_date: Set(now + Duration::days(CLOSING_DAYS)),
        state: Set(AvatarOrderState::Open),
        open_key: Set(Some(user_id.to_string())),
        paypal_order_id: Set(None),
        invoice_id: Set(None),
        gmo_payment_order_id: Set(None),
        provider_url: Set(None),
        paid_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    };
    let made = match row.insert(&txn).await {
        Ok(made) => made,
        Err(e) if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            return Err(Error::Conflict { code: "avatar_order_open" });
        }
        Err(e) => return Err(e.into()),
    };
    txn.commit().await?;
    if total_price == 0 {
        return settle(db, made.id, 0, now).await;
    }
    Ok(made)
}

/// Closes `user_id`'s open order if it is past its closing date (nobody can pay it now: the
/// providers' links end then too).
async fn expire_overdue(db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<()> {
    vrchat_avatar_order::Entity::update_many()
        .col_expr(vrchat_avatar_order::Column::State, Expr::value(AvatarOrderState::Expired))
        .col_expr(vrchat_avatar_order::Column::OpenKey, Expr::value(Option::<String>::None))
        .col_expr(vrchat_avatar_order::Column::UpdatedAt, Expr::value(now))
        .filter(vrchat_avatar_order::Column::UserId.eq(user_id))
        .filter(vrchat_avatar_order::Column::State.eq(AvatarOrderState::Open))
        .filter(vrchat_avatar_order::Column::ClosingDate.lte(now))
        .exec(db)
        .await?;
    Ok(())
}

/// Closes open order `row` as `to` (expired, cancelled); 409 `order_closed` when it is not open
/// any more.
pub async fn close(
    db: &impl ConnectionTrait,
    row: &vrchat_avatar_order::Model,
    to: AvatarOrderState,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    let done = vrchat_avatar_order::Entity::update_many()
        .col_expr(vrchat_avatar_order::Column::State, Expr::value(to))
        .col_expr(vrchat_avatar_order::Column::OpenKey, Expr::value(Option::<String>::None))
        .col_expr(vrchat_avatar_order::Column::UpdatedAt, Expr::value(now))
        .filter(vrchat_avatar_order::Column::Id.eq(row.id))
        .filter(vrchat_avatar_order::Column::State.eq(AvatarOrderState::Open))
        .exec(db)
        .await?;
    if done.rows_affected != 1 {
        return Err(Error::Conflict { code: "order_closed" });
    }
    reload(db, row.id).await
}

/// Records what the provider made of order `row` (its order id, where the payer goes).
pub async fn set_provider(
    db: &impl ConnectionTrait,
    row: &vrchat_avatar_order::Model,
    paypal: Option<&str>,
    gmo: Option<&str>,
    url: &str,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    let mut active: vrchat_avatar_order::ActiveModel = row.clone().into();
    if let Some(id) = paypal {
        active.paypal_order_id = Set(Some(id.to_string()));
        active.invoice_id = Set(Some(row.uuid.clone()));
    }
    if let Some(id) = gmo {
        active.gmo_payment_order_id = Set(Some(id.to_string()));
    }
    active.provider_url = Set(Some(url.to_string()));
    active.updated_at = Set(now);
    Ok(active.update(db).await?)
}

/// Marks order `order_id` paid with `amount` yen and makes (or converts again) its avatar, once:
/// a second call answers the paid order. 409 `order_closed` for an order expired or cancelled
/// before the money came, `payment_amount_mismatch` when `amount` is not its price (nothing is
/// marked; staff look).
pub async fn settle(
    db: &DatabaseConnection,
    order_id: i32,
    amount: i64,
    now: DateTime<Utc>,
) -> Result<vrchat_avatar_order::Model> {
    let txn = begin_write(db).await?;
    let row = reload(&txn, order_id).await?;
    match row.state {
        AvatarOrderState::Paid => return Ok(row),
        AvatarOrderState::Open => {}
        AvatarOrderState::Expired | AvatarOrderState::Cancelled => {
            tracing::error!(order = %row.uuid, "money came for a closed VRChat avatar order; staff must refund it");
            return Err(Error::Conflict { code: "order_closed" });
        }
    }
    if amount != i64::from(row.total_price) {
        tracing::error!(order = %row.uuid, amount, price = row.total_price, "a VRChat avatar order was paid another amount");
        return Err(Error::Conflict { code: "payment_amount_mismatch" });
    }
    let paid = vrchat_avatar_order::Entity::update_many()
        .col_expr(vrchat_avatar_order::Column::State, Expr::value(AvatarOrderState::Paid))
        .col_expr(vrchat_avatar_order::Column::OpenKey, Expr::value(Option::<String>::None))
        .col_expr(vrchat_avatar_order::Column::PaidAt, Expr::value(now))
        .col_expr(vrchat_avatar_order::Column::UpdatedAt, Expr::value(now))
        .filter(vrchat_avatar_order::Column::Id.eq(row.id))
        .filter(vrchat_avatar_order::Column::State.eq(AvatarOrderState::Open))
        .exec(&txn)
        .await?;
    if paid.rows_affected != 1 {
        txn.rollback().await?;
        return reload(db, order_id).await;
    }
    let version = crate::db::entities::asset_version::Model::by_id(&txn, row.asset_version_id).await?;
    match row.vrchat_avatar_id {
        None => {
            let made = vrchat_avatar::ActiveModel {
                uuid: Set(uuid::Uuid::new_v4().to_string()),
                user_id: Set(row.user_id),
                asset_id: Set(version.asset_id),
                asset_version_id: Set(version.id),
                avatar_name: Set(row.avatar_name.clone()),
                status: Set(VrcAvatarStatus::Waiting),
                remaining_uploads: Set(row.uploads),
                progress: Set(0),
                progress_note: Set(None),
                worker: Set(None),
                lease_until: Set(None),
                attempts: Set(0),
                result_key: Set(None),
                result_bytes: Set(None),
                result_sha256: Set(None),
                vrchat_avatar_id: Set(None),
                failure_code: Set(None),
                failure_message: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(&txn)
            .await?;
            vrchat_avatar_order::Entity::update_many()
                .col_expr(vrchat_avatar_order::Column::VrchatAvatarId, Expr::value(made.id))
                .filter(vrchat_avatar_order::Column::Id.eq(row.id))
                .exec(&txn)
                .await?;
        }
        Some(avatar_id) => {
            let found = avatar::reload(&txn, avatar_id).await?;
            if next(found.status, Event::UpdatePaid, found.remaining_uploads).is_none() {
                // Nothing else puts an avatar back in the queue, and only one order is open per
                // user: this is not expected. The money is kept with the order; staff look.
                tracing::error!(order = %row.uuid, status = ?found.status, "a paid update found its avatar busy");
            } else {
                vrchat_avatar::Entity::update_many()
                    .col_expr(vrchat_avatar::Column::Status, Expr::value(VrcAvatarStatus::Waiting))
                    .col_expr(vrchat_avatar::Column::AssetVersionId, Expr::value(version.id))
                    .col_expr(
                        vrchat_avatar::Column::RemainingUploads,
                        Expr::col(vrchat_avatar::Column::RemainingUploads).add(row.uploads),
                    )
                    .col_expr(vrchat_avatar::Column::Progress, Expr::value(0))
                    .col_expr(vrchat_avatar::Column::FailureCode, Expr::value(Option::<String>::None))
                    .col_expr(vrchat_avatar::Column::FailureMessage, Expr::value(Option::<String>::None))
                    .col_expr(vrchat_avatar::Column::UpdatedAt, Expr::value(now))
                    .filter(vrchat_avatar::Column::Id.eq(found.id))
                    .filter(vrchat_avatar::Column::Status.eq(found.status))
                    .exec(&txn)
                    .await?;
            }
        }
    }
    txn.commit().await?;
    reload(db, order_id).await
}

/// Whether `row` may still be paid at `now`.
pub fn payable(row: &vrchat_avatar_order::Model, now: DateTime<Utc>) -> bool {
    row.state == AvatarOrderState::Open && now < row.closing_date
}
