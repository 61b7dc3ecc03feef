//! Payment history (spec §2 `/mypage/payment_history[?page=]`, `/mypage/payment_history/{transaction}`;
//! §3 "Payment history"): the signed-in user's settled payments, newest first, and one receipt
//! per payment, addressed by its transaction UUID (anything else, or someone else's, is the
//! 404 page) and laid out to print.

use crate::http::template::Template;
use rocket::{Route, get, routes};
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::payment_history;
use crate::error::{Error, Result};
use crate::model::pagination::{PageRequest, Pagination};
use crate::model::payment_history::PaymentView;
use crate::types::TransactionUuid;
use crate::web::page::Page;
use crate::web::pager::{page_number, pager};
use crate::web::pages::mypage_nav::nav;

/// Payments per list page.
pub const PAGE_SIZE: u64 = 20;

/// `8000` → `8,000`.
pub(crate) fn grouped(amount: i32) -> String {
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

/// One receipt.
#[get("/mypage/payment_history/<transaction>")]
pub async fn receipt(p: Page<'_>, current: CurrentUser, transaction: TransactionUuid) -> Result<Template> {
    let row = payment_history::Model::by_transaction(p.db, &transaction, current.user.id).await?;
    let view = PaymentView::load(p.db, vec![row], p.lang).await?.pop().ok_or_else(Error::not_found)?;
    let ctx = json!({
        "nav": nav(&p),
        "payment": payment_json(&p, view),
        "payer": current.user.name(p.lang),
        "back_href": p.href("/mypage/payment_history"),
    });
    Ok(p.render("mypage/payments/receipt", &p.t("payments.receipt.title"), ctx))
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![list, receipt]
}

#[cfg(test)]
mod tests {
    #[test]
    fn amounts_are_grouped_by_thousands() {
        assert_eq!(super::grouped(0), "0");
        assert_eq!(super::grouped(800), "800");
        assert_eq!(super::grouped(8000), "8,000");
        assert_eq!(super::grouped(1_234_567), "1,234,567");
    }
}
