//! The village buildings' abilities as the rules see them in play (core §7.3): which ability is in force
//! (its building stands at that Level or higher and is not Destroyed), the numbers in its roster
//! `params`, and the two in-wave abilities the kernel applies itself — Watchtower I Overwatch (+1 Combat
//! on one hero's ranged attack per wave) and Temple II Blessing (one building ignores the Integrity damage
//! of one enemy activation, fire included).
//!
//! It never chooses: the Blessing's building comes from the hero policy (asked by the turn engine), and
//! Overwatch is taken by the first eligible ranged attack of the wave (see ARCHITECTURE.md, "Rulings").
//! Every use is a `building_ability` event and a `wave:` entry in [`Game::spent`].

use crate::roster::{BuildingAbility, ParamValue, ProfileKind, Rosters};
use crate::state::{EventKind, Game, ModelId, Modifier, Role};

/// Ability names as `rosters/village.toml` prints them; the kernel finds an ability by its name.
pub mod names {
    pub const VILLAGE_MILITIA: &str = "Village Militia";
    pub const BLESSING: &str = "Blessing";
    pub const OVERWATCH: &str = "Overwatch";
    pub const ADVANCED_DEPLOYMENT: &str = "Advanced Deployment";
    pub const READY_MOUNTS: &str = "Ready Mounts";
    pub const WARHORSE: &str = "Warhorse";
    pub const RIDER_MILITIA: &str = "Rider Militia";
}

/// The `spent` entry of Watchtower I Overwatch (cleared at each wave start).
pub const OVERWATCH_SPENT: &str = "wave:Overwatch";
/// The `spent` entry of Temple II Blessing (cleared at each wave start).
pub const BLESSING_SPENT: &str = "wave:Blessing";

/// An ability in force: the building that has it (by its name in the game) and the roster entry.
#[derive(Debug, Clone, Copy)]
pub struct Active<'r> {
    /// The building's index in [`Game::buildings`].
    pub index: usize,
    pub ability: &'r BuildingAbility,
}

impl<'r> Active<'r> {
    /// The building's name.
    pub fn building<'g>(&self, game: &'g Game) -> &'g str {
        game.buildings
            .get(self.index)
            .map_or("", |b| b.name.as_str())
    }

    /// How the log names it: "Stable II Warhorse".
    pub fn label(&self, game: &Game) -> String {
        format!(
            "{} {} {}",
            self.building(game),
            roman(self.ability.level),
            self.ability.name
        )
    }

    /// A number from the ability's `params`, or `default` when it has none there.
    pub fn number(&self, key: &str, default: f64) -> f64 {
        match self.ability.params.get(key) {
            Some(ParamValue::Int(i)) => *i as f64,
            Some(ParamValue::Float(f)) => *f,
            _ => default,
        }
    }

    /// A text from the ability's `params`.
    pub fn text(&self, key: &str) -> Option<&'r str> {
        match self.ability.params.get(key) {
            Some(ParamValue::Text(t)) => Some(t.as_str()),
            _ => None,
        }
    }

    /// Log its use.
    pub fn record(&self, game: &mut Game, detail: String, models: Vec<ModelId>) {
        let building = self.building(game).to_string();
        game.record(EventKind::BuildingAbility {
            building,
            level: self.ability.level,
            ability: self.ability.name.clone(),
            detail,
            models,
        });
    }
}

/// "I", "II", "III" for a Level.
pub fn roman(level: u8) -> &'static str {
    match level {
        1 => "I",
        2 => "II",
        3 => "III",
        _ => "?",
    }
}

/// The ability called `name` if a building of the game has it in force: the building's roster entry
/// lists it at a Level the building has reached (abilities accumulate: a Level III Stable still has
/// Ready Mounts), and the building is not Destroyed (core §6.4: it "loses its ability").
pub fn active<'r>(game: &Game, rosters: &'r Rosters, name: &str) -> Option<Active<'r>> {
    game.buildings.iter().enumerate().find_map(|(index, b)| {
        if b.destroyed {
            return None;
        }
        let spec = rosters.building(&b.name)?;
        spec.abilities
            .iter()
            .find(|a| a.name == name && b.level >= a.level)
            .map(|ability| Active { index, ability })
    })
}

/// Whether an ability used at most its `per_wave` times a wave (its `params`; once when it has none)
/// has a use left this wave: its uses are the `key` entries of [`Game::spent`].
pub fn wave_use_left(game: &Game, a: &Active, key: &str) -> bool {
    let per = a.number("per_wave", 1.0).max(0.0) as usize;
    game.spent.iter().filter(|s| *s == key).count() < per
}

/// Whether a wave is being played (round 1 or later): the "(Wave)" abilities work only then, so a
/// what-if on a table between waves (a scenario's `g:shoot`) is the plain rulebook.
pub fn in_wave(game: &Game) -> bool {
    game.round > 0
}

/// Watchtower I Overwatch (core §7.3): the first ranged attack of the wave (the first `per_wave`) made
/// by a hero whose base is within the ability's `within` (3") of the Watchtower takes
/// `rules.ranged.overwatch`. Spends the use
/// ([`OVERWATCH_SPENT`]), logs it, and returns the modifier for the roll; `None` when it does not apply.
pub fn overwatch(game: &mut Game, rosters: &Rosters, shooter: ModelId) -> Option<Modifier> {
    if !in_wave(game) {
        return None;
    }
    let a = active(game, rosters, names::OVERWATCH)?;
    if !wave_use_left(game, &a, OVERWATCH_SPENT) {
        return None;
    }
    let s = game.model(shooter).ok()?;
    if s.kind != ProfileKind::Hero {
        return None;
    }
    let within = a.number("within", rosters.rules.measures.short);
    let rect = game.buildings.get(a.index)?.rect;
    let gap = crate::geometry::circle_rect_gap(&s.circle(), &rect).max(0.0);
    if gap > within + 1e-9 {
        return None;
    }
    let label = a.label(game);
    let detail = format!(
        "{} is {gap:.2}\" from the {}: +{} Combat on this ranged attack",
        super::query::label(s),
        a.building(game),
        rosters.rules.ranged.overwatch
    );
    game.spent.push(OVERWATCH_SPENT.to_string());
    a.record(game, detail, vec![shooter]);
    Some(Modifier {
        to: Role::Attacker,
        value: rosters.rules.ranged.overwatch,
        reason: a.ability.name.clone(),
        source: label,
    })
}

/// Whether the Blessing protects building `name` right now (an enemy activation it was chosen for).
pub fn blessed(game: &Game, name: &str) -> bool {
    game.blessed.as_ref().is_some_and(|b| b.building == name)
}

/// The building (its roster name) that has the ability `name`, and the ability's Level.
pub fn owner<'r>(rosters: &'r Rosters, name: &str) -> Option<(&'r str, u8)> {
    rosters.buildings.iter().find_map(|b| {
        b.abilities
            .iter()
            .find(|a| a.name == name)
            .map(|a| (b.name.as_str(), a.level))
    })
}
