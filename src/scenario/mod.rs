//! Scenario files (`scenarios/NAME.toml` of the built-in layer or a `--mod` folder, or any file given by
//! path): a set piece as data. This first part of the format gives the table — its size and each
//! terrain piece — and where each village building stands with its Integrity, with the length and
//! preset the scenario is played at; `rulebook`, the default, is today's game (a generated table, the
//! rulebook's placement).
//!
//! Owns the format, its strict parsing (every error at file, field and line, as the rosters'), the
//! checks against the rosters and the table's geometry (buildings on the table and apart, terrain on
//! the table and convex, a route from every edge to the Town Hall), and the [`Table`] a scenario makes.
//! It never plays: the game is made from its table where every game is made (`script::api::new_game`).

mod battle;

pub use battle::{
    ConclusionKind, ScenarioConclusion, ScenarioGroup, ScenarioObjective, ScenarioParty,
    ScenarioZone,
};

use crate::geometry::{Polygon, Rect, Segment, Table, Terrain, TerrainKind, Vec2};
use crate::roster::{Diagnostic, Rosters};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The scenario every command plays when `--scenario` is not given: the rulebook's game.
pub const DEFAULT_SCENARIO: &str = "rulebook";

/// [`DEFAULT_SCENARIO`] as a `String`: what a run, record or save that names no scenario plays.
pub fn default_scenario() -> String {
    DEFAULT_SCENARIO.to_string()
}

/// Whether `s` is the default scenario: files leave it out, as they do the default preset.
pub fn is_default_scenario(s: &str) -> bool {
    s == DEFAULT_SCENARIO
}

/// The folder of each layer that holds scenario files.
pub const FOLDER: &str = "scenarios";

/// A scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The name `--scenario` takes; the file is `scenarios/NAME.toml`.
    pub name: String,
    /// What the scenario is, in a sentence (`village scenarios` prints it).
    pub description: String,
    /// The game length played when `--length` is not given (the preset's, else standard, otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<String>,
    /// The difficulty preset played when `--preset` is not given (rulebook otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The table: its size and every terrain piece. Left out, the table is generated from the game's
    /// seed as the rulebook says (Ch. IV), the buildings placed with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<ScenarioTable>,
    /// Where each village building stands (`[[buildings]]`); only with a `table`. Left out, the
    /// buildings of the rosters stand in the rulebook's layout around the table's centre.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buildings: Option<Vec<ScenarioBuilding>>,
    /// Without a `[table]`: the seed the rulebook's generated table is made from, the same table
    /// whatever the game's seed (left out, each game's own seed makes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_seed: Option<u64>,
    /// The Supplies the village starts with, in place of rules.toml's `setup.starting_supplies`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplies: Option<u32>,
    /// The round limit: each wave (a battle of fixed Groups is one) ends at the end of this round, and
    /// the game with its `round_limit` conclusion (else by Victory Points when there are objectives,
    /// else a draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// The Escalation a battle of fixed Groups is fought at (whether Igniters burn; default: the
    /// length's first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escalation: Option<String>,
    /// The party: fixed heroes or how many of `--heroes`, and Village Defenders beside them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub party: Option<ScenarioParty>,
    /// Deployment zones (`[[zones]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones: Vec<ScenarioZone>,
    /// Fixed enemy Groups (`[[groups]]`): the game is one battle against them instead of waves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<ScenarioGroup>,
    /// Objectives and their Victory Points (`[[objectives]]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<ScenarioObjective>,
    /// What ends the game besides the rulebook's losses (`[[conclusions]]`), asked in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conclusions: Vec<ScenarioConclusion>,
    /// A victory script (`scripts/victory/NAME.lua`) whose `on_victory_check` is asked where the game
    /// can end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory: Option<String>,
}

/// A scenario's table (`[table]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTable {
    /// Inches, west to east.
    pub width: f64,
    /// Inches, south to north.
    pub height: f64,
    /// The terrain pieces (`[[table.terrain]]`), none if left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<ScenarioTerrain>,
}

/// One terrain piece: an area's corners, or a wall's or hedge's two ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTerrain {
    /// What it is (SUPPLEMENT §2).
    pub kind: TerrainKind,
    /// An area's corners as `[x, y]` inches, a convex outline in either winding (wood, hill, rocks,
    /// pond, field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Vec<[f64; 2]>>,
    /// A wall's or hedge's two ends as `[x, y]` inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<[[f64; 2]; 2]>,
}

/// Where one village building stands (`[[buildings]]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioBuilding {
    /// Its name in rosters/village.toml (its size and abilities are the roster's).
    pub name: String,
    /// Its centre, inches from the west edge.
    pub x: f64,
    /// Its centre, inches from the south edge.
    pub y: f64,
    /// Turned a quarter: its width runs north–south.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turned: bool,
    /// Its Integrity, in place of village.toml's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integrity: Option<u32>,
}

/// A scenario read from its file, with where it was read from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub scenario: Scenario,
    /// The file, as errors name it.
    pub file: String,
}

impl Scenario {
    /// The table of a game of this scenario, or `None` for a generated one (the rulebook's).
    pub fn table(&self, rosters: &Rosters) -> Option<Table> {
        let t = self.table.as_ref()?;
        let mut table = Table::empty(t.width, t.height);
        table.terrain = t
            .terrain
            .iter()
            .filter_map(ScenarioTerrain::piece)
            .collect();
        match &self.buildings {
            Some(list) => {
                // The Town Hall first, as the table keeps it.
                let mut sites: Vec<_> = list
                    .iter()
                    .filter_map(|b| Some((b, b.rect(rosters)?)))
                    .map(|(b, rect)| crate::geometry::BuildingSite {
                        name: b.name.clone(),
                        rect,
                    })
                    .collect();
                sites.sort_by_key(|s| rosters.building(&s.name).is_none_or(|b| !b.town_hall));
                table.buildings = sites;
            }
            None => {
                let spec = crate::state::table_spec(rosters);
                table.buildings =
                    crate::geometry::standard_layout(&spec.buildings, t.width, t.height).buildings;
            }
        }
        Some(table)
    }

    /// The Integrity each building the scenario names starts with, where it sets one.
    pub fn integrity(&self) -> impl Iterator<Item = (&str, u32)> {
        self.buildings
            .iter()
            .flatten()
            .filter_map(|b| Some((b.name.as_str(), b.integrity?)))
    }
}

impl ScenarioTerrain {
    /// The piece on the table, when its shape fits its kind.
    fn piece(&self) -> Option<Terrain> {
        let v = |p: &[f64; 2]| Vec2::new(p[0], p[1]);
        match (&self.area, &self.line) {
            (Some(pts), None) if !self.kind.is_linear() => Some(Terrain::area(
                self.kind,
                Polygon::new(pts.iter().map(v).collect()),
            )),
            (None, Some([a, b])) if self.kind.is_linear() => {
                Some(Terrain::line(self.kind, Segment::new(v(a), v(b))))
            }
            _ => None,
        }
    }
}

impl ScenarioBuilding {
    /// Its footprint: the roster's size, centred on its place (turned: width north–south).
    fn rect(&self, rosters: &Rosters) -> Option<Rect> {
        let b = rosters.building(&self.name)?;
        let (w, h) = if self.turned {
            (b.height, b.width)
        } else {
            (b.width, b.height)
        };
        Some(Rect::centered(Vec2::new(self.x, self.y), w, h))
    }
}

impl Loaded {
    /// The default scenario when no layer has a `scenarios/rulebook.toml` (a `--data` folder made
    /// before scenarios): the rulebook's game.
    fn rulebook() -> Loaded {
        Loaded {
            scenario: Scenario {
                name: DEFAULT_SCENARIO.to_string(),
                description: "The rulebook's game.".to_string(),
                length: None,
                preset: None,
                table: None,
                buildings: None,
                table_seed: None,
                supplies: None,
                rounds: None,
                escalation: None,
                party: None,
                zones: Vec::new(),
                groups: Vec::new(),
                objectives: Vec::new(),
                conclusions: Vec::new(),
                victory: None,
            },
            file: format!("{FOLDER}/{DEFAULT_SCENARIO}.toml"),
        }
    }
}

/// The scenario a person names: a path to a `.toml` file, or a name looked up as
/// `scenarios/NAME.toml` in the layers, the last one that has it first. Parsed and checked against
/// `rosters`; every problem found, each at file, field and line.
pub fn load(layers: &[PathBuf], rosters: &Rosters, name: &str) -> Result<Loaded, Vec<Diagnostic>> {
    let found = find(layers, name);
    if found.is_none() && name == DEFAULT_SCENARIO {
        return Ok(Loaded::rulebook());
    }
    let path = found.ok_or_else(|| {
        vec![Diagnostic::file(
            FOLDER,
            crate::names::unknown("scenario", name, names(layers).iter().map(String::as_str)),
        )]
    })?;
    // A built-in scenario is named as the checkout names it (`scenarios/rulebook.toml`).
    let display = match layers.first().and_then(|root| path.strip_prefix(root).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    };
    let text = crate::files::read_text(&path, crate::files::ROSTER)
        .map_err(|e| vec![Diagnostic::file(display.clone(), e.to_string())])?;
    let file = crate::roster::parse_source(display.clone(), &text).map_err(|d| vec![d])?;
    let (value, errors) =
        crate::roster::deserialize_all::<Scenario>(&toml::Value::Table(file.table.clone()));
    let at = |field: &str, message: String| {
        Diagnostic::file(display.clone(), message)
            .field(field)
            .line(file.lines.get(field))
    };
    let mut problems: Vec<Diagnostic> = errors.into_iter().map(|(f, m)| at(&f, m)).collect();
    let Some(scenario) = value.filter(|_| problems.is_empty()) else {
        return Err(problems);
    };
    let scripts = victory_scripts(layers);
    check(&scenario, rosters, &scripts, &mut |field, message| {
        problems.push(at(field, message))
    });
    if problems.is_empty() {
        Ok(Loaded {
            scenario,
            file: display,
        })
    } else {
        Err(problems)
    }
}

/// The file `name` means: an existing path ending in `.toml`, else `scenarios/NAME.toml` of the last
/// layer that has it.
fn find(layers: &[PathBuf], name: &str) -> Option<PathBuf> {
    if name.ends_with(".toml") {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return None;
    }
    layers
        .iter()
        .rev()
        .map(|l| l.join(FOLDER).join(format!("{name}.toml")))
        .find(|p| p.is_file())
}

/// Every scenario name of the layers, sorted (a later layer's file of the same name replaces one).
pub fn names(layers: &[PathBuf]) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for l in layers {
        let Ok(entries) = std::fs::read_dir(l.join(FOLDER)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "toml") {
                if let Some(stem) = p.file_stem() {
                    out.insert(stem.to_string_lossy().into_owned());
                }
            }
        }
    }
    out.into_iter().collect()
}

/// The victory scripts of the layers (`scripts/victory/NAME.lua`), by name.
pub fn victory_scripts(layers: &[PathBuf]) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for l in layers {
        let Ok(entries) = std::fs::read_dir(l.join("scripts").join("victory")) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "lua") {
                if let Some(stem) = p.file_stem() {
                    out.insert(stem.to_string_lossy().into_owned());
                }
            }
        }
    }
    out.into_iter().collect()
}

/// Every check of a parsed scenario against the rosters, the victory scripts and the geometry of its
/// table; each problem reported as (field, message).
fn check(s: &Scenario, r: &Rosters, victory: &[String], say: &mut dyn FnMut(&str, String)) {
    check_table(s, r, say);
    let table = if s.buildings.is_some() || s.table.is_some() {
        s.table(r)
    } else {
        None
    };
    battle::check(s, r, table.as_ref(), victory, say);
}

/// The table and the buildings on it.
fn check_table(s: &Scenario, r: &Rosters, say: &mut dyn FnMut(&str, String)) {
    if let Some(l) = &s.length {
        if r.length(l).is_none() {
            say("length", r.unknown_length(l));
        }
    }
    if let Some(p) = &s.preset {
        if r.preset(p).is_none() {
            say("preset", r.unknown_preset(p));
        }
    }
    if s.table.is_some() && s.table_seed.is_some() {
        say(
            "table_seed",
            "a table_seed makes the rulebook's generated table: give it or [table], not both"
                .into(),
        );
    }
    if let (Some(n), Some(range)) = (
        s.supplies,
        crate::roster::range_of("rules.toml", "setup", "starting_supplies"),
    ) {
        if !range.contains(f64::from(n)) {
            say(
                "supplies",
                format!("{n} is outside the valid range {}", range.describe()),
            );
        }
    }
    let Some(t) = &s.table else {
        if s.buildings.is_some() {
            say(
                "buildings",
                "buildings are placed on a table of the scenario's own: give [table] too".into(),
            );
        }
        return;
    };
    for (key, v) in [("table.width", t.width), ("table.height", t.height)] {
        if let Some(range) = crate::roster::range_of("rules.toml", "table", &key[6..]) {
            if !range.contains(v) {
                say(
                    key,
                    format!("{v} is outside the valid range {}", range.describe()),
                );
            }
        }
    }
    let on_table = |p: &[f64; 2]| {
        p.iter().all(|x| x.is_finite())
            && (0.0..=t.width).contains(&p[0])
            && (0.0..=t.height).contains(&p[1])
    };
    for (i, piece) in t.terrain.iter().enumerate() {
        let at = format!("table.terrain[{i}]");
        let kind = piece.kind.name();
        match (&piece.area, &piece.line, piece.kind.is_linear()) {
            (Some(pts), None, false) => {
                if pts.len() < 3 {
                    say(&format!("{at}.area"), format!("a {kind} needs at least three corners"));
                } else if !pts.iter().all(on_table) {
                    say(&format!("{at}.area"), format!("a corner of the {kind} is off the {}\" × {}\" table", t.width, t.height));
                } else if !convex(pts) {
                    say(&format!("{at}.area"), format!("the {kind}'s outline is not convex: give its corners in order around it"));
                }
            }
            (None, Some(ends), true) => {
                if !ends.iter().all(on_table) {
                    say(&format!("{at}.line"), format!("an end of the {kind} is off the {}\" × {}\" table", t.width, t.height));
                }
            }
            (_, _, true) => say(&at, format!("a {kind} is a line: give `line = [[x, y], [x, y]]` and no `area`")),
            (_, _, false) => say(&at, format!("a {kind} is an area: give `area = [[x, y], …]` (three corners or more) and no `line`")),
        }
    }
    let Some(list) = &s.buildings else {
        return;
    };
    // The terrain the buildings must keep off, built once for them all.
    let impassable: Vec<Polygon> = t
        .terrain
        .iter()
        .filter(|p| p.kind.is_impassable())
        .filter_map(ScenarioTerrain::piece)
        .filter_map(|p| p.polygon().cloned())
        .collect();
    let mut placed: Vec<(usize, Rect)> = Vec::new();
    for (i, b) in list.iter().enumerate() {
        let at = format!("buildings[{i}]");
        let Some(roster) = r.building(&b.name) else {
            say(
                &format!("{at}.name"),
                crate::names::unknown(
                    "building",
                    &b.name,
                    r.buildings.iter().map(|x| x.name.as_str()),
                ),
            );
            continue;
        };
        if list[..i].iter().any(|o| o.name == b.name) {
            say(
                &format!("{at}.name"),
                format!("the {} stands twice", b.name),
            );
            continue;
        }
        if let (Some(v), Some(range)) = (
            b.integrity,
            crate::roster::range_of("village.toml", "building", "integrity"),
        ) {
            if !range.contains(f64::from(v)) {
                say(
                    &format!("{at}.integrity"),
                    format!("{v} is outside the valid range {}", range.describe()),
                );
            }
        }
        let Some(rect) = b.rect(r) else { continue };
        let fits = rect.min.x >= 0.0
            && rect.min.y >= 0.0
            && rect.max.x <= t.width
            && rect.max.y <= t.height;
        if !b.x.is_finite() || !b.y.is_finite() || !fits {
            say(
                &at,
                format!(
                    "the {} ({}\" × {}\" centred on ({}, {})) is not wholly on the table",
                    b.name, roster.width, roster.height, b.x, b.y
                ),
            );
            continue;
        }
        if let Some((j, _)) = placed.iter().find(|(_, o)| !o.apart(&rect)) {
            say(
                &at,
                format!(
                    "the {} overlaps the {} (buildings[{j}])",
                    b.name, list[*j].name
                ),
            );
        }
        if impassable
            .iter()
            .any(|p| p.pts.iter().any(|c| rect.contains(*c)) || p.contains(rect.center()))
        {
            say(&at, format!("the {} stands on impassable terrain", b.name));
        }
        placed.push((i, rect));
    }
    let town_hall = list
        .iter()
        .any(|b| r.building(&b.name).is_some_and(|x| x.town_hall));
    // Without a Town Hall the heroes deploy in their zone.
    if !town_hall && !s.zones.iter().any(|z| z.side == crate::state::Side::Heroes) {
        say(
            "buildings",
            "the Town Hall must stand (the heroes deploy around it), or give the heroes a zone"
                .into(),
        );
        return;
    }
    if town_hall && placed.len() == list.len() {
        if let Some(table) = s.table(r) {
            let radius = r.rules.bases.normal / 2.0;
            let routes = crate::geometry::edge_routes(&table, radius);
            for (edge, route) in r.rules.table.edges.iter().zip(routes) {
                if route.is_none() {
                    say("table", format!("no model can reach the Town Hall from the {edge} edge: open a way through the terrain and buildings"));
                }
            }
        }
    }
}

/// Whether the corners go round a convex outline (the convex hull keeps them all).
pub(crate) fn convex(pts: &[[f64; 2]]) -> bool {
    let v: Vec<Vec2> = pts.iter().map(|p| Vec2::new(p[0], p[1])).collect();
    Polygon::convex_hull(&v).pts.len() == v.len() && Polygon::new(v).area() > 0.0
}
