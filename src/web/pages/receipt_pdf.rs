//! A receipt as a PDF (issue 26 item 7): `/mypage/payment_history/{transaction}/receipt.pdf`, one
//! A4 page in the page's language with every field of a qualified invoice, set in the server's
//! Japanese font (`receipts::font`). The payer's alone (the 404 page to anyone else); 404 too
//! where the server has no such font, and the receipt page then offers no link.

use rocket::http::{ContentType, Header};
use rocket::response::Responder;
use rocket::{Route, State, get, routes};

use crate::auth::guards::CurrentUser;
use crate::db::entities::payment_history;
use crate::error::{Error, Result};
use crate::i18n::tera::format_jst;
use crate::receipts::font::ReceiptFonts;
use crate::receipts::pdf::{self, Sheet};
use crate::storage::attachment;
use crate::types::TransactionUuid;
use crate::web::page::Page;
use crate::web::pages::payment_history::Receipt;

/// A PDF, downloaded, never stored by a cache.
pub struct Pdf {
    bytes: Vec<u8>,
    file_name: String,
}

impl<'r> Responder<'r, 'static> for Pdf {
    fn respond_to(self, _: &'r rocket::Request<'_>) -> rocket::response::Result<'static> {
        rocket::Response::build()
            .header(ContentType::PDF)
            .header(Header::new("Content-Disposition", attachment(&self.file_name)))
            .header(Header::new("Cache-Control", "private, no-store"))
            .sized_body(self.bytes.len(), std::io::Cursor::new(self.bytes))
            .ok()
    }
}

/// The receipt of `transaction` as a PDF.
#[get("/mypage/payment_history/<transaction>/receipt.pdf")]
pub async fn download(
    p: Page<'_>,
    current: CurrentUser,
    fonts: &State<ReceiptFonts>,
    transaction: TransactionUuid,
) -> Result<Pdf> {
    let font = fonts.0.clone().ok_or_else(Error::not_found)?;
    let row = payment_history::Model::by_transaction(p.db, &transaction, current.user.id).await?;
    let file_name = format!("receipt-{}.pdf", row.transaction_uuid);
    let sheet = sheet(&p, Receipt::load(&p, &current.user, row).await?);
    // Subsetting a CJK font takes a few milliseconds of CPU: off the async workers.
    let bytes = rocket::tokio::task::spawn_blocking(move || pdf::render(&font, &sheet))
        .await
        .map_err(|e| Error::Internal(format!("the receipt PDF: {e}")))?
        .map_err(Error::Internal)?;
    Ok(Pdf { bytes, file_name })
}

/// What the PDF prints of `receipt`, in the page's language.
fn sheet(p: &Page<'_>, receipt: Receipt) -> Sheet {
    let t = |key: &str| p.t(key);
    let field = |name: &str| receipt.payment[name].as_str().unwrap_or_default().to_owned();
    let paid_at = format_jst(receipt.view.paid_at, true);
    let mut changes = Vec::new();
    if receipt.addressees.len() > 1 {
        changes.push(t("payments.receipt.addressee_changed"));
        changes.extend(receipt.addressees.iter().map(|a| format!("{}  {}", format_jst(a.set_at, true), a.addressee)));
    }
    Sheet {
        lang: p.lang.code().to_owned(),
        title: t("payments.receipt.title"),
        addressee: p.site.messages.tf(p.lang, "payments.receipt.to", &[("name", receipt.addressee())]),
        amount: field("amount_label"),
        amount_label: t("payments.fields.amount"),
        tax_caption: t("payments.receipt.tax_caption"),
        tax_head: [
            t("payments.receipt.tax_rate"),
            t("payments.receipt.tax_amount"),
            t("payments.receipt.tax_of_which"),
        ],
        tax_rows: receipt.tax_lines.clone(),
        note: t("payments.receipt.note"),
        fields: vec![
            (t("payments.receipt.description"), receipt.description()),
            (t("payments.fields.circle"), receipt.view.circle_name.clone()),
            (t("payments.fields.provider"), field("provider_label")),
            (t("payments.fields.paid_at"), paid_at),
            (t("payments.fields.transaction"), receipt.view.transaction_uuid.clone()),
            (t("payments.fields.reference"), receipt.view.order_reference.clone()),
        ],
        issuer_label: t("payments.receipt.issuer"),
        issuer: receipt.issuer.clone(),
        registration: format!("{} {}", t("payments.receipt.registration_number"), receipt.registration_number),
        changes,
    }
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![download]
}
