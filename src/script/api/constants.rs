//! The rule constants of a game indexed for `ctx:rule(section, key)`: asked about a thousand times a
//! game (a policy reads the activation rules at every choice of dice), where walking the JSON of the
//! rules by name cost more than the answer.

use rustc_hash::FxHashMap;

/// A rule constant of the kinds `ctx:rule` hands out, as `convert::to_lua` gives them: a whole number
/// as an integer, any other number as a float.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    Int(i64),
    Num(f64),
    Bool(bool),
    Str(Box<str>),
}

/// Every constant of the rules' JSON that is a number, a boolean or a string, by section and key (by
/// their bytes: a script's strings are compared as they are, never converted). A section's tables and
/// lists are not here (`ctx:rule` hands those out through its general path).
#[derive(Debug, Clone, Default)]
pub struct RuleConstants {
    sections: FxHashMap<Box<[u8]>, Section>,
}

/// One section's constants by key.
type Section = FxHashMap<Box<[u8]>, Constant>;

impl RuleConstants {
    /// The index of `rules` (the rules as JSON: an object of sections, each an object of constants).
    pub fn of(rules: &serde_json::Value) -> Self {
        let mut sections = FxHashMap::default();
        for (name, section) in rules.as_object().into_iter().flatten() {
            let keys: Section = section
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(k, v)| Some((k.as_bytes().into(), constant(v)?)))
                .collect();
            sections.insert(name.as_bytes().into(), keys);
        }
        RuleConstants { sections }
    }

    /// The constant `key` of `section`, when it is one of the kinds indexed.
    pub fn get(&self, section: &[u8], key: &[u8]) -> Option<&Constant> {
        self.sections.get(section)?.get(key)
    }
}

/// A JSON value as a constant (`None` for an object, a list, null, or a number neither integer nor
/// float).
fn constant(v: &serde_json::Value) -> Option<Constant> {
    match v {
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Some(Constant::Int(i)),
            None if n.is_f64() => n.as_f64().map(Constant::Num),
            None => None,
        },
        serde_json::Value::Bool(b) => Some(Constant::Bool(*b)),
        serde_json::Value::String(s) => Some(Constant::Str(s.as_str().into())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_are_found_by_section_and_key_as_the_json_holds_them() {
        let json = serde_json::json!({
            "activation": { "max_dice": 3, "ratio": 0.5, "hero": true, "kind": "dice", "list": [1] },
            "measures": { "medium": 6 },
        });
        let c = RuleConstants::of(&json);
        assert_eq!(c.get(b"activation", b"max_dice"), Some(&Constant::Int(3)));
        assert_eq!(c.get(b"activation", b"ratio"), Some(&Constant::Num(0.5)));
        assert_eq!(c.get(b"activation", b"hero"), Some(&Constant::Bool(true)));
        assert_eq!(
            c.get(b"activation", b"kind"),
            Some(&Constant::Str("dice".into()))
        );
        assert_eq!(c.get(b"activation", b"list"), None);
        assert_eq!(c.get(b"measures", b"medium"), Some(&Constant::Int(6)));
        assert_eq!(c.get(b"measures", b"max_dice"), None);
        assert_eq!(c.get(b"nothing", b"medium"), None);
    }
}
