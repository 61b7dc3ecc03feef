//! A rule set applied to an analysis: each rule's breaches as findings tagged with its
//! `rule_id`. What each limit means, and on which kinds, is documented on [`Limit`].

use serde_json::Value;

use super::analysis::Analysis;
use super::finding::{Code, Finding, Findings, Severity};
use super::rules::{Limit, Rule, RuleSet, charset_contains};
use super::stats::{ModelStats, Stats, ZipEntry};

/// A breach of one rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Breach {
    /// The rule's id.
    pub rule_id: String,
    /// What was found.
    pub finding: Finding,
}

/// Applies every rule of `rules` to `analysis`. Returns the breaches (at most
/// [`super::finding::MAX_PER_CODE`] of a code per rule kept, the others counted).
pub fn evaluate(analysis: &Analysis, rules: &RuleSet) -> (Vec<Breach>, [u64; 3]) {
    let mut breaches = Vec::new();
    let mut dropped = [0; 3];
    for rule in &rules.rules {
        let mut findings = Findings::default();
        check(analysis, rule, &mut findings);
        let severity = if matches!(rule.limit, Limit::MaxBytes(_) | Limit::AllowedKinds(_)) {
            Severity::Error
        } else {
            rule.severity
        };
        for finding in findings.list {
            // `rule_not_checkable` stays information whatever the rule's severity.
            let finding =
                if finding.code == Code::RuleNotCheckable { finding } else { finding.with_severity(severity) };
            breaches.push(Breach { rule_id: rule.rule_id.clone(), finding });
        }
        let dropped_total: u64 = findings.dropped.iter().sum();
        dropped[usize::from(severity.number())] += dropped_total;
    }
    (breaches, dropped)
}

/// A number with at most three decimals, without trailing zeros.
pub fn metres(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn list<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items.into_iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

fn over(code: Code, limit: u64, actual: u64) -> Option<Finding> {
    (actual > limit).then(|| Finding::error(code).values(limit, actual))
}

fn not_checkable(rule: &Rule) -> Finding {
    Finding::error(Code::RuleNotCheckable).with_severity(Severity::Info).actual(rule.rule_id.clone())
}

fn check(analysis: &Analysis, rule: &Rule, out: &mut Findings) {
    let model = match &analysis.stats {
        Stats::Model(model) => Some(model),
        _ => None,
    };
    let zip = match &analysis.stats {
        Stats::Zip(zip) => Some(&zip.entries),
        _ => None,
    };
    match &rule.limit {
        Limit::MaxBytes(max) => out.extend(over(Code::BytesOverLimit, *max, analysis.byte_length)),
        Limit::AllowedKinds(kinds) => {
            if !analysis.kind.is_some_and(|kind| kinds.contains(&kind)) {
                let actual = analysis.kind.map_or("unknown", |k| k.as_str());
                out.push(Finding::error(Code::KindMismatch).values(list(kinds.iter().map(|k| k.as_str())), actual));
            }
        }
        Limit::BoundingBox(limit) => match (model, zip) {
            (Some(ModelStats { bounding_box: Some(b), .. }), _) => {
                let [x, y, z] = b.size;
                if x > limit.x + 1e-6 || y > limit.y + 1e-6 || z > limit.z + 1e-6 {
                    let text = |[x, y, z]: [f64; 3]| format!("{} × {} × {}", metres(x), metres(y), metres(z));
                    out.push(
                        Finding::error(Code::BoundingBoxOverLimit)
                            .values(text([limit.x, limit.y, limit.z]), text(b.size)),
                    );
                }
            }
            (Some(_), _) | (_, Some(_)) => out.push(not_checkable(rule)),
            _ => {}
        },
        Limit::MaxTriangles(max) => match (model, zip) {
            (Some(model), _) => out.extend(over(Code::TrianglesOverLimit, *max, model.triangles)),
            (None, Some(_)) => out.push(not_checkable(rule)),
            _ => {}
        },
        Limit::MaxMaterials(max) => {
            let count = model.map(|m| m.materials).or_else(|| zip.map(|entries| count_ending(entries, ".mat")));
            out.extend(count.and_then(|count| over(Code::MaterialsOverLimit, *max, count)));
        }
        Limit::TextureSizes(sizes) => check_texture_sizes(analysis, sizes, out),
        Limit::MaxTextures(max) => {
            out.extend(model.and_then(|m| over(Code::TexturesOverLimit, *max, m.textures.len() as u64)));
        }
        Limit::MaxTextureMemory(max) => {
            out.extend(model.and_then(|m| over(Code::TextureMemoryOverLimit, *max, m.texture_gpu_bytes)));
        }
        Limit::RefusedVrmSpecVersions(refused) => {
            let Some(vrm) = &analysis.vrm else { return };
            if refused.iter().any(|prefix| vrm.spec_version.starts_with(prefix.as_str())) {
                let extension = if vrm.major() == 0 { "VRM" } else { "VRMC_vrm" };
                let finding = Finding::error(Code::VrmSpecRefused).at(format!("/extensions/{extension}/specVersion"));
                out.push(finding.values(list(refused), vrm.spec_version.clone()));
            }
        }
        Limit::ZipBlockedExtensions(blocked) => {
            let blocked: Vec<String> = blocked.iter().map(|e| e.to_lowercase()).collect();
            for entry in zip.into_iter().flatten().filter(|e| !e.is_dir) {
                let path = entry.path.to_lowercase();
                if blocked.iter().any(|ext| path.ends_with(ext.as_str())) {
                    out.push(Finding::error(Code::ZipBlockedKind).values(list(&blocked), entry.path.clone()));
                }
            }
        }
        Limit::ZipMaxPathLength(max) => {
            for entry in zip.into_iter().flatten() {
                let length = entry.path.trim_end_matches('/').chars().count() as u64;
                if length > *max {
                    out.push(Finding::error(Code::ZipPathTooLong).values(*max, entry.path.clone()));
                }
            }
        }
        Limit::ZipNameCharset(charset) => {
            for entry in zip.into_iter().flatten() {
                if !entry.path.split('/').all(|segment| segment.chars().all(|c| charset_contains(charset, c))) {
                    out.push(Finding::error(Code::ZipNameInvalid).values(charset.clone(), entry.path.clone()));
                }
            }
        }
        Limit::UnityLightmaps { max_count, .. } => {
            let Some(entries) = zip else { return };
            let count = entries.iter().filter(|e| is_lightmap(e)).count() as u64;
            out.extend(over(Code::LightmapsOverLimit, *max_count, count));
            if count > 0 {
                out.push(not_checkable(rule));
            }
        }
    }
}

fn check_texture_sizes(analysis: &Analysis, sizes: &[[u32; 2]], out: &mut Findings) {
    let allowed = |w: u32, h: u32| sizes.contains(&[w, h]);
    let limit = || Value::from(list(sizes.iter().map(|[w, h]| format!("{w}×{h}"))));
    match &analysis.stats {
        Stats::Model(model) => {
            for texture in &model.textures {
                if let (Some(w), Some(h)) = (texture.width, texture.height)
                    && !allowed(w, h)
                {
                    let finding = Finding::error(Code::TextureSizeNotAllowed).at(format!("/images/{}", texture.image));
                    out.push(finding.values(limit(), format!("{w}×{h}")));
                }
            }
        }
        Stats::Image(image) if !allowed(image.width, image.height) => {
            out.push(
                Finding::error(Code::TextureSizeNotAllowed)
                    .values(limit(), format!("{}×{}", image.width, image.height)),
            );
        }
        _ => {}
    }
}

fn count_ending(entries: &[ZipEntry], extension: &str) -> u64 {
    entries.iter().filter(|e| !e.is_dir && e.path.to_lowercase().ends_with(extension)).count() as u64
}

/// Unity names baked lightmaps `Lightmap-<n>_comp_light.exr` (directional and shadowmask maps,
/// `_comp_dir`/`_comp_shadowmask`, belong to a lightmap and are not counted).
fn is_lightmap(entry: &ZipEntry) -> bool {
    let name = entry.path.rsplit('/').next().unwrap_or_default();
    !entry.is_dir && name.starts_with("Lightmap-") && name.contains("_comp_light.")
}
