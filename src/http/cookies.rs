//! Every cookie the site sets is built here, so each one gets `Secure` outside development (and
//! the other flags it needs) without anyone remembering to.

use rocket::http::{Cookie, CookieJar, SameSite};
use rocket::time::Duration;

use crate::config::Config;

/// How a cookie is scoped and who may read it.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    /// The cookie name.
    pub name: &'static str,
    /// The path it is sent for.
    pub path: &'static str,
    /// Hidden from page scripts.
    pub http_only: bool,
    /// Cross-site sending policy.
    pub same_site: SameSite,
    /// Lifetime; `None` for a browser-session cookie.
    pub max_age: Option<Duration>,
}

impl Spec {
    /// A cookie for `path`, HttpOnly and `SameSite=Lax`, lasting the browser session.
    pub const fn new(name: &'static str, path: &'static str) -> Self {
        Self { name, path, http_only: true, same_site: SameSite::Lax, max_age: None }
    }

    /// The same cookie lasting `max_age`.
    pub const fn max_age(mut self, max_age: Duration) -> Self {
        self.max_age = Some(max_age);
        self
    }

    /// The same cookie with another `SameSite` policy.
    pub const fn same_site(mut self, same_site: SameSite) -> Self {
        self.same_site = same_site;
        self
    }

    /// The same cookie, readable by page scripts.
    pub const fn script_readable(mut self) -> Self {
        self.http_only = false;
        self
    }

    /// The cookie with `value`, `Secure` unless `config` is development.
    pub fn build(&self, value: impl Into<String>, config: &Config) -> Cookie<'static> {
        let mut cookie = Cookie::build((self.name, value.into()))
            .path(self.path)
            .http_only(self.http_only)
            .same_site(self.same_site)
            .secure(config.secure_cookies());
        if let Some(age) = self.max_age {
            cookie = cookie.max_age(age);
        }
        cookie.build()
    }

    /// Sets the cookie in `jar`.
    pub fn set(&self, jar: &CookieJar<'_>, value: impl Into<String>, config: &Config) {
        jar.add(self.build(value, config));
    }

    /// Removes the cookie from the browser, with the flags it was set with (a deletion without
    /// `Secure` would be the one cookie header outside development that lacks it).
    pub fn remove(&self, jar: &CookieJar<'_>, config: &Config) {
        jar.remove(
            Cookie::build(self.name)
                .path(self.path)
                .http_only(self.http_only)
                .same_site(self.same_site)
                .secure(config.secure_cookies()),
        );
    }

    /// The cookie's value in `jar`, if any.
    pub fn get(&self, jar: &CookieJar<'_>) -> Option<String> {
        jar.get(self.name).map(|c| c.value().to_string())
    }
}
