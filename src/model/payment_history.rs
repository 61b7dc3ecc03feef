//! The payment history a payer sees (`payment_histories`): the settled payments, newest first,
//! and each one's receipt.

use chrono::{DateTime, Utc};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::order::PaymentType;
use crate::db::entities::{
    circle, event, event_entry, event_entry_application, event_entry_plan, payment_history, world,
};
use crate::error::{Error, Result};
use crate::model::pagination::PageRequest;
use crate::types::{Bilingual, Lang, TransactionUuid};

/// A settled payment as its payer sees it (spec §3 "Payment history", with what it paid for).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PaymentView {
    /// Id.
    pub id: i32,
    /// The payer.
    pub user_id: i32,
    /// The attempt's UUID (the receipt's address).
    pub transaction_uuid: String,
    /// `smbc_gmo`, `paypal` or `stripe`.
    pub payment_type: PaymentType,
    /// The provider's id of the payment.
    pub order_reference: String,
    /// When it was settled.
    pub paid_at: DateTime<Utc>,
    /// JPY.
    pub amount: i32,
    /// The application paid for.
    pub application_id: i32,
    /// The event's id, permalink and name.
    pub event_id: i32,
    /// The event's permalink.
    pub event_permalink: String,
    /// The event's name in the request's language.
    pub event_name: String,
    /// The circle's name in the request's language.
    pub circle_name: String,
    /// The plan's name in the request's language.
    pub plan_name: String,
    /// The plan's world's name in the request's language.
    pub world_name: Option<String>,
    /// Confirmed after the payment window closed: staff refund or accept it.
    pub is_late: bool,
}

impl PaymentView {
    /// Views of `rows` in `lang`.
    pub async fn load(db: &impl ConnectionTrait, rows: Vec<payment_history::Model>, lang: Lang) -> Result<Vec<Self>> {
        let mut views = Vec::with_capacity(rows.len());
        for p in rows {
            let Some(application) = event_entry_application::Entity::find_by_id(p.application_id).one(db).await? else {
                continue;
            };
            let Some(entry) = event_entry::Entity::find_by_id(application.entry_id).one(db).await? else { continue };
            let Some(ev) = event::Entity::find_by_id(entry.event_id).one(db).await? else { continue };
            let c = circle::Entity::find_by_id(entry.circle_id).one(db).await?;
            let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?;
            let w = match &plan {
                Some(plan) => world::Entity::find_by_id(plan.world_id).one(db).await?,
                None => None,
            };
            let name = |ja: &str, en: &str| Bilingual::new(ja.to_string(), en.to_string()).pick(lang).clone();
            views.push(Self {
                id: p.id,
                user_id: p.user_id,
                transaction_uuid: p.transaction_uuid,
                payment_type: p.payment_type,
                order_reference: p.order_reference,
                paid_at: p.paid_at,
                amount: p.amount,
                application_id: p.application_id,
                event_id: ev.id,
                event_name: name(&ev.name_ja, &ev.name_en),
                event_permalink: ev.permalink,
                circle_name: c.map(|c| name(&c.name_ja, &c.name_en)).unwrap_or_default(),
                plan_name: plan.map(|p| name(&p.name_ja, &p.name_en)).unwrap_or_default(),
                world_name: w.map(|w| name(&w.name_ja, &w.name_en)),
                is_late: p.is_late,
            });
        }
        Ok(views)
    }
}

impl payment_history::Model {
    /// A page of `user_id`'s settled payments, newest first, and how many there are.
    pub async fn page_of(db: &impl ConnectionTrait, user_id: i32, req: PageRequest) -> Result<(Vec<Self>, u64)> {
        let query = payment_history::Entity::find().filter(payment_history::Column::UserId.eq(user_id));
        let count = query.clone().count(db).await?;
        let rows = query
            .order_by_desc(payment_history::Column::PaidAt)
            .order_by_desc(payment_history::Column::Id)
            .offset(req.offset())
            .limit(req.limit)
            .all(db)
            .await?;
        Ok((rows, count))
    }

    /// `user_id`'s settled payment `id`: 404 for anyone else's.
    pub async fn of_user(db: &impl ConnectionTrait, id: i32, user_id: i32) -> Result<Self> {
        payment_history::Entity::find_by_id(id)
            .filter(payment_history::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// `user_id`'s settled payment of attempt `transaction_uuid`: 404 otherwise.
    pub async fn by_transaction(
        db: &impl ConnectionTrait,
        transaction_uuid: &TransactionUuid,
        user_id: i32,
    ) -> Result<Self> {
        payment_history::Entity::find()
            .filter(payment_history::Column::TransactionUuid.eq(transaction_uuid.as_str()))
            .filter(payment_history::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(Error::not_found)
    }

    /// `user_id`'s settled payments of the applications `application_ids`: application id →
    /// transaction UUID (the receipt's address).
    pub async fn receipts_of(
        db: &impl ConnectionTrait,
        user_id: i32,
        application_ids: Vec<i32>,
    ) -> Result<std::collections::HashMap<i32, String>> {
        if application_ids.is_empty() {
            return Ok(std::collections::HashMap::new());
        }
        Ok(payment_history::Entity::find()
            .filter(payment_history::Column::UserId.eq(user_id))
            .filter(payment_history::Column::ApplicationId.is_in(application_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|p| (p.application_id, p.transaction_uuid))
            .collect())
    }

    /// The settled payment of order `order_id`, if any.
    pub async fn of_order(db: &impl ConnectionTrait, order_id: i32) -> Result<Option<Self>> {
        Ok(payment_history::Entity::find().filter(payment_history::Column::OrderId.eq(order_id)).one(db).await?)
    }
}
