//! The uploader's background jobs: [`pipeline::AssetPipeline`] runs the pipeline of one version;
//! [`sweep::UploadSweep`] expires unfinished uploads, drops unused one-shot uploads and frees
//! the files of assets deleted past their grace period, once a minute by the application clock.

pub mod pipeline;
pub mod sweep;

pub use pipeline::AssetPipeline;
pub use sweep::UploadSweep;
