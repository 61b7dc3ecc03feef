//! The entry form (spec §2 "apply"): the form as posted ([`EntryForm`]), what it needs of an
//! event ([`Setting`]), how it is rendered, and how a posted form is checked as the API would
//! before it is confirmed or saved (the handlers: `entries.rs`).

use std::collections::HashMap;

use crate::http::template::Template;
use rocket::Either;
use rocket::form::FromForm;
use rocket::http::Status;
use rocket::response::Redirect;
use serde_json::{Value, json};

use crate::db::entities::{circle, event, event_entry, event_entry_plan};
use crate::error::{Error, Invalid, Result};
use crate::forms::entry::{AMP_ID_MAX, ApplicationInput, EntryInput, OptionsInput};
use crate::model::entry::MAX_WISHES;
use crate::model::entry_events::{ActiveEventView, active_for};
use crate::model::entry_plan::{ExhibitionCategory, PlanView};
use crate::model::entry_terms::Terms;
use crate::model::entry_view::EntryView;
use crate::model::event::EventWithPhases;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::entry_fields::{errors_by_field, wish_field};
use crate::web::pages::entry_views::{apply_path, fee_text, history_path, owned_entry, plan_json};
use crate::web::pages::mypage_nav::nav;

/// A page answer: the rendered page with its status, or a redirect after a change.
pub(crate) type Answer = Either<(Status, Template), Redirect>;

/// The conflicts the form explains above itself (their messages are `errors.<code>`).
pub(crate) const REFUSALS: [&str; 5] =
    ["entry_closed", "entry_exists", "circle_suspended", "amp_closed", "entry_drawn"];

/// The entry form as posted: every value as typed, so that nothing is lost on an error. The
/// wishes are three fixed slots; a slot without a plan is no wish.
#[derive(Debug, Default, FromForm)]
pub struct EntryForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// `new` or `edit`.
    pub mode: Option<String>,
    /// One of the user's own circles.
    pub circle_id: Option<String>,
    /// The category the plan list is narrowed to, if any.
    pub category: Option<String>,
    /// Present when the circle accepts more than one win.
    pub is_multiple_win: Option<String>,
    /// The plans of wishes 1–3.
    pub plan_1: Option<String>,
    /// See `plan_1`.
    pub plan_2: Option<String>,
    /// See `plan_1`.
    pub plan_3: Option<String>,
    /// AMP use of wishes 1–3.
    pub use_amp_1: Option<String>,
    /// See `use_amp_1`.
    pub use_amp_2: Option<String>,
    /// See `use_amp_1`.
    pub use_amp_3: Option<String>,
    /// AMP ids of wishes 1–3.
    pub amp_id_1: Option<String>,
    /// See `amp_id_1`.
    pub amp_id_2: Option<String>,
    /// See `amp_id_1`.
    pub amp_id_3: Option<String>,
    /// Free submission of wishes 1–3.
    pub free_submission_1: Option<String>,
    /// See `free_submission_1`.
    pub free_submission_2: Option<String>,
    /// See `free_submission_1`.
    pub free_submission_3: Option<String>,
    /// The digest of the terms shown, when the applicant ticked "I agree".
    pub agreed_terms: Option<String>,
    /// `back` from the confirmation: show the form again.
    pub action: Option<String>,
}

/// One wish slot as typed.
pub(crate) struct SlotValues<'a> {
    pub(crate) plan: &'a str,
    pub(crate) use_amp: bool,
    pub(crate) amp_id: &'a str,
    pub(crate) free_submission: bool,
}

impl EntryForm {
    pub(crate) fn is_edit(&self) -> bool {
        self.mode.as_deref() == Some("edit")
    }

    pub(crate) fn slot(&self, slot: usize) -> SlotValues<'_> {
        fn text(v: &Option<String>) -> &str {
            v.as_deref().unwrap_or("").trim()
        }
        let (plan, use_amp, amp_id, free) = match slot {
            1 => (&self.plan_1, &self.use_amp_1, &self.amp_id_1, &self.free_submission_1),
            2 => (&self.plan_2, &self.use_amp_2, &self.amp_id_2, &self.free_submission_2),
            _ => (&self.plan_3, &self.use_amp_3, &self.amp_id_3, &self.free_submission_3),
        };
        SlotValues {
            plan: text(plan),
            use_amp: use_amp.is_some(),
            amp_id: amp_id.as_deref().unwrap_or(""),
            free_submission: free.is_some(),
        }
    }

    /// The circle as a number, if it is one.
    pub(crate) fn circle(&self) -> Option<i32> {
        self.circle_id.as_deref().and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0)
    }

    /// The API's input for event `event_id`, and the slot of each of its applications (a wish
    /// keeps its slot number as its choice, so a skipped slot is the API's gap).
    pub(crate) fn input(&self, event_id: i32) -> (EntryInput, Vec<usize>) {
        let mut applications = Vec::new();
        let mut slots = Vec::new();
        for slot in 1..=MAX_WISHES {
            let s = self.slot(slot);
            if s.plan.is_empty() {
                continue;
            }
            applications.push(ApplicationInput {
                choice: i32::try_from(slot).ok(),
                plan_id: s.plan.parse::<i32>().ok(),
                options: Some(OptionsInput {
                    use_amp: s.use_amp,
                    amp_id: Some(s.amp_id.to_string()),
                    free_submission: s.free_submission,
                }),
            });
            slots.push(slot);
        }
        let input = EntryInput {
            event_id: Some(event_id),
            circle_id: self.circle().or(Some(0)),
            is_multiple_win: self.is_multiple_win.is_some(),
            applications,
            agreed_terms: self.agreed_terms.clone(),
        };
        (input, slots)
    }

    /// The values the form shows again.
    pub(crate) fn values(&self) -> Value {
        let wishes: Vec<Value> = (1..=MAX_WISHES)
            .map(|slot| {
                let s = self.slot(slot);
                json!({ "plan": s.plan, "use_amp": s.use_amp, "amp_id": s.amp_id, "free_submission": s.free_submission })
            })
            .collect();
        json!({
            "circle_id": self.circle_id.as_deref().unwrap_or("").trim(),
            "is_multiple_win": self.is_multiple_win.is_some(),
            "wishes": wishes,
            "agreed_terms": self.agreed_terms.as_deref().unwrap_or("").trim(),
        })
    }

    /// The form filled from a saved entry.
    pub(crate) fn of_entry(view: &EntryView) -> Self {
        let mut form = EntryForm {
            mode: Some("edit".into()),
            circle_id: Some(view.circle.id.to_string()),
            is_multiple_win: view.is_multiple_win.then(|| "1".into()),
            // Agreed to the current terms: they are not asked again.
            agreed_terms: view.terms_current.then(|| view.terms_digest.clone()).flatten(),
            ..Default::default()
        };
        for a in &view.applications {
            let plan = Some(a.plan.id.to_string());
            let use_amp = a.options.use_amp.then(|| "1".to_string());
            let amp_id = a.options.amp_id.clone();
            let free = a.options.free_submission.then(|| "1".to_string());
            match a.choice {
                1 => {
                    (form.plan_1, form.use_amp_1, form.amp_id_1, form.free_submission_1) = (plan, use_amp, amp_id, free)
                }
                2 => {
                    (form.plan_2, form.use_amp_2, form.amp_id_2, form.free_submission_2) = (plan, use_amp, amp_id, free)
                }
                3 => {
                    (form.plan_3, form.use_amp_3, form.amp_id_3, form.free_submission_3) = (plan, use_amp, amp_id, free)
                }
                _ => {}
            }
        }
        form
    }
}

/// The field of the form a problem of the API's input belongs to: a problem of an application
/// goes to its slot (its plan, or its AMP id), the rank and count problems to the wishes as a
/// whole, anything else to the field of that name ([`wish_field`]).
fn field_of(attribute: &str, slots: &[usize]) -> String {
    wish_field(attribute, slots, "plan").unwrap_or_else(|| attribute.into())
}

/// What the form needs of an event: its plans, the user's circles and their entries.
pub(crate) struct Setting {
    pub(crate) event: EventWithPhases,
    pub(crate) active: Option<ActiveEventView>,
    pub(crate) plans: Vec<PlanView>,
}

impl Setting {
    pub(crate) async fn load(p: &Page<'_>, user_id: i32, permalink: &Permalink) -> Result<Self> {
        let found = event::Model::resolve(p.db, permalink.as_str()).await?;
        let active = active_for(p.db, user_id, p.lang, p.now).await?.into_iter().find(|a| a.event.id == found.id);
        let plans = event_entry_plan::Model::of_event(p.db, found.id, None).await?;
        let plans = PlanView::load(p.db, plans, p.lang).await?;
        Ok(Self { event: EventWithPhases::load(p.db, found).await?, active, plans })
    }

    pub(crate) fn permalink(&self) -> &str {
        &self.event.event.permalink
    }

    pub(crate) fn event_json(&self, p: &Page<'_>) -> Value {
        let ev = &self.event.event;
        json!({
            "name": p.lang.pick(&ev.name_ja, &ev.name_en),
            "permalink": ev.permalink,
            "entry_open": self.event.entry_open(p.now),
            "entry_ends_at": self.event.at(crate::model::phase::PhaseType::EntryEnd),
        })
    }

    /// The plan `id` of this event, if it is one.
    pub(crate) fn plan(&self, id: &str) -> Option<&PlanView> {
        let id = id.parse::<i32>().ok()?;
        self.plans.iter().find(|plan| plan.id == id)
    }
}

/// The event's terms as the form shows them (each document with its label), or null.
fn terms_json(p: &Page<'_>, setting: &Setting) -> Value {
    let Some(terms) = Terms::of(&setting.event.event) else { return Value::Null };
    let documents: Vec<Value> = terms
        .documents
        .iter()
        .map(|d| json!({ "label": p.t(&format!("entries.terms.{}", d.kind.as_str())), "url": d.url }))
        .collect();
    json!({ "documents": documents, "digest": terms.digest })
}

/// The category of `?category=` / the form, if it is one.
pub(crate) fn category_of(raw: Option<&str>) -> Option<ExhibitionCategory> {
    raw.and_then(ExhibitionCategory::parse)
}

/// Renders the entry form.
pub(crate) fn render_form(
    p: &Page<'_>,
    setting: &Setting,
    form: &EntryForm,
    errors: HashMap<String, Vec<String>>,
    refused: Option<&str>,
    status: Status,
) -> Answer {
    let editing = form.is_edit();
    let permalink = setting.permalink();
    let category = category_of(form.category.as_deref());
    let values = form.values();
    let circle_value = values["circle_id"].as_str().unwrap_or("").to_string();
    let circles: Vec<Value> = setting
        .active
        .as_ref()
        .map(|a| {
            a.circles
                .iter()
                .map(|c| {
                    let taken = c.entry_id.is_some();
                    json!({
                        "id": c.circle_id,
                        "name": c.name.get(),
                        "is_suspended": c.is_suspended,
                        "has_entry": taken,
                        "selectable": editing || (!taken && !c.is_suspended),
                        "selected": circle_value == c.circle_id.to_string(),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let fixed_circle = editing.then(|| circles.iter().find(|c| c["selected"] == json!(true)).cloned()).flatten();
    let chosen: Vec<String> =
        (1..=MAX_WISHES).map(|s| values["wishes"][s - 1]["plan"].as_str().unwrap_or("").to_string()).collect();
    let shown = |plan: &PlanView| category.is_none_or(|c| c == plan.exhibition_category);
    let table: Vec<Value> = setting.plans.iter().filter(|plan| shown(plan)).map(|plan| plan_json(p, plan)).collect();
    let slots: Vec<Value> = (1..=MAX_WISHES)
        .map(|slot| {
            let picked = &chosen[slot - 1];
            let options: Vec<Value> = setting
                .plans
                .iter()
                .filter(|plan| shown(plan) || plan.id.to_string() == *picked)
                .map(|plan| {
                    json!({
                        "id": plan.id,
                        "label": format!("{} ({}, {})", plan.name.get(), p.t(&format!("entries.category.{}", plan.exhibition_category.as_str())), fee_text(p, plan.fee)),
                        "selected": plan.id.to_string() == *picked,
                    })
                })
                .collect();
            json!({ "n": slot, "options": options, "values": values["wishes"][slot - 1] })
        })
        .collect();
    let base = if editing { apply_path(permalink, "edit") } else { apply_path(permalink, "new") };
    let circle_query = if circle_value.is_empty() { String::new() } else { format!("circle={circle_value}&") };
    let tabs: Vec<Value> =
        [None, Some(ExhibitionCategory::Space), Some(ExhibitionCategory::Item), Some(ExhibitionCategory::Avatar)]
            .into_iter()
            .map(|c| {
                let key = c.map_or("all", |c| c.as_str());
                let query = match c {
                    Some(c) => format!("?{circle_query}category={}", c.as_str()),
                    None if circle_query.is_empty() => String::new(),
                    None => format!("?{}", circle_query.trim_end_matches('&')),
                };
                json!({
                    "key": key,
                    "label": p.t(&format!("entries.category.{key}")),
                    "href": format!("{}{query}", p.href(&base)),
                    "current": c == category,
                })
            })
            .collect();
    let title = if editing { p.t("entries.form.edit_title") } else { p.t("entries.form.new_title") };
    let ctx = json!({
        "nav": nav(p),
        "heading": title,
        "event": setting.event_json(p),
        "mode": if editing { "edit" } else { "new" },
        "action": p.href(&apply_path(permalink, "details")),
        "circles": circles,
        "fixed_circle": fixed_circle,
        "category": category.map(|c| c.as_str()),
        "tabs": tabs,
        "plans": table,
        "has_plans": !setting.plans.is_empty(),
        "slots": slots,
        "values": values,
        "has_errors": !errors.is_empty(),
        "errors": errors,
        "refused": refused.map(|code| p.t(&format!("errors.{code}"))),
        "terms": terms_json(p, setting),
        "amp_id_max": AMP_ID_MAX,
        "events_href": p.href("/mypage/events"),
        "history_href": p.href(&history_path(permalink)),
    });
    Either::Left((status, p.render("mypage/entries/form", &title, ctx)))
}

/// The form again after a refusal: field problems beside their fields (422), a conflict above
/// the form (409); anything else is an error page.
pub(crate) fn refused_form(
    p: &Page<'_>,
    setting: &Setting,
    form: &EntryForm,
    slots: &[usize],
    error: Error,
) -> Result<Answer> {
    match error {
        e @ Error::Validation(_) => {
            let errors = errors_by_field(e.details(&p.site.messages, p.lang), |a| field_of(a, slots));
            Ok(render_form(p, setting, form, errors, None, Status::UnprocessableEntity))
        }
        Error::Conflict { code } if REFUSALS.contains(&code) => {
            Ok(render_form(p, setting, form, HashMap::new(), Some(code), Status::Conflict))
        }
        other => Err(other),
    }
}

/// Checks a posted form as the API would, without saving: the wishes, the circle (the user's
/// own), the window, the plans. `Ok(Ok(()))` when it may be saved; the form again otherwise.
pub(crate) async fn check(
    p: &Page<'_>,
    user_id: i32,
    setting: &Setting,
    form: &EntryForm,
) -> Result<std::result::Result<(), Answer>> {
    let (input, slots) = form.input(setting.event.event.id);
    if let Err(e) = input.checked(!form.is_edit()) {
        return refused_form(p, setting, form, &slots, e).map(Err);
    }
    let circle_id = form.circle();
    let mut recorded = None;
    if form.is_edit() {
        recorded = owned_entry(p, user_id, setting.event.event.id, circle_id).await?.terms_digest;
    } else if let Some(id) = circle_id {
        circle::Model::for_owner(p.db, id, user_id).await?.ensure_writable()?;
        if event_entry::Model::of_circle(p.db, setting.event.event.id, id).await?.is_some() {
            return refused_form(p, setting, form, &slots, Error::Conflict { code: "entry_exists" }).map(Err);
        }
    }
    if let Err(e) = setting.event.ensure_entry_open(p.now) {
        return refused_form(p, setting, form, &slots, e).map(Err);
    }
    if let Err(e) = Terms::agreement_at(&setting.event.event, form.agreed_terms.as_deref(), recorded.as_deref(), p.now)
    {
        return refused_form(p, setting, form, &slots, e).map(Err);
    }
    // A plan of another event is the model's 422 on saving; the confirmation must not show
    // fewer wishes than will be sent, so it is refused here with the same message.
    let unknown: Vec<Invalid> = slots
        .iter()
        .enumerate()
        .filter(|(_, slot)| setting.plan(form.slot(**slot).plan).is_none())
        .map(|(i, _)| Invalid::new(format!("applications[{i}].plan_id"), "entries.validation.plan_unknown"))
        .collect();
    if !unknown.is_empty() {
        return refused_form(p, setting, form, &slots, Error::Validation(unknown)).map(Err);
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_of_applications_land_on_their_slots() {
        let slots = [1, 3];
        assert_eq!(field_of("applications[1].plan_id", &slots), "plan_3");
        assert_eq!(field_of("applications[0].choice", &slots), "plan_1");
        assert_eq!(field_of("applications[1].options.amp_id", &slots), "amp_id_3");
        assert_eq!(field_of("applications", &slots), "wishes");
        assert_eq!(field_of("applications[7].plan_id", &slots), "wishes");
        assert_eq!(field_of("circle_id", &slots), "circle_id");
    }

    #[test]
    fn a_skipped_slot_is_the_apis_gap() {
        let form = EntryForm {
            circle_id: Some("5".into()),
            plan_1: Some("10".into()),
            plan_3: Some("12".into()),
            use_amp_3: Some("1".into()),
            amp_id_3: Some("amp-1".into()),
            ..Default::default()
        };
        let (input, slots) = form.input(9);
        assert_eq!(slots, [1, 3]);
        assert_eq!(input.applications.iter().map(|a| a.choice).collect::<Vec<_>>(), [Some(1), Some(3)]);
        let Err(Error::Validation(found)) = input.checked(true) else { panic!("a gap is refused") };
        assert_eq!(found[0].key, "entries.validation.choices");
    }
}
