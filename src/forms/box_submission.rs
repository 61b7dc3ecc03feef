//! A box submission as its owner writes it (issue 31): `POST /api/v1/store/box_submissions` and
//! `PUT …/{uuid}` (JSON) and the mypage form fill the same [`BoxSubmissionInput`], checked the
//! one way: the avatar asset, a pose and a face from the lists, a name and an author, an
//! optional http(s) website and a comment. The asset (the user's own uploaded avatar) is checked
//! against the database by `crate::store::model::box_submission`.

use rocket::form::FromForm;
use serde::Deserialize;
use utoipa::ToSchema;
use validator::Validate;

use crate::error::Result;
use crate::forms::checks;
use crate::forms::{Input, Problems, given as text, whole_number};

/// The poses a box shows an avatar in (`pose_id`), as their message keys name them.
pub const POSES: [&str; 4] = ["standing", "sitting", "waving", "peace"];
/// The faces a box shows an avatar with (`face_id`).
pub const FACES: [&str; 4] = ["smile", "calm", "wink", "surprised"];
/// Longest name or author, in characters.
pub const NAME_MAX: u64 = 64;
/// Longest comment, in characters.
pub const COMMENT_MAX: u64 = 1000;

/// A box submission's fields as its owner sends them.
#[derive(Debug, Clone, Default, Deserialize, Validate, ToSchema)]
#[serde(default)]
pub struct BoxSubmissionInput {
    /// The user's uploaded `avatar` asset (its newest uploaded version is submitted).
    #[validate(required(code = "required"), range(min = 1, code = "positive_integer"))]
    pub asset_id: Option<i64>,
    /// 1–4: standing, sitting, waving, peace sign.
    #[validate(required(code = "required"), range(min = 1, max = 4, code = "invalid_choice"))]
    pub pose_id: Option<i64>,
    /// 1–4: smile, calm, wink, surprised.
    #[validate(required(code = "required"), range(min = 1, max = 4, code = "invalid_choice"))]
    pub face_id: Option<i64>,
    /// The avatar's name as the box shows it, 1–64 characters.
    #[validate(
        required(code = "required"),
        length(max = NAME_MAX, code = "too_long"),
        custom(function = "checks::not_blank"),
        custom(function = "checks::clean_text")
    )]
    pub name: Option<String>,
    /// Who made it, 1–64 characters.
    #[validate(
        required(code = "required"),
        length(max = NAME_MAX, code = "too_long"),
        custom(function = "checks::not_blank"),
        custom(function = "checks::clean_text")
    )]
    pub author: Option<String>,
    /// The author's site (http or https), optional.
    #[validate(custom(function = "checks::http_url"))]
    pub website: Option<String>,
    /// A word to staff and visitors, up to 1000 characters.
    #[validate(length(max = COMMENT_MAX, code = "too_long"), custom(function = "checks::clean_text"))]
    pub comment: Option<String>,
}

impl Input for BoxSubmissionInput {
    const FIELDS: &'static [&'static str] = &["asset_id", "pose_id", "face_id", "name", "author", "website", "comment"];
}

/// The mypage form's raw fields.
#[derive(Debug, Default, FromForm)]
pub struct BoxSubmissionForm {
    /// The page form's CSRF token.
    pub csrf_token: Option<String>,
    /// Raw `asset_id`.
    pub asset_id: Option<String>,
    /// Raw `pose_id`.
    pub pose_id: Option<String>,
    /// Raw `face_id`.
    pub face_id: Option<String>,
    /// Raw `name`.
    pub name: Option<String>,
    /// Raw `author`.
    pub author: Option<String>,
    /// Raw `website`.
    pub website: Option<String>,
    /// Raw `comment`.
    pub comment: Option<String>,
}

impl BoxSubmissionForm {
    /// The typed input, and the fields whose text was not a number where one goes.
    pub fn input(&self) -> (BoxSubmissionInput, Vec<(&'static str, &'static str)>) {
        let mut wrong = Vec::new();
        let mut number = |field: &'static str, raw: &Option<String>| {
            whole_number(raw, field, "validation.invalid_choice", &mut wrong)
        };
        let input = BoxSubmissionInput {
            asset_id: number("asset_id", &self.asset_id),
            pose_id: number("pose_id", &self.pose_id),
            face_id: number("face_id", &self.face_id),
            name: text(&self.name),
            author: text(&self.author),
            website: text(&self.website),
            comment: text(&self.comment),
        };
        (input, wrong)
    }
}

/// A checked box submission: what the model writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxSubmissionFields {
    /// The avatar asset.
    pub asset_id: i32,
    /// 1–4.
    pub pose_id: i32,
    /// 1–4.
    pub face_id: i32,
    /// Name.
    pub name: String,
    /// Author.
    pub author: String,
    /// Website ("" when none).
    pub website: String,
    /// Comment ("" when none).
    pub comment: String,
}

/// Checks `input` (with `wrong`, the fields a form could not read): the fields to write, or 422
/// `validation_failed` with every problem by field.
pub fn check(input: &BoxSubmissionInput, wrong: &[(&'static str, &'static str)]) -> Result<BoxSubmissionFields> {
    let mut problems = Problems::of(input);
    for (field, key) in wrong {
        if !problems.has(field) {
            problems.fail(field, key);
        }
    }
    problems.into_result()?;
    let small = |n: Option<i64>| n.and_then(|n| i32::try_from(n).ok()).unwrap_or(0);
    let trimmed = |v: &Option<String>| v.as_deref().map(str::trim).unwrap_or_default().to_string();
    Ok(BoxSubmissionFields {
        asset_id: small(input.asset_id),
        pose_id: small(input.pose_id),
        face_id: small(input.face_id),
        name: trimmed(&input.name),
        author: trimmed(&input.author),
        website: trimmed(&input.website),
        comment: trimmed(&input.comment),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(input: &BoxSubmissionInput) -> Vec<String> {
        match check(input, &[]) {
            Ok(_) => Vec::new(),
            Err(crate::error::Error::Validation(found)) => found.into_iter().map(|i| i.attribute).collect(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_field_is_checked_in_the_forms_order() {
        assert_eq!(fields(&BoxSubmissionInput::default()), ["asset_id", "pose_id", "face_id", "name", "author"]);
        let bad = BoxSubmissionInput {
            asset_id: Some(0),
            pose_id: Some(5),
            face_id: Some(0),
            name: Some(" ".into()),
            author: Some("a".repeat(65)),
            website: Some("javascript:alert(1)".into()),
            comment: Some("c".repeat(1001)),
        };
        assert_eq!(fields(&bad), ["asset_id", "pose_id", "face_id", "name", "author", "website", "comment"]);
        let good = BoxSubmissionInput {
            asset_id: Some(3),
            pose_id: Some(1),
            face_id: Some(4),
            name: Some(" こはく ".into()),
            author: Some("ともしび工房".into()),
            website: Some("https://example.com/".into()),
            comment: None,
        };
        let checked = check(&good, &[]).unwrap();
        assert_eq!((checked.name.as_str(), checked.comment.as_str()), ("こはく", ""));
    }
}
