//! Reads the preview out of an HTML document: the title (`og:title`, then `twitter:title`,
//! then `<title>`) and the image (`og:image`, `og:image:url`, `og:image:secure_url`, then
//! `twitter:image`), the image resolved to an absolute `http(s)` URL against the page URL.

use encoding_rs::{Encoding, UTF_8};
use scraper::{Html, Selector};
use url::Url;

/// Longest title kept, in characters.
const MAX_TITLE_CHARS: usize = 300;

/// What a page says about itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageMeta {
    /// The page title, whitespace collapsed.
    pub title: Option<String>,
    /// The absolute image URL.
    pub image: Option<String>,
}

/// Decodes `body` (charset from the `Content-Type` header, else a `<meta charset>` near the
/// start, else UTF-8) and extracts the preview, resolving the image against `page`.
pub fn extract(body: &[u8], content_type: Option<&str>, page: &Url) -> PageMeta {
    let encoding = content_type.and_then(charset_param).or_else(|| sniff_meta_charset(body)).unwrap_or(UTF_8);
    let (text, _, _) = encoding.decode(body);
    let doc = Html::parse_document(&text);
    let meta = |keys: &[&str]| keys.iter().find_map(|k| meta_content(&doc, k));
    let title = meta(&["og:title", "twitter:title"]).or_else(|| title_element(&doc)).and_then(clean_title);
    let image = meta(&["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"])
        .and_then(|raw| absolute_http_url(page, raw.trim()));
    PageMeta { title, image }
}

/// The content of the first `<meta property|name="key">` with a non-blank value.
fn meta_content(doc: &Html, key: &str) -> Option<String> {
    let selector = Selector::parse("meta").ok()?;
    doc.select(&selector).find_map(|el| {
        let attr = el.value();
        let named = [attr.attr("property"), attr.attr("name")]
            .into_iter()
            .flatten()
            .any(|v| v.trim().eq_ignore_ascii_case(key));
        attr.attr("content").filter(|c| named && !c.trim().is_empty()).map(str::to_string)
    })
}

fn title_element(doc: &Html) -> Option<String> {
    let selector = Selector::parse("title").ok()?;
    doc.select(&selector).next().map(|t| t.text().collect())
}

fn clean_title(raw: String) -> Option<String> {
    let collapsed = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then(|| collapsed.chars().take(MAX_TITLE_CHARS).collect())
}

/// `raw` resolved against `page`, if the result is an `http(s)` URL of reasonable length.
fn absolute_http_url(page: &Url, raw: &str) -> Option<String> {
    let url = page.join(raw).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.as_str().len() <= super::policy::MAX_URL_LEN)
        .then(|| url.to_string())
}

fn charset_param(content_type: &str) -> Option<&'static Encoding> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim().eq_ignore_ascii_case("charset").then(|| Encoding::for_label(v.trim().trim_matches('"').as_bytes()))?
    })
}

/// A `charset=` in the first 1 KiB, as browsers' prescan finds `<meta charset>` and
/// `<meta http-equiv="Content-Type" content="…; charset=…">`.
fn sniff_meta_charset(body: &[u8]) -> Option<&'static Encoding> {
    let head = String::from_utf8_lossy(&body[..body.len().min(1024)]).to_ascii_lowercase();
    let at = head.find("charset=")? + "charset=".len();
    let label: String = head[at..]
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        .collect();
    Encoding::for_label(label.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> Url {
        Url::parse("https://example.com/blog/post?id=1").unwrap()
    }

    #[test]
    fn prefers_open_graph_and_resolves_relative_images() {
        let html = r#"<html><head><title>Fallback</title>
            <meta property="og:title" content=" Hello &amp; welcome ">
            <meta property="og:image" content="../img/cover.png"></head></html>"#;
        let meta = extract(html.as_bytes(), Some("text/html"), &page());
        assert_eq!(meta.title.as_deref(), Some("Hello & welcome"));
        assert_eq!(meta.image.as_deref(), Some("https://example.com/img/cover.png"));
    }

    #[test]
    fn falls_back_to_title_and_twitter_image() {
        let html = "<title>\n  My   page\n</title><meta name=\"twitter:image\" content=\"//cdn.example.net/a.jpg\">";
        let meta = extract(html.as_bytes(), None, &page());
        assert_eq!(meta.title.as_deref(), Some("My page"));
        assert_eq!(meta.image.as_deref(), Some("https://cdn.example.net/a.jpg"));
    }

    #[test]
    fn ignores_blank_values_and_non_http_images() {
        let html = r#"<meta property="og:title" content="  "><title>T</title>
            <meta property="og:image" content="javascript:alert(1)">"#;
        let meta = extract(html.as_bytes(), None, &page());
        assert_eq!(meta, PageMeta { title: Some("T".into()), image: None });
        assert_eq!(extract(b"<p>nothing</p>", None, &page()), PageMeta::default());
    }

    #[test]
    fn decodes_shift_jis_from_the_header_or_the_meta_tag() {
        let (sjis, _, _) =
            encoding_rs::SHIFT_JIS.encode("<meta charset=\"Shift_JIS\"><title>バーチャルマーケット</title>");
        assert_eq!(extract(&sjis, None, &page()).title.as_deref(), Some("バーチャルマーケット"));
        let (body, _, _) = encoding_rs::EUC_JP.encode("<title>ようこそ</title>");
        assert_eq!(extract(&body, Some("text/html; charset=EUC-JP"), &page()).title.as_deref(), Some("ようこそ"));
    }
}
