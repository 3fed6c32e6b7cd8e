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
use std::sync::LazyLock;

mod ctx;
mod entries;
mod game;
mod render;
mod tables;

pub use entries::{ENTRY_POINTS, MODULE_DATA, MODULE_KINDS};
pub use render::{luals_meta, reference_markdown};

/// How a class reaches Lua.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassKind {
    /// A global table of functions (`village`): members are called with `.`.
    Global,
    /// Userdata resolved on every use (a game, a model handle, a hook's `ctx`): methods use `:`.
    Handle,
    /// A plain Lua table (results, options, views): methods, if any, come from a metatable.
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
        "It moved into contact with an enemy in its current activation (Dashing, Ride Down); false \
         outside its own activation.",
    ),
    f(
        "moved",
        "number",
        "Inches it moved in its current activation (Sir Roland's Ride Down); 0 outside it.",
    ),
    f(
        "attacks",
        "integer",
        "Melee and ranged attacks it made this turn (one per turn, §3.2, however often it is nominated; \
         the turn engine counts them).",
    ),
    f(
        "activations",
        "integer",
        "How often it was nominated this turn (§3.1: after failing exactly one die without a turnover it \
         stays Active and may be nominated again).",
    ),
    f(
        "declared",
        "boolean",
        "It declared spellcasting before rolling for the activation being played (§3.7): it may cast.",
    ),
    f(
        "casts",
        "integer",
        "Spells it cast in the activation being played (one an activation, `magic.spells_per_activation`).",
    ),
    f(
        "out_of_power",
        "boolean",
        "A Spell-caster that failed three dice this wave: no more spells until the next (§3.7).",
    ),
    opt(
        "task",
        "string",
        "The Task it is working on, if any (\"break free of transfixed\", \"heal Bram the Smith (4)\"...).",
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

/// The fields a model handle (and a hook's model view) exposes, in order.
pub const MODEL_FIELDS: &[&str] = &names::<{ MODEL_FIELD_SPECS.len() }>(MODEL_FIELD_SPECS);

/// The fields a building handle (and a building view) exposes, in order.
pub const BUILDING_FIELDS: &[&str] = &names::<{ BUILDING_FIELD_SPECS.len() }>(BUILDING_FIELD_SPECS);

const HAS_TRAIT: Method = Method {
    name: "has_trait",
    params: &[p("name", "string", "A trait, as printed (case-sensitive).")],
    returns: "boolean",
    doc: "Whether the profile carries the trait.",
    usage: "if m:has_trait(\"Hero\") then return 1 end",
};

const HAS: Method = Method {
    name: "has",
    params: &[p("condition", "Condition", "A condition.")],
    returns: "boolean",
    doc: "Whether the model has the condition.",
    usage: "if m:has(\"defenseless\") then return 2 end",
};

/// A view's methods.
const MODEL_METHODS: &[Method] = &[HAS_TRAIT, HAS];

/// A handle's methods: a view's, and its profile's card.
const MODEL_HANDLE_METHODS: &[Method] = &[
    HAS_TRAIT,
    HAS,
    Method {
        name: "profile",
        params: &[],
        returns: "ProfileCard",
        doc: "Its profile's card, as `village show --json` prints it: Quality, Combat, traits with their \
              rule text and scripts, weapon, spells, the signature or Alpha Rule (name, text, params, \
              script), Behaviours, Wave Points and where each part comes from.",
        usage: "print(maren:profile().signature.text)",
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
pub static CLASSES: LazyLock<Vec<Class>> =
    LazyLock::new(|| [game::CLASSES, tables::CLASSES, ctx::CLASSES].concat());

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
        // Loosely typed: the staleness tests fail until the spec describes it.
        None => (
            "fun(...: any): any",
            "Not described in src/script/api/spec.rs.",
        ),
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
