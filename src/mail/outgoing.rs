//! What a mail is before it is rendered: its kind (which templates) and its recipient, language
//! and values ([`Outgoing`]).

use serde_json::Value;

use crate::types::Lang;

/// A kind of mail. Each has three templates under `templates/mail/<name>/`: `subject.txt.tera`,
/// `text.txt.tera` and `html.html.tera` (which extend `templates/mail/layout_text.txt.tera` /
/// `layout.html.tera`).
///
/// Adding one: a variant here, its name in [`MailKind::name`], its templates in
/// `render::sources`, and its strings under `mail.<name>` in both locale files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailKind {
    /// `vmarket mail test`: shows that mail delivery works.
    Test,
    /// To an invitee: a circle's owner invites them.
    CircleInvited,
    /// To a circle's owner: an invitee joined.
    CircleApproved,
    /// To a circle's owner: an invitee declined.
    CircleWithdrawn,
    /// To an invitee: the owner took the invitation back.
    CircleCancelled,
    /// To a former member: the owner removed them.
    CircleRemoved,
    /// To a circle's owner: a member left.
    CircleLeft,
    /// To an account: the link that sets a new password (30 minutes, once).
    PasswordReset,
    /// To an entry's circle owner: a published draw gave the entry a slot (plan, fee, deadline).
    LotteryWon,
    /// To an entry's circle owner: a published draw gave the entry no slot (and what comes next).
    LotteryLost,
    /// To an entry's circle owner: a published draw left the entry out, its circle being
    /// suspended (its wishes `incorrect`).
    LotteryIncorrect,
    /// To a payer: their payment was settled (the receipt: event, plan, amount, provider,
    /// transaction, when, and a link to the printable receipt).
    PaymentReceipt,
    /// To a slot's circle owner: staff inspected their booth submission (passed, or what to fix).
    SubmissionInspected,
    /// To a circle's owner: staff suspended the circle (with the reason) or lifted the
    /// suspension (`suspended` in the context says which).
    CircleSuspended,
    /// To a box submission's owner: staff approved it, rejected it (with the reason) or put it on
    /// display (`outcome` in the context says which).
    BoxSubmissionReviewed,
}

impl MailKind {
    /// Every kind.
    pub const ALL: [MailKind; 15] = [
        MailKind::Test,
        MailKind::CircleInvited,
        MailKind::CircleApproved,
        MailKind::CircleWithdrawn,
        MailKind::CircleCancelled,
        MailKind::CircleRemoved,
        MailKind::CircleLeft,
        MailKind::PasswordReset,
        MailKind::LotteryWon,
        MailKind::LotteryLost,
        MailKind::LotteryIncorrect,
        MailKind::PaymentReceipt,
        MailKind::SubmissionInspected,
        MailKind::CircleSuspended,
        MailKind::BoxSubmissionReviewed,
    ];

    /// The template name, stored in `mails.kind`; never rename one.
    pub fn name(self) -> &'static str {
        match self {
            Self::Test => "test",
            Self::CircleInvited => "circle_invited",
            Self::CircleApproved => "circle_approved",
            Self::CircleWithdrawn => "circle_withdrawn",
            Self::CircleCancelled => "circle_cancelled",
            Self::CircleRemoved => "circle_removed",
            Self::CircleLeft => "circle_left",
            Self::PasswordReset => "password_reset",
            Self::LotteryWon => "lottery_won",
            Self::LotteryLost => "lottery_lost",
            Self::LotteryIncorrect => "lottery_incorrect",
            Self::PaymentReceipt => "payment_receipt",
            Self::SubmissionInspected => "submission_inspected",
            Self::CircleSuspended => "circle_suspended",
            Self::BoxSubmissionReviewed => "box_submission_reviewed",
        }
    }
}

/// One mail to send: to whom, in which language, which kind, and the values its templates use.
#[derive(Debug, Clone, PartialEq)]
pub struct Outgoing {
    /// The recipient's address (`someone@example.com`).
    pub to: String,
    /// The recipient's language: the mail is rendered in it.
    pub lang: Lang,
    /// Which templates.
    pub kind: MailKind,
    /// A JSON object whose keys the templates read (`null` for none). The keys `lang`,
    /// `site_url`, `queued_at` and `subject` are set by the mailer.
    pub context: Value,
}
