//! Reading rendered pages the way a visitor would: text of selected elements.

use scraper::{Html, Selector};

/// A parsed page.
pub struct Doc(Html);

impl Doc {
    /// Parses `html`.
    pub fn parse(html: &str) -> Self {
        Self(Html::parse_document(html))
    }

    fn sel(css: &str) -> Selector {
        Selector::parse(css).unwrap_or_else(|e| panic!("bad selector {css}: {e:?}"))
    }

    /// Visible text of every element matching `css`, whitespace collapsed.
    pub fn texts(&self, css: &str) -> Vec<String> {
        self.0
            .select(&Self::sel(css))
            .map(|el| el.text().collect::<Vec<_>>().join(" ").split_whitespace().collect::<Vec<_>>().join(" "))
            .collect()
    }

    /// Text of the first element matching `css`.
    pub fn text(&self, css: &str) -> String {
        self.texts(css).into_iter().next().unwrap_or_else(|| panic!("no element matches {css}"))
    }

    /// Values of `attr` on every element matching `css`.
    pub fn attrs(&self, css: &str, attr: &str) -> Vec<String> {
        self.0.select(&Self::sel(css)).filter_map(|el| el.value().attr(attr).map(str::to_string)).collect()
    }

    /// Value of `attr` on the first element matching `css`.
    pub fn attr(&self, css: &str, attr: &str) -> String {
        self.attrs(css, attr).into_iter().next().unwrap_or_else(|| panic!("no {css}[{attr}]"))
    }

    /// `(name, value)` of every named field matching `css` (a missing value is empty).
    pub fn fields(&self, css: &str) -> Vec<(String, String)> {
        self.0
            .select(&Self::sel(css))
            .filter_map(|el| {
                let name = el.value().attr("name")?;
                Some((name.to_string(), el.value().attr("value").unwrap_or_default().to_string()))
            })
            .collect()
    }

    /// How many elements match `css`.
    pub fn count(&self, css: &str) -> usize {
        self.0.select(&Self::sel(css)).count()
    }
}
