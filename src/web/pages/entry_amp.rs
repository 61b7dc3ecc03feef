//! The AMP options of an entry's wishes, changed from mypage until `submission_end` (spec §7
//! `PUT /api/v1/user/event_entries/{id}/update_amp_ids`, DOMAIN.md "Entries and applications"):
//! `/mypage/event/{permalink}/apply/amp?circle=`, linked from the entry history while the owner
//! may change them. One block per wish (its plan and status, "use AMP", the AMP id, free
//! submission); the form POSTs with the CSRF field and goes through the input type and model
//! call of the API ([`AmpUpdateInput::checked`], `event_entry::Model::update_amp`), so the rules
//! and messages are the API's. Problems come back beside the wish they concern, with everything
//! typed kept; a closed window or a suspended circle is explained above the form. Only the
//! circle's owner reaches it (a member gets 403, anyone else 404). Works without JavaScript.

use std::collections::HashMap;

use crate::http::template::Template;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Either, Route, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{event, event_entry};
use crate::error::{Error, Result};
use crate::forms::entry::{AMP_ID_MAX, AmpUpdateInput, AmpUpdateItem, OptionsInput};
use crate::model::entry::MAX_WISHES;
use crate::model::entry_view::EntryView;
use crate::model::event::EventWithPhases;
use crate::model::phase::PhaseType;
use crate::types::{Id, Permalink};
use crate::web::page::Page;
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::{errors_by_field, wish_field};
use crate::web::pages::entry_views::{apply_path, history_path, owned_entry, plan_json};
use crate::web::pages::mypage_nav::nav;

/// A page answer: the form with its status, or a redirect after saving.
type Answer = Either<(Status, Template), Redirect>;

/// The form as posted: one slot per wish (by choice), each with the application it is for and
/// every value as typed.
#[derive(Debug, Default, FromForm)]
pub struct AmpForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The circle whose entry it is.
    pub circle_id: Option<String>,
    /// The application of wishes 1–3.
    pub application_1: Option<String>,
    /// See `application_1`.
    pub application_2: Option<String>,
    /// See `application_1`.
    pub application_3: Option<String>,
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
}

/// One wish's values, as typed or as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Slot {
    application: String,
    use_amp: bool,
    amp_id: String,
    free_submission: bool,
}

impl AmpForm {
    fn slot(&self, n: usize) -> Slot {
        let (application, use_amp, amp_id, free) = match n {
            1 => (&self.application_1, &self.use_amp_1, &self.amp_id_1, &self.free_submission_1),
            2 => (&self.application_2, &self.use_amp_2, &self.amp_id_2, &self.free_submission_2),
            _ => (&self.application_3, &self.use_amp_3, &self.amp_id_3, &self.free_submission_3),
        };
        Slot {
            application: application.as_deref().unwrap_or("").trim().to_string(),
            use_amp: use_amp.is_some(),
            amp_id: amp_id.clone().unwrap_or_default(),
            free_submission: free.is_some(),
        }
    }

    /// The slots that name an application, by wish number.
    fn slots(&self) -> Vec<(usize, Slot)> {
        (1..=MAX_WISHES).map(|n| (n, self.slot(n))).filter(|(_, s)| !s.application.is_empty()).collect()
    }

    /// The API's input, and the wish number of each of its items.
    fn input(&self) -> (AmpUpdateInput, Vec<usize>) {
        let slots = self.slots();
        let applications = slots
            .iter()
            .map(|(_, s)| AmpUpdateItem {
                // Not a number: 0, which the input refuses as it refuses a missing id.
                id: Some(s.application.parse::<i32>().unwrap_or(0)),
                options: Some(OptionsInput {
                    use_amp: s.use_amp,
                    amp_id: Some(s.amp_id.clone()),
                    free_submission: s.free_submission,
                }),
            })
            .collect();
        (AmpUpdateInput { applications }, slots.into_iter().map(|(n, _)| n).collect())
    }

    /// The circle as a number, if it is one.
    fn circle(&self) -> Option<i32> {
        self.circle_id.as_deref().and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0)
    }
}

/// The values of `view`'s wishes as stored, by wish number.
fn stored(view: &EntryView) -> HashMap<usize, Slot> {
    view.applications
        .iter()
        .filter_map(|a| {
            let n = usize::try_from(a.choice).ok()?;
            Some((
                n,
                Slot {
                    application: a.id.to_string(),
                    use_amp: a.options.use_amp,
                    amp_id: a.options.amp_id.clone().unwrap_or_default(),
                    free_submission: a.options.free_submission,
                },
            ))
        })
        .collect()
}

/// The page field a problem of the API's input belongs to: `applications[i].options.amp_id` to
/// the AMP id of item `i`'s wish, anything else about item `i` to that wish, the rest to the
/// form as a whole ([`wish_field`]).
fn field_of(attribute: &str, wishes: &[usize]) -> String {
    wish_field(attribute, wishes, "wish").unwrap_or_else(|| "wishes".into())
}

/// Why the options cannot change now (an error code), if they cannot.
fn refusal(view: &EntryView) -> Option<&'static str> {
    if view.circle.is_suspended {
        Some("circle_suspended")
    } else if !view.can_update_amp {
        Some("amp_closed")
    } else {
        None
    }
}

/// Renders the form over `view` with the values `values` (by wish number).
fn render(
    p: &Page<'_>,
    event: &EventWithPhases,
    view: &EntryView,
    values: &HashMap<usize, Slot>,
    errors: HashMap<String, Vec<String>>,
    refused: Option<&str>,
    status: Status,
) -> Answer {
    let permalink = &event.event.permalink;
    let wishes: Vec<Value> = view
        .applications
        .iter()
        .map(|a| {
            let n = usize::try_from(a.choice).unwrap_or_default();
            let v = values.get(&n).cloned().unwrap_or_default();
            let status = a.lottery_status.as_str();
            json!({
                "n": n,
                "application_id": a.id,
                "plan": plan_json(p, &a.plan),
                "status": status,
                "status_label": p.t(&format!("entries.status.{status}")),
                "use_amp": v.use_amp,
                "amp_id": v.amp_id,
                "free_submission": v.free_submission,
            })
        })
        .collect();
    let title = p.t("entries.amp.title");
    let ctx = json!({
        "nav": nav(p),
        "event_name": view.event.name.get(),
        "circle": { "id": view.circle.id, "name": view.circle.name.get() },
        "until": event.at(PhaseType::SubmissionEnd),
        "wishes": wishes,
        "has_errors": !errors.is_empty(),
        "errors": errors,
        "refused": refused.map(|code| p.t(&format!("errors.{code}"))),
        "editable": refused.is_none(),
        "amp_id_max": AMP_ID_MAX,
        "action": p.href(&apply_path(permalink, "amp")),
        "history_href": p.href(&history_path(permalink)),
    });
    Either::Left((status, p.render("mypage/entries/amp", &title, ctx)))
}

/// The AMP options of the entry of `?circle=` (its owner only).
#[get("/mypage/event/<permalink>/apply/amp?<circle>")]
pub async fn edit(p: Page<'_>, current: CurrentUser, permalink: Permalink, circle: Option<&str>) -> Result<Answer> {
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let circle_id = circle.and_then(|c| Id::parse(c.trim()).ok()).map(|id| id.0);
    let view = owned_entry(&p, current.user.id, found.id, circle_id).await?;
    let event = EventWithPhases::load(p.db, found).await?;
    let values = stored(&view);
    Ok(render(&p, &event, &view, &values, HashMap::new(), refusal(&view), Status::Ok))
}

/// Saves the posted options, or shows the form again with its problems (422) or the reason it
/// was refused (409).
#[post("/mypage/event/<permalink>/apply/amp", data = "<form>")]
pub async fn save(p: Page<'_>, cookies: &CookieJar<'_>, permalink: Permalink, form: Form<AmpForm>) -> Result<Answer> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = event::Model::resolve(p.db, permalink.as_str()).await?;
    let view = owned_entry(&p, user.id, found.id, form.circle()).await?;
    let event = EventWithPhases::load(p.db, found).await?;
    let typed: HashMap<usize, Slot> = form.slots().into_iter().collect();
    let (input, wishes) = form.input();
    let saved = match input.checked() {
        Ok(updates) => event_entry::Model::update_amp(p.db, view.id, user.id, updates, p.now).await.map(|_| ()),
        Err(e) => Err(e),
    };
    match saved {
        Ok(()) => {
            let href = format!("{}?done=amp_updated", p.href(&history_path(&event.event.permalink)));
            Ok(Either::Right(crate::http::redirect::to_site(&href)))
        }
        Err(e @ Error::Validation(_)) => {
            let errors = errors_by_field(e.details(&p.site.messages, p.lang), |a| field_of(a, &wishes));
            Ok(render(&p, &event, &view, &typed, errors, None, Status::UnprocessableEntity))
        }
        Err(Error::Conflict { code }) if ["amp_closed", "circle_suspended"].contains(&code) => {
            Ok(render(&p, &event, &view, &typed, HashMap::new(), Some(code), Status::Conflict))
        }
        Err(other) => Err(other),
    }
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![edit, save]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_land_beside_their_wish() {
        let wishes = [1, 3];
        assert_eq!(field_of("applications[1].options.amp_id", &wishes), "amp_id_3");
        assert_eq!(field_of("applications[0].id", &wishes), "wish_1");
        assert_eq!(field_of("applications[5].id", &wishes), "wishes");
        assert_eq!(field_of("applications", &wishes), "wishes");
    }

    #[test]
    fn a_wish_without_its_application_is_not_sent() {
        let form = AmpForm {
            application_1: Some("10".into()),
            use_amp_1: Some("1".into()),
            amp_id_1: Some(" amp-1 ".into()),
            application_3: Some("x".into()),
            ..Default::default()
        };
        let (input, wishes) = form.input();
        assert_eq!(wishes, [1, 3]);
        assert_eq!(input.applications[0].id, Some(10));
        assert_eq!(input.applications[1].id, Some(0), "not a number: refused as missing");
        assert!(input.checked().is_err());
    }
}
