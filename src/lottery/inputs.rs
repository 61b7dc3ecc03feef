//! A draw's inputs: plans with the slots they offer and entries with their ranked wishes, in a
//! canonical order with one canonical text form, whose SHA-256 is published with the result.
//!
//! The text form, one item per line, each line ending in `\n`:
//!
//! ```text
//! vmarket lottery inputs v1
//! plan <plan id> <capacity>                                   (ascending plan id)
//! entry <entry id> single|multiple <choice>:<application id>:<plan id> …
//!                                  (ascending entry id; wishes by choice 1, 2, … without gaps)
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use super::seed::sha256_hex;

/// The first line of the canonical form; a new algorithm or layout gets a new version.
const HEADER: &str = "vmarket lottery inputs v1";

/// A plan as the draw sees it: how many winners it may still take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanInput {
    /// The plan's id.
    pub id: i64,
    /// Slots this draw may give: the plan's maximum minus the slots already held.
    pub capacity: u32,
}

/// One wish of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApplicationInput {
    /// The application's id (unique across the draw).
    pub id: i64,
    /// Its rank, 1 = first wish.
    pub choice: u8,
    /// The plan it asks for.
    pub plan_id: i64,
}

/// An entry (one circle at one event) with its wishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInput {
    /// The entry's id.
    pub id: i64,
    /// Whether the entry may win more than one of its wishes.
    pub multiple_win: bool,
    /// Its wishes, any order (they are sorted by choice).
    pub applications: Vec<ApplicationInput>,
}

/// Why a list of plans and entries is not a valid draw input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Two plans share an id.
    #[error("plan {0} is listed twice")]
    DuplicatePlan(i64),
    /// Two entries share an id.
    #[error("entry {0} is listed twice")]
    DuplicateEntry(i64),
    /// Two applications share an id.
    #[error("application {0} is listed twice")]
    DuplicateApplication(i64),
    /// An entry has no wish.
    #[error("entry {0} has no application")]
    EmptyEntry(i64),
    /// An entry's choices are not 1, 2, … n.
    #[error("entry {0}: choices must be 1..n without gaps")]
    ChoiceGap(i64),
    /// An entry asks twice for the same plan.
    #[error("entry {entry}: plan {plan} is wished twice")]
    SamePlanTwice {
        /// The entry.
        entry: i64,
        /// The plan.
        plan: i64,
    },
    /// An application asks for a plan that is not in the list.
    #[error("application {application}: unknown plan {plan}")]
    UnknownPlan {
        /// The application.
        application: i64,
        /// The plan it names.
        plan: i64,
    },
    /// A line of the text form could not be read.
    #[error("line {line}: {reason}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The text reads as valid inputs but is not their canonical form (order, spacing, zeros).
    #[error("the text is not in canonical form")]
    NotCanonical,
}

/// Validated inputs in canonical order: plans by id, entries by id, wishes by choice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    plans: Vec<PlanInput>,
    entries: Vec<EntryInput>,
}

impl Inputs {
    /// Checks and orders the inputs: ids unique, every entry with wishes 1..n for distinct, known
    /// plans.
    pub fn new(mut plans: Vec<PlanInput>, mut entries: Vec<EntryInput>) -> Result<Self, InputError> {
        plans.sort_by_key(|p| p.id);
        if let Some(w) = plans.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(InputError::DuplicatePlan(w[0].id));
        }
        entries.sort_by_key(|e| e.id);
        if let Some(w) = entries.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(InputError::DuplicateEntry(w[0].id));
        }
        let known: HashSet<i64> = plans.iter().map(|p| p.id).collect();
        let mut seen_applications = HashSet::new();
        for entry in &mut entries {
            if entry.applications.is_empty() {
                return Err(InputError::EmptyEntry(entry.id));
            }
            entry.applications.sort_by_key(|a| a.choice);
            let mut wished = HashSet::new();
            for (rank, application) in entry.applications.iter().enumerate() {
                if usize::from(application.choice) != rank + 1 {
                    return Err(InputError::ChoiceGap(entry.id));
                }
                if !seen_applications.insert(application.id) {
                    return Err(InputError::DuplicateApplication(application.id));
                }
                if !known.contains(&application.plan_id) {
                    return Err(InputError::UnknownPlan { application: application.id, plan: application.plan_id });
                }
                if !wished.insert(application.plan_id) {
                    return Err(InputError::SamePlanTwice { entry: entry.id, plan: application.plan_id });
                }
            }
        }
        Ok(Self { plans, entries })
    }

    /// The plans, by id.
    pub fn plans(&self) -> &[PlanInput] {
        &self.plans
    }

    /// The entries, by id, each with its wishes by choice.
    pub fn entries(&self) -> &[EntryInput] {
        &self.entries
    }

    /// How many applications (wishes) the draw decides.
    pub fn application_count(&self) -> usize {
        self.entries.iter().map(|e| e.applications.len()).sum()
    }

    /// The canonical text form (module doc): what is published and digested.
    pub fn canonical(&self) -> String {
        let mut out = String::with_capacity(32 + self.plans.len() * 16 + self.application_count() * 24);
        out.push_str(HEADER);
        out.push('\n');
        for plan in &self.plans {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "plan {} {}", plan.id, plan.capacity);
        }
        for entry in &self.entries {
            let _ = write!(out, "entry {} {}", entry.id, if entry.multiple_win { "multiple" } else { "single" });
            for a in &entry.applications {
                let _ = write!(out, " {}:{}:{}", a.choice, a.id, a.plan_id);
            }
            out.push('\n');
        }
        out
    }

    /// SHA-256 (lowercase hex) of [`Inputs::canonical`].
    pub fn digest(&self) -> String {
        sha256_hex(self.canonical().as_bytes())
    }

    /// Reads the canonical text form back; anything else — another order, extra spaces, a
    /// missing final newline — is refused, so that one set of inputs has exactly one text and
    /// one digest.
    pub fn parse(text: &str) -> Result<Self, InputError> {
        let mut lines = text.split_terminator('\n').enumerate();
        match lines.next() {
            Some((_, HEADER)) => {}
            _ => return Err(InputError::Syntax { line: 1, reason: format!("expected `{HEADER}`") }),
        }
        let mut plans = Vec::new();
        let mut entries = Vec::new();
        for (index, line) in lines {
            let number = index + 1;
            let syntax = |reason: &str| InputError::Syntax { line: number, reason: reason.to_string() };
            let mut words = line.split(' ');
            match words.next() {
                Some("plan") => {
                    let id = number_of(words.next(), number)?;
                    let capacity = number_of(words.next(), number)?;
                    if words.next().is_some() {
                        return Err(syntax("a plan line has two numbers"));
                    }
                    plans.push(PlanInput { id, capacity });
                }
                Some("entry") => {
                    let id = number_of(words.next(), number)?;
                    let multiple_win = match words.next() {
                        Some("single") => false,
                        Some("multiple") => true,
                        _ => return Err(syntax("expected `single` or `multiple`")),
                    };
                    let mut applications = Vec::new();
                    for word in words {
                        let mut parts = word.split(':');
                        let choice = number_of(parts.next(), number)?;
                        let id = number_of(parts.next(), number)?;
                        let plan_id = number_of(parts.next(), number)?;
                        if parts.next().is_some() {
                            return Err(syntax("a wish is choice:application:plan"));
                        }
                        applications.push(ApplicationInput { id, choice, plan_id });
                    }
                    entries.push(EntryInput { id, multiple_win, applications });
                }
                _ => return Err(syntax("expected `plan` or `entry`")),
            }
        }
        let inputs = Self::new(plans, entries)?;
        if inputs.canonical() != text {
            return Err(InputError::NotCanonical);
        }
        Ok(inputs)
    }

    /// The plan index of each plan id, for the draw.
    pub(super) fn plan_index(&self) -> HashMap<i64, usize> {
        self.plans.iter().enumerate().map(|(i, p)| (p.id, i)).collect()
    }
}

/// One number of a line of the text form.
fn number_of<T: std::str::FromStr>(word: Option<&str>, line: usize) -> Result<T, InputError> {
    word.and_then(|w| w.parse().ok()).ok_or_else(|| InputError::Syntax {
        line,
        reason: format!("expected a number, found {:?}", word.unwrap_or("")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Inputs {
        Inputs::new(
            vec![PlanInput { id: 20, capacity: 1 }, PlanInput { id: 10, capacity: 2 }],
            vec![
                EntryInput {
                    id: 5,
                    multiple_win: true,
                    applications: vec![
                        ApplicationInput { id: 52, choice: 2, plan_id: 10 },
                        ApplicationInput { id: 51, choice: 1, plan_id: 20 },
                    ],
                },
                EntryInput {
                    id: 3,
                    multiple_win: false,
                    applications: vec![ApplicationInput { id: 31, choice: 1, plan_id: 10 }],
                },
            ],
        )
        .unwrap()
    }

    #[test]
    fn the_canonical_form_is_sorted_and_reads_back() {
        let inputs = sample();
        let text = inputs.canonical();
        assert_eq!(
            text,
            "vmarket lottery inputs v1\nplan 10 2\nplan 20 1\nentry 3 single 1:31:10\nentry 5 multiple 1:51:20 2:52:10\n"
        );
        assert_eq!(Inputs::parse(&text).unwrap(), inputs);
        assert_eq!(inputs.digest(), sha256_hex(text.as_bytes()));
    }

    #[test]
    fn another_text_of_the_same_inputs_is_refused() {
        let reordered = "vmarket lottery inputs v1\nplan 20 1\nplan 10 2\nentry 3 single 1:31:10\nentry 5 multiple 1:51:20 2:52:10\n";
        assert_eq!(Inputs::parse(reordered), Err(InputError::NotCanonical));
        let no_newline = sample().canonical().trim_end().to_string();
        assert_eq!(Inputs::parse(&no_newline), Err(InputError::NotCanonical));
        let padded = sample().canonical().replace("plan 10 2", "plan 10 02");
        assert_eq!(Inputs::parse(&padded), Err(InputError::NotCanonical));
    }

    #[test]
    fn broken_inputs_are_refused() {
        let one = |id, choice, plan_id| ApplicationInput { id, choice, plan_id };
        let plans = || vec![PlanInput { id: 1, capacity: 1 }, PlanInput { id: 2, capacity: 1 }];
        let entry = |applications| vec![EntryInput { id: 9, multiple_win: false, applications }];
        assert_eq!(Inputs::new(plans(), entry(vec![one(1, 1, 1), one(2, 3, 2)])), Err(InputError::ChoiceGap(9)));
        assert_eq!(
            Inputs::new(plans(), entry(vec![one(1, 1, 1), one(2, 2, 1)])),
            Err(InputError::SamePlanTwice { entry: 9, plan: 1 })
        );
        assert_eq!(
            Inputs::new(plans(), entry(vec![one(1, 1, 3)])),
            Err(InputError::UnknownPlan { application: 1, plan: 3 })
        );
        assert_eq!(Inputs::new(plans(), entry(vec![])), Err(InputError::EmptyEntry(9)));
        assert_eq!(
            Inputs::new(vec![PlanInput { id: 1, capacity: 1 }, PlanInput { id: 1, capacity: 2 }], vec![]),
            Err(InputError::DuplicatePlan(1))
        );
        assert!(matches!(
            Inputs::parse("vmarket lottery inputs v1\nplan x 1\n"),
            Err(InputError::Syntax { line: 2, .. })
        ));
        assert!(matches!(Inputs::parse("something else\n"), Err(InputError::Syntax { line: 1, .. })));
    }
}
