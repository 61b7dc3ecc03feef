//! Multipart uploads shared by the API: the form error mapping, reading a temporary file with a
//! size cap, and decoding an image within pixel and memory limits.

use std::io::Cursor;

use rocket::form::Errors;
use rocket::form::error::ErrorKind;
use rocket::fs::TempFile;
use rocket::tokio::io::AsyncReadExt;

use crate::error::{Error, Result};

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

/// Decodes a PNG, JPEG, WebP or GIF of at most 4096 px a side.
pub fn decode_image(bytes: &[u8]) -> std::result::Result<image::DynamicImage, image::ImageError> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes)).with_guessed_format()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(256 * 1024 * 1024);
    reader.limits(limits);
    reader.decode()
}

/// Encodes `img` as PNG.
pub fn png(img: &image::DynamicImage) -> std::result::Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)?;
    Ok(out)
}
