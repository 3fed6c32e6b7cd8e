//! Roster diagnostics: one error or warning that names the file, the entry, the field and the line.
//!
//! Owns only the shape and wording of a diagnostic; it never decides what is wrong (that is `load` and
//! `validate`). Every diagnostic must name at least the file, so a designer can find the bad line.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One problem found in a roster file.
///
/// Rendered as `rosters/bestiary.toml: entry "Goblin Looter", field "traits": unknown trait "Savge" (line 14)`;
/// the entry, field and line parts are left out when unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Diagnostic {
    /// The file as shown to the user: `rosters/x.toml` for the built-in layer, the full path for a mod.
    pub file: String,
    /// The entry by its `name` (or its section / table for single-valued tables).
    pub entry: Option<String>,
    /// The field inside the entry, as a dotted path (`alpha.script`, `traits[1]`).
    pub field: Option<String>,
    /// 1-based line in `file`, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl Diagnostic {
    /// A diagnostic about a whole file.
    pub fn file(file: impl Into<String>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.into(),
            entry: None,
            field: None,
            line: None,
            message: message.into(),
        }
    }

    /// Sets the entry.
    pub fn entry(mut self, entry: impl Into<String>) -> Self {
        self.entry = Some(entry.into());
        self
    }

    /// Sets the field.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// Sets the line, when known.
    pub fn line(mut self, line: Option<usize>) -> Self {
        self.line = line;
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        let mut sep = ": ";
        if let Some(entry) = &self.entry {
            write!(f, "{sep}entry \"{entry}\"")?;
            sep = ", ";
        }
        if let Some(field) = &self.field {
            write!(f, "{sep}field \"{field}\"")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(line) = self.line {
            write!(f, " (line {line})")?;
        }
        Ok(())
    }
}

/// Every error found while loading and validating a set of layers. Never empty when returned as `Err`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub struct RosterErrors(pub Vec<Diagnostic>);

impl fmt::Display for RosterErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}
