//! The structured event log: every roll and every result is an event (DESIGN.md invariant 5).

use super::model::{Condition, ModelId, Side};
use super::piece::{Building, Token, TokenId, TokenKind};
use super::vocab::{CombatResult, Modifier, MoraleResult, MoraleTrigger, Role, RollKind, Target};
use crate::geometry::{Table, TerrainKind, TerrainShape, Vec2};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One entry of the log, numbered from 0 in the order it happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Event {
    /// The event's number: 0 for the game's `setup`, then one more for each event.
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum EventKind {
    /// The table as the game begins, always event 0: its size, every terrain piece with its kind and
    /// shape, every building with its rectangle, Integrity, Level and flags, the tokens already on the
    /// table and the village's starting Supplies. With the events after it, the log alone is the game.
    Setup {
        /// East–west size of the table in inches (x runs from 0 at the west edge to `width`).
        width: f64,
        /// North–south size in inches (y runs from 0 at the south edge to `height`).
        height: f64,
        /// Every terrain piece (SUPPLEMENT §2).
        terrain: Vec<TerrainPiece>,
        /// Every village building, in the order the game keeps them.
        buildings: Vec<BuildingFacts>,
        /// The tokens already on the table.
        tokens: Vec<TokenFacts>,
        /// The village's Supplies as the game begins.
        supplies: i32,
    },
    /// A round of a wave begins (core Ch. V): round 1 is the wave's first, after deployment.
    Round {
        /// The wave, from 1.
        wave: u32,
        /// The round within the wave, from 1.
        round: u32,
    },
    /// A side's turn begins (§3.1): its models become Active.
    Turn {
        /// The wave, from 1 (0 for a turn played outside a wave, in a scenario).
        wave: u32,
        /// The round within the wave (0 outside a wave).
        round: u32,
        /// Whose turn: `heroes` (heroes and Village Defenders) or `enemies`.
        side: Side,
    },
    /// A model was put on the table. A hero is first placed where it is deployed (SUPPLEMENT §11),
    /// and a `deployed` event with `from` null follows.
    Placed {
        /// The model's id for the whole game.
        model: ModelId,
        /// Its name, as the log in words shows it.
        name: String,
        /// The roster profile it was made from.
        #[serde(default)]
        profile: String,
        /// The side it fights on.
        #[serde(default = "heroes_side")]
        side: Side,
        /// Its base diameter in inches.
        #[serde(default)]
        base: f64,
        /// The centre of its base.
        pos: Vec2,
    },
    /// A token came onto the table other than by a `council` order, a Wall spell (`wall_raised`) or
    /// the End Sequence's Opportunity (`opportunity_placed`): a script or scenario placed it.
    TokenPlaced {
        /// The token, where it lies and its shape.
        #[serde(flatten)]
        token: TokenFacts,
    },
    /// A model left the table (Defeated, Fled, left by an edge).
    Removed {
        /// The model that left.
        model: ModelId,
        /// Why, in words ("Defeated", "Fled", "left by the north edge").
        reason: String,
    },
    /// An activation roll was evaluated (§3.1): the rolled faces, and the successes taken without a
    /// roll (a Hero's one, SUPPLEMENT §4).
    Activation {
        /// The model (a Group's first model) that rolled.
        model: ModelId,
        /// The faces rolled, one Quality die each.
        dice: Vec<u8>,
        /// Successes taken without rolling (a Hero's one).
        #[serde(default)]
        automatic: u8,
        /// Actions it may take: the dice at or above its Quality, plus `automatic`.
        successes: u8,
        /// Dice below its Quality.
        failures: u8,
        /// Two or more failures: the side's turn ends after this activation (§3.1).
        turnover: bool,
    },
    /// Actions were spent on a Task; `complete` when it is done.
    TaskProgress {
        /// The model working on it.
        model: ModelId,
        /// What the Task is ("break free", "Raise Dead").
        task: String,
        /// Actions spent on it so far.
        done: u8,
        /// Actions it takes in all.
        needed: u8,
        /// It is done.
        complete: bool,
    },
    /// A Task's accumulated actions were lost (the model left, was hit, or started something else).
    TaskLost {
        /// The model that was working on it.
        model: ModelId,
        /// What the Task was.
        task: String,
    },
    /// Several models activated on one roll (§3.1 group activation).
    GroupActivation {
        /// The Leader whose roll it is, if a Leader led.
        leader: Option<ModelId>,
        /// The models that activated together.
        members: Vec<ModelId>,
        /// The Quality the roll was made at.
        quality: u8,
    },
    /// A model moved: one move action (a straight segment, SUPPLEMENT §11), a step, a compelled
    /// fall-back (which may bend around what is in the way: `via`), a Recoil or another displacement.
    Moved {
        /// The model that moved.
        model: ModelId,
        /// Where its base centre started.
        from: Vec2,
        /// Where its base centre ended.
        to: Vec2,
        /// What kind of movement it was.
        #[serde(default)]
        kind: MoveKind,
        /// A move or step: the most inches the action could cover (its band, one band less after
        /// terrain, one base width for a step, or a shorter limit asked for).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reach: Option<f64>,
        /// A move: the movement band it moved at, before terrain took one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        band: Option<crate::roster::Measure>,
        /// Why terrain took a band (or, for a Short-move model, cost two actions), if it did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        band_lost: Option<String>,
        /// Actions the move cost, when more than one (a Short-move model over difficult ground).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        actions: Option<u8>,
        /// Why it ended where it did.
        #[serde(default)]
        stop: MoveStop,
        /// The model it stopped against (`contact`, `base`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<ModelId>,
        /// A fall-back's bend points between `from` and `to`, in order (a move action has none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        via: Vec<Vec2>,
        /// What ended the move early, in words ("contact with Orc Warrior (3)").
        stopped_by: Option<String>,
        /// Scripts whose movement properties applied (Flying, Forester, Free Disengage ...).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        traits: Vec<String>,
    },
    /// A melee, ranged or structural roll: dice, totals, every modifier with its source, the result.
    Combat {
        /// Melee, ranged or structural.
        kind: RollKind,
        /// The model attacking.
        attacker: ModelId,
        /// What it attacks: a model, a building or a Barricade.
        target: Target,
        /// The attacker's die.
        attacker_die: u8,
        /// The defender's die (in a structural roll, the building's or the Barricade's).
        defender_die: u8,
        /// The attacker's die plus its Combat value and modifiers.
        attacker_total: i32,
        /// The defender's die plus its Combat value (a structure's Structure) and modifiers.
        defender_total: i32,
        /// Every modifier to either total, with its reason and source.
        modifiers: Vec<Modifier>,
        /// Whose total is higher; null on a tie.
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
        /// Concentrated Shooting (§3.5): every model that fired, the one whose action it is first
        /// (the `attacker` is the best shooter, who rolls); empty for a lone shot.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        shooters: Vec<ModelId>,
    },
    /// A script replaced a result before it was applied (Heavy Armor, Entangle).
    ResultChanged {
        /// The model whose result it is.
        model: ModelId,
        /// The result the table gave.
        from: CombatResult,
        /// The result applied instead.
        to: CombatResult,
        /// Why, in words.
        reason: String,
        /// The script that changed it.
        source: String,
    },
    /// A script worsened a model's Quality (Poison).
    QualityWorsened {
        /// The model.
        model: ModelId,
        /// How many steps its Quality worsened.
        amount: u8,
        /// Its Quality now.
        quality: u8,
        /// Why, in words.
        reason: String,
        /// The script that worsened it.
        source: String,
    },
    /// What actually happened to a model after a result.
    Outcome {
        /// The model the result was applied to.
        model: ModelId,
        /// What happened to it.
        result: CombatResult,
        /// In words ("recoils 1.0\" to (12.0, 30.5)").
        detail: String,
    },
    /// A condition was added or removed.
    Condition {
        /// The model.
        model: ModelId,
        /// Which condition.
        condition: Condition,
        /// Added (true) or removed (false).
        added: bool,
    },
    /// A building lost Integrity.
    Damage {
        /// The building's name.
        building: String,
        /// Integrity lost.
        amount: i32,
        /// Its Integrity left.
        integrity: i32,
        /// It is Destroyed (Integrity 0).
        destroyed: bool,
    },
    /// A morale check (§3.6) and what it did.
    Morale {
        /// The model that tested.
        model: ModelId,
        /// Why it tested.
        trigger: MoraleTrigger,
        /// The faces rolled.
        dice: Vec<u8>,
        /// Modifiers to the check, with reasons and sources.
        modifiers: Vec<Modifier>,
        /// Dice that failed.
        failures: u8,
        /// What the check did.
        result: MoraleResult,
        /// In words.
        detail: String,
    },
    /// A fire token was placed on a building or removed from it.
    Fire {
        /// The building's name.
        building: String,
        /// Lit (true) or put out (false).
        lit: bool,
        /// The model that lit or put it out, if one did.
        by: Option<ModelId>,
        /// The script that lit or put out the fire, when one did (Wildfire, Smother).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Trap went off under a model (§6.5): the Trap's attack roll and its result, or, for a snare
    /// that Entangles without a roll (Grimm's Snare Master, SUPPLEMENT §11), no dice and `entangled`.
    Trap {
        /// The Trap token (removed as it goes off).
        token: super::piece::TokenId,
        /// The model that set it off.
        model: ModelId,
        /// The Trap's die (none for a snare that Entangles without a roll).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trap_die: Option<u8>,
        /// The model's die (none when there is no roll).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_die: Option<u8>,
        /// The Trap's die plus its Combat value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trap_total: Option<i32>,
        /// The model's die plus its Combat value and modifiers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        model_total: Option<i32>,
        /// What the Trap did to the model.
        result: CombatResult,
        /// The script that placed the Trap, when one did (Grimm's Snare Master: it Entangles).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Barricade lost Integrity, and was removed at 0.
    BarricadeDamage {
        /// The Barricade token.
        token: super::piece::TokenId,
        /// Integrity lost.
        amount: i32,
        /// Its Integrity left.
        integrity: i32,
        /// It is removed (Integrity 0).
        destroyed: bool,
        /// The script that did it, when one did (the Orc Demolisher's Breach).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A spell was cast with this Power (§3.7).
    Spell {
        /// The Spell-caster.
        caster: ModelId,
        /// The spell's name.
        spell: String,
        /// The Power it was cast at.
        power: u8,
        /// The model it was cast on, if any.
        target: Option<ModelId>,
        /// The spell script that decided the effect (`g:cast`); absent when the kernel was called directly.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A Summoning brought a model onto the table; it vanishes if its caster leaves (§3.7).
    Summoned {
        /// The model summoned.
        model: ModelId,
        /// The Spell-caster that holds it.
        caster: ModelId,
        /// The Summoning's name.
        spell: String,
    },
    /// A Wall spell raised a linear obstacle (a Barricade token held by its caster).
    WallRaised {
        /// The Barricade token it is.
        token: super::piece::TokenId,
        /// The Spell-caster holding it.
        caster: ModelId,
        /// The spell's name.
        spell: String,
        /// Its two ends.
        #[serde(default)]
        line: [Vec2; 2],
        /// Its Integrity.
        #[serde(default)]
        integrity: i32,
    },
    /// A Wall spell's barricade fell (§3.7): at the end of the wave, or with its caster.
    WallFallen {
        /// The Barricade token that went.
        token: super::piece::TokenId,
        /// Why, in words.
        reason: String,
    },
    /// A dispel (Break Enchantment) looked for an Enchantment on a model: what it removed, if anything.
    Dispel {
        /// The Spell-caster.
        caster: ModelId,
        /// The model it looked at.
        target: ModelId,
        /// The dispel's name.
        spell: String,
        /// The Enchantment removed, if one was.
        dispelled: Option<String>,
    },
    /// A Resisted spell: the target rolled one Quality die per Power; any failure lets it take hold.
    Resisted {
        /// The target that resisted.
        model: ModelId,
        /// Its Quality dice, one per Power.
        dice: Vec<u8>,
        /// A die failed: the spell takes hold.
        took_hold: bool,
    },
    /// A Spell-caster failed three dice and is out of power for the wave.
    OutOfPower {
        /// The Spell-caster.
        model: ModelId,
    },
    /// A shot made for no action: a Javelin thrown after moving closer to its target (§3.5).
    FreeThrow {
        /// The thrower.
        model: ModelId,
        /// The model it throws at (the `combat` event that follows is the shot).
        target: ModelId,
        /// The weapon thrown.
        weapon: String,
    },
    /// A Spell-caster declared spellcasting before its activation roll (§3.7).
    Declared {
        /// The Spell-caster.
        model: ModelId,
    },
    /// A Behaviour assigned `models` (a Group) an objective to hold (§6.3, Guardian): at deployment, or
    /// because the one it had (`lost`) was Destroyed or removed.
    Objective {
        /// The Group's models.
        models: Vec<ModelId>,
        /// What they hold now.
        objective: super::model::Objective,
        /// The objective it had before, when that one was Destroyed or removed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lost: Option<super::model::Objective>,
    },
    /// A Wound was healed or a condition cleared.
    Healed {
        /// The model.
        model: ModelId,
        /// What was healed or cleared, in words.
        what: String,
        /// The condition it cleared, when it cleared one (the model no longer has it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        condition: Option<Condition>,
    },
    /// A shooter's weapon broke on two natural 1s (§3.5).
    WeaponBroken {
        /// The shooter.
        model: ModelId,
    },
    /// A choice the rules leave to chance but that is not a die roll (e.g. the default wave builder picking
    /// among eligible profiles, SUPPLEMENT §10), drawn uniformly from the seeded stream. `options` are in a
    /// stable order; `picked` is the one drawn. A choice with one option is logged without drawing.
    Choice {
        /// What was chosen, in words.
        purpose: String,
        /// Everything it could have been, in a stable order.
        options: Vec<String>,
        /// The one drawn.
        picked: String,
    },
    /// The wave builder (core §5.2) made an Enemy Group: its number (creation order), Behaviour, profile
    /// per model, spawn edge (1 N, 2 E, 3 S, 4 W) and whether it may ignite buildings.
    GroupBuilt {
        /// The Group's number, from 1 in creation order.
        number: u32,
        /// Its Behaviour.
        behaviour: String,
        /// The profile of each of its models.
        models: Vec<String>,
        /// Its spawn edge: 1 N, 2 E, 3 S, 4 W.
        edge: u8,
        /// It may ignite buildings (core §5.2).
        igniters: bool,
    },
    /// The wave builder finished: Escalation, budget, Wave Points spent, Groups made, and any §5.2 limit the
    /// budget or the rosters made impossible to meet.
    WaveBuilt {
        /// The wave's Escalation ("I", "II" ...).
        escalation: String,
        /// Wave Points it could spend.
        budget: i64,
        /// Wave Points spent.
        spent: i64,
        /// Enemy Groups made.
        groups: u32,
        /// The §5.2 limits the budget or the rosters made impossible to meet, in words.
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
        /// The Groups' numbers.
        groups: Vec<u32>,
        /// Their spawn edges, in the same order (1 N, 2 E, 3 S, 4 W).
        edges: Vec<u8>,
        /// The ability that revealed them early, if one did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<String>,
    },
    /// A village building's ability was used (core §7.3): the building, the ability's Level and name,
    /// what it did in words, and the models it concerned.
    BuildingAbility {
        /// The building whose ability it is.
        building: String,
        /// The ability's Level.
        level: u8,
        /// The ability's name.
        ability: String,
        /// What it did, in words.
        detail: String,
        /// The models it concerned.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        models: Vec<ModelId>,
    },
    /// A choice a script made was refused by the rules; the game went on without it. `source` is the
    /// script, `choice` what it asked for, `reason` why it was refused.
    Refused {
        /// The script whose choice it was.
        source: String,
        /// What it asked for, in words.
        choice: String,
        /// Why the rules refused it.
        reason: String,
    },
    /// A hero or Village Defender was deployed at the start of a wave (core §5.3 step 2): moved from
    /// where it stood to `to`, within the deploy distance of the building `near`.
    Deployed {
        /// The model deployed.
        model: ModelId,
        /// Where it stood; null when it was not on the table (its `placed` event, just before, is at
        /// `to`).
        from: Option<Vec2>,
        /// Where it is deployed.
        to: Vec2,
        /// The building it is deployed near.
        near: String,
    },
    /// An Enemy Group was deployed (core §5.3 step 3) around `anchor`, wholly within the deploy distance
    /// of spawn edge `edge` (1 N, 2 E, 3 S, 4 W). `hero_clearance` is false when the Group could not be
    /// kept outside Short of every hero; `routes` is false when some model could not be placed where it
    /// has a route to the Town Hall (the log then says the table did not allow it).
    GroupDeployed {
        /// The Group's number.
        number: u32,
        /// Its spawn edge: 1 N, 2 E, 3 S, 4 W.
        edge: u8,
        /// The point it was deployed around.
        anchor: Vec2,
        /// Its models, each `placed` just before.
        models: Vec<ModelId>,
        /// Every model is outside Short of every hero.
        hero_clearance: bool,
        /// Every model has a route to the Town Hall.
        routes: bool,
    },
    /// An Opportunity token was placed at the end of a wave (core §7.1 step 5) on spawn edge `edge`
    /// (1 N, 2 E, 3 S, 4 W), face down unless Watchtower II revealed it. `far` is false when no open
    /// spot on that edge was at least the setup distance from the Town Hall ("if possible"); `token` is
    /// absent when the edge had no open ground at all.
    OpportunityPlaced {
        /// The token, if one was placed.
        token: Option<super::piece::TokenId>,
        /// The edge rolled: 1 N, 2 E, 3 S, 4 W.
        edge: u8,
        /// Where it lies, if it was placed.
        pos: Option<Vec2>,
        /// Face up (Watchtower II).
        revealed: bool,
        /// At least the setup distance from the Town Hall.
        far: bool,
    },
    /// One Council order (core §7.2–7.3): what was done (`upgrade`, `repair`, `barricade`, `trap`,
    /// `heal`, `herb`, `resurrect`), to which building or hero, where, the Supplies paid, the ability it
    /// used (`source`) and the result in words — or, when `refused` is set, why nothing happened.
    Council {
        /// The order: upgrade, repair, barricade, trap, heal, herb or resurrect.
        what: String,
        /// The building it concerned, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        building: Option<String>,
        /// The hero it concerned, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hero: Option<String>,
        /// Where it placed something: a Barricade's first end, a Trap, a resurrected hero.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pos: Option<Vec2>,
        /// The Barricade or Trap token placed, if one was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<super::piece::TokenId>,
        /// The ends of the Barricade placed, when one was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<[Vec2; 2]>,
        /// The Integrity of the Barricade placed, when one was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        integrity: Option<i32>,
        /// The trigger radius of the Trap placed (around `pos`), when one was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        radius: Option<f64>,
        /// Supplies paid.
        supplies: i32,
        /// The ability that allowed it ("Forge I Repairs"), "Council" for an order any Council may give, or the script that granted it.
        source: String,
        /// The result in words.
        detail: String,
        /// Why nothing happened, when the order was refused.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// A hero that Fled in an earlier wave rejoins the party at the start of this one (ruling: Fled is
    /// not Defeated), with the Wounds it had.
    Rejoined {
        /// Its id from now on (it is `placed` when it is deployed).
        model: ModelId,
        /// The hero's name.
        name: String,
    },
    /// A hero claimed an Opportunity token (core §6.1): the D6 `roll` read on rosters/opportunities.toml
    /// gave `result`, resolved `now` or at `wave_end` by the row's script `source`. The token is removed.
    Claimed {
        /// The hero who claimed it.
        hero: ModelId,
        /// The Opportunity token (removed).
        token: super::piece::TokenId,
        /// The D6 read on rosters/opportunities.toml.
        roll: u8,
        /// The row's name ("Supply Cache").
        result: String,
        /// `now` or `wave_end`.
        timing: String,
        /// The row's script.
        source: String,
    },
    /// A claimed result's wave-end part resolved at step 4 of the End Sequence (core §7.1); `hero` is
    /// absent when the claimer is no longer on the table.
    RewardResolved {
        /// The claimer, if still on the table.
        hero: Option<ModelId>,
        /// The row's name.
        result: String,
        /// The row's script.
        source: String,
    },
    /// The village gained Supplies: at the End Sequence for the wave (§7.1 step 3, `source` "wave
    /// end"), or because a script added them (an Opportunity's Supply Cache).
    SuppliesGained {
        /// Supplies gained.
        amount: i32,
        /// The village's Supplies now.
        supplies: i32,
        /// What gave them: "wave end: wave N", or the script.
        source: String,
    },
    /// A script gave the village Herb tokens (each heals 1 Wound in a Council Phase).
    HerbsGained {
        /// Herb tokens gained.
        amount: u32,
        /// Herb tokens the village holds now.
        herbs: u32,
        /// The script that gave them.
        source: String,
    },
    /// A script queued a Village Defender to join at the next wave start.
    DefenderJoining {
        /// The Village Defender's profile.
        profile: String,
        /// The script that queued it.
        source: String,
    },
    /// A script gave a model an item or boon.
    ItemGained {
        /// The model.
        model: ModelId,
        /// The item's name.
        item: String,
        /// The script that gave it.
        source: String,
    },
    /// A model used (and lost) an item.
    ItemUsed {
        /// The model.
        model: ModelId,
        /// The item's name.
        item: String,
        /// The item's script.
        source: String,
    },
    /// Some activation dice were rolled again at a script's word (Warcry, Hex): which (0-based, in the
    /// roll's order) and the new faces, which the `roll` event before it also shows.
    Rerolled {
        /// The model whose roll it was.
        model: ModelId,
        /// Which dice were rolled again (0-based).
        dice: Vec<usize>,
        /// Their new faces.
        faces: Vec<u8>,
        /// Why, in words.
        reason: String,
        /// The script that asked for it.
        source: String,
    },
    /// A script granted a modifier for a while (Hold the Line).
    EffectGranted {
        /// The models whose rolls it modifies.
        models: Vec<ModelId>,
        /// Only against these opponents (empty: against anyone).
        against: Vec<ModelId>,
        /// Added to their totals.
        value: i32,
        /// Why, in words.
        reason: String,
        /// The script that granted it.
        source: String,
    },
    /// A script's action (an `actions` entry: Field Repairs, Smother, Fire Breath) ran or progressed.
    Ability {
        /// The model acting.
        model: ModelId,
        /// The action's name.
        name: String,
        /// Its script.
        source: String,
        /// A Task's progress, when it is one.
        done: Option<u8>,
        /// Actions the Task takes in all, when it is one.
        needed: Option<u8>,
        /// The action's effect ran (a Task's when it completed).
        ran: bool,
    },
    /// A track came into play on its starting space (a variant in force names it; `rosters/tracks.toml`).
    TrackSet {
        /// The track's name (`threat`).
        track: String,
        /// The marker's starting space.
        value: i32,
        /// The lowest space.
        min: i32,
        /// The highest space.
        max: i32,
        /// The space where the game is lost when the marker reaches it, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        loses_at: Option<i32>,
    },
    /// A script moved a track's marker (`ctx:advance_track`), stopping at the track's bounds.
    TrackMoved {
        /// The track's name.
        track: String,
        /// The space it stood on.
        from: i32,
        /// The space it stands on now.
        to: i32,
        /// The spaces asked for (down when negative).
        by: i32,
        /// Why, in the script's words.
        reason: String,
        /// The script that moved it.
        source: String,
    },
    /// A scenario's battle was set up (scenario files): its round limit, deployment zones and
    /// objectives, as the pictures draw them.
    BattleSet {
        /// The scenario's name.
        scenario: String,
        /// The round limit, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        round_limit: Option<u32>,
        /// Each deployment zone.
        zones: Vec<BattleZoneFacts>,
        /// Each objective: (name, point, outline when an area, reach, VP).
        objectives: Vec<BattleObjectiveFacts>,
        /// The round each Group arriving after the first round arrives at the start of, in Group
        /// order (a battle's wave goes on with no enemy on the table while one is to come).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        arriving: Vec<u32>,
    },
    /// A side scored Victory Points: for an objective it holds, or a victory script's award.
    VpScored {
        /// The side that scored.
        side: super::Side,
        /// The points scored.
        points: u32,
        /// The side's Victory Points now.
        total: u32,
        /// Why, in words.
        reason: String,
        /// The scenario or script that awarded them.
        source: String,
    },
    /// An objective changed hands: `holder` has a model on it and the other side none (null: nobody
    /// holds it).
    ObjectiveHeld {
        /// The objective's name.
        objective: String,
        /// The side that holds it now, if any.
        holder: Option<super::Side>,
    },
    /// The game ended at a scenario's conclusion or its victory script's verdict.
    Concluded {
        /// "win", "loss" or "draw".
        result: String,
        /// The cause the game records ("round_limit", "model_removed", ...).
        cause: String,
        /// Why, in words.
        reason: String,
    },
    /// A building regained Integrity outside the Council Phase (Field Repairs).
    Repaired {
        /// The building's name.
        building: String,
        /// Integrity regained.
        amount: i32,
        /// Its Integrity now.
        integrity: i32,
        /// The script that repaired it.
        source: String,
    },
    /// A model used a permission its scripts grant to bend a rule (Called Shot shooting past a closer
    /// target).
    RuleBent {
        /// The model.
        model: ModelId,
        /// The rule bent, in words.
        rule: String,
        /// What it did, in words.
        detail: String,
        /// The script granting the permission.
        source: String,
    },
    /// A limited use was spent (`game:`, `wave:` or `council:` key of `Game::spent`).
    Spent {
        /// The use's key ("game:Resurrection").
        key: String,
        /// The script or ability that spent it.
        source: String,
    },
    /// An Ambush (an Opportunity script) deployed enemies near `token` as a new Enemy Group `number`
    /// joining the wave; `wanted` is how many it asked for (fewer fit when the table is crowded).
    Ambush {
        /// The Opportunity token it came from.
        token: super::piece::TokenId,
        /// The new Group's number.
        number: u32,
        /// The models deployed, each `placed` just before.
        models: Vec<ModelId>,
        /// How many the script asked for.
        wanted: u32,
        /// The Opportunity's script.
        source: String,
    },
    /// Dice were rolled. `purpose` names the rule ("activation", "melee", "morale", ...); `forced` marks
    /// faces taken from the forced queue.
    Roll {
        /// The rule it is for ("activation", "melee", "morale" ...).
        purpose: String,
        /// The model rolling, if one is.
        model: Option<ModelId>,
        /// The faces.
        dice: Vec<u8>,
        /// For each die, whether its face came from the forced queue (a test or a scenario) rather than the stream.
        forced: Vec<bool>,
    },
}

/// What kind of movement a `moved` event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// A move action (§3.3): one straight segment, up to the model's band.
    #[default]
    Move,
    /// The one-base-width step any model may take for an action (§3.3).
    Step,
    /// Compelled movement toward the nearest table edge after a failed morale check (§3.6).
    FallBack,
    /// A Recoil: one base width directly away from the attacker (§3.4).
    Recoil,
    /// Any other displacement a rule or script makes.
    Push,
}

/// Why a movement ended where it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MoveStop {
    /// It got where it aimed (a route's corner, its destination).
    #[default]
    Reached,
    /// It used its whole reach.
    Reach,
    /// Contact with an Active enemy (§3.3): the two are Engaged.
    Contact,
    /// A base it may not pass through or end on.
    Base,
    /// A building.
    Building,
    /// Impassable terrain.
    Terrain,
    /// The table edge.
    Edge,
    /// A Trap went off and ended it.
    Trap,
    /// Compelled movement whose route is blocked: it went as far as it could.
    Blocked,
}

/// The side a `placed` event read from a log written before it named one is taken to be on.
fn heroes_side() -> Side {
    Side::Heroes
}

/// A terrain piece as the `setup` event shows it: its kind and its shape, an `area` (a convex
/// polygon, counter-clockwise) for wood, hill, rocks, pond and field, a `line` for a wall or a hedge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TerrainPiece {
    /// wood, hill, rocks, pond, field (areas) or wall, hedge (lines).
    pub kind: TerrainKind,
    /// An area piece's corners, counter-clockwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Vec<Vec2>>,
    /// A linear piece's two ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<[Vec2; 2]>,
}

/// A deployment zone as the `battle_set` event shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattleZoneFacts {
    /// Its name.
    pub name: String,
    /// The side that deploys in it.
    pub side: super::Side,
    /// Its corners, counter-clockwise.
    pub area: Vec<Vec2>,
}

/// An objective as the `battle_set` event shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BattleObjectiveFacts {
    /// Its name.
    pub name: String,
    /// Its point (an area's centre).
    pub at: Vec2,
    /// An area's corners, counter-clockwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Vec<Vec2>>,
    /// How near a base must be to hold the point, in inches.
    pub reach: f64,
    /// Its Victory Points.
    pub vp: u32,
    /// Scored at the end of every round it is held.
    pub each_round: bool,
}

/// A village building as the `setup` event shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BuildingFacts {
    /// Its roster name ("Town Hall").
    pub name: String,
    /// The south-west corner of its rectangle.
    pub min: Vec2,
    /// The north-east corner.
    pub max: Vec2,
    /// Its Integrity now.
    pub integrity: i32,
    /// Its starting Integrity, which repairs never exceed.
    pub max_integrity: i32,
    /// Its Level, 1 to 3.
    pub level: u8,
    /// The Town Hall: its loss ends the game.
    pub town_hall: bool,
    /// An economic building (the Raider's target).
    pub economic: bool,
}

/// A token as the log shows it: its id, where it lies, and its kind and shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TokenFacts {
    /// The token's id for the whole game.
    pub token: TokenId,
    /// Where it lies: an Opportunity's or a Trap's centre, a Barricade's middle.
    pub pos: Vec2,
    /// What it is, with its shape.
    #[serde(flatten)]
    pub shape: TokenShape,
    /// The script that placed it, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A token's kind and shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TokenShape {
    /// An Opportunity token (core §6.1), face down unless revealed.
    Opportunity {
        /// Face up (Watchtower II).
        revealed: bool,
    },
    /// A Barricade (§6.5) or a Wall spell's obstacle: a linear obstacle with Integrity and Structure.
    Barricade {
        /// Its two ends.
        line: [Vec2; 2],
        /// Its Integrity.
        integrity: i32,
        /// Its Structure.
        structure: i32,
        /// The caster holding it, for a Wall spell.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        caster: Option<ModelId>,
        /// Flying models cross it without losing a band.
        flying_ignores: bool,
    },
    /// A Trap (§6.5): the first enemy entering `radius` around it sets it off.
    Trap {
        /// The trigger radius in inches, around `pos`.
        radius: f64,
        /// The Combat value of its attack.
        combat: i32,
        /// It Entangles instead of attacking (a trapper's snare).
        entangle: bool,
    },
}

impl TokenFacts {
    /// A token of the table as the log shows it.
    pub fn of(t: &Token) -> Self {
        let shape = match &t.kind {
            TokenKind::Opportunity { revealed } => TokenShape::Opportunity {
                revealed: *revealed,
            },
            TokenKind::Barricade {
                segment,
                integrity,
                structure,
                caster,
                flying_ignores,
            } => TokenShape::Barricade {
                line: [segment.a, segment.b],
                integrity: *integrity,
                structure: *structure,
                caster: *caster,
                flying_ignores: *flying_ignores,
            },
            TokenKind::Trap {
                combat,
                radius,
                entangle,
            } => TokenShape::Trap {
                radius: *radius,
                combat: *combat,
                entangle: *entangle,
            },
        };
        TokenFacts {
            token: t.id,
            pos: t.pos,
            shape,
            source: t.source.clone(),
        }
    }
}

impl TerrainPiece {
    /// A terrain piece of the table as the log shows it.
    pub fn of(kind: TerrainKind, shape: &TerrainShape) -> Self {
        let (area, line) = match shape {
            TerrainShape::Area(poly) => (Some(poly.pts.clone()), None),
            TerrainShape::Line(seg) => (None, Some([seg.a, seg.b])),
        };
        TerrainPiece { kind, area, line }
    }
}

impl BuildingFacts {
    /// A building as the log shows it.
    pub fn of(b: &Building) -> Self {
        BuildingFacts {
            name: b.name.clone(),
            min: b.rect.min,
            max: b.rect.max,
            integrity: b.integrity,
            max_integrity: b.max_integrity,
            level: b.level,
            town_hall: b.town_hall,
            economic: b.economic,
        }
    }
}

impl EventKind {
    /// The `setup` event of a game on `table` with these buildings, tokens and Supplies.
    pub fn setup(table: &Table, buildings: &[Building], tokens: &[Token], supplies: i32) -> Self {
        EventKind::Setup {
            width: table.width,
            height: table.height,
            terrain: table
                .terrain
                .iter()
                .map(|t| TerrainPiece::of(t.kind, &t.shape))
                .collect(),
            buildings: buildings.iter().map(BuildingFacts::of).collect(),
            tokens: tokens.iter().map(TokenFacts::of).collect(),
            supplies,
        }
    }
}
