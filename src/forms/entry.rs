//! The entry input (spec §7 "Entries and plans": `event_id`, `circle_id`, `is_multiple_win`,
//! `applications: [{choice, plan_id, options: {use_amp, amp_id, free_submission}}]`) and the AMP
//! update, shared by the API and the mypage forms. Checked here: 1–3 wishes, choices 1..n
//! without gaps, distinct plans, well-formed AMP ids (1–32 ASCII letters, digits, `-` or `_`).
//! What needs the database (the plans belong to the event, the window, the owner) is the
//! model's ([`crate::model::entry`]).

use serde::Deserialize;
use utoipa::ToSchema;
use validator::Validate;

use super::{Input, Problems};
use crate::error::Result;
use crate::model::entry::{AmpOptions, AmpUpdate, EntryChange, MAX_WISHES, Wish};

/// Longest AMP id, in characters.
pub const AMP_ID_MAX: usize = 32;

/// The AMP options of a wish; absent ones are off.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct OptionsInput {
    /// The circle uses AMP.
    #[serde(default)]
    pub use_amp: bool,
    /// Its AMP id: 1–32 ASCII letters, digits, `-` or `_`; empty or absent for none. Kept only
    /// with `use_amp`.
    #[serde(default)]
    pub amp_id: Option<String>,
    /// Submission is free.
    #[serde(default)]
    pub free_submission: bool,
}

/// One wish.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct ApplicationInput {
    /// Its rank, 1 = first wish.
    pub choice: Option<i32>,
    /// A plan of the event (`GET /api/v1/user/{event}/event_plans`).
    pub plan_id: Option<i32>,
    /// AMP options (all off when absent).
    #[serde(default)]
    pub options: Option<OptionsInput>,
}

/// An entry: `POST /api/v1/user/event_entries` (all fields) and `PUT …/{id}` (`event_id` and
/// `circle_id` are ignored: an entry stays with its event and circle).
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct EntryInput {
    /// The event.
    pub event_id: Option<i32>,
    /// One of the user's own circles.
    pub circle_id: Option<i32>,
    /// The circle accepts more than one win.
    #[serde(default)]
    pub is_multiple_win: bool,
    /// 1–3 wishes, choices 1..n, distinct plans.
    #[serde(default)]
    pub applications: Vec<ApplicationInput>,
    /// The digest of the event's terms the owner agrees to (`terms.digest` of
    /// `GET /api/v1/events/{permalink}`). Required to apply when the event has terms, and to edit
    /// when they changed since the entry last agreed (422 on `agreed_terms` otherwise).
    #[serde(default)]
    pub agreed_terms: Option<String>,
}

impl Input for EntryInput {
    const FIELDS: &'static [&'static str] =
        &["event_id", "circle_id", "is_multiple_win", "applications", "agreed_terms"];
}

/// Whether `id` is a well-formed AMP id.
pub fn amp_id_ok(id: &str) -> bool {
    (1..=AMP_ID_MAX).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The checked options of `options` (of `attribute`), or a problem added to `problems`.
fn options_of(options: Option<&OptionsInput>, attribute: &str, problems: &mut Problems) -> AmpOptions {
    let Some(o) = options else { return AmpOptions::default() };
    let amp_id = o.amp_id.as_deref().map(str::trim).filter(|id| !id.is_empty());
    if let Some(id) = amp_id
        && !amp_id_ok(id)
    {
        problems.fail(&format!("{attribute}.amp_id"), "entries.validation.amp_id");
    }
    AmpOptions {
        use_amp: o.use_amp,
        amp_id: amp_id.filter(|_| o.use_amp).map(str::to_string),
        free_submission: o.free_submission,
    }
}

impl EntryInput {
    /// The checked change, or 422 `validation_failed` listing every problem. `new` requires
    /// `event_id` and `circle_id`.
    pub fn checked(&self, new: bool) -> Result<EntryChange> {
        let mut problems = Problems::of(self);
        if new {
            for (field, value) in [("event_id", self.event_id), ("circle_id", self.circle_id)] {
                if value.is_none_or(|v| v <= 0) {
                    problems.fail(field, "validation.required");
                }
            }
        }
        let n = self.applications.len();
        if !(1..=MAX_WISHES).contains(&n) {
            problems.fail("applications", "entries.validation.wish_count");
        }
        let mut wishes = Vec::new();
        for (i, a) in self.applications.iter().enumerate() {
            let at = format!("applications[{i}]");
            let choice = a.choice.filter(|c| *c >= 1);
            let plan_id = a.plan_id.filter(|p| *p >= 1);
            if choice.is_none() {
                problems.fail(&format!("{at}.choice"), "validation.required");
            }
            if plan_id.is_none() {
                problems.fail(&format!("{at}.plan_id"), "validation.required");
            }
            let options = options_of(a.options.as_ref(), &format!("{at}.options"), &mut problems);
            if let (Some(choice), Some(plan_id)) = (choice, plan_id) {
                wishes.push(Wish { choice, plan_id, options });
            }
        }
        if wishes.len() == n && (1..=MAX_WISHES).contains(&n) {
            let mut choices: Vec<i32> = wishes.iter().map(|w| w.choice).collect();
            choices.sort_unstable();
            if choices != (1..=n as i32).collect::<Vec<_>>() {
                problems.fail("applications", "entries.validation.choices");
            }
            let mut plans: Vec<i32> = wishes.iter().map(|w| w.plan_id).collect();
            plans.sort_unstable();
            plans.dedup();
            if plans.len() != n {
                problems.fail("applications", "entries.validation.plans_distinct");
            }
        }
        problems.into_result()?;
        wishes.sort_by_key(|w| w.choice);
        let agreed_terms = self.agreed_terms.as_deref().map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned);
        Ok(EntryChange { is_multiple_win: self.is_multiple_win, wishes, agreed_terms })
    }
}

/// New AMP options of one application of the entry.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
pub struct AmpUpdateItem {
    /// An `applications[].id` of the entry.
    pub id: Option<i32>,
    /// Its new options (absent ones off).
    #[serde(default)]
    pub options: Option<OptionsInput>,
}

/// `PUT /api/v1/user/event_entries/{id}/update_amp_ids`: the updates.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
pub struct AmpUpdateInput {
    /// At least one update.
    #[serde(default)]
    pub applications: Vec<AmpUpdateItem>,
}

impl Input for AmpUpdateInput {
    const FIELDS: &'static [&'static str] = &["applications"];
}

impl AmpUpdateInput {
    /// The checked updates, or 422 `validation_failed`.
    pub fn checked(&self) -> Result<Vec<AmpUpdate>> {
        let mut problems = Problems::of(self);
        if self.applications.is_empty() || self.applications.len() > MAX_WISHES {
            problems.fail("applications", "entries.validation.wish_count");
        }
        let mut updates = Vec::new();
        for (i, item) in self.applications.iter().enumerate() {
            let at = format!("applications[{i}]");
            let options = options_of(item.options.as_ref(), &format!("{at}.options"), &mut problems);
            match item.id.filter(|id| *id >= 1) {
                Some(application_id) => updates.push(AmpUpdate { application_id, options }),
                None => problems.fail(&format!("{at}.id"), "validation.required"),
            }
        }
        problems.into_result()?;
        Ok(updates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    fn wish(choice: i32, plan_id: i32, amp_id: Option<&str>) -> ApplicationInput {
        ApplicationInput {
            choice: Some(choice),
            plan_id: Some(plan_id),
            options: Some(OptionsInput { use_amp: true, amp_id: amp_id.map(String::from), free_submission: false }),
        }
    }

    fn problems(input: &EntryInput) -> Vec<(String, String)> {
        match input.checked(true) {
            Err(Error::Validation(found)) => found.into_iter().map(|i| (i.attribute, i.key.into_owned())).collect(),
            other => panic!("expected problems, got {other:?}"),
        }
    }

    fn entry(applications: Vec<ApplicationInput>) -> EntryInput {
        EntryInput { event_id: Some(1), circle_id: Some(2), is_multiple_win: false, applications, agreed_terms: None }
    }

    #[test]
    fn one_to_three_wishes_ranked_without_gaps_for_distinct_plans() {
        let ok = entry(vec![wish(2, 11, None), wish(1, 10, Some("amp-01_x"))]).checked(true).expect("valid");
        assert_eq!(ok.wishes.iter().map(|w| (w.choice, w.plan_id)).collect::<Vec<_>>(), [(1, 10), (2, 11)]);
        assert_eq!(ok.wishes[0].options.amp_id.as_deref(), Some("amp-01_x"));
        entry(vec![wish(1, 10, None), wish(2, 11, None), wish(3, 12, None)]).checked(true).expect("three");

        let wish_count = ("applications".to_string(), "entries.validation.wish_count".to_string());
        assert_eq!(problems(&entry(vec![])), vec![wish_count.clone()]);
        let four = (1..=4).map(|c| wish(c, 10 + c, None)).collect();
        assert_eq!(problems(&entry(four)), [wish_count]);
        let choices = ("applications".to_string(), "entries.validation.choices".to_string());
        assert_eq!(problems(&entry(vec![wish(1, 10, None), wish(3, 11, None)])), vec![choices.clone()], "a gap");
        assert_eq!(problems(&entry(vec![wish(2, 10, None)])), vec![choices.clone()], "not from 1");
        assert_eq!(problems(&entry(vec![wish(1, 10, None), wish(1, 11, None)])), [choices], "a repeat");
        assert_eq!(
            problems(&entry(vec![wish(1, 10, None), wish(2, 10, None)])),
            [("applications".to_string(), "entries.validation.plans_distinct".to_string())]
        );
    }

    #[test]
    fn amp_ids_are_well_formed() {
        let amp = |id: &str| problems(&entry(vec![wish(1, 10, Some(id))]));
        let bad = [("applications[0].options.amp_id".to_string(), "entries.validation.amp_id".to_string())];
        assert_eq!(amp("amp id"), bad, "a space");
        assert_eq!(amp("アンプ"), bad, "not ASCII");
        assert_eq!(amp(&"a".repeat(AMP_ID_MAX + 1)), bad, "too long");
        entry(vec![wish(1, 10, Some(&"a".repeat(AMP_ID_MAX)))]).checked(true).expect("32 is fine");
        entry(vec![wish(1, 10, Some("  "))]).checked(true).expect("blank is none");
    }

    #[test]
    fn a_new_entry_names_its_event_and_circle() {
        let mut input = entry(vec![wish(1, 10, None)]);
        input.event_id = None;
        input.circle_id = Some(0);
        assert_eq!(
            problems(&input),
            [
                ("event_id".to_string(), "validation.required".to_string()),
                ("circle_id".to_string(), "validation.required".to_string())
            ]
        );
        input.checked(false).expect("a change keeps its event and circle");
    }
}
