//! Receipts fit for Japanese accounting (issue 26 item 7): the receipt names the issuer and its
//! registration number, the date, what was bought, the amount at 10 % with the tax in it
//! (rounded once), and the addressee the payer sets — every change kept and shown; a bad
//! addressee is refused beside its field, keeping what was typed; nobody else reaches it.

use vmarket::model::order::open_order;
use vmarket::model::payment::{Payable, PaymentType};
use vmarket::model::settlement::settle;

use crate::support::TestApp;
use crate::support::actors::{Actor, Form};
use crate::support::html::Doc;

/// `owner` wins and pays for a booth at a new event `permalink`; the receipt's path.
async fn paid(app: &TestApp, owner: &mut Actor<'_>, permalink: &str) -> String {
    owner.renew().await;
    let won = app.won_application(owner, permalink).await;
    owner.renew().await;
    let now = app.clock.now();
    let payable = Payable::load(&app.db, won.application_id, owner.user.id, now).await.unwrap();
    let opened = open_order(&app.db, &payable, owner.user.id, PaymentType::Stripe, now).await.unwrap();
    let mailer = vmarket::mail::Mailer::new(&app.config).unwrap();
    settle(&app.db, &mailer, opened.id, &format!("pi_{permalink}"), now).await.unwrap();
    format!("/mypage/payment_history/{}", opened.transaction_uuid)
}

#[rocket::async_test]
async fn a_receipt_carries_every_qualified_invoice_field_in_both_languages() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("invoice_owner").await;
    let path = paid(&app, &mut owner, "InvoiceFair").await;

    let doc = Doc::parse(&owner.page(&path).await.1);
    assert_eq!(doc.text("[data-testid=issuer-name]"), "バーチャルマーケット運営事務局（デモ）");
    assert_eq!(doc.text("[data-testid=registration-number]"), "T0000000000000");
    assert!(doc.text("[data-testid=receipt-issuer]").contains("登録番号"));
    assert_eq!(doc.texts("[data-testid=tax-line] th"), ["10%対象"]);
    assert_eq!(doc.texts("[data-testid=tax-line] td"), ["8,000円", "727円"], "8,000 × 10/110, rounded down");
    assert!(doc.text("[data-testid=receipt-description]").contains("広場ブース"));
    assert!(doc.text("[data-testid=receipt-date]").contains('/'));
    assert_eq!(doc.text("[data-testid=receipt-payer]"), "invoice_ownerさん 様", "no addressee yet: the payer");

    let doc = Doc::parse(&owner.page(&format!("/en{path}")).await.1);
    assert_eq!(doc.text("[data-testid=issuer-name]"), "Virtual Market Office (demo)");
    assert_eq!(doc.texts("[data-testid=tax-line] td"), ["¥8,000", "¥727"]);
    assert!(doc.text("[data-testid=receipt-issuer]").contains("Registration number"));
}

#[rocket::async_test]
async fn the_payer_sets_the_addressee_and_every_change_is_on_record() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_user("addressee_owner").await;
    let mut stranger = app.with_user("addressee_stranger").await;
    let path = paid(&app, &mut owner, "AddresseeFair").await;
    let their_path = paid(&app, &mut stranger, "StrangerFair").await;
    owner.renew().await;
    let form = owner.form(&path, "[data-testid=addressee-form]").await;

    // A bad addressee: the receipt again, 422, the message beside the field, the text kept.
    let long = "株".repeat(101);
    let (status, _, html) = owner.submit(&form, &[("addressee", long.as_str())], None).await;
    assert_eq!(status, 422);
    let doc = Doc::parse(&html);
    assert!(!doc.text("[data-field=addressee]").is_empty());
    assert_eq!(doc.attr("#addressee", "value"), long);
    let (status, _, _) = owner.submit(&form, &[("addressee", "  ")], None).await;
    assert_eq!(status, 422, "blank");

    // Set: the receipt is made out to it, no change record yet.
    let (status, location, _) = owner.submit(&form, &[("addressee", " 株式会社ともしび ")], None).await;
    assert_eq!(status, 303);
    let doc = Doc::parse(&owner.page(&location.unwrap()).await.1);
    assert_eq!(doc.text("[data-testid=receipt-payer]"), "株式会社ともしび 様");
    assert_eq!(doc.count("[data-testid=addressee-saved]"), 1);
    assert_eq!(doc.count("[data-testid=addressee-changes]"), 0);
    // The same again records nothing.
    owner.submit(&form, &[("addressee", "株式会社ともしび")], None).await;
    assert_eq!(Doc::parse(&owner.page(&path).await.1).count("[data-testid=addressee-changes] li"), 0);

    // Changed: the receipt shows both values with their times.
    app.clock.set(app.clock.now() + chrono::Duration::days(2));
    owner.renew().await;
    let form = owner.form(&path, "[data-testid=addressee-form]").await;
    let (status, _, _) = owner.submit(&form, &[("addressee", "合同会社ランタン")], None).await;
    assert_eq!(status, 303);
    let doc = Doc::parse(&owner.page(&path).await.1);
    assert_eq!(doc.text("[data-testid=receipt-payer]"), "合同会社ランタン 様");
    let changes = doc.texts("[data-testid=addressee-changes] li");
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(changes[0].ends_with("株式会社ともしび") && changes[1].ends_with("合同会社ランタン"), "{changes:?}");

    // Someone else: the 404 page, for reading and for writing.
    stranger.renew().await;
    assert_eq!(stranger.page(&path).await.0, 404);
    let theirs = Form {
        action: format!("{path}/addressee"),
        ..stranger.form(&their_path, "[data-testid=addressee-form]").await
    };
    let (status, _, _) = stranger.submit(&theirs, &[("addressee", "乗っ取り")], None).await;
    assert_eq!(status, 404);
    assert_eq!(Doc::parse(&owner.page(&path).await.1).text("[data-testid=receipt-payer]"), "合同会社ランタン 様");
}

/// What poppler reads of a PDF: `pdftotext`'s text and `pdfinfo`'s and `pdffonts`' reports.
fn poppler(tool: &str, pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("receipt.pdf");
    std::fs::write(&file, pdf).unwrap();
    let mut cmd = std::process::Command::new(tool);
    if tool == "pdftotext" {
        cmd.args(["-layout"]).arg(&file).arg("-");
    } else {
        cmd.arg(&file);
    }
    let out = cmd.output().unwrap_or_else(|e| panic!("{tool} (poppler-utils, scripts/install-test-deps): {e}"));
    assert!(out.status.success(), "{tool}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[rocket::async_test]
async fn the_pdf_receipt_is_one_a4_page_whose_text_carries_every_qualified_invoice_field() {
    let app = TestApp::builder().live().build().await;
    let mut owner = app.with_named_user("pdf_owner", "灯子", "Toko").await;
    let mut stranger = app.with_user("pdf_stranger").await;
    let path = paid(&app, &mut owner, "PdfFair").await;
    let transaction = path.rsplit('/').next().unwrap().to_owned();
    owner.renew().await;

    // The page links the PDF.
    let doc = Doc::parse(&owner.page(&path).await.1);
    assert_eq!(doc.attr("[data-testid=receipt-pdf]", "href"), format!("{path}/receipt.pdf"));

    // Made out to a company, then changed: the PDF names the last and records both.
    let form = owner.form(&path, "[data-testid=addressee-form]").await;
    assert_eq!(owner.submit(&form, &[("addressee", "株式会社ともしび")], None).await.0, 303);
    app.clock.set(app.clock.now() + chrono::Duration::days(1));
    owner.renew().await;
    let form = owner.form(&path, "[data-testid=addressee-form]").await;
    assert_eq!(owner.submit(&form, &[("addressee", "合同会社ランタン 経理部")], None).await.0, 303);

    let (status, headers, pdf) = owner.download(&format!("{path}/receipt.pdf")).await;
    assert_eq!(status, 200);
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()).unwrap_or_default();
    assert_eq!(header("content-type"), "application/pdf");
    assert_eq!(header("content-disposition"), format!("attachment; filename*=UTF-8''receipt-{transaction}.pdf"));
    assert_eq!(header("cache-control"), "private, no-store");
    assert!(pdf.starts_with(b"%PDF-"));

    let info = poppler("pdfinfo", &pdf);
    assert!(info.lines().any(|l| l.starts_with("Pages:") && l.ends_with(" 1")), "{info}");
    assert!(info.contains("595.28 x 841.89 pts (A4)"), "{info}");
    let fonts = poppler("pdffonts", &pdf);
    let font_rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert!(!font_rows.is_empty() && font_rows.iter().all(|r| r.contains(" yes ")), "every font embedded:\n{fonts}");

    let text = poppler("pdftotext", &pdf);
    for field in [
        "領収書",
        "合同会社ランタン 経理部 様",
        "8,000円",
        "10%対象",
        "727円",
        "うち消費税",
        "但し書き",
        "PdfFair",
        "広場ブース",
        "お支払い日時",
        &transaction,
        "pi_PdfFair",
        "発行者",
        "バーチャルマーケット運営事務局（デモ）",
        "登録番号 T0000000000000",
        "株式会社ともしび",
    ] {
        assert!(text.contains(field), "{field:?} is not in the PDF's text:\n{text}");
    }
    let paid_on = chrono::Utc::now().format("%Y/").to_string();
    assert!(text.contains(&paid_on) || text.contains("/"), "a date:\n{text}");

    // In English, from the English receipt.
    let (status, _, pdf) = owner.download(&format!("/en{path}/receipt.pdf")).await;
    assert_eq!(status, 200);
    let text = poppler("pdftotext", &pdf);
    for field in [
        "Receipt",
        "To: 合同会社ランタン 経理部",
        "¥8,000",
        "¥727",
        "Virtual Market Office (demo)",
        "Registration number T0000000000000",
    ] {
        assert!(text.contains(field), "{field:?} is not in the English PDF's text:\n{text}");
    }

    // Someone else's receipt, or a made-up one: the 404 page, never a PDF.
    stranger.renew().await;
    let (status, headers, _) = stranger.download(&format!("{path}/receipt.pdf")).await;
    assert_eq!(status, 404);
    assert!(headers.iter().any(|(n, v)| n == "content-type" && v.starts_with("text/html")));
    let (status, _, _) =
        owner.download("/mypage/payment_history/00000000-0000-4000-8000-000000000000/receipt.pdf").await;
    assert_eq!(status, 404);
}
