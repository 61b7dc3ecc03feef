//! Multipart uploads shared by the API and the pages: the form error mapping, reading a temporary file with a
//! size cap, and decoding images within pixel and memory limits ([`ImageDecoder`]).

use std::io::Cursor;
use std::sync::Arc;

use rocket::form::Errors;
use rocket::form::error::ErrorKind;
use rocket::fs::TempFile;
use rocket::tokio::io::AsyncReadExt;
use tokio::sync::Semaphore;

use crate::error::{Error, Result};
use crate::storage::Storage;

/// The largest image upload accepted (icons, thumbnails).
pub const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024;
use super::image_cost::{Cost, cost};
pub use super::image_cost::{ImageRefusal, MAX_DECODED_BYTES, MAX_SIDE as MAX_IMAGE_SIDE};

/// The error of a multipart form Rocket could not parse: 413 when a part was over its limit,
/// 400 `malformed_form` otherwise.
pub fn form_error(errors: Errors<'_>) -> Error {
    if errors.iter().any(|e| matches!(e.kind, ErrorKind::InvalidLength { .. })) {
        Error::TooLarge
    } else {
        Error::BadRequest { code: "malformed_form" }
    }
}

/// `error` as the form shows it beside picture field `field`: a picture over the size cap (413,
/// from the form limits or [`read_image`]) becomes 422 `validation.image_too_large` there;
/// anything else stays as it is.
pub fn too_large_at(field: &str, error: Error) -> Error {
    match error {
        Error::TooLarge => Error::invalid(field, "validation.image_too_large"),
        other => other,
    }
}

/// The bytes of an uploaded image: 413 over [`MAX_IMAGE_BYTES`].
pub async fn read_image(file: &TempFile<'_>) -> Result<Vec<u8>> {
    if file.len() > MAX_IMAGE_BYTES {
        return Err(Error::TooLarge);
    }
    let mut bytes = Vec::new();
    let reader = file.open().await.map_err(|e| Error::Internal(format!("upload: {e}")))?;
    reader
        .take(MAX_IMAGE_BYTES + 1)
        .read_to_end(&mut bytes)
        .await
        .map_err(|e| Error::Internal(format!("upload: {e}")))?;
    if bytes.len() as u64 > MAX_IMAGE_BYTES {
        return Err(Error::TooLarge);
    }
    Ok(bytes)
}

/// The bytes of the picture `file` sent for form field `field`: 422 there when none came
/// (`validation.required`) or it is over the size cap (`validation.image_too_large`).
pub async fn read_picture(field: &str, file: Option<&TempFile<'_>>) -> Result<Vec<u8>> {
    let file = file.filter(|f| f.len() > 0).ok_or_else(|| Error::invalid(field, "validation.required"))?;
    read_image(file).await.map_err(|e| too_large_at(field, e))
}

/// Decodes uploaded images within a memory budget shared by every request (managed state): the
/// image's structure is read first ([`super::image_cost`]) and an image whose decoded size is
/// over the cap — or whose frames lie outside its screen — is refused without decoding; the
/// others wait until the budget has room for what decoding and rendering them really takes, so
/// any number of parallel uploads stays within a fixed bound.
#[derive(Debug)]
pub struct ImageDecoder {
    budget: Arc<Semaphore>,
    budget_mib: u32,
}

impl ImageDecoder {
    /// A decoder that holds at most `budget_mib` MiB of decoded images at once (at least 128).
    pub fn new(budget_mib: u32) -> Self {
        let budget_mib = budget_mib.max(MIN_BUDGET_MIB);
        Self { budget: Arc::new(Semaphore::new(budget_mib as usize)), budget_mib }
    }

    /// MiB of budget not in use right now.
    pub fn available_mib(&self) -> usize {
        self.budget.available_permits()
    }

    /// Decodes `bytes` and runs `render` on the image on a blocking thread, within the budget.
    /// `render` makes pictures of at most `max_side` pixels a side with [`fit`] or [`fill`] (up
    /// to three, each PNG-encoded): that is what the image is charged for. An image whose charge
    /// is more than the whole budget is refused as too large.
    pub async fn render<T: Send + 'static>(
        &self,
        bytes: Vec<u8>,
        max_side: u32,
        render: impl FnOnce(image::DynamicImage) -> std::result::Result<T, image::ImageError> + Send + 'static,
    ) -> std::result::Result<T, ImageRefusal> {
        let share = self.share(&cost(&bytes)?, max_side)?;
        let permit = self.budget.clone().acquire_many_owned(share).await.map_err(|_| ImageRefusal::Unreadable)?;
        let result = tokio::task::spawn_blocking(move || {
            let _held = permit;
            decode(&bytes).and_then(render)
        })
        .await;
        match result {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(image::ImageError::Limits(_))) => Err(ImageRefusal::TooLarge),
            _ => Err(ImageRefusal::Unreadable),
        }
    }

    /// The MiB of budget an image of `cost` takes, rendered at `max_side`.
    pub(crate) fn share(&self, cost: &Cost, max_side: u32) -> std::result::Result<u32, ImageRefusal> {
        let mib = u32::try_from(cost.with_render(max_side).div_ceil(MIB)).unwrap_or(u32::MAX).max(1);
        if mib > self.budget_mib { Err(ImageRefusal::TooLarge) } else { Ok(mib) }
    }
}

/// The smallest decode budget: room for the largest image the server accepts, decoded and
/// rendered at the console's largest picture size (2048 px).
pub const MIN_BUDGET_MIB: u32 = 128;

const MIB: u64 = 1024 * 1024;

/// `img` scaled down (never up) to fit inside `width` × `height`, keeping its aspect ratio, by
/// area averaging: it allocates only the picture (a Lanczos resize held the whole source height
/// in 32-bit float RGBA, 128 MiB for 4096 px scaled to 2048).
pub fn fit(img: &image::DynamicImage, width: u32, height: u32) -> image::DynamicImage {
    if img.width() <= width && img.height() <= height {
        return img.clone();
    }
    img.thumbnail(width, height)
}

/// `img` scaled to cover `side` × `side` and cropped to it at the centre (icons). A smaller image
/// is scaled up.
pub fn fill(img: &image::DynamicImage, side: u32) -> image::DynamicImage {
    let (w, h) = (u64::from(img.width()), u64::from(img.height()));
    let scale = |long: u64, short: u64| u32::try_from((long * u64::from(side)).div_ceil(short.max(1))).unwrap_or(side);
    let (sw, sh) = if w >= h { (scale(w, h).max(side), side) } else { (side, scale(h, w).max(side)) };
    let scaled = if sw <= img.width() && sh <= img.height() {
        img.thumbnail_exact(sw, sh)
    } else {
        img.resize_exact(sw, sh, image::imageops::FilterType::Triangle)
    };
    scaled.crop_imm((sw - side) / 2, (sh - side) / 2, side, side)
}

/// Where uploads go and how their images are decoded: the request guard upload handlers take.
pub struct Uploads<'r> {
    /// The object store.
    pub storage: &'r Storage,
    /// The shared image decoder.
    pub images: &'r ImageDecoder,
}

#[rocket::async_trait]
impl<'r> rocket::request::FromRequest<'r> for Uploads<'r> {
    type Error = ();

    async fn from_request(req: &'r rocket::Request<'_>) -> rocket::request::Outcome<Self, ()> {
        match (req.rocket().state::<Storage>(), req.rocket().state::<ImageDecoder>()) {
            (Some(storage), Some(images)) => rocket::request::Outcome::Success(Uploads { storage, images }),
            _ => rocket::request::Outcome::Error((rocket::http::Status::InternalServerError, ())),
        }
    }
}

/// Decodes a PNG, JPEG, WebP or GIF within the limits above.
pub(crate) fn decode(bytes: &[u8]) -> std::result::Result<image::DynamicImage, image::ImageError> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes)).with_guessed_format()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODED_BYTES + 16 * MIB);
    reader.limits(limits);
    reader.decode()
}

/// Encodes `img` as PNG.
pub fn png(img: &image::DynamicImage) -> std::result::Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(img: image::DynamicImage) -> Vec<u8> {
        let mut out = Vec::new();
        img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
        out
    }

    #[test]
    fn oversized_images_are_refused_from_their_header() {
        let deep = png_of(image::DynamicImage::ImageRgba16(image::ImageBuffer::new(1024, 1024)));
        assert_eq!(cost(&deep).map(|c| c.output), Ok(8 * MIB), "16-bit RGBA counts 8 bytes a pixel");
        let wide = png_of(image::DynamicImage::ImageLuma8(image::ImageBuffer::new(4097, 1)));
        assert_eq!(cost(&wide), Err(ImageRefusal::TooLarge));
        let tall = png_of(image::DynamicImage::ImageLuma8(image::ImageBuffer::new(1, 4097)));
        assert_eq!(cost(&tall), Err(ImageRefusal::TooLarge));
        assert_eq!(cost(b"not an image"), Err(ImageRefusal::Unreadable));
    }

    #[test]
    fn pictures_fit_and_fill_their_box() {
        let wide = image::DynamicImage::ImageRgba8(image::ImageBuffer::new(4000, 1000));
        assert_eq!((fit(&wide, 640, 640).width(), fit(&wide, 640, 640).height()), (640, 160));
        assert_eq!((fit(&wide, 5000, 5000).width(), fit(&wide, 5000, 5000).height()), (4000, 1000), "never up");
        for (img, side) in
            [(&wide, 256), (&wide, 64), (&image::DynamicImage::ImageRgba8(image::ImageBuffer::new(30, 50)), 128)]
        {
            let icon = fill(img, side);
            assert_eq!((icon.width(), icon.height()), (side, side));
        }
    }

    #[tokio::test]
    async fn decodes_share_one_budget() {
        let decoder = Arc::new(ImageDecoder::new(0));
        assert_eq!(decoder.available_mib(), 128, "the floor");
        let big = png_of(image::DynamicImage::ImageRgba8(image::ImageBuffer::new(4096, 4096)));
        let share = decoder.share(&cost(&big).unwrap(), 256).unwrap();
        assert_eq!(share, 69, "64 MiB decoded, the decoder's rows and tables, the icons");
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let first = {
            let d = decoder.clone();
            let b = big.clone();
            tokio::spawn(async move {
                d.render(b, 256, move |img| {
                    started_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    Ok(img.width())
                })
                .await
            })
        };
        tokio::task::spawn_blocking(move || started_rx.recv().unwrap()).await.unwrap();
        assert_eq!(decoder.available_mib(), 128 - 69);
        let second = {
            let d = decoder.clone();
            tokio::spawn(async move { d.render(big, 256, |img| Ok(img.width())).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!second.is_finished(), "the next decode waits for memory");
        release_tx.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(4096));
        assert_eq!(second.await.unwrap(), Ok(4096));
        assert_eq!(decoder.available_mib(), 128, "all memory is returned");
    }
}
