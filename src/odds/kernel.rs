//! Exact odds reached through the kernel itself, for `village odds` by profile name: two models (or
//! one, for morale) on a scratch table, and every sequence of die faces the resolution rolls tried
//! through the kernel's own melee, ranged or morale resolution with its hooks, the game put back after
//! each try.
//!
//! Owns: the [`Trials`] contract (a scratch game, the rules in force, and hooks whose script state is
//! fresh for each try), the enumeration of the faces ([`enumerate`]: every die the resolution rolls,
//! the ones a result sets off included, one die at a time, so a leaf rolled fewer dice weighs more),
//! where the models stand, and reading what each side suffered from the kernel's report and its events.
//!
//! It never resolves a rule and never names a trait: what Heavy Armor, Lethal, Tough or Savage do is
//! what the kernel and the trait scripts did on the table, read back from the log with the script that
//! did it. It refuses what it cannot count exactly (a uniform choice or `math.random` during the
//! resolution, more than [`MAX_DICE`] dice) rather than guess.

use super::Suffered;
use crate::geometry::{
    sight_with_tol, Circle, Segment, Sight, Terrain, TerrainKind, TerrainShape, Vec2,
};
use crate::roster::{Profile, Rosters, Rules};
use crate::rules::hooks::Hooks;
use crate::rules::melee::{melee, CombatReport, MeleeOptions};
use crate::rules::morale::morale_check;
use crate::rules::outcome::{add_condition, TOUGH};
use crate::rules::query::{label, placement_problem};
use crate::rules::ranged::{cover_segments, shoot, ShotOptions};
use crate::rules::RuleError;
use crate::state::{
    CombatResult, Condition, EventKind, Game, ModelId, Modifier, MoraleResult, MoraleTrigger, Role,
    Side,
};
use thiserror::Error;

/// The most dice one resolution may roll for its odds to be enumerated (6^6 tries): the morale
/// constant `morale.dice` goes up to six, and a melee or a shot rolls two, three or four.
pub const MAX_DICE: usize = 6;

/// Why odds by profile name could not be counted.
#[derive(Debug, Error)]
pub enum OddsError {
    /// A profile name that is in no roster (the message names the closest, "did you mean").
    #[error("{0}")]
    Unknown(String),
    /// The question cannot be put to the kernel as asked (two models of one side, no room).
    #[error("{0}")]
    Setup(String),
    /// The kernel refused the resolution, or a script failed in it; `faces` are the dice forced.
    #[error("{}{error}", faces_prefix(faces))]
    Rule { faces: Vec<u8>, error: RuleError },
    /// The script host found something it cannot count (a script drawing on `math.random`).
    #[error("{0}")]
    Host(String),
    /// The resolution kept rolling past [`MAX_DICE`] dice.
    #[error(
        "the resolution rolled more than {MAX_DICE} dice (after {0:?}): too many to try every face"
    )]
    TooManyDice(Vec<u8>),
    /// The resolution drew on the seeded stream without rolling a die (a uniform choice): its chance
    /// is not a die face, so it cannot be enumerated.
    #[error("with the dice {0:?} the resolution drew on the dice stream without rolling a die (a uniform choice): exact odds need every chance to be a die")]
    Stream(Vec<u8>),
    /// The same forced faces rolled a different number of dice: the resolution is not deterministic.
    #[error("with the dice {0:?} the resolution rolled fewer dice than it did before with the same faces: it is not deterministic")]
    NotDeterministic(Vec<u8>),
}

fn faces_prefix(faces: &[u8]) -> String {
    if faces.is_empty() {
        String::new()
    } else {
        format!("with the dice {faces:?}: ")
    }
}

/// One try on the scratch game: the game, the rosters with the rules in force, and the hooks.
pub type Try<'f> = dyn FnMut(&mut Game, &Rosters, &dyn Hooks) -> Result<(), OddsError> + 'f;

/// A resolution to enumerate: run on the scratch game with forced dice, it returns what it gave.
pub type Resolve<'f, T> = dyn FnMut(&mut Game, &Rosters, &dyn Hooks) -> Result<T, RuleError> + 'f;

/// A scratch game to try dice on, with the rules in force and the hooks that resolve them.
pub trait Trials {
    /// The rosters, with the rule constants in force (variants applied).
    fn rosters(&self) -> &Rosters;

    /// Run `f` on the scratch game with the rules' hooks, their script state fresh for this try (one
    /// try must not leak into the next through a module's variables). What `f` changes stays: the
    /// enumeration puts the game back itself.
    fn run(&mut self, f: &mut Try<'_>) -> Result<(), OddsError>;
}

/// [`Trials`] on a plain game with fixed hooks (no script state to refresh): kernel tests, and the
/// plain rulebook (`NoHooks`).
pub struct PlainTrials<'a> {
    /// The scratch game.
    pub game: Game,
    /// The rosters with the rules in force.
    pub rosters: &'a Rosters,
    /// The hooks every try resolves with.
    pub hooks: &'a dyn Hooks,
}

impl Trials for PlainTrials<'_> {
    fn rosters(&self) -> &Rosters {
        self.rosters
    }

    fn run(&mut self, f: &mut Try<'_>) -> Result<(), OddsError> {
        f(&mut self.game, self.rosters, self.hooks)
    }
}

/// One way the dice can fall: the faces in the order the resolution rolled them, and what it gave.
#[derive(Debug, Clone)]
pub struct Leaf<T> {
    /// The faces forced, in order (their number is the number of dice this way rolled).
    pub faces: Vec<u8>,
    /// What the resolution gave with them.
    pub value: T,
}

/// Every way the dice can fall for one resolution.
#[derive(Debug, Clone)]
pub struct Tree<T> {
    /// The ways, in the lexicographic order of their faces.
    pub leaves: Vec<Leaf<T>>,
    /// The most dice any way rolled.
    pub depth: usize,
}

impl<T> Tree<T> {
    /// The number of equally likely outcomes, 6^depth: the denominator of every chance.
    pub fn outcomes(&self) -> u64 {
        6u64.pow(self.depth as u32)
    }

    /// How many of the [`Tree::outcomes`] a leaf stands for: a way that rolled fewer dice than the
    /// deepest covers every face of the dice it did not roll.
    pub fn weight(&self, leaf: &Leaf<T>) -> u64 {
        6u64.pow((self.depth - leaf.faces.len()) as u32)
    }
}

/// Try every sequence of die faces `resolve` can roll, each on the game as it stands (put back after
/// each try), one die at a time: a try that rolls a die beyond the faces forced is tried again with
/// each face of that die. Exact for any resolution whose only chances are die rolls; refuses one that
/// draws on the stream otherwise, rolls more than [`MAX_DICE`] dice, or is not deterministic.
pub fn enumerate<T>(
    trials: &mut dyn Trials,
    resolve: &mut Resolve<'_, T>,
) -> Result<Tree<T>, OddsError> {
    let mut pending: Vec<Vec<u8>> = vec![Vec::new()];
    let mut leaves = Vec::new();
    while let Some(faces) = pending.pop() {
        let mut tried: Option<(Result<T, RuleError>, usize, bool)> = None;
        trials.run(&mut |game, rosters, hooks| {
            let before = game.checkpoint();
            let (rolled, stream) = (game.dice.rolled(), game.dice.stream_position());
            game.dice.clear_forced();
            let out = game
                .dice
                .force(faces.iter().map(|f| i64::from(*f)))
                .map_err(RuleError::from)
                .and_then(|()| resolve(game, rosters, hooks));
            let used = (game.dice.rolled() - rolled) as usize;
            let drew = game.dice.stream_position() != stream;
            game.restore(before);
            tried = Some((out, used, drew));
            Ok(())
        })?;
        let Some((out, used, drew)) = tried else {
            return Err(OddsError::Host(
                "the scratch game ran nothing for a try".into(),
            ));
        };
        if used > faces.len() {
            // The try rolled past the forced faces and went on with dice from the stream: whatever it
            // gave, an error included, is tried again with each face of the next die, so an error is
            // reported only with every face that led to it.
            if faces.len() >= MAX_DICE {
                return Err(OddsError::TooManyDice(faces));
            }
            // Pushed in reverse so the faces come off the stack 1 to 6: leaves in lexicographic order.
            for face in (1..=crate::dice::SIDES).rev() {
                let mut next = faces.clone();
                next.push(face);
                pending.push(next);
            }
            continue;
        }
        let value = match out {
            Ok(value) => value,
            Err(error) => return Err(OddsError::Rule { faces, error }),
        };
        if used < faces.len() {
            return Err(OddsError::NotDeterministic(faces));
        }
        if drew {
            return Err(OddsError::Stream(faces));
        }
        leaves.push(Leaf { faces, value });
    }
    let depth = leaves.iter().map(|l| l.faces.len()).max().unwrap_or(0);
    Ok(Tree { leaves, depth })
}

/// The profile a person means by `typed`: the exact name, else the one name equal to it ignoring case;
/// otherwise the project's "unknown profile (did you mean ...?)" error.
pub fn profile<'r>(rosters: &'r Rosters, typed: &str) -> Result<&'r Profile, OddsError> {
    let want = typed.trim();
    if let Some(p) = rosters.profile(want) {
        return Ok(p);
    }
    let lower = want.to_lowercase();
    let same: Vec<&Profile> = rosters
        .profiles
        .iter()
        .filter(|p| p.name.to_lowercase() == lower)
        .collect();
    if let [one] = same.as_slice() {
        return Ok(one);
    }
    Err(OddsError::Unknown(crate::names::unknown(
        "profile",
        typed,
        rosters.profiles.iter().map(|p| p.name.as_str()),
    )))
}

/// A model of `profile` as the rosters make it, with `extra` traits added (a flag such as
/// `--good-shot` asking "as if it had the trait": the trait's script then does the rest).
fn model_of(p: &Profile, rosters: &Rosters, extra: &[&str]) -> crate::state::Model {
    let mut m = crate::state::model_from_profile(p, rosters, Vec2::new(0.0, 0.0));
    for t in extra {
        if !m.has_trait(t) {
            m.traits.push((*t).to_string());
        }
    }
    m
}

/// The side's name as the rulebook says it.
fn side_name(s: Side) -> &'static str {
    match s {
        Side::Heroes => "heroes'",
        Side::Enemies => "enemies'",
    }
}

/// Two models facing each other across `gap` inches (0: base contact), `a` west of `b` on one row of
/// the table, each with room behind it to Recoil a base width, and (for a shot) a clear line of sight.
/// The first such row from the south-west, on a half-inch grid; `None` when the table has no room.
fn facing(
    game: &Game,
    rules: &Rules,
    (ra, rb): (f64, f64),
    gap: f64,
    sight: bool,
) -> Option<(Vec2, Vec2)> {
    const STEP: f64 = 0.5;
    let t = &game.table;
    let rows = (t.height / STEP) as usize;
    let cols = (t.width / STEP) as usize;
    for j in 1..rows {
        let y = j as f64 * STEP;
        for i in 1..cols {
            let a = Vec2::new(i as f64 * STEP, y);
            let b = Vec2::new(a.x + ra + gap + rb, y);
            let room = [
                Circle::new(Vec2::new(a.x - 2.0 * ra, y), ra),
                Circle::new(a, ra),
                Circle::new(b, rb),
                Circle::new(Vec2::new(b.x + 2.0 * rb, y), rb),
            ];
            if room.iter().any(|c| placement_problem(game, c).is_some()) {
                continue;
            }
            let clear = !sight
                || sight_with_tol(
                    t,
                    &room[1],
                    &room[2],
                    &cover_segments(game),
                    rules.bases.contact_tolerance,
                ) == Sight::Clear;
            if clear {
                return Some((a, b));
            }
        }
    }
    None
}

/// The spot farthest from every table edge where a base of radius `r` can stand (a half-inch grid),
/// and that distance: where a morale check's fall-back has the most room.
fn open_spot(game: &Game, r: f64) -> Option<(Vec2, f64)> {
    const STEP: f64 = 0.5;
    let t = &game.table;
    let mut best: Option<(Vec2, f64)> = None;
    for j in 1..(t.height / STEP) as usize {
        for i in 1..(t.width / STEP) as usize {
            let p = Vec2::new(i as f64 * STEP, j as f64 * STEP);
            if placement_problem(game, &Circle::new(p, r)).is_some() {
                continue;
            }
            let edge = (p.x - r)
                .min(p.y - r)
                .min(t.width - p.x - r)
                .min(t.height - p.y - r);
            if best.is_none_or(|(_, e)| edge > e + 1e-9) {
                best = Some((p, edge));
            }
        }
    }
    best
}

/// What one melee or shot did, read from the kernel's report and the events it logged.
#[derive(Debug, Clone)]
struct CombatLeaf {
    winner: Option<Role>,
    /// The result the table gave (before scripts replaced it).
    table: CombatResult,
    /// What the loser suffered once the kernel and the scripts were done.
    applied: CombatResult,
    modifiers: Vec<Modifier>,
    notes: Vec<String>,
    /// Other things a side suffered (Quality worsened by Poison, a morale check), by who suffered it.
    also: Vec<(Role, String)>,
    weapon_broken: bool,
}

/// The words of a result, as the rulebook names it.
pub fn result_words(r: CombatResult) -> &'static str {
    match r {
        CombatResult::Tie => "tie",
        CombatResult::Recoil => "Recoil",
        CombatResult::Defenseless => "Defenseless",
        CombatResult::Defeated => "Defeated",
        CombatResult::Gruesome => "Gruesome Kill",
        CombatResult::None => "no effect",
        CombatResult::Wound => "a Wound",
        CombatResult::Entangled => "Entangled",
    }
}

/// Read one resolution: `start` is where its events begin in the log; `a` and `d` are the attacker
/// (shooter) and the defender (target).
fn read_combat(
    game: &Game,
    hooks: &dyn Hooks,
    start: usize,
    r: &CombatReport,
    (a, d): (ModelId, ModelId),
    names: (&str, &str),
) -> Result<CombatLeaf, RuleError> {
    let who = |id: ModelId| {
        if id == a {
            Some(Role::Attacker)
        } else if id == d {
            Some(Role::Defender)
        } else {
            None
        }
    };
    let name = |id: ModelId| if id == a { names.0 } else { names.1 };
    let mut notes = Vec::new();
    let mut also = Vec::new();
    let mut weapon_broken = false;
    for e in game.log().get(start..).unwrap_or_default() {
        match &e.kind {
            EventKind::Combat {
                attacker,
                winner: Some(w),
                lethal,
                gruesome_at,
                ..
            } => {
                let winner = match w {
                    Role::Attacker => name(*attacker),
                    Role::Defender => name(if *attacker == a { d } else { a }),
                };
                if let Some(why) = lethal {
                    notes.push(format!("{winner} defeats on any win: {why}"));
                }
                if let Some(g) = gruesome_at {
                    notes.push(format!("{winner}: {g}"));
                }
            }
            EventKind::ResultChanged {
                model,
                from,
                to,
                reason,
                source,
            } if from != to => notes.push(format!(
                "{reason} ({source}): {} suffers {} instead of {}",
                name(*model),
                result_words(*to),
                result_words(*from)
            )),
            EventKind::ResultChanged {
                model,
                reason,
                source,
                ..
            } => notes.push(format!(
                "{reason} ({source}): {} Recoils farther",
                name(*model)
            )),
            EventKind::QualityWorsened {
                model,
                amount,
                reason,
                source,
                ..
            } => {
                if let Some(role) = who(*model) {
                    also.push((
                        role,
                        format!("Quality worsened by {amount} ({reason}, {source})"),
                    ));
                }
            }
            EventKind::WeaponBroken { model } if *model == a => weapon_broken = true,
            EventKind::Morale { model, detail, .. } => {
                if let Some(role) = who(*model) {
                    also.push((role, format!("morale: {detail}")));
                }
            }
            _ => {}
        }
    }
    if r.applied == CombatResult::Wound {
        if let Some((_, loser)) = r.winner_loser() {
            if let Some(source) = hooks.permission(game, loser, TOUGH)? {
                notes.push(format!(
                    "Tough ({source}): {} takes a Wound instead of a normal Defeated (Quality worsens)",
                    name(loser)
                ));
            }
        }
    }
    Ok(CombatLeaf {
        winner: r.winner,
        table: r.result,
        applied: r.applied,
        modifiers: r.modifiers.clone(),
        notes,
        also,
        weapon_broken,
    })
}

/// The counts of a melee or a shot over every way the dice fall.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CombatTally {
    /// The equally likely outcomes every count is out of (6^dice).
    pub outcomes: u64,
    /// The most dice one resolution rolled.
    pub dice: usize,
    /// Every modifier the kernel applied, with its source (`rules` or a script path), once each.
    pub modifiers: Vec<Modifier>,
    /// The rules and scripts that changed a result (Lethal, a Gruesome Kill multiple, Heavy Armor,
    /// Tough), with their sources, once each.
    pub rules: Vec<String>,
    /// Equal totals.
    pub tie: u64,
    /// The defender's (target's) winning roll that hurts nobody: a Free Hack's or a shot's defensive roll.
    pub no_effect: u64,
    /// What the defender (target) suffered when the attacker (shooter) won.
    pub attacker_wins: Suffered<u64>,
    /// What the attacker suffered when the defender won.
    pub defender_wins: Suffered<u64>,
    /// The shooter's weapon broke (a natural 1, confirmed as its weapon says).
    pub weapon_broken: u64,
    /// Other things a side suffered: who, what, how many outcomes.
    pub also: Vec<(Role, String, u64)>,
}

fn push_unique<T: PartialEq + Clone>(list: &mut Vec<T>, items: &[T]) {
    for i in items {
        if !list.contains(i) {
            list.push(i.clone());
        }
    }
}

fn tally(tree: &Tree<CombatLeaf>) -> CombatTally {
    let mut t = CombatTally {
        outcomes: tree.outcomes(),
        dice: tree.depth,
        ..CombatTally::default()
    };
    for leaf in &tree.leaves {
        let w = tree.weight(leaf);
        let v = &leaf.value;
        push_unique(&mut t.modifiers, &v.modifiers);
        push_unique(&mut t.rules, &v.notes);
        if v.weapon_broken {
            t.weapon_broken += w;
        }
        for (role, what) in &v.also {
            match t.also.iter_mut().find(|(r, s, _)| r == role && s == what) {
                Some(row) => row.2 += w,
                None => t.also.push((*role, what.clone(), w)),
            }
        }
        let side = match v.winner {
            None => {
                t.tie += w;
                continue;
            }
            // The table gave nothing (a Free Hack's or a shot's defensive roll).
            Some(_) if v.table == CombatResult::None => {
                t.no_effect += w;
                continue;
            }
            Some(Role::Attacker) => &mut t.attacker_wins,
            Some(Role::Defender) => &mut t.defender_wins,
        };
        side.add(v.applied, w);
    }
    t
}

/// `village odds melee` by profile names.
#[derive(Debug, Clone, Copy)]
pub struct MeleeByName<'a> {
    /// The attacker's profile name, as typed.
    pub attacker: &'a str,
    /// The defender's profile name, as typed.
    pub defender: &'a str,
    /// A Power Blow.
    pub power_blow: bool,
    /// The defender starts Defenseless.
    pub defenseless: bool,
    /// A Free Hack.
    pub free_hack: bool,
}

/// Both fighters' profiles, as resolved.
#[derive(Debug, Clone)]
pub struct Pair {
    /// The attacker's (shooter's) profile.
    pub attacker: Profile,
    /// The defender's (target's) profile.
    pub defender: Profile,
}

/// The two profiles of a melee or a shot, which must be on opposite sides.
fn opposed(rosters: &Rosters, a: &str, d: &str, what: &str) -> Result<Pair, OddsError> {
    let (pa, pd) = (profile(rosters, a)?, profile(rosters, d)?);
    let (sa, sd) = (Side::of(pa.kind), Side::of(pd.kind));
    if sa == sd {
        return Err(OddsError::Setup(format!(
            "{} and {} are both on the {} side: {what} is made against the other side",
            pa.name,
            pd.name,
            side_name(sa)
        )));
    }
    Ok(Pair {
        attacker: pa.clone(),
        defender: pd.clone(),
    })
}

/// Exact melee odds of the profile `attacker` attacking `defender` (SUPPLEMENT §4), through the kernel:
/// both in base contact on an empty table, every face of every die the melee rolls tried.
pub fn melee_by_name(
    trials: &mut dyn Trials,
    q: &MeleeByName<'_>,
) -> Result<(Pair, CombatTally), OddsError> {
    let pair = opposed(trials.rosters(), q.attacker, q.defender, "a melee")?;
    let (pa, pd) = (&pair.attacker, &pair.defender);
    let mut ids = None;
    trials.run(&mut |game, rosters, _| {
        let (mut ma, mut md) = (model_of(pa, rosters, &[]), model_of(pd, rosters, &[]));
        let (at, dt) = facing(
            game,
            &rosters.rules,
            (ma.base / 2.0, md.base / 2.0),
            0.0,
            false,
        )
        .ok_or_else(|| {
            OddsError::Setup(format!(
                "the table has no room for {} and {} in base contact",
                ma.name, md.name
            ))
        })?;
        (ma.pos, md.pos) = (at, dt);
        let (a, d) = (game.add_model(ma), game.add_model(md));
        if q.defenseless {
            add_condition(game, d, Condition::Defenseless).map_err(|error| OddsError::Rule {
                faces: Vec::new(),
                error,
            })?;
        }
        ids = Some((a, d));
        Ok(())
    })?;
    let (a, d) = ids.ok_or_else(|| OddsError::Host("the scratch game placed nobody".into()))?;
    let o = MeleeOptions {
        power_blow: q.power_blow,
        free_hack: q.free_hack,
        ..MeleeOptions::default()
    };
    let names = (pair.attacker.name.clone(), pair.defender.name.clone());
    let tree = enumerate(trials, &mut |game, rosters, hooks| {
        let start = game.log().len();
        let r = melee(game, &rosters.rules, hooks, a, d, o)?;
        read_combat(game, hooks, start, &r, (a, d), (&names.0, &names.1))
    })?;
    Ok((pair, tally(&tree)))
}

/// `village odds ranged` by profile names.
#[derive(Debug, Clone, Copy)]
pub struct RangedByName<'a> {
    /// The shooter's profile name, as typed.
    pub shooter: &'a str,
    /// The target's profile name, as typed.
    pub target: &'a str,
    /// The gap between the bases, in inches.
    pub distance: f64,
    /// The target touches a wall between them: Cover.
    pub cover: bool,
    /// An Aimed Shot.
    pub aimed: bool,
    /// The shooter has Good Shot (given the trait if its profile lacks it).
    pub good_shot: bool,
    /// The target is Defenseless.
    pub defenseless: bool,
}

/// Exact odds of the profile `shooter` shooting `target` (core §3.5) through the kernel: both on an
/// empty table `distance` inches apart in clear sight (or with the target touching a wall between them,
/// for Cover), every face of every die the shot rolls tried (a natural 1's weapon check included).
pub fn ranged_by_name(
    trials: &mut dyn Trials,
    q: &RangedByName<'_>,
) -> Result<(Pair, CombatTally), OddsError> {
    let pair = opposed(trials.rosters(), q.shooter, q.target, "a shot")?;
    let (ps, pt) = (&pair.attacker, &pair.defender);
    let extra: &[&str] = if q.good_shot { &["Good Shot"] } else { &[] };
    let mut ids = None;
    trials.run(&mut |game, rosters, _| {
        let (mut ms, mut mt) = (model_of(ps, rosters, extra), model_of(pt, rosters, &[]));
        let (rs, rt) = (ms.base / 2.0, mt.base / 2.0);
        let (at, tt) =
            facing(game, &rosters.rules, (rs, rt), q.distance, true).ok_or_else(|| {
                OddsError::Setup(format!(
                    "the table ({}\" by {}\") has no clear line of {:.1}\" for {} to shoot {}",
                    game.table.width, game.table.height, q.distance, ms.name, mt.name
                ))
            })?;
        (ms.pos, mt.pos) = (at, tt);
        let (s, t) = (game.add_model(ms), game.add_model(mt));
        let rule = |error| OddsError::Rule {
            faces: Vec::new(),
            error,
        };
        if q.cover {
            // A wall touching the target on the shooter's side: Cover to it (core §3.5, SUPPLEMENT §2).
            let x = tt.x - rt - rosters.rules.bases.contact_tolerance / 2.0;
            game.table.terrain.push(Terrain {
                kind: TerrainKind::Wall,
                shape: TerrainShape::Line(Segment::new(
                    Vec2::new(x, tt.y - rt - 0.5),
                    Vec2::new(x, tt.y + rt + 0.5),
                )),
            });
            let (cs, ct) = (
                game.model(s).map_err(|e| rule(e.into()))?.circle(),
                game.model(t).map_err(|e| rule(e.into()))?.circle(),
            );
            let sight = sight_with_tol(
                &game.table,
                &cs,
                &ct,
                &cover_segments(game),
                rosters.rules.bases.contact_tolerance,
            );
            if sight != Sight::Cover {
                return Err(OddsError::Setup(format!(
                    "a wall touching {} does not give it Cover from {} on this table",
                    pt.name, ps.name
                )));
            }
        }
        if q.defenseless {
            add_condition(game, t, Condition::Defenseless).map_err(rule)?;
        }
        ids = Some((s, t));
        Ok(())
    })?;
    let (s, t) = ids.ok_or_else(|| OddsError::Host("the scratch game placed nobody".into()))?;
    let o = ShotOptions { aimed: q.aimed };
    let names = (pair.attacker.name.clone(), pair.defender.name.clone());
    let tree = enumerate(trials, &mut |game, rosters, hooks| {
        let start = game.log().len();
        let r = shoot(game, rosters, hooks, s, t, o)?;
        read_combat(game, hooks, start, &r, (s, t), (&names.0, &names.1))
    })?;
    Ok((pair, tally(&tree)))
}

/// `village odds morale` by profile name.
#[derive(Debug, Clone, Copy)]
pub struct MoraleByName<'a> {
    /// The model's profile name, as typed.
    pub model: &'a str,
    /// What sets the check off.
    pub trigger: MoraleTrigger,
    /// The model has Steadfast (given the trait if its profile lacks it).
    pub steadfast: bool,
}

/// One result a number of failures gave.
#[derive(Debug, Clone, PartialEq)]
pub struct MoraleRow {
    /// Failed dice (0 for an immune model, which rolls none).
    pub failures: u8,
    /// The kernel's result.
    pub result: MoraleResult,
    /// What the kernel's log says happened, without the model's name.
    pub words: String,
    /// Outcomes out of [`MoraleTally::outcomes`].
    pub count: u64,
}

/// The counts of a morale check over every way its dice fall.
#[derive(Debug, Clone, PartialEq)]
pub struct MoraleTally {
    /// The model's profile name (`None` for a bare Quality).
    pub name: Option<String>,
    /// Its Quality.
    pub quality: u8,
    /// The equally likely outcomes (6^dice; 1 when the model ignores the check).
    pub outcomes: u64,
    /// The dice rolled.
    pub dice: usize,
    /// The modifiers to each die, with their sources.
    pub modifiers: Vec<Modifier>,
    /// Why the model ignores the check, with the source (`None` when it rolls).
    pub immune: Option<String>,
    /// Outcomes with k failures, k = 0..=dice (empty when immune).
    pub failures: Vec<u64>,
    /// Each result, by failures.
    pub results: Vec<MoraleRow>,
    /// How far from the nearest table edge the model stood (its fall-back's room); `None` off the table.
    pub edge: Option<f64>,
}

/// Exact odds of a morale check (core §3.6) of the profile `model` for `trigger`, through the kernel:
/// alone on an empty table, as far from every edge as it can stand, every face of its dice tried.
pub fn morale_by_name(
    trials: &mut dyn Trials,
    q: &MoraleByName<'_>,
) -> Result<MoraleTally, OddsError> {
    let p = profile(trials.rosters(), q.model)?.clone();
    let extra: &[&str] = if q.steadfast { &["Steadfast"] } else { &[] };
    let mut placed = None;
    trials.run(&mut |game, rosters, _| {
        let mut m = model_of(&p, rosters, extra);
        let (at, edge) = open_spot(game, m.base / 2.0)
            .ok_or_else(|| OddsError::Setup(format!("the table has no room for {}", p.name)))?;
        m.pos = at;
        placed = Some((game.add_model(m), edge));
        Ok(())
    })?;
    let (id, edge) =
        placed.ok_or_else(|| OddsError::Host("the scratch game placed nobody".into()))?;
    type MoraleLeaf = (u8, MoraleResult, String, Vec<Modifier>);
    let tree = enumerate(trials, &mut |game,
                                       rosters,
                                       hooks|
     -> Result<MoraleLeaf, RuleError> {
        let start = game.log().len();
        let who = label(game.model(id)?);
        let r = morale_check(game, &rosters.rules, hooks, id, q.trigger)?;
        let (words, mods) = game
            .log()
            .get(start..)
            .unwrap_or_default()
            .iter()
            .find_map(|e| match &e.kind {
                EventKind::Morale {
                    model,
                    detail,
                    modifiers,
                    ..
                } if *model == id => Some((detail.clone(), modifiers.clone())),
                _ => None,
            })
            .unwrap_or_default();
        let words = words
            .strip_prefix(&who)
            .map_or(words.clone(), |w| w.trim_start().to_string());
        Ok((r.failures, r.result, words, mods))
    })?;
    let mut t = MoraleTally {
        name: Some(p.name.clone()),
        quality: p.quality,
        outcomes: tree.outcomes(),
        dice: tree.depth,
        modifiers: Vec::new(),
        immune: None,
        failures: vec![0; tree.depth + 1],
        results: Vec::new(),
        edge: Some(edge),
    };
    for leaf in &tree.leaves {
        let w = tree.weight(leaf);
        let (f, result, words, mods) = &leaf.value;
        push_unique(&mut t.modifiers, mods);
        if *result == MoraleResult::Immune {
            t.immune = Some(words.trim_start_matches("ignores the check: ").to_string());
        }
        if let Some(c) = t.failures.get_mut(usize::from(*f)) {
            *c += w;
        }
        match t
            .results
            .iter_mut()
            .find(|r| r.failures == *f && r.result == *result && r.words == *words)
        {
            Some(row) => row.count += w,
            None => t.results.push(MoraleRow {
                failures: *f,
                result: *result,
                words: words.clone(),
                count: w,
            }),
        }
    }
    if t.immune.is_some() {
        t.failures.clear();
    }
    t.results.sort_by_key(|r| r.failures);
    Ok(t)
}
