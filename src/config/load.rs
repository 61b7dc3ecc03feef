//! Reading the configuration once at start-up, refusing settings that cannot work together,
//! and what is derived from it.

use rocket::figment::Figment;

use crate::config::mail::MailSettings;
use crate::config::settings::Config;
use crate::config::values::Environment;

impl Config {
    /// Reads the configuration from a Rocket figment (profiles + `ROCKET_*` variables).
    /// Settings that cannot work together (e.g. SMTP outside development without `mail_from`)
    /// are refused here, so the process does not start with them.
    pub fn from_figment(figment: &Figment) -> Result<Self, Box<rocket::figment::Error>> {
        let config: Self = figment.extract().map_err(Box::new)?;
        MailSettings::from_config(&config).map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        config.check_stripe().map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        config.check_payments().map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        config.check_store().map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        config.check_invoice().map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        config.sentry_browser_origin().map_err(|e| Box::new(rocket::figment::Error::from(e)))?;
        Ok(config)
    }

    /// The uploader API's public base URL, without a trailing slash.
    pub fn uploader_base(&self) -> String {
        if self.uploader_base_url.is_empty() {
            format!("{}/uploader", self.site_url.trim_end_matches('/'))
        } else {
            self.uploader_base_url.trim_end_matches('/').to_string()
        }
    }

    /// Whether the built-in account service answers at `/account` (no external `sso_domain`).
    pub fn builtin_sso(&self) -> bool {
        self.sso_domain.is_empty() || self.sso_domain.trim_end_matches('/') == self.own_sso_base()
    }

    fn own_sso_base(&self) -> String {
        format!("{}/account", self.site_url.trim_end_matches('/'))
    }

    /// Whether cookies need the `Secure` flag (everywhere but development).
    pub fn secure_cookies(&self) -> bool {
        self.environment != Environment::Development
    }

    /// The account service base URL, defaulting to this site's own `/account`.
    pub fn sso_base(&self) -> String {
        if self.sso_domain.is_empty() {
            format!("{}/account", self.site_url.trim_end_matches('/'))
        } else {
            self.sso_domain.trim_end_matches('/').to_string()
        }
    }

    /// `stripe_js_url` as an absolute http(s) URL.
    pub fn stripe_js_url(&self) -> Result<url::Url, String> {
        match url::Url::parse(self.stripe_js_url.trim()) {
            Ok(u) if matches!(u.scheme(), "https" | "http") && u.host().is_some() => Ok(u),
            _ => Err(format!("stripe_js_url must be an absolute http(s) URL, not {:?}", self.stripe_js_url)),
        }
    }

    /// The origin the browser sends error reports to (the CSP's `connect-src` allows it): that of
    /// `sentry_browser_dsn`, `None` when browser reporting is off. A DSN that is not
    /// `http(s)://<public key>@<host>/<project id>` is refused at start-up.
    pub fn sentry_browser_origin(&self) -> Result<Option<String>, String> {
        let dsn = self.sentry_browser_dsn.trim();
        if dsn.is_empty() {
            return Ok(None);
        }
        let refused = || format!("sentry_browser_dsn must look like https://<key>@<host>/<project>, not {dsn:?}");
        let u = url::Url::parse(dsn).map_err(|_| refused())?;
        let project = u.path_segments().and_then(|mut s| s.next_back()).unwrap_or_default();
        let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric());
        if !matches!(u.scheme(), "https" | "http") || u.host().is_none() || !plain(u.username()) || !plain(project) {
            return Err(refused());
        }
        Ok(Some(u.origin().ascii_serialization()))
    }

    /// The origin browsers send upload parts to and fetch downloads from when objects are on an
    /// S3-compatible store (its presigned URLs): the `aws_endpoint` option's origin, else AWS's
    /// own hosts; `None` on the local store, whose URLs are this site's.
    pub fn object_store_browser_origin(&self) -> Option<String> {
        if !self.object_store_url.starts_with("s3://") {
            return None;
        }
        let endpoint = self
            .object_store_options
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("aws_endpoint"))
            .map(|(_, v)| v.expose().to_string())
            .or_else(|| std::env::var("AWS_ENDPOINT").ok());
        Some(match endpoint.and_then(|e| url::Url::parse(&e).ok()) {
            Some(u) => u.origin().ascii_serialization(),
            None => "https://*.amazonaws.com".to_string(),
        })
    }

    /// Refuses a Stripe configuration that cannot work in a browser: a secret key without a
    /// publishable key (or the reverse), or a Stripe.js URL that is not an absolute http(s) URL.
    pub fn check_stripe(&self) -> Result<(), String> {
        let secret = !self.stripe_secret_key.is_empty();
        let publishable = !self.stripe_publishable_key.trim().is_empty();
        if secret != publishable {
            return Err("stripe_secret_key and stripe_publishable_key go together: set both or neither".into());
        }
        if secret {
            self.stripe_js_url()?;
        }
        Ok(())
    }

    /// Refuses payment settings that cannot be meant: the demo's fake providers in production,
    /// or a provider base URL that is not `https` outside development (keys sent in clear).
    pub fn check_payments(&self) -> Result<(), String> {
        if self.payment_demo_providers && self.environment == Environment::Production {
            return Err("payment_demo_providers is for the local demo; production refuses it".into());
        }
        if self.environment != Environment::Development && !self.payment_demo_providers {
            let bases = [
                ("stripe_api_base", &self.stripe_api_base, !self.stripe_secret_key.is_empty()),
                ("paypal_api_base", &self.paypal_api_base, !self.paypal_client_id.is_empty()),
                ("paypal_web_base", &self.paypal_web_base, !self.paypal_client_id.is_empty()),
                ("gmo_api_base", &self.gmo_api_base, !self.gmo_shop_id.is_empty()),
                ("gmo_link_base", &self.gmo_link_base, !self.gmo_shop_id.is_empty()),
                ("vrchat_api_base", &self.vrchat_api_base, !self.vrchat_auth_cookie.is_empty()),
            ];
            for (key, base, used) in bases {
                if used && !base.trim().starts_with("https://") {
                    return Err(format!("{key} must be an https URL outside development"));
                }
            }
        }
        Ok(())
    }

    /// Refuses store settings that cannot be meant: a VRChat avatar price below 0, an order that
    /// buys no upload, a box submission limit outside 1–100.
    pub fn check_store(&self) -> Result<(), String> {
        if self.vrchat_avatar_price_new < 0 || self.vrchat_avatar_price_update < 0 {
            return Err("vrchat_avatar_price_new and vrchat_avatar_price_update must be 0 or more".into());
        }
        if !(1..=100).contains(&self.box_submission_limit) {
            return Err("box_submission_limit must be between 1 and 100".into());
        }
        if self.vrchat_avatar_uploads_new < 1 || self.vrchat_avatar_uploads_update < 1 {
            return Err("vrchat_avatar_uploads_new and vrchat_avatar_uploads_update must be 1 or more".into());
        }
        Ok(())
    }

    /// Refuses an invoice registration number that is not `T` and 13 digits.
    pub fn check_invoice(&self) -> Result<(), String> {
        if !registration_number_ok(&self.invoice_registration_number) {
            return Err("invoice_registration_number must be T and 13 digits".into());
        }
        Ok(())
    }

    /// Whether inquiries can become Jira issues (base URL and API token set).
    pub fn jira_enabled(&self) -> bool {
        !self.jira_base_url.trim().is_empty() && !self.jira_api_token.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::values::Secret;

    #[test]
    fn debug_output_hides_the_provider_secrets() {
        let config = Config {
            paypal_client_secret: "pp-secret-123".into(),
            gmo_shop_pass: "gmo-pass-456".into(),
            stripe_secret_key: "sk_live_789".into(),
            stripe_webhook_secrets: vec!["whsec_new_1".into(), "whsec_old_2".into()],
            jira_api_token: "jira-token-0ab".into(),
            ..Config::default()
        };
        let printed = format!("{config:?}");
        for secret in ["pp-secret-123", "gmo-pass-456", "sk_live_789", "whsec_new_1", "whsec_old_2", "jira-token-0ab"] {
            assert!(!printed.contains(secret), "{secret} in {printed}");
        }
        assert!(printed.contains("Secret(***)") && format!("{:?}", Secret::default()) == "Secret(empty)");
    }

    #[test]
    fn a_browser_dsn_gives_the_origin_reports_go_to_and_nonsense_is_refused() {
        let with = |dsn: &str| Config { sentry_browser_dsn: dsn.into(), ..Config::default() }.sentry_browser_origin();
        assert_eq!(with(""), Ok(None), "off");
        assert_eq!(with("https://abc123@o1.ingest.sentry.io/4507"), Ok(Some("https://o1.ingest.sentry.io".into())));
        assert_eq!(with("http://public@127.0.0.1:9411/1"), Ok(Some("http://127.0.0.1:9411".into())));
        for dsn in [
            "o1.ingest.sentry.io/1",
            "javascript:alert(1)",
            "https://o1.ingest.sentry.io/1",
            "https://k@h/",
            "https://k@h/1;x",
            "ftp://k@h/1",
        ] {
            assert!(with(dsn).is_err(), "{dsn:?}");
        }
    }

    #[test]
    fn stripe_needs_both_keys_and_an_http_url_for_stripe_js() {
        let with = |secret: &str, publishable: &str, js: &str| Config {
            stripe_secret_key: secret.into(),
            stripe_publishable_key: publishable.into(),
            stripe_js_url: js.into(),
            ..Config::default()
        };
        assert!(Config::default().check_stripe().is_ok(), "no Stripe at all");
        assert!(with("sk_test_1", "pk_test_1", "https://js.stripe.com/v3/").check_stripe().is_ok());
        assert!(with("sk_test_1", "pk_test_1", "http://127.0.0.1:8420/js.stripe.com/v3/").check_stripe().is_ok());
        assert!(with("sk_test_1", "", "https://js.stripe.com/v3/").check_stripe().is_err(), "secret alone");
        assert!(with("", "pk_test_1", "https://js.stripe.com/v3/").check_stripe().is_err(), "publishable alone");
        for js in ["", "js.stripe.com/v3/", "javascript:alert(1)", "file:///tmp/stripe.js", "https://"] {
            assert!(with("sk_test_1", "pk_test_1", js).check_stripe().is_err(), "{js:?}");
        }
    }
}

/// Whether `number` is an invoice registration number: `T` and 13 digits.
pub fn registration_number_ok(number: &str) -> bool {
    number.len() == 14 && number.starts_with('T') && number[1..].bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod invoice_tests {
    use super::registration_number_ok;

    #[test]
    fn registration_numbers_are_t_and_13_digits() {
        assert!(registration_number_ok("T1234567890123"));
        for bad in [
            "",
            "T123456789012",
            "T12345678901234",
            "1234567890123T",
            "t1234567890123",
            "T123456789012a",
            "Ｔ123456789012",
        ] {
            assert!(!registration_number_ok(bad), "{bad}");
        }
    }
}
