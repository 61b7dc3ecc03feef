//! A picture field of a console resource and the box its uploads are scaled to fit (the
//! uploads themselves: `images.rs`).

/// A picture field of a resource and the box its uploads are scaled to fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageSlot {
    /// The record's field.
    pub field: &'static str,
    /// Widest stored picture, px.
    pub width: u32,
    /// Tallest stored picture, px.
    pub height: u32,
}

impl ImageSlot {
    /// A key visual or banner: 1920 × 1080.
    pub const fn wide(field: &'static str) -> Self {
        Self { field, width: 1920, height: 1080 }
    }

    /// A thumbnail: 1280 × 720.
    pub const fn thumbnail(field: &'static str) -> Self {
        Self { field, width: 1280, height: 720 }
    }

    /// A logo or icon: at most 1024 px a side.
    pub const fn square(field: &'static str) -> Self {
        Self { field, width: 1024, height: 1024 }
    }

    /// A map or poster, read in detail: at most 2048 px a side.
    pub const fn large(field: &'static str) -> Self {
        Self { field, width: 2048, height: 2048 }
    }
}
