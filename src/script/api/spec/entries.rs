//! The script modules' entry points (the closed vocabulary per kind, with types and docs) and the
//! module class of each kind.

use super::*;

/// Plain data keys any script module may carry besides its entry points.
pub const MODULE_DATA: &[Field] = &[
    opt("name", "string", "A display name."),
    opt("description", "string", "What it does, for people."),
    opt("params", "table", "Plain data for the module's own use."),
];

/// Kinds whose scripts act for a model: a trait's, signature's or Alpha Rule's owner, every model for a
/// variant, and the carrier of the item an Opportunity gave.
pub(super) const MODEL_HOOK_KINDS: &[&str] =
    &["traits", "signatures", "alpha", "variants", "opportunities"];

pub(super) const MODIFIER_HOOK: &str =
    "fun(ctx: Ctx, self: ModelView, roll: Roll): integer|Modifier|Modifier[]|nil";

/// The entry points of script modules.
pub const ENTRY_POINTS: &[EntryPoint] = &[
    EntryPoint {
        name: "melee_modifier",
        kinds: MODEL_HOOK_KINDS,
        ty: MODIFIER_HOOK,
        doc: "Modifiers to a melee roll its owner (`self`) takes part in, as attacker or defender.",
    },
    EntryPoint {
        name: "ranged_modifier",
        kinds: MODEL_HOOK_KINDS,
        ty: MODIFIER_HOOK,
        doc: "Modifiers to a ranged roll its owner takes part in.",
    },
    EntryPoint {
        name: "structural_modifier",
        kinds: MODEL_HOOK_KINDS,
        ty: MODIFIER_HOOK,
        doc: "Modifiers to a structural attack its owner makes.",
    },
    EntryPoint {
        name: "win_rules",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, win: Win): WinRules|nil",
        doc: "Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.",
    },
    EntryPoint {
        name: "on_result",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil",
        doc: "Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, \
              Entangle), roll dice and ask for changes through `ctx` (Poison).",
    },
    EntryPoint {
        name: "on_charge",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, charged: ModelView[])",
        doc: "Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale \
              checks).",
    },
    EntryPoint {
        name: "movement",
        kinds: MODEL_HOOK_KINDS,
        ty: "MoveTraits|fun(ctx: Ctx, self: ModelView, engaged: ModelView[]): MoveTraits|nil",
        doc: "How its owner moves: Flying, its band, terrain it ignores, enemies it leaves freely. A table \
              when the answer never changes (Long Move's `{ band = \"long\" }`: no call at each move), or a \
              function called before each move.",
    },
    EntryPoint {
        name: "permissions",
        kinds: MODEL_HOOK_KINDS,
        ty: "table<string, boolean|string>|fun(ctx: Ctx, self: ModelView): table<string, boolean|string>|nil",
        doc: "Rules its owner may bend, by name (\"ignore_closest_target\"): a table, read once when the file \
              loads, or a function asked each time the kernel needs the answer.",
    },
    EntryPoint {
        name: "morale",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, trigger: string): MoraleAnswer|nil",
        doc: "Called before its owner tests morale: immunity to this trigger, or a modifier to each die.",
    },
    EntryPoint {
        name: "on_activation",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, roll: ActivationResult)",
        doc: "Called for each model of an activation (one model, a Group or a Leader's group) once its \
              roll is final (after any reroll), before its first action: ask for changes through `ctx` \
              (`ctx:grant`, `ctx:spend`, `ctx:add_condition`...). `roll` is the roll every model of the \
              activation shares.",
    },
    EntryPoint {
        name: "on_wave_start",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, wave: WaveStartInfo)",
        doc: "Called for every model on the table, in id order, once both sides have deployed (core §5.3, \
              after Ready Mounts) and before round 1: ask for changes through `ctx`.",
    },
    EntryPoint {
        name: "on_council",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView): CouncilGrantAnswer|CouncilGrantAnswer[]|nil",
        doc: "Called for every model on the table, in id order, as each Council Phase opens (before the \
              hero policy orders, in `play` and `g:council`): grant free Council orders for this Council \
              (Grimm's Snare Master: `{ free = \"trap\", entangle = true }`, logged `rule_bent`), roll \
              dice and ask for changes through `ctx`.",
    },
    EntryPoint {
        name: "on_pass_token",
        kinds: &["traits", "signatures", "alpha"],
        ty: "fun(ctx: Ctx, self: ModelView, token: Token): boolean|nil",
        doc: "Called, when its owner holds the `claim_on_move` permission, for each Opportunity token its move \
              passes within base contact of (in the order met, after the leg of the move that passed it): \
              return true to claim it on the way — no action, and the move goes on (Wren's Pathfinder). Its \
              ctx may roll dice (`ctx:peek`) and ask for changes.",
    },
    EntryPoint {
        name: "order_cost",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, order: OrderInfo): CostAnswer|nil",
        doc: "Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called \
              Shot), with a limited use spent once the order is carried out. Read-only ctx.",
    },
    EntryPoint {
        name: "on_opponent_activation",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, activating: ModelView[])",
        doc: "Called for every model of the other side before an Enemy Group (or a hero) rolls its \
              activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).",
    },
    EntryPoint {
        name: "on_activation_roll",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, roll: ActivationRollInfo): RerollAnswer|nil",
        doc: "Called after an activation roll for the activating models, then for every model of the other \
              side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's \
              Hex). The first that asks wins; the reroll is logged `rerolled`.",
    },
    EntryPoint {
        name: "on_friend_result",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, win: Win): ResultChange|nil",
        doc: "Called for each friend of a model that lost a roll (after the winner's and loser's \
              `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. \
              `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.",
    },
    EntryPoint {
        name: "on_defeat",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView)",
        doc: "Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for \
              changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).",
    },
    EntryPoint {
        name: "on_structural",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelView, attack: StructuralInfo)",
        doc: "Called after its owner's structural attack on a building: ask for changes (the Orc \
              Demolisher's Breach: `ctx:remove_barricade` on a win).",
    },
    EntryPoint {
        name: "actions",
        kinds: &["traits", "signatures", "alpha"],
        ty: "table<string, ActionSpec>",
        doc: "Extra actions its owner may take, by name: ordered `{ ability = name, target = ... }` by the \
              hero policy or a Behaviour, checked by `can`, worked as a Task when `task` says so, and \
              resolved by `run` (logged `ability`, naming this script).",
    },
    EntryPoint {
        name: "rules",
        kinds: &["variants"],
        ty: "table<string, table<string, any>>",
        doc: "Rule-constant overrides by section, merged key by key over rosters/rules.toml.",
    },
    EntryPoint {
        name: "tracks",
        kinds: &["variants"],
        ty: "string[]",
        doc: "Tracks of rosters/tracks.toml the variant puts in play: each starts on its `start` space (or the \
              preset's) as the game is made (logged `track_set`), and scripts read it with `ctx:track` and move \
              it with `ctx:advance_track`.",
    },
    EntryPoint {
        name: "on_enemy_turn_end",
        kinds: &["variants"],
        ty: "fun(ctx: Ctx, turn: EnemyTurnEnd)",
        doc: "Called at the end of each enemy turn while the variant is in force (not when the game ended \
              during the turn). Its ctx may roll dice (logged) and ask for changes (`ctx:advance_track`, \
              `ctx:repair`, …), applied when it returns. The threat track moves here.",
    },
    EntryPoint {
        name: "on_victory_check",
        kinds: &["victory"],
        ty: "fun(ctx: Ctx, check: VictoryCheck): string|nil",
        doc: "A scenario's victory script (`victory = \"NAME\"` in its file): called where the game can end \
              — after each side's turn, and at the round limit's last round (`check.limit`). Returns \
              \"win\", \"loss\" or \"draw\", then a reason (a second value), to end the game so (cause `victory_script`), or \
              nil to play on. Its ctx may read the battle (`ctx:vp`, `ctx:objectives`) and award Victory \
              Points (`ctx:award_vp`), applied when it returns.",
    },
    EntryPoint {
        name: "target",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelView): ModelView|BuildingView|Position|EdgeAim|nil",
        doc: "The target the Behaviour picks for a model of its Group (§6.3): a model, a building, a point \
              (an Opportunity) or `{ edge = true }`; nil for none. Its ctx may roll dice (the last \
              tie-breaker). The Group's models, when a Behaviour weighs them: \
              `ctx:models({ group_of = self })` (asked for, not handed to every call).",
    },
    EntryPoint {
        name: "objective",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelView, ask: ObjectiveAsk): BuildingView|Token|nil",
        doc: "The objective a Group holds (§6.3, Guardian: its nearest building, or a nearer Opportunity): asked \
              once at deployment (for a model placed outside a wave, before its first target) and again \
              only when the objective is Destroyed or its token removed (`ask.lost`). The kernel keeps \
              the answer for every model of the Group (`ctx:objective(self)` reads it) and logs it; nil \
              keeps none. Its ctx may roll dice (tie-breakers).",
    },
    EntryPoint {
        name: "targets",
        kinds: &["behaviours"],
        ty: "TargetStep[]",
        doc: "Its target choice (§6.3) declared as steps; the first step that finds something gives the \
              target. The kernel follows them natively (no call into Lua) unless the decision is being \
              explained and the Behaviour has a `target`, which then says why (`P.declared(ctx, self, \
              targets)` of scripts/lib/priority.lua follows the same steps). Checked when the file loads.",
    },
    EntryPoint {
        name: "universal",
        kinds: &["behaviours"],
        ty: "boolean",
        doc: "true: for a model that has not declared spellcasting, the Behaviour's `act` is the universal \
              priority of §6.2 (`A.default` of scripts/lib/act.lua). The kernel then decides those actions \
              natively and calls `act` only where a script must choose: a Spell-caster that declared, or \
              a model whose scripts offer special actions. Much cheaper; the same orders and reasons.",
    },
    EntryPoint {
        name: "declare",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelView): boolean|nil",
        doc: "Asked for each Spell-caster of a Group before the Group rolls (§3.7: spellcasting is declared \
              before the roll): true declares, so the caster may cast this activation (`{ cast = ... }` \
              from `act`) and is out of power for the wave if its roll fails three dice. nil or false \
              does not declare.",
    },
    EntryPoint {
        name: "act",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelView, target: ModelView|BuildingView|Position|EdgeAim|nil): BehaviourOrder|nil",
        doc: "One action for a model of the Group, given its target (§6.2 universal priority): an order the \
              kernel executes, or nil to lose the action. Its ctx may roll dice.",
    },
    EntryPoint {
        name: "cast",
        kinds: &["spells"],
        ty: "fun(ctx: Ctx, caster: ModelView, power: integer, target: ModelView|nil, opts: CastOptions): any",
        doc: "Called by `g:cast` once the kernel has checked the cast (and a Ritual's Task is complete): \
              decide the effect and ask for it through the spell primitives on `ctx`; what it returns is \
              the CastResult's `result`. An error undoes the whole cast.",
    },
    EntryPoint {
        name: "claim",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelView, params: table<string, any>, opportunity: OpportunityInfo)",
        doc: "Called when a hero claims a token and the die gives this row, for a row of timing `now` \
              (core §6.1): decide the result and ask for it through the reward primitives on `ctx` \
              (`ctx:add_herbs`, `ctx:ambush`, `ctx:give`, ...). `params` are the row's. An error undoes the \
              whole claim.",
    },
    EntryPoint {
        name: "wave_end",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelView|nil, params: table<string, any>, opportunity: OpportunityInfo)",
        doc: "Called at step 4 of the End Sequence (core §7.1, Rewards) for each result of timing `wave_end` \
              claimed during the wave, in the order claimed; `hero` is nil when the claimer has left the \
              table (the reward is still the village's).",
    },
    EntryPoint {
        name: "use",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelView, params: table<string, any>, item: ItemInfo)",
        doc: "Called when the hero carrying this script's item orders `{ use = name }`: ask for the effect \
              (`ctx:heal`); the kernel then removes the item. Asking for nothing refuses the use.",
    },
    EntryPoint {
        name: "activate",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, self: ModelView): integer|ActivationAnswer|boolean|nil",
        doc: "Whether and how a model of the heroes' side is nominated when its turn comes (§3.1): the \
              number of activation dice (1–3), or an ActivationAnswer (dice, a Leader's `group`, `cast` to \
              declare spellcasting, §3.7); false or 0 passes it over. The hero turn offers the Active \
              models in id order, pass after pass, while one is nominated: a model that failed one die \
              without a turnover is offered again (`self.activations` counts its activations this turn). \
              Without it, or for nil, two dice.",
    },
    EntryPoint {
        name: "plan",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, self: ModelView): BehaviourOrder[]|nil",
        doc: "The orders for the rest of a model's activation (`self.actions_left` actions), in order, as \
              `act` gives them one at a time: `{ { move = foe }, { move = foe } }`; `{}` is nothing more \
              this activation. The kernel carries them out and asks again only when the plan runs out or \
              breaks: an order refused (its action lost), or a fact it rested on changed (the model hurt, \
              held or freed, Engaged or no longer, a model removed, a token taken or dropped). One call \
              instead of one for each action. nil is no plan this time: `act` is asked for each action \
              left in the activation, as it is in a policy without `plan`. Optional.",
    },
    EntryPoint {
        name: "act",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, self: ModelView): BehaviourOrder|nil",
        doc: "One order for a model of the heroes' side, asked once per action it has left \
              (`self.actions_left`): melee (a Power Blow with `power_blow`), shoot (an Aimed Shot with \
              `aimed`, Concentrated Shooting with `with`), move (`within` to stop short), claim, use, heal, \
              cast (declared before the roll; costs its Power), break_free. An order needing more actions \
              than are left, or one the rules refuse, loses an action (logged with the reason); nil loses \
              it.",
    },
    EntryPoint {
        name: "council",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, info: CouncilInfo): CouncilOrder[]|nil",
        doc: "Called in the Council Phase after every non-final wave (§7.2): the orders to try, in turn \
              (see CouncilOrder). The kernel validates each, applies it and logs a `council` event, or logs \
              why it refused it and goes on. Its ctx reads the table (and may roll dice).",
    },
    EntryPoint {
        name: "deploy",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, step: DeployStep): DeployChoices|nil",
        doc: "The hero policy's choices in the start-of-wave sequence (core §5.3), called at each step where \
              a building ability in force asks for one: step 1 (Stable II Warhorse) and step 4 (Stable I \
              Ready Mounts). Its ctx may roll dice. nil chooses nothing.",
    },
    EntryPoint {
        name: "blessing",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, group: ModelView[]): BuildingView|string|nil",
        doc: "Temple II Blessing, once per wave: called before an Enemy Group's activation begins while the \
              Blessing is unspent; the building returned ignores all Integrity damage from that activation, \
              fire lit during it included. nil keeps the Blessing for later.",
    },
    EntryPoint {
        name: "build_wave",
        kinds: &["variants"],
        ty: "fun(ctx: Ctx, ask: WaveAsk): WaveGroup[]|nil",
        doc: "Replaces the default wave builder (SUPPLEMENT §10) while the variant is enabled (`--variant`, \
              `variants = {...}`): the wave's Enemy Groups, which the kernel checks and deploys as usual; nil \
              lets the default builder build this wave, and an empty array is an error (a wave with no \
              enemies is not a wave). Its ctx may roll dice (logged). Only one enabled variant may define it.",
    },
];

/// The module class of each script kind.
pub const MODULE_KINDS: &[ModuleKind] = &[
    ModuleKind {
        kind: "traits",
        class: "TraitScript",
        doc: "A trait's script (scripts/traits/*.lua), named by a trait in rosters/traits.toml.",
        usage: "return { melee_modifier = function(ctx, self, roll) return 1 end }",
    },
    ModuleKind {
        kind: "signatures",
        class: "SignatureScript",
        doc: "A hero signature's script (scripts/signatures/*.lua).",
        usage: "return { melee_modifier = function(ctx, self, roll) return 1 end }",
    },
    ModuleKind {
        kind: "alpha",
        class: "AlphaScript",
        doc: "An Alpha Rule's script (scripts/alpha/*.lua).",
        usage: "return { melee_modifier = function(ctx, self, roll) return 1 end }",
    },
    ModuleKind {
        kind: "variants",
        class: "VariantScript",
        doc: "A rule variant (scripts/variants/NAME.lua): rule-constant overrides, hooks applied to every model, and \
              perhaps a wave builder (`build_wave`) replacing the default one.",
        usage: "return { rules = { combat = { power_blow_lethal = true } } }",
    },
    ModuleKind {
        kind: "behaviours",
        class: "BehaviourScript",
        doc: "An enemy Behaviour (scripts/behaviours/*.lua).",
        usage: "return { target = function(ctx, self) end, act = function(ctx, self, target) end }",
    },
    ModuleKind {
        kind: "spells",
        class: "SpellScript",
        doc: "A spell (scripts/spells/*.lua), named by `script` in rosters/spells.toml and run by `g:cast`.",
        usage: "return { cast = function(ctx, caster, power, target, opts) return ctx:transfix(target, power) end }",
    },
    ModuleKind {
        kind: "victory",
        class: "VictoryScript",
        doc: "A scenario's victory script (scripts/victory/NAME.lua), named by `victory = \"NAME\"` in its \
              scenario file: `on_victory_check` is asked where the game can end.",
        usage: "return { on_victory_check = function(ctx, check) if ctx:vp(\"heroes\") >= 6 then return \"win\", \"six VP\" end end }",
    },
    ModuleKind {
        kind: "opportunities",
        class: "OpportunityScript",
        doc: "An Opportunity result (scripts/opportunities/*.lua), named by `script` in \
              rosters/opportunities.toml: its `claim` or `wave_end` decides the result; an item it gives \
              carries it, so its model hooks act for the item's carrier and its `use` is the item's use.",
        usage: "return { claim = function(ctx, hero, params) ctx:add_herbs(params.herbs) end }",
    },
    ModuleKind {
        kind: "policies",
        class: "PolicyScript",
        doc: "A hero AI policy for simulated games (scripts/policies/*.lua).",
        usage: "return { activate = function(ctx) end }",
    },
];
