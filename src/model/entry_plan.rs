//! Event entry plans (spec §3 "Event entry plan"): an event's plans by category, each with its
//! world and the rate label shown while applying (DOMAIN.md: `normal` below 80 % of `maximum`
//! applied, `nearly_full` from 80 %, `over_capacity` above 100 %; a plan with no slots is
//! `over_capacity` from the start).

use std::collections::HashMap;

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Defined with its entity (`db::entities::event_entry_plan`); part of this model's API.
pub use crate::db::entities::event_entry_plan::ExhibitionCategory;
use crate::db::entities::{event_entry_application, event_entry_plan, world};
use crate::error::Result;
use crate::types::{Lang, Localized, localized};

/// How full a plan is, by the wishes made for it so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RateLabel {
    /// Fewer wishes than 80 % of its slots.
    Normal,
    /// From 80 % to 100 % of its slots.
    NearlyFull,
    /// More wishes than slots (or no slots at all).
    OverCapacity,
}

impl RateLabel {
    /// The label of a plan with `maximum` slots and `applied` wishes. A plan without slots
    /// (`maximum` 0) is over capacity whatever its count: any wish for it, the applicant's own
    /// included, is one more than it can take, so an applicant is warned, never told there is
    /// room ("nearly full" at 0 of 0 said so).
    pub fn of(applied: u64, maximum: i32) -> Self {
        let maximum = u64::try_from(maximum).unwrap_or(0);
        if maximum == 0 || applied > maximum {
            Self::OverCapacity
        } else if applied * 5 >= maximum * 4 {
            Self::NearlyFull
        } else {
            Self::Normal
        }
    }

    /// The snake_case name, used in message keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Normal => "normal",
            Self::NearlyFull => "nearly_full",
            Self::OverCapacity => "over_capacity",
        }
    }
}

/// The world of a plan, as a plan shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlanWorldView {
    /// World id.
    pub id: i32,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Thumbnail.
    pub image: Option<String>,
}

/// A plan as clients see it (spec §3 "Event entry plan").
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PlanView {
    /// Plan id (what `applications[].plan_id` takes).
    pub id: i32,
    /// Owning event.
    pub event_id: i32,
    /// Space, item or avatar.
    pub exhibition_category: ExhibitionCategory,
    /// Name: `name` in the request's language, `name_ja`, `name_en`.
    #[serde(flatten)]
    pub name: localized::Name,
    /// Slots the lottery gives away.
    pub maximum: i32,
    /// Fee per slot, JPY.
    pub fee: i32,
    /// The world.
    pub world: PlanWorldView,
    /// How full it is.
    pub rate_label: RateLabel,
    /// The preview world (`launch_url`).
    pub preview_world: PreviewWorld,
}

/// Where to look at a plan's world before applying.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PreviewWorld {
    /// Launch URL, if there is a preview.
    pub launch_url: Option<String>,
}

impl event_entry_plan::Model {
    /// The name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        lang.pick(&self.name_ja, &self.name_en)
    }

    /// The plans of event `event_id` (only of `category` if given), in display order.
    pub async fn of_event(
        db: &impl ConnectionTrait,
        event_id: i32,
        category: Option<ExhibitionCategory>,
    ) -> Result<Vec<Self>> {
        let mut query = event_entry_plan::Entity::find().filter(event_entry_plan::Column::EventId.eq(event_id));
        if let Some(category) = category {
            query = query.filter(event_entry_plan::Column::ExhibitionCategory.eq(category));
        }
        Ok(query
            .order_by_asc(event_entry_plan::Column::DisplayOrder)
            .order_by_asc(event_entry_plan::Column::Id)
            .all(db)
            .await?)
    }
}

/// How many wishes each of `plan_ids` has.
pub async fn wish_counts(db: &impl ConnectionTrait, plan_ids: &[i32]) -> Result<HashMap<i32, u64>> {
    let rows: Vec<(i32, i64)> = event_entry_application::Entity::find()
        .select_only()
        .column(event_entry_application::Column::PlanId)
        .column_as(event_entry_application::Column::Id.count(), "n")
        .filter(event_entry_application::Column::PlanId.is_in(plan_ids.to_vec()))
        .group_by(event_entry_application::Column::PlanId)
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().map(|(id, n)| (id, u64::try_from(n).unwrap_or(0))).collect())
}

impl PlanView {
    /// Views of `plans` in `lang`, with their worlds and rate labels, in a fixed number of
    /// queries.
    pub async fn load(db: &impl ConnectionTrait, plans: Vec<event_entry_plan::Model>, lang: Lang) -> Result<Vec<Self>> {
        let ids: Vec<i32> = plans.iter().map(|p| p.id).collect();
        let counts = wish_counts(db, &ids).await?;
        let world_ids: Vec<i32> = plans.iter().map(|p| p.world_id).collect();
        let worlds: HashMap<i32, world::Model> = world::Entity::find()
            .filter(world::Column::Id.is_in(world_ids))
            .all(db)
            .await?
            .into_iter()
            .map(|w| (w.id, w))
            .collect();
        Ok(plans
            .into_iter()
            .filter_map(|p| {
                let w = worlds.get(&p.world_id)?;
                Some(Self {
                    id: p.id,
                    event_id: p.event_id,
                    exhibition_category: p.exhibition_category,
                    name: Localized::new(lang, p.name_ja.clone(), p.name_en.clone()),
                    maximum: p.maximum,
                    fee: p.fee,
                    world: PlanWorldView {
                        id: w.id,
                        name: Localized::new(lang, w.name_ja.clone(), w.name_en.clone()),
                        image: w.image.clone(),
                    },
                    rate_label: RateLabel::of(counts.get(&p.id).copied().unwrap_or(0), p.maximum),
                    preview_world: PreviewWorld { launch_url: p.preview_world_launch_url },
                })
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_labels_change_at_80_and_above_100_percent() {
        assert_eq!(RateLabel::of(0, 10), RateLabel::Normal);
        assert_eq!(RateLabel::of(7, 10), RateLabel::Normal);
        assert_eq!(RateLabel::of(8, 10), RateLabel::NearlyFull);
        assert_eq!(RateLabel::of(10, 10), RateLabel::NearlyFull, "full is not over");
        assert_eq!(RateLabel::of(11, 10), RateLabel::OverCapacity);
        assert_eq!(RateLabel::of(3, 4), RateLabel::Normal, "75 %");
        assert_eq!(RateLabel::of(4, 5), RateLabel::NearlyFull, "80 % exactly");
    }

    #[test]
    fn rate_labels_at_their_edges() {
        // 0 %, 79 %, 80 %, 100 %, 101 % of a hundred slots.
        assert_eq!(RateLabel::of(0, 100), RateLabel::Normal);
        assert_eq!(RateLabel::of(79, 100), RateLabel::Normal);
        assert_eq!(RateLabel::of(80, 100), RateLabel::NearlyFull);
        assert_eq!(RateLabel::of(100, 100), RateLabel::NearlyFull);
        assert_eq!(RateLabel::of(101, 100), RateLabel::OverCapacity);
        // Just under 80 % where 80 % is not a whole number of wishes (3.2 of 4).
        assert_eq!(RateLabel::of(3, 4), RateLabel::Normal);
        assert_eq!(RateLabel::of(4, 4), RateLabel::NearlyFull);
        // One slot: the first wish fills it, the second is over.
        assert_eq!(RateLabel::of(0, 1), RateLabel::Normal);
        assert_eq!(RateLabel::of(1, 1), RateLabel::NearlyFull);
        assert_eq!(RateLabel::of(2, 1), RateLabel::OverCapacity);
    }

    #[test]
    fn a_plan_without_slots_is_over_capacity_even_before_anyone_applies() {
        assert_eq!(RateLabel::of(0, 0), RateLabel::OverCapacity, "an applicant's wish could not win");
        assert_eq!(RateLabel::of(1, 0), RateLabel::OverCapacity);
        assert_eq!(RateLabel::of(0, -1), RateLabel::OverCapacity, "a negative maximum counts as none");
    }
}
