//! Names that cannot be told apart (issue 36, root cause 14): two roster entries whose names print the
//! same — one in NFC and one in NFD (`Café` as é or as e + ◌́), one with a zero-width space, a soft
//! hyphen, a BOM or another invisible character, one with a no-break space — are two entries a person
//! cannot choose between, and `--heroes`, `:show` and the logs would name the wrong one. Each pair is
//! an error naming both entries and files. A name holding a control character (a terminal escape) is
//! an error too; one holding an invisible character alone is a warning.
//!
//! It compares names only; which names a list holds is `load`'s, and the rest of the checks are
//! `validate`'s.

use super::error::Diagnostic;
use super::load::{Entry, Loaded, Origin};
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization as _;

/// Code points that print as nothing (Unicode's Default_Ignorable_Code_Point): zero-width spaces and
/// joiners, the soft hyphen, the BOM, bidirectional marks, variation selectors, tags.
const IGNORABLE: &[(char, char)] = &[
    ('\u{00AD}', '\u{00AD}'),
    ('\u{034F}', '\u{034F}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{115F}', '\u{1160}'),
    ('\u{17B4}', '\u{17B5}'),
    ('\u{180B}', '\u{180F}'),
    ('\u{200B}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2060}', '\u{206F}'),
    ('\u{3164}', '\u{3164}'),
    ('\u{FE00}', '\u{FE0F}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{FFA0}', '\u{FFA0}'),
    ('\u{FFF0}', '\u{FFF8}'),
    ('\u{1BCA0}', '\u{1BCA3}'),
    ('\u{1D173}', '\u{1D17A}'),
    ('\u{E0000}', '\u{E0FFF}'),
];

/// Whether `c` prints as nothing.
pub fn invisible(c: char) -> bool {
    IGNORABLE.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c))
}

/// What a name looks like printed: composed (NFC), invisible characters dropped, every kind of space a
/// plain space. Two names with the same printed form cannot be told apart by reading them.
pub fn printed_form(name: &str) -> String {
    name.nfc()
        .filter(|c| !invisible(*c))
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect()
}

/// `name` as a message shows it: invisible characters, spaces other than the plain one and controls
/// written as `\u{200b}`, so the difference a reader could not see is there to read.
pub fn visible(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if invisible(c) || c.is_control() || (c.is_whitespace() && c != ' ') {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// The entry's place in words: "hero \"Captain Maren\" in rosters/heroes.toml (line 7)".
fn place(kind: &str, name: &str, o: &Origin) -> String {
    let line = o.line("").map_or(String::new(), |l| format!(" (line {l})"));
    format!("{kind} \"{}\" in {}{line}", visible(name), o.file)
}

/// Check one list: every name free of control characters, no two printing the same. `kind_of` names
/// an entry's kind for messages ("hero", "trait").
fn list<T>(
    entries: &[Entry<T>],
    name_of: impl Fn(&T) -> &str,
    kind_of: impl Fn(&T) -> &'static str,
    errors: &mut Vec<Diagnostic>,
    warnings: &mut Vec<Diagnostic>,
) {
    let mut seen: BTreeMap<String, (&str, &'static str, &Origin)> = BTreeMap::new();
    for e in entries {
        let (name, kind, o) = (name_of(&e.value), kind_of(&e.value), &e.origin);
        if let Some(c) = name.chars().find(|c| c.is_control()) {
            errors.push(o.diag(
                "name",
                "name",
                format!(
                    "name \"{}\" holds a control character (U+{:04X}): a name is typed and printed; \
                     remove it",
                    visible(name),
                    u32::from(c)
                ),
            ));
            continue;
        }
        let key = printed_form(name);
        match seen.get(&key) {
            Some((first, first_kind, first_origin)) if *first != name => {
                errors.push(o.diag(
                    "name",
                    "name",
                    format!(
                        "name \"{}\" prints the same as {}: no one could tell which is meant; \
                         rename one",
                        visible(name),
                        place(first_kind, first, first_origin)
                    ),
                ));
            }
            Some(_) => {}
            None => {
                if name.chars().any(invisible) {
                    warnings.push(o.diag(
                        "name",
                        "name",
                        format!(
                            "name \"{}\" holds an invisible character: it prints as \"{key}\", \
                             which cannot be typed back",
                            visible(name)
                        ),
                    ));
                }
                seen.insert(key, (name, kind, o));
            }
        }
    }
}

/// Every named list of the rosters: profiles (heroes, enemies and Village Defenders together, as they
/// share one namespace), traits, weapons, spells, Behaviours, buildings, Escalation rows, lengths, tracks and presets.
pub(crate) fn check(l: &Loaded, errors: &mut Vec<Diagnostic>, warnings: &mut Vec<Diagnostic>) {
    list(
        &l.profiles,
        |p| p.name.as_str(),
        |p| p.kind.as_str(),
        errors,
        warnings,
    );
    list(
        &l.traits,
        |t| t.name.as_str(),
        |_| "trait",
        errors,
        warnings,
    );
    list(
        &l.weapons,
        |t| t.name.as_str(),
        |_| "weapon",
        errors,
        warnings,
    );
    list(
        &l.spells,
        |t| t.name.as_str(),
        |_| "spell",
        errors,
        warnings,
    );
    list(
        &l.behaviours,
        |t| t.name.as_str(),
        |_| "Behaviour",
        errors,
        warnings,
    );
    list(
        &l.buildings,
        |t| t.name.as_str(),
        |_| "building",
        errors,
        warnings,
    );
    list(
        &l.escalation,
        |t| t.name.as_str(),
        |_| "Escalation",
        errors,
        warnings,
    );
    list(
        &l.lengths,
        |t| t.name.as_str(),
        |_| "length",
        errors,
        warnings,
    );
    list(
        &l.tracks,
        |t| t.name.as_str(),
        |_| "track",
        errors,
        warnings,
    );
    list(
        &l.presets,
        |t| t.name.as_str(),
        |_| "preset",
        errors,
        warnings,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NFC and NFD, a zero-width space, a no-break space and a soft hyphen print as the plain name;
    /// another letter or a doubled space does not.
    #[test]
    fn printed_forms() {
        let plain = printed_form("Café Keeper");
        for same in [
            "Cafe\u{301} Keeper",
            "Caf\u{e9}\u{200b} Keeper",
            "Café\u{a0}Keeper",
            "Ca\u{ad}fé Keeper",
            "\u{feff}Café Keeper",
        ] {
            assert_eq!(printed_form(same), plain, "{same:?}");
        }
        assert_ne!(printed_form("Cafe Keeper"), plain);
        assert_ne!(printed_form("Café  Keeper"), plain);
        assert_eq!(visible("a\u{200b}b\u{a0}c"), "a\\u{200b}b\\u{a0}c");
    }
}
