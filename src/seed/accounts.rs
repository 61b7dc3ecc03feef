//! Demo sign-in accounts (`data/accounts.json`): accounts of the built-in account service that
//! sign in with the one demo password of the file, made by the same code as `vmarket user
//! create` ([`create_sign_in_account`]). An entry either links to a demo user of `users.json`
//! (`user`: the account signs in as that user, so what the demo shows of them is theirs) or
//! brings a new user (`handle`, `name_ja`, `name_en`). Token subjects are fixed
//! (`demo-hub-{handle}` of the linked user, `demo-account-{handle}` otherwise), so a second run
//! finds every account by email and changes nothing. Never written in production.

use chrono::{DateTime, Utc};
use sea_orm::ConnectionTrait;
use serde::Deserialize;

use super::data::{self, Keys, Reader, Source};
use crate::account::provision::create_sign_in_account;
use crate::account::store::NewAccount;
use crate::db::entities::account;
use crate::error::Result;
use crate::model::user::Role;

/// The file.
const FILE: Source = Source { name: "accounts.json", text: include_str!("data/accounts.json") };

/// The contents of `accounts.json`.
pub struct Accounts {
    /// The password of every demo account (documented in the README).
    password: String,
    accounts: Vec<AccountSeed>,
}

/// One demo sign-in account.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AccountSeed {
    email: String,
    role: Role,
    /// A handle of `users.json` to sign in as.
    #[serde(default)]
    user: Option<String>,
    /// The handle of a new user (with `name_ja` and `name_en`).
    #[serde(default)]
    handle: Option<String>,
    #[serde(default)]
    name_ja: Option<String>,
    #[serde(default)]
    name_en: Option<String>,
}

/// Reads `accounts.json`.
pub fn load() -> Result<Accounts> {
    let mut file = Reader::open(FILE)?;
    let password: String = file.value("password")?;
    let accounts: Vec<AccountSeed> = file.list("accounts")?;
    file.finish()?;
    if password.chars().count() < 8 {
        return Err(data::fail(FILE.name, "the password needs at least 8 characters (as `vmarket user create`)"));
    }
    for (i, a) in accounts.iter().enumerate() {
        let new_user = (&a.handle, &a.name_ja, &a.name_en);
        let ok = matches!((&a.user, new_user), (Some(_), (None, None, None)) | (None, (Some(_), Some(_), Some(_))));
        if !ok {
            let problem = "give either `user` (a demo user) or `handle`, `name_ja` and `name_en` (a new user)";
            return Err(data::bad_entry(FILE.name, "accounts", i, problem));
        }
    }
    Ok(Accounts { password, accounts })
}

impl Accounts {
    /// Checks that every linked user is a demo user.
    pub fn check(&self, keys: &Keys) -> Result<()> {
        for (i, a) in self.accounts.iter().enumerate() {
            if let Some(user) = &a.user {
                data::known(keys.users.contains(user), FILE.name, "accounts", i, format_args!("user `{user}`"))?;
            }
        }
        Ok(())
    }

    /// The emails of the demo accounts, in file order.
    pub fn emails(&self) -> Vec<String> {
        self.accounts.iter().map(|a| a.email.clone()).collect()
    }
}

/// Writes the missing demo accounts (after the demo users); returns the emails written.
pub async fn seed(db: &impl ConnectionTrait, accounts: &Accounts, now: DateTime<Utc>) -> Result<Vec<String>> {
    let mut created = Vec::new();
    for a in &accounts.accounts {
        if account::Model::by_email(db, &a.email).await?.is_some() {
            continue;
        }
        let (new, sub) = match &a.user {
            Some(handle) => {
                let sub = format!("demo-hub-{handle}");
                let user = crate::db::entities::user::Model::by_sub(db, &sub)
                    .await?
                    .ok_or_else(|| data::fail(FILE.name, format_args!("demo user `{handle}` is not written yet")))?;
                (new_account(a, &accounts.password, handle, (user.name_ja, user.name_en)), sub)
            }
            None => {
                let handle = a.handle.clone().unwrap_or_default();
                let names = (a.name_ja.clone().unwrap_or_default(), a.name_en.clone().unwrap_or_default());
                (new_account(a, &accounts.password, &handle, names), format!("demo-account-{handle}"))
            }
        };
        create_sign_in_account(db, new, Some(&sub), a.role, now).await?;
        created.push(a.email.clone());
    }
    Ok(created)
}

fn new_account(a: &AccountSeed, password: &str, handle: &str, (name_ja, name_en): (String, String)) -> NewAccount {
    NewAccount {
        email: a.email.trim().to_lowercase(),
        password: password.to_string(),
        vmarket_id: handle.to_string(),
        name_ja,
        name_en,
    }
}
