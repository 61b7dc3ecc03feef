//! What an analyser or a rule found: a stable [`Code`], a [`Severity`], where (a JSON pointer
//! into the glTF JSON or a byte offset) and the limit and actual values.
//!
//! A finding carries no text. The report turns each code into the locale keys
//! `asset_report.<code>.message` and `asset_report.<code>.solution` (see [`Code::message_key`]),
//! which the application translates at the edge with `{limit}` and `{actual}` filled in.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How bad a finding is. In a rule set it is written `"error"`, `"warning"` or `"info"`; in the
/// report, like glTF-Validator's, as a number (0 error, 1 warning, 2 info).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The version fails.
    Error,
    /// Shown to the owner and to staff; the version still passes.
    Warning,
    /// Information only.
    Info,
}

impl Severity {
    /// The report's number: 0 error, 1 warning, 2 info.
    pub fn number(self) -> u8 {
        match self {
            Self::Error => 0,
            Self::Warning => 1,
            Self::Info => 2,
        }
    }
}

/// Where a finding is: a JSON pointer (RFC 6901) into the glTF JSON, or a byte offset in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// A JSON pointer such as `/accessors/3`.
    Pointer(String),
    /// A byte offset from the start of the file.
    Offset(u64),
}

/// One finding, before it becomes a report message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The stable code.
    pub code: Code,
    /// How bad it is.
    pub severity: Severity,
    /// Where, when known.
    pub location: Option<Location>,
    /// The limit that was crossed (a number, or a language-neutral string such as `2 × 2 × 2`).
    pub limit: Option<Value>,
    /// The value found.
    pub actual: Option<Value>,
}

impl Finding {
    /// An error without location or values.
    pub fn error(code: Code) -> Self {
        Self { code, severity: Severity::Error, location: None, limit: None, actual: None }
    }

    /// A warning without location or values.
    pub fn warning(code: Code) -> Self {
        Self { severity: Severity::Warning, ..Self::error(code) }
    }

    /// The same finding with another severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The same finding at a JSON pointer.
    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.location = Some(Location::Pointer(pointer.into()));
        self
    }

    /// The same finding at a byte offset.
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.location = Some(Location::Offset(offset));
        self
    }

    /// The same finding with its limit and actual values.
    pub fn values(mut self, limit: impl Into<Value>, actual: impl Into<Value>) -> Self {
        self.limit = Some(limit.into());
        self.actual = Some(actual.into());
        self
    }

    /// The same finding with only its actual value.
    pub fn actual(mut self, actual: impl Into<Value>) -> Self {
        self.actual = Some(actual.into());
        self
    }
}

macro_rules! codes {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// The stable code of a finding; its snake_case name is the locale key's middle part.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Code {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Code {
            /// Every code, in declaration order (the locale files hold a key pair for each).
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// The snake_case name, as serialised.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }
        }
    };
}

codes! {
    /// The file has no bytes.
    EmptyFile => "empty_file",
    /// The bytes are of no kind the analysers know.
    UnknownKind => "unknown_kind",
    /// The bytes claim a kind but cannot be read as it (`actual`: the parser's reason).
    Unreadable => "unreadable",
    /// The file is larger than the rule set's or the analyser's byte limit.
    BytesOverLimit => "bytes_over_limit",
    /// The GLB container (header or chunks) is malformed; `offset` points at the bad field.
    GlbInvalid => "glb_invalid",
    /// The glTF JSON is larger than the analyser's ceiling.
    JsonChunkOverLimit => "json_chunk_over_limit",
    /// The glTF JSON breaks the glTF 2.0 schema (a missing field, an index out of range, …).
    GltfInvalid => "gltf_invalid",
    /// More elements of one kind (the pointer names the array) than the analyser accepts.
    GltfTooComplex => "gltf_too_complex",
    /// A buffer declares more bytes than the file holds for it.
    BufferOutOfRange => "buffer_out_of_range",
    /// A buffer view reaches past the end of its buffer.
    BufferViewOutOfRange => "buffer_view_out_of_range",
    /// An accessor reaches past the end of its buffer view.
    AccessorOutOfRange => "accessor_out_of_range",
    /// The glTF refers to another file, which an upload cannot carry.
    ExternalUri => "external_uri",
    /// A node is reached twice (a cycle, or two parents).
    NodeHierarchyInvalid => "node_hierarchy_invalid",
    /// An embedded texture's header cannot be read.
    TextureUnreadable => "texture_unreadable",
    /// An image declares dimensions over the analyser's ceiling.
    ImageDimensionsOverLimit => "image_dimensions_over_limit",
    /// A sound is longer than the analyser's ceiling.
    AudioDurationOverLimit => "audio_duration_over_limit",
    /// The archive has more entries than the analyser accepts.
    ZipTooManyEntries => "zip_too_many_entries",
    /// The archive declares more uncompressed bytes in total than the analyser accepts.
    ZipBomb => "zip_bomb",
    /// One entry's compression ratio is over the analyser's ceiling.
    ZipRatioOverLimit => "zip_ratio_over_limit",
    /// An entry's path is absolute.
    ZipPathAbsolute => "zip_path_absolute",
    /// An entry's path has a `..` segment.
    ZipPathParent => "zip_path_parent",
    /// An entry's path has a backslash.
    ZipPathBackslash => "zip_path_backslash",
    /// ffprobe could not read the video (or is not installed).
    VideoProbeFailed => "video_probe_failed",
    /// ffprobe did not answer within the time allowed.
    VideoProbeTimeout => "video_probe_timeout",
    /// The video file has no video stream.
    VideoStreamMissing => "video_stream_missing",
    /// The bytes are another kind than the asset setting accepts.
    KindMismatch => "kind_mismatch",
    /// The model's bounding box is larger than the rule's box.
    BoundingBoxOverLimit => "bounding_box_over_limit",
    /// More triangles ("polygons") than the rule allows.
    TrianglesOverLimit => "triangles_over_limit",
    /// More materials than the rule allows.
    MaterialsOverLimit => "materials_over_limit",
    /// A texture's size is not one of the sizes the rule allows.
    TextureSizeNotAllowed => "texture_size_not_allowed",
    /// More textures than the rule allows.
    TexturesOverLimit => "textures_over_limit",
    /// More estimated texture memory than the rule allows.
    TextureMemoryOverLimit => "texture_memory_over_limit",
    /// The VRM specification version is refused by the rule (VRM 1.0-beta).
    VrmSpecRefused => "vrm_spec_refused",
    /// An archive entry is of a blocked kind (`.blend`, `.max`, …).
    ZipBlockedKind => "zip_blocked_kind",
    /// An archive entry's path is longer than the rule allows.
    ZipPathTooLong => "zip_path_too_long",
    /// An archive entry's name has characters outside the rule's set.
    ZipNameInvalid => "zip_name_invalid",
    /// More baked lightmaps in the package than the rule allows.
    LightmapsOverLimit => "lightmaps_over_limit",
    /// The rule cannot be checked from the file's bytes; staff check it at inspection.
    RuleNotCheckable => "rule_not_checkable",
}

impl Code {
    /// The locale key of the message: `asset_report.<code>.message`.
    pub fn message_key(self) -> String {
        format!("asset_report.{}.message", self.as_str())
    }

    /// The locale key of the suggested fix: `asset_report.<code>.solution`.
    pub fn solution_key(self) -> String {
        format!("asset_report.{}.solution", self.as_str())
    }
}

/// Most findings of one code kept; the rest are only counted (see [`Findings::dropped`]).
pub const MAX_PER_CODE: usize = 100;

/// Findings as they are collected: at most [`MAX_PER_CODE`] of each code are kept, the others
/// counted by severity, so the report's totals stay exact while its size stays bounded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Findings {
    /// The findings kept, in the order found.
    pub list: Vec<Finding>,
    /// Findings not kept, by severity: errors, warnings, infos.
    pub dropped: [u64; 3],
    #[serde(skip)]
    per_code: std::collections::HashMap<Code, usize>,
}

impl Findings {
    /// Keeps `finding`, or counts it when its code already has [`MAX_PER_CODE`].
    pub fn push(&mut self, finding: Finding) {
        let count = self.per_code.entry(finding.code).or_default();
        *count += 1;
        if *count <= MAX_PER_CODE {
            self.list.push(finding);
        } else {
            self.dropped[usize::from(finding.severity.number())] += 1;
        }
    }

    /// Pushes every finding of `more`.
    pub fn extend(&mut self, more: impl IntoIterator<Item = Finding>) {
        for finding in more {
            self.push(finding);
        }
    }

    /// Whether any finding is an error.
    pub fn has_errors(&self) -> bool {
        self.dropped[0] > 0 || self.list.iter().any(|f| f.severity == Severity::Error)
    }
}

impl From<Vec<Finding>> for Findings {
    fn from(list: Vec<Finding>) -> Self {
        let mut findings = Self::default();
        findings.extend(list);
        findings
    }
}
