//! A slot's public face: the `exhibitors` row of a won application (`exhibitors.application_id`,
//! unique), which the public catalogue and the exhibitor page read like any imported exhibitor.
//! It is made when the slot first needs one — its first catalogue item or its placement by staff —
//! and takes the circle's names, the plan's world and that world's concept kind.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, NotSet, QueryFilter, QuerySelect};

use crate::db::entities::{circle, concept, event_entry, event_entry_application, event_entry_plan, exhibitor, world};
use crate::error::{Error, Result};
use crate::types::kinds::ConceptKind;

/// The exhibitor row of slot `application_id`, if one was made.
pub async fn find(db: &impl ConnectionTrait, application_id: i32) -> Result<Option<exhibitor::Model>> {
    Ok(exhibitor::Entity::find().filter(exhibitor::Column::ApplicationId.eq(application_id)).one(db).await?)
}

/// The exhibitor row slot `application_id` would get, not stored (`id` 0): the circle's names,
/// the plan's world and its concept's kind, listed after the event's other exhibitors.
pub async fn draft(db: &impl ConnectionTrait, application_id: i32) -> Result<exhibitor::Model> {
    let application =
        event_entry_application::Entity::find_by_id(application_id).one(db).await?.ok_or_else(Error::not_found)?;
    let entry = event_entry::Entity::find_by_id(application.entry_id).one(db).await?.ok_or_else(Error::not_found)?;
    let plan = event_entry_plan::Entity::find_by_id(application.plan_id).one(db).await?.ok_or_else(Error::not_found)?;
    let w = world::Entity::find_by_id(plan.world_id).one(db).await?.ok_or_else(Error::not_found)?;
    let kind = concept::Entity::find_by_id(w.concept_id).one(db).await?.map(|c| c.kind).unwrap_or(ConceptKind::General);
    let circle = circle::Entity::find_by_id(entry.circle_id).one(db).await?.ok_or_else(Error::not_found)?;
    let last: Option<i32> = exhibitor::Entity::find()
        .select_only()
        .column_as(exhibitor::Column::DisplayIndex.max(), "m")
        .filter(exhibitor::Column::EventId.eq(entry.event_id))
        .into_tuple::<Option<i32>>()
        .one(db)
        .await?
        .flatten();
    Ok(exhibitor::Model {
        id: 0,
        event_id: entry.event_id,
        circle_id: Some(circle.id),
        company_id: None,
        kind,
        world_id: Some(w.id),
        name_ja: circle.name_ja,
        name_en: circle.name_en,
        display_index: last.unwrap_or(0) + 1,
        application_id: Some(application_id),
    })
}

/// The exhibitor row of slot `application_id`, made from its [`draft`] on first use (one per
/// slot by the unique index, so two first uses at once share one row); its id.
pub async fn ensure(db: &impl ConnectionTrait, application_id: i32) -> Result<i32> {
    if let Some(row) = find(db, application_id).await? {
        return Ok(row.id);
    }
    let mut row: exhibitor::ActiveModel = draft(db, application_id).await?.into();
    row.id = NotSet;
    exhibitor::Entity::insert(row).on_conflict_do_nothing_on([exhibitor::Column::ApplicationId]).exec(db).await?;
    find(db, application_id)
        .await?
        .map(|e| e.id)
        .ok_or_else(|| Error::Internal("the slot's exhibitor row vanished".into()))
}
