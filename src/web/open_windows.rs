//! The entry and payment windows open now across the public events, with their deadlines: the
//! strip under every page's header and the top page's "also open" list, so that the next event
//! is one tap from any page (issue 26, item 2).

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use crate::http::Site;
use crate::i18n::tera::format_jst;
use crate::model::event::Window;
use crate::model::tree::Tree;
use crate::types::Lang;
use crate::web::locale::localized_path;

/// The windows a visitor can act on: entering, and paying after a draw.
const ACTIONABLE: [Window; 3] = [Window::Entry, Window::FirstPayment, Window::SecondPayment];

/// What a page needs to name open windows: the site's messages, the language, the clock.
#[derive(Clone, Copy)]
pub struct Naming<'a> {
    /// Site-wide state (messages).
    pub site: &'a Site,
    /// The page's language.
    pub lang: Lang,
    /// The request's "now".
    pub now: DateTime<Utc>,
}

impl Naming<'_> {
    /// An open window as pages name it: its label and "until …" in Japan time.
    pub fn window(&self, window: Window, until: DateTime<Utc>) -> Value {
        json!({
            "key": window.as_str(),
            "label": self.site.messages.t(self.lang, &format!("open_now.{}", window.as_str())),
            "until": self.site.messages.tf(self.lang, "open_now.until", &[("at", &format_jst(until, true))]),
        })
    }

    /// The entry and payment windows open now at the public events of `tree` other than
    /// `except`, soonest deadline first: each with the event's name and a link to its page.
    pub fn open_events(&self, tree: &Tree, except: Option<i32>) -> Vec<Value> {
        let mut open: Vec<(DateTime<Utc>, Value)> = tree
            .events
            .iter()
            .filter(|e| Some(e.event.id) != except)
            .flat_map(|e| {
                e.open_windows(self.now).into_iter().filter(|(w, _)| ACTIONABLE.contains(w)).map(
                    move |(window, until)| {
                        let mut row = self.window(window, until);
                        row["name"] = json!(self.lang.pick(&e.event.name_ja, &e.event.name_en));
                        row["href"] = json!(localized_path(self.lang, &format!("/{}", e.event.permalink)));
                        (until, row)
                    },
                )
            })
            .collect();
        open.sort_by_key(|(until, _)| *until);
        open.into_iter().map(|(_, row)| row).collect()
    }
}
