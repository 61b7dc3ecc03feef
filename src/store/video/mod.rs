//! Housing videos' pure part: the conversion with ffmpeg ([`convert`]), with no database and no
//! clock. Their rows are [`crate::store::model::housing_video`], their job
//! [`crate::store::jobs::ConvertHousingVideo`], their API [`crate::store::api::housing_videos`].

pub mod convert;
