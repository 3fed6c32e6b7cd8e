//! The kernel's named hook points, as a plain Rust trait the script host implements.
//!
//! The kernel asks; scripts answer with values (modifiers) that the kernel validates and applies. A
//! hook never receives `&mut Game`: scripts decide, Rust executes (DESIGN.md invariant 1).

use super::error::HookError;
use crate::geometry::check::{distance as check_distance, point_on, InputError};
use crate::roster::{Measure, Opportunity};
use crate::state::{CombatResult, Condition, Game, Item, ModelId, MoraleTrigger, TokenId};
pub use crate::state::{Modifier, Role, RollInfo, RollKind, Target};
use serde::{Deserialize, Serialize};

/// How a model moves, as its traits say (Flying, Forester, Mounted's Free Disengage...).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct MoveTraits {
    /// Flies over terrain: no band loss for difficult terrain or obstacles, impassable terrain and
    /// Barricades do not stop it.
    pub flying: bool,
    /// Terrain kinds that are not difficult for it ("wood" for a Forester).
    pub ignore_terrain: Vec<String>,
    /// Enemies it may leave without a Free Hack.
    pub free_disengage: Vec<ModelId>,
    /// Its movement band when not Medium (Long Move, Short Move).
    pub band: Option<crate::roster::Measure>,
    /// It may make only one move action per activation (Slow).
    pub one_move: bool,
    /// Where each property came from, for the log.
    pub sources: Vec<String>,
}

/// What the winner's scripts say about how its win is read (Lethal, Savage, Cleric).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct WinRules {
    /// The win defeats on any loss: the reason and its source.
    pub lethal: Option<(String, String)>,
    /// A lower multiplier for a Gruesome Kill (Savage: 2 in melee), and its source.
    pub gruesome_multiplier: Option<(i32, String)>,
}

/// A won roll, as the winner's and the loser's scripts see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WinInfo {
    pub kind: RollKind,
    pub winner: ModelId,
    pub loser: ModelId,
    pub winner_die: u8,
    pub winner_total: i32,
    pub loser_total: i32,
    /// The result read from the table (for `win_rules`, before the winner's rules apply).
    pub result: CombatResult,
    /// Whether the winner was the attacker.
    pub attacker_won: bool,
}

/// A change a script makes to the game, validated and applied by the kernel after the hook returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum Intent {
    /// Worsen a model's Quality (Poison).
    WorsenQuality {
        model: ModelId,
        amount: u8,
        reason: String,
        source: String,
    },
    /// Give a model a condition, optionally held by another model (Entangle).
    AddCondition {
        model: ModelId,
        condition: Condition,
        held_by: Option<ModelId>,
        source: String,
    },
    /// Move a track's marker by `by` spaces, within its bounds (`ctx:advance_track`: the threat track).
    AdvanceTrack {
        track: String,
        by: i32,
        reason: String,
        source: String,
    },
    /// A side scores Victory Points (`ctx:award_vp`: a scenario's victory script).
    AwardVp {
        side: crate::state::Side,
        points: u32,
        reason: String,
        source: String,
    },
    /// Make a model test morale.
    Morale {
        model: ModelId,
        trigger: MoraleTrigger,
        source: String,
    },
    /// Spend a limited use (`game:`, `wave:`, `council:` key; Sister Ilse's once-per-game Sanctuary).
    Spend { key: String, source: String },
    /// Grant a modifier for a while (Captain Maren's Hold the Line).
    Grant(crate::state::Effect),
    /// Restore Integrity to a building, up to its maximum (Bram's Field Repairs).
    Repair {
        building: String,
        amount: i32,
        source: String,
    },
    /// Remove the fire token from a building (Hedda's Smother).
    Extinguish { building: String, source: String },
    /// Place a fire token on an intact building (the Fire Entity's Wildfire).
    Ignite { building: String, source: String },
    /// Remove a Barricade (the Orc Demolisher's Breach).
    RemoveBarricade { token: TokenId, source: String },
    /// `attacker` attacks `target` at Combat `combat` as a ranged attack does (the target's roll only
    /// defends; no weapon, sight or closest-target check): the Young Dragon's Fire Breath. Only in a
    /// scripted action's `run`.
    Attack {
        attacker: ModelId,
        target: ModelId,
        combat: i32,
        reason: String,
        source: String,
    },
    /// A model of `profile` joins `summoner`'s side and Group at a free spot within `within` inches of
    /// it (the Lich's Raise Dead); it vanishes if the summoner is Defeated. Only in a scripted action's
    /// `run`.
    Summon {
        summoner: ModelId,
        profile: String,
        within: f64,
        source: String,
    },
}

/// An order's cost as a script changed it (Tobin's Called Shot: one Aimed Shot per wave costs 1
/// action), with the limited use spent when the order is carried out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostChange {
    pub cost: u8,
    pub spend: Option<String>,
    pub reason: String,
    pub source: String,
}

/// Which activation dice a script has rerolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RerollDice {
    /// Every die (the Orc Warlord's Warcry).
    All,
    /// The best die (the Goblin Shaman's Hex on a hero's roll).
    Best,
}

/// A reroll of an activation roll a script asked for, with the limited use it spends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reroll {
    pub dice: RerollDice,
    pub spend: Option<String>,
    pub reason: String,
    pub source: String,
}

/// What a model's scripted action (an `actions` entry of its trait, signature or Alpha Rule) aims at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityTarget {
    Model(ModelId),
    Building(String),
    Point(crate::geometry::Vec2),
    Token(TokenId),
}

/// What the kernel learns before running a scripted action: the script that defines it, the actions
/// its Task needs (when it is one), and why its `can` refused it, if it did.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AbilityCheck {
    pub source: String,
    pub task: Option<u8>,
    /// The action is its model's one melee or ranged attack of the turn (core §3.2: Fire Breath).
    pub attack: bool,
    pub refused: Option<String>,
}

/// What scripts did about a result: perhaps a different result, and changes to apply.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResultChange {
    /// The result to apply instead, why, and the script that said so.
    pub replace: Option<(CombatResult, String, String)>,
    /// How far a Recoil moves the loser instead of one base width (the Ogre Brute's Hurl: a full
    /// Medium), why, and the script that said so.
    pub recoil: Option<(f64, String, String)>,
    pub intents: Vec<Intent>,
}

/// What a Behaviour aims its model at (§6.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aim {
    Model(ModelId),
    Building(String),
    /// The nearest table edge (a Raider leaving).
    Edge,
    Point(crate::geometry::Vec2),
}

/// How a model is nominated (§3.1, §3.7): the activation dice chosen, whether it declares spellcasting
/// before rolling, and the friends a Leader activates with it as a group (empty: alone).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ActivationAsk {
    pub dice: u8,
    /// Declare spellcasting (§3.7): every Spell-caster of the activation may then spend its successes
    /// as spell Power; three failed dice leave it out of power for the wave.
    pub cast: bool,
    /// A Leader's group (§3.1): the other models that activate on its roll.
    pub group: Vec<ModelId>,
}

impl ActivationAsk {
    /// A plain activation of `dice` dice.
    pub fn dice(dice: u8) -> Self {
        ActivationAsk {
            dice,
            ..ActivationAsk::default()
        }
    }
}

/// One action a Behaviour orders for its model (core §6.2); the kernel validates and executes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Melee(ModelId),
    /// A melee attack as a two-action Power Blow (SUPPLEMENT §3: the opponent takes −1).
    PowerBlow(ModelId),
    Shoot(ModelId),
    /// A ranged attack as a two-action Aimed Shot (SUPPLEMENT §3: the target takes −1).
    AimedShot(ModelId),
    Structural(String),
    Ignite(String),
    /// Move along the shortest legal route toward what it aims at (one straight leg, up to its band).
    Move(Aim),
    /// A one-base-width step straight toward what it aims at (§3.3: "a model may always spend one
    /// action to take a one-base-width step"); not a move action (Slow).
    Step(Aim),
    /// Move as `Move` does, but stop where the route has `within` inches left to reach its aim (a
    /// Shooter closing in to Short of its target without reaching contact).
    Approach {
        aim: Aim,
        within: f64,
    },
    /// Leave the table by the nearest edge (a Raider done looting).
    Leave,
    /// Claim the Opportunity token in base contact (core §6.1; a hero only).
    Claim(TokenId),
    /// Use the item the model carries by this name (a Potion of Healing); the item is then gone.
    Use(String),
    /// A Healer heals an adjacent friend (SUPPLEMENT §9): one Wound, or one condition (`None`: a Wound
    /// if it has one, else its first condition); a Wound takes `rules.actions.heal_wound` actions, worked
    /// as a Task when that is more than one.
    Heal {
        target: ModelId,
        what: Option<crate::rules::magic::Heal>,
    },
    /// A scripted action of the model (an `actions` entry of a trait, signature or Alpha Rule: Field
    /// Repairs, Smother, Fire Breath), at an optional target.
    Ability {
        name: String,
        target: Option<AbilityTarget>,
    },
    /// Cast a spell (§3.7), spending its Power in actions: only after declaring spellcasting before the
    /// activation roll.
    Cast(CastOrder),
    /// Break free of a Transfix or an Entangle (§3.7, SUPPLEMENT §3: two actions).
    BreakFree,
    /// Concentrated Shooting (§3.5): the model shoots `target` together with `with`, other Active
    /// shooters that have not yet attacked this turn; one roll with the best shooter's Combat, the target
    /// at −1 per shooter after the first.
    Concentrated {
        target: ModelId,
        with: Vec<ModelId>,
    },
}

impl Order {
    /// Refuse an order whose points are not finite or lie off `table`, or whose distance is not a
    /// finite number of inches (0 or more), before anything is spent: what a script, the REPL or a
    /// scenario typed reaches geometry only once it is a point on the table.
    pub fn check_input(&self, table: &crate::geometry::Table) -> Result<(), InputError> {
        let aim = |what: &str, a: &Aim| match a {
            Aim::Point(p) => point_on(table, what, *p).map(|_| ()),
            _ => Ok(()),
        };
        match self {
            Order::Move(a) => aim("move", a),
            Order::Step(a) => aim("step", a),
            Order::Approach { aim: a, within } => {
                aim("move", a)?;
                check_distance("within", *within).map(|_| ())
            }
            Order::Ability {
                target: Some(AbilityTarget::Point(p)),
                ..
            } => point_on(table, "target", *p).map(|_| ()),
            Order::Cast(c) => {
                for (what, p) in [("from", c.from), ("to", c.to), ("at", c.at)] {
                    if let Some(p) = p {
                        point_on(table, what, p)?;
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

impl CouncilOrder {
    /// Refuse a Council order whose points are not finite or lie off `table` (see [`Order::check_input`]).
    pub fn check_input(&self, table: &crate::geometry::Table) -> Result<(), InputError> {
        match self {
            CouncilOrder::Barricade { from, toward, .. } => {
                point_on(table, "barricade from", *from)?;
                point_on(table, "barricade toward", *toward).map(|_| ())
            }
            CouncilOrder::Trap { at } | CouncilOrder::FreeTrap { at } => {
                point_on(table, "trap at", *at).map(|_| ())
            }
            CouncilOrder::Resurrect { at: Some(at), .. } => {
                point_on(table, "resurrect at", *at).map(|_| ())
            }
            _ => Ok(()),
        }
    }
}

/// A spell cast in the turn engine (§3.7): the spell, its Power (1–3, the actions it costs) and what its
/// script needs — a target model, a Wall's two endpoints, a Summoning's spot, what a Heal heals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CastOrder {
    pub spell: String,
    pub power: u8,
    pub target: Option<ModelId>,
    /// Where a Wall starts, and the point it runs toward.
    pub from: Option<crate::geometry::Vec2>,
    pub to: Option<crate::geometry::Vec2>,
    /// Where a Summoning stands.
    pub at: Option<crate::geometry::Vec2>,
    /// What a healing spell heals ("wound" or a condition); the script's own choice when absent.
    pub what: Option<String>,
}

/// A spell the turn engine cast: its script, and for a Ritual its Task's progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CastReport {
    pub spell: String,
    pub power: u8,
    pub source: String,
    /// A Ritual's Task (done, needed); the spell's effect happened only once it is complete.
    pub task: Option<(u8, u8)>,
    pub complete: bool,
}

impl Reward {
    /// The script that asked for it, as the log names it.
    pub fn source(&self) -> &str {
        match self {
            Reward::Supplies { source, .. }
            | Reward::Herbs { source, .. }
            | Reward::Join { source, .. }
            | Reward::Ambush { source, .. }
            | Reward::Give { source, .. }
            | Reward::Spend { source, .. }
            | Reward::Heal { source, .. } => source,
        }
    }
}

/// Which entry point of an Opportunity result's script runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpportunityEntry {
    /// `claim(ctx, hero, params, opportunity)`: when the hero claims the token.
    Claim,
    /// `wave_end(ctx, hero, params, opportunity)`: at step 4 of the End Sequence (core §7.1).
    WaveEnd,
}

impl OpportunityEntry {
    /// The entry point's name in the script.
    pub fn as_str(self) -> &'static str {
        match self {
            OpportunityEntry::Claim => "claim",
            OpportunityEntry::WaveEnd => "wave_end",
        }
    }
}

/// One call of an Opportunity result's script.
#[derive(Debug, Clone, Copy)]
pub struct OpportunityCall<'a> {
    /// The row of rosters/opportunities.toml the die gave.
    pub row: &'a Opportunity,
    pub entry: OpportunityEntry,
    /// The claiming hero, if it is still on the table.
    pub hero: Option<ModelId>,
    /// The claimed token and where it lay (on claiming; gone by the wave's end).
    pub token: Option<(TokenId, crate::geometry::Vec2)>,
}

/// A reward a script asks for (an Opportunity's `claim`/`wave_end`, an item's `use`), validated and
/// applied by the kernel after the script returns, each logged with the script as its source.
#[derive(Debug, Clone, PartialEq)]
pub enum Reward {
    /// Add Supplies to the village.
    Supplies { amount: i32, source: String },
    /// Give the village Herb tokens.
    Herbs { amount: u32, source: String },
    /// A Village Defender of this profile joins at the next wave start.
    Join { profile: String, source: String },
    /// Enemies of `profile` with `behaviour` deploy within `within` of the claimed token, outside
    /// contact, as a new Enemy Group joining the wave.
    Ambush {
        profile: String,
        count: u32,
        behaviour: String,
        within: Measure,
        source: String,
    },
    /// Give a model an item or boon.
    Give {
        model: ModelId,
        item: Item,
        source: String,
    },
    /// Spend a limited use (`game:...`, `wave:...`, `council:...`).
    Spend { key: String, source: String },
    /// Heal a model (a Potion): one Wound or one condition.
    Heal {
        model: ModelId,
        what: super::magic::Heal,
        source: String,
    },
}

/// One order of the hero policy's Council Phase (core §7.2–7.3); the kernel validates it against the
/// rules and the buildings' Levels, applies it and logs a `council` event, or logs why it was refused.
/// Heroes are named (a Defeated hero has no model on the table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "order", rename_all = "snake_case")]
pub enum CouncilOrder {
    /// Raise a building one Level (I → II → III), paying its roster cost. `level`, when given, must be
    /// the next Level (a check against skipping one).
    Upgrade { building: String, level: Option<u8> },
    /// Restore Integrity: with the Forge's Repairs for `supplies` Supplies (Master Craftsmen doubles
    /// what each restores), or, when `free`, with the Town Hall's Engineering Corps at no cost.
    Repair {
        building: String,
        supplies: Option<u32>,
        free: bool,
    },
    /// A Barricade from `from`, `length` long (rosters), toward `toward`. `free`: the Engineering
    /// Corps pays; `reinforce`: Reinforced Defenses (Forge III) adds its Integrity.
    Barricade {
        from: crate::geometry::Vec2,
        toward: crate::geometry::Vec2,
        free: bool,
        reinforce: bool,
    },
    /// A Trap at a point.
    Trap { at: crate::geometry::Vec2 },
    /// A Trap at a point that costs no Supply: one of the free Traps a model's `on_council` granted
    /// this Council (Grimm's Snare Master), placed as the grant says (Entangling). Lua:
    /// `{ trap = at, free = true }`.
    FreeTrap { at: crate::geometry::Vec2 },
    /// The Temple's Healing on a hero on the table.
    Heal { hero: String },
    /// Spend a Herb token on a hero on the table.
    Herb { hero: String },
    /// The Temple's Resurrection of a Defeated hero of the party, at `at` or (when absent) the nearest
    /// legal spot to the Temple.
    Resurrect {
        hero: String,
        at: Option<crate::geometry::Vec2>,
    },
}

/// A Council ability a building grants now (its Level reached, the building intact), as the policy sees
/// it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CouncilAbility {
    pub building: String,
    pub level: u8,
    pub name: String,
    pub params: crate::roster::Params,
    /// A limited use already spent (this Council, or this game for a once-per-game ability).
    pub used: bool,
}

/// A building as the Council sees it: what an upgrade costs now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CouncilBuilding {
    pub name: String,
    pub level: u8,
    pub integrity: i32,
    pub max_integrity: i32,
    pub destroyed: bool,
    /// Supplies to reach the next Level; absent at the top Level or when Destroyed.
    pub upgrade_cost: Option<u32>,
}

/// What the hero policy's `council(ctx, info)` is told (core §7.2): Supplies, Herb tokens, the
/// buildings with their upgrade costs, the Council abilities in force, the Defeated heroes, and the
/// Barricade and Trap costs and distances.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CouncilInfo {
    pub wave: u32,
    pub supplies: i32,
    pub herbs: u32,
    pub buildings: Vec<CouncilBuilding>,
    pub abilities: Vec<CouncilAbility>,
    /// Heroes of the party that were Defeated (not Fled): Resurrection's candidates.
    pub defeated: Vec<String>,
    /// The spawn edges of the wave just ended (1 N, 2 E, 3 S, 4 W), in increasing order.
    pub edges: Vec<u8>,
    pub barricade_cost: u32,
    pub barricade_length: f64,
    pub barricade_within: f64,
    pub trap_cost: u32,
    pub trap_within: f64,
    /// Free Council orders the models' `on_council` granted for this Council (Grimm's free Trap).
    #[serde(default)]
    pub grants: Vec<crate::state::CouncilGrant>,
}

/// A step of the start-of-wave sequence (core §5.3) at which the hero policy chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WaveStartStep {
    /// Step 1, before anyone deploys: wave-start abilities that choose models (Stable II Warhorse).
    Abilities,
    /// Step 4, after both sides deployed: Stable I Ready Mounts.
    ReadyMounts,
}

impl WaveStartStep {
    /// The name scripts see.
    pub fn as_str(self) -> &'static str {
        match self {
            WaveStartStep::Abilities => "abilities",
            WaveStartStep::ReadyMounts => "ready_mounts",
        }
    }
}

/// What the kernel asks the hero policy's `deploy(ctx, step)` at one step of the start of a wave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeployStep {
    pub step: WaveStartStep,
    /// The choices it will read at this step: "warhorse", "ready_mounts".
    pub asks: Vec<String>,
    /// The spawn edges of the wave's Groups (1 N, 2 E, 3 S, 4 W, Group order), once revealed.
    pub edges: Option<Vec<u8>>,
}

/// What the hero policy chose at one step of the start of a wave. The kernel validates each choice and
/// refuses a bad one with a reason (a `refused` event); the wave goes on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DeployChoices {
    /// The script that chose (for the log).
    pub source: String,
    /// Stable II: the hero that has Long Move for this wave.
    pub warhorse: Option<ModelId>,
    /// Stable I: the hero to move up to Short, and where to.
    pub ready_mounts: Option<(ModelId, crate::geometry::Vec2)>,
}

/// What a Lua wave builder is asked to build (SUPPLEMENT §10).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WaveAsk {
    /// Wave number, from 1.
    pub wave: u32,
    /// The Escalation row of the wave (its name, budget percentage and limits).
    pub escalation: crate::roster::Escalation,
    /// Wave Points to spend (core §5.1).
    pub budget: i64,
    /// The party's size.
    pub heroes: u32,
}

/// One Enemy Group a Lua wave builder returned, not yet validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedGroup {
    /// Profile name of each model, leader first.
    pub models: Vec<String>,
    pub behaviour: String,
    /// Spawn edge as the script gave it (the kernel checks it is 1 to 4).
    pub edge: i64,
}

/// What a victory script's `on_victory_check(ctx, check)` hears: whose turn just ended, and whether
/// it was the last round of the round limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryAsk {
    /// "heroes" or "enemies".
    pub turn: String,
    /// The round limit's last round has just ended.
    pub limit: bool,
}

/// The Groups a Lua wave builder returned, and the script that built them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedWave {
    pub source: String,
    pub groups: Vec<ScriptedGroup>,
}

/// The hook points the kernel calls. Every method has a default that does nothing, so a kernel without
/// scripts (unit tests, `village odds`) plays the plain rulebook.
pub trait Hooks {
    /// Extra modifiers for a melee, ranged or structural roll.
    fn roll_modifiers(&self, _game: &Game, _roll: &RollInfo) -> Result<Vec<Modifier>, HookError> {
        Ok(Vec::new())
    }

    /// How the winner's scripts read its win: Lethal, a lower Gruesome multiplier.
    fn win_rules(&self, _game: &Game, _win: &WinInfo) -> Result<WinRules, HookError> {
        Ok(WinRules::default())
    }

    /// After a result is read, before it is applied: the winner's then the loser's scripts may replace
    /// it (Entangle, Heavy Armor) and ask for changes (Poison). May roll dice (logged).
    fn on_result(&self, _game: &mut Game, _win: &WinInfo) -> Result<ResultChange, HookError> {
        Ok(ResultChange::default())
    }

    /// After a move ended in contact with enemies (a charge): changes the mover's scripts ask for
    /// (Terror makes the charged model test morale).
    fn on_charge(
        &self,
        _game: &mut Game,
        _mover: ModelId,
        _charged: &[ModelId],
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// The target an enemy's Behaviour picks for it (§6.3), from the Behaviour's script; `None` when
    /// it has none (no script, or nothing left to aim at). May roll a D6 for the last tie-breaker.
    fn behaviour_target(
        &self,
        _game: &mut Game,
        _model: ModelId,
    ) -> Result<Option<Aim>, HookError> {
        Ok(None)
    }

    /// The action an enemy's Behaviour orders for it, given what it aims at (§6.2 universal priority).
    fn behaviour_act(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _aim: &Aim,
    ) -> Result<Option<Order>, HookError> {
        Ok(None)
    }

    /// The objective an enemy's Behaviour assigns its Group (§6.3: a Guardian's nearest building or
    /// Opportunity; the Behaviour's `objective`), asked at deployment and again when the one it had
    /// (`lost`) is Destroyed or removed. `None`: the Behaviour keeps no objective (or none is left).
    fn behaviour_objective(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _lost: Option<&crate::state::Objective>,
    ) -> Result<Option<crate::state::Objective>, HookError> {
        Ok(None)
    }

    /// Whether an enemy Spell-caster's Behaviour declares spellcasting before its Group rolls (§3.7;
    /// the Behaviour's `declare`). Without it, no.
    fn behaviour_declare(&self, _game: &mut Game, _model: ModelId) -> Result<bool, HookError> {
        Ok(false)
    }

    /// A model's activation was rolled (its scripts' `on_activation`, for every model of the
    /// activation, before its actions): the changes they ask for.
    fn on_activation(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _roll: &crate::dice::ActivationRoll,
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// An enemy turn has ended (the `on_enemy_turn_end` of each variant in force, in order): the changes
    /// they ask for. `destroyed`: the buildings Destroyed during the turn, in village order.
    fn on_enemy_turn_end(
        &self,
        _game: &mut Game,
        _destroyed: &[String],
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// Where the game can end (a side's turn over, the round limit reached): the scenario's victory
    /// script's `on_victory_check`, its verdict (win, loss or draw, with its reason) and the changes it
    /// asks for (Victory Points it awards).
    fn victory_check(
        &self,
        _game: &mut Game,
        _ask: &VictoryAsk,
    ) -> Result<(Option<crate::state::battle::Verdict>, Vec<Intent>), HookError> {
        Ok((None, Vec::new()))
    }

    /// A wave has begun, both sides deployed (its scripts' `on_wave_start`, for every model on the table
    /// before the first round): the changes they ask for.
    fn on_wave_start(&self, _game: &mut Game, _model: ModelId) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// Whether the hero policy nominates a model of the heroes' side now, and how (§3.1, §3.7): its dice,
    /// a declaration of spellcasting, a Leader's group. `None`: not now (it stays Active).
    fn policy_activation(
        &self,
        _game: &mut Game,
        _model: ModelId,
    ) -> Result<Option<ActivationAsk>, HookError> {
        Ok(Some(ActivationAsk::dice(2)))
    }

    /// The action the hero policy orders for a model of the heroes' side; `None` to lose it.
    fn policy_order(&self, _game: &mut Game, _model: ModelId) -> Result<Option<Order>, HookError> {
        Ok(None)
    }

    /// The hero policy's plan for the rest of an activation of a model of the heroes' side: its orders,
    /// in order (empty: nothing more this activation). `None` when the policy makes no plans, or none
    /// for this activation: its [`Hooks::policy_order`] is asked for each action instead.
    fn policy_plan(
        &self,
        _game: &mut Game,
        _model: ModelId,
    ) -> Result<Option<Vec<Order>>, HookError> {
        Ok(None)
    }

    /// The hero policy's Council orders (core §7.2), in the order the kernel should try them.
    fn policy_council(
        &self,
        _game: &mut Game,
        _info: &CouncilInfo,
    ) -> Result<Vec<CouncilOrder>, HookError> {
        Ok(Vec::new())
    }

    /// What `order` costs `model` when one of its scripts changes the rulebook's `cost` (its
    /// `order_cost`): the lowest cost any script gives, or `None` to keep the rulebook's.
    fn order_cost(
        &self,
        _game: &Game,
        _model: ModelId,
        _order: &Order,
        _cost: u8,
    ) -> Result<Option<CostChange>, HookError> {
        Ok(None)
    }

    /// Models of the other side are told that `activating` (an Enemy Group, or one model) is about to
    /// roll its activation (their `on_opponent_activation`): the changes they ask for (Hold the Line).
    fn on_opponent_activation(
        &self,
        _game: &mut Game,
        _activating: &[ModelId],
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// After `activating` rolled `dice` for its activation, the activating models' and their opponents'
    /// `on_activation_roll`: a reroll one of them asks for (the first that does), if any.
    fn activation_reroll(
        &self,
        _game: &mut Game,
        _activating: &[ModelId],
        _dice: &[u8],
        _quality: u8,
    ) -> Result<Option<Reroll>, HookError> {
        Ok(None)
    }

    /// `model` is about to be removed as Defeated (or by a Gruesome Kill): its scripts' `on_defeat`
    /// may ask for changes (the Fire Entity's Wildfire).
    fn on_defeat(&self, _game: &mut Game, _model: ModelId) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// After `attacker`'s structural attack on `building`: its scripts' `on_structural` may ask for
    /// changes (the Orc Demolisher's Breach on a win).
    fn on_structural(
        &self,
        _game: &mut Game,
        _attacker: ModelId,
        _building: &str,
        _won: bool,
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// Check the scripted action `name` of `model` (an `actions` entry of one of its scripts) at
    /// `target`: which script defines it, whether it is a Task, and its `can`'s refusal if it refuses.
    /// An error when no script of the model defines it.
    fn ability_check(
        &self,
        _game: &mut Game,
        _model: ModelId,
        name: &str,
        _target: Option<&AbilityTarget>,
    ) -> Result<AbilityCheck, HookError> {
        Err(HookError {
            message: format!("no script of this model defines the action {name:?}"),
        })
    }

    /// Run the scripted action `name` of `model` (its `run`, once the action or its Task is complete):
    /// the changes it asks for, which the kernel applies.
    fn ability_run(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _name: &str,
        _target: Option<&AbilityTarget>,
    ) -> Result<Vec<Intent>, HookError> {
        Ok(Vec::new())
    }

    /// Run an Opportunity result's script (its `claim` or `wave_end`): the rewards it asks for, which
    /// the kernel validates and applies. May roll dice (logged).
    fn opportunity(
        &self,
        _game: &mut Game,
        _call: &OpportunityCall,
    ) -> Result<Vec<Reward>, HookError> {
        Ok(Vec::new())
    }

    /// Cast a spell through its script (§3.7) for `caster`, checked as `g:cast` checks it (the spell
    /// known, Power 1–3, range, sight, not Engaged, not out of power): a Ritual works its Task first. The
    /// script's effects act at once; a refusal of the rules (out of range, not the closest target...)
    /// leaves the game as it was and is a rule error, a failing script a hook error. Without scripts
    /// there is no spell to cast.
    fn cast_spell(
        &self,
        game: &mut Game,
        _caster: ModelId,
        order: &CastOrder,
    ) -> Result<CastReport, super::RuleError> {
        let _ = game;
        Err(super::RuleError::Magic(format!(
            "{} has no script to cast it with",
            order.spell
        )))
    }

    /// Run the `use` of an item `model` carries: the rewards it asks for (a Potion's healing).
    fn use_item(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _item: &Item,
    ) -> Result<Vec<Reward>, HookError> {
        Ok(Vec::new())
    }

    /// `model`, which holds `claim_on_move`, passed Opportunity `token` during a move: whether its
    /// scripts claim it on the way (`on_pass_token`), as the script that said so, and the changes they
    /// asked for. May roll dice (a peek at the token's result).
    fn on_pass_token(
        &self,
        _game: &mut Game,
        _model: ModelId,
        _token: TokenId,
    ) -> Result<(Option<String>, Vec<Intent>), HookError> {
        Ok((None, Vec::new()))
    }

    /// A Council Phase opens: `model`'s scripts (`on_council`) may grant free Council orders for this
    /// Council (Grimm's free Trap) and ask for changes.
    fn on_council(
        &self,
        _game: &mut Game,
        _model: ModelId,
    ) -> Result<(Vec<crate::state::CouncilGrant>, Vec<Intent>), HookError> {
        Ok((Vec::new(), Vec::new()))
    }

    /// Movement properties of a model about to move, given the enemies it is Engaged with.
    fn movement_traits(
        &self,
        _game: &Game,
        _model: ModelId,
        _engaged: &[ModelId],
    ) -> Result<MoveTraits, HookError> {
        Ok(MoveTraits::default())
    }

    /// Whether a model holds a named permission that bends a rule for it ("ignore_closest_target" for
    /// Tobin's Called Shot, ...): the source that grants it, if any.
    fn permission(
        &self,
        _game: &Game,
        _model: ModelId,
        _name: &str,
    ) -> Result<Option<String>, HookError> {
        Ok(None)
    }

    /// Why a model ignores a morale check of this trigger (Fearless, Artificial, Undead ...), if it
    /// does: the reason and the script that gave it.
    fn morale_immunity(
        &self,
        _game: &Game,
        _model: ModelId,
        _trigger: MoraleTrigger,
    ) -> Result<Option<(String, String)>, HookError> {
        Ok(None)
    }

    /// Modifiers added to each morale die (Steadfast). `to` is ignored: they apply to the model.
    fn morale_modifiers(
        &self,
        _game: &Game,
        _model: ModelId,
        _trigger: MoraleTrigger,
    ) -> Result<Vec<Modifier>, HookError> {
        Ok(Vec::new())
    }

    /// The hero policy's choices at one step of the start of a wave (core §5.3; the policy's
    /// `deploy(ctx, step)`). The default chooses nothing: no Warhorse, no Ready Mounts move.
    fn deploy_choices(
        &self,
        _game: &mut Game,
        _step: &DeployStep,
    ) -> Result<DeployChoices, HookError> {
        Ok(DeployChoices::default())
    }

    /// Temple II Blessing: the building the hero policy blesses before this Enemy Group's activation
    /// begins (the policy's `blessing(ctx, group)`), with the script that chose it; `None` to keep the
    /// Blessing for later.
    fn blessing(
        &self,
        _game: &mut Game,
        _group: &[ModelId],
    ) -> Result<Option<(String, String)>, HookError> {
        Ok(None)
    }

    /// A Lua wave builder replacing the default one for this wave (SUPPLEMENT §10; an enabled variant's
    /// `build_wave(ctx, ask)`): the Groups it returned, or `None` to use the default builder. May roll
    /// dice (logged).
    fn build_wave(
        &self,
        _game: &mut Game,
        _ask: &WaveAsk,
    ) -> Result<Option<ScriptedWave>, HookError> {
        Ok(None)
    }
}

/// No scripts: the plain rulebook.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}
