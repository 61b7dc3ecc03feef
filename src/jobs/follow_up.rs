//! Work a web request's write leaves for the workers once its transaction has committed.

use crate::jobs::send_lottery_results::SendLotteryResults;
use crate::jobs::send_mail::SendMail;
use crate::mail::Queued;
use crate::queue::Queue;

/// Work a web request's write leaves for the workers, handed over once its transaction has
/// committed (e.g. by the console's audited writes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowUp {
    /// Deliver a mail stored in the transaction.
    Mail(Queued),
    /// Render and store the result mails a publication of run `.0` left owed.
    LotteryResults(i32),
}

impl FollowUp {
    /// Enqueues the follow-up. A failure is logged, not returned: the work is in the database,
    /// and workers resume it when they start.
    pub async fn push(self, queue: &Queue) {
        match self {
            Self::Mail(mail) => SendMail::push(queue, mail).await,
            Self::LotteryResults(run_id) => SendLotteryResults::after_publish(queue, run_id).await,
        }
    }
}
