//! Where a page sends a visitor to sign in: `/auth/login?next=…` (the routes: `crate::web::sign_in`).

/// The sign-in URL for a page at `next`.
pub fn login_href(next: &str) -> String {
    format!("/auth/login?next={}", encode(next))
}

/// The URL a page that needs sign-in sends the browser to (an automatic attempt).
pub fn auto_login_href(next: &str) -> String {
    format!("{}&auto=1", login_href(next))
}

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}
