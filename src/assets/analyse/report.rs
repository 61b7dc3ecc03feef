//! The validation report, shaped like Khronos glTF-Validator's and shown as the same JSON to the
//! owner and to staff:
//!
//! ```text
//! {report_version, validator{name,version}, asset{id,version,type,mime_type,byte_length,sha256},
//!  rule_set{id,version}, validated_at, status: passed|warnings|failed,
//!  issues{num_errors,num_warnings,num_infos,truncated,
//!         messages[{code, rule_id, severity (0 error, 1 warning, 2 info), pointer | offset,
//!                   message, limit, actual, solution}]},
//!  stats{…}, vrm{spec_version, meta}, vrchat_rank{pc, mobile}}
//! ```
//!
//! `message` and `solution` are locale keys (`asset_report.<code>.message`/`.solution`) with
//! `{limit}` and `{actual}` placeholders, translated at the edge. `limit`/`actual` are numbers,
//! or language-neutral strings for compound values (a box `2 × 2 × 2` as width × height × depth
//! in metres, a size `1024×1024`, a list `vrm, glb`, an entry's path). Messages are errors first;
//! at most [`MAX_MESSAGES`] are kept (`truncated`), while the counts cover every finding.
//! [`build_report`] takes the time and ids as given: there is no clock here.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::analysis::Analysis;
use super::evaluate::evaluate;
use super::finding::{Code, Finding, Severity};
use super::rank::{VrchatRank, rank};
use super::rules::RuleSet;
use super::stats::Stats;
use super::vrm::VrmMeta;

/// Version of the report's shape.
pub const REPORT_VERSION: u32 = 1;
/// The validator's name in reports.
pub const VALIDATOR_NAME: &str = "vmarket-asset-analyse";
/// The validator's version: bump when an analyser or the evaluation changes what it reports.
pub const VALIDATOR_VERSION: &str = "1.0.0";
/// Most messages in a report.
pub const MAX_MESSAGES: usize = 200;
/// Most ZIP entries listed in a report's stats.
pub const MAX_REPORT_ENTRIES: usize = 1_000;

/// What the caller knows about the upload, as given (ids, digest computed while streaming, the
/// time the job ran).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReportInput {
    /// The asset's id.
    pub asset_id: u64,
    /// The asset version's number.
    pub version: u32,
    /// The content type the client declared, used only when the kind is unknown.
    pub mime_type: Option<String>,
    /// The stored object's length.
    pub byte_length: u64,
    /// SHA-256 of the bytes, lower-case hex.
    pub sha256: String,
    /// When the validation ran, RFC 3339.
    pub validated_at: String,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// [`REPORT_VERSION`].
    pub report_version: u32,
    /// Who validated.
    pub validator: Validator,
    /// What was validated.
    pub asset: AssetInfo,
    /// Against which rules.
    pub rule_set: RuleSetRef,
    /// When.
    pub validated_at: String,
    /// The verdict.
    pub status: Status,
    /// The messages.
    pub issues: Issues,
    /// The analyser's measurements.
    pub stats: Stats,
    /// The VRM meta, for a VRM.
    pub vrm: Option<VrmReport>,
    /// VRChat's performance rank, for a model (information only).
    pub vrchat_rank: Option<VrchatRank>,
}

/// `validator`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Validator {
    /// [`VALIDATOR_NAME`].
    pub name: String,
    /// [`VALIDATOR_VERSION`].
    pub version: String,
}

/// `asset`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssetInfo {
    /// Asset id.
    pub id: u64,
    /// Version number.
    pub version: u32,
    /// The kind from the bytes (`vrm`, `glb`, `png`, …), `null` when unknown.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The kind's media type, else the declared one.
    pub mime_type: Option<String>,
    /// Bytes.
    pub byte_length: u64,
    /// SHA-256, hex.
    pub sha256: String,
}

/// `rule_set`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSetRef {
    /// The set's id.
    pub id: String,
    /// The set's version.
    pub version: u32,
}

/// The verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No error, no warning.
    Passed,
    /// Warnings, no error.
    Warnings,
    /// At least one error: the version fails.
    Failed,
}

/// `issues`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Issues {
    /// Errors (all, kept or not).
    pub num_errors: u64,
    /// Warnings.
    pub num_warnings: u64,
    /// Infos.
    pub num_infos: u64,
    /// Whether messages were left out.
    pub truncated: bool,
    /// The messages, errors first.
    pub messages: Vec<Message>,
}

/// One message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Stable code.
    pub code: Code,
    /// The rule breached; `null` for the analyser's own findings.
    pub rule_id: Option<String>,
    /// 0 error, 1 warning, 2 info.
    #[serde(with = "severity_number")]
    pub severity: Severity,
    /// JSON pointer into the glTF JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Byte offset in the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// Locale key of the message.
    pub message: String,
    /// The limit crossed.
    pub limit: Option<Value>,
    /// The value found.
    pub actual: Option<Value>,
    /// Locale key of the suggested fix.
    pub solution: String,
}

/// `vrm`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VrmReport {
    /// `specVersion`.
    pub spec_version: String,
    /// The normalised meta, with the raw object.
    pub meta: VrmMeta,
}

fn message(rule_id: Option<String>, finding: Finding) -> Message {
    let (pointer, offset) = match finding.location {
        Some(super::finding::Location::Pointer(p)) => (Some(p), None),
        Some(super::finding::Location::Offset(o)) => (None, Some(o)),
        None => (None, None),
    };
    Message {
        message: finding.code.message_key(),
        solution: finding.code.solution_key(),
        code: finding.code,
        rule_id,
        severity: finding.severity,
        pointer,
        offset,
        limit: finding.limit,
        actual: finding.actual,
    }
}

/// Builds the report of `analysis` against `rules`. Pure: the same inputs give the same report.
pub fn build_report(input: &ReportInput, analysis: &Analysis, rules: &RuleSet) -> Report {
    let (breaches, rule_dropped) = evaluate(analysis, rules);
    let mut messages: Vec<Message> = analysis.findings.list.iter().map(|f| message(None, f.clone())).collect();
    messages.extend(breaches.into_iter().map(|b| message(Some(b.rule_id), b.finding)));
    let dropped: Vec<u64> = (0..3).map(|i| analysis.findings.dropped[i] + rule_dropped[i]).collect();
    let count = |severity: Severity| {
        let kept = messages.iter().filter(|m| m.severity == severity).count() as u64;
        kept + dropped[usize::from(severity.number())]
    };
    let (num_errors, num_warnings, num_infos) =
        (count(Severity::Error), count(Severity::Warning), count(Severity::Info));
    messages.sort_by_key(|m| m.severity);
    let truncated = messages.len() > MAX_MESSAGES || dropped.iter().any(|d| *d > 0);
    messages.truncate(MAX_MESSAGES);
    let status = match (num_errors, num_warnings) {
        (0, 0) => Status::Passed,
        (0, _) => Status::Warnings,
        _ => Status::Failed,
    };
    let mut stats = analysis.stats.clone();
    if let Stats::Zip(zip) = &mut stats
        && zip.entries.len() > MAX_REPORT_ENTRIES
    {
        zip.entries.truncate(MAX_REPORT_ENTRIES);
        zip.entries_truncated = true;
    }
    Report {
        report_version: REPORT_VERSION,
        validator: Validator { name: VALIDATOR_NAME.into(), version: VALIDATOR_VERSION.into() },
        asset: AssetInfo {
            id: input.asset_id,
            version: input.version,
            kind: analysis.kind.map(|k| k.as_str().to_string()),
            mime_type: analysis.kind.map(|k| k.mime_type().to_string()).or_else(|| input.mime_type.clone()),
            byte_length: input.byte_length,
            sha256: input.sha256.clone(),
        },
        rule_set: RuleSetRef { id: rules.id.clone(), version: rules.version },
        validated_at: input.validated_at.clone(),
        status,
        issues: Issues { num_errors, num_warnings, num_infos, truncated, messages },
        vrchat_rank: match &analysis.stats {
            Stats::Model(model) => Some(rank(model)),
            _ => None,
        },
        stats,
        vrm: analysis.vrm.clone().map(|meta| VrmReport { spec_version: meta.spec_version.clone(), meta }),
    }
}

mod severity_number {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Severity;

    pub fn serialize<S: Serializer>(severity: &Severity, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(severity.number())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Severity, D::Error> {
        match u8::deserialize(deserializer)? {
            0 => Ok(Severity::Error),
            1 => Ok(Severity::Warning),
            2 => Ok(Severity::Info),
            n => Err(serde::de::Error::custom(format!("severity {n}"))),
        }
    }
}
