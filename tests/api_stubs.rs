//! The Lua API description (src/script/api/spec.rs) against the committed stubs, the CLI, the source
//! of the registrations, and a live VM: every member the spec describes exists with values of the
//! described types, every registration takes its name from the spec, and scripts/types/village.lua is
//! what `village api --luals` prints.
//!
//! Regenerate the stubs with `cargo run -- api --luals > scripts/types/village.lua`, or run this test
//! with `UPDATE_STUBS=1`.

use mlua::{Table, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;
use village::roster::Rosters;
use village::script::api::game::GameHandle;
use village::script::api::handles::{BuildingRef, ModelRef};
use village::script::api::spec::{self, Class, ClassKind, CLASSES};
use village::script::registry::KINDS;
use village::script::{Limits, ScriptHost};

mod markdown;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const STUBS: &str = "scripts/types/village.lua";

// ---- the committed file and the CLI ---------------------------------------------------------------

#[test]
fn the_committed_stubs_are_what_the_spec_generates() {
    let path = root().join(STUBS);
    let want = spec::luals_meta();
    markdown::assert_generated(
        &path,
        STUBS,
        &want,
        markdown::update_requested(&["UPDATE_STUBS"]),
        &format!(
            "cargo run -- api --luals > {STUBS}\nor\n    UPDATE_STUBS=1 cargo test --release --test api_stubs"
        ),
    );
}

#[test]
fn village_api_prints_the_stubs_and_a_reference() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_village"))
            .args(args)
            .output()
            .expect("village runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    };
    assert_eq!(run(&["api", "--luals"]), spec::luals_meta());
    let md = run(&["api"]);
    assert_eq!(md, spec::reference_markdown());
    for needle in [
        "## Game (handle)",
        "### Game:place(name: string, pos: Point, opts?: PlaceOptions) → Model",
        "### village.new_game(opts?: NewGameOptions) → Game",
        "### TraitScript (scripts/traits/)",
    ] {
        assert!(md.contains(needle), "{needle:?} missing from `village api`");
    }
}

#[test]
fn the_stubs_are_deterministic_and_name_every_member() {
    let a = spec::luals_meta();
    assert_eq!(a, spec::luals_meta());
    assert!(a.starts_with("---@meta"));
    assert!(
        !a.contains("Not described"),
        "a kind or entry point of registry::KINDS has no description in spec.rs"
    );
    // Valid Lua (compiled, not run: running it would replace the `village` global).
    open()
        .vm()
        .exec(&format!("return function()\n{a}\nend"), STUBS)
        .unwrap_or_else(|e| panic!("the stubs do not compile: {e}"));
    for c in CLASSES.iter() {
        assert!(a.contains(&format!("---@class {}\n", c.name)), "{}", c.name);
        let sep = if c.kind == ClassKind::Global {
            "."
        } else {
            ":"
        };
        for m in c.methods {
            assert!(
                a.contains(&format!("function {}{sep}{}(", c.name, m.name)),
                "{}.{}",
                c.name,
                m.name
            );
        }
    }
}

// ---- the spec on its own ----------------------------------------------------------------------------

/// A lua-language-server type, as far as the spec uses them.
#[derive(Debug, Clone)]
enum Ty {
    Any,
    Nil,
    Boolean,
    Str,
    Number,
    Integer,
    Table,
    Function,
    Lit(String),
    Array(Box<Ty>),
    Union(Vec<Ty>),
    Map,
    Fun,
    Named(String),
}

/// Split at `sep` outside parentheses, angle brackets and quotes.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut quoted, mut start, mut out) = (0i32, false, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '(' | '<' if !quoted => depth += 1,
            ')' | '>' if !quoted => depth -= 1,
            c if c == sep && depth == 0 && !quoted => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// Parse a type; the `Named` types it mentions are pushed to `names`.
fn parse(s: &str, names: &mut Vec<String>) -> Result<Ty, String> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("fun(") {
        // `fun(a: A, b: B): R` — everything after `):` is the return type.
        let mut depth = 1;
        let close = rest
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map(|(i, _)| i)
            .ok_or_else(|| format!("unclosed function type {s:?}"))?;
        for param in split_top(&rest[..close], ',') {
            if param.trim().is_empty() {
                continue;
            }
            let (_, ty) = param
                .split_once(':')
                .ok_or_else(|| format!("parameter without a type in {s:?}"))?;
            parse(ty, names)?;
        }
        let after = rest[close + 1..].trim();
        if let Some(ret) = after.strip_prefix(':') {
            parse(ret, names)?;
        } else if !after.is_empty() {
            return Err(format!("bad function type {s:?}"));
        }
        return Ok(Ty::Fun);
    }
    let parts = split_top(s, '|');
    if parts.len() > 1 {
        return parts
            .into_iter()
            .map(|p| parse(p, names))
            .collect::<Result<_, _>>()
            .map(Ty::Union);
    }
    if let Some(inner) = s.strip_suffix("[]") {
        return Ok(Ty::Array(Box::new(parse(inner, names)?)));
    }
    if let Some(inner) = s.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
        return parse(inner, names);
    }
    if let Some(inner) = s.strip_prefix("table<").and_then(|x| x.strip_suffix('>')) {
        let kv = split_top(inner, ',');
        if kv.len() != 2 {
            return Err(format!("bad table type {s:?}"));
        }
        parse(kv[0], names)?;
        parse(kv[1], names)?;
        return Ok(Ty::Map);
    }
    if let Some(lit) = s.strip_prefix('"').and_then(|x| x.strip_suffix('"')) {
        return Ok(Ty::Lit(lit.to_string()));
    }
    Ok(match s {
        "any" => Ty::Any,
        "nil" => Ty::Nil,
        "boolean" => Ty::Boolean,
        "string" => Ty::Str,
        "number" => Ty::Number,
        "integer" => Ty::Integer,
        "table" => Ty::Table,
        "function" => Ty::Function,
        _ if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            names.push(s.to_string());
            Ty::Named(s.to_string())
        }
        _ => return Err(format!("cannot parse the type {s:?}")),
    })
}

fn ty(s: &str) -> Ty {
    parse(s, &mut Vec::new()).unwrap_or_else(|e| panic!("{e}"))
}

/// Every type string of the spec, with where it is.
fn all_types() -> Vec<(String, &'static str)> {
    let mut v = Vec::new();
    for a in spec::ALIASES {
        v.push((format!("alias {}", a.name), a.ty));
    }
    for c in CLASSES.iter() {
        for f in c.fields {
            v.push((format!("{}.{}", c.name, f.name), f.ty));
        }
        for m in c.methods {
            for p in m.params {
                v.push((format!("{}.{}({})", c.name, m.name, p.name), p.ty));
            }
            if !m.returns.is_empty() {
                v.push((format!("{}.{} return", c.name, m.name), m.returns));
            }
        }
    }
    for e in spec::ENTRY_POINTS {
        v.push((format!("entry point {}", e.name), e.ty));
    }
    for f in spec::MODULE_DATA {
        v.push((format!("module key {}", f.name), f.ty));
    }
    v
}

#[test]
fn every_type_in_the_spec_parses_and_names_a_described_type() {
    let known: BTreeSet<&str> = CLASSES
        .iter()
        .map(|c| c.name)
        .chain(spec::ALIASES.iter().map(|a| a.name))
        .collect();
    let mut errors = Vec::new();
    for (at, t) in all_types() {
        let mut names = Vec::new();
        match parse(t, &mut names) {
            Ok(_) => {
                for n in names {
                    if !known.contains(n.as_str()) {
                        errors.push(format!("{at}: `{n}` is neither a class nor an alias"));
                    }
                }
            }
            Err(e) => errors.push(format!("{at}: {e}")),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn names_in_the_spec_are_unique() {
    let mut seen = BTreeSet::new();
    for name in CLASSES
        .iter()
        .map(|c| c.name)
        .chain(spec::ALIASES.iter().map(|a| a.name))
        .chain(spec::MODULE_KINDS.iter().map(|m| m.class))
    {
        assert!(seen.insert(name), "`{name}` is described twice");
    }
    for c in CLASSES.iter() {
        let mut members = BTreeSet::new();
        for n in c
            .fields
            .iter()
            .map(|f| f.name)
            .chain(c.methods.iter().map(|m| m.name))
        {
            assert!(members.insert(n), "{}.{n} is described twice", c.name);
        }
        for m in c.methods {
            let mut params = BTreeSet::new();
            for p in m.params {
                assert!(params.insert(p.name), "{}.{}({})", c.name, m.name, p.name);
            }
        }
    }
}

#[test]
fn every_script_kind_and_entry_point_of_the_loader_is_described_and_nothing_else() {
    let mut errors = Vec::new();
    for (kind, entries) in KINDS {
        if spec::module_kind(kind).is_none() {
            errors.push(format!("script kind `{kind}` has no ModuleKind in spec.rs"));
        }
        for e in entries.iter() {
            if spec::entry_point(kind, e).is_none() {
                errors.push(format!(
                    "entry point `{e}` of `{kind}` has no EntryPoint in spec.rs"
                ));
            }
        }
    }
    for m in spec::MODULE_KINDS {
        if !KINDS.iter().any(|(k, _)| *k == m.kind) {
            errors.push(format!(
                "spec.rs describes `{}`, not a kind of registry::KINDS",
                m.kind
            ));
        }
    }
    for e in spec::ENTRY_POINTS {
        for kind in e.kinds {
            let known = KINDS
                .iter()
                .any(|(k, entries)| k == kind && entries.contains(&e.name));
            if !known {
                errors.push(format!(
                    "spec.rs describes entry point `{}` for `{kind}`, which registry::KINDS does not allow",
                    e.name
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_handles_field_lists_are_the_specs() {
    let names = |c: &str| -> Vec<&str> {
        spec::class(c)
            .unwrap()
            .fields
            .iter()
            .map(|f| f.name)
            .collect()
    };
    assert_eq!(village::script::api::handles::MODEL_FIELDS, names("Model"));
    assert_eq!(names("ModelView"), names("Model"));
    assert_eq!(
        village::script::api::handles::BUILDING_FIELDS,
        names("Building")
    );
    assert_eq!(names("BuildingView"), names("Building"));
}

#[test]
#[should_panic(expected = "Game.teleport")]
fn a_member_the_spec_does_not_describe_cannot_be_registered() {
    spec::member("Game", "teleport");
}

// ---- the registrations --------------------------------------------------------------------------------

/// What follows `(` at each call of `.NAME(` in `src`, with the line.
fn call_args<'a>(src: &'a str, call: &str) -> Vec<(usize, &'a str)> {
    src.match_indices(call)
        .map(|(i, _)| {
            let line = src[..i].lines().count();
            (line, src[i + call.len()..].trim_start())
        })
        .collect()
}

/// mlua's registrations of named members (`add_<this>`).
const REGISTRATIONS: &[&str] = &[
    "method",
    "method_mut",
    "function",
    "function_mut",
    "async_method",
    "async_method_mut",
    "async_function",
    "field",
    "field_method_get",
    "field_method_set",
    "field_function_get",
    "field_function_set",
];

#[test]
fn every_registration_takes_its_name_from_the_spec() {
    // Every Rust file under src/script/api, its submodules included, but the spec itself.
    let mut files = Vec::new();
    let mut dirs = vec![root().join("src/script/api")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if !p.ends_with("spec") {
                    dirs.push(p);
                }
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("spec.rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let mut errors = Vec::new();
    let mut registrations = 0;
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let file = path.strip_prefix(root()).unwrap().display().to_string();
        let mut named = 0;
        // Every named registration of mlua's UserDataFields/UserDataMethods (meta methods such as
        // __index, __tostring and __eq are not API members).
        for (i, _) in src.match_indices(".add_") {
            let rest = &src[i + 5..];
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !REGISTRATIONS.contains(&ident.as_str()) || !rest[ident.len()..].starts_with('(') {
                continue;
            }
            named += 1;
            let arg = rest[ident.len() + 1..].trim_start();
            if !arg.starts_with("api(") {
                let line = src[..i].lines().count();
                errors.push(format!(
                    "{file}:{line}: `.add_{ident}` must take its name from `api(\"...\")` (spec::member)"
                ));
            }
        }
        for (line, arg) in call_args(&src, "village.set(") {
            named += 1;
            if !arg.starts_with("api(") {
                errors.push(format!(
                    "{file}:{line}: `village.set` must take its name from `api(\"...\")`"
                ));
            }
        }
        for (line, arg) in call_args(&src, "check_options(lua, &opts, ") {
            if !arg.starts_with("&spec::options(") {
                errors.push(format!(
                    "{file}:{line}: option keys must come from `spec::options(\"Class\")`"
                ));
            }
        }
        if named > 0 && !src.contains("fn api(member: &str) -> &'static str {\n    spec::member(") {
            errors.push(format!(
                "{file}: registers API members but has no `fn api` calling spec::member"
            ));
        }
        registrations += named;
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // Every member of the handles and of `village` is counted once (Model's fields go through
    // MODEL_FIELDS, Building's through BUILDING_FIELDS).
    let expected: usize = ["village", "Game", "Ctx"]
        .iter()
        .map(|c| {
            let c = spec::class(c).unwrap();
            c.fields.len() + c.methods.len()
        })
        .sum::<usize>()
        + spec::class("Model").unwrap().methods.len();
    assert_eq!(
        registrations, expected,
        "src/script/api registers {registrations} named members; spec.rs describes {expected} \
         (village, Game and Ctx members, Model methods; Model and Building fields go through \
         MODEL_FIELDS and BUILDING_FIELDS)"
    );
}

#[test]
fn every_usage_line_is_valid_lua() {
    let host = open();
    let mut lines: Vec<(String, &str)> = Vec::new();
    for c in CLASSES.iter() {
        lines.push((c.name.to_string(), c.usage));
        for m in c.methods {
            lines.push((format!("{}.{}", c.name, m.name), m.usage));
        }
    }
    for m in spec::MODULE_KINDS {
        lines.push((m.class.to_string(), m.usage));
    }
    let mut errors = Vec::new();
    for (at, usage) in lines {
        // Compiled, not run: the names it uses (g, orc, ctx) only exist in the reader's script.
        let chunk = format!("return function(...)\n{usage}\nend");
        if let Err(e) = host.vm().exec(&chunk, "usage") {
            errors.push(format!("{at}: {usage:?}: {e}"));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

// ---- a live VM against the spec -------------------------------------------------------------------------

fn open() -> ScriptHost {
    let layers = [
        Rosters::builtin_root(),
        root().join("tests/fixtures/api_probe"),
    ];
    ScriptHost::open(&layers, Limits::default(), 1).unwrap_or_else(|e| panic!("{}", e.join("\n")))
}

/// Input-only tables: the API reads them, never returns them.
const INPUT_ONLY: &[&str] = &[
    "NewGameOptions",
    "ModelFilter",
    "ModelQuery",
    "BuildingQuery",
    "NearestQuery",
    "TargetStep",
    "MoveOptions",
    "MeleeOptions",
    "ShotOptions",
    "StructuralOptions",
    "TrapOptions",
    "PlaceOptions",
    "EdgeAim",
    "BehaviourOrder",
    "RolloutCandidate",
    "RolloutOptions",
    "ActivationAnswer",
    "ActivateOptions",
    "CouncilOrder",
    "CastOptions",
    "Modifier",
    "WinRules",
    "ResultChange",
    "MoveTraits",
    "MoraleAnswer",
    "DeployChoices",
    "ReadyMountsChoice",
    "WaveGroup",
    "GrantOptions",
    "CostAnswer",
    "RerollAnswer",
    "ActionSpec",
    "CouncilGrantAnswer",
];

/// Tables the kernel gives only to the hero policy (scripts/policies/default.lua), which the probe
/// cannot replace, and why they are checked elsewhere.
const POLICY_ONLY: &[(&str, &str)] = &[(
    "DeployStep",
    "given to the policy's `deploy`; tests/scenarios/village_abilities.lua asserts on what it receives",
)];

/// Optional fields no call can produce yet, and why.
const NEVER_SET_YET: &[(&str, &str)] = &[
    ("Model.group", "Groups are set by the wave builder"),
    (
        "Roll.target_token",
        "the tour attacks no Barricade (no API places one yet)",
    ),
    ("ModelView.group", "Groups are set by the wave builder"),
    (
        "WavePlan.unmet",
        "the built-in rosters always meet §5.2's limits",
    ),
];

#[derive(Default)]
struct Checker {
    errors: Vec<String>,
    /// Classes a value was checked against.
    classes: BTreeSet<String>,
    /// Optional fields seen with a value.
    optional_seen: BTreeSet<String>,
}

impl Checker {
    fn err(&mut self, at: &str, msg: String) {
        self.errors.push(format!("{at}: {msg}"));
    }

    /// Whether `v` is of type `t`; errors are pushed only by the caller's `check`.
    fn conforms(&mut self, at: &str, v: &Value, t: &Ty) -> Result<(), String> {
        let kind = v.type_name();
        let ok = |b: bool, what: &str| {
            if b {
                Ok(())
            } else {
                Err(format!("expected {what}, got {kind} {v:?}"))
            }
        };
        match t {
            Ty::Any => Ok(()),
            Ty::Nil => ok(v.is_nil(), "nil"),
            Ty::Boolean => ok(matches!(v, Value::Boolean(_)), "a boolean"),
            Ty::Str => ok(matches!(v, Value::String(_)), "a string"),
            Ty::Number => ok(
                matches!(v, Value::Integer(_) | Value::Number(_)),
                "a number",
            ),
            Ty::Integer => ok(matches!(v, Value::Integer(_)), "an integer"),
            Ty::Table | Ty::Map => ok(matches!(v, Value::Table(_)), "a table"),
            Ty::Function | Ty::Fun => ok(matches!(v, Value::Function(_)), "a function"),
            Ty::Lit(s) => match v {
                Value::String(x) if x.to_string_lossy() == *s => Ok(()),
                _ => Err(format!("expected \"{s}\", got {v:?}")),
            },
            Ty::Array(item) => {
                let Value::Table(t) = v else {
                    return Err(format!("expected an array, got {kind}"));
                };
                for (i, x) in t.clone().sequence_values::<Value>().enumerate() {
                    let x = x.map_err(|e| e.to_string())?;
                    self.conforms(&format!("{at}[{}]", i + 1), &x, item)?;
                }
                let keys = t.clone().pairs::<Value, Value>().count();
                ok(keys == t.raw_len(), "an array without other keys")
            }
            Ty::Union(alts) => {
                let mut why = Vec::new();
                for alt in alts {
                    // Only the alternative that matches counts as seen.
                    let mut scratch = Checker::default();
                    match scratch.conforms(at, v, alt) {
                        Ok(()) if scratch.errors.is_empty() => {
                            self.classes.extend(scratch.classes);
                            self.optional_seen.extend(scratch.optional_seen);
                            return Ok(());
                        }
                        Ok(()) => why.extend(scratch.errors),
                        Err(e) => why.push(e),
                    }
                }
                Err(format!("matches no alternative: {}", why.join("; ")))
            }
            Ty::Named(n) => {
                if let Some(a) = spec::ALIASES.iter().find(|a| a.name == n) {
                    return self.conforms(at, v, &ty(a.ty));
                }
                let c = spec::class(n).unwrap_or_else(|| panic!("unknown type {n}"));
                self.classes.insert(n.clone());
                match (c.kind, v) {
                    (ClassKind::Handle, Value::UserData(ud)) => {
                        let right = match n.as_str() {
                            "Game" => ud.is::<GameHandle>(),
                            "Model" => ud.is::<ModelRef>(),
                            "Building" => ud.is::<BuildingRef>(),
                            _ => false,
                        };
                        ok(right, &format!("a {n} handle"))
                    }
                    (ClassKind::Table, Value::Table(t)) => {
                        self.table(at, t, c);
                        Ok(())
                    }
                    _ => Err(format!("expected a {n}, got {kind}")),
                }
            }
        }
    }

    fn check(&mut self, at: &str, v: &Value, t: &str) {
        if let Err(e) = self.conforms(at, v, &ty(t)) {
            self.err(at, e);
        }
    }

    /// One field value of a class (live or captured).
    fn field(&mut self, at: &str, c: &Class, f: &spec::Field, v: &Value) {
        if v.is_nil() {
            if !f.optional {
                self.err(at, format!("`{}` is missing", f.name));
            }
            return;
        }
        if f.optional {
            self.optional_seen.insert(format!("{}.{}", c.name, f.name));
        }
        self.check(&format!("{at}.{}", f.name), v, f.ty);
    }

    /// A plain table of a class: only its keys, each of its type; methods from its metatable.
    fn table(&mut self, at: &str, t: &Table, c: &Class) {
        let open = c.fields.iter().any(|f| f.name == "[string]");
        for pair in t.clone().pairs::<Value, Value>() {
            let (k, _) = pair.unwrap();
            let known = match &k {
                Value::String(s) => c.fields.iter().any(|f| f.name == s.to_string_lossy()),
                _ => false,
            };
            if !known && !open {
                self.err(
                    at,
                    format!("key {k:?} is not a field of {} in spec.rs", c.name),
                );
            }
        }
        for f in c.fields.iter().filter(|f| f.name != "[string]") {
            let v: Value = t.raw_get(f.name).unwrap();
            self.field(at, c, f, &v);
        }
        let methods: BTreeMap<String, Value> = match t.metatable() {
            Some(mt) => match mt.raw_get::<Value>("__index").unwrap() {
                Value::Table(index) => index.pairs::<String, Value>().map(|p| p.unwrap()).collect(),
                _ => BTreeMap::new(),
            },
            None => BTreeMap::new(),
        };
        let want: BTreeSet<&str> = c.methods.iter().map(|m| m.name).collect();
        let have: BTreeSet<&str> = methods.keys().map(String::as_str).collect();
        if want != have {
            self.err(
                at,
                format!("{} methods are {have:?}, spec.rs says {want:?}", c.name),
            );
        }
        for (name, f) in &methods {
            if !matches!(f, Value::Function(_)) {
                self.err(at, format!("method {name} is a {}", f.type_name()));
            }
        }
    }

    /// The members of a handle (or of a table captured from one), read through `get`.
    fn members(&mut self, at: &str, c: &Class, get: impl Fn(&str) -> Value) {
        self.classes.insert(c.name.to_string());
        for f in c.fields {
            self.field(at, c, f, &get(f.name));
        }
        for m in c.methods {
            let v = get(m.name);
            if !matches!(v, Value::Function(_)) {
                self.err(
                    &format!("{at}.{}", m.name),
                    format!("expected a method, got {}", v.type_name()),
                );
            }
        }
    }
}

fn seq(v: &Value) -> Vec<Value> {
    match v {
        Value::Table(t) => t
            .clone()
            .sequence_values::<Value>()
            .map(|x| x.unwrap())
            .collect(),
        other => panic!("expected a table, got {other:?}"),
    }
}

#[test]
fn the_live_api_has_every_member_the_spec_describes_with_its_types() {
    let host = open();
    let ctx_members: Vec<String> = {
        let c = spec::class("Ctx").unwrap();
        c.fields
            .iter()
            .map(|f| format!("{:?}", f.name))
            .chain(c.methods.iter().map(|m| format!("{:?}", m.name)))
            .collect()
    };
    host.vm()
        .exec(
            &format!("CTX_MEMBERS = {{ {} }}", ctx_members.join(", ")),
            "members",
        )
        .unwrap();
    let tour = root().join("tests/fixtures/api_probe/tour.lua");
    host.run_file(&tour).unwrap_or_else(|e| panic!("{e}"));
    // Handles are read inside a chunk (a Lua call outside one has no instruction budget).
    let members = |c: &Class| -> String {
        c.fields
            .iter()
            .map(|f| format!("{:?}", f.name))
            .chain(c.methods.iter().map(|m| format!("{:?}", m.name)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let capture = format!(
        "local members = {{ Game = {{ {} }}, Model = {{ {} }}, Building = {{ {} }} }}\n\
         local captured = {{}}\n\
         for class, list in pairs(HANDLES) do\n\
           captured[class] = {{}}\n\
           for i, h in ipairs(list) do\n\
             local got = {{}}\n\
             for _, k in ipairs(members[class]) do got[k] = h[k] end\n\
             captured[class][i] = got\n\
           end\n\
         end\n\
         return village, SAMPLES, CTX_CAPTURES, SNAPSHOTS, ROLLS, HANDLES, captured, WINS, \
         OPP_INFOS, ITEM_INFOS, ASKS, HOOK_ARGS",
        members(spec::class("Game").unwrap()),
        members(spec::class("Model").unwrap()),
        members(spec::class("Building").unwrap()),
    );
    let got: Vec<Value> = host
        .vm()
        .exec(&capture, "collect")
        .unwrap()
        .into_iter()
        .collect();
    let [village, samples, ctx_captures, snapshots, rolls, handles, captured, wins, opps, items, asks, hook_args] =
        &got[..]
    else {
        panic!("the tour left {} values", got.len());
    };
    let mut ck = Checker::default();

    // `village` is a read-only view of a plain table: exactly the spec's members.
    let vclass = spec::class("village").unwrap();
    let Value::Table(view) = village else {
        panic!("village is {village:?}")
    };
    let vt: mlua::Table = view
        .metatable()
        .expect("a read-only view")
        .raw_get("__index")
        .unwrap();
    let keys: BTreeSet<String> = vt
        .clone()
        .pairs::<String, Value>()
        .map(|p| p.unwrap().0)
        .collect();
    let want: BTreeSet<String> = vclass
        .fields
        .iter()
        .map(|f| f.name.to_string())
        .chain(vclass.methods.iter().map(|m| m.name.to_string()))
        .collect();
    assert_eq!(keys, want, "the keys of `village`");
    ck.members("village", vclass, |k| vt.raw_get(k).unwrap());

    // Live handles: the right userdata, and their members as read from Lua.
    let (Value::Table(handles), Value::Table(captured)) = (handles, captured) else {
        panic!()
    };
    for class in ["Game", "Model", "Building"] {
        let c = spec::class(class).unwrap();
        let list = seq(&handles.raw_get::<Value>(class).unwrap());
        let read = seq(&captured.raw_get::<Value>(class).unwrap());
        assert!(!list.is_empty(), "no {class} handle to check");
        for (i, (h, got)) in list.iter().zip(&read).enumerate() {
            let at = format!("{class} handle {}", i + 1);
            ck.check(&at, h, class);
            let Value::Table(got) = got else { panic!() };
            ck.members(&at, c, |k| got.raw_get(k).unwrap());
        }
    }

    // What hooks received: ctx members (captured while alive), self, roll.
    let captures = seq(ctx_captures);
    assert!(
        captures.len() >= 3,
        "the probe ran in melee, ranged and structural hooks"
    );
    let ctx = spec::class("Ctx").unwrap();
    for (i, cap) in captures.iter().enumerate() {
        let Value::Table(t) = cap else { panic!() };
        ck.members(&format!("ctx {}", i + 1), ctx, |k| t.raw_get(k).unwrap());
    }
    for (i, s) in seq(snapshots).iter().enumerate() {
        ck.check(&format!("hook self {}", i + 1), s, "ModelView");
    }
    let rolls = seq(rolls);
    for (i, r) in rolls.iter().enumerate() {
        ck.check(&format!("hook roll {}", i + 1), r, "Roll");
    }
    let wins = seq(wins);
    assert!(
        !wins.is_empty(),
        "the probe ran in win_rules and on_result hooks"
    );
    for (i, w) in wins.iter().enumerate() {
        ck.check(&format!("hook win {}", i + 1), w, "Win");
    }
    // What Opportunity scripts received: the result, and an item's use its item.
    let opps = seq(opps);
    assert!(opps.len() >= 2, "the probe ran in claim and wave_end");
    for (i, o) in opps.iter().enumerate() {
        ck.check(&format!("opportunity {}", i + 1), o, "OpportunityInfo");
    }
    let items = seq(items);
    assert!(!items.is_empty(), "the probe's item was used");
    for (i, o) in items.iter().enumerate() {
        ck.check(&format!("item {}", i + 1), o, "ItemInfo");
    }
    // What the signature hooks received, each with the class it should be.
    let hook_args = seq(hook_args);
    assert!(hook_args.len() >= 4, "the probe ran in the signature hooks");
    for (i, a) in hook_args.iter().enumerate() {
        let Value::Table(t) = a else { panic!() };
        let class: String = t.raw_get("class").unwrap();
        ck.check(
            &format!("signature hook {} ({class})", i + 1),
            &t.raw_get::<Value>("value").unwrap(),
            &class,
        );
    }
    let asks = seq(asks);
    assert!(!asks.is_empty(), "the probe variant's build_wave ran");
    for (i, a) in asks.iter().enumerate() {
        ck.check(&format!("build_wave ask {}", i + 1), a, "WaveAsk");
    }
    let kinds: BTreeSet<String> = rolls
        .iter()
        .map(|r| match r {
            Value::Table(t) => t.raw_get::<String>("kind").unwrap(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(
        kinds,
        ["melee", "ranged", "structural"].map(String::from).into()
    );

    // What every method returned.
    let Value::Table(samples) = samples else {
        panic!()
    };
    let mut sampled = BTreeSet::new();
    for pair in samples.clone().pairs::<String, Value>() {
        let (key, calls) = pair.unwrap();
        let (class, method) = key.split_once('.').expect("Class.method");
        let m = spec::class(class)
            .and_then(|c| c.methods.iter().find(|m| m.name == method))
            .unwrap_or_else(|| panic!("the tour samples {key}, which spec.rs does not describe"));
        sampled.insert(key.clone());
        for (i, call) in seq(&calls).iter().enumerate() {
            let Value::Table(packed) = call else { panic!() };
            let n: i64 = packed.raw_get("n").unwrap();
            let at = format!("{key} call {}", i + 1);
            if m.returns.is_empty() {
                if n != 0 {
                    ck.err(&at, format!("returned {n} values; spec.rs says none"));
                }
            } else if n != 1 {
                ck.err(&at, format!("returned {n} values; spec.rs says one"));
            } else {
                ck.check(&at, &packed.raw_get::<Value>(1).unwrap(), m.returns);
            }
        }
    }
    let unsampled: Vec<String> = CLASSES
        .iter()
        .flat_map(|c| {
            c.methods
                .iter()
                .map(move |m| format!("{}.{}", c.name, m.name))
        })
        .filter(|k| !sampled.contains(k))
        .collect();
    assert!(
        unsampled.is_empty(),
        "tests/fixtures/api_probe/tour.lua calls none of: {unsampled:?}"
    );

    // Every class the API produces was met, and every optional field was seen set.
    let unmet: Vec<&str> = CLASSES
        .iter()
        .map(|c| c.name)
        .filter(|n| {
            !INPUT_ONLY.contains(n)
                && !POLICY_ONLY.iter().any(|(c, _)| c == n)
                && !ck.classes.contains(*n)
        })
        .collect();
    assert!(unmet.is_empty(), "no value of {unmet:?} was checked");
    for c in CLASSES
        .iter()
        .filter(|c| !INPUT_ONLY.contains(&c.name) && !POLICY_ONLY.iter().any(|(n, _)| *n == c.name))
    {
        for f in c.fields.iter().filter(|f| f.optional) {
            let key = format!("{}.{}", c.name, f.name);
            if !ck.optional_seen.contains(&key) && !NEVER_SET_YET.iter().any(|(k, _)| *k == key) {
                ck.errors
                    .push(format!("{key} (optional) was never seen with a value"));
            }
        }
    }
    assert!(ck.errors.is_empty(), "{}", ck.errors.join("\n"));
}

#[test]
fn option_tables_accept_exactly_the_spec_keys() {
    let host = open();
    let exec = |src: &str| host.vm().exec(src, "options").map(|_| ());
    exec("G = village.new_game({ seed = 1, table = 'empty' })").unwrap();
    for class in [
        "MoveOptions",
        "MeleeOptions",
        "ShotOptions",
        "StructuralOptions",
        "ModelFilter",
        "NewGameOptions",
        "CastOptions",
        "ActivateOptions",
    ] {
        let call = match class {
            "MoveOptions" => "G:move(1, { x = 1, y = 1 }, ",
            "MeleeOptions" => "G:melee(1, 2, ",
            "ShotOptions" => "G:shoot(1, 2, ",
            "StructuralOptions" => "G:structural(1, 'Town Hall', ",
            "ModelFilter" => "G:models(",
            "CastOptions" => "G:cast(1, 'Transfix', 1, 2, ",
            "ActivateOptions" => "G:activate(1, 2, ",
            _ => "village.new_game(",
        };
        let err = exec(&format!("{call}{{ no_such_option = true }})")).unwrap_err();
        let msg = err.to_string();
        let keys = spec::options(class).join(", ");
        assert!(
            msg.contains(&format!(
                "unknown option `no_such_option` (expected one of: {keys})"
            )),
            "{class}: {msg}"
        );
    }
}

#[test]
fn module_data_keys_of_the_spec_load() {
    // registry.rs keeps its data keys private; a module carrying the spec's keys must load.
    let dir = std::env::temp_dir().join(format!("village-api-stubs-{}", std::process::id()));
    let traits = dir.join("scripts/traits");
    std::fs::create_dir_all(&traits).unwrap();
    let keys: Vec<String> = spec::MODULE_DATA
        .iter()
        .map(|f| {
            format!(
                "{} = {}",
                f.name,
                if f.ty == "table" { "{}" } else { "'x'" }
            )
        })
        .collect();
    std::fs::write(
        traits.join("data_only.lua"),
        format!("return {{ {} }}\n", keys.join(", ")),
    )
    .unwrap();
    let opened = ScriptHost::open(
        &[Rosters::builtin_root(), dir.clone()],
        Limits::default(),
        1,
    );
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = opened {
        panic!("{}", e.join("\n"));
    }
}
