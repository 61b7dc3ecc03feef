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
/// The largest image side accepted before resizing.
const MAX_IMAGE_SIDE: u32 = 4096;

/// The error of a multipart form Rocket could not parse: 413 when a part was over its limit,
/// 400 `malformed_form` otherwise.
pub fn form_error(errors: Errors<'_>) -> Error {
    if errors.iter().any(|e| matches!(e.kind, ErrorKind::InvalidLength { .. })) {
        Error::TooLarge
    } else {
        Error::BadRequest { code: "malformed_form" }
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

/// The most bytes one decoded image may take: 4096 × 4096 RGBA with 8 bits a channel (64 MiB).
/// A 16-bit or float image of that size is refused before it is decoded.
pub const MAX_DECODED_BYTES: u64 = 64 * 1024 * 1024;

/// Why an uploaded image was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageRefusal {
    /// Not a PNG, JPEG, WebP or GIF that decodes.
    Unreadable,
    /// Wider or taller than 4096 px, or more than [`MAX_DECODED_BYTES`] once decoded.
    TooLarge,
}

impl ImageRefusal {
    /// The validation message key for this refusal.
    pub fn message_key(self) -> &'static str {
        match self {
            Self::Unreadable => "validation.image",
            Self::TooLarge => "validation.image_pixels",
        }
    }
}

/// Decodes uploaded images within a memory budget shared by every request (managed state): the
/// header is read first and an image whose decoded size is over the cap is refused without
/// decoding; the others wait for their share of the budget (decoded size × 2 for the working
/// copies), so any number of parallel uploads stays within a fixed bound.
#[derive(Debug)]
pub struct ImageDecoder {
    budget: Arc<Semaphore>,
    budget_mib: u32,
}

impl ImageDecoder {
    /// A decoder that holds at most `budget_mib` MiB of decoded images at once (at least enough
    /// for one image of the largest accepted size).
    pub fn new(budget_mib: u32) -> Self {
        let floor = u32::try_from(2 * MAX_DECODED_BYTES / MIB).unwrap_or(u32::MAX);
        let budget_mib = budget_mib.max(floor);
        Self { budget: Arc::new(Semaphore::new(budget_mib as usize)), budget_mib }
    }

    /// MiB of budget not in use right now.
    pub fn available_mib(&self) -> usize {
        self.budget.available_permits()
    }

    /// Decodes `bytes` and runs `render` on the image on a blocking thread, within the budget.
    pub async fn render<T: Send + 'static>(
        &self,
        bytes: Vec<u8>,
        render: impl FnOnce(image::DynamicImage) -> std::result::Result<T, image::ImageError> + Send + 'static,
    ) -> std::result::Result<T, ImageRefusal> {
        let decoded = probe(&bytes)?;
        let share = u32::try_from((2 * decoded).div_ceil(MIB)).unwrap_or(u32::MAX).clamp(1, self.budget_mib);
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
}

const MIB: u64 = 1024 * 1024;

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

/// Reads the header only: the decoded size in bytes, or why the image is refused.
fn probe(bytes: &[u8]) -> std::result::Result<u64, ImageRefusal> {
    let reader =
        image::ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|_| ImageRefusal::Unreadable)?;
    let decoder = reader.into_decoder().map_err(|_| ImageRefusal::Unreadable)?;
    let (w, h) = image::ImageDecoder::dimensions(&decoder);
    let total = image::ImageDecoder::total_bytes(&decoder);
    if w == 0 || h == 0 {
        return Err(ImageRefusal::Unreadable);
    }
    if w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE || total > MAX_DECODED_BYTES {
        return Err(ImageRefusal::TooLarge);
    }
    Ok(total)
}

/// Decodes a PNG, JPEG, WebP or GIF within the limits above.
fn decode(bytes: &[u8]) -> std::result::Result<image::DynamicImage, image::ImageError> {
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
        assert_eq!(probe(&deep), Ok(8 * MIB), "16-bit RGBA counts 8 bytes a pixel");
        let wide = png_of(image::DynamicImage::ImageLuma8(image::ImageBuffer::new(4097, 1)));
        assert_eq!(probe(&wide), Err(ImageRefusal::TooLarge));
        let tall = png_of(image::DynamicImage::ImageLuma8(image::ImageBuffer::new(1, 4097)));
        assert_eq!(probe(&tall), Err(ImageRefusal::TooLarge));
        assert_eq!(probe(b"not an image"), Err(ImageRefusal::Unreadable));
    }

    #[tokio::test]
    async fn decodes_share_one_budget() {
        let decoder = Arc::new(ImageDecoder::new(0));
        assert_eq!(decoder.available_mib(), 128, "the floor holds one image of the largest size");
        let big = png_of(image::DynamicImage::ImageRgba8(image::ImageBuffer::new(4096, 4096)));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let first = {
            let d = decoder.clone();
            let b = big.clone();
            tokio::spawn(async move {
                d.render(b, move |img| {
                    started_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    Ok(img.width())
                })
                .await
            })
        };
        tokio::task::spawn_blocking(move || started_rx.recv().unwrap()).await.unwrap();
        assert_eq!(decoder.available_mib(), 0, "one 64 MiB image holds the whole budget");
        let small = png_of(image::DynamicImage::ImageRgba8(image::ImageBuffer::new(64, 64)));
        let second = {
            let d = decoder.clone();
            tokio::spawn(async move { d.render(small, |img| Ok(img.width())).await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!second.is_finished(), "the next decode waits for memory");
        release_tx.send(()).unwrap();
        assert_eq!(first.await.unwrap(), Ok(4096));
        assert_eq!(second.await.unwrap(), Ok(64));
        assert_eq!(decoder.available_mib(), 128, "all memory is returned");
    }
}
