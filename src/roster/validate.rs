//! Cross-checks of the loaded rosters: every name a roster uses must exist, every script file must
//! exist in some layer's `scripts/`, numbers must be in range, and the tables the rules need must be
//! complete (Escalation I–VII, Opportunities 1–6, exactly one Town Hall).
//!
//! Reads [`Loaded`] and only appends diagnostics; it never changes the data. Printed Wave Points that
//! differ from the formula are warnings, everything else is an error.

use super::error::Diagnostic;
use super::load::{script_exists, script_path_ok, Entry, Loaded, Origin};
use super::ranges::{out_of_range, rules_out_of_range};
use super::rules::Rules;
use super::schema::{ParamValue, Params, ProfileKind, SpellKind, Tier, TraitNeed};
use crate::names;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Escalation rows the wave engine requires (core §5.1).
const ESCALATIONS: [&str; 7] = ["I", "II", "III", "IV", "V", "VI", "VII"];
/// The table's edges: north, east, south, west (a spawn edge is 1 to 4; geometry knows four sides).
const EDGES: usize = 4;
/// The file of buildings, the Barricade and the Trap.
const VILLAGE_FILE: &str = "village.toml";
/// The most waves a game length may have: far more than any table game, and the bound a shard's waves
/// are checked against when its rosters are not at hand (`sim::merge`).
pub const MAX_WAVES: u32 = 100;
/// Faces of the Opportunity die, each of which needs a row (the range of one row's `roll` is in
/// `RANGES`).
const OPPORTUNITY_ROLLS: std::ops::RangeInclusive<u8> = 1..=6;

/// The `scripts/` folders whose modules the script loader reads and the kernel calls for each kind of
/// roster entry, the usual one first. The loader reads only files directly in a folder of its closed
/// list (`script::registry::KINDS`; `tests/roster.rs` checks these are among them), so a script named
/// elsewhere would pass a bare existence check and never run. Weapons' and building abilities' scripts
/// are not called by the kernel and are only checked for existence.
pub const SCRIPT_FOLDERS: &[(&str, &[&str])] = &[
    ("trait", &["traits", "signatures", "alpha"]),
    ("signature", &["signatures", "traits", "alpha"]),
    ("alpha", &["alpha", "traits", "signatures"]),
    ("spell", &["spells"]),
    ("behaviour", &["behaviours"]),
    ("opportunity", &["opportunities"]),
];

/// The folders a script of `what` (a key of [`SCRIPT_FOLDERS`]) may live in; empty: anywhere.
fn folders_for(what: &str) -> &'static [&'static str] {
    SCRIPT_FOLDERS
        .iter()
        .find(|(w, _)| *w == what)
        .map_or(&[], |(_, f)| *f)
}

/// Runs every check, appending to `l.errors` and `l.warnings`.
pub(crate) fn validate(l: &mut Loaded) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    {
        let names = Names::of(l);
        let ctx = Ctx {
            names: &names,
            layers: &l.layers,
            // Checks that loop or multiply over rule constants read them only when every constant is
            // in range (`max_heroes = 4e9` must be one error, not four billion iterations).
            rules_ok: l
                .rules
                .as_ref()
                .is_some_and(|r| rule_problems(r).is_empty()),
        };
        ctx.rules(l, &mut errors);
        ctx.traits(l, &mut errors);
        ctx.weapons(l, &mut errors);
        ctx.spells(l, &mut errors);
        ctx.behaviours(l, &mut errors);
        ctx.profiles(l, &mut errors, &mut warnings);
        ctx.buildings(l, &mut errors);
        ctx.escalation(l, &mut errors);
        ctx.opportunities(l, &mut errors);
        super::presets::validate(l, ctx.rules_ok, &mut errors);
        super::tracks::validate(l, &mut errors);
        super::lookalike::check(l, &mut errors, &mut warnings);
    }
    l.errors.extend(errors);
    l.warnings.extend(warnings);
}

/// The names of a set, for [`names::unknown`].
fn strs(set: &BTreeSet<String>) -> impl Iterator<Item = &str> {
    set.iter().map(String::as_str)
}

/// Every known name per table.
struct Names {
    traits: BTreeSet<String>,
    weapons: BTreeSet<String>,
    spells: BTreeSet<String>,
    behaviours: BTreeSet<String>,
    profiles: BTreeSet<String>,
    escalations: BTreeSet<String>,
}

impl Names {
    fn of(l: &Loaded) -> Self {
        fn set<T>(v: &[Entry<T>], f: impl Fn(&T) -> &str) -> BTreeSet<String> {
            v.iter().map(|e| f(&e.value).to_string()).collect()
        }
        Names {
            traits: set(&l.traits, |t| &t.name),
            weapons: set(&l.weapons, |t| &t.name),
            spells: set(&l.spells, |t| &t.name),
            behaviours: set(&l.behaviours, |t| &t.name),
            profiles: set(&l.profiles, |t| &t.name),
            escalations: set(&l.escalation, |t| &t.name),
        }
    }

    /// The set a params key refers to, if the key is a reference.
    fn for_param(&self, key: &str) -> Option<(&'static str, &BTreeSet<String>)> {
        match key {
            "profile" => Some(("profile", &self.profiles)),
            "trait" => Some(("trait", &self.traits)),
            "behaviour" => Some(("Behaviour", &self.behaviours)),
            "spell" => Some(("spell", &self.spells)),
            "weapon" => Some(("weapon", &self.weapons)),
            _ => None,
        }
    }
}

struct Ctx<'a> {
    names: &'a Names,
    layers: &'a [PathBuf],
    /// The rules loaded and every constant is in range.
    rules_ok: bool,
}

impl Ctx<'_> {
    /// Checks an optional script path at `field` of an entry: a path under `scripts/` of some layer
    /// and, for a script of `what` the kernel calls, a file directly in one of its [`SCRIPT_FOLDERS`].
    fn script(
        &self,
        o: &Origin,
        field: &str,
        what: &str,
        script: &Option<String>,
        errors: &mut Vec<Diagnostic>,
    ) {
        let Some(s) = script else { return };
        let folders = folders_for(what);
        let placed = match s.split_once('/') {
            Some((folder, file)) => folders.contains(&folder) && !file.contains('/'),
            None => false,
        };
        if !script_path_ok(s) {
            errors.push(o.diag(
                field,
                field,
                format!("script path \"{s}\" must be relative to scripts/, without \"..\", and end in .lua"),
            ));
        } else if !folders.is_empty() && !placed {
            let list: Vec<String> = folders.iter().map(|f| format!("scripts/{f}/")).collect();
            errors.push(o.diag(
                field,
                field,
                format!(
                    "script \"{s}\" would never run: a {what}'s script must be a file directly in {}",
                    or_list(&list)
                ),
            ));
        } else if !script_exists(self.layers, s) {
            errors.push(o.diag(
                field,
                field,
                format!("script \"{s}\" not found in scripts/ of any layer"),
            ));
        }
    }

    /// Checks the reference keys of a params table at `prefix` (`params`, `alpha.params`).
    fn params(&self, o: &Origin, prefix: &str, params: &Params, errors: &mut Vec<Diagnostic>) {
        for (key, value) in params {
            let Some((what, set)) = self.names.for_param(key) else {
                continue;
            };
            let field = format!("{prefix}.{key}");
            let names: Vec<&str> = match value {
                ParamValue::Text(s) => vec![s.as_str()],
                ParamValue::List(items) => items
                    .iter()
                    .filter_map(|i| match i {
                        ParamValue::Text(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect(),
                _ => {
                    errors.push(o.diag(&field, &field, format!("`{key}` must name a {what}")));
                    continue;
                }
            };
            for n in names {
                if !set.contains(n) {
                    errors.push(o.diag(&field, &field, names::unknown(what, n, strs(set))));
                }
            }
        }
    }

    fn rules(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        let Some(r) = &l.rules else { return };
        for (path, message) in rule_problems(r) {
            errors.push(l.rules_origins.diag(None, &path, message));
        }
        for (table, value, origins) in [
            (
                "barricade",
                l.barricade.as_ref().map(toml::Value::try_from),
                &l.barricade_origins,
            ),
            (
                "trap",
                l.trap.as_ref().map(toml::Value::try_from),
                &l.trap_origins,
            ),
        ] {
            if let Some(Ok(v)) = value {
                for (key, message) in out_of_range(VILLAGE_FILE, table, &v) {
                    errors.push(origins.diag(Some(table), &key, message));
                }
            }
        }
    }

    /// The [`RANGES`](super::ranges::RANGES) of one list entry's numbers.
    fn ranges<T: serde::Serialize>(
        &self,
        file: &str,
        table: &str,
        e: &Entry<T>,
        errors: &mut Vec<Diagnostic>,
    ) {
        let Ok(v) = toml::Value::try_from(&e.value) else {
            return;
        };
        for (key, message) in out_of_range(file, table, &v) {
            errors.push(e.origin.diag(&key, &key, message));
        }
    }
    fn traits(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        for e in &l.traits {
            self.script(&e.origin, "script", "trait", &e.value.script, errors);
            self.params(&e.origin, "params", &e.value.params, errors);
            if e.value.cost_from_weapon && e.value.needs != Some(TraitNeed::Weapon) {
                errors.push(e.origin.diag(
                    "cost_from_weapon",
                    "cost_from_weapon",
                    "a trait costed by its weapon must have needs = \"weapon\"",
                ));
            }
        }
    }

    fn weapons(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        for e in &l.weapons {
            self.script(&e.origin, "script", "weapon", &e.value.script, errors);
            self.params(&e.origin, "params", &e.value.params, errors);
            if e.value
                .bands
                .as_ref()
                .is_some_and(|b| b.modifiers.is_empty())
            {
                errors.push(
                    e.origin
                        .diag("bands", "bands", "bands.modifiers must not be empty"),
                );
            }
        }
    }

    fn spells(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        for e in &l.spells {
            let (s, o) = (&e.value, &e.origin);
            self.script(o, "script", "spell", &s.script, errors);
            self.ranges("spells.toml", "spell", e, errors);
            self.params(o, "params", &s.params, errors);
            if s.kinds.is_empty() {
                errors.push(o.diag("kinds", "kinds", "a spell needs at least one kind"));
            }
            match (s.is(SpellKind::Ritual), s.ritual_actions) {
                (true, None) => errors.push(o.diag(
                    "ritual_actions",
                    "kinds",
                    "a Ritual spell needs ritual_actions ≥ 1 (its Task size)",
                )),
                (false, Some(_)) => errors.push(o.diag(
                    "ritual_actions",
                    "ritual_actions",
                    "ritual_actions is only for a spell of kind \"ritual\"",
                )),
                _ => {}
            }
            match (s.is(SpellKind::Wall), &s.wall) {
                (true, None) => {
                    errors.push(o.diag("wall", "kinds", "a Wall spell needs `wall` statistics"))
                }
                (false, Some(_)) => errors.push(o.diag(
                    "wall",
                    "wall",
                    "`wall` is only for a spell of kind \"wall\"",
                )),
                _ => {}
            }
        }
    }

    fn behaviours(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        let mut orders: BTreeMap<u32, &str> = BTreeMap::new();
        for e in &l.behaviours {
            let (b, o) = (&e.value, &e.origin);
            self.script(o, "script", "behaviour", &b.script, errors);
            self.params(o, "params", &b.params, errors);
            self.ranges("behaviours.toml", "behaviour", e, errors);
            if let Some(f) = &b.fallback_behaviour {
                if f == &b.name || !self.names.behaviours.contains(f) {
                    errors.push(o.diag(
                        "fallback_behaviour",
                        "fallback_behaviour",
                        format!("unknown Behaviour \"{f}\" (or the Behaviour itself)"),
                    ));
                }
            }
            if let Some(other) = orders.insert(b.order, &b.name) {
                errors.push(o.diag(
                    "order",
                    "order",
                    format!("order {} is also used by \"{other}\"", b.order),
                ));
            }
        }
    }

    fn profiles(&self, l: &Loaded, errors: &mut Vec<Diagnostic>, warnings: &mut Vec<Diagnostic>) {
        let traits: BTreeMap<&str, _> = l
            .traits
            .iter()
            .map(|t| (t.value.name.as_str(), &t.value))
            .collect();
        let mut seen: BTreeMap<&str, (ProfileKind, &Origin)> = BTreeMap::new();
        for e in &l.profiles {
            let (p, o) = (&e.value, &e.origin);
            if let Some((kind, first)) = seen.insert(&p.name, (p.kind, o)) {
                errors.push(o.diag(
                    "name",
                    "name",
                    format!(
                        "profile name already used by the {} in {} (line {})",
                        kind.as_str(),
                        first.file,
                        first.line("").map_or("?".into(), |l| l.to_string())
                    ),
                ));
            }
            let (file, table) = match p.kind {
                ProfileKind::Hero => ("heroes.toml", "hero"),
                ProfileKind::Enemy => ("bestiary.toml", "enemy"),
                ProfileKind::Defender => ("defenders.toml", "defender"),
            };
            self.ranges(file, table, e, errors);
            let mut needs = BTreeSet::new();
            let mut names = BTreeSet::new();
            for (i, t) in p.traits.iter().enumerate() {
                let at = format!("traits[{i}]");
                if !names.insert(t) {
                    errors.push(o.diag("traits", &at, format!("trait \"{t}\" listed twice")));
                }
                match traits.get(t.as_str()) {
                    None => errors.push(o.diag(
                        "traits",
                        &at,
                        names::unknown("trait", t, strs(&self.names.traits)),
                    )),
                    Some(def) => {
                        if let Some(n) = def.needs {
                            needs.insert(n);
                        }
                        if def.needs == Some(TraitNeed::Weapon) && p.weapon.is_none() {
                            errors.push(o.diag(
                                "weapon",
                                &at,
                                format!("trait \"{t}\" needs a weapon, and none is given"),
                            ));
                        }
                        if def.needs == Some(TraitNeed::Spells) && p.spells.is_empty() {
                            errors.push(o.diag(
                                "spells",
                                &at,
                                format!(
                                    "trait \"{t}\" needs at least one spell, and none is given"
                                ),
                            ));
                        }
                    }
                }
            }
            if let Some(w) = &p.weapon {
                if !self.names.weapons.contains(w) {
                    errors.push(o.diag(
                        "weapon",
                        "weapon",
                        names::unknown("weapon", w, strs(&self.names.weapons)),
                    ));
                }
                if !needs.contains(&TraitNeed::Weapon) {
                    errors.push(o.diag(
                        "weapon",
                        "weapon",
                        format!("weapon \"{w}\" given but no trait that uses one (Shooter)"),
                    ));
                }
            }
            for (i, s) in p.spells.iter().enumerate() {
                if !self.names.spells.contains(s) {
                    errors.push(o.diag(
                        "spells",
                        &format!("spells[{i}]"),
                        names::unknown("spell", s, strs(&self.names.spells)),
                    ));
                }
            }
            if !p.spells.is_empty() && !needs.contains(&TraitNeed::Spells) {
                errors.push(o.diag(
                    "spells",
                    "spells",
                    "spells given but no trait that casts them (Spellcaster)",
                ));
            }
            let mut bnames = BTreeSet::new();
            for (i, b) in p.behaviours.iter().enumerate() {
                let at = format!("behaviours[{i}]");
                if !self.names.behaviours.contains(b) {
                    errors.push(o.diag(
                        "behaviours",
                        &at,
                        names::unknown("Behaviour", b, strs(&self.names.behaviours)),
                    ));
                }
                if !bnames.insert(b) {
                    errors.push(o.diag(
                        "behaviours",
                        &at,
                        format!("Behaviour \"{b}\" listed twice"),
                    ));
                }
            }
            if p.kind == ProfileKind::Enemy && p.behaviours.is_empty() {
                errors.push(o.diag(
                    "behaviours",
                    "behaviours",
                    "an enemy profile needs at least one Behaviour",
                ));
            }
            if matches!(p.tier, Tier::Elite | Tier::Boss) && p.alpha.is_none() {
                errors.push(o.diag(
                    "alpha",
                    "",
                    format!(
                        "every {} needs an Alpha Rule (`alpha = {{ name, text }}`)",
                        p.tier.as_str()
                    ),
                ));
            }
            for (field, ability) in [("alpha", &p.alpha), ("signature", &p.signature)] {
                if let Some(a) = ability {
                    if a.name.trim().is_empty() {
                        errors.push(o.diag(
                            &format!("{field}.name"),
                            &format!("{field}.name"),
                            "an ability name must not be empty or whitespace",
                        ));
                    }
                    self.script(o, &format!("{field}.script"), field, &a.script, errors);
                    self.params(o, &format!("{field}.params"), &a.params, errors);
                }
            }
            // The wave builder's own question (`Profile::cost_problem`), asked here so that `check`
            // refuses what `wave` would.
            if p.kind == ProfileKind::Enemy && l.rules.is_some() {
                if let Some(problem) = p.cost_problem() {
                    errors.push(o.diag("wave_points", "wave_points", problem));
                }
            }
            if let Some(printed) = p.printed_wave_points {
                if l.rules.is_some() && printed != p.wave_points {
                    warnings.push(o.diag(
                        "wave_points",
                        "wave_points",
                        format!(
                            "printed cost {printed} differs from the formula's {}",
                            p.wave_points
                        ),
                    ));
                }
            }
        }
    }

    fn buildings(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        let max_level = l
            .rules
            .as_ref()
            .filter(|_| self.rules_ok)
            .map_or(3, |r| r.setup.max_level);
        let mut town_halls = Vec::new();
        for e in &l.buildings {
            let (b, o) = (&e.value, &e.origin);
            if b.town_hall {
                town_halls.push(b.name.as_str());
            }
            self.ranges(VILLAGE_FILE, "building", e, errors);
            for (i, a) in b.abilities.iter().enumerate() {
                let at = format!("abilities[{i}]");
                if a.name.trim().is_empty() {
                    errors.push(o.diag(
                        &format!("{at}.name"),
                        &format!("{at}.name"),
                        "an ability name must not be empty or whitespace",
                    ));
                }
                if a.level == 0 || a.level > max_level {
                    errors.push(o.diag(
                        &format!("{at}.level"),
                        &format!("{at}.level"),
                        format!(
                            "level {} is outside 1..={max_level} (rules.toml [setup] max_level)",
                            a.level
                        ),
                    ));
                }
                self.script(
                    o,
                    &format!("{at}.script"),
                    "building ability",
                    &a.script,
                    errors,
                );
                self.params(o, &format!("{at}.params"), &a.params, errors);
            }
            for level in 1..=max_level {
                if b.abilities_at(level).next().is_none() {
                    errors.push(o.diag(
                        "abilities",
                        "abilities",
                        format!("no ability at level {level} (rules.toml [setup] max_level is {max_level})"),
                    ));
                }
            }
        }
        if town_halls.len() != 1 {
            let file = l
                .buildings
                .first()
                .map_or("rosters/village.toml".to_string(), |b| {
                    b.origin.file.clone()
                });
            errors.push(Diagnostic::file(
                file,
                format!(
                    "exactly one building must have town_hall = true, found {} ({})",
                    town_halls.len(),
                    town_halls.join(", ")
                ),
            ));
        }
    }

    fn escalation(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        let file = l
            .escalation
            .first()
            .map_or("rosters/escalation.toml".to_string(), |e| {
                e.origin.file.clone()
            });
        for name in ESCALATIONS {
            if !self.names.escalations.contains(name) {
                errors.push(Diagnostic::file(
                    file.clone(),
                    format!("Escalation \"{name}\" is missing"),
                ));
            }
        }
        let rules = l.rules.as_ref().filter(|_| self.rules_ok);
        for e in &l.escalation {
            let (x, o) = (&e.value, &e.origin);
            self.ranges("escalation.toml", "escalation", e, errors);
            if let Some(r) = rules {
                if x.min_spawn_edges as usize > r.table.edges.len() {
                    errors.push(o.diag(
                        "min_spawn_edges",
                        "min_spawn_edges",
                        format!(
                            "min_spawn_edges {} exceeds the {} table edges",
                            x.min_spawn_edges,
                            r.table.edges.len()
                        ),
                    ));
                }
                whole_budgets(r, x.budget_percent, "budget_percent", o, errors);
            }
        }
        for e in &l.lengths {
            let (x, o) = (&e.value, &e.origin);
            if x.waves.is_empty() {
                errors.push(o.diag("waves", "waves", "a length needs at least one wave"));
            }
            if x.waves.len() > MAX_WAVES as usize {
                errors.push(o.diag(
                    "waves",
                    "waves",
                    format!(
                        "a length has at most {MAX_WAVES} waves, not {}",
                        x.waves.len()
                    ),
                ));
            }
            self.ranges("escalation.toml", "length", e, errors);
            if let Some(endless) = &x.endless {
                if endless.max_waves < x.waves.len() as u32 || endless.max_waves > MAX_WAVES {
                    errors.push(o.diag(
                        "endless.max_waves",
                        "endless.max_waves",
                        format!(
                            "{} is outside {}..={MAX_WAVES} (the listed waves up to the most a length has)",
                            endless.max_waves,
                            x.waves.len()
                        ),
                    ));
                }
            }
            // Whole budgets past the list too.
            if let (Some(endless), Some(r)) = (&x.endless, rules) {
                let step = endless.budget_percent_step;
                whole_budgets(r, step, "endless.budget_percent_step", o, errors);
            }
            for (i, w) in x.waves.iter().enumerate() {
                if !self.names.escalations.contains(w) {
                    errors.push(o.diag(
                        "waves",
                        &format!("waves[{i}]"),
                        names::unknown("Escalation", w, strs(&self.names.escalations)),
                    ));
                }
            }
        }
    }

    fn opportunities(&self, l: &Loaded, errors: &mut Vec<Diagnostic>) {
        let file = l
            .opportunities
            .first()
            .map_or("rosters/opportunities.toml".to_string(), |e| {
                e.origin.file.clone()
            });
        let rolls: BTreeSet<u8> = l.opportunities.iter().map(|e| e.value.roll).collect();
        for e in &l.opportunities {
            let (x, o) = (&e.value, &e.origin);
            self.ranges("opportunities.toml", "opportunity", e, errors);
            self.script(o, "script", "opportunity", &x.script, errors);
            self.params(o, "params", &x.params, errors);
        }
        let missing: Vec<String> = OPPORTUNITY_ROLLS
            .filter(|r| !rolls.contains(r))
            .map(|r| r.to_string())
            .collect();
        if !missing.is_empty() {
            errors.push(Diagnostic::file(
                file,
                format!(
                    "the Opportunity table has no row for roll {}",
                    missing.join(", ")
                ),
            ));
        }
    }
}

/// Every problem with a whole set of rule constants, as (dotted key, message): each number outside its
/// range, then the relations between keys. Shared by rules.toml (`validate`) and a variant's `rules`
/// overrides ([`super::Rules::with_overrides`]), so both refuse the same values.
pub(crate) fn rule_problems(r: &Rules) -> Vec<(String, String)> {
    let mut out = rules_out_of_range(r);
    let mut push = |path: &str, message: String| out.push((path.to_string(), message));
    let t = &r.table;
    if t.edges.len() != EDGES {
        push(
            "table.edges",
            format!(
                "the table has {EDGES} edges (north, east, south, west): {} names given",
                t.edges.len()
            ),
        );
    }
    for (i, e) in t.edges.iter().enumerate() {
        if e.trim().is_empty() {
            push(
                &format!("table.edges[{i}]"),
                "an edge name must not be empty or whitespace".into(),
            );
        }
    }
    if usize::from(t.random_edge_max_roll) != t.edges.len() {
        push(
            "table.random_edge_max_roll",
            format!(
                "random_edge_max_roll ({}) must equal the number of edges ({})",
                t.random_edge_max_roll,
                t.edges.len()
            ),
        );
    }
    if t.terrain_min > t.terrain_max {
        push(
            "table.terrain_min",
            "terrain_min exceeds terrain_max".into(),
        );
    }
    let m = &r.measures;
    if !(m.short > 0.0 && m.short < m.medium && m.medium < m.long) {
        push(
            "measures",
            "measures must satisfy 0 < short < medium < long".into(),
        );
    }
    let a = &r.activation;
    if a.natural_fail >= a.natural_success {
        push(
            "activation.natural_fail",
            format!(
                "natural_fail ({}) must be below natural_success ({})",
                a.natural_fail, a.natural_success
            ),
        );
    }
    if u32::from(r.wave.enemy_dice) > a.max_dice {
        push(
            "wave.enemy_dice",
            format!(
                "enemy_dice ({}) exceeds [activation] max_dice ({})",
                r.wave.enemy_dice, a.max_dice
            ),
        );
    }
    if r.wave.min_heroes == 0 || r.wave.min_heroes > r.wave.max_heroes {
        push("wave.min_heroes", "need 1 ≤ min_heroes ≤ max_heroes".into());
    }
    let powers = r
        .actions
        .spell_max_power
        .saturating_sub(r.actions.spell_min_power)
        .saturating_add(1);
    if r.actions.spell_min_power == 0
        || r.actions.spell_min_power > r.actions.spell_max_power
        || r.magic.power_ranges.len() != powers as usize
    {
        push(
            "magic.power_ranges",
            format!(
                "power_ranges needs one measure per Power [actions] spell_min_power..=spell_max_power ({}..={}), spell_min_power ≥ 1",
                r.actions.spell_min_power, r.actions.spell_max_power
            ),
        );
    }
    if r.setup.starting_level == 0 || r.setup.starting_level > r.setup.max_level {
        push(
            "setup.starting_level",
            "need 1 ≤ starting_level ≤ max_level".into(),
        );
    }
    out
}

/// "a", "a or b", "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Core §5.1: "All supported party values produce whole budgets": `percent` of every party's value, as
/// the rules count it, is a whole number of Wave Points; else an error at `field` of the entry.
pub(crate) fn whole_budgets(
    r: &Rules,
    percent: u32,
    field: &str,
    o: &Origin,
    errors: &mut Vec<Diagnostic>,
) {
    for heroes in r.wave.min_heroes..=r.wave.max_heroes {
        let party = r.wave.party_value_per_hero * i64::from(heroes);
        if (party * i64::from(percent)) % 100 != 0 {
            errors.push(o.diag(
                field,
                field,
                format!(
                    "{percent}% of party value {party} ({heroes} heroes × rules.toml [wave] party_value_per_hero) is not a whole budget"
                ),
            ));
        }
    }
}
