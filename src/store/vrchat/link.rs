//! Linking a VRChat account to a vmarket user (spec §3 "VRChat" account link). VRChat offers no
//! sign-in for other sites, so the user proves the account is theirs the way its owner alone
//! can: vmarket gives them a code ([`start`]), they put it in the account's bio on VRChat, and
//! vmarket reads the bio through VRChat's API ([`verify`]). The code is bound to the user and the
//! account, lasts [`CHALLENGE_MINUTES`] and is used once; an account links to one user at a time
//! and a user to one account (unique keys), so a race of two proofs links at most one. The link
//! keeps the profile as read (display name, icon, bio); unlinking forgets it.

use chrono::{DateTime, Duration, Utc};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, Set, SqlErr,
};
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::entities::{vrchat_account_link, vrchat_link_challenge};
use crate::error::{Error, Result};
use crate::store::vrchat::client::{VrchatClient, VrchatError, VrchatId, VrchatUser};

/// How long a code waits to be put in the bio.
pub const CHALLENGE_MINUTES: i64 = 30;

/// What the code starts with (so that a user sees it is vmarket's).
const CODE_PREFIX: &str = "vmarket-";

/// A linked account as its user sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinkView {
    /// The VRChat account (`usr_…`).
    pub vrchat_id: String,
    /// Its display name.
    pub display_name: String,
    /// Its icon's URL ("" when none).
    pub user_icon: String,
    /// Its bio when last read.
    pub bio: String,
    /// When it was linked.
    pub linked_at: DateTime<Utc>,
}

/// A proof under way.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChallengeView {
    /// The VRChat account being linked.
    pub vrchat_id: String,
    /// Its display name.
    pub display_name: String,
    /// What to put in its bio.
    pub code: String,
    /// Until when.
    pub expires_at: DateTime<Utc>,
}

/// Where a user stands: linked, proving, or neither.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinkState {
    /// The linked account.
    pub link: Option<LinkView>,
    /// A proof under way (none once linked).
    pub challenge: Option<ChallengeView>,
}

impl From<vrchat_account_link::Model> for LinkView {
    fn from(l: vrchat_account_link::Model) -> Self {
        Self {
            vrchat_id: l.vrchat_id,
            display_name: l.display_name,
            user_icon: l.user_icon,
            bio: l.bio,
            linked_at: l.linked_at,
        }
    }
}

impl From<vrchat_link_challenge::Model> for ChallengeView {
    fn from(c: vrchat_link_challenge::Model) -> Self {
        Self { vrchat_id: c.vrchat_id, display_name: c.display_name, code: c.code, expires_at: c.expires_at }
    }
}

/// `user_id`'s link and pending proof (an expired proof is not shown).
pub async fn state(db: &impl ConnectionTrait, user_id: i32, now: DateTime<Utc>) -> Result<LinkState> {
    let link = link_of(db, user_id).await?;
    let challenge = match link {
        Some(_) => None,
        None => challenge_of(db, user_id).await?.filter(|c| c.expires_at > now),
    };
    Ok(LinkState { link: link.map(Into::into), challenge: challenge.map(Into::into) })
}

async fn link_of(db: &impl ConnectionTrait, user_id: i32) -> Result<Option<vrchat_account_link::Model>> {
    Ok(vrchat_account_link::Entity::find().filter(vrchat_account_link::Column::UserId.eq(user_id)).one(db).await?)
}

async fn challenge_of(db: &impl ConnectionTrait, user_id: i32) -> Result<Option<vrchat_link_challenge::Model>> {
    Ok(vrchat_link_challenge::Entity::find().filter(vrchat_link_challenge::Column::UserId.eq(user_id)).one(db).await?)
}

/// A fresh code: the prefix and ten characters no one confuses (no 0/O, 1/l/I).
fn new_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let bytes = rand::random::<[u8; 10]>();
    let tail: String = bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect();
    format!("{CODE_PREFIX}{tail}")
}

/// What a failed profile read means to the user.
fn unavailable(e: VrchatError) -> Error {
    match e {
        VrchatError::NotFound => Error::invalid("vrchat_id", "validation.vrchat_user_not_found"),
        VrchatError::Unavailable => Error::BadGateway { code: "vrchat_unavailable" },
    }
}

/// `raw` (an id or a profile link) read as a VRChat id; 422 on `vrchat_id` otherwise. Read
/// before anything asks VRChat, so that a typo costs no read.
pub fn vrchat_id(raw: &str) -> Result<VrchatId> {
    VrchatId::parse(raw).ok_or_else(|| Error::invalid("vrchat_id", "validation.vrchat_id"))
}

/// Begins `user_id`'s proof that VRChat account `id` is theirs: the account must exist on
/// VRChat and be linked to nobody; a proof begun before is replaced. 422 when VRChat has no such
/// user, 409 `vrchat_already_linked` / `vrchat_account_taken`, 502 `vrchat_unavailable` when
/// VRChat does not answer.
pub async fn start(
    db: &DatabaseConnection,
    client: &VrchatClient,
    user_id: i32,
    id: &VrchatId,
    now: DateTime<Utc>,
) -> Result<ChallengeView> {
    if link_of(db, user_id).await?.is_some() {
        return Err(Error::Conflict { code: "vrchat_already_linked" });
    }
    taken_by_other(db, id.as_str(), user_id).await?;
    let profile = client.user(id).await.map_err(unavailable)?;
    let txn = crate::db::begin_write(db).await?;
    vrchat_link_challenge::Entity::delete_many()
        .filter(vrchat_link_challenge::Column::UserId.eq(user_id))
        .exec(&txn)
        .await?;
    let made = vrchat_link_challenge::ActiveModel {
        user_id: Set(user_id),
        vrchat_id: Set(profile.id.clone()),
        display_name: Set(clip(&profile.display_name, 64)),
        code: Set(new_code()),
        expires_at: Set(now + Duration::minutes(CHALLENGE_MINUTES)),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await
    .map_err(|e| conflict_or(e, "vrchat_link_in_progress"))?;
    txn.commit().await?;
    Ok(made.into())
}

/// 409 `vrchat_account_taken` when account `vrchat_id` is linked to someone other than `user_id`.
async fn taken_by_other(db: &impl ConnectionTrait, vrchat_id: &str, user_id: i32) -> Result<()> {
    let other = vrchat_account_link::Entity::find()
        .filter(vrchat_account_link::Column::VrchatId.eq(vrchat_id))
        .filter(vrchat_account_link::Column::UserId.ne(user_id))
        .one(db)
        .await?;
    if other.is_some() { Err(Error::Conflict { code: "vrchat_account_taken" }) } else { Ok(()) }
}

/// A unique key's refusal as 409 `code`; anything else as it is.
fn conflict_or(e: sea_orm::DbErr, code: &'static str) -> Error {
    if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) { Error::Conflict { code } } else { e.into() }
}

/// At most `max` characters of `s`.
fn clip(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// Finishes `user_id`'s proof: reads the account's profile and, when its bio holds the code,
/// links it (the proof is used up). 409 `vrchat_no_challenge` (none, or expired:
/// `vrchat_challenge_expired`), `vrchat_code_not_in_bio` (nothing changes: put it in and try
/// again), `vrchat_account_taken`; 502 `vrchat_unavailable`.
pub async fn verify(
    db: &DatabaseConnection,
    client: &VrchatClient,
    user_id: i32,
    now: DateTime<Utc>,
) -> Result<LinkView> {
    let challenge = challenge_of(db, user_id).await?.ok_or(Error::Conflict { code: "vrchat_no_challenge" })?;
    if challenge.expires_at <= now {
        return Err(Error::Conflict { code: "vrchat_challenge_expired" });
    }
    let id = VrchatId::parse(&challenge.vrchat_id).ok_or(Error::Conflict { code: "vrchat_no_challenge" })?;
    let profile = client.user(&id).await.map_err(|e| match e {
        VrchatError::NotFound => Error::Conflict { code: "vrchat_user_gone" },
        VrchatError::Unavailable => Error::BadGateway { code: "vrchat_unavailable" },
    })?;
    if !profile.bio.contains(&challenge.code) {
        return Err(Error::Conflict { code: "vrchat_code_not_in_bio" });
    }
    link(db, user_id, &challenge, &profile, now).await
}

/// Uses `challenge` up and links its account to `user_id`, in one transaction: a second proof
/// racing this one finds the challenge gone, and the unique keys refuse a second link.
async fn link(
    db: &DatabaseConnection,
    user_id: i32,
    challenge: &vrchat_link_challenge::Model,
    profile: &VrchatUser,
    now: DateTime<Utc>,
) -> Result<LinkView> {
    let txn = crate::db::begin_write(db).await?;
    let used = vrchat_link_challenge::Entity::delete_many()
        .filter(vrchat_link_challenge::Column::Id.eq(challenge.id))
        .exec(&txn)
        .await?;
    if used.rows_affected != 1 {
        return Err(Error::Conflict { code: "vrchat_no_challenge" });
    }
    taken_by_other(&txn, &profile.id, user_id).await?;
    let made = vrchat_account_link::ActiveModel {
        user_id: Set(user_id),
        vrchat_id: Set(profile.id.clone()),
        display_name: Set(clip(&profile.display_name, 64)),
        user_icon: Set(profile.icon().to_string()),
        bio: Set(profile.bio.clone()),
        linked_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await
    .map_err(|e| conflict_or(e, "vrchat_account_taken"))?;
    txn.commit().await?;
    Ok(made.into())
}

/// Forgets `user_id`'s link and any proof under way; 404 when there was neither.
pub async fn unlink(db: &impl ConnectionTrait, user_id: i32) -> Result<()> {
    let links = vrchat_account_link::Entity::delete_many()
        .filter(vrchat_account_link::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    let proofs = vrchat_link_challenge::Entity::delete_many()
        .filter(vrchat_link_challenge::Column::UserId.eq(user_id))
        .exec(db)
        .await?;
    if links.rows_affected + proofs.rows_affected == 0 { Err(Error::not_found()) } else { Ok(()) }
}
