//! The End Sequence after the rewards (core §7.1 steps 5–6): placing the next Opportunity token, and the
//! Council Phase (§7.2–7.3) — upgrades, repairs, Barricades, Traps, healing and Resurrection.
//!
//! As a Council opens, every model on the table hears it through its scripts' `on_council`
//! ([`open_council`]): they may grant free Council orders for this Council (Grimm's Snare Master: a free
//! Trap that Entangles, ordered `{ trap = at, free = true }`), kept in `Game::council_grants`.
//!
//! Owns validating and applying Council orders. The hero policy decides (`Hooks::policy_council`, a
//! policy script's `council(ctx, info)`); this module checks each order against the rules, the buildings'
//! Levels and the limited uses in `Game::spent` ("council:<ability>" for once per Council, cleared when a
//! Council starts; "game:<ability>" for once per game), applies it and logs a `council` event. A refused
//! order changes nothing, is logged with its reason, and the next order is tried.
//!
//! Abilities are found by their roster names ([`REPAIRS`], [`ENGINEERING_CORPS`], ...), whichever
//! building carries them; every number (costs, Integrity restored, Wounds healed, distances, limits)
//! comes from the ability's `params` in `rosters/village.toml`, `[barricade]`/`[trap]`, the Opportunity
//! rows and `rosters/rules.toml`. The Opportunity's edge and spot use only `Game::roll` and
//! `Game::choose`, so both are in the log.
//!
//! Rulings (ARCHITECTURE.md):
//! - a Barricade is a segment of the roster length from `from` toward `toward`, on the table, touching
//!   no building or impassable terrain, its nearest point within `within` of an intact building; a Trap
//!   likewise, a point; a Destroyed building anchors neither;
//! - a paid repair names its Supplies; spending more than the building needs to reach its starting
//!   Integrity is refused (a partial last step, Forge II restoring 2 where 1 is missing, is allowed);
//! - Engineering Corps is one use per Council ("choose one"), shared by its free repair and free
//!   Barricade; Reinforced Defenses must be asked for on the Barricade it improves;
//! - Resurrection places the hero wholly within `within` of the Temple (as deployment reads "within");
//!   Fled heroes are not Defeated (they rejoin at the next wave start, `play::start_wave`) and cannot be
//!   resurrected.

use super::WaveError;
use crate::geometry::{
    circle_polygon_gap, circle_rect_gap, segment_polygon_dist, segment_rect_dist, Circle, Segment,
    TerrainShape, Vec2,
};
use crate::roster::{BuildingAbility, ParamValue, ProfileKind, Rosters, Timing};
use crate::rules::hooks::{CouncilAbility, CouncilBuilding, CouncilInfo, CouncilOrder, Hooks};
use crate::rules::magic::{self, Heal};
use crate::rules::query::placement_problem;
use crate::rules::RuleError;
use crate::state::{model_from_profile, EventKind, Game, TokenId, TokenKind};
use serde::Serialize;
use thiserror::Error;

/// Town Hall II: a free repair or a free Barricade each Council.
pub const ENGINEERING_CORPS: &str = "Engineering Corps";
/// Forge I: Supplies buy Integrity.
pub const REPAIRS: &str = "Repairs";
/// Forge II: each Supply restores more.
pub const MASTER_CRAFTSMEN: &str = "Master Craftsmen";
/// Forge III: one Barricade a Council gains Integrity.
pub const REINFORCED_DEFENSES: &str = "Reinforced Defenses";
/// Temple I: heal a hero's Wound each Council.
pub const HEALING: &str = "Healing";
/// Temple III: once per game, a Defeated hero returns.
pub const RESURRECTION: &str = "Resurrection";
/// Watchtower II: Opportunities are placed face up.
pub const SCOUTS: &str = "Scouts";
/// The Opportunity row whose tokens heal in the Council.
pub const HERB_PATCH: &str = "Herb Patch";

const EPS: f64 = 1e-9;
/// Spacing of the spots tried around the Temple for a resurrected hero, inches.
const GRID: f64 = 0.25;

/// Why a Council order was refused. Nothing changed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Refused {
    /// A point that is NaN, infinite or off the table.
    #[error("{0}")]
    Input(String),
    #[error("not enough Supplies: it costs {need}, the village has {have}")]
    NotEnoughSupplies { need: i32, have: i32 },
    #[error("there is no building called {0:?}")]
    NoBuilding(String),
    #[error("the {0} is Destroyed")]
    Destroyed(String),
    #[error("the {0} is already at the top Level ({1})")]
    TopLevel(String, String),
    #[error("the {building} is at Level {now}: it can go only to Level {next}, not {level}")]
    SkipsLevel {
        building: String,
        now: String,
        next: String,
        level: u8,
    },
    #[error("the {0} is at its starting Integrity ({1})")]
    FullIntegrity(String, i32),
    #[error("{supplies} Supplies would repair the {building} past its starting Integrity: {needed} are enough")]
    Overspend {
        building: String,
        supplies: u32,
        needed: u32,
    },
    #[error("it needs an intact {building} at Level {level} ({ability})")]
    NeedsAbility {
        ability: String,
        building: String,
        level: String,
    },
    #[error("{ability} was already used {scope}")]
    AlreadyUsed {
        ability: String,
        scope: &'static str,
    },
    #[error("{0} is not a hero on the table")]
    NoHero(String),
    #[error("{0} has no Wound to heal")]
    NoWound(String),
    #[error("the village has no Herb token")]
    NoHerb,
    #[error("{0} is not a hero of the party")]
    NotInParty(String),
    #[error("{0} is not Defeated: {1}")]
    NotDefeated(String, &'static str),
    #[error("{hero} would return at Quality {quality}+, which is Defeated")]
    TooWounded { hero: String, quality: u8 },
    #[error("the {what} is {distance:.2}\" from the nearest intact building; it must be within {within}\"")]
    TooFar {
        what: &'static str,
        distance: f64,
        within: f64,
    },
    #[error("{0}")]
    BadPlacement(String),
    #[error("{0}")]
    BadAmount(String),
    #[error("rosters: {0}")]
    BadRoster(String),
    #[error("{0}")]
    Rule(String),
}

impl From<RuleError> for Refused {
    fn from(e: RuleError) -> Self {
        Refused::Rule(e.to_string())
    }
}

/// What one Council order did, as its `council` event says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CouncilReport {
    /// `upgrade`, `repair`, `barricade`, `trap`, `heal`, `herb` or `resurrect`.
    pub what: String,
    pub building: Option<String>,
    pub hero: Option<String>,
    pub pos: Option<Vec2>,
    /// The Barricade or Trap placed.
    pub token: Option<TokenId>,
    /// Supplies paid.
    pub supplies: i32,
    /// The ability that allowed it ("Forge I Repairs"), or "Council" for what any Council may do.
    pub source: String,
    /// The result in words ("Integrity 3 -> 5").
    pub detail: String,
    /// Why nothing happened, when refused.
    pub refused: Option<String>,
}

impl CouncilReport {
    fn of(order: &CouncilOrder) -> Self {
        let (what, building, hero, pos) = match order {
            CouncilOrder::Upgrade { building, .. } => {
                ("upgrade", Some(building.clone()), None, None)
            }
            CouncilOrder::Repair { building, .. } => ("repair", Some(building.clone()), None, None),
            CouncilOrder::Barricade { from, .. } => ("barricade", None, None, Some(*from)),
            CouncilOrder::Trap { at } => ("trap", None, None, Some(*at)),
            CouncilOrder::FreeTrap { at } => ("trap", None, None, Some(*at)),
            CouncilOrder::Heal { hero } => ("heal", None, Some(hero.clone()), None),
            CouncilOrder::Herb { hero } => ("herb", None, Some(hero.clone()), None),
            CouncilOrder::Resurrect { hero, at } => ("resurrect", None, Some(hero.clone()), *at),
        };
        CouncilReport {
            what: what.to_string(),
            building,
            hero,
            pos,
            token: None,
            supplies: 0,
            source: "Council".to_string(),
            detail: String::new(),
            refused: None,
        }
    }

    /// A few words for a wave summary, with the Supplies paid ("Forge II (3)", "Town Hall repaired to
    /// 8 (1)", "Barricade (free)").
    pub fn summary(&self) -> String {
        let b = self.building.as_deref().unwrap_or("?");
        let h = self.hero.as_deref().unwrap_or("?");
        let text = match self.what.as_str() {
            "upgrade" => format!("{b} {}", self.detail.trim_start_matches("Level ")),
            "repair" => format!(
                "{b} repaired to {}",
                self.detail.rsplit(' ').next().unwrap_or("?")
            ),
            "barricade" => "Barricade".to_string(),
            "trap" => "Trap".to_string(),
            "heal" => format!("Temple heals {h}"),
            "herb" => format!("Herb heals {h}"),
            "resurrect" => format!("{h} resurrected"),
            other => other.to_string(),
        };
        if self.supplies > 0 {
            format!("{text} ({})", self.supplies)
        } else {
            format!("{text} (free)")
        }
    }
}

fn roman(level: u8) -> String {
    match level {
        1 => "I".into(),
        2 => "II".into(),
        3 => "III".into(),
        n => n.to_string(),
    }
}

/// The roster building carrying the ability `name`, and the ability.
fn ability<'a>(
    rosters: &'a Rosters,
    name: &str,
) -> Option<(&'a crate::roster::Building, &'a BuildingAbility)> {
    rosters
        .buildings
        .iter()
        .find_map(|b| b.abilities.iter().find(|a| a.name == name).map(|a| (b, a)))
}

/// The ability `name` if its building stands at its Level now.
fn active<'a>(
    game: &Game,
    rosters: &'a Rosters,
    name: &str,
) -> Option<(String, &'a BuildingAbility)> {
    require(game, rosters, name).ok()
}

/// The ability `name` with its building's name, or why it is not in force.
fn require<'a>(
    game: &Game,
    rosters: &'a Rosters,
    name: &str,
) -> Result<(String, &'a BuildingAbility), Refused> {
    let (b, a) = ability(rosters, name)
        .ok_or_else(|| Refused::BadRoster(format!("no building has the {name} ability")))?;
    let needs = || Refused::NeedsAbility {
        ability: name.to_string(),
        building: b.name.clone(),
        level: roman(a.level),
    };
    let gb = game.building(&b.name).map_err(|_| needs())?;
    if gb.destroyed || gb.level < a.level {
        return Err(needs());
    }
    Ok((b.name.clone(), a))
}

/// How the log names an ability: "Forge II Master Craftsmen".
fn source(building: &str, a: &BuildingAbility) -> String {
    format!("{building} {} {}", roman(a.level), a.name)
}

fn number(params: &crate::roster::Params, owner: &str, key: &str) -> Result<f64, Refused> {
    match params.get(key) {
        Some(ParamValue::Int(i)) => Ok(*i as f64),
        Some(ParamValue::Float(f)) => Ok(*f),
        _ => Err(Refused::BadRoster(format!(
            "{owner} has no number `{key}` in its params"
        ))),
    }
}

fn count(params: &crate::roster::Params, owner: &str, key: &str) -> Result<u32, Refused> {
    let n = number(params, owner, key)?;
    if n < 0.0 || n.fract() != 0.0 || n > f64::from(u16::MAX) {
        return Err(Refused::BadRoster(format!(
            "{owner}'s `{key}` must be a whole number, not {n}"
        )));
    }
    Ok(n as u32)
}

fn uses(game: &Game, key: &str) -> u32 {
    game.spent.iter().filter(|s| *s == key).count() as u32
}

/// The key a once-per-Council ability is spent under.
pub fn council_key(ability: &str) -> String {
    format!("council:{ability}")
}

/// The key a once-per-game ability is spent under.
pub fn game_key(ability: &str) -> String {
    format!("game:{ability}")
}

/// A Council ability in force whose use this Council is not spent yet (its `per_council`, default one):
/// the building that has it and the ability.
fn council_ability<'a>(
    game: &Game,
    rosters: &'a Rosters,
    name: &str,
) -> Result<(String, &'a BuildingAbility), Refused> {
    let (b, a) = require(game, rosters, name)?;
    within_limit(
        game,
        &council_key(&a.name),
        per_council(a)?,
        &a.name,
        "this Council",
    )?;
    Ok((b, a))
}

/// Refuse when `key` is already used `limit` times.
fn within_limit(
    game: &Game,
    key: &str,
    limit: u32,
    ability: &str,
    scope: &'static str,
) -> Result<(), Refused> {
    if uses(game, key) >= limit {
        return Err(Refused::AlreadyUsed {
            ability: ability.to_string(),
            scope,
        });
    }
    Ok(())
}

/// How many times a Council ability may be used per Council (Engineering Corps: "choose one").
fn per_council(a: &BuildingAbility) -> Result<u32, Refused> {
    if a.params.contains_key("per_council") {
        count(&a.params, &a.name, "per_council")
    } else {
        Ok(1)
    }
}

/// Whether a Council ability's limited use is spent.
fn used(game: &Game, a: &BuildingAbility) -> bool {
    if a.params.contains_key("per_game") {
        let limit = count(&a.params, &a.name, "per_game").unwrap_or(0);
        return uses(game, &game_key(&a.name)) >= limit;
    }
    match per_council(a) {
        Ok(limit) => uses(game, &council_key(&a.name)) >= limit,
        Err(_) => true,
    }
}

fn pay(game: &Game, cost: i32) -> Result<(), Refused> {
    if game.supplies < cost {
        return Err(Refused::NotEnoughSupplies {
            need: cost,
            have: game.supplies,
        });
    }
    Ok(())
}

/// The party's heroes that were Defeated: not on the table and not Fled (those rejoin at the next wave
/// start), in party order.
pub fn defeated_heroes(game: &Game) -> Vec<String> {
    game.party
        .iter()
        .filter(|n| {
            !game
                .models
                .iter()
                .any(|m| &m.name == *n && m.kind == ProfileKind::Hero)
                && !game.fled.iter().any(|m| &m.name == *n)
        })
        .cloned()
        .collect()
}

/// The spawn edges of the last wave built, from its `group_built` events, sorted and without repeats.
pub fn last_edges(game: &Game) -> Vec<u8> {
    let mut edges = Vec::new();
    let mut closed = false;
    for e in game.log() {
        match &e.kind {
            EventKind::GroupBuilt { edge, .. } => {
                if closed {
                    edges.clear();
                    closed = false;
                }
                edges.push(*edge);
            }
            EventKind::WaveBuilt { .. } => closed = true,
            _ => {}
        }
    }
    edges.sort_unstable();
    edges.dedup();
    edges
}

/// What the hero policy is told at the start of a Council (see [`CouncilInfo`]).
pub fn council_info(game: &Game, rosters: &Rosters) -> CouncilInfo {
    let max = rosters.rules.setup.max_level;
    let buildings = game
        .buildings
        .iter()
        .map(|b| CouncilBuilding {
            name: b.name.clone(),
            level: b.level,
            integrity: b.integrity,
            max_integrity: b.max_integrity,
            destroyed: b.destroyed,
            upgrade_cost: if b.destroyed || b.level >= max {
                None
            } else {
                rosters
                    .building(&b.name)
                    .and_then(|s| s.upgrade_cost(b.level + 1))
            },
        })
        .collect();
    let mut abilities = Vec::new();
    for spec in &rosters.buildings {
        let Ok(b) = game.building(&spec.name) else {
            continue;
        };
        if b.destroyed {
            continue;
        }
        for a in spec
            .abilities
            .iter()
            .filter(|a| a.timing == Timing::Council && a.level <= b.level)
        {
            abilities.push(CouncilAbility {
                building: spec.name.clone(),
                level: a.level,
                name: a.name.clone(),
                params: a.params.clone(),
                used: used(game, a),
            });
        }
    }
    CouncilInfo {
        wave: game.wave,
        supplies: game.supplies,
        herbs: game.herbs,
        buildings,
        abilities,
        defeated: defeated_heroes(game),
        edges: last_edges(game),
        barricade_cost: rosters.barricade.cost,
        barricade_length: rosters.barricade.length,
        barricade_within: rosters.barricade.within,
        trap_cost: rosters.trap.cost,
        trap_within: rosters.trap.within,
        grants: game.council_grants.clone(),
    }
}

/// The Council Phase (core §7.2): the once-per-Council uses start afresh, the hero policy orders, and
/// every order is tried in turn. Returns one report per order, refused ones included.
pub fn council_phase(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<Vec<CouncilReport>, RuleError> {
    open_council(game, rosters, hooks)?;
    let info = council_info(game, rosters);
    let orders = hooks.policy_council(game, &info)?;
    let reports = orders
        .iter()
        .map(|o| council_order(game, rosters, o))
        .collect();
    // The purchases (and the refusals) were what the policy's decision led to.
    game.decisions_done();
    Ok(reports)
}

/// A Council Phase opens (core §7.2): the once-per-Council uses start afresh (`council:` keys and the
/// grants of the last Council), then every model on the table, in id order, hears it through its
/// scripts' `on_council`: the free orders they grant for this Council are kept in
/// `Game::council_grants` (logged `rule_bent`, naming the script) and the changes they ask for applied.
pub fn open_council(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
) -> Result<(), RuleError> {
    game.spent.retain(|s| !s.starts_with("council:"));
    game.council_grants.clear();
    let ids: Vec<crate::state::ModelId> = game.models.iter().map(|m| m.id).collect();
    for id in ids {
        if game.model(id).is_err() {
            continue;
        }
        let (grants, intents) = hooks.on_council(game, id)?;
        crate::rules::outcome::apply_intents(game, &rosters.rules, hooks, &intents)?;
        for g in grants {
            game.record(EventKind::RuleBent {
                model: g.model,
                rule: "council_grant".into(),
                detail: format!(
                    "{} grants {} free {}{} this Council ({}){}",
                    g.hero,
                    g.uses,
                    g.order,
                    if g.uses == 1 { "" } else { "s" },
                    g.reason,
                    if g.entangle { ": it Entangles" } else { "" }
                ),
                source: g.source.clone(),
            });
            game.council_grants.push(g);
        }
    }
    Ok(())
}

/// A Council Phase with these orders that opens like [`council_phase`] (the models' `on_council`
/// first, so a free Trap one of them grants can be ordered), then validates, applies and logs each
/// order (`g:council(orders)`).
pub fn hold_council_with(
    game: &mut Game,
    rosters: &Rosters,
    hooks: &dyn Hooks,
    orders: &[CouncilOrder],
) -> Result<Vec<CouncilReport>, RuleError> {
    open_council(game, rosters, hooks)?;
    Ok(orders
        .iter()
        .map(|o| council_order(game, rosters, o))
        .collect())
}

/// A Council Phase with these orders: the once-per-Council uses start afresh, then each order is
/// validated, applied and logged (`council` event), or refused with its reason.
pub fn hold_council(
    game: &mut Game,
    rosters: &Rosters,
    orders: &[CouncilOrder],
) -> Vec<CouncilReport> {
    game.spent.retain(|s| !s.starts_with("council:"));
    game.council_grants.clear();
    orders
        .iter()
        .map(|o| council_order(game, rosters, o))
        .collect()
}

/// Validate, apply and log one Council order. A refused order changes nothing but the log.
pub fn council_order(game: &mut Game, rosters: &Rosters, order: &CouncilOrder) -> CouncilReport {
    let mut report = CouncilReport::of(order);
    // A NaN or off-table point is refused (and logged as refused) before anything is paid.
    let checked = order
        .check_input(&game.table)
        .map_err(|e| Refused::Input(e.to_string()));
    if let Err(why) = checked.and_then(|()| apply(game, rosters, order, &mut report)) {
        report.refused = Some(why.to_string());
        report.supplies = 0;
        report.token = None;
        report.detail = "refused".to_string();
    }
    // The token placed, with its shape: a Barricade's ends and Integrity, a Trap's radius.
    let placed = report
        .token
        .and_then(|id| game.tokens.iter().find(|t| t.id == id));
    let (line, integrity, radius) = match placed.map(|t| &t.kind) {
        Some(TokenKind::Barricade {
            segment, integrity, ..
        }) => (Some([segment.a, segment.b]), Some(*integrity), None),
        Some(TokenKind::Trap { radius, .. }) => (None, None, Some(*radius)),
        _ => (None, None, None),
    };
    game.record(EventKind::Council {
        what: report.what.clone(),
        building: report.building.clone(),
        hero: report.hero.clone(),
        pos: report.pos,
        token: report.token,
        line,
        integrity,
        radius,
        supplies: report.supplies,
        source: report.source.clone(),
        detail: report.detail.clone(),
        refused: report.refused.clone(),
    });
    report
}

fn apply(
    game: &mut Game,
    rosters: &Rosters,
    order: &CouncilOrder,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    match order {
        CouncilOrder::Upgrade { building, level } => {
            upgrade(game, rosters, building, *level, report)
        }
        CouncilOrder::Repair {
            building,
            supplies,
            free,
        } => repair(game, rosters, building, *supplies, *free, report),
        CouncilOrder::Barricade {
            from,
            toward,
            free,
            reinforce,
        } => barricade(game, rosters, *from, *toward, *free, *reinforce, report),
        CouncilOrder::Trap { at } => trap(game, rosters, *at, report),
        CouncilOrder::FreeTrap { at } => free_trap(game, rosters, *at, report),
        CouncilOrder::Heal { hero } => heal(game, rosters, hero, false, report),
        CouncilOrder::Herb { hero } => heal(game, rosters, hero, true, report),
        CouncilOrder::Resurrect { hero, at } => resurrect(game, rosters, hero, *at, report),
    }
}

fn upgrade(
    game: &mut Game,
    rosters: &Rosters,
    name: &str,
    level: Option<u8>,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let b = game
        .building(name)
        .map_err(|_| Refused::NoBuilding(name.to_string()))?;
    if b.destroyed {
        return Err(Refused::Destroyed(b.name.clone()));
    }
    if b.level >= rosters.rules.setup.max_level {
        return Err(Refused::TopLevel(b.name.clone(), roman(b.level)));
    }
    let next = b.level + 1;
    if let Some(l) = level.filter(|l| *l != next) {
        return Err(Refused::SkipsLevel {
            building: b.name.clone(),
            now: roman(b.level),
            next: roman(next),
            level: l,
        });
    }
    let cost = rosters
        .building(name)
        .and_then(|s| s.upgrade_cost(next))
        .ok_or_else(|| {
            Refused::BadRoster(format!("no Level {} cost for the {name}", roman(next)))
        })? as i32;
    pay(game, cost)?;
    game.supplies -= cost;
    if let Ok(b) = game.building_mut(name) {
        b.level = next;
    }
    report.supplies = cost;
    report.detail = format!("Level {}", roman(next));
    Ok(())
}

fn repair(
    game: &mut Game,
    rosters: &Rosters,
    name: &str,
    supplies: Option<u32>,
    free: bool,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let b = game
        .building(name)
        .map_err(|_| Refused::NoBuilding(name.to_string()))?;
    if b.destroyed {
        return Err(Refused::Destroyed(b.name.clone()));
    }
    if b.integrity >= b.max_integrity {
        return Err(Refused::FullIntegrity(b.name.clone(), b.max_integrity));
    }
    let (before, max) = (b.integrity, b.max_integrity);
    let missing = (max - before) as u32;
    let (gain, cost) = if free {
        if supplies.is_some_and(|s| s > 0) {
            return Err(Refused::BadAmount(
                "a free repair (Engineering Corps) spends no Supplies".into(),
            ));
        }
        let (th, a) = council_ability(game, rosters, ENGINEERING_CORPS)?;
        report.source = source(&th, a);
        (count(&a.params, &a.name, "repair")?, 0)
    } else {
        let (forge, rep) = require(game, rosters, REPAIRS)?;
        let unit = count(&rep.params, &rep.name, "supplies")?.max(1);
        let (per_unit, src) = match active(game, rosters, MASTER_CRAFTSMEN) {
            Some((f, mc)) => (
                count(&mc.params, &mc.name, "integrity_per_supply")? * unit,
                source(&f, mc),
            ),
            None => (
                count(&rep.params, &rep.name, "integrity")?,
                source(&forge, rep),
            ),
        };
        let n = supplies.unwrap_or(unit);
        if n == 0 || !n.is_multiple_of(unit) {
            return Err(Refused::BadAmount(format!(
                "repairs are bought {unit} Suppl{} at a time, not {n}",
                if unit == 1 { "y" } else { "ies" }
            )));
        }
        if per_unit == 0 {
            return Err(Refused::BadRoster(format!("{src} restores nothing")));
        }
        let needed = missing.div_ceil(per_unit) * unit;
        if n > needed {
            return Err(Refused::Overspend {
                building: name.to_string(),
                supplies: n,
                needed,
            });
        }
        pay(game, n as i32)?;
        report.source = src;
        (n / unit * per_unit, n as i32)
    };
    let after = (before + gain as i32).min(max);
    game.supplies -= cost;
    if free {
        game.spent.push(council_key(ENGINEERING_CORPS));
    }
    if let Ok(b) = game.building_mut(name) {
        b.integrity = after;
    }
    report.supplies = cost;
    report.detail = format!("Integrity {before} -> {after}");
    Ok(())
}

/// The nearest intact building's distance to what `dist` measures, or a [`Refused::TooFar`].
fn near_building(
    game: &Game,
    what: &'static str,
    within: f64,
    dist: impl Fn(&crate::geometry::Rect) -> f64,
) -> Result<(), Refused> {
    let d = game
        .buildings
        .iter()
        .filter(|b| !b.destroyed)
        .map(|b| dist(&b.rect))
        .fold(f64::INFINITY, f64::min);
    if d > within + EPS {
        return Err(Refused::TooFar {
            what,
            distance: d,
            within,
        });
    }
    Ok(())
}

fn on_table(game: &Game, p: Vec2) -> bool {
    p.x >= -EPS && p.y >= -EPS && p.x <= game.table.width + EPS && p.y <= game.table.height + EPS
}

#[allow(clippy::too_many_arguments)]
fn barricade(
    game: &mut Game,
    rosters: &Rosters,
    from: Vec2,
    toward: Vec2,
    free: bool,
    reinforce: bool,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let spec = &rosters.barricade;
    let dir = toward - from;
    if dir.len() < EPS {
        return Err(Refused::BadPlacement(
            "a Barricade needs two different points".into(),
        ));
    }
    let end = from + dir.normalized() * spec.length;
    let seg = Segment::new(from, end);
    if !on_table(game, from) || !on_table(game, end) {
        return Err(Refused::BadPlacement(
            "the Barricade would leave the table".into(),
        ));
    }
    if let Some(b) = game
        .table
        .buildings
        .iter()
        .find(|b| segment_rect_dist(&seg, &b.rect) <= 0.0)
    {
        return Err(Refused::BadPlacement(format!(
            "the Barricade would touch the {}",
            b.name
        )));
    }
    if game.table.terrain.iter().any(|t| {
        t.kind.is_impassable()
            && matches!(&t.shape, TerrainShape::Area(p) if segment_polygon_dist(&seg, p) <= 0.0)
    }) {
        return Err(Refused::BadPlacement(
            "the Barricade would touch impassable terrain".into(),
        ));
    }
    near_building(game, "Barricade", spec.within, |r| {
        segment_rect_dist(&seg, r)
    })?;
    let mut sources = Vec::new();
    if free {
        let (th, a) = council_ability(game, rosters, ENGINEERING_CORPS)?;
        if count(&a.params, &a.name, "barricades")? == 0 {
            return Err(Refused::BadRoster(format!(
                "{} places no Barricade",
                a.name
            )));
        }
        sources.push(source(&th, a));
    }
    let mut integrity = spec.integrity as i32;
    if reinforce {
        let (forge, a) = council_ability(game, rosters, REINFORCED_DEFENSES)?;
        integrity += count(&a.params, &a.name, "integrity")? as i32;
        sources.push(source(&forge, a));
    }
    let cost = if free { 0 } else { spec.cost as i32 };
    pay(game, cost)?;
    game.supplies -= cost;
    if free {
        game.spent.push(council_key(ENGINEERING_CORPS));
    }
    if reinforce {
        game.spent.push(council_key(REINFORCED_DEFENSES));
    }
    let token = game.add_token(
        TokenKind::Barricade {
            segment: seg,
            integrity,
            structure: spec.structure as i32,
            caster: None,
            flying_ignores: spec.flying_ignores,
        },
        from.lerp(end, 0.5),
    );
    report.token = Some(token);
    report.supplies = cost;
    if !sources.is_empty() {
        report.source = sources.join(", ");
    }
    report.detail = format!(
        "({:.1}, {:.1}) to ({:.1}, {:.1}), Integrity {integrity}",
        from.x, from.y, end.x, end.y
    );
    Ok(())
}

/// Why a point is not open ground for a token (inside a building or impassable terrain), if it is not.
fn closed_ground(game: &Game, p: Vec2, r: f64) -> Option<String> {
    let c = Circle { c: p, r };
    if let Some(b) = game
        .table
        .buildings
        .iter()
        .find(|b| circle_rect_gap(&c, &b.rect) < -EPS)
    {
        return Some(format!("it would be on the {}", b.name));
    }
    game.table
        .terrain
        .iter()
        .find(|t| {
            t.kind.is_impassable()
                && matches!(&t.shape, TerrainShape::Area(poly) if circle_polygon_gap(&c, poly) < -EPS)
        })
        .map(|t| format!("it would be in impassable {:?}", t.kind).to_lowercase())
}

fn trap(
    game: &mut Game,
    rosters: &Rosters,
    at: Vec2,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let spec = &rosters.trap;
    trap_spot(game, rosters, at)?;
    let cost = spec.cost as i32;
    pay(game, cost)?;
    game.supplies -= cost;
    let token = game.add_token(
        TokenKind::Trap {
            combat: i32::from(spec.combat),
            radius: spec.trigger_radius,
            entangle: false,
        },
        at,
    );
    report.token = Some(token);
    report.supplies = cost;
    report.detail = format!("at ({:.1}, {:.1})", at.x, at.y);
    Ok(())
}

/// Where a Trap may lie (core §7.2): on the table, on open ground, within the roster's distance of a
/// village building.
fn trap_spot(game: &Game, rosters: &Rosters, at: Vec2) -> Result<(), Refused> {
    if !on_table(game, at) {
        return Err(Refused::BadPlacement(
            "the Trap would be off the table".into(),
        ));
    }
    if let Some(why) = closed_ground(game, at, 0.0) {
        return Err(Refused::BadPlacement(format!("the Trap: {why}")));
    }
    near_building(game, "Trap", rosters.trap.within, |r| {
        r.signed_dist(at).max(0.0)
    })
}

/// A free Trap (`{ trap = at, free = true }`): the first grant of this Council for a free Trap not used
/// up pays for it; the Trap is placed as a bought one would be, Entangles when the grant says so, and
/// remembers the script that granted it (its `trap` event names it when it goes off).
fn free_trap(
    game: &mut Game,
    rosters: &Rosters,
    at: Vec2,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let Some(i) = game
        .council_grants
        .iter()
        .position(|g| g.order == "trap" && g.used < g.uses)
    else {
        return Err(Refused::Rule(
            "no free Trap this Council: no model on the table grants one, or its free Traps are placed"
                .into(),
        ));
    };
    let grant = game.council_grants[i].clone();
    let spec = &rosters.trap;
    trap_spot(game, rosters, at)?;
    let token = game.add_token(
        TokenKind::Trap {
            combat: i32::from(spec.combat),
            radius: spec.trigger_radius,
            entangle: grant.entangle,
        },
        at,
    );
    if let Some(t) = game.tokens.iter_mut().find(|t| t.id == token) {
        t.source = Some(grant.source.clone());
    }
    game.council_grants[i].used += 1;
    report.token = Some(token);
    report.supplies = 0;
    report.source = grant.source.clone();
    report.detail = format!(
        "at ({:.1}, {:.1}), free ({}: {}){}",
        at.x,
        at.y,
        grant.reason,
        grant.hero,
        if grant.entangle { ", Entangles" } else { "" }
    );
    Ok(())
}

/// Temple Healing (`herb` false) or a Herb token (`herb` true) on a hero on the table.
fn heal(
    game: &mut Game,
    rosters: &Rosters,
    hero: &str,
    herb: bool,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let m = game
        .models
        .iter()
        .find(|m| m.name == hero && m.kind == ProfileKind::Hero)
        .ok_or_else(|| Refused::NoHero(hero.to_string()))?;
    let (id, before) = (m.id, m.wounds);
    if before == 0 {
        return Err(Refused::NoWound(hero.to_string()));
    }
    let wounds = if herb {
        if game.herbs == 0 {
            return Err(Refused::NoHerb);
        }
        let row = rosters
            .opportunities
            .iter()
            .find(|o| o.name == HERB_PATCH)
            .ok_or_else(|| Refused::BadRoster(format!("no Opportunity called {HERB_PATCH}")))?;
        report.source = "Herb token".to_string();
        count(&row.params, HERB_PATCH, "wounds")?
    } else {
        let (temple, a) = council_ability(game, rosters, HEALING)?;
        report.source = source(&temple, a);
        count(&a.params, &a.name, "wounds")?
    };
    if herb {
        game.herbs -= 1;
    } else {
        game.spent.push(council_key(HEALING));
    }
    for _ in 0..wounds.min(u32::from(before)) {
        magic::heal(game, &rosters.rules, id, Heal::Wound)?;
    }
    let after = game.model(id).map_or(0, |m| m.wounds);
    report.detail = format!("Wounds {before} -> {after}");
    Ok(())
}

fn resurrect(
    game: &mut Game,
    rosters: &Rosters,
    hero: &str,
    at: Option<Vec2>,
    report: &mut CouncilReport,
) -> Result<(), Refused> {
    let (temple, a) = require(game, rosters, RESURRECTION)?;
    within_limit(
        game,
        &game_key(&a.name),
        count(&a.params, &a.name, "per_game")?,
        &a.name,
        "this game",
    )?;
    if !game.party.iter().any(|n| n == hero) {
        return Err(Refused::NotInParty(hero.to_string()));
    }
    if game
        .models
        .iter()
        .any(|m| m.name == hero && m.kind == ProfileKind::Hero)
    {
        return Err(Refused::NotDefeated(hero.to_string(), "it is on the table"));
    }
    if game.fled.iter().any(|m| m.name == hero) {
        return Err(Refused::NotDefeated(
            hero.to_string(),
            "it Fled and rejoins at the next wave start",
        ));
    }
    let profile = rosters
        .profile(hero)
        .filter(|p| p.kind == ProfileKind::Hero)
        .ok_or_else(|| Refused::BadRoster(format!("no hero profile called {hero:?}")))?;
    let wounds = count(&a.params, &a.name, "wounds")?;
    let tough = &rosters.rules.tough;
    let quality = u32::from(profile.quality) + wounds * u32::from(tough.quality_loss_per_wound);
    if quality >= u32::from(tough.defeated_at_quality) {
        return Err(Refused::TooWounded {
            hero: hero.to_string(),
            quality: quality.min(u32::from(u8::MAX)) as u8,
        });
    }
    let within = number(&a.params, &a.name, "within")?;
    let rect = game
        .building(&temple)
        .map_err(|_| Refused::NoBuilding(temple.clone()))?
        .rect;
    let mut model = model_from_profile(profile, rosters, Vec2::new(0.0, 0.0));
    let r = model.base / 2.0;
    // Wholly within: the base's far side no more than `within` from the Temple's outline.
    let fits = |p: Vec2| -> Result<(), String> {
        let c = Circle { c: p, r };
        let gap = circle_rect_gap(&c, &rect);
        if gap + 2.0 * r > within + EPS {
            return Err(format!(
                "the hero must stand wholly within {within}\" of the {temple}"
            ));
        }
        match placement_problem(game, &c) {
            Some(why) => Err(why),
            None => Ok(()),
        }
    };
    let pos = match at {
        Some(p) => {
            fits(p).map_err(Refused::BadPlacement)?;
            p
        }
        None => {
            let area = rect.expand(within);
            let mut spots = Vec::new();
            let (nx, ny) = (
                ((area.max.x - area.min.x) / GRID).floor() as i64,
                ((area.max.y - area.min.y) / GRID).floor() as i64,
            );
            for i in 0..=nx {
                for j in 0..=ny {
                    let p = Vec2::new(area.min.x + i as f64 * GRID, area.min.y + j as f64 * GRID);
                    spots.push((rect.signed_dist(p), p));
                }
            }
            spots.sort_by(|a, b| {
                a.0.total_cmp(&b.0)
                    .then(a.1.x.total_cmp(&b.1.x))
                    .then(a.1.y.total_cmp(&b.1.y))
            });
            spots
                .into_iter()
                .map(|(_, p)| p)
                .find(|p| fits(*p).is_ok())
                .ok_or_else(|| {
                    Refused::BadPlacement(format!("no room within {within}\" of the {temple}"))
                })?
        }
    };
    model.pos = pos;
    model.wounds = wounds.min(u32::from(u8::MAX)) as u8;
    model.quality = quality as u8;
    game.spent.push(game_key(&a.name));
    game.add_model(model);
    report.pos = Some(pos);
    report.source = source(&temple, a);
    report.detail = format!("returns with {wounds} Wounds at Quality {quality}+");
    Ok(())
}

/// §7.1 step 5: put one Opportunity token on a random edge (a D6, rerolling above the number of edges,
/// `rules.table.random_edge_max_roll`), on open ground at least `rules.setup.opportunity_min_from_town_hall`
/// from the Town Hall if the edge has such a spot, chosen uniformly among the spots a normal base's
/// radius in from the edge, a whole inch apart. A token is a normal base in size for open ground and
/// measured from its centre. Face up when Scouts (Watchtower II) is in force. Logs `opportunity_placed`.
pub fn place_opportunity(game: &mut Game, rosters: &Rosters) -> Result<Option<TokenId>, WaveError> {
    let rules = &rosters.rules;
    let faces = rules
        .table
        .random_edge_max_roll
        .min(4)
        .min(rules.table.edges.len() as u8);
    if faces == 0 {
        return Err(WaveError::BadRule(
            "table.random_edge_max_roll must be at least 1".into(),
        ));
    }
    let edge = loop {
        let face = game
            .roll("opportunity edge", None, 1)
            .first()
            .map_or(1, |d| d.face);
        if face <= faces {
            break face;
        }
    };
    let r = rules.bases.normal / 2.0;
    let (w, h) = (game.table.width, game.table.height);
    let len = if edge % 2 == 1 { w } else { h };
    let mut spots = Vec::new();
    let mut along = r.ceil();
    while along <= len - r + EPS {
        spots.push(match edge {
            1 => Vec2::new(along, h - r),
            2 => Vec2::new(w - r, along),
            3 => Vec2::new(along, r),
            _ => Vec2::new(r, along),
        });
        along += 1.0;
    }
    let open: Vec<Vec2> = spots
        .into_iter()
        .filter(|p| closed_ground(game, *p, r).is_none())
        .filter(|p| !game.tokens.iter().any(|t| t.pos.dist(*p) < 2.0 * r))
        .collect();
    let town_hall = game.buildings.iter().find(|b| b.town_hall).map(|b| b.rect);
    let min = rules.setup.opportunity_min_from_town_hall;
    let far: Vec<Vec2> = open
        .iter()
        .copied()
        .filter(|p| town_hall.is_none_or(|th| th.signed_dist(*p) >= min - EPS))
        .collect();
    let is_far = !far.is_empty();
    let pool = if is_far { far } else { open };
    let revealed = active(game, rosters, SCOUTS).is_some();
    let names: Vec<String> = pool
        .iter()
        .map(|p| format!("({:.1}, {:.1})", p.x, p.y))
        .collect();
    let picked = game.choose(&format!("opportunity spot on edge {edge}"), &names);
    let (token, pos) = match picked.and_then(|i| pool.get(i).copied()) {
        Some(p) => (
            Some(game.add_token(TokenKind::Opportunity { revealed }, p)),
            Some(p),
        ),
        None => (None, None),
    };
    game.record(EventKind::OpportunityPlaced {
        token,
        edge,
        pos,
        revealed,
        far: is_far,
    });
    Ok(token)
}

/// Heroes that Fled in the last wave rejoin the party (a ruling: Fled is not Defeated): each is logged
/// `rejoined` and held off the table (at the Town Hall's centre, where no event places it) until the
/// wave's deployment places it on its spot.
pub fn rejoin_fled(game: &mut Game) {
    let at = game
        .buildings
        .iter()
        .find(|b| b.town_hall)
        .map_or(game.table.center(), |b| b.rect.center());
    for mut m in std::mem::take(&mut game.fled) {
        // Held at the Town Hall's centre until its deployment places it (SUPPLEMENT §11: no event
        // places it here).
        m.pos = at;
        let name = m.name.clone();
        let id = game.add_unplaced(m);
        game.record(EventKind::Rejoined { model: id, name });
    }
}
