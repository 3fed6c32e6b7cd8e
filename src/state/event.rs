//! The structured event log: every roll and every result is an event (DESIGN.md invariant 5).

use super::model::{Condition, ModelId};
use super::vocab::{CombatResult, Modifier, MoraleResult, MoraleTrigger, Role, RollKind, Target};
use crate::geometry::Vec2;
use serde::{Deserialize, Serialize};

/// One entry of the log, numbered from 0 in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    /// The event this one followed from, when the kernel knows it: a combat for the Recoil, Wound,
    /// removal or morale check it led to, a Leader's removal for the morale checks it set off. `:explain`
    /// shows what an event caused from these links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<u64>,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// A model was put on the table.
    Placed {
        model: ModelId,
        name: String,
        pos: Vec2,
    },
    /// A model left the table (Defeated, Fled, left by an edge).
    Removed { model: ModelId, reason: String },
    /// An activation roll was evaluated (§3.1): the rolled faces, and the successes taken without a
    /// roll (a Hero's one, SUPPLEMENT §4).
    Activation {
        model: ModelId,
        dice: Vec<u8>,
        #[serde(default)]
        automatic: u8,
        successes: u8,
        failures: u8,
        turnover: bool,
    },
    /// Actions were spent on a Task; `complete` when it is done.
    TaskProgress {
        model: ModelId,
        task: String,
        done: u8,
        needed: u8,
        complete: bool,
    },
    /// A Task's accumulated actions were lost (the model left, was hit, or started something else).
    TaskLost { model: ModelId, task: String },
    /// Several models activated on one roll (§3.1 group activation).
    GroupActivation {
        leader: Option<ModelId>,
        members: Vec<ModelId>,
        quality: u8,
    },
    /// A model moved in a straight line.
    Moved {
        model: ModelId,
        from: Vec2,
        to: Vec2,
        /// What ended the move early, in words ("contact with Orc Warrior (3)").
        stopped_by: Option<String>,
        /// Scripts whose movement properties applied (Flying, Forester, Free Disengage ...).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        traits: Vec<String>,
        /// A further straight leg of the same move action (a route around what is in the way): the log
        /// in words shows the legs of one move as one line.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        leg: bool,
    },
    /// A melee, ranged or structural roll: dice, totals, every modifier with its source, the result.
    Combat {
        kind: RollKind,
        attacker: ModelId,
        target: Target,
        attacker_die: u8,
        defender_die: u8,
        attacker_total: i32,
        defender_total: i32,
        modifiers: Vec<Modifier>,
        winner: Option<Role>,
        /// The result read from the table, before Tough, Heavy Armor or room to recoil change it.
        result: CombatResult,
        /// Why a win defeated on any loss (Defenseless target, Lethal attack), if it did.
        lethal: Option<String>,
        /// A script that lowered the Gruesome Kill multiple (Savage), if one did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gruesome_at: Option<String>,
        /// A Free Hack (§3.3): made on a model leaving melee (or falling back from it), the target
        /// rolling only to stop it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        free_hack: bool,
        /// What made the attack outside a normal action, when something did ("a free Javelins throw
        /// after moving closer (§3.5)"): not an action of the attacker's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reaction: Option<String>,
    },
    /// A script replaced a result before it was applied (Heavy Armor, Entangle).
    ResultChanged {
        model: ModelId,
        from: CombatResult,
        to: CombatResult,
        reason: String,
        source: String,
    },
    /// A script worsened a model's Quality (Poison).
    QualityWorsened {
        model: ModelId,
        amount: u8,
        quality: u8,
        reason: String,
        source: String,
    },
    /// What actually happened to a model after a result.
    Outcome {
        model: ModelId,
        result: CombatResult,
        detail: String,
    },
    /// A condition was added or removed.
    Condition {
        model: ModelId,
        condition: Condition,
        added: bool,
    },
    /// A building lost Integrity.
    Damage {
        building: String,
        amount: i32,
        integrity: i32,
        destroyed: bool,
    },
    /// A morale check (§3.6) and what it did.
    Morale {
        model: ModelId,
        trigger: MoraleTrigger,
        dice: Vec<u8>,
        modifiers: Vec<Modifier>,
        failures: u8,
        result: MoraleResult,
        detail: String,
    },
    /// A fire token was placed on a building or removed from it.
    Fire {
        building: String,
        lit: bool,
        by: Option<ModelId>,
        /// The script that lit or put out the fire, when one did (Wildfire, Smother).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Trap went off under a model (§6.5): the Trap's attack roll and its result, or, for a snare
    /// that Entangles without a roll (Grimm's Snare Master, SUPPLEMENT §11), no dice and `entangled`.
    Trap {
        token: super::piece::TokenId,
        model: ModelId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trap_die: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_die: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trap_total: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_total: Option<i32>,
        result: CombatResult,
        /// The script that placed the Trap, when one did (Grimm's Snare Master: it Entangles).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Barricade lost Integrity, and was removed at 0.
    BarricadeDamage {
        token: super::piece::TokenId,
        amount: i32,
        integrity: i32,
        destroyed: bool,
        /// The script that did it, when one did (the Orc Demolisher's Breach).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A spell was cast with this Power (§3.7).
    Spell {
        caster: ModelId,
        spell: String,
        power: u8,
        target: Option<ModelId>,
        /// The spell script that decided the effect (`g:cast`); absent when the kernel was called directly.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Summoning brought a model onto the table; it vanishes if its caster leaves (§3.7).
    Summoned {
        model: ModelId,
        caster: ModelId,
        spell: String,
    },
    /// A Wall spell raised a linear obstacle (a Barricade token held by its caster).
    WallRaised {
        token: super::piece::TokenId,
        caster: ModelId,
        spell: String,
    },
    /// A Wall spell's barricade fell (§3.7): at the end of the wave, or with its caster.
    WallFallen {
        token: super::piece::TokenId,
        reason: String,
    },
    /// A dispel (Break Enchantment) looked for an Enchantment on a model: what it removed, if anything.
    Dispel {
        caster: ModelId,
        target: ModelId,
        spell: String,
        dispelled: Option<String>,
    },
    /// A Resisted spell: the target rolled one Quality die per Power; any failure lets it take hold.
    Resisted {
        model: ModelId,
        dice: Vec<u8>,
        took_hold: bool,
    },
    /// A Spell-caster failed three dice and is out of power for the wave.
    OutOfPower { model: ModelId },
    /// A shot made for no action: a Javelin thrown after moving closer to its target (§3.5).
    FreeThrow {
        model: ModelId,
        target: ModelId,
        weapon: String,
    },
    /// A Spell-caster declared spellcasting before its activation roll (§3.7).
    Declared { model: ModelId },
    /// A Behaviour assigned `models` (a Group) an objective to hold (§6.3, Guardian): at deployment, or
    /// because the one it had (`lost`) was Destroyed or removed.
    Objective {
        models: Vec<ModelId>,
        objective: super::model::Objective,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lost: Option<super::model::Objective>,
    },
    /// A Wound was healed or a condition cleared.
    Healed { model: ModelId, what: String },
    /// A shooter's weapon broke on two natural 1s (§3.5).
    WeaponBroken { model: ModelId },
    /// A choice the rules leave to chance but that is not a die roll (e.g. the default wave builder picking
    /// among eligible profiles, SUPPLEMENT §10), drawn uniformly from the seeded stream. `options` are in a
    /// stable order; `picked` is the one drawn. A choice with one option is logged without drawing.
    Choice {
        purpose: String,
        options: Vec<String>,
        picked: String,
    },
    /// The wave builder (core §5.2) made an Enemy Group: its number (creation order), Behaviour, profile
    /// per model, spawn edge (1 N, 2 E, 3 S, 4 W) and whether it may ignite buildings.
    GroupBuilt {
        number: u32,
        behaviour: String,
        models: Vec<String>,
        edge: u8,
        igniters: bool,
    },
    /// The wave builder finished: Escalation, budget, Wave Points spent, Groups made, and any §5.2 limit the
    /// budget or the rosters made impossible to meet.
    WaveBuilt {
        escalation: String,
        budget: i64,
        spent: i64,
        groups: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        unmet: Vec<String>,
        /// The Lua wave-builder script that chose the Groups instead of the default builder, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        builder: Option<String>,
    },
    /// The spawn edges of the wave's Groups were revealed (core §5.2, §5.3 step 3): `edges[i]` is the
    /// edge of Group `groups[i]`. `by` names the ability that revealed them before hero deployment
    /// (Watchtower III Advanced Deployment); `None` when they are revealed as the enemies deploy.
    EdgesRevealed {
        groups: Vec<u32>,
        edges: Vec<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// A village building's ability was used (core §7.3): the building, the ability's Level and name,
    /// what it did in words, and the models it concerned.
    BuildingAbility {
        building: String,
        level: u8,
        ability: String,
        detail: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        models: Vec<ModelId>,
    },
    /// A choice a script made was refused by the rules; the game went on without it. `source` is the
    /// script, `choice` what it asked for, `reason` why it was refused.
    Refused {
        source: String,
        choice: String,
        reason: String,
    },
    /// A hero or Village Defender was deployed at the start of a wave (core §5.3 step 2): moved from
    /// where it stood to `to`, within the deploy distance of the building `near`.
    Deployed {
        model: ModelId,
        from: Vec2,
        to: Vec2,
        near: String,
    },
    /// An Enemy Group was deployed (core §5.3 step 3) around `anchor`, wholly within the deploy distance
    /// of spawn edge `edge` (1 N, 2 E, 3 S, 4 W). `hero_clearance` is false when the Group could not be
    /// kept outside Short of every hero; `routes` is false when some model could not be placed where it
    /// has a route to the Town Hall (the log then says the table did not allow it).
    GroupDeployed {
        number: u32,
        edge: u8,
        anchor: Vec2,
        models: Vec<ModelId>,
        hero_clearance: bool,
        routes: bool,
    },
    /// An Opportunity token was placed at the end of a wave (core §7.1 step 5) on spawn edge `edge`
    /// (1 N, 2 E, 3 S, 4 W), face down unless Watchtower II revealed it. `far` is false when no open
    /// spot on that edge was at least the setup distance from the Town Hall ("if possible"); `token` is
    /// absent when the edge had no open ground at all.
    OpportunityPlaced {
        token: Option<super::piece::TokenId>,
        edge: u8,
        pos: Option<Vec2>,
        revealed: bool,
        far: bool,
    },
    /// One Council order (core §7.2–7.3): what was done (`upgrade`, `repair`, `barricade`, `trap`,
    /// `heal`, `herb`, `resurrect`), to which building or hero, where, the Supplies paid, the ability it
    /// used (`source`) and the result in words — or, when `refused` is set, why nothing happened.
    Council {
        what: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        building: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hero: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pos: Option<Vec2>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<super::piece::TokenId>,
        supplies: i32,
        source: String,
        detail: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// A hero that Fled in an earlier wave rejoins the party at the start of this one (ruling: Fled is
    /// not Defeated), with the Wounds it had.
    Rejoined { model: ModelId, name: String },
    /// A hero claimed an Opportunity token (core §6.1): the D6 `roll` read on rosters/opportunities.toml
    /// gave `result`, resolved `now` or at `wave_end` by the row's script `source`. The token is removed.
    Claimed {
        hero: ModelId,
        token: super::piece::TokenId,
        roll: u8,
        result: String,
        timing: String,
        source: String,
    },
    /// A claimed result's wave-end part resolved at step 4 of the End Sequence (core §7.1); `hero` is
    /// absent when the claimer is no longer on the table.
    RewardResolved {
        hero: Option<ModelId>,
        result: String,
        source: String,
    },
    /// A script added Supplies to the village.
    SuppliesGained {
        amount: i32,
        supplies: i32,
        source: String,
    },
    /// A script gave the village Herb tokens (each heals 1 Wound in a Council Phase).
    HerbsGained {
        amount: u32,
        herbs: u32,
        source: String,
    },
    /// A script queued a Village Defender to join at the next wave start.
    DefenderJoining { profile: String, source: String },
    /// A script gave a model an item or boon.
    ItemGained {
        model: ModelId,
        item: String,
        source: String,
    },
    /// A model used (and lost) an item.
    ItemUsed {
        model: ModelId,
        item: String,
        source: String,
    },
    /// Some activation dice were rolled again at a script's word (Warcry, Hex): which (0-based, in the
    /// roll's order) and the new faces, which the `roll` event before it also shows.
    Rerolled {
        model: ModelId,
        dice: Vec<usize>,
        faces: Vec<u8>,
        reason: String,
        source: String,
    },
    /// A script granted a modifier for a while (Hold the Line).
    EffectGranted {
        models: Vec<ModelId>,
        against: Vec<ModelId>,
        value: i32,
        reason: String,
        source: String,
    },
    /// A script's action (an `actions` entry: Field Repairs, Smother, Fire Breath) ran or progressed.
    Ability {
        model: ModelId,
        name: String,
        source: String,
        /// A Task's progress, when it is one.
        done: Option<u8>,
        needed: Option<u8>,
        ran: bool,
    },
    /// A building regained Integrity outside the Council Phase (Field Repairs).
    Repaired {
        building: String,
        amount: i32,
        integrity: i32,
        source: String,
    },
    /// A model used a permission its scripts grant to bend a rule (Called Shot shooting past a closer
    /// target).
    RuleBent {
        model: ModelId,
        rule: String,
        detail: String,
        source: String,
    },
    /// A limited use was spent (`game:`, `wave:` or `council:` key of `Game::spent`).
    Spent { key: String, source: String },
    /// An Ambush (an Opportunity script) deployed enemies near `token` as a new Enemy Group `number`
    /// joining the wave; `wanted` is how many it asked for (fewer fit when the table is crowded).
    Ambush {
        token: super::piece::TokenId,
        number: u32,
        models: Vec<ModelId>,
        wanted: u32,
        source: String,
    },
    /// Dice were rolled. `purpose` names the rule ("activation", "melee", "morale", ...); `forced` marks
    /// faces taken from the forced queue.
    Roll {
        purpose: String,
        model: Option<ModelId>,
        dice: Vec<u8>,
        forced: Vec<bool>,
    },
}
