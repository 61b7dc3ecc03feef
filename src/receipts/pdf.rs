//! A receipt as one A4 PDF page: what the receipt page shows, laid out as a Japanese 領収書 —
//! the title, the addressee with 様, the amount, the tax per rate, the description and the other
//! fields, the issuer with its registration number, and the addressee's changes. The caller
//! gives every string already in the reader's language ([`Sheet`]); this module only sets them.
//! The font's glyphs that the page uses are embedded (a subset), with their Unicode values, so
//! the text can be searched and copied.

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::text::{Font, TextDirection};

use crate::receipts::font::ReceiptFont;

/// Everything a receipt prints, in the reader's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    /// The document's language tag (`ja`, `en`).
    pub lang: String,
    /// "領収書".
    pub title: String,
    /// "{addressee} 様".
    pub addressee: String,
    /// The amount paid, tax included ("¥9,000").
    pub amount: String,
    /// The label of the amount ("金額").
    pub amount_label: String,
    /// The tax table's heading and its three column titles.
    pub tax_caption: String,
    /// Rate, amount, of which tax.
    pub tax_head: [String; 3],
    /// One row per tax rate.
    pub tax_rows: Vec<[String; 3]>,
    /// "上記の金額を…領収いたしました。"
    pub note: String,
    /// Label and value: the description, circle, method, date, transaction, reference.
    pub fields: Vec<(String, String)>,
    /// "発行者".
    pub issuer_label: String,
    /// The issuer's name.
    pub issuer: String,
    /// "登録番号 T…".
    pub registration: String,
    /// The heading of the addressee's changes, and each change ("2027/04/02 10:00 株式会社…");
    /// empty when it never changed.
    pub changes: Vec<String>,
}

/// A4 in points.
const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN: f32 = 56.0;
const BODY: f32 = 10.5;
const LINE: f32 = 1.55;

/// The PDF of `sheet`, set in `font`; an error only when the font cannot be used.
pub fn render(font: &ReceiptFont, sheet: &Sheet) -> Result<Vec<u8>, String> {
    let face = font.krilla().ok_or("the receipt font cannot be read")?;
    let mut doc = Document::new();
    doc.set_metadata(Metadata::new().title(sheet.title.clone()).language(sheet.lang.clone()));
    let settings = PageSettings::from_wh(PAGE_W, PAGE_H).ok_or("page size")?;
    {
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        draw(&mut Pen { surface: &mut surface, font, face }, sheet)?;
        surface.finish();
        page.finish();
    }
    doc.finish().map_err(|e| format!("the receipt PDF: {e:?}"))
}

/// Sets `sheet` on the page.
fn draw(pen: &mut Pen<'_, '_, '_>, sheet: &Sheet) -> Result<(), String> {
    let right = PAGE_W - MARGIN;
    let width = right - MARGIN;

    let mut y = MARGIN + 28.0;
    pen.centred(&sheet.title, 24.0, y);
    y += 44.0;

    // The addressee, underlined across the left two thirds.
    for line in pen.wrap(&sheet.addressee, 15.0, width * 2.0 / 3.0) {
        pen.text(&line, 15.0, MARGIN, y);
        y += 15.0 * LINE;
    }
    pen.rule(MARGIN, MARGIN + width * 2.0 / 3.0, y - 15.0 * LINE + 5.0, 0.8);
    y += 18.0;

    // The amount in a box.
    let boxed = 42.0;
    pen.frame(Rect::from_xywh(MARGIN, y, width, boxed).ok_or("box")?);
    pen.text(&sheet.amount_label, 12.0, MARGIN + 14.0, y + 26.0);
    pen.right(&sheet.amount, 22.0, right - 14.0, y + 29.0);
    y += boxed + 16.0;
    for line in pen.wrap(&sheet.note, BODY, width) {
        pen.text(&line, BODY, MARGIN, y);
        y += BODY * LINE;
    }
    y += 14.0;

    // Tax per rate: three columns, the amounts right-aligned.
    pen.text(&sheet.tax_caption, BODY, MARGIN, y);
    y += 8.0;
    pen.rule(MARGIN, right, y, 0.6);
    y += BODY * LINE;
    let cols = [MARGIN + 6.0, MARGIN + width * 0.62, right - 6.0];
    pen.text(&sheet.tax_head[0], BODY, cols[0], y);
    pen.right(&sheet.tax_head[1], BODY, cols[1], y);
    pen.right(&sheet.tax_head[2], BODY, cols[2], y);
    y += 7.0;
    pen.rule(MARGIN, right, y, 0.4);
    for row in &sheet.tax_rows {
        y += BODY * LINE;
        pen.text(&row[0], BODY, cols[0], y);
        pen.right(&row[1], BODY, cols[1], y);
        pen.right(&row[2], BODY, cols[2], y);
        y += 7.0;
        pen.rule(MARGIN, right, y, 0.4);
    }
    y += 26.0;

    // The fields: labels in a column, values wrapped beside them.
    let label_w = sheet.fields.iter().map(|(l, _)| pen.font.width(l, BODY)).fold(0.0, f32::max) + 18.0;
    for (label, value) in &sheet.fields {
        pen.text(label, BODY, MARGIN, y);
        for line in pen.wrap(value, BODY, width - label_w) {
            pen.text(&line, BODY, MARGIN + label_w, y);
            y += BODY * LINE;
        }
        y += 3.0;
    }
    y += 22.0;

    // The issuer, right-aligned.
    for (text, size) in [(&sheet.issuer_label, BODY), (&sheet.issuer, 13.0), (&sheet.registration, BODY)] {
        pen.right(text, size, right, y);
        y += size * LINE;
    }

    // The addressee's changes, small, to the bottom of the page.
    if !sheet.changes.is_empty() {
        y += 18.0;
        let small = 8.5;
        for change in &sheet.changes {
            for line in pen.wrap(change, small, width) {
                if y > PAGE_H - MARGIN {
                    break;
                }
                pen.text(&line, small, MARGIN, y);
                y += small * LINE;
            }
        }
    }

    Ok(())
}

/// What draws on the page.
struct Pen<'a, 's, 'p> {
    surface: &'s mut krilla::surface::Surface<'p>,
    font: &'a ReceiptFont,
    face: Font,
}

impl Pen<'_, '_, '_> {
    /// `text` with its baseline at `y`, starting at `x`.
    fn text(&mut self, text: &str, size: f32, x: f32, y: f32) {
        self.surface.set_fill(Some(Fill { paint: rgb::Color::new(20, 20, 20).into(), ..Default::default() }));
        self.surface.draw_text(Point::from_xy(x, y), self.face.clone(), size, text, false, TextDirection::Auto);
    }

    /// `text` ending at `x`.
    fn right(&mut self, text: &str, size: f32, x: f32, y: f32) {
        let w = self.font.width(text, size);
        self.text(text, size, x - w, y);
    }

    /// `text` centred on the page.
    fn centred(&mut self, text: &str, size: f32, y: f32) {
        let w = self.font.width(text, size);
        self.text(text, size, (PAGE_W - w) / 2.0, y);
    }

    /// A horizontal line from `x0` to `x1` at `y`.
    fn rule(&mut self, x0: f32, x1: f32, y: f32, width: f32) {
        let mut path = PathBuilder::new();
        path.move_to(x0, y);
        path.line_to(x1, y);
        if let Some(path) = path.finish() {
            self.surface.set_fill(None);
            self.surface.set_stroke(Some(Stroke { width, ..Default::default() }));
            self.surface.draw_path(&path);
            self.surface.set_stroke(None);
        }
    }

    /// The outline of `rect`.
    fn frame(&mut self, rect: Rect) {
        let mut path = PathBuilder::new();
        path.push_rect(rect);
        if let Some(path) = path.finish() {
            self.surface.set_fill(None);
            self.surface.set_stroke(Some(Stroke { width: 1.0, ..Default::default() }));
            self.surface.draw_path(&path);
            self.surface.set_stroke(None);
        }
    }

    /// `text` broken into lines no wider than `max`: Japanese anywhere, other text at a space
    /// when the line has one.
    fn wrap(&self, text: &str, size: f32, max: f32) -> Vec<String> {
        wrap(text, max, |s| self.font.width(s, size))
    }
}

/// `text` in lines whose `width` is at most `max` (a single character wider than `max` is a line
/// of its own). A break falls after the last space of the line when it has one past its start,
/// else anywhere, as Japanese breaks.
pub fn wrap(text: &str, max: f32, width: impl Fn(&str) -> f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for c in text.chars() {
        let mut next = line.clone();
        next.push(c);
        if line.is_empty() || width(&next) <= max {
            line = next;
            continue;
        }
        match line.rfind(' ').filter(|&i| i > 0 && c != ' ') {
            Some(i) => {
                let rest = line[i + 1..].to_owned();
                lines.push(line[..i].to_owned());
                line = rest;
                line.push(c);
            }
            None => {
                lines.push(std::mem::take(&mut line));
                if c != ' ' {
                    line.push(c);
                }
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::wrap;

    fn chars(s: &str) -> f32 {
        s.chars().count() as f32
    }

    #[test]
    fn lines_break_at_spaces_and_anywhere_in_japanese() {
        assert_eq!(wrap("the exhibition fee", 10.0, chars), ["the", "exhibition", "fee"]);
        assert_eq!(wrap("株式会社バーチャルマーケット", 5.0, chars), ["株式会社バ", "ーチャルマ", "ーケット"]);
        assert_eq!(wrap("short", 10.0, chars), ["short"]);
        assert_eq!(wrap("", 10.0, chars), [""]);
        assert_eq!(wrap("abcdefghijkl", 5.0, chars), ["abcde", "fghij", "kl"]);
        for line in wrap("Virtual Market 2027 Summer — Standard booth (Sakura Town)", 20.0, chars) {
            assert!(chars(&line) <= 20.0, "{line:?}");
        }
    }
}
