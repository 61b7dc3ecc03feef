//! Background jobs of mail, inquiries and the lottery: serializable structs, one per file, run by
//! the workers (`crate::workers`) from the job queue (`crate::queue`); request handlers only
//! enqueue them. The jobs of payments live in `crate::payments::jobs`, and each feature keeps its
//! own in its `jobs` module.

pub mod cache_purge;
pub mod follow_up;
pub mod forward_inquiry;
pub mod lottery;
pub mod send_lottery_results;
pub mod send_mail;

pub use follow_up::FollowUp;
pub use forward_inquiry::ForwardInquiry;
pub use lottery::{LotteryClock, PreviewLottery, PublishLottery};
pub use send_lottery_results::SendLotteryResults;
pub use send_mail::SendMail;
