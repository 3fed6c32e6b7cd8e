//! Hook answers that are cyclic, nested without end, or numbers Rust cannot hold (issue 36, root causes
//! 4 and 15): a `melee_modifier` that returned `t` with `t[1] = t` overflowed the stack and aborted the
//! process, and `{ cost = 0/0 }` said "error converting Lua number to i64" without naming anyone. Every
//! answer is read through one bounded conversion (a depth limit, tables that hold themselves found,
//! a bound on its size), and every error names the script, the hook and the field. Each case runs the
//! binary, so an abort would be seen as one rather than end the test run.

use crate::child::{village, Mod, Ran};
use crate::finishes;

/// A scenario on the empty table: Bram the Smith beside an Orc Warrior (a Hunter of Group 1), the mod's
/// variant `x` in force when it has one, and its policy `x` when it has one.
const SCENE: &str = r#"
local opts = { seed = 3, table = "empty", variants = VARIANTS, policy = POLICY }
local g = village.new_game(opts)
local bram = g:place("Bram the Smith", { x = 22.5, y = 18 })
local orc = g:place("Orc Warrior", { x = 23.5, y = 18 }, { group = 1, behaviour = "Hunter" })
"#;

/// `village run` of `body` after [`SCENE`], with the mod made of `files`.
pub fn scene(files: &[(&str, &str)], body: &str) -> Ran {
    let owned: Vec<(String, String)> = files
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let body = body.to_string();
    finishes(move || {
        let refs: Vec<(&str, &str)> = owned
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let m = Mod::new("scene", &refs);
        let has = |rel: &str| owned.iter().any(|(a, _)| a == rel);
        let variants = if has("scripts/variants/x.lua") {
            "{ \"x\" }"
        } else {
            "{}"
        };
        let policy = if has("scripts/policies/x.lua") {
            "\"x\""
        } else {
            "\"default\""
        };
        let src = SCENE
            .replace("VARIANTS", variants)
            .replace("POLICY", policy)
            + &body;
        let file = m.write("case.lua", &src);
        let (arg, f) = (m.arg(), file.to_string_lossy().into_owned());
        village(&["run", "--mod", &arg, &f])
    })
}

/// A variant `x` whose hook `hook` is `function(ctx, self, arg) <body> end`.
fn hook(hook: &str, body: &str) -> String {
    format!("return {{\n\t{hook} = function(ctx, self, arg)\n{body}\n\tend,\n}}\n")
}

/// A Lua expression building a table that holds itself: under an array index and under a key.
const CYCLIC: &str = "(function() local t = {} t[1] = t t.value = t t.move = t return t end)()";

/// A Lua expression building tables nested 100,000 deep.
const DEEP: &str = "(function() local t = {} for _ = 1, 100000 do t = { t } end return t end)()";

/// What is triggered in the scene for each hook a variant may answer.
const TRIGGERS: &[(&str, &str)] = &[
    ("melee_modifier", "g:melee(bram, orc)"),
    ("win_rules", "g:force_dice({ 6, 1 }) g:melee(bram, orc)"),
    ("on_result", "g:force_dice({ 6, 1 }) g:melee(bram, orc)"),
    ("morale", "g:morale(bram, 'terror')"),
    ("order_cost", "g:orders(bram, 2, { { melee = orc } })"),
    ("on_activation_roll", "g:activate(bram, 2)"),
    ("movement", "g:move(bram, { x = 22.5, y = 10 })"),
];

#[test]
fn a_cyclic_modifier_answer_is_the_scripts_error_not_an_abort() {
    let v = hook(
        "melee_modifier",
        "\t\tlocal t = {}\n\t\tt[1] = t\n\t\treturn t",
    );
    let ran = scene(&[("scripts/variants/x.lua", &v)], "g:melee(bram, orc)");
    ran.exited(1).says(&[
        "scripts/variants/x.lua: melee_modifier returned",
        "holds itself",
    ]);
    assert!(!ran.stderr.contains("overflow"), "{}", ran.stderr);
}

#[test]
fn cyclic_and_deeply_nested_answers_of_every_hook_are_errors_naming_it() {
    for (name, trigger) in TRIGGERS {
        for (shape, expr, says) in [
            ("cyclic", CYCLIC, "holds itself"),
            ("deep", DEEP, "nested deeper than"),
        ] {
            let v = hook(name, &format!("\t\treturn {expr}"));
            let ran = scene(&[("scripts/variants/x.lua", &v)], trigger);
            assert!(ran.signal.is_none(), "{name} {shape}: {ran:?}");
            ran.exited(1)
                .says(&[&format!("scripts/variants/x.lua: {name} returned"), says]);
        }
    }
}

#[test]
fn cyclic_and_deep_answers_of_behaviours_and_policies_are_errors_naming_them() {
    let behaviour = |entry: &str, expr: &str| {
        format!(
            "return {{\n\ttarget = function(ctx, self) return {t} end,\n\tact = function(ctx, self, target) return {a} end,\n}}\n",
            t = if entry == "target" { expr } else { "ctx:models({ side = 'heroes' })[1]" },
            a = if entry == "act" { expr } else { "nil" },
        )
    };
    let policy = |entry: &str, expr: &str| {
        format!(
            "return {{\n\tactivate = function(ctx, self) return {a} end,\n\tact = function(ctx, self) return {o} end,\n\tcouncil = function(ctx, info) return {c} end,\n}}\n",
            a = if entry == "activate" { expr } else { "2" },
            o = if entry == "act" { expr } else { "nil" },
            c = if entry == "council" { expr } else { "nil" },
        )
    };
    for (shape, expr, says) in [
        ("cyclic", CYCLIC, "holds itself"),
        ("deep", DEEP, "nested deeper than"),
    ] {
        for entry in ["target", "act"] {
            let b = behaviour(entry, expr);
            let ran = scene(&[("scripts/behaviours/hunter.lua", &b)], "g:act(orc)");
            assert!(ran.signal.is_none(), "{entry} {shape}: {ran:?}");
            ran.exited(1).says(&[
                &format!("scripts/behaviours/hunter.lua: {entry} returned"),
                says,
            ]);
        }
        for (entry, trigger) in [
            ("activate", "g:force_dice({ 6, 6 }) g:hero_turn()"),
            ("act", "g:force_dice({ 6, 6 }) g:hero_turn()"),
            ("council", "g:council()"),
        ] {
            let p = policy(entry, expr);
            let ran = scene(&[("scripts/policies/x.lua", &p)], trigger);
            assert!(ran.signal.is_none(), "{entry} {shape}: {ran:?}");
            ran.exited(1)
                .says(&[&format!("scripts/policies/x.lua: {entry} returned"), says]);
        }
    }
}

#[test]
fn a_modifier_answer_of_a_hundred_thousand_nested_arrays_is_refused_and_the_session_goes_on() {
    // pcall'd in the run file: the error comes back as a value, the game is as it was, and a plain
    // command works after it.
    let v = hook("melee_modifier", &format!("\t\treturn {DEEP}"));
    let body = r#"
local before = #g:log()
local ok, err = pcall(g.melee, g, bram, orc)
assert(not ok)
print("ERR " .. tostring(err))
assert(#g:log() == before, "nothing was logged")
local n = #g:models()
g:place("Goblin Looter", { x = 5, y = 5 })
print("PLACED " .. tostring(#g:models() == n + 1))
"#;
    let ran = scene(&[("scripts/variants/x.lua", &v)], body);
    ran.exited(0);
    assert!(ran.stdout.contains("PLACED true"), "{ran:?}");
    assert!(
        ran.stdout.contains("melee_modifier returned") && ran.stdout.contains("nested deeper than"),
        "{ran:?}"
    );
}

#[test]
fn nan_inf_and_table_answers_name_the_script_the_hook_and_the_field() {
    // (hook, what it returns, what the error must say). None says "error converting".
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "order_cost",
            "{ cost = 0/0 }",
            &["order_cost returned cost = NaN"],
        ),
        (
            "order_cost",
            "{ cost = math.huge }",
            &["order_cost returned cost = inf"],
        ),
        (
            "order_cost",
            "{ cost = {} }",
            &["order_cost returned cost = a table"],
        ),
        (
            "order_cost",
            "{ cost = 1e300 }",
            &["order_cost returned cost = 1e300"],
        ),
        (
            "order_cost",
            "{ cost = 1, spend = {} }",
            &["order_cost returned spend = a table"],
        ),
        (
            "morale",
            "{ modifier = 0/0 }",
            &["morale returned modifier = NaN"],
        ),
        (
            "morale",
            "{ modifier = -math.huge }",
            &["morale returned modifier = -inf"],
        ),
        (
            "morale",
            "{ modifier = {} }",
            &["morale returned modifier = a table"],
        ),
        (
            "morale",
            "{ immune = 0/0 }",
            &["morale returned immune = NaN"],
        ),
        (
            "morale",
            "{ modifier = 1, reason = {} }",
            &["morale returned reason = a table"],
        ),
        (
            "win_rules",
            "{ gruesome_multiplier = 0/0 }",
            &["win_rules returned gruesome_multiplier = NaN"],
        ),
        (
            "win_rules",
            "{ lethal = 0/0 }",
            &["win_rules returned lethal = NaN"],
        ),
        (
            "on_result",
            "{ result = {} }",
            &["on_result returned result = a table"],
        ),
        (
            "on_result",
            "{ recoil = 0/0 }",
            &["on_result returned recoil = NaN"],
        ),
        (
            "on_result",
            "{ result = 'none', reason = 5 }",
            &["on_result returned reason = 5"],
        ),
        (
            "on_activation_roll",
            "{ reroll = 0/0 }",
            &["on_activation_roll returned reroll = NaN"],
        ),
        (
            "movement",
            "{ band = 0/0 }",
            &["movement returned band = NaN"],
        ),
        (
            "movement",
            "{ ignore_terrain = { {} } }",
            &["movement returned ignore_terrain[1] = a table"],
        ),
        (
            "movement",
            "{ free_disengage = { 0/0 } }",
            &["movement returned free_disengage[1] = NaN"],
        ),
        ("melee_modifier", "0/0", &["melee_modifier returned NaN"]),
        (
            "melee_modifier",
            "{ value = math.huge }",
            &["melee_modifier returned value = inf"],
        ),
        (
            "melee_modifier",
            "{ value = 1, to = {} }",
            &["melee_modifier returned to = a table"],
        ),
        (
            "melee_modifier",
            "{ value = 1, reason = 0/0 }",
            &["melee_modifier returned reason = NaN"],
        ),
    ];
    for (name, answer, says) in cases {
        let trigger = TRIGGERS
            .iter()
            .find(|(h, _)| h == name)
            .map(|(_, t)| *t)
            .expect("a trigger");
        let v = hook(name, &format!("\t\treturn {answer}"));
        let ran = scene(&[("scripts/variants/x.lua", &v)], trigger);
        let mut all = vec!["scripts/variants/x.lua: "];
        all.extend_from_slice(says);
        ran.exited(1).says(&all);
        assert!(
            !ran.stderr.contains("error converting"),
            "{name} {answer}: {}",
            ran.stderr
        );
    }
}

#[test]
fn nan_and_table_answers_of_behaviours_and_policies_name_the_field() {
    let b = |target: &str, act: &str| {
        format!("return {{\n\ttarget = function(ctx, self) return {target} end,\n\tact = function(ctx, self, t) return {act} end,\n}}\n")
    };
    let near = "ctx:models({ side = 'heroes' })[1]";
    for (target, act, says) in [
        ("{ id = 0/0 }", "nil", "target returned id = NaN"),
        ("{ id = 1e300 }", "nil", "target returned id = 1e300"),
        ("{ name = {} }", "nil", "target returned name = a table"),
        (
            near,
            "{ melee = { id = 0/0 } }",
            "act returned melee.id = NaN",
        ),
        (
            near,
            "{ claim = { id = math.huge } }",
            "act returned claim.id = inf",
        ),
        (
            near,
            "{ move = { x = 1, y = {} } }",
            "act returned move.y = a table",
        ),
        (
            near,
            "{ structural = { name = 5 } }",
            "act returned structural.name = 5",
        ),
    ] {
        let ran = scene(
            &[("scripts/behaviours/hunter.lua", &b(target, act))],
            "g:act(orc)",
        );
        ran.exited(1)
            .says(&["scripts/behaviours/hunter.lua: ", says]);
        assert!(!ran.stderr.contains("error converting"), "{}", ran.stderr);
    }
}

#[test]
fn a_ctx_method_given_nan_or_a_cyclic_table_names_the_line_and_the_argument() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "on_result",
            "ctx:roll(0/0)",
            &["x.lua:3: ", "ctx:roll", "NaN"],
        ),
        (
            "on_result",
            "ctx:roll(1, {})",
            &["x.lua:3: ", "ctx:roll", "a table"],
        ),
        (
            "on_result",
            "ctx:grant({ models = { self }, value = 0/0 })",
            &["x.lua:3: ", "ctx:grant", "value = NaN"],
        ),
        (
            "on_result",
            &format!("ctx:grant({{ models = {CYCLIC}, value = 1 }})"),
            &["x.lua:3: ", "ctx:grant", "holds itself"],
        ),
        (
            "on_result",
            "ctx:worsen_quality(self, 0/0)",
            &["x.lua:3: ", "ctx:worsen_quality", "NaN"],
        ),
        (
            "melee_modifier",
            "ctx:model(0/0)",
            &["x.lua:3: ", "ctx:model", "NaN"],
        ),
    ];
    for (name, call, says) in cases {
        let trigger = TRIGGERS
            .iter()
            .find(|(h, _)| h == name)
            .map(|(_, t)| *t)
            .expect("a trigger");
        let v = hook(name, &format!("\t\t{call}"));
        let ran = scene(&[("scripts/variants/x.lua", &v)], trigger);
        ran.exited(1).says(says);
        // The first line says it all: where, which method, which argument.
        let head = ran.stderr.lines().next().unwrap_or_default();
        for s in says.iter() {
            assert!(
                head.contains(s),
                "{call}: the headline {head:?} lacks {s:?}"
            );
        }
    }
}

#[test]
fn village_api_arguments_that_are_cyclic_or_deep_are_refused_with_the_line() {
    // The `village` API reads what a run file gives it through the same conversion.
    for (body, says) in [
        (format!("g:order(bram, {CYCLIC})"), "holds itself"),
        (
            format!("g:order(bram, {{ move = {DEEP} }})"),
            "nested deeper than",
        ),
        (format!("g:council({CYCLIC})"), "holds itself"),
        (
            format!("g:orders(bram, 2, {{ {DEEP} }})"),
            "nested deeper than",
        ),
        (format!("village.new_game({{ heroes = {DEEP} }})"), "heroes"),
    ] {
        let ran = scene(&[], &body);
        ran.exited(1).says(&["case.lua:", says]);
        assert!(ran.signal.is_none(), "{body}: {ran:?}");
    }
}
