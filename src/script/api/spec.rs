//! The Lua API as data: every class, field, method, option table, result table and script entry point
//! scripts see, with its Lua type (lua-language-server syntax), parameter names, a one-line doc and a
//! usage line. It is the single source of truth for `scripts/types/village.lua` (`village api --luals`)
//! and the `village api` reference.
//!
//! The registrations cannot drift from it: every named member `api/*.rs` registers (`add_method`,
//! `add_field_method_get`, `village.set`) takes its name from [`member`], which panics on a name this
//! file does not describe; option tables are checked against [`options`]; the model and building field
//! lists are [`MODEL_FIELDS`] and [`BUILDING_FIELDS`] here. `tests/api_stubs.rs` checks the other
//! direction against a live VM (every member described here exists, with values of the described
//! types) and that no registration bypasses [`member`].
//!
//! This module never registers anything and never touches a Lua state: it is plain data and text.

use crate::script::registry::KINDS;
use std::fmt::Write;

/// How a class reaches Lua.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    /// A global table of functions (`village`): members are called with `.`.
    Global,
    /// Userdata resolved on every use (a game, a model handle, a hook's `ctx`): methods use `:`.
    Handle,
    /// A plain Lua table (results, options, snapshots): methods, if any, come from a metatable.
    Table,
}

/// A field of a class. `name` `"[string]"` marks a table open to any other string key.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    /// The Lua type, lua-language-server syntax (`integer`, `Model|nil`, `string[]`).
    pub ty: &'static str,
    /// May be absent (`nil`).
    pub optional: bool,
    pub doc: &'static str,
}

/// A parameter of a method.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: &'static str,
    pub optional: bool,
    pub doc: &'static str,
}

/// A method or function of a class.
#[derive(Debug, Clone, Copy)]
pub struct Method {
    pub name: &'static str,
    pub params: &'static [Param],
    /// The return type, or `""` when it returns nothing.
    pub returns: &'static str,
    pub doc: &'static str,
    /// One line of Lua that calls it.
    pub usage: &'static str,
}

/// A class: the `village` global, a handle, or a table shape.
#[derive(Debug, Clone, Copy)]
pub struct Class {
    pub name: &'static str,
    pub kind: ClassKind,
    pub doc: &'static str,
    /// One line of Lua showing where such a value comes from.
    pub usage: &'static str,
    pub fields: &'static [Field],
    pub methods: &'static [Method],
}

/// A named union of types (`Side`, `Point`).
#[derive(Debug, Clone, Copy)]
pub struct Alias {
    pub name: &'static str,
    pub ty: &'static str,
    pub doc: &'static str,
}

/// An entry point a script module may define, for the kinds listed.
#[derive(Debug, Clone, Copy)]
pub struct EntryPoint {
    pub name: &'static str,
    /// The script kinds (folders of `registry::KINDS`) where it has this shape.
    pub kinds: &'static [&'static str],
    /// The Lua type of the value: a `fun(...)` for hooks, a table type for data.
    pub ty: &'static str,
    pub doc: &'static str,
}

/// The shape of a script module of one kind.
#[derive(Debug, Clone, Copy)]
pub struct ModuleKind {
    /// The folder under scripts/ (a kind of `registry::KINDS`).
    pub kind: &'static str,
    /// The class name in the stubs (`TraitScript`).
    pub class: &'static str,
    pub doc: &'static str,
    pub usage: &'static str,
}

const fn f(name: &'static str, ty: &'static str, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        optional: false,
        doc,
    }
}

const fn opt(name: &'static str, ty: &'static str, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        optional: true,
        doc,
    }
}

const fn p(name: &'static str, ty: &'static str, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        optional: false,
        doc,
    }
}

const fn po(name: &'static str, ty: &'static str, doc: &'static str) -> Param {
    Param {
        name,
        ty,
        optional: true,
        doc,
    }
}

/// The names of a field list, at compile time (so the handles' field lists are this file's).
const fn names<const N: usize>(fields: &[Field]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = fields[i].name;
        i += 1;
    }
    out
}

const MODEL_FIELD_SPECS: &[Field] = &[
    f("id", "integer", "The model's id, stable for the whole game."),
    f("name", "string", "The profile's name (\"Orc Warrior\")."),
    f("kind", "ProfileKind", "Hero, enemy or Village Defender."),
    f("tier", "Tier", "The profile's tier."),
    f("side", "Side", "The side it fights on (Village Defenders fight with the heroes)."),
    f("quality", "integer", "Current Quality (the target number of activation dice), worsened by Wounds."),
    f("combat", "integer", "Combat."),
    f("pos", "Position", "Centre of the base, in inches."),
    f("base", "number", "Base diameter in inches."),
    f("wounds", "integer", "Wounds suffered (Tough)."),
    f("conditions", "Condition[]", "Conditions, sorted."),
    f(
        "traits",
        "string[]",
        "Traits as printed on the profile, then any it has for this wave only (Stable II Warhorse's Long Move).",
    ),
    opt("weapon", "string", "The ranged weapon, if any."),
    f("spells", "string[]", "Spells known."),
    opt("group", "integer", "The enemy Group number, if any."),
    f("active", "boolean", "Active this turn."),
    f("engaged", "boolean", "In contact with an enemy."),
    f(
        "defeated",
        "boolean",
        "Removed other than by fleeing (a removed model's handle still answers id, name and defeated).",
    ),
    f("weapon_broken", "boolean", "Its ranged weapon broke or ran out (no more shooting this game)."),
    f(
        "charged",
        "boolean",
        "It moved into contact with an enemy since its last activation (Dashing).",
    ),
    f(
        "moved",
        "number",
        "Inches it moved since its last activation (Sir Roland's Ride Down).",
    ),
    f(
        "attacks",
        "integer",
        "Melee and ranged attacks it made since its last activation (one per turn, §3.2; the turn engine counts them).",
    ),
    f(
        "actions_left",
        "integer",
        "Actions it has left in the activation being played, this one included (0 outside the turn engine).",
    ),
    opt(
        "wrecked",
        "string",
        "The building it Destroyed with a structural attack, if any (a Raider then leaves, §6.3).",
    ),
    opt("behaviour", "string", "The Behaviour an enemy plays (§6.3); nil for heroes and Defenders."),
    f(
        "items",
        "string[]",
        "Names of the items and boons it carries (an Opportunity's Potion of Healing, Relic Blade), in the \
         order gained.",
    ),
];

const BUILDING_FIELD_SPECS: &[Field] = &[
    f("name", "string", "The building's name (\"Town Hall\")."),
    f("integrity", "integer", "Integrity left."),
    f(
        "max_integrity",
        "integer",
        "Integrity at its current Level.",
    ),
    f("level", "integer", "Level (1 = Level I)."),
    f("destroyed", "boolean", "Destroyed."),
    f("fire", "boolean", "On fire."),
    f(
        "town_hall",
        "boolean",
        "The Town Hall (its loss ends the game).",
    ),
    f(
        "economic",
        "boolean",
        "An economic building (the Raider's target).",
    ),
    f("pos", "Position", "Centre of the footprint, in inches."),
    f("size", "Size", "Footprint size, in inches."),
];

/// The fields a model handle (and a hook's model snapshot) exposes, in order.
pub const MODEL_FIELDS: &[&str] = &names::<{ MODEL_FIELD_SPECS.len() }>(MODEL_FIELD_SPECS);

/// The fields a building handle (and a building snapshot) exposes, in order.
pub const BUILDING_FIELDS: &[&str] = &names::<{ BUILDING_FIELD_SPECS.len() }>(BUILDING_FIELD_SPECS);

const MODEL_METHODS: &[Method] = &[
    Method {
        name: "has_trait",
        params: &[p("name", "string", "A trait, as printed (case-sensitive).")],
        returns: "boolean",
        doc: "Whether the profile carries the trait.",
        usage: "if m:has_trait(\"Hero\") then return 1 end",
    },
    Method {
        name: "has",
        params: &[p("condition", "Condition", "A condition.")],
        returns: "boolean",
        doc: "Whether the model has the condition.",
        usage: "if m:has(\"defenseless\") then return 2 end",
    },
];

/// The type aliases, in output order.
pub const ALIASES: &[Alias] = &[
    Alias {
        name: "Side",
        ty: "\"heroes\"|\"enemies\"",
        doc: "The two sides.",
    },
    Alias {
        name: "ProfileKind",
        ty: "\"hero\"|\"enemy\"|\"defender\"",
        doc: "What a profile is.",
    },
    Alias {
        name: "Tier",
        ty: "\"mob\"|\"elite\"|\"boss\"|\"hero\"|\"defender\"",
        doc: "A profile's tier.",
    },
    Alias {
        name: "Condition",
        ty: "\"defenseless\"|\"transfixed\"|\"entangled\"",
        doc: "A condition (core rules §3.7); Wounds are not conditions.",
    },
    Alias {
        name: "RollKind",
        ty: "\"melee\"|\"ranged\"|\"structural\"",
        doc: "Which roll a modifier hook is asked about.",
    },
    Alias {
        name: "Role",
        ty: "\"attacker\"|\"defender\"",
        doc: "Whose total a modifier changes.",
    },
    Alias {
        name: "CombatOutcome",
        ty: "\"tie\"|\"recoil\"|\"defenseless\"|\"defeated\"|\"gruesome\"|\"none\"|\"wound\"|\"entangled\"",
        doc: "A result of the combat table (SUPPLEMENT §4), or what was applied to the loser.",
    },
    Alias {
        name: "ModelArg",
        ty: "Model|integer",
        doc: "A model handle of the same game, or a model id.",
    },
    Alias {
        name: "Point",
        ty: "Position|number[]",
        doc: "A position: `{ x = 3, y = 4 }` or `{ 3, 4 }`, in inches.",
    },
];

/// Every class, in output order.
pub const CLASSES: &[Class] = &[
    Class {
        name: "village",
        kind: ClassKind::Global,
        doc: "The `village` global: start games and look at the rosters.",
        usage: "local g = village.new_game({ seed = 7, table = \"empty\" })",
        fields: &[f("version", "string", "The version of the village engine.")],
        methods: &[
            Method {
                name: "new_game",
                params: &[po("opts", "NewGameOptions", "Seed, length, heroes, table, variants.")],
                returns: "Game",
                doc: "A new game from the rosters: buildings at Level I and the named heroes south of the Town Hall.",
                usage: "local g = village.new_game({ seed = 7, heroes = { \"Captain Maren\" }, table = \"empty\" })",
            },
            Method {
                name: "profiles",
                params: &[],
                returns: "string[]",
                doc: "The names of every profile in the rosters (heroes, enemies, Village Defenders).",
                usage: "for _, name in ipairs(village.profiles()) do print(name) end",
            },
        ],
    },
    Class {
        name: "NewGameOptions",
        kind: ClassKind::Table,
        doc: "Options of `village.new_game`; an unknown key is an error.",
        usage: "village.new_game({ seed = 1, length = \"standard\", heroes = { \"Captain Maren\", \"Tobin the Marksman\" } })",
        fields: &[
            opt("seed", "integer", "Seed of the dice (default: the session's `--seed`)."),
            opt("length", "string", "Game length as named in the rosters (default \"standard\")."),
            opt("heroes", "string[]", "Heroes to deploy in a row south of the Town Hall."),
            opt("table", "\"empty\"|\"generated\"", "The standard layout, or a generated table (default)."),
            opt("variants", "string[]", "Rule variants (scripts/variants/NAME.lua), applied in order."),
            opt(
                "policy",
                "string",
                "The hero policy (scripts/policies/NAME.lua) that plays the heroes' side (default \"default\").",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "Game",
        kind: ClassKind::Handle,
        doc: "A game on the table. Each method resolves a rule at once as a what-if: it checks geometry \
              (contact, sight, range) but not whose turn it is.",
        usage: "local g = village.new_game({ seed = 7, table = \"empty\" })",
        fields: &[
            f("seed", "integer", "The seed of the game's dice."),
            f("round", "integer", "The current round."),
            f("wave", "integer", "The current wave."),
            f("supplies", "integer", "The village's Supplies."),
            f("herbs", "integer", "Herb tokens the village holds (each heals 1 Wound in a Council Phase)."),
            f(
                "joining",
                "string[]",
                "Village Defender profiles that join at the next wave start (Lost Villagers).",
            ),
            f("length", "string", "The game length's name."),
            f("variants", "string[]", "The rule variants in force, in order."),
        ],
        methods: &[
            Method {
                name: "place",
                params: &[
                    p("name", "string", "A profile name from the rosters."),
                    p("pos", "Point", "Centre of the base."),
                    po("opts", "PlaceOptions", "`behaviour` (one of the profile's), `group` (its number)."),
                ],
                returns: "Model",
                doc: "Put a model on the table; an error if its base would hang off the table or overlap anything.",
                usage: "local orc = g:place(\"Orc Warrior\", { x = 3, y = 3 })",
            },
            Method {
                name: "force_dice",
                params: &[p("faces", "integer[]", "D6 faces (1 to 6) the next rolls will show, in order.")],
                returns: "",
                doc: "Queue the faces the next dice will show (scenarios and tests).",
                usage: "g:force_dice({ 6, 1 })",
            },
            Method {
                name: "activate",
                params: &[
                    p("model", "ModelArg", "The model to activate."),
                    p("dice", "integer", "How many dice to roll (1 to 3)."),
                ],
                returns: "ActivationResult",
                doc: "Roll an activation (§3.1): successes are actions, two or more failures a turnover.",
                usage: "local r = g:activate(orc, 2)",
            },
            Method {
                name: "move",
                params: &[
                    p("model", "ModelArg", "The model to move."),
                    p("to", "Point", "Where to go, in a straight line."),
                    po("opts", "MoveOptions", "`distance`: at most this far (default: a Medium move)."),
                ],
                returns: "MoveResult",
                doc: "Move straight toward a point; stops at contact with an enemy, a building, impassable \
                      terrain or the table edge.",
                usage: "local m = g:move(orc, { x = 12, y = 3 })",
            },
            Method {
                name: "melee",
                params: &[
                    p("attacker", "ModelArg", "The attacking model."),
                    p("defender", "ModelArg", "The model attacked; must be in contact."),
                    po("opts", "MeleeOptions", "Power Blow, Free Hack, Lethal, Ambush."),
                ],
                returns: "CombatResult",
                doc: "Resolve a melee attack (SUPPLEMENT §4) with the modifier hooks of both models.",
                usage: "local r = g:melee(orc, bram, { power_blow = true })",
            },
            Method {
                name: "shoot",
                params: &[
                    p("shooter", "ModelArg", "The model shooting."),
                    p("target", "ModelArg", "The model shot at; must be in sight and range."),
                    po("opts", "ShotOptions", "`aimed`."),
                ],
                returns: "CombatResult",
                doc: "Resolve a ranged attack (range bands, Cover, weapon break) with the modifier hooks.",
                usage: "local r = g:shoot(tobin, orc, { aimed = true })",
            },
            Method {
                name: "structural",
                params: &[
                    p("attacker", "ModelArg", "The model attacking the building; must be in contact."),
                    p("building", "Building|string", "The building or its name."),
                    po("opts", "StructuralOptions", "`power_blow`."),
                ],
                returns: "StructuralResult",
                doc: "Resolve a structural attack on a building.",
                usage: "local r = g:structural(orc, \"Town Hall\")",
            },
            Method {
                name: "building",
                params: &[p("name", "string", "The building's name.")],
                returns: "Building",
                doc: "A building by name; an error if there is none.",
                usage: "local th = g:building(\"Town Hall\")",
            },
            Method {
                name: "buildings",
                params: &[],
                returns: "Building[]",
                doc: "Every building, in table order.",
                usage: "for _, b in ipairs(g:buildings()) do print(b.name, b.integrity) end",
            },
            Method {
                name: "models",
                params: &[po("opts", "ModelFilter", "`side`: only this side.")],
                returns: "Model[]",
                doc: "The models on the table, in id order.",
                usage: "local heroes = g:models({ side = \"heroes\" })",
            },
            Method {
                name: "model",
                params: &[p("id", "integer", "A model id.")],
                returns: "Model|nil",
                doc: "The model with this id, or nil if it is not on the table.",
                usage: "local m = g:model(1)",
            },
            Method {
                name: "remove",
                params: &[
                    p("model", "ModelArg", "The model to take off the table."),
                    po("reason", "string", "Why, for the log (default \"removed\"; \"fled\" is not a defeat)."),
                ],
                returns: "",
                doc: "Take a model off the table.",
                usage: "g:remove(orc, \"fled\")",
            },
            Method {
                name: "log",
                params: &[po("last", "integer", "Only the last N events.")],
                returns: "LogEvent[]",
                doc: "The event log: every roll and result, oldest first.",
                usage: "local last = g:log(1)[1]",
            },
            Method {
                name: "log_json",
                params: &[],
                returns: "string",
                doc: "The whole event log as JSON (byte-identical for the same seed and inputs).",
                usage: "print(g:log_json())",
            },
            Method {
                name: "rules",
                params: &[],
                returns: "table<string, table<string, any>>",
                doc: "The rule constants in force (the rosters' with the variants applied), by section.",
                usage: "local pb = g:rules().melee.power_blow",
            },
            Method {
                name: "add_terrain",
                params: &[
                    p("kind", "string", "wood, hill, rocks, pond, field (an area), wall or hedge (a line)."),
                    p("points", "Point[]", "The area's corners (its convex hull), or a line's two ends."),
                ],
                returns: "",
                doc: "Add a piece of terrain (SUPPLEMENT §2) to the table, for scenarios.",
                usage: "g:add_terrain(\"wood\", { { 14, 29 }, { 16, 29 }, { 16, 31 }, { 14, 31 } })",
            },
            Method {
                name: "morale",
                params: &[
                    p("model", "ModelArg", "The model testing."),
                    p("trigger", "string", "\"terror\", \"gruesome_kill\", \"leader_defeated\" or \"half_lost\"."),
                ],
                returns: "MoraleCheck",
                doc: "A morale check (§3.6) with the model's morale hooks, applied.",
                usage: "local r = g:morale(orc, \"terror\")",
            },
            Method {
                name: "ignite",
                params: &[
                    p("model", "ModelArg", "An Igniter adjacent to the building."),
                    p("building", "Building|string", "An intact building."),
                ],
                returns: "",
                doc: "Place a fire token on an intact building (§6.4); a building holds one.",
                usage: "g:ignite(goblin, \"Forge\")",
            },
            Method {
                name: "barricade",
                params: &[p("a", "Point", "One end."), p("b", "Point", "The other end.")],
                returns: "integer",
                doc: "Place a Barricade (the roster's Integrity and Structure) between two points; its token id.",
                usage: "local b = g:barricade({ 10, 10 }, { 13, 10 })",
            },
            Method {
                name: "trap",
                params: &[
                    p("at", "Point", "Where the Trap lies."),
                    po("opts", "TrapOptions", "`entangle`: a snare that Entangles instead of attacking."),
                ],
                returns: "integer",
                doc: "Place a face-down Trap (§6.5); its token id.",
                usage: "g:trap({ 10, 30 })",
            },
            Method {
                name: "attack_barricade",
                params: &[
                    p("attacker", "ModelArg", "A model adjacent to the Barricade."),
                    p("token", "integer", "The Barricade's token id."),
                    po("opts", "StructuralOptions", "`power_blow`."),
                ],
                returns: "StructuralResult",
                doc: "A structural attack on a Barricade (its own Structure); removed at 0 Integrity.",
                usage: "g:attack_barricade(orc, b)",
            },
            Method {
                name: "activate_group",
                params: &[
                    p("leader", "ModelArg|nil", "The Leader, or nil for an Enemy Group."),
                    p("members", "ModelArg[]", "The other members."),
                    p("dice", "integer", "1 to 3."),
                ],
                returns: "ActivationResult",
                doc: "Group activation (§3.1): one roll at the worst Quality for up to five models.",
                usage: "g:activate_group(maren, { archer, rider }, 2)",
            },
            Method {
                name: "task",
                params: &[
                    p("model", "ModelArg", "The model working."),
                    p("name", "string", "The Task."),
                    p("needed", "integer", "Actions it takes in all."),
                    p("actions", "integer", "Actions spent now."),
                ],
                returns: "TaskProgress",
                doc: "Spend actions on a Task (§3.1); they accumulate until it completes or is lost.",
                usage: "local t = g:task(bram, \"break free\", 2, 1)",
            },
            Method {
                name: "concentrated",
                params: &[
                    p("shooters", "ModelArg[]", "Two or more Active shooters."),
                    p("target", "ModelArg", "The target all of them can shoot."),
                    po("opts", "ShotOptions", "`aimed`."),
                ],
                returns: "CombatResult",
                doc: "Concentrated Shooting (§3.5): the best shooter rolls, the target at −1 per extra shooter.",
                usage: "g:concentrated({ archer1, archer2 }, orc)",
            },
            Method {
                name: "damage",
                params: &[
                    p("building", "Building|string", "The building."),
                    p("amount", "integer", "Integrity to remove."),
                ],
                returns: "integer",
                doc: "Remove Integrity from a building (Destroyed at 0, its fire removed), for scenarios; the \
                      Integrity left.",
                usage: "g:damage(\"Forge\", 5)",
            },
            Method {
                name: "opportunity",
                params: &[p("at", "Point", "Where the token lies.")],
                returns: "integer",
                doc: "Place a face-down Opportunity token, for scenarios; its token id.",
                usage: "g:opportunity({ 30, 30 })",
            },
            Method {
                name: "council_info",
                params: &[],
                returns: "CouncilInfo",
                doc: "What a hero policy's `council(ctx, info)` is told now (§7.2): Supplies, Herb tokens, \
                      upgrade costs, the Council abilities in force, the Defeated heroes.",
                usage: "local info = g:council_info()",
            },
            Method {
                name: "council",
                params: &[po(
                    "orders",
                    "CouncilOrder[]",
                    "The orders, tried in turn; without them the game's hero policy decides.",
                )],
                returns: "CouncilReport[]",
                doc: "Hold a Council Phase (§7.2–7.3): once-per-Council uses start afresh, each order is \
                      validated, applied and logged (`council` event) or refused with its reason. A \
                      malformed order is an error.",
                usage: "local done = g:council({ { upgrade = \"Forge\" }, { repair = \"Town Hall\", supplies = 2 } })",
            },
            Method {
                name: "start_wave",
                params: &[],
                returns: "WavePlan",
                doc: "Start the next wave of the game's length (§5.1–5.3): build it with the default wave \
                      builder, deploy the heroes around the Town Hall and each Group along its edge.",
                usage: "local plan = g:start_wave()",
            },
            Method {
                name: "hero_turn",
                params: &[],
                returns: "HeroTurn[]",
                doc: "Play one hero turn (§6.1): heroes and Village Defenders in id order, dice and actions \
                      from the hero policy script; a turnover ends it.",
                usage: "for _, h in ipairs(g:hero_turn()) do print(h.model.name, h.actions) end",
            },
            Method {
                name: "enemy_turn",
                params: &[],
                returns: "GroupTurn[]",
                doc: "Play one enemy turn (§6.2): Groups in Behaviour play order, one roll each, every action \
                      ordered by the Behaviour scripts; a turnover ends it.",
                usage: "for _, t in ipairs(g:enemy_turn()) do print(t.behaviour, t.actions) end",
            },
            Method {
                name: "act",
                params: &[p("model", "ModelArg", "An enemy with a Behaviour.")],
                returns: "EnemyAction",
                doc: "One action of an enemy as its Behaviour orders it (§6.2): its script's `target` and `act`, \
                      executed by the kernel.",
                usage: "local a = g:act(orc)",
            },
            Method {
                name: "order",
                params: &[
                    p("model", "ModelArg", "The model that acts."),
                    p("order", "BehaviourOrder", "One order, as a Behaviour or the hero policy returns it."),
                ],
                returns: "EnemyAction",
                doc: "Execute one order for a model as the turn engine would (one action): the kernel \
                      validates it and errors with the reason when the rules refuse it (nothing applied).",
                usage: "local a = g:order(bram, { claim = g:opportunity({ 30, 30 }) })",
            },
            Method {
                name: "orders",
                params: &[
                    p("model", "ModelArg", "The model that acts."),
                    p("actions", "integer", "Actions it has (its activation's successes)."),
                    p("orders", "BehaviourOrder[]", "The orders it takes, in turn."),
                ],
                returns: "EnemyAction[]",
                doc: "Spend `actions` on `orders` as the turn engine does: each order costs what the rules and \
                      its scripts' `order_cost` say (a Power Blow two, a Called Shot one); an order needing \
                      more actions than are left, or one the rules refuse, loses an action with the reason; \
                      a Defenseless model not Engaged stands up first.",
                usage: "local done = g:orders(tobin, 2, { { shoot = orc, aimed = true }, { shoot = orc } })",
            },
            Method {
                name: "play_wave",
                params: &[],
                returns: "WaveSummary",
                doc: "Play the next wave of the game's length to its end, as `village play --auto` does: start \
                      it, hero turns by the hero policy and enemy turns by the Behaviours, then the End \
                      Sequence if it was won.",
                usage: "local s = g:play_wave(); print(s.outcome, s.rounds)",
            },
            Method {
                name: "end_wave",
                params: &[],
                returns: "",
                doc: "The End Sequence as far as it exists (§7.1): extinguish, fire damage, Supplies, Rewards \
                      (the wave-end Opportunity results).",
                usage: "g:end_wave()",
            },
            Method {
                name: "target",
                params: &[p("model", "ModelArg", "An enemy with a Behaviour.")],
                returns: "Model|Building|Position|string|nil",
                doc: "The target its Behaviour's script picks for it now (§6.3): a model, a building, a point, \
                      \"edge\", or nil.",
                usage: "local t = g:target(orc)",
            },
            Method {
                name: "heal",
                params: &[
                    p("healer", "ModelArg", "A Healer."),
                    p("target", "ModelArg", "An adjacent friend."),
                    p("what", "string", "\"wound\", or the condition to clear."),
                ],
                returns: "integer",
                doc: "A Healer's action (SUPPLEMENT §9) on an adjacent friend; returns the actions it costs.",
                usage: "local cost = g:heal(ilse, bram, \"wound\")",
            },
            Method {
                name: "add_condition",
                params: &[p("model", "ModelArg", "The model."), p("condition", "Condition", "The condition.")],
                returns: "",
                doc: "Give a model a condition, for scenarios.",
                usage: "g:add_condition(orc, \"defenseless\")",
            },
            Method {
                name: "cast",
                params: &[
                    p("caster", "ModelArg", "A Spell-caster that knows the spell."),
                    p("spell", "string", "The spell's name in rosters/spells.toml (\"Transfix\")."),
                    p(
                        "power",
                        "integer",
                        "Power 1 to 3 (the actions spent; Short/Medium/Long range). For a Ritual, the \
                         actions spent on its Task now.",
                    ),
                    p("target", "ModelArg|nil", "The model targeted, or nil (a Wall, a Summoning)."),
                    po("opts", "CastOptions", "What the spell's script needs: `what` to heal, a wall's `from`/`to`, `at`."),
                ],
                returns: "CastResult",
                doc: "Cast a spell (§3.7): the kernel checks that the caster knows it, is not out of power nor \
                      Engaged, and sees the target within the Power's range; a Ritual's actions go to its Task \
                      first. Then the spell's script (its `script` in rosters/spells.toml) runs \
                      `cast(ctx, caster, power, target, opts)` with the spell primitives on `ctx`. An illegal \
                      cast or a failing script is an error, and the game is left as it was.",
                usage: "local r = g:cast(ilse, \"Transfix\", 2, orc)",
            },
            Method {
                name: "distance",
                params: &[p("a", "ModelArg", "A model."), p("b", "ModelArg", "Another model.")],
                returns: "number",
                doc: "The gap between two bases, edge to edge, in inches (0 in contact).",
                usage: "if g:distance(orc, bram) <= 0.05 then g:melee(orc, bram) end",
            },
        ],
    },
    Class {
        name: "Model",
        kind: ClassKind::Handle,
        doc: "A handle to a model of a game, resolved on every use: once the model is off the table, only \
              `id`, `name` and `defeated` answer and other fields are an error. Handles compare with `==`.",
        usage: "local orc = g:place(\"Orc Warrior\", { x = 3, y = 3 })",
        fields: MODEL_FIELD_SPECS,
        methods: MODEL_METHODS,
    },
    Class {
        name: "Building",
        kind: ClassKind::Handle,
        doc: "A handle to a building of a game, resolved on every use. Handles compare with `==`.",
        usage: "local th = g:building(\"Town Hall\")",
        fields: BUILDING_FIELD_SPECS,
        methods: &[],
    },
    Class {
        name: "Position",
        kind: ClassKind::Table,
        doc: "A point on the table, in inches from the south-west corner.",
        usage: "local p = orc.pos",
        fields: &[f("x", "number", "West to east."), f("y", "number", "South to north.")],
        methods: &[],
    },
    Class {
        name: "Size",
        kind: ClassKind::Table,
        doc: "A footprint's size, in inches.",
        usage: "local w = th.size.w",
        fields: &[f("w", "number", "Width, west to east."), f("h", "number", "Height, south to north.")],
        methods: &[],
    },
    Class {
        name: "ModelFilter",
        kind: ClassKind::Table,
        doc: "Which models to list.",
        usage: "g:models({ side = \"enemies\" })",
        fields: &[opt("side", "Side", "Only this side.")],
        methods: &[],
    },
    Class {
        name: "MoveOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:move`; an unknown key is an error.",
        usage: "g:move(orc, th.pos, { distance = 3 })",
        fields: &[
            opt("distance", "number", "Move at most this far, in inches (default: the model's band)."),
            opt("step", "boolean", "The one-base-width step (§3.3)."),
        ],
        methods: &[],
    },
    Class {
        name: "MeleeOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:melee`; an unknown key is an error.",
        usage: "g:melee(orc, bram, { power_blow = true })",
        fields: &[
            opt("power_blow", "boolean", "A Power Blow (two actions): the defender takes the penalty."),
            opt("free_hack", "boolean", "A Free Hack: the defender can stop the attacker but not hurt it."),
            opt("lethal", "boolean", "The attack is Lethal."),
            opt("ambush", "boolean", "The attacker Ambushes."),
        ],
        methods: &[],
    },
    Class {
        name: "ShotOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:shoot`; an unknown key is an error.",
        usage: "g:shoot(tobin, orc, { aimed = true })",
        fields: &[opt("aimed", "boolean", "An aimed shot.")],
        methods: &[],
    },
    Class {
        name: "StructuralOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:structural`; an unknown key is an error.",
        usage: "g:structural(orc, th, { power_blow = true })",
        fields: &[opt("power_blow", "boolean", "A Power Blow.")],
        methods: &[],
    },
    Class {
        name: "ActivationResult",
        kind: ClassKind::Table,
        doc: "What `g:activate` rolled.",
        usage: "local r = g:activate(orc, 2)",
        fields: &[
            f("dice", "integer[]", "The faces rolled, in order."),
            f("successes", "integer", "Actions gained."),
            f("failures", "integer", "Dice failed."),
            f("turnover", "boolean", "Two or more failures: the turn passes."),
        ],
        methods: &[],
    },
    Class {
        name: "BehaviourOrder",
        kind: ClassKind::Table,
        doc: "What a Behaviour's `act` (or the hero policy's `act`) returns: one of its keys.",
        usage: "return { move = target }",
        fields: &[
            opt("melee", "ModelSnapshot", "Attack this adjacent enemy."),
            opt(
                "power_blow",
                "boolean",
                "With `melee`: a two-action Power Blow (the opponent takes the Power Blow modifier).",
            ),
            opt("shoot", "ModelSnapshot", "Shoot this enemy."),
            opt(
                "aimed",
                "boolean",
                "With `shoot`: a two-action Aimed Shot (the target takes the Aimed Shot modifier).",
            ),
            opt("structural", "BuildingSnapshot|string", "Attack this adjacent building."),
            opt("ignite", "BuildingSnapshot|string", "Set this adjacent building on fire."),
            opt("move", "ModelSnapshot|BuildingSnapshot|Position|EdgeAim", "Move toward it (one leg)."),
            opt(
                "within",
                "number",
                "With `move`: stop where the route has this many inches left to reach it (close in without contact).",
            ),
            opt("leave", "boolean", "Leave by the nearest edge."),
            opt(
                "claim",
                "Token|integer",
                "Heroes only (the hero policy): claim this Opportunity token in base contact (§6.1).",
            ),
            opt(
                "use",
                "string",
                "Heroes only (the hero policy): use the item it carries by this name (\"Potion of Healing\").",
            ),
            opt(
                "heal",
                "ModelSnapshot",
                "A Healer heals this adjacent friend (SUPPLEMENT §9): a Wound (a Task of `actions.heal_wound`) \
                 or, with `what`, one condition.",
            ),
            opt(
                "what",
                "\"wound\"|Condition",
                "With `heal`: what to heal (default: a Wound if it has one, else its first condition).",
            ),
            opt(
                "ability",
                "string",
                "A scripted action of the model (an `actions` entry of its trait, signature or Alpha Rule: \
                 \"Field Repairs\"); its `can` may refuse it, a Task gains one action.",
            ),
            opt(
                "target",
                "ModelSnapshot|BuildingSnapshot|string|Token|Position",
                "With `ability`: what the action aims at (a building may be given by name).",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "WavePlan",
        kind: ClassKind::Table,
        doc: "A wave as the wave builder made it (§5.2).",
        usage: "local plan = g:start_wave()",
        fields: &[
            f("escalation", "string", "\"I\" to \"VII\"."),
            f("budget", "integer", "Wave Points to spend."),
            f("spent", "integer", "Wave Points spent."),
            opt("behaviour", "string", "The one Behaviour of the whole wave before Escalation III."),
            f("groups", "GroupPlanT[]", "The Enemy Groups, in creation order."),
            opt("unmet", "string[]", "§5.2 limits the budget made impossible (absent when none)."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilOrder",
        kind: ClassKind::Table,
        doc: "One order of a Council Phase (§7.2–7.3): exactly one of `upgrade`, `repair`, `barricade`, \
              `trap`, `heal`, `herb`, `resurrect`, with only that order's other keys. Buildings and heroes \
              are names or snapshots. The kernel refuses (and logs why) what the rules or the Supplies do \
              not allow.",
        usage: "return { { upgrade = \"Forge\" }, { barricade = { x = 10, y = 12 }, toward = { x = 13, y = 12 } } }",
        fields: &[
            opt("upgrade", "string|BuildingSnapshot", "Raise this building one Level (I → II → III) for its roster cost."),
            opt("level", "integer", "With `upgrade`: the Level wanted, which must be the next one."),
            opt("repair", "string|BuildingSnapshot", "Restore this building's Integrity (never above its starting Integrity)."),
            opt("supplies", "integer", "With `repair`: Supplies to spend on the Forge's Repairs (default: one purchase)."),
            opt("free", "boolean", "With `repair` or `barricade`: use the Town Hall II Engineering Corps (once per Council) instead of Supplies and the Forge. With `trap`: one of the free Traps a model's `on_council` granted this Council (`info.grants`), placed as the grant says."),
            opt("barricade", "Position", "Place a Barricade from here (within `barricade_within` of an intact building)."),
            opt("toward", "Position", "With `barricade`: the direction it runs, for its roster length."),
            opt("reinforce", "boolean", "With `barricade`: Forge III Reinforced Defenses adds its Integrity (once per Council)."),
            opt("trap", "Position", "Place a Trap here (within `trap_within` of an intact building)."),
            opt("heal", "string|ModelSnapshot", "Temple I Healing (once per Council) on this hero on the table."),
            opt("herb", "string|ModelSnapshot", "Spend a Herb token on this hero on the table."),
            opt("resurrect", "string", "Temple III Resurrection (once per game) of this Defeated hero of the party."),
            opt("at", "Position", "With `resurrect`: where it returns, wholly within reach of the Temple (default: the nearest legal spot)."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilReport",
        kind: ClassKind::Table,
        doc: "What one Council order did, as its `council` event says.",
        usage: "for _, r in ipairs(g:council(orders)) do print(r.what, r.refused) end",
        fields: &[
            f("what", "string", "\"upgrade\", \"repair\", \"barricade\", \"trap\", \"heal\", \"herb\" or \"resurrect\"."),
            opt("building", "string", "The building upgraded or repaired."),
            opt("hero", "string", "The hero healed or resurrected."),
            opt("pos", "Position", "Where a Barricade, Trap or resurrected hero was put (or asked for)."),
            opt("token", "integer", "The Barricade or Trap placed."),
            f("supplies", "integer", "Supplies paid."),
            f("source", "string", "The ability used (\"Forge II Master Craftsmen\"), or \"Council\"."),
            f("detail", "string", "The result in words (\"Integrity 3 -> 5\"), or \"refused\"."),
            opt("refused", "string", "Why nothing happened."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilInfo",
        kind: ClassKind::Table,
        doc: "What a hero policy's `council(ctx, info)` is told at the start of a Council Phase.",
        usage: "local info = g:council_info()",
        fields: &[
            f("wave", "integer", "The wave just ended."),
            f("supplies", "integer", "The village's Supplies."),
            f("herbs", "integer", "Herb tokens held."),
            f("buildings", "CouncilBuildingT[]", "Every building, in roster order."),
            f("abilities", "CouncilAbilityT[]", "The Council abilities in force (Level reached, building intact)."),
            f("defeated", "string[]", "Heroes of the party that were Defeated (Fled ones rejoin at the next wave)."),
            f("edges", "integer[]", "The spawn edges of the wave just ended (1 north, 2 east, 3 south, 4 west)."),
            f("barricade_cost", "integer", "Supplies per Barricade."),
            f("barricade_length", "number", "A Barricade's length, inches."),
            f("barricade_within", "number", "A Barricade goes within this of an intact building."),
            f("trap_cost", "integer", "Supplies per Trap."),
            f("trap_within", "number", "A Trap goes within this of an intact building."),
            f("grants", "CouncilGrantT[]", "Free Council orders the models' `on_council` granted for this Council (Grimm's free Trap)."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilGrantT",
        kind: ClassKind::Table,
        doc: "A free Council order a model's `on_council` granted for this Council; ordered `{ trap = at, free = true }`.",
        usage: "for _, g in ipairs(info.grants) do if g.order == \"trap\" and g.used < g.uses then print(g.hero) end end",
        fields: &[
            f("model", "integer", "The id of the model whose script granted it."),
            f("hero", "string", "That model's name."),
            f("order", "string", "The order it makes free: \"trap\"."),
            f("uses", "integer", "How many such orders are free this Council."),
            f("used", "integer", "How many were placed."),
            f("entangle", "boolean", "A Trap placed with it Entangles instead of attacking."),
            f("reason", "string", "For the log (\"Snare Master\")."),
            f("source", "string", "The script that granted it."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilGrantAnswer",
        kind: ClassKind::Table,
        doc: "What `on_council` may return (one, or an array): Council orders made free for this Council.",
        usage: "return { free = \"trap\", uses = 1, entangle = true, reason = \"Snare Master\" }",
        fields: &[
            f("free", "\"trap\"", "The Council order made free."),
            opt("uses", "integer", "How many (1 to 10; default 1)."),
            opt("entangle", "boolean", "A Trap placed with it Entangles the model that springs it instead of attacking."),
            opt("reason", "string", "For the log (default: the script's file name)."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilBuildingT",
        kind: ClassKind::Table,
        doc: "A building as the Council sees it.",
        usage: "for _, b in ipairs(info.buildings) do print(b.name, b.upgrade_cost) end",
        fields: &[
            f("name", "string", "The building."),
            f("level", "integer", "1 to 3."),
            f("integrity", "integer", "Current Integrity."),
            f("max_integrity", "integer", "Starting Integrity: repairs stop there."),
            f("destroyed", "boolean", "Destroyed: no repair, no upgrade."),
            opt("upgrade_cost", "integer", "Supplies for the next Level (absent at the top or when Destroyed)."),
        ],
        methods: &[],
    },
    Class {
        name: "CouncilAbilityT",
        kind: ClassKind::Table,
        doc: "A Council ability in force (rosters/village.toml).",
        usage: "for _, a in ipairs(info.abilities) do print(a.name, a.used) end",
        fields: &[
            f("building", "string", "Its building."),
            f("level", "integer", "The Level that grants it."),
            f("name", "string", "\"Repairs\", \"Engineering Corps\", \"Healing\", ..."),
            f("params", "table<string, any>", "Its numbers, from the roster."),
            f("used", "boolean", "Its limited use is spent (this Council, or this game)."),
        ],
        methods: &[],
    },
    Class {
        name: "GroupPlanT",
        kind: ClassKind::Table,
        doc: "One Enemy Group of a wave plan.",
        usage: "for _, gp in ipairs(plan.groups) do print(gp.number, gp.behaviour) end",
        fields: &[
            f("number", "integer", "In creation order, from 1."),
            f("models", "string[]", "A profile name per model (a leader first)."),
            f("behaviour", "string", "The Group's Behaviour."),
            f("rolled", "integer", "The size the D6 gave."),
            f("cost", "integer", "Its Wave Points."),
            f("edge", "integer", "Its spawn edge: 1 north, 2 east, 3 south, 4 west."),
            f("igniters", "boolean", "It may set buildings on fire."),
        ],
        methods: &[],
    },
    Class {
        name: "HeroTurn",
        kind: ClassKind::Table,
        doc: "What one model of the heroes' side did in `g:hero_turn`.",
        usage: "local turns = g:hero_turn()",
        fields: &[
            f("model", "Model", "Who activated."),
            f("actions", "integer", "Actions its roll gave."),
            f("turnover", "boolean", "Its roll ended the hero turn."),
            f("done", "EnemyAction[]", "Each action, in order."),
        ],
        methods: &[],
    },
    Class {
        name: "GroupTurn",
        kind: ClassKind::Table,
        doc: "What one Enemy Group did in `g:enemy_turn`.",
        usage: "local turns = g:enemy_turn()",
        fields: &[
            opt("group", "integer", "Its Group number."),
            opt("behaviour", "string", "Its Behaviour."),
            f("actions", "integer", "Actions each model had."),
            f("turnover", "boolean", "Its roll ended the enemy turn."),
            f("done", "EnemyAction[]", "Each action, in order, with `model` set."),
        ],
        methods: &[],
    },
    Class {
        name: "EnemyAction",
        kind: ClassKind::Table,
        doc: "What `g:act` or `g:order` did.",
        usage: "local attacked = g:act(orc).did == \"structural\"",
        fields: &[
            f(
                "did",
                "string",
                "\"lost\", \"melee\", \"shoot\", \"structural\", \"ignite\", \"moved\", \"left\", \"claimed\", \
                 \"used\", \"healed\", \"ability\" (a scripted action) or \"stood_up\" (a Defenseless \
                 model not Engaged spends its first action standing up).",
            ),
            opt("why", "string", "Why the action was lost."),
            opt("token", "integer", "The Opportunity token claimed."),
            opt("roll", "integer", "The Opportunity die of a claim."),
            opt("opportunity", "string", "The Opportunity result claimed (\"Relic Blade\")."),
            opt("item", "string", "The item used."),
            opt("name", "string", "The scripted action taken (\"Field Repairs\")."),
            opt("source", "string", "The script defining the scripted action."),
            opt("done", "integer", "Actions spent so far on a scripted action's Task."),
            opt("needed", "integer", "Actions a scripted action's Task needs."),
            opt("target", "integer", "The id of the friend a Healer worked on."),
            opt(
                "complete",
                "boolean",
                "A claim, use, healing or scripted action is done (false while a multi-action one is \
                 under way).",
            ),
            opt("result", "CombatOutcome", "A melee's or shot's result."),
            opt("building", "string", "The building attacked or set on fire."),
            opt("damage", "integer", "Integrity a structural attack removed."),
            opt("to", "Position", "Where a move ended."),
            opt("travelled", "number", "Inches moved."),
            opt("model", "Model", "Who acted (in `g:enemy_turn`)."),
        ],
        methods: &[],
    },
    Class {
        name: "EdgeAim",
        kind: ClassKind::Table,
        doc: "What a Behaviour's `target` returns to send its model off the nearest table edge.",
        usage: "return { edge = true }",
        fields: &[f("edge", "boolean", "true.")],
        methods: &[],
    },
    Class {
        name: "DeployStep",
        kind: ClassKind::Table,
        doc: "What the hero policy's `deploy(ctx, step)` is asked at one step of the start of a wave (core \
              §5.3): step 1 (\"abilities\", before anyone deploys) or step 4 (\"ready_mounts\", after both \
              sides deploy).",
        usage: "deploy = function(ctx, step) if step.step == \"abilities\" then return nil end end",
        fields: &[
            f("step", "\"abilities\"|\"ready_mounts\"", "The step of §5.3."),
            f(
                "asks",
                "string[]",
                "The choices the kernel reads at this step: \"warhorse\" (Stable II), \"ready_mounts\" (Stable I).",
            ),
            opt(
                "edges",
                "integer[]",
                "The Groups' spawn edges (1 N, 2 E, 3 S, 4 W, in Group order) once revealed: at step 4, \
                 or already at step 1 with Watchtower III.",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "DeployChoices",
        kind: ClassKind::Table,
        doc: "What the hero policy's `deploy` returns; a key is read only at its step, an unknown key is an \
              error naming the file. The kernel checks each choice and refuses a bad one with a reason (a \
              `refused` event); the wave goes on.",
        usage: "return { warhorse = hero }",
        fields: &[
            opt("warhorse", "ModelSnapshot|integer", "Stable II: the hero that has Long Move for this wave."),
            opt("ready_mounts", "ReadyMountsChoice", "Stable I: a hero to move up to Short."),
        ],
        methods: &[],
    },
    Class {
        name: "ReadyMountsChoice",
        kind: ClassKind::Table,
        doc: "Stable I Ready Mounts: a hero and where it goes — at most Short away, not an action, never \
              ending in contact with an enemy.",
        usage: "return { ready_mounts = { hero = h, to = { x = 18, y = 12 } } }",
        fields: &[
            f("hero", "ModelSnapshot|integer", "The hero to move."),
            f("to", "Position", "Where to move it (a straight move, stopped as any move is)."),
        ],
        methods: &[],
    },
    Class {
        name: "WaveAsk",
        kind: ClassKind::Table,
        doc: "What a variant's `build_wave(ctx, ask)` is asked to build (SUPPLEMENT §10).",
        usage: "build_wave = function(ctx, ask) return { { models = { \"Zombie\" }, behaviour = \"Mindless\", edge = 1 } } end",
        fields: &[
            f("wave", "integer", "The wave number, from 1."),
            f("escalation", "string", "The wave's Escalation, \"I\" to \"VII\"."),
            f("limits", "table", "The Escalation row of rosters/escalation.toml (budget_percent, mobs_only, ...)."),
            f("budget", "integer", "Wave Points the Groups may cost in all (roster Wave Points)."),
            f("heroes", "integer", "The party's size."),
            f("edges", "integer", "How many spawn edges the table has (1 north, clockwise)."),
            f("enemies", "EnemyProfile[]", "Every enemy profile of the rosters, in roster order."),
        ],
        methods: &[],
    },
    Class {
        name: "EnemyProfile",
        kind: ClassKind::Table,
        doc: "An enemy profile as a wave builder sees it.",
        usage: "for _, p in ipairs(ask.enemies) do print(p.name, p.cost) end",
        fields: &[
            f("name", "string", "The profile's name."),
            f("tier", "Tier", "mob, elite or boss."),
            f("cost", "integer", "Its Wave Points."),
            f("behaviours", "string[]", "The Behaviours it lists (a Group must use one of them)."),
            f("traits", "string[]", "Its traits."),
            f("igniter", "boolean", "It may set buildings on fire from Escalation II."),
        ],
        methods: &[],
    },
    Class {
        name: "WaveGroup",
        kind: ClassKind::Table,
        doc: "One Enemy Group a wave builder returns. The kernel checks that every profile is an enemy that \
              lists the Behaviour, the Group holds 1 to 5 models, the edge is 1 to 4 and the wave stays within \
              the budget; an error names the builder's file.",
        usage: "return { { models = { \"Orc Warrior\", \"Orc Warrior\" }, behaviour = \"Ravager\", edge = 2 } }",
        fields: &[
            f("models", "string[]", "A profile name per model, leader first."),
            f("behaviour", "string", "The Behaviour the Group follows."),
            f("edge", "integer", "Its spawn edge: 1 north, 2 east, 3 south, 4 west."),
        ],
        methods: &[],
    },
    Class {
        name: "PlaceOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:place`; an unknown key is an error.",
        usage: "g:place(\"Orc Warrior\", { 3, 3 }, { behaviour = \"Hunter\", group = 1 })",
        fields: &[
            opt("behaviour", "string", "One of the profile's Behaviours (default: its first)."),
            opt("group", "integer", "Its Enemy Group number."),
        ],
        methods: &[],
    },
    Class {
        name: "WaveSummary",
        kind: ClassKind::Table,
        doc: "One wave as `g:play_wave` played it.",
        usage: "local s = g:play_wave()",
        fields: &[
            f("wave", "integer", "The wave number."),
            f("escalation", "string", "Its Escalation."),
            f("enemies", "integer", "Enemies deployed."),
            f("rounds", "integer", "Rounds played."),
            f("outcome", "string", "\"win\", \"loss\" or \"stalled\"."),
            f("integrity", "(string|integer)[][]", "Each building's `{ name, Integrity }` at the end."),
            f("supplies", "integer", "Supplies at the end."),
            f("wounds", "(string|integer)[][]", "Each hero's `{ name, Wounds }` at the end."),
            f("defeated", "string[]", "Heroes no longer on the table (filled by a whole game)."),
            f("claimed", "string[][]", "Opportunities claimed in the wave: `{ hero, result }`, in order."),
            f(
                "council",
                "string[]",
                "What the Council Phase after the wave bought, one clause per accepted order.",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "OpportunityInfo",
        kind: ClassKind::Table,
        doc: "The result an Opportunity script resolves (its `claim`'s and `wave_end`'s last argument).",
        usage: "claim = function(ctx, hero, params, opp) print(opp.name, opp.roll) end",
        fields: &[
            f("roll", "integer", "The Opportunity die."),
            f("name", "string", "The row's name (\"Ambush\")."),
            f("timing", "string", "The entry point running: \"claim\" or \"wave_end\"."),
            opt("token", "Token", "The claimed token, where it lay (in `claim`; it is already removed)."),
        ],
        methods: &[],
    },
    Class {
        name: "ItemInfo",
        kind: ClassKind::Table,
        doc: "The item an item's `use` resolves.",
        usage: "use = function(ctx, hero, params, item) print(item.name) end",
        fields: &[f("name", "string", "The item's name.")],
        methods: &[],
    },
    Class {
        name: "Token",
        kind: ClassKind::Table,
        doc: "A token on the table, as `ctx:tokens` lists it.",
        usage: "for _, t in ipairs(ctx:tokens()) do print(t.kind, t.x, t.y) end",
        fields: &[
            f("id", "integer", "The token's id."),
            f("kind", "string", "\"opportunity\", \"barricade\" or \"trap\"."),
            f("x", "number", "Where it lies."),
            f("y", "number", "Where it lies."),
        ],
        methods: &[],
    },
    Class {
        name: "TrapOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:trap`; an unknown key is an error.",
        usage: "g:trap({ 10, 20 }, { entangle = true })",
        fields: &[opt("entangle", "boolean", "A snare: Entangles instead of attacking.")],
        methods: &[],
    },
    Class {
        name: "CastOptions",
        kind: ClassKind::Table,
        doc: "Options of `g:cast`, handed to the spell's script as `opts`; an unknown key is an error.",
        usage: "g:cast(ilse, \"Heal\", 1, bram, { what = \"wound\" })",
        fields: &[
            opt("what", "\"wound\"|Condition", "What a healing spell removes (default: the script's choice)."),
            opt("from", "Point", "Where a Wall starts."),
            opt("to", "Point", "Which way a Wall runs (it takes the spell's length)."),
            opt("at", "Point", "Where a Summoning places its model."),
        ],
        methods: &[],
    },
    Class {
        name: "CastResult",
        kind: ClassKind::Table,
        doc: "What `g:cast` did.",
        usage: "local held = g:cast(ilse, \"Transfix\", 2, orc).result",
        fields: &[
            f("spell", "string", "The spell cast."),
            f("power", "integer", "The Power (for a Ritual, the actions spent now)."),
            f("source", "string", "The spell's script, as the log names it (\"scripts/spells/transfix.lua\")."),
            f("complete", "boolean", "The effect happened (false while a Ritual's Task is under way)."),
            opt("task", "TaskProgress", "A Ritual's Task after this call."),
            opt("result", "any", "What the script's `cast` returned (Transfix: held; Fireball: its CombatResult)."),
        ],
        methods: &[],
    },
    Class {
        name: "MoraleCheck",
        kind: ClassKind::Table,
        doc: "What `g:morale` did.",
        usage: "local fled = g:morale(orc, \"terror\").result == \"fled\"",
        fields: &[
            f("dice", "integer[]", "The three dice (none when immune)."),
            f("failures", "integer", "Failed dice."),
            f(
                "result",
                "string",
                "\"immune\", \"steady\", \"fell_back\", \"stood_up\", \"fled\" or \"defeated\".",
            ),
            f("moved", "number", "Inches fallen back."),
        ],
        methods: &[],
    },
    Class {
        name: "TaskProgress",
        kind: ClassKind::Table,
        doc: "A Task after `g:task`.",
        usage: "local done = g:task(bram, \"repairs\", 2, 1).complete",
        fields: &[
            f("name", "string", "The Task."),
            f("done", "integer", "Actions spent so far."),
            f("needed", "integer", "Actions it takes."),
            f("complete", "boolean", "Done."),
        ],
        methods: &[],
    },
    Class {
        name: "MoveResult",
        kind: ClassKind::Table,
        doc: "Where `g:move` ended and why.",
        usage: "local m = g:move(orc, { x = 12, y = 3 })",
        fields: &[
            f("to", "Position", "Where the model stands now."),
            f("travelled", "number", "Inches moved."),
            opt(
                "stopped_by",
                "Model|Building|string",
                "What stopped it early: a model, a building, a terrain kind, \"table edge\" or \"trap\".",
            ),
            f("actions", "integer", "Actions it costs (2 for a Short move crossing difficult ground)."),
            opt("band_lost", "string", "Why it lost a band (difficult terrain, an obstacle)."),
            f("free_hacks", "Model[]", "Enemies that made a Free Hack as it left melee."),
        ],
        methods: &[],
    },
    Class {
        name: "CombatResult",
        kind: ClassKind::Table,
        doc: "What a melee or ranged attack rolled and did.",
        usage: "local r = g:melee(orc, bram)",
        fields: &[
            f("kind", "RollKind", "\"melee\" or \"ranged\"."),
            f("result", "CombatOutcome", "What happened to the loser (Tough, room to recoil applied)."),
            f("table_result", "CombatOutcome", "The result read from the combat table."),
            f("attacker_die", "integer", "The attacker's die."),
            f("defender_die", "integer", "The defender's die."),
            f("attacker_total", "integer", "The attacker's total, modifiers included."),
            f("defender_total", "integer", "The defender's total, modifiers included."),
            f("modifiers", "AppliedModifier[]", "Every modifier applied, with its source."),
            opt("winner", "Model", "The winner, unless a tie."),
            opt("loser", "Model", "The loser, unless a tie (it may be off the table now)."),
        ],
        methods: &[],
    },
    Class {
        name: "StructuralResult",
        kind: ClassKind::Table,
        doc: "What a structural attack rolled and did.",
        usage: "local r = g:structural(orc, \"Town Hall\")",
        fields: &[
            f("attacker_die", "integer", "The attacker's die."),
            f("building_die", "integer", "The building's die."),
            f("attacker_total", "integer", "The attacker's total."),
            f("building_total", "integer", "The building's total."),
            f("damage", "integer", "Integrity lost."),
            f("integrity", "integer", "Integrity left."),
            f("destroyed", "boolean", "The building is destroyed."),
            f("modifiers", "AppliedModifier[]", "Every modifier applied, with its source."),
        ],
        methods: &[],
    },
    Class {
        name: "AppliedModifier",
        kind: ClassKind::Table,
        doc: "A modifier as applied and logged.",
        usage: "local m = r.modifiers[1]",
        fields: &[
            f("to", "Role", "Whose total it changed."),
            f("value", "integer", "By how much."),
            f("reason", "string", "Why (\"power blow\", or the hook's reason)."),
            f("source", "string", "\"rules\", or the script file that added it."),
        ],
        methods: &[],
    },
    Class {
        name: "LogEvent",
        kind: ClassKind::Table,
        doc: "One event of the log; the other keys depend on `event`.",
        usage: "for _, e in ipairs(g:log()) do print(e.seq, e.event) end",
        fields: &[
            f("seq", "integer", "Position in the log."),
            f("event", "string", "What happened: \"roll\", \"activation\", \"moved\", \"combat\", ..."),
            f("[string]", "any", "The event's data."),
        ],
        methods: &[],
    },
    Class {
        name: "Ctx",
        kind: ClassKind::Handle,
        doc: "The view of the game a hook receives. It lives only for the call: keep what you read, not the \
              ctx. It is read-only in modifier and rule hooks; `on_result` and `on_charge` may roll dice and \
              ask for changes; a spell's `cast` may also call the spell primitives, which the kernel checks \
              against the casting and applies at once.",
        usage: "melee_modifier = function(ctx, self, roll) if ctx.wave >= 3 then return 1 end end",
        fields: &[
            f("round", "integer", "The current round."),
            f("wave", "integer", "The current wave."),
            f("supplies", "integer", "The village's Supplies."),
            f(
                "igniters_burn",
                "boolean",
                "Whether Igniters may place fire in this wave (from Escalation II; true outside waves).",
            ),
            opt(
                "params",
                "table<string, any>",
                "The `params` of the roster entry that names this script (a trait's, a signature's ...).",
            ),
        ],
        methods: &[
            Method {
                name: "model",
                params: &[p("id", "integer", "A model id.")],
                returns: "ModelSnapshot|nil",
                doc: "A snapshot of the model with this id, or nil.",
                usage: "local m = ctx:model(roll.attacker.id)",
            },
            Method {
                name: "models",
                params: &[po("opts", "ModelFilter", "`side`: only this side.")],
                returns: "ModelSnapshot[]",
                doc: "Snapshots of the models on the table, in id order.",
                usage: "local foes = ctx:models({ side = \"enemies\" })",
            },
            Method {
                name: "building",
                params: &[p("name", "string", "The building's name.")],
                returns: "BuildingSnapshot|nil",
                doc: "A snapshot of the building, or nil.",
                usage: "local th = ctx:building(\"Town Hall\")",
            },
            Method {
                name: "distance",
                params: &[p("a", "ModelSnapshot", "A model."), p("b", "ModelSnapshot", "Another model.")],
                returns: "number",
                doc: "The gap between two bases, edge to edge, in inches (0 in contact).",
                usage: "if ctx:distance(self, roll.target) < 1 then return 1 end",
            },
            Method {
                name: "rule",
                params: &[
                    p("section", "string", "A section of rosters/rules.toml (\"melee\")."),
                    p("key", "string", "A constant of that section (\"power_blow\")."),
                ],
                returns: "any",
                doc: "A rule constant in force (variants applied); an error if there is none.",
                usage: "local pb = ctx:rule(\"melee\", \"power_blow\")",
            },
            Method {
                name: "buildings",
                params: &[],
                returns: "BuildingSnapshot[]",
                doc: "Snapshots of every building, Destroyed ones included, in roster order (Town Hall first).",
                usage: "for _, b in ipairs(ctx:buildings()) do if b.town_hall then return b end end",
            },
            Method {
                name: "distance_to",
                params: &[
                    p("m", "ModelSnapshot", "A model."),
                    p("other", "ModelSnapshot|BuildingSnapshot|Position", "A model, a building or a point."),
                ],
                returns: "number",
                doc: "Edge-to-edge distance from a model to a model, a building's outline, a token from \
                      `ctx:tokens` (a Barricade's segment) or a point (inches).",
                usage: "local d = ctx:distance_to(self, ctx:buildings()[1])",
            },
            Method {
                name: "tokens",
                params: &[po("kind", "string", "\"opportunity\", \"barricade\" or \"trap\" (default: all).")],
                returns: "Token[]",
                doc: "The tokens on the table, in id order.",
                usage: "local ops = ctx:tokens(\"opportunity\")",
            },
            Method {
                name: "permission",
                params: &[
                    p("m", "ModelSnapshot", "A model."),
                    p("name", "string", "A permission (\"ignite\", \"heal\", \"shoot\", \"lead\", ...)."),
                ],
                returns: "string|nil",
                doc: "The script that grants the model this permission (its traits', signature's, items' or a \
                      variant's `permissions`), or nil — what the kernel asks before letting it act. Not in a \
                      spell's `cast`.",
                usage: "if ctx:permission(self, \"ignite\") then return { ignite = building } end",
            },
            Method {
                name: "can_shoot",
                params: &[
                    p("shooter", "ModelSnapshot", "The model that would shoot."),
                    p("target", "ModelSnapshot", "The enemy it would shoot."),
                ],
                returns: "boolean",
                doc: "Whether the shooter may shoot the target now (§3.5: Shooter, weapon, not Engaged, target \
                      not Engaged, sight, range, the closest-target rule, Stealth), checked as a shot would be \
                      (`g:shoot` says why not). Rolls nothing. Not in a spell's `cast`.",
                usage: "if ctx:can_shoot(self, foe) then return { shoot = foe } end",
            },
            Method {
                name: "engaged",
                params: &[p("m", "ModelSnapshot", "A model.")],
                returns: "ModelSnapshot[]",
                doc: "The enemies in base contact with a model, in id order.",
                usage: "local extra = #ctx:engaged(self) - 1",
            },
            Method {
                name: "touching_terrain",
                params: &[
                    p("m", "ModelSnapshot", "A model."),
                    p("kinds", "string[]", "Terrain kinds (\"wood\", \"wall\", \"hedge\", ...)."),
                ],
                returns: "boolean",
                doc: "Whether the model's base touches a terrain piece of one of these kinds.",
                usage: "local hidden = ctx:touching_terrain(self, { \"wood\", \"wall\", \"hedge\" })",
            },
            Method {
                name: "roll",
                params: &[
                    p("n", "integer", "How many D6 (1 to 6)."),
                    po("purpose", "string", "What the roll is for, in the log (default: the script)."),
                ],
                returns: "integer[]",
                doc: "Roll dice from the game's stream, logged as an event. Only in `on_result` and `on_charge`.",
                usage: "if ctx:roll(1)[1] >= 5 then ctx:worsen_quality(win.opponent, 1, \"Poison\") end",
            },
            Method {
                name: "worsen_quality",
                params: &[
                    p("m", "ModelSnapshot", "The model."),
                    p("amount", "integer", "By how much (Quality grows: worse)."),
                    po("reason", "string", "For the log."),
                ],
                returns: "",
                doc: "Ask the kernel to worsen a model's Quality after the hook (at the Tough limit it is Defeated). \
                      Only in `on_result` and `on_charge`.",
                usage: "ctx:worsen_quality(win.opponent, 1, \"Poison\")",
            },
            Method {
                name: "add_condition",
                params: &[
                    p("m", "ModelSnapshot", "The model."),
                    p("condition", "Condition", "The condition."),
                    po("holder", "ModelSnapshot", "The model holding it (an Entangle ends when it Recoils or falls)."),
                ],
                returns: "",
                doc: "Ask the kernel to give a model a condition after the hook. Only in `on_result` and `on_charge`.",
                usage: "ctx:add_condition(win.opponent, \"entangled\", self)",
            },
            Method {
                name: "transfix",
                params: &[
                    p("target", "ModelSnapshot|integer", "The model (in range and sight)."),
                    p("power", "integer", "The Power the spell was cast at."),
                ],
                returns: "boolean",
                doc: "Spell primitive (a Resisted spell): the target rolls one Quality die per Power; any failure \
                      Transfixes it, held by the caster. True when it took hold. Only in a spell's `cast`.",
                usage: "local held = ctx:transfix(target, power)",
            },
            Method {
                name: "spell_attack",
                params: &[
                    p("target", "ModelSnapshot|integer", "An enemy model (in range and sight, closest, not Engaged)."),
                    p("power", "integer", "The Power the spell was cast at: its Combat."),
                ],
                returns: "CombatResult",
                doc: "Spell primitive (an attack spell): a ranged attack with Combat equal to the Power, with both \
                      models' modifier hooks. Only in a spell's `cast`.",
                usage: "local r = ctx:spell_attack(target, power)",
            },
            Method {
                name: "heal",
                params: &[
                    p("target", "ModelSnapshot|integer", "A living model in range and sight."),
                    p("what", "\"wound\"|Condition", "A Wound, or the condition to clear."),
                ],
                returns: "string",
                doc: "Spell primitive (a healing spell): heal one Wound or clear one condition; an error on an \
                      Undead or Artificial model or when there is nothing of that kind. What was healed. In a \
                      spell's `cast`; in an item's `use` (a Potion) it is a reward the kernel applies after \
                      the script, to the hero using it only (returns what was asked).",
                usage: "ctx:heal(target, \"wound\")",
            },
            Method {
                name: "wall",
                params: &[
                    p("from", "Point", "Where the wall starts."),
                    p("to", "Point", "Which way it runs: it takes the spell's `wall.length`."),
                    p("power", "integer", "The Power the spell was cast at: both ends within its range."),
                ],
                returns: "integer",
                doc: "Spell primitive (a Wall spell): a linear obstacle with the roster's Integrity and Structure, \
                      held by the caster (it falls when the caster leaves). Its token id. Only in a spell's `cast`.",
                usage: "local token = ctx:wall(opts.from, opts.to, power)",
            },
            Method {
                name: "summon",
                params: &[
                    p("profile", "string", "A profile of the rosters (\"Skeleton Warrior\")."),
                    p("at", "Point", "Where its base stands: free ground."),
                    p("within", "\"short\"|\"medium\"|\"long\"", "How close to the caster it must stand."),
                ],
                returns: "ModelSnapshot",
                doc: "Spell primitive (a Summoning): a new model on the caster's side and in its Group, summoned by \
                      the caster so it vanishes when the caster leaves. Only in a spell's `cast`.",
                usage: "local sk = ctx:summon(ctx.params.profile, opts.at, ctx.params.within)",
            },
            Method {
                name: "dispel",
                params: &[p("target", "ModelSnapshot|integer", "A model in range and sight.")],
                returns: "string|nil",
                doc: "Spell primitive (a dispel): remove one Enchantment (a lasting effect of a spell of kind \
                      `enchantment`) from the model; what was removed, or nil. No supplied spell is an \
                      Enchantment and the kernel records none, so today it finds nothing. Only in a spell's `cast`.",
                usage: "local gone = ctx:dispel(target)",
            },
            Method {
                name: "add_supplies",
                params: &[p("n", "integer", "Supplies to add (1 or more).")],
                returns: "",
                doc: "Reward primitive: the village gains Supplies (logged `supplies_gained`, this script the \
                      source). Only in an Opportunity's `claim`/`wave_end` or an item's `use`; like every \
                      reward, applied by the kernel after the script returns, or not at all if one fails.",
                usage: "ctx:add_supplies(params.supplies)",
            },
            Method {
                name: "add_herbs",
                params: &[p("n", "integer", "Herb tokens to add (1 or more).")],
                returns: "",
                doc: "Reward primitive: the village gains Herb tokens (each heals 1 Wound in a Council Phase).",
                usage: "ctx:add_herbs(params.herbs)",
            },
            Method {
                name: "join",
                params: &[p("profile", "string", "A Village Defender profile (\"Village Archer\").")],
                returns: "",
                doc: "Reward primitive: a Village Defender of this profile joins at the next wave start.",
                usage: "ctx:join(params.profile)",
            },
            Method {
                name: "ambush",
                params: &[
                    p("profile", "string", "An enemy profile."),
                    p("count", "integer", "How many."),
                    p("behaviour", "string", "The Behaviour they play."),
                    p("within", "string", "How far from the token: \"short\", \"medium\" or \"long\"."),
                ],
                returns: "",
                doc: "Reward primitive: enemies deploy wholly within the measure of the claimed token, outside \
                      contact, as a new numbered Enemy Group joining the wave (nearest spots first; fewer when \
                      the ground is crowded). Only in an Opportunity's `claim`.",
                usage: "ctx:ambush(params.profile, params.count, params.behaviour, params.within)",
            },
            Method {
                name: "give",
                params: &[
                    p("m", "ModelSnapshot|integer", "A hero (not an Animal or a Village Defender)."),
                    p("item", "string", "The item's name (\"Relic Blade\")."),
                ],
                returns: "",
                doc: "Reward primitive: the hero gains an item carrying this script and its params: the \
                      script's model hooks (`melee_modifier`, ...) then act for the hero as a trait's do, and \
                      its `use`, if any, is what a `{ use = item }` order does.",
                usage: "ctx:give(hero, \"Relic Blade\")",
            },
            Method {
                name: "spent",
                params: &[p("key", "string", "A limited use: \"game:...\", \"wave:...\" or \"council:...\".")],
                returns: "boolean",
                doc: "Whether a limited use is already spent (game:... lasts the game, wave:... the wave, \
                      council:... the Council Phase).",
                usage: "if ctx:spent(\"game:Relic Blade:\" .. hero.name) then return end",
            },
            Method {
                name: "spend",
                params: &[p("key", "string", "A limited use: \"game:...\", \"wave:...\" or \"council:...\".")],
                returns: "",
                doc: "Reward primitive: spend a limited use (an error if it is already spent).",
                usage: "ctx:spend(\"game:Relic Blade:\" .. hero.name)",
            },
            Method {
                name: "hero",
                params: &[],
                returns: "ModelSnapshot|nil",
                doc: "The hero an Opportunity's or item's script acts for, if it is on the table (nil elsewhere).",
                usage: "local h = ctx:hero()",
            },
            Method {
                name: "peek",
                params: &[
                    p("model", "ModelSnapshot|integer", "Who looks: a model holding the `peek_opportunity` permission."),
                    p("token", "Token|integer", "An Opportunity token (from `ctx:tokens(\"opportunity\")`)."),
                ],
                returns: "string",
                doc: "See an Opportunity's result before claiming it (Wren's Pathfinder): the kernel rolls the \
                      token's Opportunity die now (logged, with a `rule_bent` event naming the script that \
                      grants `peek_opportunity`), keeps it on the token for whoever claims it, and returns the \
                      result's name; a token already peeked is read again without a roll. An error for a model \
                      without the permission, a token that is no Opportunity, or a read-only ctx.",
                usage: "if ctx:peek(self, token) ~= \"Ambush\" then return true end",
            },
            Method {
                name: "morale",
                params: &[
                    p("m", "ModelSnapshot", "The model."),
                    p("trigger", "string", "\"terror\", \"gruesome_kill\", \"leader_defeated\" or \"half_lost\"."),
                ],
                returns: "",
                doc: "Ask the kernel for a morale check after the hook. Only in `on_result` and `on_charge`.",
                usage: "for _, m in ipairs(charged) do ctx:morale(m, \"terror\") end",
            },
            Method {
                name: "grant",
                params: &[p("effect", "GrantOptions", "Who gains what, against whom, for how long.")],
                returns: "",
                doc: "Ask the kernel to add a modifier to some models' melee and ranged rolls for a while \
                      (logged `effect_granted`). In hooks that may ask for changes.",
                usage: "ctx:grant({ models = ids, against = group_ids, value = 1, reason = \"Hold the Line\" })",
            },
            Method {
                name: "repair",
                params: &[
                    p("building", "BuildingSnapshot|string", "The building."),
                    p("amount", "integer", "Integrity to restore, up to its maximum."),
                ],
                returns: "",
                doc: "Ask the kernel to restore Integrity to an intact building (logged `repaired`). In hooks \
                      that may ask for changes and in an action's `run`.",
                usage: "ctx:repair(\"Forge\", 1)",
            },
            Method {
                name: "extinguish",
                params: &[p("building", "BuildingSnapshot|string", "The building.")],
                returns: "",
                doc: "Ask the kernel to remove a building's fire token (logged `fire` with this script).",
                usage: "ctx:extinguish(\"Temple\")",
            },
            Method {
                name: "ignite",
                params: &[p("building", "BuildingSnapshot|string", "The building.")],
                returns: "",
                doc: "Ask the kernel to put a fire token on an intact building that has none (logged `fire` \
                      with this script).",
                usage: "ctx:ignite(\"Stable\")",
            },
            Method {
                name: "attack",
                params: &[
                    p("attacker", "ModelSnapshot|integer", "Who attacks."),
                    p("target", "ModelSnapshot|integer", "Who is attacked."),
                    p("combat", "integer", "The attacker's Combat for this attack."),
                    p("reason", "string|nil", "For the log (default: the script's path)."),
                ],
                returns: "",
                doc: "Ask the kernel for an attack at this Combat, resolved as a ranged attack is (the target's \
                      roll only defends; no weapon, sight or closest-target check), its result applied. Only \
                      in a scripted action's `run` (the Young Dragon's Fire Breath).",
                usage: "ctx:attack(self, hero, ctx.params.combat, \"Fire Breath\")",
            },
            Method {
                name: "summon_near",
                params: &[
                    p("summoner", "ModelSnapshot|integer", "Whose side and Group it joins."),
                    p("profile", "string", "The profile to place."),
                    p("within", "number|\"short\"|\"medium\"|\"long\"", "How far from the summoner's base."),
                ],
                returns: "",
                doc: "Ask the kernel to place a model of `profile` at the nearest free spot within `within` of \
                      the summoner, on its side and in its Group; it vanishes if the summoner is Defeated \
                      (logged `summoned`). Only in a scripted action's `run` (the Lich's Raise Dead).",
                usage: "ctx:summon_near(self, \"Skeleton Warrior\", \"short\")",
            },
            Method {
                name: "usable",
                params: &[p("model", "ModelSnapshot|integer", "The model.")],
                returns: "UsableAction[]",
                doc: "The scripted actions the model may take now: each action of its scripts (by name) with \
                      each target its `targets` offers, kept when its `can` says true. Order one with \
                      `{ ability = u.name, target = u.target }`.",
                usage: "for _, u in ipairs(ctx:usable(self)) do return { ability = u.name, target = u.target } end",
            },
            Method {
                name: "remove_barricade",
                params: &[p("token", "Token|integer", "The Barricade (from `ctx:tokens(\"barricade\")`).")],
                returns: "",
                doc: "Ask the kernel to remove a Barricade (logged `barricade_damage` with this script).",
                usage: "ctx:remove_barricade(b)",
            },
        ],
    },
    Class {
        name: "ModelSnapshot",
        kind: ClassKind::Table,
        doc: "A read-only copy of a model as a hook sees it (the fields of a `Model`).",
        usage: "melee_modifier = function(ctx, self, roll) if self:has_trait(\"Savage\") then return 1 end end",
        fields: MODEL_FIELD_SPECS,
        methods: MODEL_METHODS,
    },
    Class {
        name: "BuildingSnapshot",
        kind: ClassKind::Table,
        doc: "A read-only copy of a building as a hook sees it (the fields of a `Building`).",
        usage: "local th = ctx:building(\"Town Hall\")",
        fields: BUILDING_FIELD_SPECS,
        methods: &[],
    },
    Class {
        name: "Roll",
        kind: ClassKind::Table,
        doc: "What a modifier hook learns about the roll about to be made.",
        usage: "if roll.kind == \"melee\" and roll.role == \"attacker\" then return 1 end",
        fields: &[
            f("kind", "RollKind", "Which roll."),
            f("role", "Role", "The hook owner's role in it."),
            f("attacker", "ModelSnapshot", "The attacking model."),
            f("target", "ModelSnapshot|BuildingSnapshot", "The model or building attacked."),
            f("power_blow", "boolean", "The attack is a Power Blow."),
            f("aimed", "boolean", "The shot is aimed."),
            f("free_hack", "boolean", "The attack is a Free Hack."),
            opt("target_token", "integer", "The token attacked, when it is a Barricade."),
        ],
        methods: &[],
    },
    Class {
        name: "Win",
        kind: ClassKind::Table,
        doc: "A won roll as `win_rules` and `on_result` see it.",
        usage: "if win.role == \"winner\" and win.kind == \"melee\" then return { lethal = true } end",
        fields: &[
            f("kind", "RollKind", "Which roll."),
            f("result", "CombatOutcome", "The result so far (read from the table, or as a script replaced it)."),
            f(
                "role",
                "\"winner\"|\"loser\"|\"friend\"",
                "The hook owner's side of the win (\"friend\": a friend of the loser, in `on_friend_result`).",
            ),
            f("attacker_won", "boolean", "Whether the winner was the attacker."),
            f("winner_die", "integer", "The winner's natural die."),
            f("winner_total", "integer", "The winner's total."),
            f("loser_total", "integer", "The loser's total."),
            opt("opponent", "ModelSnapshot", "The other model."),
            opt("friend", "ModelSnapshot", "In `on_friend_result`: the friend that lost."),
            opt(
                "would_remove",
                "boolean",
                "In `on_friend_result`: the result as it stands takes the friend off the table (a Tough \
                 model's Wound does not).",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "WinRules",
        kind: ClassKind::Table,
        doc: "What `win_rules` returns: how the owner's win is read.",
        usage: "return { lethal = \"Lethal\", gruesome_multiplier = 2 }",
        fields: &[
            opt("lethal", "boolean|string", "The win defeats on any loss (a string is the reason)."),
            opt("gruesome_multiplier", "integer", "A Gruesome Kill from this multiple (Savage: 2)."),
        ],
        methods: &[],
    },
    Class {
        name: "ResultChange",
        kind: ClassKind::Table,
        doc: "What `on_result` (and `on_friend_result`) may return: a result to apply instead, or a longer \
              Recoil.",
        usage: "return { result = \"none\", reason = \"Heavy Armor\" }",
        fields: &[
            opt("result", "CombatOutcome", "The result to apply instead."),
            opt(
                "recoil",
                "number|\"short\"|\"medium\"|\"long\"",
                "A Recoil moves the loser this far instead of one base width (inches or a measure).",
            ),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "MoveTraits",
        kind: ClassKind::Table,
        doc: "What `movement` returns: how its owner moves.",
        usage: "return { ignore_terrain = { \"wood\" } }",
        fields: &[
            opt("flying", "boolean", "Passes over terrain; no band lost."),
            opt("ignore_terrain", "string[]", "Terrain kinds that cost it nothing."),
            opt("free_disengage", "boolean|integer[]", "Leaves these enemies (ids; true: all) without a Free Hack."),
            opt("band", "\"short\"|\"medium\"|\"long\"", "Its movement band (default Medium)."),
            opt("one_move", "boolean", "Only one move action per activation (Slow)."),
        ],
        methods: &[],
    },
    Class {
        name: "MoraleAnswer",
        kind: ClassKind::Table,
        doc: "What `morale` returns for a check about to be rolled.",
        usage: "if trigger == \"terror\" then return { immune = \"Fearless\" } end",
        fields: &[
            opt("immune", "boolean|string", "Ignore this check (a string is the reason)."),
            opt("modifier", "integer", "Added to each morale die."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "GrantOptions",
        kind: ClassKind::Table,
        doc: "What `ctx:grant` is given: a modifier for some models' rolls, for a while.",
        usage: "ctx:grant({ models = { self.id }, against = { orc.id }, value = 1, ends = \"wave\" })",
        fields: &[
            f("models", "integer[]|ModelSnapshot[]", "The models whose rolls it modifies (ids or snapshots)."),
            opt("against", "integer[]|ModelSnapshot[]", "Only in rolls against these (default: anyone)."),
            f("value", "integer", "Added to the model's own total."),
            opt("reason", "string", "For the log (default: the script's file name)."),
            opt(
                "ends",
                "\"activation\"|\"wave\"",
                "When it ends: with the activation being played (default) or the wave.",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "OrderInfo",
        kind: ClassKind::Table,
        doc: "The order an `order_cost` hook is asked about.",
        usage: "if order.kind == \"aimed_shot\" then return { cost = 1 } end",
        fields: &[
            f(
                "kind",
                "string",
                "\"melee\", \"power_blow\", \"shoot\", \"aimed_shot\", \"structural\", \"ignite\", \"move\", \
                 \"approach\", \"leave\", \"claim\", \"use\", \"heal\" or \"ability\".",
            ),
            f("cost", "integer", "Actions it costs by the rulebook."),
            opt("target", "integer", "The model it aims at (an attack or a heal)."),
            opt("building", "string", "The building it aims at."),
            opt("name", "string", "A scripted action's name."),
        ],
        methods: &[],
    },
    Class {
        name: "CostAnswer",
        kind: ClassKind::Table,
        doc: "What `order_cost` may return: a lower cost, and the limited use it spends when the order is carried out.",
        usage: "return { cost = 1, spend = \"wave:Called Shot\", reason = \"Called Shot\" }",
        fields: &[
            f("cost", "integer", "Actions (0 to 3); the lowest any script gives is used."),
            opt("spend", "string", "A limited use (`game:`/`wave:`/`council:`) spent once the order is carried out."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "ActivationRollInfo",
        kind: ClassKind::Table,
        doc: "An activation roll as `on_activation_roll` sees it, before any reroll.",
        usage: "if roll.side == \"heroes\" and #roll.dice > 0 then return { reroll = \"best\" } end",
        fields: &[
            f("dice", "integer[]", "The faces, in the order rolled."),
            f("quality", "integer", "The Quality rolled against."),
            f("side", "Side", "The side activating."),
            f("models", "ModelSnapshot[]", "The models activating (a Group, or one model)."),
        ],
        methods: &[],
    },
    Class {
        name: "RerollAnswer",
        kind: ClassKind::Table,
        doc: "What `on_activation_roll` may return: dice to roll again (the first script that asks wins).",
        usage: "return { reroll = \"all\", spend = \"wave:Warcry:\" .. self.id, reason = \"Warcry\" }",
        fields: &[
            f("reroll", "\"all\"|\"best\"", "Every die, or the best (highest) one."),
            opt("spend", "string", "A limited use spent by the reroll."),
            opt("reason", "string", "For the log."),
        ],
        methods: &[],
    },
    Class {
        name: "UsableAction",
        kind: ClassKind::Table,
        doc: "A scripted action a model may take now, as `ctx:usable` lists it.",
        usage: "local u = ctx:usable(self)[1]",
        fields: &[
            f("name", "string", "The action's name."),
            opt("target", "any", "What it would aim at (a building, model, token or point snapshot)."),
            f("source", "string", "The script that defines it."),
        ],
        methods: &[],
    },
    Class {
        name: "StructuralInfo",
        kind: ClassKind::Table,
        doc: "A structural attack as `on_structural` sees it, after its damage.",
        usage: "if attack.won then ctx:remove_barricade(b) end",
        fields: &[
            f("building", "string", "The building attacked."),
            f("won", "boolean", "Whether the attacker won the roll."),
        ],
        methods: &[],
    },
    Class {
        name: "ActionSpec",
        kind: ClassKind::Table,
        doc: "One entry of a script's `actions` table: an extra action its owner may order with \
              `{ ability = name, target = ... }`.",
        usage: "actions = { [\"Smother\"] = { can = function(ctx, self, b) return true end, run = function(ctx, self, b) ctx:extinguish(b) end } }",
        fields: &[
            opt(
                "task",
                "integer|fun(ctx: Ctx): integer",
                "A Task of this many actions (each order adds one); `run` runs once complete.",
            ),
            opt(
                "attack",
                "boolean",
                "It is its model's one melee or ranged attack of the turn (core §3.2): refused after one, \
                 counted as one.",
            ),
            opt(
                "targets",
                "fun(ctx: Ctx, self: ModelSnapshot): any[]",
                "The targets worth offering now (for `ctx:usable`); without it the action takes no target.",
            ),
            opt(
                "can",
                "fun(ctx: Ctx, self: ModelSnapshot, target: any): boolean|string",
                "true when it may be used now; false or a string saying why not refuses the order.",
            ),
            f(
                "run",
                "fun(ctx: Ctx, self: ModelSnapshot, target: any)",
                "Its effect: ask for changes through `ctx` (`ctx:repair`, `ctx:extinguish`, `ctx:spend`, ...).",
            ),
        ],
        methods: &[],
    },
    Class {
        name: "Modifier",
        kind: ClassKind::Table,
        doc: "A modifier a hook returns (a bare whole number means `{ value = n }`).",
        usage: "return { value = -1, to = \"opponent\", reason = \"terrifying\" }",
        fields: &[
            f("value", "integer", "A whole number to add to the total."),
            opt(
                "to",
                "\"self\"|\"opponent\"|\"attacker\"|\"defender\"",
                "Whose total (default \"self\", the hook's owner).",
            ),
            opt("reason", "string", "For the log (default: the script's file name)."),
        ],
        methods: &[],
    },
];

/// Plain data keys any script module may carry besides its entry points.
pub const MODULE_DATA: &[Field] = &[
    opt("name", "string", "A display name."),
    opt("description", "string", "What it does, for people."),
    opt("params", "table", "Plain data for the module's own use."),
];

/// Kinds whose scripts act for a model: a trait's, signature's or Alpha Rule's owner, every model for a
/// variant, and the carrier of the item an Opportunity gave.
const MODEL_HOOK_KINDS: &[&str] = &["traits", "signatures", "alpha", "variants", "opportunities"];

const MODIFIER_HOOK: &str =
    "fun(ctx: Ctx, self: ModelSnapshot, roll: Roll): integer|Modifier|Modifier[]|nil";

const RESERVED: &str = "fun(...: any): any";

/// The entry points of script modules. A hook the kernel does not call yet is typed loosely and says so.
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
        ty: "fun(ctx: Ctx, self: ModelSnapshot, win: Win): WinRules|nil",
        doc: "Called for the winner of a roll before its result is read: Lethal, a lower Gruesome multiple.",
    },
    EntryPoint {
        name: "on_result",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, win: Win): ResultChange|nil",
        doc: "Called for the winner, then the loser, before a result is applied: replace it (Heavy Armor, \
              Entangle), roll dice and ask for changes through `ctx` (Poison).",
    },
    EntryPoint {
        name: "on_charge",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, charged: ModelSnapshot[])",
        doc: "Called when its owner's move ends in contact with enemies: ask for changes (Terror's morale \
              checks).",
    },
    EntryPoint {
        name: "movement",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, engaged: ModelSnapshot[]): MoveTraits|nil",
        doc: "Called before its owner moves: Flying, terrain it ignores, enemies it leaves freely.",
    },
    EntryPoint {
        name: "permissions",
        kinds: MODEL_HOOK_KINDS,
        ty: "table<string, boolean|string>|fun(ctx: Ctx, self: ModelSnapshot): table<string, boolean|string>|nil",
        doc: "Rules its owner may bend, by name (\"ignore_closest_target\"): a table, read once when the file \
              loads, or a function asked each time the kernel needs the answer.",
    },
    EntryPoint {
        name: "morale",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, trigger: string): MoraleAnswer|nil",
        doc: "Called before its owner tests morale: immunity to this trigger, or a modifier to each die.",
    },
    EntryPoint {
        name: "on_activation",
        kinds: MODEL_HOOK_KINDS,
        ty: RESERVED,
        doc: "Reserved: accepted by the loader, not called by the kernel yet.",
    },
    EntryPoint {
        name: "on_wave_start",
        kinds: MODEL_HOOK_KINDS,
        ty: RESERVED,
        doc: "Reserved: accepted by the loader, not called by the kernel yet.",
    },
    EntryPoint {
        name: "on_council",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot): CouncilGrantAnswer|CouncilGrantAnswer[]|nil",
        doc: "Called for every model on the table, in id order, as each Council Phase opens (before the \
              hero policy orders, in `play` and `g:council`): grant free Council orders for this Council \
              (Grimm's Snare Master: `{ free = \"trap\", entangle = true }`, logged `rule_bent`), roll \
              dice and ask for changes through `ctx`.",
    },
    EntryPoint {
        name: "on_pass_token",
        kinds: &["traits", "signatures", "alpha"],
        ty: "fun(ctx: Ctx, self: ModelSnapshot, token: Token): boolean|nil",
        doc: "Called, when its owner holds the `claim_on_move` permission, for each Opportunity token its move \
              passes within base contact of (in the order met, after the leg of the move that passed it): \
              return true to claim it on the way — no action, and the move goes on (Wren's Pathfinder). Its \
              ctx may roll dice (`ctx:peek`) and ask for changes.",
    },
    EntryPoint {
        name: "order_cost",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, order: OrderInfo): CostAnswer|nil",
        doc: "Asked when its owner takes an order in the turn engine: a lower action cost (Tobin's Called \
              Shot), with a limited use spent once the order is carried out. Read-only ctx.",
    },
    EntryPoint {
        name: "on_opponent_activation",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, activating: ModelSnapshot[])",
        doc: "Called for every model of the other side before an Enemy Group (or a hero) rolls its \
              activation: ask for changes (`ctx:grant`, `ctx:spend`: Captain Maren's Hold the Line).",
    },
    EntryPoint {
        name: "on_activation_roll",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, roll: ActivationRollInfo): RerollAnswer|nil",
        doc: "Called after an activation roll for the activating models, then for every model of the other \
              side: reroll all the dice (the Orc Warlord's Warcry) or the best one (the Goblin Shaman's \
              Hex). The first that asks wins; the reroll is logged `rerolled`.",
    },
    EntryPoint {
        name: "on_friend_result",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, win: Win): ResultChange|nil",
        doc: "Called for each friend of a model that lost a roll (after the winner's and loser's \
              `on_result`), in id order until one replaces the result: Sister Ilse's Sanctuary. \
              `win.friend` is the loser, `win.would_remove` whether the result takes it off the table.",
    },
    EntryPoint {
        name: "on_defeat",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot)",
        doc: "Called as its owner is Defeated (or suffers a Gruesome Kill), before it is removed: ask for \
              changes applied once it is gone (the Fire Entity's Wildfire: `ctx:ignite`).",
    },
    EntryPoint {
        name: "on_structural",
        kinds: MODEL_HOOK_KINDS,
        ty: "fun(ctx: Ctx, self: ModelSnapshot, attack: StructuralInfo)",
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
        name: "target",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelSnapshot, group: ModelSnapshot[]): ModelSnapshot|BuildingSnapshot|Position|EdgeAim|nil",
        doc: "The target the Behaviour picks for a model of its Group (§6.3): a model, a building, a point \
              (an Opportunity) or `{ edge = true }`; nil for none. Its ctx may roll dice (the last \
              tie-breaker).",
    },
    EntryPoint {
        name: "act",
        kinds: &["behaviours"],
        ty: "fun(ctx: Ctx, self: ModelSnapshot, target: ModelSnapshot|BuildingSnapshot|Position|EdgeAim|nil): BehaviourOrder|nil",
        doc: "One action for a model of the Group, given its target (§6.2 universal priority): an order the \
              kernel executes, or nil to lose the action. Its ctx may roll dice.",
    },
    EntryPoint {
        name: "cast",
        kinds: &["spells"],
        ty: "fun(ctx: Ctx, caster: ModelSnapshot, power: integer, target: ModelSnapshot|nil, opts: CastOptions): any",
        doc: "Called by `g:cast` once the kernel has checked the cast (and a Ritual's Task is complete): \
              decide the effect and ask for it through the spell primitives on `ctx`; what it returns is \
              the CastResult's `result`. An error undoes the whole cast.",
    },
    EntryPoint {
        name: "claim",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelSnapshot, params: table<string, any>, opportunity: OpportunityInfo)",
        doc: "Called when a hero claims a token and the die gives this row, for a row of timing `now` \
              (core §6.1): decide the result and ask for it through the reward primitives on `ctx` \
              (`ctx:add_herbs`, `ctx:ambush`, `ctx:give`, ...). `params` are the row's. An error undoes the \
              whole claim.",
    },
    EntryPoint {
        name: "wave_end",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelSnapshot|nil, params: table<string, any>, opportunity: OpportunityInfo)",
        doc: "Called at step 4 of the End Sequence (core §7.1, Rewards) for each result of timing `wave_end` \
              claimed during the wave, in the order claimed; `hero` is nil when the claimer has left the \
              table (the reward is still the village's).",
    },
    EntryPoint {
        name: "use",
        kinds: &["opportunities"],
        ty: "fun(ctx: Ctx, hero: ModelSnapshot, params: table<string, any>, item: ItemInfo)",
        doc: "Called when the hero carrying this script's item orders `{ use = name }`: ask for the effect \
              (`ctx:heal`); the kernel then removes the item. Asking for nothing refuses the use.",
    },
    EntryPoint {
        name: "activate",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, self: ModelSnapshot): integer",
        doc: "How many activation dice (1–3) a model of the heroes' side rolls when its turn comes (§3.1);               the hero turn activates them in id order. Without it, two.",
    },
    EntryPoint {
        name: "act",
        kinds: &["policies"],
        ty: "fun(ctx: Ctx, self: ModelSnapshot): BehaviourOrder|nil",
        doc: "One order for a model of the heroes' side, asked once per action it has left               (`self.actions_left`): melee (a Power Blow with `power_blow`), shoot (an Aimed Shot with               `aimed`), move (`within` to stop short), claim, use, heal. A two-action order with one action               left, or one the rules refuse, loses an action (logged with the reason); nil loses it.",
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
        ty: "fun(ctx: Ctx, group: ModelSnapshot[]): BuildingSnapshot|string|nil",
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
              lets the default builder build this wave. Its ctx may roll dice (logged). Only one enabled \
              variant may define it.",
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
        usage: "return { target = function(ctx, group) end, act = function(ctx, model, target) end }",
    },
    ModuleKind {
        kind: "spells",
        class: "SpellScript",
        doc: "A spell (scripts/spells/*.lua), named by `script` in rosters/spells.toml and run by `g:cast`.",
        usage: "return { cast = function(ctx, caster, power, target, opts) return ctx:transfix(target, power) end }",
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

/// A class by name.
pub fn class(name: &str) -> Option<&'static Class> {
    CLASSES.iter().find(|c| c.name == name)
}

/// The name of a registered member, as this file describes it. Every named registration in `api/*.rs`
/// goes through here, so registering a member the spec does not describe fails the first time the class
/// reaches Lua (every test that touches it).
///
/// # Panics
/// When `class.member` is not described here: describe it in `src/script/api/spec.rs`.
pub fn member(class_name: &str, member: &str) -> &'static str {
    let c = class(class_name).unwrap_or_else(|| {
        panic!("API class `{class_name}` is registered but not described in src/script/api/spec.rs")
    });
    c.fields
        .iter()
        .map(|f| f.name)
        .chain(c.methods.iter().map(|m| m.name))
        .find(|n| *n == member)
        .unwrap_or_else(|| {
            panic!(
                "API member `{class_name}.{member}` is registered but not described in \
                 src/script/api/spec.rs; describe it there and run `cargo run -- api --luals > scripts/types/village.lua`"
            )
        })
}

/// The keys an options table may hold: the fields of the spec'd class.
///
/// # Panics
/// When the class is not described here.
pub fn options(class_name: &str) -> Vec<&'static str> {
    let c = class(class_name).unwrap_or_else(|| {
        panic!("options class `{class_name}` is not described in src/script/api/spec.rs")
    });
    c.fields.iter().map(|f| f.name).collect()
}

/// The entry point `name` of script kind `kind`, if described.
pub fn entry_point(kind: &str, name: &str) -> Option<&'static EntryPoint> {
    ENTRY_POINTS
        .iter()
        .find(|e| e.name == name && e.kinds.contains(&kind))
}

/// The module class of a script kind, if described.
pub fn module_kind(kind: &str) -> Option<&'static ModuleKind> {
    MODULE_KINDS.iter().find(|m| m.kind == kind)
}

/// Type and doc of one entry of a script module, from the loader's vocabulary (`registry::KINDS`).
fn entry_shape(kind: &str, name: &str) -> (&'static str, &'static str) {
    match entry_point(kind, name) {
        Some(e) => (e.ty, e.doc),
        None => (RESERVED, "Not described in src/script/api/spec.rs."),
    }
}

/// How a module kind's class is named even when the spec does not describe the kind.
fn module_class_name(kind: &str) -> String {
    match module_kind(kind) {
        Some(m) => m.class.to_string(),
        None => {
            let mut c = kind.chars();
            let first = c.next().map(|x| x.to_ascii_uppercase()).unwrap_or('X');
            format!("{first}{}Script", c.as_str())
        }
    }
}

fn lua_doc(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "---{line}");
    }
}

fn lua_usage(out: &mut String, usage: &str) {
    out.push_str("---\n---```lua\n");
    lua_doc(out, usage);
    out.push_str("---```\n");
}

fn lua_field(out: &mut String, fld: &Field) {
    let q = if fld.optional { "?" } else { "" };
    let _ = writeln!(out, "---@field {}{q} {} {}", fld.name, fld.ty, fld.doc);
}

/// The whole API as a lua-language-server `---@meta` file (the content of `scripts/types/village.lua`).
/// Deterministic: it depends only on this file and `registry::KINDS`.
pub fn luals_meta() -> String {
    let mut out = String::new();
    out.push_str("---@meta village\n");
    out.push_str(
        "-- The village scripting API for lua-language-server. Generated from src/script/api/spec.rs: do not\n\
         -- edit. Regenerate with `cargo run -- api --luals > scripts/types/village.lua`.\n",
    );
    for a in ALIASES {
        out.push('\n');
        lua_doc(&mut out, a.doc);
        let _ = writeln!(out, "---@alias {} {}", a.name, a.ty);
    }
    for c in CLASSES {
        out.push('\n');
        lua_doc(&mut out, c.doc);
        lua_usage(&mut out, c.usage);
        let _ = writeln!(out, "---@class {}", c.name);
        for fld in c.fields {
            lua_field(&mut out, fld);
        }
        match c.kind {
            ClassKind::Global => {
                let _ = writeln!(out, "{} = {{}}", c.name);
            }
            _ if !c.methods.is_empty() => {
                let _ = writeln!(out, "local {} = {{}}", c.name);
            }
            _ => {}
        }
        let sep = if c.kind == ClassKind::Global {
            "."
        } else {
            ":"
        };
        for m in c.methods {
            out.push('\n');
            lua_doc(&mut out, m.doc);
            lua_usage(&mut out, m.usage);
            for prm in m.params {
                let q = if prm.optional { "?" } else { "" };
                let _ = writeln!(out, "---@param {}{q} {} {}", prm.name, prm.ty, prm.doc);
            }
            if !m.returns.is_empty() {
                let _ = writeln!(out, "---@return {}", m.returns);
            }
            let params: Vec<&str> = m.params.iter().map(|p| p.name).collect();
            let _ = writeln!(
                out,
                "function {}{sep}{}({}) end",
                c.name,
                m.name,
                params.join(", ")
            );
        }
    }
    for (kind, entries) in KINDS {
        out.push('\n');
        let (doc, usage) = match module_kind(kind) {
            Some(m) => (m.doc, m.usage),
            None => ("Not described in src/script/api/spec.rs.", "return {}"),
        };
        lua_doc(&mut out, doc);
        lua_usage(&mut out, usage);
        let _ = writeln!(out, "---@class {}", module_class_name(kind));
        for fld in MODULE_DATA {
            lua_field(&mut out, fld);
        }
        for name in entries.iter() {
            let (ty, doc) = entry_shape(kind, name);
            lua_field(&mut out, &opt(name, ty, doc));
        }
    }
    out
}

fn md_usage(out: &mut String, usage: &str) {
    let _ = writeln!(out, "```lua\n{usage}\n```");
}

fn md_type(ty: &str) -> String {
    format!("`{ty}`")
}

/// The whole API as a readable Markdown reference (`village api`).
pub fn reference_markdown() -> String {
    let mut out = String::new();
    out.push_str("# The village Lua API\n\n");
    out.push_str(
        "Generated from src/script/api/spec.rs. For editor completion, point lua-language-server at \
         scripts/types/village.lua (`village api --luals`).\n",
    );
    out.push_str("\n## Types\n\n");
    for a in ALIASES {
        let _ = writeln!(out, "- `{}` = {} — {}", a.name, md_type(a.ty), a.doc);
    }
    for c in CLASSES {
        let what = match c.kind {
            ClassKind::Global => "global",
            ClassKind::Handle => "handle",
            ClassKind::Table => "table",
        };
        let _ = writeln!(out, "\n## {} ({what})\n\n{}\n", c.name, c.doc);
        md_usage(&mut out, c.usage);
        if !c.fields.is_empty() {
            out.push('\n');
        }
        for fld in c.fields {
            let q = if fld.optional { "?" } else { "" };
            let _ = writeln!(
                out,
                "- `{}{q}`: {} — {}",
                fld.name,
                md_type(fld.ty),
                fld.doc
            );
        }
        let sep = if c.kind == ClassKind::Global {
            "."
        } else {
            ":"
        };
        for m in c.methods {
            let params: Vec<String> = m
                .params
                .iter()
                .map(|p| {
                    let q = if p.optional { "?" } else { "" };
                    format!("{}{q}: {}", p.name, p.ty)
                })
                .collect();
            let ret = if m.returns.is_empty() {
                String::new()
            } else {
                format!(" → {}", m.returns)
            };
            let _ = writeln!(
                out,
                "\n### {}{sep}{}({}){ret}\n\n{}\n",
                c.name,
                m.name,
                params.join(", "),
                m.doc
            );
            for prm in m.params {
                let _ = writeln!(out, "- `{}`: {}", prm.name, prm.doc);
            }
            if !m.params.is_empty() {
                out.push('\n');
            }
            md_usage(&mut out, m.usage);
        }
    }
    out.push_str("\n## Script modules\n\nA script file returns a table; its keys are a closed vocabulary per folder.\n");
    for (kind, entries) in KINDS {
        let (doc, usage) = match module_kind(kind) {
            Some(m) => (m.doc, m.usage),
            None => ("Not described in src/script/api/spec.rs.", "return {}"),
        };
        let _ = writeln!(
            out,
            "\n### {} (scripts/{kind}/)\n\n{doc}\n",
            module_class_name(kind)
        );
        md_usage(&mut out, usage);
        out.push('\n');
        for fld in MODULE_DATA {
            let _ = writeln!(out, "- `{}?`: {} — {}", fld.name, md_type(fld.ty), fld.doc);
        }
        for name in entries.iter() {
            let (ty, doc) = entry_shape(kind, name);
            let _ = writeln!(out, "- `{name}?`: {} — {doc}", md_type(ty));
        }
    }
    out
}
