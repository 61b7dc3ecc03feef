//! Receipts fit for Japanese accounting (issue 26 item 7): since October 2023 a business deducts
//! consumption tax only with a qualified invoice (適格請求書) — the issuer's name and registration
//! number, the date, what was bought, the amount per tax rate with the tax per rate, and the
//! addressee. This folder holds what a receipt adds to a payment: the tax lines ([`tax`]), the
//! addressee the payer sets, with every change kept ([`addressee`]); the receipt as one A4 PDF
//! page ([`pdf`]) set in a Japanese font the server finds or is given ([`font`]).

pub mod addressee;
pub mod font;
pub mod pdf;
pub mod tax;
