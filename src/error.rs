//! The one error type. Every failure a handler can meet becomes an [`Error`] with a stable
//! snake_case code; it is translated at the edge into the JSON error body of the API or into the
//! error page, in the request's language (its `Responder` is in `web::errors`, which tells pages
//! from API calls). Internal details are logged, never shown.

use std::borrow::Cow;
use std::io::Cursor;

use rocket::http::{ContentType, Header, Status};
use rocket::request::Request;
use rocket::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

use crate::i18n::Messages;
use crate::types::Lang;

/// One field that failed validation, as clients see it: in the request's language.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct FieldError {
    /// The input field, snake_case.
    pub attribute: String,
    /// What is wrong with it, in the request's language.
    pub message: String,
}

/// One field that failed validation, before translation: the field, the key of the message in
/// `locales/*.json` (e.g. `validation.too_long`) and the values of its placeholders (`max`).
/// The API body and the page forms translate it with [`Invalid::message`], so both say the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The input field, snake_case.
    pub attribute: String,
    /// The message key.
    pub key: Cow<'static, str>,
    /// The message's `{name}` placeholders and their values.
    pub args: Vec<(Cow<'static, str>, String)>,
}

impl Invalid {
    /// `attribute` failed with the message `key`.
    pub fn new(attribute: impl Into<String>, key: impl Into<Cow<'static, str>>) -> Self {
        Self { attribute: attribute.into(), key: key.into(), args: Vec::new() }
    }

    /// The same, with the placeholder `name` set to `value`.
    pub fn with(mut self, name: &'static str, value: impl ToString) -> Self {
        self.args.push((Cow::Borrowed(name), value.to_string()));
        self
    }

    /// The message in `lang`; a check whose code has no message of its own says
    /// `validation.invalid_value`.
    pub fn message(&self, messages: &Messages, lang: Lang) -> String {
        let args: Vec<(&str, &str)> = self.args.iter().map(|(n, v)| (n.as_ref(), v.as_str())).collect();
        let key = match self.key.as_ref() {
            key if key.starts_with("validation.") && messages.get(lang, key).is_none() => "validation.invalid_value",
            key => key,
        };
        messages.tf(lang, key, &args)
    }

    /// The field error clients see, in `lang`.
    pub fn translate(&self, messages: &Messages, lang: Lang) -> FieldError {
        FieldError { attribute: self.attribute.clone(), message: self.message(messages, lang) }
    }
}

/// Records of one kind that still use a row ([`Error::InUse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Use {
    /// The console resource they belong to (`entry_plans`), whose name the message shows.
    pub resource: &'static str,
    /// How many.
    pub count: u64,
}

impl Use {
    /// "Entry plans (2)" / "出展プラン 2件" in `lang`.
    pub fn describe(&self, messages: &Messages, lang: Lang) -> String {
        let what = messages.t(lang, &format!("admin.resources.{}.name", self.resource));
        messages.tf(lang, "errors.use_count", &[("what", &what), ("count", &self.count.to_string())])
    }
}

/// The JSON error body of every API failure.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable machine-readable code, e.g. `unknown_permalink`.
    pub code: String,
    /// Human-readable message in the request's language.
    pub message: String,
    /// Per-field problems, empty unless validation failed.
    pub details: Vec<FieldError>,
}

/// Everything that can go wrong while answering a request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A resource that does not exist; `code` says which kind (`not_found`, `unknown_permalink`).
    #[error("not found: {code}")]
    NotFound {
        /// The error code.
        code: &'static str,
    },
    /// Input that could not be understood at all.
    #[error("bad request: {code}")]
    BadRequest {
        /// The error code.
        code: &'static str,
    },
    /// Input that was understood but is not acceptable, field by field.
    #[error("validation failed")]
    Validation(Vec<Invalid>),
    /// No or an invalid credential.
    #[error("unauthorized")]
    Unauthorized,
    /// A valid credential without the right to do this.
    #[error("forbidden")]
    Forbidden,
    /// Refused to whoever asks, without saying more than `code` (a download token, its password).
    #[error("denied: {code}")]
    Denied {
        /// The error code.
        code: &'static str,
    },
    /// An unsafe cookie-authenticated request without a valid CSRF token.
    #[error("csrf token missing or wrong")]
    CsrfFailed,
    /// A conflict with the current state.
    #[error("conflict: {code}")]
    Conflict {
        /// The error code.
        code: &'static str,
    },
    /// A window that is closed (409): `code` says which (`catalog_closed`, `submission_closed`),
    /// `deadline` when it closed or opens, named in the message in Japan time.
    #[error("closed: {code}")]
    Closed {
        /// The error code.
        code: &'static str,
        /// When the window closed (or, before it opens, when it opens).
        deadline: chrono::DateTime<chrono::Utc>,
    },
    /// A change that other records stand in the way of (409): deleting a row they still use, or
    /// moving it where they cannot follow. `code` says which change; `uses` which records and
    /// how many, named in the message so that staff know what to delete or move first.
    #[error("conflict: {code} (in use)")]
    InUse {
        /// The error code, e.g. `in_use`.
        code: &'static str,
        /// What still uses the row.
        uses: Vec<Use>,
    },
    /// An action the resource does not offer (e.g. deleting an audit entry).
    #[error("method not allowed")]
    MethodNotAllowed,
    /// A request body over the limit.
    #[error("payload too large")]
    TooLarge,
    /// A request body in a format this call does not take (e.g. JSON where a form is expected).
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// Too many requests; retry after this many seconds.
    #[error("rate limited")]
    RateLimited {
        /// Seconds until the next attempt may succeed.
        retry_after: u64,
    },
    /// A feature the server does not provide.
    #[error("not implemented")]
    NotImplemented,
    /// Well-formed input that breaks the rules it is checked against, each breach named in the
    /// details (422), e.g. `scene_over_limit`: a booth over its rule set.
    #[error("breaches: {code}")]
    Breaches {
        /// The error code.
        code: &'static str,
        /// The rules breached, as field errors (`attribute` the rule's id).
        found: Vec<Invalid>,
    },
    /// Well-formed input that policy refuses, e.g. `url_not_allowed` (422).
    #[error("refused: {code}")]
    Refused {
        /// The error code.
        code: &'static str,
    },
    /// A remote server this request depends on failed or answered unusably (502).
    #[error("bad gateway: {code}")]
    BadGateway {
        /// The error code, e.g. `upstream_unreachable`.
        code: &'static str,
    },
    /// A remote server this request depends on took too long (504, `upstream_timeout`).
    #[error("gateway timeout")]
    GatewayTimeout,
    /// A database failure.
    #[error("database: {0}")]
    Db(#[from] sea_orm::DbErr),
    /// Anything else that is the server's fault.
    #[error("internal: {0}")]
    Internal(String),
}

/// Shorthand for handler results.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// The `not_found` error.
    pub fn not_found() -> Self {
        Self::NotFound { code: "not_found" }
    }

    /// The error for an event permalink that names no event.
    pub fn unknown_permalink() -> Self {
        Self::NotFound { code: "unknown_permalink" }
    }

    /// A single-field validation error with the message `key` (see [`Invalid`]).
    pub fn invalid(attribute: &str, key: &'static str) -> Self {
        Self::Validation(vec![Invalid::new(attribute, key)])
    }

    /// The HTTP status this error answers with.
    pub fn status(&self) -> Status {
        match self {
            Self::NotFound { .. } => Status::NotFound,
            Self::BadRequest { .. } => Status::BadRequest,
            Self::Validation(_) | Self::Breaches { .. } => Status::UnprocessableEntity,
            Self::Unauthorized => Status::Unauthorized,
            Self::Forbidden | Self::CsrfFailed | Self::Denied { .. } => Status::Forbidden,
            Self::Conflict { .. } | Self::Closed { .. } | Self::InUse { .. } => Status::Conflict,
            Self::MethodNotAllowed => Status::MethodNotAllowed,
            Self::TooLarge => Status::PayloadTooLarge,
            Self::UnsupportedMediaType => Status::UnsupportedMediaType,
            Self::RateLimited { .. } => Status::TooManyRequests,
            Self::NotImplemented => Status::NotImplemented,
            Self::Refused { .. } => Status::UnprocessableEntity,
            Self::BadGateway { .. } => Status::BadGateway,
            Self::GatewayTimeout => Status::GatewayTimeout,
            Self::Db(_) | Self::Internal(_) => Status::InternalServerError,
        }
    }

    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            Self::NotFound { code }
            | Self::BadRequest { code }
            | Self::Conflict { code }
            | Self::Closed { code, .. }
            | Self::InUse { code, .. }
            | Self::Refused { code }
            | Self::Breaches { code, .. }
            | Self::Denied { code }
            | Self::BadGateway { code } => code,
            Self::GatewayTimeout => "upstream_timeout",
            Self::Validation(_) => "validation_failed",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden => "forbidden",
            Self::CsrfFailed => "csrf_failed",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::TooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::RateLimited { .. } => "rate_limited",
            Self::NotImplemented => "not_implemented",
            Self::Db(_) | Self::Internal(_) => "internal_error",
        }
    }

    /// The JSON body in `lang`.
    pub fn body(&self, messages: &Messages, lang: Lang) -> ErrorBody {
        ErrorBody {
            code: self.code().to_string(),
            message: self.message(messages, lang),
            details: self.details(messages, lang),
        }
    }

    /// The message in `lang`: the code's, followed by what still uses the row for
    /// [`Error::InUse`] ("… Still used by: Entry plans (2), Applications (5).").
    pub fn message(&self, messages: &Messages, lang: Lang) -> String {
        let message = messages.t(lang, &format!("errors.{}", self.code()));
        match self {
            Self::InUse { uses, .. } if !uses.is_empty() => {
                let listed = uses.iter().map(|u| u.describe(messages, lang)).collect::<Vec<_>>();
                let separator = messages.t(lang, "errors.uses_separator");
                messages.tf(lang, "errors.used_by", &[("message", &message), ("uses", &listed.join(&separator))])
            }
            Self::Closed { code, deadline } => messages.tf(
                lang,
                &format!("errors.{code}"),
                &[("deadline", &crate::i18n::tera::format_jst(*deadline, true))],
            ),
            _ => message,
        }
    }

    /// The field errors in `lang` (none unless validation failed), as the API body lists them
    /// and page forms show them beside their fields.
    pub fn details(&self, messages: &Messages, lang: Lang) -> Vec<FieldError> {
        match self {
            Self::Validation(found) | Self::Breaches { found, .. } => {
                found.iter().map(|i| i.translate(messages, lang)).collect()
            }
            Self::InUse { uses, .. } => uses
                .iter()
                .map(|u| FieldError { attribute: u.resource.to_string(), message: u.describe(messages, lang) })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The language an API request asked for with `?lang=`, Japanese by default.
pub fn request_lang(req: &Request<'_>) -> Lang {
    request_lang_of(req.query_value::<&str>("lang").and_then(|r| r.ok()))
}

/// The language of a raw `lang` value, Japanese by default.
pub fn request_lang_of(raw: Option<&str>) -> Lang {
    raw.and_then(Lang::parse).unwrap_or_default()
}

/// Builds a JSON error response.
pub fn json_response<'r>(error: &Error, messages: &Messages, lang: Lang) -> Response<'r> {
    let body = serde_json::to_string(&error.body(messages, lang)).unwrap_or_default();
    let mut res = Response::build()
        .status(error.status())
        .header(ContentType::JSON)
        .sized_body(body.len(), Cursor::new(body))
        .finalize();
    if let Error::RateLimited { retry_after } = error {
        res.set_header(Header::new("Retry-After", retry_after.to_string()));
    }
    res
}
