//! Random hook answers through real hooks (issue 36): tables nested at random, tables that hold
//! themselves, wrong types, misspelt keys, NaN, infinities, huge numbers, long strings, views, functions.
//! Each generated answer is returned by a mod's `melee_modifier`, `morale`, `order_cost`, `win_rules`,
//! `on_result`, `on_activation_roll` and `movement` (each a variant of its own) and by a Behaviour's
//! `target` and `act`; the scenario sets each off under `pcall`. Whatever the answer, the hook's command
//! either works or fails with an error naming the script that answered, never a panic, an abort or a
//! bare conversion error; a failed command leaves the game as it was, and the next command works.

use crate::child::Scratch;
use crate::finishes;
use proptest::prelude::*;
use village::roster::Rosters;
use village::script::{Limits, ScriptHost};

/// A generated answer: a Lua expression, a table of entries, or the table `n` levels up (a cycle).
#[derive(Debug, Clone)]
enum Ans {
    Leaf(&'static str),
    Table(Vec<(Key, Ans)>),
    Up(usize),
}

#[derive(Debug, Clone)]
enum Key {
    Name(&'static str),
    Index(i64),
}

/// Expressions a leaf may be: every type, edge numbers, the answers' own words, long text, views.
const LEAVES: &[&str] = &[
    "nil",
    "true",
    "false",
    "0",
    "1",
    "-1",
    "2",
    "3",
    "100",
    "101",
    "1e300",
    "-1e300",
    "0/0",
    "math.huge",
    "-math.huge",
    "0.5",
    "math.maxinteger",
    "math.mininteger",
    "'self'",
    "'opponent'",
    "'attacker'",
    "'none'",
    "'recoil'",
    "'defeated'",
    "'all'",
    "'best'",
    "'long'",
    "'wave:fuzz'",
    "'x'",
    "''",
    "string.rep('z', 3000)",
    "self",
    "ctx:models({})[1]",
    "ctx:town_hall()",
    "print",
    "ctx",
    "(function() local t = {} for _ = 1, 20 do t = { t } end return t end)()",
];

/// Keys: every answer's own, some misspelt, small indices.
const NAMES: &[&str] = &[
    "value",
    "to",
    "reason",
    "modifier",
    "immune",
    "cost",
    "spend",
    "reroll",
    "result",
    "recoil",
    "lethal",
    "gruesome_multiplier",
    "flying",
    "band",
    "one_move",
    "ignore_terrain",
    "free_disengage",
    "move",
    "melee",
    "shoot",
    "within",
    "id",
    "name",
    "x",
    "y",
    "edge",
    "valeu",
    "modifer",
    "cots",
    "rerol",
    "flyng",
    "mvoe",
];

fn leaf() -> impl Strategy<Value = Ans> {
    prop_oneof![
        8 => prop::sample::select(LEAVES).prop_map(Ans::Leaf),
        1 => (0usize..3).prop_map(Ans::Up),
    ]
}

fn key() -> impl Strategy<Value = Key> {
    prop_oneof![
        3 => prop::sample::select(NAMES).prop_map(Key::Name),
        1 => (1i64..4).prop_map(Key::Index),
    ]
}

fn answer() -> impl Strategy<Value = Ans> {
    leaf().prop_recursive(4, 40, 5, |inner| {
        prop::collection::vec((key(), inner), 0..5).prop_map(Ans::Table)
    })
}

/// Lua statements building `a` into `out`; the expression that names it. `stack` holds the tables
/// being built, innermost last, for `Up`.
fn render(a: &Ans, out: &mut String, stack: &mut Vec<String>, n: &mut usize) -> String {
    match a {
        Ans::Leaf(e) => format!("({e})"),
        Ans::Up(k) => match stack.len().checked_sub(1 + k) {
            Some(i) => stack[i].clone(),
            None => "nil".to_string(),
        },
        Ans::Table(entries) => {
            *n += 1;
            let t = format!("t{n}");
            out.push_str(&format!("\tlocal {t} = {{}}\n"));
            stack.push(t.clone());
            for (k, v) in entries {
                let e = render(v, out, stack, n);
                let k = match k {
                    Key::Name(s) => format!("{s:?}"),
                    Key::Index(i) => i.to_string(),
                };
                out.push_str(&format!("\t{t}[{k}] = {e}\n"));
            }
            stack.pop();
            t
        }
    }
}

/// The Lua function `make(ctx, self)` that returns the answer.
fn make(a: &Ans) -> String {
    let mut body = String::new();
    let e = render(a, &mut body, &mut Vec::new(), &mut 0);
    format!("local function make(ctx, self)\n{body}\treturn {e}\nend\n")
}

/// The hooks under test: (variant, hook, how the scene sets it off).
const HOOKS: &[(&str, &str, &str)] = &[
    ("fuzz_melee", "melee_modifier", "g:melee(bram, orc)"),
    (
        "fuzz_win",
        "win_rules",
        "g:force_dice({ 6, 1 }) g:melee(bram, orc)",
    ),
    (
        "fuzz_result",
        "on_result",
        "g:force_dice({ 6, 1 }) g:melee(bram, orc)",
    ),
    ("fuzz_morale", "morale", "g:morale(bram, 'terror')"),
    (
        "fuzz_cost",
        "order_cost",
        "g:orders(bram, 2, { { melee = orc } })",
    ),
    ("fuzz_reroll", "on_activation_roll", "g:activate(bram, 2)"),
    (
        "fuzz_move",
        "movement",
        "g:move(bram, { x = 22.5, y = 10 })",
    ),
];

/// The scene: for each hook, a game with its variant, the hook set off under `pcall`, then a plain
/// command; and an enemy turn with the Behaviour. One line per command: `name ok`, `name err <text>`,
/// and `name broken` when a failed command left the game changed or the next command failed.
fn scene() -> String {
    let mut s = String::from("local out = {}\n");
    let cases: Vec<(String, String, String)> = HOOKS
        .iter()
        .map(|(v, _, t)| (format!("{{ '{v}' }}"), v.to_string(), t.to_string()))
        .chain(std::iter::once((
            "{}".to_string(),
            "behaviour".to_string(),
            "g:force_dice({ 6, 6 }) g:enemy_turn()".to_string(),
        )))
        .collect();
    for (variants, name, trigger) in cases {
        s.push_str(&format!(
            r#"do
	local g = village.new_game({{ seed = 3, table = "empty", variants = {variants} }})
	local bram = g:place("Bram the Smith", {{ x = 22.5, y = 18 }})
	local orc = g:place("Orc Warrior", {{ x = 23.5, y = 18 }}, {{ group = 1, behaviour = "Hunter" }})
	local before = #g:log()
	local ok, err = pcall(function() {trigger} end)
	if ok then
		out[#out + 1] = "{name} ok"
	else
		out[#out + 1] = "{name} err " .. tostring(err):gsub("\n", " ")
		local fine = pcall(function() return g:distance(bram, orc) end)
		if #g:log() ~= before or not fine then out[#out + 1] = "{name} broken" end
	end
end
"#
        ));
    }
    s.push_str("return table.concat(out, \"\\n\")\n");
    s
}

/// Write the answer into every hook of the fuzz mod in `dir`.
fn write_mod(dir: &Scratch, a: &Ans) {
    let f = make(a);
    for (variant, hook, _) in HOOKS {
        dir.write(
            &format!("scripts/variants/{variant}.lua"),
            &format!(
                "{f}return {{\n\t{hook} = function(ctx, self) return make(ctx, self) end,\n}}\n"
            ),
        );
    }
    dir.write(
        "scripts/behaviours/hunter.lua",
        &format!(
            "{f}return {{\n\ttarget = function(ctx, self) return make(ctx, self) end,\n\tact = function(ctx, self, t) return make(ctx, self) end,\n}}\n"
        ),
    );
}

/// Run every hook with answer `a`; each line of the scene, or why the whole run failed.
fn outcome(host: &ScriptHost, dir: &Scratch, a: &Ans) -> Result<Vec<String>, String> {
    write_mod(dir, a);
    host.reload_scripts()
        .map_err(|e| format!("reload: {e:?}"))?;
    host.vm()
        .eval_string(&scene())
        .map(|s| s.lines().map(str::to_string).collect())
        .map_err(|e| format!("the scene failed: {e}"))
}

/// What every line must be: ok, or an error naming the script that answered and nothing of Rust's.
fn check(a: &Ans, lines: &[String]) -> Result<(), TestCaseError> {
    // A line for each hook and one for the Behaviour, at least.
    prop_assert!(lines.len() > HOOKS.len(), "{:?}", lines);
    for line in lines {
        prop_assert!(!line.ends_with(" broken"), "{line} for {a:?}");
        let Some((name, err)) = line.split_once(" err ") else {
            continue;
        };
        let script = if name == "behaviour" {
            "scripts/behaviours/hunter.lua".to_string()
        } else {
            format!("scripts/variants/{name}.lua")
        };
        prop_assert!(err.contains(&script), "{name}: {err} for {a:?}");
        for bad in ["error converting", "overflow", "panicked", "C stack"] {
            prop_assert!(!err.contains(bad), "{name}: {err} for {a:?}");
        }
        prop_assert!(
            err.len() < 20_000,
            "{name}: an error of {} bytes",
            err.len()
        );
    }
    Ok(())
}

#[test]
fn random_answers_through_real_hooks_are_accepted_or_name_their_script() {
    finishes(|| {
        let dir = Scratch::new("answers-prop");
        let a0 = Ans::Leaf("nil");
        write_mod(&dir, &a0);
        let host = ScriptHost::open(
            &[Rosters::builtin_root(), dir.path().to_path_buf()],
            Limits::default(),
            1,
        )
        .expect("the fuzz mod loads");
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
            cases: 48,
            failure_persistence: None,
            ..ProptestConfig::default()
        });
        let result = runner.run(&answer(), |a| {
            let lines = outcome(&host, &dir, &a).map_err(TestCaseError::fail)?;
            check(&a, &lines)
        });
        if let Err(e) = result {
            panic!("{e}");
        }
        // The same session still plays a plain game once the mod answers nothing.
        write_mod(&dir, &a0);
        let lines = outcome(&host, &dir, &a0).expect("a plain scene");
        assert!(lines.iter().all(|l| l.ends_with(" ok")), "{lines:?}");
    });
}
