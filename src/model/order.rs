//! Payment attempts (`orders`, DOMAIN.md "Payments"): opening one per application and provider
//! ([`open_order`]), and the queries and state changes of an attempt.

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set,
    TransactionSession, TransactionTrait,
};

use crate::db::entities::order::{OrderState, PaymentType};
use crate::db::entities::{event_entry_application, order};
use crate::error::{Error, Result};
use crate::model::entry_status::LotteryStatus;
use crate::model::payment::Payable;
use crate::model::settlement::MONEY_TAKEN_UNSETTLED;
use crate::types::TransactionUuid;

/// The pending attempt of `payable` through `provider`, or a new one (a fresh UUID v4, the fee at
/// the draw, `pending`) for `user_id`. Two concurrent calls end with the same attempt.
///
/// It holds the application's row (SQLite: an immediate transaction; PostgreSQL: `FOR UPDATE`)
/// and looks at its status again inside: `payable` was read before, and a settle of another
/// attempt (a reconcile, a webhook, another tab) may have marked it `paid` since, in which case
/// no new attempt is opened (409 `already_paid`) — rather than one nobody may ever capture.
pub async fn open_order(
    db: &(impl ConnectionTrait + TransactionTrait),
    payable: &Payable,
    user_id: i32,
    provider: PaymentType,
    now: DateTime<Utc>,
) -> Result<order::Model> {
    let txn = crate::db::begin_write(db).await?;
    let application = event_entry_application::Entity::find_by_id(payable.application.id)
        .lock_exclusive()
        .one(&txn)
        .await?
        .ok_or_else(Error::not_found)?;
    if application.lottery_status == LotteryStatus::Paid {
        return Err(Error::Conflict { code: "already_paid" });
    }
    let pending = || {
        order::Entity::find()
            .filter(order::Column::ApplicationId.eq(payable.application.id))
            .filter(order::Column::Provider.eq(provider))
            .filter(order::Column::State.eq(OrderState::Pending))
    };
    if let Some(found) = pending().one(&txn).await? {
        txn.commit().await?;
        return Ok(found);
    }
    let created = order::ActiveModel {
        application_id: Set(payable.application.id),
        user_id: Set(user_id),
        provider: Set(provider),
        transaction_uuid: Set(uuid::Uuid::new_v4().to_string()),
        provider_order_id: Set(None),
        amount: Set(payable.amount),
        currency: Set("JPY".into()),
        state: Set(OrderState::Pending),
        failure: Set(None),
        reconcile_attempts: Set(0),
        created_at: Set(now),
        updated_at: Set(now),
        settled_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(created)
}

impl order::Model {
    /// The attempt `transaction_uuid` of `user_id`: 404 for anyone else's.
    pub async fn of_user(db: &impl ConnectionTrait, transaction_uuid: &TransactionUuid, user_id: i32) -> Result<Self> {
        order::Entity::find()
            .filter(order::Column::TransactionUuid.eq(transaction_uuid.as_str()))
            .filter(order::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// The attempt whose provider object is `provider_order_id`.
    pub async fn by_provider_id(
        db: &impl ConnectionTrait,
        provider: PaymentType,
        provider_order_id: &str,
    ) -> Result<Option<Self>> {
        Ok(order::Entity::find()
            .filter(order::Column::Provider.eq(provider))
            .filter(order::Column::ProviderOrderId.eq(provider_order_id))
            .one(db)
            .await?)
    }

    /// Records the provider's id of the attempt's payment object (first one wins).
    pub async fn set_provider_id(
        db: &impl ConnectionTrait,
        id: i32,
        provider_order_id: &str,
        now: DateTime<Utc>,
    ) -> Result<Self> {
        order::Entity::update_many()
            .col_expr(order::Column::ProviderOrderId, Expr::value(provider_order_id))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::ProviderOrderId.is_null())
            .exec(db)
            .await?;
        order::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Ends a pending attempt as `state` (`failed` / `expired`) with `reason`; a settled one stays
    /// settled. Returns whether it changed.
    pub async fn close(
        db: &impl ConnectionTrait,
        id: i32,
        state: OrderState,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = order::Entity::update_many()
            .col_expr(order::Column::State, Expr::value(state))
            .col_expr(order::Column::Failure, Expr::value(reason))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::State.eq(OrderState::Pending))
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// Flags attempt `id` for a refund: the provider took money that no payment settles,
    /// `reason` one of [`MONEY_TAKEN_UNSETTLED`]. Unlike [`Self::close`] it also applies to an
    /// attempt already closed here (expired, superseded, cancelled: the money arrived after we
    /// gave up on it) — staff must see every such payment; a settled attempt stays settled.
    /// Returns whether it changed.
    pub async fn flag_for_refund(
        db: &impl ConnectionTrait,
        id: i32,
        reason: &'static str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        debug_assert!(MONEY_TAKEN_UNSETTLED.contains(&reason));
        let done = order::Entity::update_many()
            .col_expr(order::Column::State, Expr::value(OrderState::Failed))
            .col_expr(order::Column::Failure, Expr::value(reason))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::State.ne(OrderState::Captured))
            .filter(
                Condition::any()
                    .add(order::Column::Failure.is_null())
                    .add(order::Column::Failure.is_not_in(MONEY_TAKEN_UNSETTLED)),
            )
            .exec(db)
            .await?;
        Ok(done.rows_affected == 1)
    }

    /// Counts one more question to the provider about the attempt.
    pub async fn count_reconcile(db: &impl ConnectionTrait, id: i32, now: DateTime<Utc>) -> Result<()> {
        order::Entity::update_many()
            .col_expr(order::Column::ReconcileAttempts, Expr::col(order::Column::ReconcileAttempts).add(1))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .exec(db)
            .await?;
        Ok(())
    }

    /// Every pending attempt that has a payment object at its provider (what the reconcile job
    /// asks about).
    pub async fn pending_at_provider(db: &impl ConnectionTrait) -> Result<Vec<Self>> {
        Ok(order::Entity::find()
            .filter(order::Column::State.eq(OrderState::Pending))
            .filter(order::Column::ProviderOrderId.is_not_null())
            .order_by_asc(order::Column::Id)
            .all(db)
            .await?)
    }
}
