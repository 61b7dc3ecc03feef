//! Payment history (spec §2 `/mypage/payment_history[?page=]`, `/mypage/payment_history/{transaction}`;
//! §3 "Payment history"): the signed-in user's settled payments, newest first, and one receipt
//! per payment, addressed by its transaction UUID (anything else, or someone else's, is the
//! 404 page) and laid out to print.

use std::collections::HashMap;

use crate::http::template::Template;
use rocket::Either;
use rocket::form::{Form, FromForm};
use rocket::http::{CookieJar, Status};
use rocket::response::Redirect;
use rocket::{Route, State, get, post, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{payment_history, user};
use crate::error::{Error, Result};
use crate::http::redirect::to_site;
use crate::model::pagination::{PageRequest, Pagination};
use crate::model::payment_history::PaymentView;
use crate::receipts::addressee::{self, ADDRESSEE_MAX, AddresseeInput, AddresseeSet};
use crate::receipts::font::ReceiptFonts;
use crate::receipts::tax;
use crate::types::TransactionUuid;
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::circles::poster;
use crate::web::pages::entry_fields::errors_by_field;
use crate::web::pages::mypage_nav::nav;

/// Payments per list page.
pub const PAGE_SIZE: u64 = 20;

/// `8000` → `8,000` (amounts of a payment, `i32`, and sums of them, `i64`).
pub(crate) fn grouped(amount: impl Into<i64>) -> String {
    let amount: i64 = amount.into();
    let digits = amount.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if amount < 0 { format!("-{out}") } else { out }
}

/// A payment for a template: the view plus its receipt link, amount and provider labels.
pub(crate) fn payment_json(p: &Page<'_>, view: PaymentView) -> Value {
    let href = p.href(&format!("/mypage/payment_history/{}", view.transaction_uuid));
    let amount = p.site.messages.tf(p.lang, "payments.amount", &[("amount", &grouped(view.amount))]);
    let provider = p.t(&format!("payments.provider.{}", view.payment_type.as_str()));
    let mut v = json!(view);
    v["href"] = json!(href);
    v["amount_label"] = json!(amount);
    v["provider_label"] = json!(provider);
    v
}

/// The list, paginated.
#[get("/mypage/payment_history?<page>")]
pub async fn list(p: Page<'_>, current: CurrentUser, page: Option<&str>) -> Result<Template> {
    let req = PageRequest { page: page_number(page)?, limit: PAGE_SIZE };
    let (rows, count) = payment_history::Model::page_of(p.db, current.user.id, req).await?;
    let items: Vec<Value> =
        PaymentView::load(p.db, rows, p.lang).await?.into_iter().map(|v| payment_json(&p, v)).collect();
    let pagination = Pagination::new(req, count, count);
    let base = p.href("/mypage/payment_history");
    let link = |n: u64| if n > 1 { format!("{base}?page={n}") } else { base.clone() };
    let ctx = json!({ "nav": nav(&p), "items": items, "pagination": pagination, "pager": pager(&pagination, link) });
    Ok(p.render("mypage/payments/list", &p.t("payments.history.title"), ctx))
}

/// One receipt: a qualified invoice's fields (issuer and registration number, date, what was
/// bought, the amount and tax at each rate, the addressee) and the addressee form.
#[get("/mypage/payment_history/<transaction>?<done>")]
pub async fn receipt(
    p: Page<'_>,
    current: CurrentUser,
    fonts: &State<ReceiptFonts>,
    transaction: TransactionUuid,
    done: Option<&str>,
) -> Result<Template> {
    let row = payment_history::Model::by_transaction(p.db, &transaction, current.user.id).await?;
    let ctx = receipt_context(&p, &current.user, row, None, HashMap::new(), done.is_some(), fonts.0.is_some()).await?;
    Ok(p.render("mypage/payments/receipt", &p.t("payments.receipt.title"), ctx))
}

/// The addressee form as posted.
#[derive(Debug, FromForm)]
pub struct AddresseeForm {
    /// The page's CSRF token.
    pub csrf_token: Option<String>,
    /// The addressee (宛名).
    pub addressee: Option<String>,
}

/// The payer sets the receipt's addressee; every value set is kept (`receipts::addressee`). A
/// bad one shows the receipt again with the message beside the field and the value as typed.
#[post("/mypage/payment_history/<transaction>/addressee", data = "<form>")]
pub async fn set_addressee(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    fonts: &State<ReceiptFonts>,
    transaction: TransactionUuid,
    form: Form<AddresseeForm>,
) -> Result<Either<(Status, Template), Redirect>> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let row = payment_history::Model::by_transaction(p.db, &transaction, user.id).await?;
    let input = AddresseeInput::new(form.addressee.as_deref());
    match addressee::set(p.db, &row, &input, p.now).await {
        Ok(()) => Ok(Either::Right(to_site(
            &p.href(&format!("/mypage/payment_history/{}?done=addressee", row.transaction_uuid)),
        ))),
        Err(e @ Error::Validation(_)) => {
            let errors = errors_by_field(e.details(&p.site.messages, p.lang), str::to_owned);
            let ctx = receipt_context(&p, user, row, Some(&input.addressee), errors, false, fonts.0.is_some()).await?;
            Ok(Either::Left((
                Status::UnprocessableEntity,
                p.render("mypage/payments/receipt", &p.t("payments.receipt.title"), ctx),
            )))
        }
        Err(e) => Err(e),
    }
}

/// What a receipt shows of one payment, in the page's language: the page and the PDF
/// (`receipt_pdf`) both start here.
pub(crate) struct Receipt {
    /// The payment.
    pub view: PaymentView,
    /// The payment as the page shows it (`payment_json`: the view with its labels).
    pub payment: Value,
    /// Every value the addressee had, oldest first.
    pub addressees: Vec<AddresseeSet>,
    /// The payer's name, the addressee until they set one.
    pub payer: String,
    /// Per tax rate: the rate's label, the amount and the tax in it.
    pub tax_lines: Vec<[String; 3]>,
    /// The issuer's name.
    pub issuer: String,
    /// The issuer's registration number.
    pub registration_number: String,
}

impl Receipt {
    /// The receipt of payment `row`, paid by `payer`.
    pub(crate) async fn load(p: &Page<'_>, payer: &user::Model, row: payment_history::Model) -> Result<Self> {
        let addressees = addressee::history(p.db, &row).await?;
        let yen = |amount: i64| p.site.messages.tf(p.lang, "payments.amount", &[("amount", &grouped(amount))]);
        let tax_lines = tax::lines(&[i64::from(row.amount)])
            .into_iter()
            .map(|l| {
                let rate = p.site.messages.tf(p.lang, "payments.receipt.rate", &[("rate", &l.rate.to_string())]);
                [rate, yen(l.amount), yen(l.tax)]
            })
            .collect();
        let view = PaymentView::load(p.db, vec![row], p.lang).await?.pop().ok_or_else(Error::not_found)?;
        let config = &p.site.config;
        Ok(Self {
            payment: payment_json(p, view.clone()),
            view,
            addressees,
            payer: payer.name(p.lang).to_owned(),
            tax_lines,
            issuer: p.lang.pick(&config.invoice_issuer_name_ja, &config.invoice_issuer_name_en).to_owned(),
            registration_number: config.invoice_registration_number.clone(),
        })
    }

    /// The name the receipt is made out to: the addressee set last, else the payer.
    pub(crate) fn addressee(&self) -> &str {
        self.addressees.last().map_or(&self.payer, |a| &a.addressee)
    }

    /// The description (但し書き): the event, plan and world.
    pub(crate) fn description(&self) -> String {
        let mut text = format!("{} — {}", self.view.event_name, self.view.plan_name);
        if let Some(world) = &self.view.world_name {
            text.push_str(&format!(" ({world})"));
        }
        text
    }
}

/// What the receipt page shows of payment `row` of `payer`; `typed` is an addressee sent but
/// refused (`errors`).
async fn receipt_context(
    p: &Page<'_>,
    payer: &user::Model,
    row: payment_history::Model,
    typed: Option<&str>,
    errors: HashMap<String, Vec<String>>,
    saved: bool,
    pdf_on: bool,
) -> Result<Value> {
    let action = p.href(&format!("/mypage/payment_history/{}/addressee", row.transaction_uuid));
    let pdf = p.href(&format!("/mypage/payment_history/{}/receipt.pdf", row.transaction_uuid));
    let receipt = Receipt::load(p, payer, row).await?;
    let current = receipt.addressees.last().map(|a| a.addressee.clone());
    Ok(json!({
        "nav": nav(p),
        "payment": receipt.payment,
        "addressee": receipt.addressee(),
        "description": receipt.description(),
        "addressee_value": typed.map(str::to_owned).or(current).unwrap_or_default(),
        "addressee_changes": if receipt.addressees.len() > 1 { json!(receipt.addressees) } else { json!([]) },
        "addressee_max": ADDRESSEE_MAX,
        "addressee_action": action,
        "errors": errors,
        "saved": saved,
        "tax_lines": receipt.tax_lines,
        "issuer": receipt.issuer,
        "registration_number": receipt.registration_number,
        "pdf_href": pdf_on.then_some(pdf),
        "back_href": p.href("/mypage/payment_history"),
    }))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![list, receipt, set_addressee]
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_are_grouped_by_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(800), "800");
        assert_eq!(super::grouped(8000), "8,000");
        assert_eq!(super::grouped(1_234_567), "1,234,567");
        assert_eq!(super::grouped(-8000), "-8,000");
        assert_eq!(super::grouped(3_000_000_000_i64), "3,000,000,000");
    }
}
