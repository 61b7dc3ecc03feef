//! Contact pages (spec §2 `/contact`, `/contact/form`): how to get help, and the inquiry form,
//! which works without JavaScript. The form posts to itself; errors re-render it with the
//! visitor's input and a message by each field; success redirects (303) to a confirmation view.

use crate::http::template::Template;
use rocket::form::{Form, FromForm};
use rocket::http::Status;
use rocket::response::Redirect;
use rocket::{Route, get, post, routes};
use serde_json::{Map, Value, json};

use crate::db::entities::{inquiry, inquiry_category};
use crate::error::{Error, FieldError, Result};
use crate::forms::inquiry::{InquiryInput, Intake, MESSAGE_MAX};
use crate::model::inquiry::InquiryCategoryView;
use crate::types::Id;
use crate::web::page::Page;

/// The form name bound into its anti-forgery token.
const FORM: &str = "contact";
/// The purpose of the signature on a confirmation link.
const RECEIPT: &str = "inquiry-receipt";

/// How to get help, with the inquiry categories.
#[get("/contact")]
pub async fn index(page: Page<'_>) -> Result<Template> {
    let categories = public_categories(&page).await?;
    Ok(page.render(
        "contact/index",
        &page.t("contact.title"),
        json!({ "categories": categories, "form_href": page.href("/contact/form") }),
    ))
}

/// The empty form (a category may be preselected with `?category=`).
#[get("/contact/form?<category>")]
pub async fn form(page: Page<'_>, intake: Intake<'_>, category: Option<&str>) -> Result<Template> {
    let values = json!({ "inquiry_category_id": category.unwrap_or_default() });
    form_page(&page, &intake, values, &[], None).await
}

/// The fields of the contact form, all optional so that every problem is reported by field.
#[derive(Debug, FromForm)]
pub struct ContactForm {
    token: Option<String>,
    inquiry_category_id: Option<String>,
    email: Option<String>,
    name: Option<String>,
    message: Option<String>,
    agreement: Option<bool>,
}

impl ContactForm {
    fn input(&self) -> InquiryInput {
        let category = self.inquiry_category_id.as_deref().map(str::trim).filter(|s| !s.is_empty());
        InquiryInput {
            email: self.email.clone(),
            message: self.message.clone(),
            name: self.name.clone(),
            // Something that is not a number names no category.
            inquiry_category_id: category.map(|c| c.parse::<i64>().unwrap_or(-1)),
            agreement: Some(self.agreement.unwrap_or(false)),
        }
    }

    fn values(&self) -> Value {
        json!({
            "inquiry_category_id": self.inquiry_category_id.as_deref().unwrap_or_default().trim(),
            "email": self.email.as_deref().unwrap_or_default(),
            "name": self.name.as_deref().unwrap_or_default(),
            "message": self.message.as_deref().unwrap_or_default(),
            "agreement": self.agreement.unwrap_or(false),
        })
    }
}

/// The answer to a posted form that did not go through.
#[derive(rocket::Responder)]
pub enum NotSent {
    /// The form again, with the input and the problems.
    Form((Status, Template)),
    /// Something else went wrong: the error page.
    Failed(Error),
}

/// Receives the form.
#[post("/contact/form", data = "<form>")]
pub async fn submit(page: Page<'_>, intake: Intake<'_>, form: Form<ContactForm>) -> Result<Redirect, NotSent> {
    let token_ok = form.token.as_deref().is_some_and(|t| intake.key.verify(FORM, t, page.now));
    let (status, fields, notice) = if !token_ok {
        (Status::BadRequest, Vec::new(), "contact.form.expired")
    } else {
        match intake.receive(page.db, &form.input(), page.lang, page.now).await {
            Ok(row) => {
                let sig = intake.key.sign(RECEIPT, &row.id.to_string());
                return Ok(crate::http::redirect::to_site(
                    &page.href(&format!("/contact/form/sent/{}?s={sig}", row.id)),
                ));
            }
            // The same field errors, in the same words, as the API's 422 body.
            Err(e @ Error::Validation(_)) => {
                (Status::UnprocessableEntity, e.details(&page.site.messages, page.lang), "contact.form.fix_errors")
            }
            Err(Error::RateLimited { .. }) => (Status::TooManyRequests, Vec::new(), "errors.rate_limited"),
            Err(e) => return Err(NotSent::Failed(e)),
        }
    };
    match form_page(&page, &intake, form.values(), &fields, Some(page.t(notice))).await {
        Ok(template) => Err(NotSent::Form((status, template))),
        Err(e) => Err(NotSent::Failed(e)),
    }
}

/// The confirmation view: inquiry number and a summary. The link is signed, so only the
/// sender (who was redirected here) can open it.
#[get("/contact/form/sent/<id>?<s>")]
pub async fn sent(page: Page<'_>, intake: Intake<'_>, id: Id, s: Option<&str>) -> Result<Template> {
    if !s.is_some_and(|s| intake.key.check(RECEIPT, &id.to_string(), s)) {
        return Err(Error::not_found());
    }
    let row = inquiry::Model::find(page.db, id.0).await?;
    let category = inquiry_category::Model::find(page.db, row.category_id).await?;
    Ok(page.render(
        "contact/sent",
        &page.t("contact.sent.title"),
        json!({
            "inquiry": {
                "id": row.id,
                "email": row.email,
                "name": row.name,
                "message": row.message,
                "created_at": row.created_at.to_rfc3339(),
                "category": page.lang.pick(&category.name_ja, &category.name_en),
            },
            "contact_href": page.href("/contact"),
        }),
    ))
}

async fn public_categories(page: &Page<'_>) -> Result<Vec<InquiryCategoryView>> {
    let rows = inquiry_category::Model::public(page.db).await?;
    Ok(rows.iter().map(|c| InquiryCategoryView::new(c, page.lang)).collect())
}

async fn form_page(
    page: &Page<'_>,
    intake: &Intake<'_>,
    values: Value,
    fields: &[FieldError],
    notice: Option<String>,
) -> Result<Template> {
    // Every message of a field, in order, like the API's `details`.
    let mut errors = Map::new();
    for f in fields {
        match errors.get_mut(&f.attribute) {
            Some(Value::String(shown)) => *shown = format!("{shown} {}", f.message),
            _ => {
                errors.insert(f.attribute.clone(), Value::String(f.message.clone()));
            }
        }
    }
    Ok(page.render(
        "contact/form",
        &page.t("contact.form.title"),
        json!({
            "categories": public_categories(page).await?,
            "values": values,
            "errors": errors,
            "notice": notice,
            "token": intake.key.token(FORM, page.now),
            "action": page.href("/contact/form"),
            "contact_href": page.href("/contact"),
            "message_max": MESSAGE_MAX,
        }),
    ))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![index, form, submit, sent]
}
