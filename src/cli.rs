//! Command-line actions that are more than a line: creating accounts and granting staff roles.

use chrono::{DateTime, Utc};
use clap::Subcommand;
use sea_orm::DatabaseConnection;

use crate::account::store::NewAccount;
use crate::config::Config;
use crate::db::entities::{account, user};
use crate::model::user::{Identity, Role};

/// `vmarket user …`
#[derive(Debug, Subcommand)]
pub enum UserAction {
    /// Create an account (and its user) that can sign in right away.
    Create {
        /// Sign-in email.
        #[arg(long)]
        email: String,
        /// Password (at least 8 characters).
        #[arg(long)]
        password: String,
        /// Staff role: admin, director, uc_staff or qa_tester.
        #[arg(long)]
        role: Option<String>,
        /// Public handle; defaults to the part of the email before `@`.
        #[arg(long)]
        vmarket_id: Option<String>,
        /// Japanese display name; defaults to the handle.
        #[arg(long)]
        name_ja: Option<String>,
        /// English display name; defaults to the handle.
        #[arg(long)]
        name_en: Option<String>,
    },
    /// Give the account with this email a staff role (`none` takes it away).
    GrantRole {
        /// The account's email.
        email: String,
        /// none, admin, director, uc_staff or qa_tester.
        role: String,
    },
}

fn parse_role(raw: &str) -> Result<Role, String> {
    Role::parse(raw).ok_or_else(|| format!("unknown role {raw:?}: use none, admin, director, uc_staff or qa_tester"))
}

/// Runs a `vmarket user` action.
pub async fn user(
    db: &DatabaseConnection,
    config: &Config,
    action: UserAction,
    now: DateTime<Utc>,
) -> Result<(), String> {
    if !config.builtin_sso() {
        return Err("accounts live in the external account service at sso_domain; grant roles there".into());
    }
    match action {
        UserAction::Create { email, password, role, vmarket_id, name_ja, name_en } => {
            let role = role.as_deref().map(parse_role).transpose()?.unwrap_or(Role::None);
            if password.chars().count() < 8 {
                return Err("the password needs at least 8 characters".into());
            }
            let handle = vmarket_id.unwrap_or_else(|| {
                email
                    .split('@')
                    .next()
                    .unwrap_or("user")
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
                    .to_lowercase()
            });
            let new = NewAccount {
                email: email.trim().to_lowercase(),
                password,
                name_ja: name_ja.unwrap_or_else(|| handle.clone()),
                name_en: name_en.unwrap_or_else(|| handle.clone()),
                vmarket_id: handle,
            };
            let created = new.create(db, now).await.map_err(|e| format!("cannot create the account: {}", e.code()))?;
            let product_user = provision(db, &created, now).await?;
            product_user.set_role(db, role, now).await.map_err(|e| e.to_string())?;
            println!("created {} (@{}) with role {:?}", created.email, created.vmarket_id, role);
            Ok(())
        }
        UserAction::GrantRole { email, role } => {
            let role = parse_role(&role)?;
            let found = account::Model::by_email(db, &email)
                .await
                .map_err(|e| e.to_string())?
                .ok_or(format!("no account with email {email}"))?;
            provision(db, &found, now).await?.set_role(db, role, now).await.map_err(|e| e.to_string())?;
            println!("{email} now has role {role:?}");
            Ok(())
        }
    }
}

async fn provision(db: &DatabaseConnection, a: &account::Model, now: DateTime<Utc>) -> Result<user::Model, String> {
    let identity = Identity {
        sub: a.sub.clone(),
        vmarket_id: a.vmarket_id.clone(),
        name_ja: a.name_ja.clone(),
        name_en: a.name_en.clone(),
        email: Some(a.email.clone()),
    };
    user::Model::provision(db, &identity, now).await.map_err(|e| e.to_string())
}

/// A database URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_string(),
    }
}
