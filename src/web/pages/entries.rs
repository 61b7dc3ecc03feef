//! Applying to an event from mypage (spec §2: `/mypage/events`,
//! `/mypage/event/{permalink}/apply/new`, `/apply/edit`, `/apply/details`, `/apply/complete`):
//! the events a user's circles can apply to, the entry form (circle, exhibition category, up to
//! three ranked wishes with their AMP options, multiple-win), its confirmation, the saved
//! entry, and withdrawal (a confirmation page, then a POST).
//!
//! Everything works without JavaScript: the form posts with a CSRF field to `/apply/details`,
//! which shows what will be sent; the confirmation posts to `/apply/complete`, which saves
//! through the model the API uses ([`crate::forms::entry`] then
//! [`crate::db::entities::event_entry::Model::apply`] / `change`), so the rules and their
//! messages are the API's. Errors come back beside their fields, with everything typed kept.
//! Only the circle's owner reaches the form of an entry (a member gets 403, anyone else 404).

use std::collections::HashMap;

use crate::http::template::Template;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{circle, event, event_entry, event_entry_plan};
use crate::error::{Error, FieldError, Invalid, Result};
use crate::forms::entry::{AMP_ID_MAX, ApplicationInput, EntryInput, OptionsInput};
use crate::model::entry::{EntryView, MAX_WISHES};
use crate::model::entry_events::{ActiveEventView, active_for};
use crate::model::entry_plan::{ExhibitionCategory, PlanView};
use crate::model::event::EventWithPhases;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::mypage::nav;

/// A page answer: the rendered page with its status, or a redirect after a change.
type Answer = Either<(Status, Template), Redirect>;

/// The conflicts the form explains above itself (their messages are `errors.<code>`).
const REFUSALS: [&str; 5] = ["entry_closed", "entry_exists", "circle_suspended", "amp_closed", "entry_drawn"];

/// The unprefixed path of an event's apply page `page` (`new`, `edit`, …).
pub(crate) fn apply_path(permalink: &str, page: &str) -> String {
    format!("/mypage/event/{permalink}/apply/{page}")
}

/// The unprefixed path of an event's entry history page.
pub(crate) fn history_path(permalink: &str) -> String {
    format!("/mypage/entry_history/{permalink}/apply")
}

/// A fee in yen as the page shows it: `8,000円` / `¥8,000`, or "free".
pub(crate) fn fee_text(p: &Page<'_>, fee: i32) -> String {
    if fee == 0 {
        return p.t("entries.fee_free");
    }
    let digits = fee.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    p.site.messages.tf(p.lang, "entries.fee", &[("amount", &grouped)])
}

/// A plan as the form and the history show it.
pub(crate) fn plan_json(p: &Page<'_>, plan: &PlanView) -> Value {
    json!({
        "id": plan.id,
        "name": plan.name.get(),
        "category": plan.exhibition_category.as_str(),
        "category_label": p.t(&format!("entries.category.{}", plan.exhibition_category.as_str())),
        "fee": plan.fee,
        "fee_text": fee_text(p, plan.fee),
        "maximum": plan.maximum,
        "world": plan.world.name.get(),
        "rate": plan.rate_label.as_str(),
        "rate_label": p.t(&format!("entries.rate.{}", plan.rate_label.as_str())),
        "launch_url": plan.preview_world.launch_url,
    })
}

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
    /// `back` from the confirmation: show the form again.
    pub action: Option<String>,
}

/// One wish slot as typed.
struct SlotValues<'a> {
    plan: &'a str,
    use_amp: bool,
    amp_id: &'a str,
    free_submission: bool,
}

impl EntryForm {
    fn is_edit(&self) -> bool {
        self.mode.as_deref() == Some("edit")
    }

    fn slot(&self, slot: usize) -> SlotValues<'_> {
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
    fn circle(&self) -> Option<i32> {
        self.circle_id.as_deref().and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0)
    }

    /// The API's input for event `event_id`, and the slot of each of its applications (a wish
    /// keeps its slot number as its choice, so a skipped slot is the API's gap).
    fn input(&self, event_id: i32) -> (EntryInput, Vec<usize>) {
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
        };
        (input, slots)
    }

    /// The values the form shows again.
    fn values(&self) -> Value {
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
        })
    }

    /// The form filled from a saved entry.
    fn of_entry(view: &EntryView) -> Self {
        let mut form = EntryForm {
            mode: Some("edit".into()),
            circle_id: Some(view.circle.id.to_string()),
            is_multiple_win: view.is_multiple_win.then(|| "1".into()),
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

/// The field of the page a problem of the API's input belongs to: `applications[i].…` goes to
/// the slot of application `i`, the rank and count problems to the wishes as a whole.
fn field_of(attribute: &str, slots: &[usize]) -> String {
    let Some(rest) = attribute.strip_prefix("applications[") else {
        return if attribute == "applications" { "wishes".into() } else { attribute.into() };
    };
    let Some((index, tail)) = rest.split_once(']') else { return "wishes".into() };
    let Some(slot) = index.parse::<usize>().ok().and_then(|i| slots.get(i)) else { return "wishes".into() };
    match tail {
        ".options.amp_id" => format!("amp_id_{slot}"),
        _ => format!("plan_{slot}"),
    }
}

/// Errors by page field.
fn errors_by_field(errors: &[FieldError], slots: &[usize]) -> HashMap<String, Vec<String>> {
    let mut by_field: HashMap<String, Vec<String>> = HashMap::new();
    for e in errors {
        by_field.entry(field_of(&e.attribute, slots)).or_default().push(e.message.clone());
    }
    by_field
}

/// What the form needs of an event: its plans, the user's circles and their entries.
struct Setting {
    event: EventWithPhases,
    active: Option<ActiveEventView>,
    plans: Vec<PlanView>,
}

impl Setting {
    async fn load(p: &Page<'_>, user_id: i32, permalink: &Permalink) -> Result<Self> {
        let found = event::Model::resolve(p.db, permalink.as_str()).await?;
        let active = active_for(p.db, user_id, p.lang, p.now).await?.into_iter().find(|a| a.event.id == found.id);
        let plans = event_entry_plan::Model::of_event(p.db, found.id, None).await?;
        let plans = PlanView::load(p.db, plans, p.lang).await?;
        Ok(Self { event: EventWithPhases::load(p.db, found).await?, active, plans })
    }

    fn permalink(&self) -> &str {
        &self.event.event.permalink
    }

    fn event_json(&self, p: &Page<'_>) -> Value {
        let ev = &self.event.event;
        json!({
            "name": p.lang.pick(&ev.name_ja, &ev.name_en),
            "permalink": ev.permalink,
            "entry_open": self.event.entry_open(p.now),
            "entry_ends_at": self.event.at(crate::model::phase::PhaseType::EntryEnd),
        })
    }

    /// The plan `id` of this event, if it is one.
    fn plan(&self, id: &str) -> Option<&PlanView> {
        let id = id.parse::<i32>().ok()?;
        self.plans.iter().find(|plan| plan.id == id)
    }
}

/// The category of `?category=` / the form, if it is one.
fn category_of(raw: Option<&str>) -> Option<ExhibitionCategory> {
    raw.and_then(ExhibitionCategory::parse)
}

/// Renders the entry form.
fn render_form(
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
        "amp_id_max": AMP_ID_MAX,
        "events_href": p.href("/mypage/events"),
        "history_href": p.href(&history_path(permalink)),
    });
    Either::Left((status, p.render("mypage/entries/form", &title, ctx)))
}

/// The events the user's circles can apply to, and what they have applied to.
#[get("/mypage/events")]
pub async fn events(p: Page<'_>, current: CurrentUser) -> Result<Template> {
    let active = active_for(p.db, current.user.id, p.lang, p.now).await?;
    let items: Vec<Value> = active
        .iter()
        .filter(|a| {
            let coming = a.entry_starts_at.is_some_and(|at| p.now < at) && !a.event.is_entry_closed;
            a.entry_open || coming || a.circles.iter().any(|c| c.entry_id.is_some())
        })
        .map(|a| {
            let permalink = &a.event.permalink;
            let circles: Vec<Value> = a
                .circles
                .iter()
                .map(|c| {
                    let query = format!("?circle={}", c.circle_id);
                    json!({
                        "id": c.circle_id,
                        "name": c.name.get(),
                        "is_suspended": c.is_suspended,
                        "applied": c.entry_id.is_some(),
                        "apply_href": (a.entry_open && c.entry_id.is_none() && !c.is_suspended)
                            .then(|| format!("{}{query}", p.href(&apply_path(permalink, "new")))),
                        "edit_href": (a.entry_open && c.entry_id.is_some() && !c.is_suspended)
                            .then(|| format!("{}{query}", p.href(&apply_path(permalink, "edit")))),
                    })
                })
                .collect();
            let coming = a.entry_starts_at.is_some_and(|at| p.now < at);
            json!({
                "id": a.event.id,
                "name": a.event.name.get(),
                "permalink": permalink,
                "image": a.event.image,
                "entry_open": a.entry_open,
                "coming": coming,
                "entry_starts_at": a.entry_starts_at,
                "entry_ends_at": a.entry_ends_at,
                "circles": circles,
                "any_applied": a.circles.iter().any(|c| c.entry_id.is_some()),
                "apply_href": a.entry_open.then(|| p.href(&apply_path(permalink, "new"))),
                "history_href": p.href(&history_path(permalink)),
            })
        })
        .collect();
    let one = crate::model::pagination::PageRequest { page: 1, limit: 1 };
    let owns_circles = circle::Model::owned_page(p.db, current.user.id, one).await?.1 > 0;
    let ctx = json!({
        "nav": nav(&p),
        "items": items,
        "owns_circles": owns_circles,
        "new_circle_href": p.href("/mypage/circle/new"),
        "history_href": p.href("/mypage/entry_history"),
    });
    Ok(p.render("mypage/entries/events", &p.t("entries.events.title"), ctx))
}

/// The entry form for a new entry (`?circle=` preselects one of the user's circles,
/// `?category=` narrows the plans).
#[get("/mypage/event/<permalink>/apply/new?<circle>&<category>")]
pub async fn new(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    category: Option<&str>,
) -> Result<Answer> {
    let setting = Setting::load(&p, current.user.id, &permalink).await?;
    let form = EntryForm {
        mode: Some("new".into()),
        circle_id: circle.map(str::to_string),
        category: category.map(str::to_string),
        ..Default::default()
    };
    let refused = (!setting.event.entry_open(p.now)).then_some("entry_closed");
    Ok(render_form(&p, &setting, &form, HashMap::new(), refused, Status::Ok))
}

/// The entry of circle `circle_id` to the event, for its owner: 404 to strangers and for a
/// circle without an entry, 403 to members.
pub(crate) async fn owned_entry(
    p: &Page<'_>,
    user_id: i32,
    event_id: i32,
    circle_id: Option<i32>,
) -> Result<EntryView> {
    let circle_id = circle_id.ok_or_else(Error::not_found)?;
    circle::Model::for_owner(p.db, circle_id, user_id).await?;
    let entry = event_entry::Model::of_circle(p.db, event_id, circle_id).await?.ok_or_else(Error::not_found)?;
    EntryView::load_one(p.db, entry, user_id, p.lang, p.now).await
}

/// The form over the entry of `?circle=` (its owner only).
#[get("/mypage/event/<permalink>/apply/edit?<circle>&<category>")]
pub async fn edit(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    category: Option<&str>,
) -> Result<Answer> {
    let setting = Setting::load(&p, current.user.id, &permalink).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, setting.event.event.id, circle_id).await?;
    let mut form = EntryForm::of_entry(&view);
    form.category = category.map(str::to_string);
    let refused = if view.circle.is_suspended {
        Some("circle_suspended")
    } else if !setting.event.entry_open(p.now) {
        Some("entry_closed")
    } else {
        (!view.can_edit).then_some("entry_drawn")
    };
    Ok(render_form(&p, &setting, &form, HashMap::new(), refused, Status::Ok))
}

/// The form again after a refusal: field problems beside their fields (422), a conflict above
/// the form (409); anything else is an error page.
fn refused_form(p: &Page<'_>, setting: &Setting, form: &EntryForm, slots: &[usize], error: Error) -> Result<Answer> {
    match error {
        e @ Error::Validation(_) => {
            let errors = errors_by_field(&e.details(&p.site.messages, p.lang), slots);
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
async fn check(
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
    if form.is_edit() {
        owned_entry(p, user_id, setting.event.event.id, circle_id).await?;
    } else if let Some(id) = circle_id {
        circle::Model::for_owner(p.db, id, user_id).await?.ensure_writable()?;
        if event_entry::Model::of_circle(p.db, setting.event.event.id, id).await?.is_some() {
            return refused_form(p, setting, form, &slots, Error::Conflict { code: "entry_exists" }).map(Err);
        }
    }
    if let Err(e) = setting.event.ensure_entry_open(p.now) {
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

/// The confirmation of a filled form (or the form again with its problems).
#[post("/mypage/event/<permalink>/apply/details", data = "<form>")]
pub async fn details(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    form: Form<EntryForm>,
) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let setting = Setting::load(&p, user.id, &permalink).await?;
    let checked = match check(&p, user.id, &setting, &form).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(answer)) => return Ok(answer),
        Err(e @ Error::Conflict { .. }) => Err(e),
        Err(other) => return Err(other),
    };
    if let Err(e) = checked {
        let (_, slots) = form.input(setting.event.event.id);
        return refused_form(&p, &setting, &form, &slots, e);
    }
    let circle_name = setting
        .active
        .as_ref()
        .and_then(|a| form.circle().and_then(|id| a.circles.iter().find(|c| c.circle_id == id)))
        .map(|c| c.name.get().clone())
        .unwrap_or_default();
    let wishes: Vec<Value> = (1..=MAX_WISHES)
        .filter_map(|slot| {
            let s = form.slot(slot);
            let plan = setting.plan(s.plan)?;
            Some(json!({
                "n": slot,
                "plan": plan_json(&p, plan),
                "use_amp": s.use_amp,
                "amp_id": if s.use_amp { s.amp_id.trim() } else { "" },
                "free_submission": s.free_submission,
            }))
        })
        .collect();
    let editing = form.is_edit();
    let title = p.t("entries.details.title");
    let ctx = json!({
        "nav": nav(&p),
        "event": setting.event_json(&p),
        "mode": if editing { "edit" } else { "new" },
        "circle_name": circle_name,
        "values": form.values(),
        "category": form.category.as_deref().and_then(ExhibitionCategory::parse).map(|c| c.as_str()),
        "wishes": wishes,
        "action": p.href(&apply_path(setting.permalink(), "complete")),
    });
    Ok(Either::Left((Status::Ok, p.render("mypage/entries/details", &title, ctx))))
}

/// Saves a confirmed form (or, with `action=back`, shows the form again to change it).
#[post("/mypage/event/<permalink>/apply/complete", data = "<form>")]
pub async fn save(p: Page<'_>, cookies: &CookieJar<'_>, permalink: Permalink, form: Form<EntryForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let setting = Setting::load(&p, user.id, &permalink).await?;
    if form.action.as_deref() == Some("back") {
        return Ok(render_form(&p, &setting, &form, HashMap::new(), None, Status::Ok));
    }
    let event_id = setting.event.event.id;
    let (input, slots) = form.input(event_id);
    let change = match input.checked(!form.is_edit()) {
        Ok(change) => change,
        Err(e) => return refused_form(&p, &setting, &form, &slots, e),
    };
    let circle_id = form.circle().unwrap_or_default();
    let saved = if form.is_edit() {
        let entry = owned_entry(&p, user.id, event_id, Some(circle_id)).await?;
        event_entry::Model::change(p.db, entry.id, user.id, change, p.now).await
    } else {
        event_entry::Model::apply(p.db, event_id, circle_id, user.id, change, p.now).await
    };
    match saved {
        Ok(entry) => {
            let done = if form.is_edit() { "updated" } else { "applied" };
            let href = format!(
                "{}?circle={}&done={done}",
                p.href(&apply_path(setting.permalink(), "complete")),
                entry.circle_id
            );
            Ok(Either::Right(crate::http::redirect::to_site(&href)))
        }
        Err(e) => refused_form(&p, &setting, &form, &slots, e),
    }
}

/// The saved entry: what was sent, and where to follow it.
#[get("/mypage/event/<permalink>/apply/complete?<circle>&<done>")]
pub async fn complete(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
    done: Option<&str>,
) -> Result<Template> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, found.id, circle_id).await?;
    let ctx = json!({
        "nav": nav(&p),
        "event_name": view.event.name.get(),
        "updated": done == Some("updated"),
        "entry": crate::web::pages::entry_history::entry_json(&p, &view),
        "history_href": p.href(&history_path(&found.permalink)),
        "events_href": p.href("/mypage/events"),
    });
    Ok(p.render("mypage/entries/complete", &p.t("entries.complete.title"), ctx))
}

/// Asks before withdrawing the entry of `?circle=`.
#[get("/mypage/event/<permalink>/apply/withdraw?<circle>")]
pub async fn withdraw_confirm(
    p: Page<'_>,
    current: CurrentUser,
    permalink: Permalink,
    circle: Option<&str>,
) -> Result<Template> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = circle.and_then(|c| Id::parse(c).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, found.id, circle_id).await?;
    let ctx = json!({
        "nav": nav(&p),
        "entry": crate::web::pages::entry_history::entry_json(&p, &view),
        "action": p.href(&apply_path(&found.permalink, "withdraw")),
        "circle_id": view.circle.id,
        "history_href": p.href(&history_path(&found.permalink)),
    });
    Ok(p.render("mypage/entries/withdraw", &p.t("entries.withdraw.title"), ctx))
}

/// The withdrawal form: the CSRF field and the circle.
#[derive(FromForm)]
pub struct WithdrawForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The circle whose entry goes.
    pub circle_id: Option<String>,
}

/// Withdraws the entry: to the event's entry history with a confirmation, or back with the
/// reason it was refused.
#[post("/mypage/event/<permalink>/apply/withdraw", data = "<form>")]
pub async fn withdraw(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    permalink: Permalink,
    form: Form<WithdrawForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = form.circle_id.as_deref().and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0);
    let view = owned_entry(&p, user.id, found.id, circle_id).await?;
    let query = match event_entry::Model::withdraw(p.db, view.id, user.id, p.now).await {
        Ok(()) => "done=withdrawn".to_string(),
        Err(Error::Conflict { code }) if REFUSALS.contains(&code) => format!("error={code}"),
        Err(other) => return Err(other),
    };
    Ok(crate::http::redirect::to_site(&format!("{}?{query}", p.href(&history_path(&found.permalink)))))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![events, new, edit, details, save, complete, withdraw_confirm, withdraw]
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
