//! The kernel's named hook points, as a plain Rust trait the script host implements.
//!
//! The kernel asks; scripts answer with values (modifiers) that the kernel validates and applies. A
//! hook never receives `&mut Game`: scripts decide, Rust executes (DESIGN.md invariant 1).

use super::error::HookError;
use crate::state::{CombatResult, Condition, Game, ModelId, MoraleTrigger};
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
    /// Make a model test morale.
    Morale {
        model: ModelId,
        trigger: MoraleTrigger,
        source: String,
    },
}

/// What scripts did about a result: perhaps a different result, and changes to apply.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ResultChange {
    /// The result to apply instead, why, and the script that said so.
    pub replace: Option<(CombatResult, String, String)>,
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

/// One action a Behaviour orders for its model (core §6.2); the kernel validates and executes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    Melee(ModelId),
    Shoot(ModelId),
    Structural(String),
    Ignite(String),
    /// Move along the shortest legal route toward what it aims at (one straight leg, up to its band).
    Move(Aim),
    /// Leave the table by the nearest edge (a Raider done looting).
    Leave,
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

    /// How many activation dice the hero policy rolls for a model of the heroes' side (1–3).
    fn policy_dice(&self, _game: &mut Game, _model: ModelId) -> Result<u8, HookError> {
        Ok(2)
    }

    /// The action the hero policy orders for a model of the heroes' side; `None` to lose it.
    fn policy_order(&self, _game: &mut Game, _model: ModelId) -> Result<Option<Order>, HookError> {
        Ok(None)
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
