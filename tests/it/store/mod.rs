//! The store and the avatar side (issue 31): so far, housing videos ([`housing_videos`]).

mod housing_videos;
