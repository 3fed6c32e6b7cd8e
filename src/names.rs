//! Names as people type and read them: the closest known name to a misspelt one, the one "unknown …"
//! message every command, script and roster check gives (`unknown trait "Toguh" (did you mean
//! "Tough"?)`), and counts with their noun ("1 model", "3 models", "1 Supply").

/// How alike two names must be (Jaro-Winkler, case ignored) for one to be offered for the other.
const NEAR: f64 = 0.7;

/// The known name closest to `typed`, if any is close enough to be what was meant.
pub fn closest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let typed = typed.trim().to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    for k in known {
        let score = strsim::jaro_winkler(&typed, &k.to_lowercase());
        // Ties keep the first name (rosters' file order), so the suggestion is stable.
        if score > NEAR && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, k));
        }
    }
    best.map(|(_, k)| k)
}

/// `unknown KIND "TYPED" (did you mean "X"?)`, or, with nothing close, the known names listed.
pub fn unknown<'a>(kind: &str, typed: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let known: Vec<&str> = known.into_iter().collect();
    format!("unknown {kind} {typed:?}{}", hint(typed, &known))
}

/// At most this many known names are listed after a name that matched nothing; a longer list would bury
/// the error (a roster's traits), and `village check` lists them anyway.
const LISTED: usize = 12;

/// ` (did you mean "X"?)` or ` (known: a, b, c)`: what follows a name that matched nothing.
pub fn hint(typed: &str, known: &[&str]) -> String {
    match closest(typed, known.iter().copied()) {
        Some(k) => format!(" (did you mean {k:?}?)"),
        None if known.is_empty() => " (there are none)".to_string(),
        None if known.len() > LISTED => String::new(),
        None => format!(" (known: {})", known.join(", ")),
    }
}

/// `n` and its noun, singular for exactly one: `count(1, "model", "models")` is "1 model".
pub fn count<N: TryInto<i64>>(n: N, one: &str, many: &str) -> String {
    let n = n.try_into().unwrap_or(i64::MAX);
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_noun_they_need() {
        assert_eq!(count(1, "model", "models"), "1 model");
        assert_eq!(count(0u32, "error", "errors"), "0 errors");
        assert_eq!(count(-1, "Supply", "Supplies"), "-1 Supplies");
        assert_eq!(count(2usize, "Supply", "Supplies"), "2 Supplies");
    }

    #[test]
    fn a_typo_gets_the_closest_name() {
        let traits = ["Tough", "Savage", "Short Move", "Hero"];
        assert_eq!(closest("Toguh", traits), Some("Tough"));
        assert_eq!(
            unknown("trait", "Toguh", traits),
            r#"unknown trait "Toguh" (did you mean "Tough"?)"#
        );
        assert_eq!(closest("savge", traits), Some("Savage"));
    }

    #[test]
    fn nothing_close_lists_the_names() {
        let lengths = ["intro", "standard", "siege"];
        assert_eq!(closest("xyzzy", lengths), None);
        assert_eq!(
            unknown("length", "xyzzy", lengths),
            r#"unknown length "xyzzy" (known: intro, standard, siege)"#
        );
        assert_eq!(
            unknown("policy", "x", []),
            r#"unknown policy "x" (there are none)"#
        );
    }
}
