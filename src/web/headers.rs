//! Security headers on every response: a Content-Security-Policy that allows only the site's
//! own scripts and styles, `Referrer-Policy`, `X-Content-Type-Options`, `X-Frame-Options`, and
//! HSTS outside development. A route that needs another policy (the console's per-request
//! style nonce) sets its own `Content-Security-Policy`, which is then left alone.

use rocket::fairing::{Fairing, Info, Kind};
use rocket::http::Header;
use rocket::{Request, Response};
use url::Url;

use crate::config::Config;

/// The fairing (also managed state, for routes that build their own policy); built once from the
/// configuration.
#[derive(Debug, Clone)]
pub struct SecurityHeaders {
    form_action: String,
    /// Where pages may send requests (`connect-src`): this site, `blob:` (files the user chose),
    /// the object store's origin when it is S3-compatible (upload parts and downloads go
    /// straight there), and the browser error reports' origin when `sentry_browser_dsn` is set.
    connect: String,
    hsts: bool,
    /// The site's policy, built once.
    site_policy: String,
}

impl SecurityHeaders {
    /// The headers for `config`: forms may post to this site and the account service (and its
    /// allowed origins, which sign-in redirects pass through), and be redirected to the payment
    /// pages of the configured redirect providers (PayPal's, GMO's: a form that pays answers a
    /// 303 there, which `form-action` governs too).
    pub fn new(config: &Config) -> Self {
        let mut form_action = vec!["'self'".to_string()];
        let paypal = (!config.paypal_client_id.is_empty()).then(|| config.paypal_web_base.clone());
        let gmo = (!config.gmo_shop_id.is_empty()).then(|| config.gmo_link_base.clone());
        let origins = std::iter::once(config.sso_base())
            .chain(config.sso_allowed_origins.iter().cloned())
            .chain(paypal)
            .chain(gmo);
        for origin in origins.filter_map(|o| Url::parse(&o).ok()).map(|u| u.origin().ascii_serialization()) {
            if !form_action.contains(&origin) && origin != "null" {
                form_action.push(origin);
            }
        }
        let form_action = form_action.join(" ");
        // Checked at start-up (`Config::from_figment`): a DSN that does not parse is no origin.
        let reports = config.sentry_browser_origin().ok().flatten();
        // `blob:`: the upload page draws a 3D file's snapshot from the file itself.
        let connect = ["'self'".to_string(), "blob:".to_string()]
            .into_iter()
            .chain(config.object_store_browser_origin())
            .chain(reports)
            .collect::<Vec<_>>()
            .join(" ");
        let site_policy = policy(&form_action, "'self'", &connect);
        Self { form_action, connect, hsts: config.secure_cookies(), site_policy }
    }

    /// The site's policy.
    pub fn csp(&self) -> String {
        self.site_policy.clone()
    }

    /// The site's policy, also allowing `<style>` elements that carry `nonce` (the console's
    /// CSS-in-JS adds its styles that way).
    pub fn csp_with_style_nonce(&self, nonce: &str) -> String {
        policy(&self.form_action, &format!("'self' 'nonce-{nonce}'"), &self.connect)
    }

    /// The site's policy for the card payment page, which runs Stripe.js: scripts and frames
    /// also from Stripe.js's origin `js`, calls also to it and to the Stripe API's origin `api`.
    /// Stripe's own Stripe.js (`https://js.stripe.com`) shows 3-D Secure in frames from
    /// `https://hooks.stripe.com`, which is then allowed as a frame too. Only that page sends it.
    pub fn csp_with_stripe(&self, js: &str, api: Option<&str>) -> String {
        let mut connect = vec![self.connect.as_str(), js];
        connect.extend(api.filter(|a| *a != js));
        let mut frames = vec![js];
        if js == "https://js.stripe.com" {
            frames.push("https://hooks.stripe.com");
        }
        format!(
            "default-src 'self'; script-src 'self' {js}; style-src 'self'; img-src 'self' data: blob: https:; \
             font-src 'self' data:; connect-src {}; frame-src {}; object-src 'none'; base-uri 'self'; \
             frame-ancestors 'none'; form-action {}",
            connect.join(" "),
            frames.join(" "),
            self.form_action
        )
    }
}

fn policy(form_action: &str, style_src: &str, connect_src: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self'; style-src {style_src}; img-src 'self' data: blob: https:; \
         font-src 'self' data:; connect-src {connect_src}; object-src 'none'; base-uri 'self'; \
         frame-ancestors 'none'; form-action {form_action}"
    )
}

#[rocket::async_trait]
impl Fairing for SecurityHeaders {
    fn info(&self) -> Info {
        Info { name: "security headers", kind: Kind::Response }
    }

    async fn on_response<'r>(&self, req: &'r Request<'_>, res: &mut Response<'r>) {
        if !res.headers().contains("Content-Security-Policy") {
            // Borrowed from the managed copy (no copy of the policy per response).
            let policy = match req.rocket().state::<SecurityHeaders>() {
                Some(managed) => Header::new("Content-Security-Policy", managed.site_policy.as_str()),
                None => Header::new("Content-Security-Policy", self.csp()),
            };
            res.set_header(policy);
        }
        res.set_header(Header::new("Referrer-Policy", "strict-origin-when-cross-origin"));
        res.set_header(Header::new("X-Content-Type-Options", "nosniff"));
        res.set_header(Header::new("X-Frame-Options", "DENY"));
        if self.hsts {
            res.set_header(Header::new("Strict-Transport-Security", "max-age=31536000; includeSubDomains"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SecurityHeaders;
    use crate::config::Config;

    #[test]
    fn only_the_card_page_policy_widens_and_only_to_stripe_s_origins() {
        let headers = SecurityHeaders::new(&Config::default());
        assert!(headers.csp().contains("script-src 'self';") && !headers.csp().contains("frame-src"));
        let local = headers.csp_with_stripe("http://127.0.0.1:8420", Some("http://127.0.0.1:8420"));
        assert!(local.contains("script-src 'self' http://127.0.0.1:8420;"), "{local}");
        assert!(local.contains("connect-src 'self' blob: http://127.0.0.1:8420;"), "{local}");
        assert!(local.contains("frame-src http://127.0.0.1:8420;"), "{local}");
        let real = headers.csp_with_stripe("https://js.stripe.com", Some("https://api.stripe.com"));
        assert!(real.contains("script-src 'self' https://js.stripe.com;"), "{real}");
        assert!(real.contains("connect-src 'self' blob: https://js.stripe.com https://api.stripe.com;"), "{real}");
        assert!(real.contains("frame-src https://js.stripe.com https://hooks.stripe.com;"), "{real}");
        assert!(real.contains("object-src 'none'") && real.contains("frame-ancestors 'none'"), "{real}");
    }

    #[test]
    fn browser_error_reports_may_go_to_the_dsn_s_origin_only() {
        assert!(
            SecurityHeaders::new(&Config::default()).csp().contains("connect-src 'self' blob:;"),
            "off: this site and chosen files only"
        );
        let config = Config { sentry_browser_dsn: "https://k1@o9.ingest.sentry.io/42".into(), ..Config::default() };
        let headers = SecurityHeaders::new(&config);
        for csp in
            [headers.csp(), headers.csp_with_style_nonce("n0"), headers.csp_with_stripe("https://js.stripe.com", None)]
        {
            assert!(csp.contains("connect-src 'self' blob: https://o9.ingest.sentry.io"), "{csp}");
            assert!(!csp.contains("/42") && !csp.contains("k1"), "the origin, not the DSN: {csp}");
        }
    }

    #[test]
    fn parts_and_downloads_may_go_to_the_s3_store_s_origin() {
        let local = SecurityHeaders::new(&Config::default()).csp();
        assert!(!local.contains("amazonaws"), "the local store's URLs are this site's: {local}");
        let mut config = Config { object_store_url: "s3://bucket/prefix".into(), ..Config::default() };
        assert!(SecurityHeaders::new(&config).csp().contains("connect-src 'self' blob: https://*.amazonaws.com;"));
        config.object_store_options.insert("AWS_ENDPOINT".into(), "http://127.0.0.1:9000/ignored/path".into());
        let csp = SecurityHeaders::new(&config).csp();
        assert!(csp.contains("connect-src 'self' blob: http://127.0.0.1:9000;"), "{csp}");
    }

    #[test]
    fn forms_may_be_sent_on_to_the_configured_redirect_providers_only() {
        let none = SecurityHeaders::new(&Config::default()).csp();
        assert!(!none.contains("paypal") && !none.contains("mul-pay"), "no provider, no origin: {none}");
        let config = Config {
            paypal_client_id: "id".into(),
            paypal_web_base: "http://127.0.0.1:8421/some/path".into(),
            gmo_shop_id: "shop".into(),
            gmo_link_base: "https://link.mul-pay.jp".into(),
            ..Config::default()
        };
        let csp = SecurityHeaders::new(&config).csp();
        let form_action = csp.split("form-action").nth(1).unwrap_or_default();
        assert!(form_action.contains(" http://127.0.0.1:8421") && !form_action.contains("/some/path"), "{csp}");
        assert!(form_action.contains(" https://link.mul-pay.jp"), "{csp}");
    }
}
