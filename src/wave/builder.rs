//! The default wave builder: core §5.2 step by step, with the choices SUPPLEMENT §10 leaves to chance
//! made uniformly with the game's seeded stream.
//!
//! Owns the reading of §5.2 (see ARCHITECTURE.md, "Rulings", for why each one): which tiers a Group may
//! take at each Escalation, how an Elite or Boss joins a Group of Mobs, the one Behaviour before
//! Escalation III, keeping budget back for the Groups and Behaviours VII demands, and the distinct spawn
//! edges of V+. Every D6 goes through [`Game::roll`] and every non-die choice through [`Game::choose`], so
//! the log explains the whole wave. It never places models and never reads a rule number that is not in
//! the rosters.
//!
//! The steps, as §5.2 numbers them:
//! 1. limits come from the Escalation row (`rosters/escalation.toml`);
//! 2. before III the wave's one Behaviour is chosen first; then for each Group a profile is chosen among
//!    the eligible ones whose first model fits, then its Behaviour if it prints two;
//! 3. a D6 (reroll above `rules.wave.group_size_max`) gives the Group's size, models are added one at a
//!    time while they fit;
//! 4. Groups are made until no eligible model fits; they are numbered in creation order;
//! 5. every Group rolls its spawn edge (reroll above the number of edges), at V+ forcing a second edge.

use super::WaveError;
use crate::roster::{Escalation, Profile, ProfileKind, Rosters, Tier};
use crate::state::{EventKind, Game};
use serde::{Deserialize, Serialize};

/// A wave holding more models than this is refused ([`WaveError::TooLarge`]): no supported party comes
/// close (the largest standard wave buys at most 70 Zombies), but a runaway rosters value must not make
/// the builder loop for hours.
pub const MAX_WAVE_MODELS: i64 = 1000;

/// The Enemy Groups of one wave, as the builder made them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WavePlan {
    /// The Escalation's name ("I" to "VII").
    pub escalation: String,
    /// Party value × budget percent / 100 (core §5.1).
    pub budget: i64,
    /// Wave Points of every model in every Group; never more than `budget`.
    pub spent: i64,
    /// The one Behaviour of the whole wave before Escalation III (`one_behaviour`), else `None`.
    pub behaviour: Option<String>,
    /// In creation order; `groups[i].number == i + 1`.
    pub groups: Vec<GroupPlan>,
    /// §5.2 limits the budget (or a modded roster) made impossible, in words. Empty for every supported
    /// party with the built-in rosters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmet: Vec<String>,
}

impl WavePlan {
    /// Budget not spent.
    pub fn leftover(&self) -> i64 {
        self.budget - self.spent
    }

    /// Models in the whole wave.
    pub fn model_count(&self) -> usize {
        self.groups.iter().map(|g| g.models.len()).sum()
    }

    /// The distinct Behaviours of the Groups, in order of first use.
    pub fn behaviours(&self) -> Vec<&str> {
        let mut v: Vec<&str> = Vec::new();
        for g in &self.groups {
            if !v.contains(&g.behaviour.as_str()) {
                v.push(&g.behaviour);
            }
        }
        v
    }

    /// The distinct spawn edges of the Groups, in order of first use.
    pub fn edges(&self) -> Vec<u8> {
        let mut v = Vec::new();
        for g in &self.groups {
            if !v.contains(&g.edge) {
                v.push(g.edge);
            }
        }
        v
    }
}

/// One Enemy Group of a [`WavePlan`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupPlan {
    /// 1-based, in creation order (§5.2 step 4).
    pub number: u32,
    /// The profile name of each model. A Group of Mobs has one profile; a Group led by an Elite or Boss
    /// lists the leader first, then Mobs of one profile.
    pub models: Vec<String>,
    /// The Behaviour the whole Group follows.
    pub behaviour: String,
    /// The size the D6 gave (§5.2 step 3); `models.len()` is smaller when the budget ran out first.
    pub rolled: u8,
    /// Wave Points of the Group's models.
    pub cost: i64,
    /// Spawn edge, 1 to 4 clockwise from north: 1 north, 2 east, 3 south, 4 west (`rules.table.edges`).
    pub edge: u8,
    /// The Escalation lets Igniters burn (II+) and at least one model of the Group is an Igniter.
    pub igniters: bool,
    /// The deployment zone of a scenario's Group that deploys in one instead of at its edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The round a scenario's Group arrives at the start of, when later than the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrives: Option<u32>,
}

impl GroupPlan {
    /// Log the Group as built (`group_built`).
    pub fn log_built(&self, game: &mut Game) {
        game.record(EventKind::GroupBuilt {
            number: self.number,
            behaviour: self.behaviour.clone(),
            models: self.models.clone(),
            edge: self.edge,
            igniters: self.igniters,
        });
    }
}

/// The wave budget (core §5.1): party value × the Escalation's percentage / 100, in exact integers,
/// scaled by `rules.wave.budget_percent` (rounded down; 100, the rulebook's, changes nothing).
/// Saturates instead of overflowing on absurd rosters values.
pub fn budget(rosters: &Rosters, escalation: &Escalation, heroes: u32) -> i64 {
    let wave = &rosters.rules.wave;
    wave.party_value_per_hero
        .saturating_mul(i64::from(heroes))
        .saturating_mul(i64::from(escalation.budget_percent))
        .saturating_mul(i64::from(wave.budget_percent))
        / 10_000
}

/// The Escalation of wave `wave` (1-based) of a game length (SUPPLEMENT §5: wave → Escalation; past the
/// listed waves of an endless length, the last row raised as its `endless` says:
/// [`Rosters::wave_escalation`]).
pub fn escalation_for_wave(
    rosters: &Rosters,
    length: &str,
    wave: u32,
) -> Result<Escalation, WaveError> {
    let l = rosters
        .length(length)
        .ok_or_else(|| WaveError::UnknownLength(length.to_string()))?;
    if wave == 0 || wave > l.last_wave() {
        return Err(WaveError::NoSuchWave {
            length: length.to_string(),
            wave,
            waves: l.last_wave() as usize,
        });
    }
    // Only a row the rosters lack fails now: the listed one, or past the list the last one raised.
    rosters.wave_escalation(l, wave).ok_or_else(|| {
        let row = l.waves.get(wave as usize - 1).or(l.waves.last());
        WaveError::UnknownEscalation(row.cloned().unwrap_or_default())
    })
}

/// A party of `heroes` heroes is one the rules allow (core Ch. IV, set-up step 2: "Choose 2–4
/// heroes"; the bounds are `rules.wave.min_heroes` and `max_heroes`, which a variant may change). Every
/// command that makes a game checks it before play (`script::ScriptHost`, `sim`, the REPL), and the
/// builder again, since a wave's budget is reckoned from the party.
pub fn check_party_size(heroes: usize, rules: &crate::roster::Rules) -> Result<(), WaveError> {
    let w = &rules.wave;
    let n = u32::try_from(heroes).unwrap_or(u32::MAX);
    if n < w.min_heroes || n > w.max_heroes {
        return Err(WaveError::PartySize {
            heroes: n,
            min: w.min_heroes,
            max: w.max_heroes,
        });
    }
    Ok(())
}

/// Builds the Enemy Groups of one wave (core §5.2) with the game's seeded dice, logging every die
/// (`roll` events), every choice (`choice`), each Group (`group_built`) and the result (`wave_built`).
///
/// Deterministic: the same game state (seed and stream position), rosters, Escalation and party give the
/// same plan and the same log.
pub fn build_wave(
    game: &mut Game,
    rosters: &Rosters,
    escalation: &str,
    heroes: u32,
) -> Result<WavePlan, WaveError> {
    let esc = rosters
        .escalation(escalation)
        .ok_or_else(|| WaveError::UnknownEscalation(escalation.to_string()))?;
    build_wave_of(game, rosters, esc, heroes)
}

/// [`build_wave`] for an Escalation given whole (an endless length's waves past its list are rows of
/// their own: [`Rosters::wave_escalation`]).
pub fn build_wave_of(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
    heroes: u32,
) -> Result<WavePlan, WaveError> {
    check_party_size(heroes as usize, &rosters.rules)?;
    let w = &rosters.rules.wave;
    if w.group_size_max == 0 {
        return Err(WaveError::BadRule(
            "wave.group_size_max must be at least 1".into(),
        ));
    }
    let edge_faces = rosters.rules.table.random_edge_max_roll.min(6);
    if edge_faces == 0 {
        return Err(WaveError::BadRule(
            "table.random_edge_max_roll must be at least 1".into(),
        ));
    }
    let enemies: Vec<&Profile> = rosters.profiles_of(ProfileKind::Enemy).collect();
    if let Some((p, problem)) = enemies
        .iter()
        .find_map(|p| p.cost_problem().map(|why| (p, why)))
    {
        return Err(WaveError::BadCost {
            name: p.name.clone(),
            cost: p.cost(),
            problem,
        });
    }
    let total = budget(rosters, esc, heroes);
    if let Some(cheapest) = enemies.iter().map(|p| p.cost()).min() {
        if total / cheapest > MAX_WAVE_MODELS {
            return Err(WaveError::TooLarge {
                budget: total,
                limit: MAX_WAVE_MODELS,
            });
        }
    }

    let mut b = Builder {
        rosters,
        esc,
        enemies,
        wave_behaviour: None,
        used: Vec::new(),
        built: 0,
    };
    let mut remaining = total;

    // Step 2, before Escalation III: one Behaviour for the whole wave, chosen before any profile, among
    // the Behaviours some eligible profile offers and can afford.
    if esc.one_behaviour {
        let options: Vec<String> = b.behaviour_order(
            b.enemies
                .iter()
                .filter(|p| b.slot_ok(p, Slot::Normal) || b.slot_ok(p, Slot::Boss))
                .filter(|p| p.cost() <= remaining)
                .flat_map(|p| p.behaviours.iter().cloned()),
        );
        if let Some(i) = game.choose(
            "wave Behaviour (one for the wave before Escalation III)",
            &options,
        ) {
            b.wave_behaviour = Some(options[i].clone());
        }
    }

    let mut groups: Vec<GroupPlan> = Vec::new();
    loop {
        let number = groups.len() as u32 + 1;
        let Some(pick) = b.candidates(remaining) else {
            break; // §5.2 step 4: no eligible model fits
        };
        // Step 2: the profile, uniformly among the eligible ones whose first model fits.
        let names: Vec<String> = pick.list.iter().map(|(p, _)| p.name.clone()).collect();
        let purpose = match pick.slot {
            Slot::Boss => format!("group {number} profile (a Boss leads the first Group)"),
            Slot::Normal => format!("group {number} profile"),
        };
        let Some(i) = game.choose(&purpose, &names) else {
            break;
        };
        let (profile, behaviours) = &pick.list[i];
        let behaviour = if behaviours.len() == 1 {
            behaviours[0].clone()
        } else {
            let j = game
                .choose(&format!("group {number} Behaviour"), behaviours)
                .unwrap_or(0);
            behaviours[j].clone()
        };
        let reserve = if pick.reserve {
            b.reserve(&behaviour)
        } else {
            0
        };
        let cap = remaining - reserve;

        // Step 3: the D6 for the number of models, then models one at a time while they fit.
        let rolled = roll_until(game, &format!("group {number} size"), |f| {
            f <= rosters.rules.wave.group_size_max
        });
        let mut models = vec![profile.name.clone()];
        let mut cost = profile.cost();
        let follower: Option<&Profile> = if profile.tier == Tier::Mob {
            Some(profile)
        } else if rolled >= 2 {
            // An Elite or Boss leads Mobs of one profile that share the Group's Behaviour.
            let mobs: Vec<&Profile> = b
                .enemies
                .iter()
                .copied()
                .filter(|p| p.tier == Tier::Mob && p.behaviours.contains(&behaviour))
                .filter(|p| cost + p.cost() <= cap)
                .collect();
            let names: Vec<String> = mobs.iter().map(|p| p.name.clone()).collect();
            let tier = if profile.tier == Tier::Boss {
                "Boss"
            } else {
                "Elite"
            };
            game.choose(&format!("group {number} Mobs led by the {tier}"), &names)
                .map(|k| mobs[k])
        } else {
            None
        };
        if let Some(f) = follower {
            while models.len() < usize::from(rolled) && cost + f.cost() <= cap {
                models.push(f.name.clone());
                cost += f.cost();
            }
        }
        remaining -= cost;
        b.built += 1;
        if !b.used.contains(&behaviour) {
            b.used.push(behaviour.clone());
        }
        let igniters = esc.igniters
            && models
                .iter()
                .any(|m| rosters.profile(m).is_some_and(|p| p.is_igniter()));
        groups.push(GroupPlan {
            number,
            models,
            behaviour,
            rolled,
            cost,
            edge: 0,
            igniters,
            zone: None,
            arrives: None,
        });
    }

    // Step 5: a spawn edge per Group; at V+ with more than one Group, at least `min_spawn_edges` distinct
    // edges. A Group whose edge must be new (the distinct edges so far plus the Groups still to roll only
    // just reach the minimum) rerolls any edge already used, as it rerolls 5–6: seeded, each die logged.
    let n = groups.len();
    let need = if n > 1 {
        (esc.min_spawn_edges as usize)
            .min(n)
            .min(usize::from(edge_faces))
    } else {
        1
    };
    let mut used_edges: Vec<u8> = Vec::new();
    for (i, g) in groups.iter_mut().enumerate() {
        let must_differ = used_edges.len() < need && used_edges.len() + (n - i) <= need;
        let purpose = if must_differ {
            format!(
                "group {} spawn edge (a new edge: Escalation {} needs {need})",
                g.number, esc.name
            )
        } else {
            format!("group {} spawn edge", g.number)
        };
        let edge = roll_until(game, &purpose, |f| {
            f <= edge_faces && !(must_differ && used_edges.contains(&f))
        });
        if !used_edges.contains(&edge) {
            used_edges.push(edge);
        }
        g.edge = edge;
    }

    let spent = total - remaining;
    let plan = WavePlan {
        escalation: esc.name.clone(),
        budget: total,
        spent,
        behaviour: b.wave_behaviour.clone(),
        groups,
        unmet: Vec::new(),
    };
    Ok(finish_plan(game, rosters, esc, plan, None))
}

/// Turns the Groups a Lua wave builder returned (SUPPLEMENT §10) into a [`WavePlan`] after checking them:
/// every profile is an enemy of the rosters, the Group's Behaviour is one that every model's profile
/// lists, a Group holds 1 to `rules.activation.group_max_models` models (it activates as one), its edge is
/// one of `rules.table.edges`, and the whole wave costs at most the budget in roster Wave Points. Groups
/// are numbered in the order returned; `rolled` is the Group's size. Logs `group_built` for each and
/// `wave_built` naming the script. A refused wave is a [`WaveError::Builder`] naming the script file,
/// and logs nothing.
///
/// The §5.2 limits (Mobs only, the Boss, VII's minimums) are not enforced — a builder may be a variant
/// that changes them — but any the wave misses are listed in `unmet`, as for the default builder.
pub fn plan_from_script(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
    heroes: u32,
    wave: &crate::rules::hooks::ScriptedWave,
) -> Result<WavePlan, WaveError> {
    let bad = |message: String| WaveError::Builder {
        script: wave.source.clone(),
        message,
    };
    let total = budget(rosters, esc, heroes);
    let max_models = rosters.rules.activation.group_max_models as usize;
    let edges = rosters.rules.table.edges.len();
    let mut groups = Vec::with_capacity(wave.groups.len());
    let mut spent = 0i64;
    for (i, g) in wave.groups.iter().enumerate() {
        let number = i as u32 + 1;
        if g.models.is_empty() || g.models.len() > max_models {
            return Err(bad(format!(
                "Group {number} has {} models; a Group holds 1 to {max_models}",
                g.models.len()
            )));
        }
        if rosters.behaviour(&g.behaviour).is_none() {
            return Err(bad(format!(
                "Group {number}: there is no Behaviour {:?} in the rosters",
                g.behaviour
            )));
        }
        let mut cost = 0i64;
        for name in &g.models {
            let p = rosters
                .profile(name)
                .filter(|p| p.kind == ProfileKind::Enemy)
                .ok_or_else(|| {
                    bad(format!(
                        "Group {number}: {name:?} is not an enemy profile in the rosters"
                    ))
                })?;
            if !p.behaviours.contains(&g.behaviour) {
                return Err(bad(format!(
                    "Group {number}: {name} does not list the {} Behaviour (it lists {})",
                    g.behaviour,
                    p.behaviours.join(" or ")
                )));
            }
            cost += p.cost();
        }
        let edge = u8::try_from(g.edge)
            .ok()
            .filter(|e| (1..=edges).contains(&usize::from(*e)))
            .ok_or_else(|| {
                bad(format!(
                    "Group {number} has spawn edge {}; edges are 1 to {edges} ({})",
                    g.edge,
                    rosters.rules.table.edges.join(", ")
                ))
            })?;
        spent += cost;
        let igniters = esc.igniters
            && g.models
                .iter()
                .any(|m| rosters.profile(m).is_some_and(|p| p.is_igniter()));
        groups.push(GroupPlan {
            number,
            models: g.models.clone(),
            behaviour: g.behaviour.clone(),
            rolled: g.models.len() as u8,
            cost,
            edge,
            igniters,
            zone: None,
            arrives: None,
        });
    }
    if spent > total {
        return Err(bad(format!(
            "the wave costs {spent} Wave Points; Escalation {} with {heroes} heroes allows {total}",
            esc.name
        )));
    }
    let first = groups.first().map(|g| g.behaviour.clone());
    let one = esc.one_behaviour && groups.iter().all(|g| Some(&g.behaviour) == first.as_ref());
    let plan = WavePlan {
        escalation: esc.name.clone(),
        budget: total,
        spent,
        behaviour: if one { first } else { None },
        groups,
        unmet: Vec::new(),
    };
    Ok(finish_plan(
        game,
        rosters,
        esc,
        plan,
        Some(wave.source.clone()),
    ))
}

/// Name the Escalation limits a plan misses and log it: a `group_built` event per Group, then
/// `wave_built` (with the builder script, when a script built it).
fn finish_plan(
    game: &mut Game,
    rosters: &Rosters,
    esc: &Escalation,
    mut plan: WavePlan,
    builder: Option<String>,
) -> WavePlan {
    plan.unmet = unmet(&plan, esc, rosters);
    for g in &plan.groups {
        g.log_built(game);
    }
    game.record(EventKind::WaveBuilt {
        escalation: plan.escalation.clone(),
        budget: plan.budget,
        spent: plan.spent,
        groups: plan.groups.len() as u32,
        unmet: plan.unmet.clone(),
        builder,
    });
    plan
}

/// Roll one logged D6 at a time until `keep` accepts the face (the rulebook's "reroll 6", "reroll 5–6").
/// Callers only pass tests that some face 1–6 passes, so the seeded stream ends the loop.
fn roll_until(game: &mut Game, purpose: &str, keep: impl Fn(u8) -> bool) -> u8 {
    loop {
        let face = game.roll(purpose, None, 1).first().map_or(1, |d| d.face);
        if keep(face) {
            return face;
        }
    }
}

/// The §5.2 limits a finished plan misses, in words.
fn unmet(plan: &WavePlan, esc: &Escalation, rosters: &Rosters) -> Vec<String> {
    let mut v = Vec::new();
    let boss_first = esc.boss_first && !esc.mobs_only;
    if boss_first
        && !plan.groups.first().is_some_and(|g| {
            g.models
                .first()
                .and_then(|m| rosters.profile(m))
                .is_some_and(|p| p.tier == Tier::Boss)
        })
    {
        v.push(format!(
            "Escalation {}: no Boss fits the budget of {}, so the first Group has none",
            esc.name, plan.budget
        ));
    }
    if (plan.groups.len() as u32) < esc.min_groups {
        v.push(format!(
            "Escalation {} wants at least {} Groups; the budget of {} made {}",
            esc.name,
            esc.min_groups,
            plan.budget,
            plan.groups.len()
        ));
    }
    if (plan.behaviours().len() as u32) < esc.min_behaviours {
        v.push(format!(
            "Escalation {} wants at least {} Behaviours; the budget of {} allowed {}",
            esc.name,
            esc.min_behaviours,
            plan.budget,
            plan.behaviours().len()
        ));
    }
    v
}

/// Which kind of profile may take a Group's first place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// The first Group at VI–VII: a Boss.
    Boss,
    /// Any other Group: a Mob, or from IV an Elite.
    Normal,
}

/// The eligible profiles for a new Group and how strictly they were filtered.
struct Pick<'r> {
    slot: Slot,
    /// Whether budget is kept back for the Groups and Behaviours still required.
    reserve: bool,
    /// Each eligible profile with the Behaviours it may use for this Group.
    list: Vec<(&'r Profile, Vec<String>)>,
}

struct Builder<'r> {
    rosters: &'r Rosters,
    esc: &'r Escalation,
    /// Enemy profiles in file order.
    enemies: Vec<&'r Profile>,
    /// The one Behaviour of a wave before Escalation III.
    wave_behaviour: Option<String>,
    /// Behaviours used by the Groups so far, in order.
    used: Vec<String>,
    /// Groups made so far.
    built: u32,
}

impl<'r> Builder<'r> {
    /// Whether a profile may take a Group's first place in this slot at this Escalation (§5.2 step 1).
    fn slot_ok(&self, p: &Profile, slot: Slot) -> bool {
        let e = self.esc;
        match (slot, p.tier) {
            (Slot::Normal, Tier::Mob) => true,
            (Slot::Normal, Tier::Elite) => e.elites_allowed && !e.mobs_only,
            (Slot::Boss, Tier::Boss) => e.boss_first && !e.mobs_only,
            _ => false,
        }
    }

    /// Whether the wave's one Behaviour (if any) allows `b`.
    fn wave_allows(&self, b: &str) -> bool {
        self.wave_behaviour.as_deref().is_none_or(|w| w == b)
    }

    /// Behaviour names deduplicated and sorted in play order (`rosters.behaviours`), unknown ones last.
    fn behaviour_order(&self, names: impl Iterator<Item = String>) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        for n in names {
            if !v.contains(&n) {
                v.push(n);
            }
        }
        let pos = |n: &String| {
            self.rosters
                .behaviours
                .iter()
                .position(|b| &b.name == n)
                .unwrap_or(usize::MAX)
        };
        v.sort_by(|a, b| pos(a).cmp(&pos(b)).then_with(|| a.cmp(b)));
        v
    }

    /// The cheapest profile that may take a later Group's first place and offers a Behaviour that
    /// `ok` accepts (and the wave allows).
    fn cheapest(&self, ok: impl Fn(&str) -> bool) -> Option<i64> {
        self.enemies
            .iter()
            .filter(|p| self.slot_ok(p, Slot::Normal))
            .filter(|p| p.behaviours.iter().any(|b| self.wave_allows(b) && ok(b)))
            .map(|p| p.cost())
            .min()
    }

    /// Budget to keep back after a Group using Behaviour `b`, so the Groups and Behaviours the Escalation
    /// still requires (VII: three Groups, two Behaviours) can each have one model: the cheapest model with
    /// a new Behaviour for every missing Behaviour, the cheapest model for every other missing Group.
    fn reserve(&self, b: &str) -> i64 {
        let mut used: Vec<&str> = self.used.iter().map(String::as_str).collect();
        if !used.contains(&b) {
            used.push(b);
        }
        let need_b = i64::from(self.esc.min_behaviours).saturating_sub(used.len() as i64);
        let need_b = need_b.max(0);
        let left = (i64::from(self.esc.min_groups) - i64::from(self.built) - 1).max(0);
        let groups = left.max(need_b);
        if groups == 0 {
            return 0;
        }
        let any = self.cheapest(|_| true).unwrap_or(0);
        let new = self.cheapest(|x| !used.contains(&x)).unwrap_or(any);
        need_b * new + (groups - need_b) * any
    }

    /// Whether the next Group must bring a Behaviour not used yet: as many Behaviours are missing as
    /// Groups remain before the minimum (or the minimum is reached and one is still missing).
    fn must_be_new(&self) -> bool {
        let need = i64::from(self.esc.min_behaviours) - self.used.len() as i64;
        let left = i64::from(self.esc.min_groups) - i64::from(self.built);
        need > 0 && need >= left
    }

    /// The eligible profiles for the next Group. Tries the strictest reading first — a Boss in the first
    /// Group at VI–VII, a new Behaviour when VII still needs one, budget kept back for the Groups still
    /// required — and relaxes one requirement at a time only when nothing fits, so the wave is never
    /// left smaller than the budget allows. `None` when no eligible model fits: the wave is done.
    fn candidates(&self, remaining: i64) -> Option<Pick<'r>> {
        let slots: &[Slot] = if self.built == 0 && self.esc.boss_first && !self.esc.mobs_only {
            &[Slot::Boss, Slot::Normal]
        } else {
            &[Slot::Normal]
        };
        let new = self.must_be_new();
        for &slot in slots {
            for (reserve, must_new) in [(true, new), (false, new), (false, false)] {
                let list: Vec<(&'r Profile, Vec<String>)> = self
                    .enemies
                    .iter()
                    .copied()
                    .filter(|p| self.slot_ok(p, slot))
                    .filter_map(|p| {
                        let bs: Vec<String> = p
                            .behaviours
                            .iter()
                            .filter(|b| self.wave_allows(b))
                            .filter(|b| !must_new || !self.used.contains(b))
                            .filter(|b| {
                                let keep = if reserve { self.reserve(b) } else { 0 };
                                p.cost() + keep <= remaining
                            })
                            .cloned()
                            .collect();
                        (!bs.is_empty()).then_some((p, bs))
                    })
                    .collect();
                if !list.is_empty() {
                    return Some(Pick {
                        slot,
                        reserve,
                        list,
                    });
                }
            }
        }
        None
    }
}
