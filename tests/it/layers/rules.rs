//! What each top-level module of `src` may import: the layer table of `src/lib.rs` and the
//! README's "Layout", one rule per module (`main` is the binary, `src/main.rs`). Lower layers
//! first; a module may import only modules listed before it (checked by `the_rules_are_layers`).

/// What a module may import besides itself.
pub struct Rule {
    /// The top-level module (`src/<module>` or `src/<module>.rs`).
    pub module: &'static str,
    /// What it may import.
    pub may: May,
    /// Why it sits where it does (the README's "holds").
    pub why: &'static str,
}

/// The modules a rule allows.
pub enum May {
    /// Only these.
    Only(&'static [&'static str]),
    /// Anything but these.
    AllBut(&'static [&'static str]),
}

impl Rule {
    /// Whether the rule's module may import `other` (itself always).
    pub fn allows(&self, other: &str) -> bool {
        other == self.module
            || match self.may {
                May::Only(only) => only.contains(&other),
                May::AllBut(never) => !never.contains(&other),
            }
    }
}

/// The pure bottom: imports nothing of the app.
const NOTHING: &[&str] = &[];
/// What the model and the job queue stand on.
const MODEL: &[&str] = &["types", "lottery", "clock", "i18n", "error", "config", "db", "mail"];
/// What the features (and the shared edge plumbing) stand on.
const BELOW_FEATURES: &[&str] = &[
    "types",
    "lottery",
    "clock",
    "i18n",
    "error",
    "config",
    "telemetry",
    "db",
    "storage",
    "mail",
    "model",
    "queue",
    "jobs",
    "http",
    "auth",
    "forms",
];
/// What the edges (`api`, `web`) stand on: all of the above, the features and payments.
const BELOW_EDGES: &[&str] = &[
    "types",
    "lottery",
    "clock",
    "i18n",
    "error",
    "config",
    "telemetry",
    "db",
    "storage",
    "mail",
    "model",
    "queue",
    "jobs",
    "http",
    "auth",
    "forms",
    "linkpreview",
    "payments",
    "assets",
    "exhibit",
    "booth",
    "ingame",
    "store",
    "receipts",
];

/// One rule per top-level module, lowest first.
pub const RULES: &[Rule] = &[
    Rule {
        module: "types",
        may: May::Only(NOTHING),
        why: "shared values: Lang, ids, permalinks, bilingual text, vocabularies",
    },
    Rule {
        module: "lottery",
        may: May::Only(NOTHING),
        why: "the verifiable draw as pure functions (`vmarket lottery verify` runs it on published data alone)",
    },
    Rule { module: "clock", may: May::Only(NOTHING), why: "the application clock and its time travel" },
    Rule {
        module: "config",
        may: May::Only(&["types"]),
        why: "typed configuration, read and checked once (the mail settings included)",
    },
    Rule {
        module: "i18n",
        may: May::Only(&["types"]),
        why: "message catalogues and the Tera functions that read them",
    },
    Rule {
        module: "error",
        may: May::Only(&["types", "i18n"]),
        why: "the one error type, its codes and its JSON body",
    },
    Rule { module: "telemetry", may: May::Only(&["config"]), why: "logs, request logs and Sentry" },
    Rule {
        module: "storage",
        may: May::Only(&["types", "config", "error"]),
        why: "the object store (pictures) and `/media`",
    },
    Rule {
        module: "db",
        may: May::Only(&["types"]),
        why: "connection, entities with their enums, migrations; not the job queue's tables",
    },
    Rule {
        module: "mail",
        may: May::Only(&["types", "i18n", "error", "config", "db"]),
        why: "rendering mails and storing them for delivery",
    },
    Rule { module: "model", may: May::Only(MODEL), why: "queries, rules and client views, one file per entity" },
    Rule {
        module: "queue",
        may: May::Only(&["types", "clock", "error", "config", "db", "storage", "mail"]),
        why: "the job queue: `Queue`, the `Job` trait, `JobContext`; its tables are set up by the callers",
    },
    Rule {
        module: "jobs",
        may: May::Only(&["types", "lottery", "clock", "i18n", "error", "config", "db", "mail", "model", "queue"]),
        why: "the jobs of mail, inquiries and the lottery, and `FollowUp`",
    },
    Rule {
        module: "http",
        may: May::Only(&[
            "types", "clock", "i18n", "error", "config", "db", "storage", "mail", "model", "queue", "jobs",
        ]),
        why: "what the edges share: `Site`, client IP, cookies, rate limits, form keys, redirects, uploads, the render cache, the Vite manifest",
    },
    Rule {
        module: "auth",
        may: May::Only(&["types", "clock", "error", "config", "db", "model", "http"]),
        why: "token verification, JWKS, guards, CSRF, sign-in state, sign-in links",
    },
    Rule {
        module: "forms",
        may: May::Only(&[
            "types", "clock", "i18n", "error", "config", "db", "storage", "model", "queue", "jobs", "http", "auth",
        ]),
        why: "the typed input of every write, checked one way",
    },
    Rule {
        module: "linkpreview",
        may: May::Only(&["types", "clock", "error", "config", "db", "model", "http"]),
        why: "the link preview behind `/api/ogp`",
    },
    Rule {
        module: "payments",
        may: May::Only(&["types", "clock", "i18n", "error", "config", "db", "mail", "model", "queue", "jobs", "http"]),
        why: "the providers and the payment flows, with their jobs",
    },
    Rule { module: "assets", may: May::Only(BELOW_FEATURES), why: "feature: the asset uploader (`/uploader`)" },
    Rule {
        module: "receipts",
        may: May::Only(BELOW_FEATURES),
        why: "feature: receipts fit for Japanese accounting (tax per rate, the addressee)",
    },
    Rule {
        module: "exhibit",
        may: May::Only(&[
            "types",
            "lottery",
            "clock",
            "i18n",
            "error",
            "config",
            "telemetry",
            "db",
            "storage",
            "mail",
            "model",
            "queue",
            "jobs",
            "http",
            "auth",
            "forms",
            "assets",
        ]),
        why: "feature: after the win — slots and their placement, catalogue items, submissions, inspection, the checklist (issue 28)",
    },
    Rule {
        module: "store",
        may: May::Only(&[
            "types",
            "lottery",
            "clock",
            "i18n",
            "error",
            "config",
            "telemetry",
            "db",
            "storage",
            "mail",
            "model",
            "queue",
            "jobs",
            "http",
            "auth",
            "forms",
            "assets",
            "payments",
        ]),
        why: "feature: the store (`/api/v1/store`)",
    },
    Rule {
        module: "booth",
        may: May::Only(&[
            "types",
            "lottery",
            "clock",
            "i18n",
            "error",
            "config",
            "telemetry",
            "db",
            "storage",
            "mail",
            "model",
            "queue",
            "jobs",
            "http",
            "auth",
            "forms",
            "assets",
            "exhibit",
            "store",
        ]),
        why: "feature: the booth maker (`/api/v1/booth_maker`): scenes of uploaded and bought furniture (`store`), submitted for slots (`exhibit`)",
    },
    Rule {
        module: "ingame",
        may: May::Only(&[
            "types",
            "lottery",
            "clock",
            "i18n",
            "error",
            "config",
            "telemetry",
            "db",
            "storage",
            "mail",
            "model",
            "queue",
            "jobs",
            "http",
            "auth",
            "forms",
            "assets",
        ]),
        why: "feature: the in-game API (`/ingame`)",
    },
    Rule {
        module: "api",
        may: May::Only(BELOW_EDGES),
        why: "the JSON API and the helpers that build its OpenAPI parts; never `web`",
    },
    Rule {
        module: "web",
        may: May::Only(BELOW_EDGES),
        why: "locale routing, the page shell, page handlers, the `/auth` browser routes; never `api`",
    },
    Rule {
        module: "account",
        may: May::Only(&[
            "types", "clock", "i18n", "error", "config", "db", "model", "http", "auth", "web", "mail", "queue", "jobs",
        ]),
        why: "the built-in account service (`/account`): its pages use the site's page shell (`web`); it mails \
              password-reset links (`mail`, `jobs`, `queue`)",
    },
    Rule {
        module: "admin",
        may: May::Only(&[
            "types",
            "lottery",
            "clock",
            "i18n",
            "error",
            "config",
            "telemetry",
            "db",
            "storage",
            "mail",
            "model",
            "queue",
            "jobs",
            "http",
            "auth",
            "forms",
            "linkpreview",
            "payments",
            "assets",
            "exhibit",
            "booth",
            "ingame",
            "store",
            "web",
        ]),
        why: "the staff console's facade (`/admin`) and time travel; its HTML pages use `web`'s error page",
    },
    Rule {
        module: "openapi",
        may: May::Only(&[
            "types", "error", "config", "http", "api", "account", "admin", "assets", "booth", "ingame", "store",
        ]),
        why: "the OpenAPI document of every API and `/api-docs`",
    },
    Rule {
        module: "workers",
        may: May::Only(&[
            "types", "lottery", "clock", "error", "config", "db", "mail", "model", "queue", "jobs", "payments",
            "assets", "booth", "ingame", "store",
        ]),
        why: "the worker registry: every job type, each run by a supervised worker",
    },
    Rule {
        module: "app",
        may: May::AllBut(&["cli", "seed", "main"]),
        why: "builds the Rocket instance: state, fairings, mounts, catchers",
    },
    Rule {
        module: "seed",
        may: May::AllBut(&["api", "web", "admin", "openapi", "app", "cli", "main"]),
        why: "`vmarket seed demo`: the demo data",
    },
    Rule {
        module: "cli",
        may: May::AllBut(&["api", "web", "admin", "openapi", "app", "main"]),
        why: "the command line's actions beyond a line",
    },
    Rule { module: "main", may: May::AllBut(NOTHING), why: "the binary (`src/main.rs`): the commands" },
];

/// The rule of `module`.
pub fn rule_of(module: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.module == module)
}
