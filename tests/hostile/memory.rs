//! Kernel memory that in-range answers grew without bound (issue 36, root cause 7): 200,000 modifiers
//! a roll, 2,000 `ctx:grant` calls a hook, 100,000 `ctx:roll` calls, 3,000 live games, `sim
//! --keep-going` over games that fail with 40 MB messages — each passed 1 GB outside the VM's memory
//! limit. Each is bounded now, with an error naming the script (and its line where there is one) and
//! the bound; each case runs the binary and reads its peak memory (`wait4`'s maximum resident set
//! size, what `/usr/bin/time -v` prints), which must stay under 300 MB.

use crate::answers::scene;
use crate::child::{play_variant, village, Mod};
use crate::finishes;

#[test]
fn two_hundred_thousand_modifiers_a_roll_are_refused() {
    let v = r#"return {
	melee_modifier = function(ctx, self, roll)
		local all = {}
		for i = 1, 200000 do all[i] = { value = 1, reason = "one more" } end
		return all
	end,
}
"#;
    let body = r#"
local before = #g:log()
for _ = 1, 50 do
	local ok, err = pcall(g.melee, g, bram, orc)
	if not ok then print("ERR " .. tostring(err)) end
end
print("LOGGED " .. (#g:log() - before))
"#;
    let ran = scene(&[("scripts/variants/x.lua", v)], body);
    ran.exited(0).small();
    assert!(
        ran.stdout
            .contains("scripts/variants/x.lua: melee_modifier returned")
            && ran.stdout.contains("at most"),
        "{ran:?}"
    );
    assert!(
        ran.stdout.contains("LOGGED 0"),
        "nothing was logged: {ran:?}"
    );
}

#[test]
fn two_thousand_grants_a_hook_are_refused_at_the_line() {
    let v = r#"return {
	on_opponent_activation = function(ctx, self, activating)
		for _ = 1, 2000 do
			ctx:grant({ models = { self }, value = 1, ends = "wave", reason = string.rep("g", 1000) })
		end
	end,
}
"#;
    let m = Mod::variant("x", v);
    let ran = finishes(move || play_variant(&m, "x"));
    ran.exited(1)
        .small()
        .says(&["scripts/variants/x.lua:4: ", "ctx:grant", "at most"]);
}

#[test]
fn a_hundred_thousand_rolls_a_hook_are_refused_at_the_line() {
    let v = r#"return {
	on_result = function(ctx, self, win)
		for _ = 1, 100000 do
			ctx:roll(6, string.rep("p", 1000))
		end
	end,
}
"#;
    let m = Mod::variant("x", v);
    let ran = finishes(move || play_variant(&m, "x"));
    ran.exited(1)
        .small()
        .says(&["scripts/variants/x.lua:4: ", "ctx:roll", "at most"]);
}

#[test]
fn three_thousand_live_games_are_refused_and_dropped_ones_are_collected() {
    let body = r#"
local made = 0
for _ = 1, 300 do
	local g2 = village.new_game({ table = "empty" })
	made = made + 1
end
print("DROPPED " .. made)
local keep = {}
local ok, err = pcall(function()
	for i = 1, 3000 do keep[i] = village.new_game({}) end
end)
print("KEPT " .. #keep .. " " .. tostring(err))
"#;
    let ran = scene(&[], body);
    ran.exited(0).small();
    assert!(ran.stdout.contains("DROPPED 300"), "{ran:?}");
    assert!(
        ran.stdout.contains("case.lua:") && ran.stdout.contains("games are live"),
        "{ran:?}"
    );
}

#[test]
fn sim_keep_going_over_32_mib_errors_keeps_them_short() {
    // 32 MiB made by doubling: a hook's budget charges every byte a C function copies, so
    // `string.rep("x", 4e7)` stops before it is made; `..` is one VM instruction (docs/reliability.md).
    let v = r#"return {
	melee_modifier = function(ctx, self, roll)
		local big = "x"
		for _ = 1, 25 do
			big = big .. big
		end
		error(big)
	end,
}
"#;
    let m = Mod::variant("x", v);
    let arg = m.arg();
    let ran = finishes(move || {
        village(&[
            "sim",
            "--games",
            "12",
            "--length",
            "intro",
            "--jobs",
            "1",
            "--mod",
            &arg,
            "--variant",
            "x",
            "--keep-going",
        ])
    });
    ran.exited(1).small();
    let all = format!("{}{}", ran.stdout, ran.stderr);
    assert!(
        all.contains("bytes more)"),
        "the texts are cut: {}",
        &all[..all.len().min(4000)]
    );
    assert!(all.len() < 2_000_000, "{} bytes of output", all.len());
}

#[test]
fn a_flood_of_rolls_over_many_hooks_stops_at_the_games_log_bound() {
    // Each hook call stays under its own bounds (60 rolls); the game's log is what fills, one
    // activation at a time.
    let v = r#"return {
	on_activation_roll = function(ctx, self, roll)
		for _ = 1, 60 do
			ctx:roll(6, string.rep("p", 1000))
		end
	end,
}
"#;
    let body = r#"
local err
for _ = 1, 100000 do
	local ok, e = pcall(g.activate, g, bram, 2)
	if not ok then err = e break end
end
print("ERR " .. tostring(err))
"#;
    let ran = scene(&[("scripts/variants/x.lua", v)], body);
    ran.exited(0).small();
    assert!(
        ran.stdout.contains("the game's log holds") && ran.stdout.contains("at most"),
        "{ran:?}"
    );
}

#[test]
fn a_flood_of_reasons_from_a_policy_is_refused() {
    // Decisions are kept in a run file's games: every `ctx:why` was kept, each with its candidates.
    let p = r#"return {
	activate = function(ctx, self) return 2 end,
	act = function(ctx, self)
		local all = ctx:models({})
		for _ = 1, 100000 do
			ctx:why(string.rep("r", 1000), all)
		end
	end,
}
"#;
    let body = r#"
for _ = 1, 5 do g:place("Goblin Looter", { x = 5 + _, y = 30 }, { group = 2, behaviour = "Raider" }) end
g:force_dice({ 6, 6 })
local ok, err = pcall(g.hero_turn, g)
print("ERR " .. tostring(err))
"#;
    let ran = scene(&[("scripts/policies/x.lua", p)], body);
    ran.exited(0).small();
    assert!(
        ran.stdout.contains("x.lua:6: ")
            && ran.stdout.contains("ctx:why")
            && ran.stdout.contains("at most"),
        "{ran:?}"
    );
}
