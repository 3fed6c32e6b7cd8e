//! Where each roster entry of the layers was defined — its file, line and layer — for the profile
//! card (`village show`), which says where each part of a profile comes from (built in, or a mod).
//!
//! Owns only that record: it loads the layers as `Rosters::load` does and keeps the origins the
//! loader already tracks for its diagnostics.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where one entry was defined.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Source {
    /// The file as diagnostics name it (`rosters/heroes.toml`, `mymod/rosters/traits.toml`).
    pub file: String,
    /// The line of the entry (its `[[hero]]` header), when known.
    pub line: Option<usize>,
    /// 0 for the built-in layer, then each `--mod` in order.
    pub layer: usize,
}

impl Source {
    /// `file:line`, as a person looks it up.
    pub fn at(&self) -> String {
        match self.line {
            Some(l) => format!("{}:{l}", self.file),
            None => self.file.clone(),
        }
    }
}

/// What a roster table holds, as [`Sources`] keys its entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Table {
    /// A hero, enemy or Village Defender (their names are unique across the three).
    Profile,
    Trait,
    Weapon,
    Spell,
    Behaviour,
    Opportunity,
}

/// Every list entry's [`Source`], by table and name (an Opportunity by its name).
#[derive(Debug, Clone, Default)]
pub struct Sources(BTreeMap<(Table, String), Source>);

impl Sources {
    /// Where entry `name` of `table` was defined (the layer that gave it last), if it was.
    pub fn of(&self, table: Table, name: &str) -> Option<&Source> {
        self.0.get(&(table, name.to_string()))
    }
}

/// The sources of every entry of `layers` (the built-in folder first, then each `--mod`): read as
/// [`super::Rosters::load`] reads them; an entry with errors is simply absent.
pub fn sources(layers: &[PathBuf]) -> Sources {
    let l = super::load_checked(layers);
    let mut out = BTreeMap::new();
    fn add<T>(
        out: &mut BTreeMap<(Table, String), Source>,
        table: Table,
        entries: &[super::load::Entry<T>],
        name: impl Fn(&T) -> &str,
    ) {
        for e in entries {
            out.insert(
                (table, name(&e.value).to_string()),
                Source {
                    file: e.origin.file.clone(),
                    line: e.origin.line(""),
                    layer: e.origin.layer,
                },
            );
        }
    }
    add(&mut out, Table::Profile, &l.profiles, |p| &p.name);
    add(&mut out, Table::Trait, &l.traits, |t| &t.name);
    add(&mut out, Table::Weapon, &l.weapons, |w| &w.name);
    add(&mut out, Table::Spell, &l.spells, |s| &s.name);
    add(&mut out, Table::Behaviour, &l.behaviours, |b| &b.name);
    add(&mut out, Table::Opportunity, &l.opportunities, |o| &o.name);
    Sources(out)
}
