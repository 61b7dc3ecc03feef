//! What the redirect providers (PayPal, GMO) keep on an attempt beyond Stripe's: the provider's
//! page the payer is sent to, and the count of declines at capture (see `orders.provider_attempt`).

use chrono::{DateTime, Utc};
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};

use crate::db::entities::order;
use crate::error::{Error, Result};
use crate::model::payment::{OrderState, PaymentType};
use crate::types::TransactionUuid;

impl order::Model {
    /// Records the provider page of attempt `id` (first one wins) and returns the attempt.
    pub async fn set_provider_url(db: &impl ConnectionTrait, id: i32, url: &str, now: DateTime<Utc>) -> Result<Self> {
        order::Entity::update_many()
            .col_expr(order::Column::ProviderUrl, Expr::value(url))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::ProviderUrl.is_null())
            .exec(db)
            .await?;
        order::Entity::find_by_id(id).one(db).await?.ok_or_else(Error::not_found)
    }

    /// Counts a decline at capture of pending attempt `id`, if no one counted it since the
    /// capture made with key number `seen` (concurrent captures share one decline).
    pub async fn count_decline(db: &impl ConnectionTrait, id: i32, seen: i32, now: DateTime<Utc>) -> Result<()> {
        order::Entity::update_many()
            .col_expr(order::Column::ProviderAttempt, Expr::col(order::Column::ProviderAttempt).add(1))
            .col_expr(order::Column::Failure, Expr::value("declined"))
            .col_expr(order::Column::UpdatedAt, Expr::value(now))
            .filter(order::Column::Id.eq(id))
            .filter(order::Column::State.eq(OrderState::Pending))
            .filter(order::Column::ProviderAttempt.eq(seen))
            .exec(db)
            .await?;
        Ok(())
    }

    /// The attempt `transaction_uuid`, whoever's it is: `/checkout` finishes attempts for a payer
    /// the provider sent back, who may not be signed in.
    pub async fn by_transaction(db: &impl ConnectionTrait, transaction_uuid: &TransactionUuid) -> Result<Option<Self>> {
        Ok(order::Entity::find().filter(order::Column::TransactionUuid.eq(transaction_uuid.as_str())).one(db).await?)
    }

    /// `user_id`'s attempt through `provider` whose provider object is `provider_order_id`:
    /// 404 for anyone else's.
    pub async fn of_user_at(
        db: &impl ConnectionTrait,
        provider: PaymentType,
        provider_order_id: &str,
        user_id: i32,
    ) -> Result<Self> {
        Self::by_provider_id(db, provider, provider_order_id)
            .await?
            .filter(|o| o.user_id == user_id)
            .ok_or_else(Error::not_found)
    }
}
