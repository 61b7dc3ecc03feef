//! The Japanese font a PDF receipt is set in. A receipt names people, companies and events in
//! any script a user types, so the font must cover Japanese in full: Noto Sans CJK JP (Debian's
//! `fonts-noto-cjk`) or IPAex Gothic (`fonts-ipaexfont-gothic`), found where Debian installs
//! them, or the file the `receipt_font` setting names. The PDF embeds only the glyphs it uses.
//!
//! Without one the PDF download is off and the receipt page says so (it still prints).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use krilla::Data;
use krilla::text::Font;
use skrifa::instance::{LocationRef, Size};
use skrifa::raw::FileRef;
use skrifa::{FontRef, MetadataProvider};

/// Where Debian installs the fonts we know cover Japanese, best first.
pub const SYSTEM_FONTS: [&str; 3] = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
];

/// A font file read once at start, with the face that covers Japanese.
#[derive(Clone)]
pub struct ReceiptFont {
    data: Arc<Vec<u8>>,
    index: u32,
    /// Where it was read from (for the start-up log).
    pub path: PathBuf,
}

impl std::fmt::Debug for ReceiptFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiptFont").field("path", &self.path).field("index", &self.index).finish()
    }
}

/// The receipt font of this server, if it has one (Rocket state).
#[derive(Debug, Clone, Default)]
pub struct ReceiptFonts(pub Option<ReceiptFont>);

impl ReceiptFonts {
    /// The font `setting` names (an error when it cannot be read or lacks Japanese), else the
    /// first of [`SYSTEM_FONTS`] that is installed and covers Japanese, else none.
    pub fn load(setting: &str) -> Result<Self, String> {
        if !setting.trim().is_empty() {
            return ReceiptFont::read(Path::new(setting.trim())).map(|f| Self(Some(f)));
        }
        Ok(Self(SYSTEM_FONTS.iter().map(Path::new).filter(|p| p.is_file()).find_map(|p| ReceiptFont::read(p).ok())))
    }
}

/// Characters a receipt font must have: kana, common kanji, the yen sign and Latin.
const PROBE: &str = "領収書あアー円税込¥Aa0";

impl ReceiptFont {
    /// Reads `path`: a font file, or a collection whose Japanese face (a family named `… JP`,
    /// else the first that covers Japanese) is used.
    pub fn read(path: &Path) -> Result<Self, String> {
        let data = std::fs::read(path).map_err(|e| format!("receipt font {}: {e}", path.display()))?;
        let count = match FileRef::new(&data).map_err(|e| format!("receipt font {}: {e}", path.display()))? {
            FileRef::Font(_) => 1,
            FileRef::Collection(c) => c.len(),
        };
        let faces: Vec<(u32, FontRef<'_>)> =
            (0..count).filter_map(|i| FontRef::from_index(&data, i).ok().map(|f| (i, f))).collect();
        let japanese = |f: &FontRef<'_>| PROBE.chars().all(|c| f.charmap().map(c).is_some());
        let named_jp = |f: &FontRef<'_>| {
            f.localized_strings(skrifa::string::StringId::FAMILY_NAME)
                .english_or_first()
                .is_some_and(|name| name.chars().collect::<String>().ends_with(" JP"))
        };
        let index = faces
            .iter()
            .find(|(_, f)| named_jp(f) && japanese(f))
            .or_else(|| faces.iter().find(|(_, f)| japanese(f)))
            .map(|(i, _)| *i)
            .ok_or_else(|| format!("receipt font {}: no face covers Japanese", path.display()))?;
        Ok(Self { data: Arc::new(data), index, path: path.to_owned() })
    }

    /// The face for krilla (cheap: the bytes are shared).
    pub fn krilla(&self) -> Option<Font> {
        Font::new(Data::from(self.data.clone()), self.index)
    }

    /// The width of `text` at `size` points, from the face's advances (no kerning: a receipt's
    /// lines are short and the CJK faces have none to speak of).
    pub fn width(&self, text: &str, size: f32) -> f32 {
        let Ok(face) = FontRef::from_index(&self.data, self.index) else { return 0.0 };
        let charmap = face.charmap();
        let metrics = face.glyph_metrics(Size::new(size), LocationRef::default());
        // A character the face lacks is drawn as its .notdef box: a full width at most.
        text.chars().map(|c| charmap.map(c).and_then(|g| metrics.advance_width(g)).unwrap_or(size)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_font_or_lacks_japanese_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let junk = dir.path().join("junk.ttf");
        std::fs::write(&junk, b"not a font at all").unwrap();
        assert!(ReceiptFont::read(&junk).is_err());
        assert!(ReceiptFont::read(&dir.path().join("missing.ttf")).unwrap_err().contains("missing.ttf"));
        assert!(
            ReceiptFonts::load(junk.to_str().unwrap()).is_err(),
            "a setting that names no usable font stops the start"
        );
        // A Latin-only face (scripts/install-test-deps installs fonts-dejavu-core).
        let latin = Path::new("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
        assert!(latin.is_file(), "fonts-dejavu-core (scripts/install-test-deps)");
        assert!(ReceiptFont::read(latin).unwrap_err().contains("no face covers Japanese"));
    }

    #[test]
    fn the_noto_collection_gives_its_japanese_face_and_measures_text() {
        let fonts = ReceiptFonts::load("").unwrap();
        let font = fonts.0.expect("fonts-noto-cjk is installed by scripts/install-test-deps");
        assert_eq!(font.path, Path::new(SYSTEM_FONTS[0]));
        let face = FontRef::from_index(&font.data, font.index).unwrap();
        let name: String =
            face.localized_strings(skrifa::string::StringId::FAMILY_NAME).english_or_first().unwrap().chars().collect();
        assert_eq!(name, "Noto Sans CJK JP");
        // Full-width kana are one em; Latin narrower.
        assert!((font.width("あい", 10.0) - 20.0).abs() < 0.01);
        assert!(font.width("ab", 10.0) < 15.0);
        assert!(font.krilla().is_some());
    }
}
