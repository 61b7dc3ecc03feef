//! An event to apply to, made straight in the database as staff would (no staff screen for
//! events yet): its phases placed around the test clock's "now", one concept, two worlds and
//! plans in every category.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{ActiveModelTrait, Set};
use vmarket::db::entities::{concept, event, event_entry_plan, event_phase, world};
use vmarket::model::entry_plan::ExhibitionCategory;
use vmarket::model::phase::PhaseType;
use vmarket::types::kinds::{ConceptKind, Platform, Venue};

use super::TestApp;

/// An event whose entry window is open at the test clock's "now".
pub struct EntryEvent {
    /// Event id.
    pub id: i32,
    /// Plans: space (maximum 2), space (maximum 10), item (free), avatar.
    pub plans: Vec<i32>,
    /// When each phase is.
    pub phases: Vec<(PhaseType, DateTime<Utc>)>,
}

impl EntryEvent {
    /// When the phase `kind` is.
    pub fn at(&self, kind: PhaseType) -> DateTime<Utc> {
        self.phases.iter().find(|(k, _)| *k == kind).map(|(_, at)| *at).expect("the event has the phase")
    }
}

/// Phases relative to `now` in days: entry −1…+10, first lottery +11…+12, first payment
/// +13…+20, second lottery +21…+22, second payment +23…+30, submission +31…+40, event +50…+60.
fn timeline(now: DateTime<Utc>) -> Vec<(PhaseType, DateTime<Utc>)> {
    use PhaseType::*;
    [
        (EntryStart, -1),
        (EntryEnd, 10),
        (FirstLotteryStart, 11),
        (FirstLotteryEnd, 12),
        (FirstPaymentStart, 13),
        (FirstPaymentEnd, 20),
        (SecondLotteryStart, 21),
        (SecondLotteryEnd, 22),
        (SecondPaymentStart, 23),
        (SecondPaymentEnd, 30),
        (SubmissionStart, 31),
        (SubmissionEnd, 40),
        (EventOpen, 50),
        (EventClose, 60),
    ]
    .into_iter()
    .map(|(kind, days)| (kind, now + Duration::days(days)))
    .collect()
}

impl TestApp {
    /// Creates the event `permalink` (see [`EntryEvent`]).
    pub async fn entry_event(&self, permalink: &str) -> EntryEvent {
        let now = self.clock.now();
        let db = &self.db;
        let text = |s: &str| Set(s.to_string());
        let ev = event::ActiveModel {
            permalink: text(permalink),
            version: Set(99),
            name_ja: text(&format!("テスト展 {permalink}")),
            name_en: text(&format!("Test Fair {permalink}")),
            theme_ja: text("灯り"),
            theme_en: text("Lights"),
            theme_description_ja: text(""),
            theme_description_en: text(""),
            is_entry_closed: Set(false),
            is_public: Set(true),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("event");
        let phases = timeline(now);
        for (kind, at) in &phases {
            event_phase::ActiveModel {
                event_id: Set(ev.id),
                phase_type: Set(*kind),
                phase_timestamp: Set(*at),
                is_private: Set(false),
                is_displayable: Set(true),
                ..Default::default()
            }
            .insert(db)
            .await
            .expect("phase");
        }
        let c = concept::ActiveModel {
            event_id: Set(ev.id),
            name_ja: text("灯りの街"),
            name_en: text("Town of Lights"),
            description_ja: text(""),
            description_en: text(""),
            platform: Set(Platform::Pc),
            venue: Set(Venue::Vrc),
            kind: Set(ConceptKind::General),
            is_company: Set(false),
            display_order: Set(1),
            ..Default::default()
        }
        .insert(db)
        .await
        .expect("concept");
        let mut worlds = Vec::new();
        for (i, (ja, en)) in [("灯りの広場", "Lantern Square"), ("星の回廊", "Star Corridor")].into_iter().enumerate()
        {
            let w = world::ActiveModel {
                event_id: Set(ev.id),
                concept_id: Set(c.id),
                name_ja: text(ja),
                name_en: text(en),
                description_ja: text(""),
                description_en: text(""),
                exhibition_platform: Set(Platform::Pc),
                venue: Set(Venue::Vrc),
                is_company: Set(false),
                display_order: Set(i as i32),
                ..Default::default()
            }
            .insert(db)
            .await
            .expect("world");
            worlds.push(w.id);
        }
        let mut plans = Vec::new();
        let specs = [
            (ExhibitionCategory::Space, "広場ブース", "Square booth", 2, 8000, worlds[0]),
            (ExhibitionCategory::Space, "回廊ブース", "Corridor booth", 10, 5000, worlds[1]),
            (ExhibitionCategory::Item, "アイテム展示", "Item exhibit", 20, 0, worlds[0]),
            (ExhibitionCategory::Avatar, "アバター展示", "Avatar exhibit", 5, 3000, worlds[1]),
        ];
        for (i, (category, ja, en, maximum, fee, world_id)) in specs.into_iter().enumerate() {
            let p = event_entry_plan::ActiveModel {
                event_id: Set(ev.id),
                world_id: Set(world_id),
                exhibition_category: Set(category),
                name_ja: text(ja),
                name_en: text(en),
                maximum: Set(maximum),
                fee: Set(fee),
                preview_world_launch_url: Set(Some(format!("https://vrchat.com/home/launch?worldId=wrld_test_{i}"))),
                display_order: Set(i as i32),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(db)
            .await
            .expect("plan");
            plans.push(p.id);
        }
        EntryEvent { id: ev.id, plans, phases }
    }
}
