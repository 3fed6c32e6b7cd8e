//! Free orders that never end (issue 36, root cause 6): `order_cost` answering `{ cost = 0 }`, a
//! documented value, made every order free, and the turn engine asked for orders forever (a hang that
//! reached 1.8 GB in a minute). A model has at most three actions a turn (SUPPLEMENT §3); an order a
//! script makes free is still an order, and a model takes at most `MAX_FREE_ORDERS` of them in one
//! activation: past that, the cost change is refused (a `refused` event naming the script) and the
//! order costs what the rulebook says, so every activation ends.

use crate::answers::scene;
use crate::child::{village, Mod, Scratch};
use crate::finishes;

/// A variant `x` whose `order_cost` answers `answer` for every order `when` accepts.
fn free(when: &str, answer: &str) -> String {
    format!(
        "return {{\n\torder_cost = function(ctx, self, order)\n\t\tif {when} then\n\t\t\treturn {answer}\n\t\tend\n\tend,\n}}\n"
    )
}

/// `village play --auto` of an Intro game with variant `x` of `m`, its log written; (exit, stderr, log).
fn play_logged(m: &Mod, seed: &str) -> (Option<i32>, Option<i32>, String, String) {
    let log = Scratch::new("free-log");
    let file = log.path().join("game.jsonl");
    let (arg, f) = (m.arg(), file.to_string_lossy().into_owned());
    let seed = seed.to_string();
    let ran = finishes(move || {
        village(&[
            "play",
            "--auto",
            "--length",
            "intro",
            "--seed",
            &seed,
            "--mod",
            &arg,
            "--variant",
            "x",
            "--log",
            &f,
        ])
    });
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    (ran.code, ran.signal, ran.stderr, text)
}

#[test]
fn every_order_free_ends_every_activation_and_the_game() {
    let m = Mod::variant("x", &free("true", "{ cost = 0 }"));
    for seed in ["1", "2"] {
        let (code, signal, err, log) = play_logged(&m, seed);
        assert_eq!((code, signal), (Some(0), None), "seed {seed}: {err}");
        assert!(
            log.contains("\"event\":\"refused\""),
            "seed {seed}: no refusal logged"
        );
        assert!(
            log.contains("free orders") && log.contains("scripts/variants/x.lua"),
            "seed {seed}: the refusal names the script and the rule"
        );
    }
}

#[test]
fn free_moves_free_attacks_and_free_hero_orders_end_too() {
    for when in [
        "order.kind == 'move' or order.kind == 'approach'",
        "order.kind == 'melee' or order.kind == 'shoot' or order.kind == 'structural'",
        "ctx:model(self.id).side == 'heroes'",
        "self.side == 'enemies'",
    ] {
        let m = Mod::variant("x", &free(when, "{ cost = 0, reason = 'quick' }"));
        let (code, signal, err, _) = play_logged(&m, "1");
        assert_eq!((code, signal), (Some(0), None), "{when}: {err}");
    }
}

#[test]
fn a_sim_of_free_orders_finishes() {
    let m = Mod::variant("x", &free("true", "{ cost = 0 }"));
    let arg = m.arg();
    let ran = finishes(move || {
        village(&[
            "sim",
            "--games",
            "3",
            "--seed",
            "2",
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
    ran.exited(0);
}

#[test]
fn scripted_orders_given_free_stop_being_free_after_the_limit() {
    // Ten one-leg moves with one action: the first three are free, the fourth costs the action and is
    // taken, and the rest find no action left.
    let v = free("order.kind == 'move'", "{ cost = 0 }");
    let body = r#"
g:remove(orc)
local orders = {}
for i = 1, 10 do orders[i] = { move = { x = 22.5, y = 18 - i } } end
local done = g:orders(bram, 1, orders)
local moved, refused = 0, 0
for _, d in ipairs(done) do if d.did == "moved" then moved = moved + 1 end end
for _, e in ipairs(g:log()) do if e.event == "refused" then refused = refused + 1; print(e.reason) end end
print("MOVED " .. moved .. " REFUSED " .. refused)
"#;
    let ran = scene(&[("scripts/variants/x.lua", &v)], body);
    ran.exited(0);
    assert!(ran.stdout.contains("MOVED 4 REFUSED 1"), "{ran:?}");
    assert!(ran.stdout.contains("free orders"), "{ran:?}");
}
