//! Scripts that try to escape the instruction budget: finalizers, message handlers, to-be-closed
//! variables, C functions doing unmetered work, and hooks that set off other hooks.

use crate::{finishes, fixture, hook_error, vm_with};
use village::roster::Rosters;
use village::script::{Limits, ScriptError, ScriptHost};

#[test]
fn a_finalizer_is_refused_where_it_is_set() {
    let (e, goes_on) =
        hook_error("local t = setmetatable({}, { __gc = function() while true do end end })");
    assert!(e.to_string().starts_with("evil.lua:1:"), "{e}");
    assert!(e.to_string().contains("__gc"), "{e}");
    assert!(goes_on);
    // A metatable without one is still fine, and one given `__gc` later never finalizes (Lua marks an
    // object only when its metatable has `__gc` at setmetatable).
    let out = finishes(|| {
        let vm = vm_with(Limits::default());
        vm.eval_string(
            "local mt = {} local t = setmetatable({}, mt) \
             mt.__gc = function() while true do end end \
             t = nil collectgarbage() return 'done'",
        )
        .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("done"));
}

#[test]
fn a_finalizer_at_the_top_of_an_unused_variant_is_a_load_error_not_a_hang() {
    let errors = finishes(|| {
        match ScriptHost::open(
            &[Rosters::builtin_root(), fixture("finalizer_at_load")],
            Limits::default(),
            1,
        ) {
            Ok(_) => Vec::new(),
            Err(e) => e,
        }
    });
    let all = errors.join("\n");
    assert!(
        all.contains("finalizer_at_load/scripts/variants/evil.lua:3:"),
        "{all}"
    );
    assert!(all.contains("__gc"), "{all}");
}

#[test]
fn an_xpcall_handler_that_loops_after_the_budget_error_is_stopped() {
    let (e, goes_on) =
        hook_error("xpcall(function() while true do end end, function() while true do end end)");
    assert!(matches!(e, ScriptError::Budget(_)), "{e:?}");
    assert!(e.to_string().starts_with("evil.lua:1:"), "{e}");
    assert!(goes_on);
    // A handler still sees ordinary errors.
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "local ok, m = xpcall(error, function(m) return 'handled ' .. m end, 'x') return m",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("handled x"));
}

#[test]
fn to_be_closed_variables_are_refused_at_load() {
    let (e, goes_on) = hook_error(
        "local ok = pcall(function()\n  local x <close> = setmetatable({}, { __close = function() while true do end end })\n  while true do end\nend)",
    );
    assert!(e.to_string().starts_with("evil.lua:2:"), "{e}");
    assert!(e.to_string().contains("<close>"), "{e}");
    assert!(goes_on);
    // `load` refuses them too, and says so in its second result.
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string("local f, e = load('local x <close> = nil', '=chunk') return e")
            .map_err(|e| e.to_string())
    });
    let out = out.expect("load reports, it does not raise");
    assert!(
        out.starts_with("chunk:1:") && out.contains("<close>"),
        "{out}"
    );
}

#[test]
fn c_functions_that_work_on_huge_sizes_spend_the_budget() {
    for src in [
        "table.move({}, 1, 1 << 40, 2)",
        "for i = 1, 1e9 do local s = string.rep('x', 5e7) end",
        "local s = string.rep('x', 1e6) for i = 1, 1e9 do local t = s:upper() end",
        "local t = {} for i = 1, 1e5 do t[i] = i end for i = 1, 1e9 do table.insert(t, 1, i) table.remove(t, 1) end",
        "local t = {} for i = 1, 1e5 do t[i] = -i end for i = 1, 1e9 do table.sort(t) end",
        "local s = 'return ' .. string.rep('1 + ', 1e5) .. '1' for i = 1, 1e9 do load(s) end",
        // Backtracking patterns: one call would run for hours inside Lua's own matcher.
        "string.find(string.rep('a', 30000), string.rep('.-', 30) .. 'b')",
        "local s = string.rep('a', 30000) for w in s:gmatch(string.rep('a?', 40) .. 'b') do end",
        "string.gsub(string.rep('a', 30000), string.rep('.-', 30) .. 'b', '')",
        "string.match(string.rep('a', 1e6), string.rep('a', 1e5) .. 'b')",
        "string.find(string.rep('a', 1e6), string.rep('a', 1e5) .. 'b', 1, true)",
    ] {
        let (e, goes_on) = hook_error(src);
        assert!(matches!(e, ScriptError::Budget(_)), "{src}: {e:?}");
        assert!(e.to_string().starts_with("evil.lua:1:"), "{src}: {e}");
        assert!(goes_on, "{src}");
    }
    // Patterns still match as Lua's do, and their errors still name the script's line.
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "local a = ('key = value'):match('^(%w+)%s*=%s*(%w+)$') \
                 local n = select(2, ('a,b,,c'):gsub(',', ';')) \
                 local ok, e = pcall(string.find, 'x', '[a') \
                 return a .. ' ' .. n .. ' ' .. e",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("key 3 malformed pattern (missing ']')"));
}

#[test]
fn a_hook_doing_work_no_instruction_count_sees_is_stopped_by_its_time_limit() {
    // The hook's own net (`Limits::hook_millis`, 2 s): how long it took is printed, never asserted.
    let (e, goes_on) =
        hook_error("local s = string.rep('x', 1e6) for i = 1, 1e9 do local t = s .. s end");
    assert!(matches!(e, ScriptError::Budget(_)), "{e:?}");
    assert!(e.to_string().starts_with("evil.lua:1:"), "{e}");
    assert!(goes_on);
}

#[test]
fn work_no_instruction_count_sees_is_stopped_by_the_time_limit() {
    // `..` is one VM instruction however long the strings: a chunk given 200 ms of wall time stops.
    let e = finishes(|| {
        let vm = vm_with(Limits {
            chunk_millis: 200,
            ..Limits::default()
        });
        let e = vm
            .exec(
                "local s = string.rep('x', 1e6) for i = 1, 1e9 do local t = s .. s end",
                "evil.lua",
            )
            .expect_err("the loop is stopped");
        assert_eq!(vm.eval_string("return 1 + 1").ok().as_deref(), Some("2"));
        e
    });
    assert!(matches!(e, ScriptError::Budget(_)), "{e:?}");
    assert!(e.to_string().starts_with("evil.lua:1:"), "{e}");
    assert!(e.to_string().contains("time limit"), "{e}");
}

#[test]
fn a_hook_pays_for_the_scripts_it_sets_off_through_ctx() {
    let (e, log_unchanged) = finishes(|| {
        let host = ScriptHost::open(
            &[Rosters::builtin_root(), fixture("loop_in_nested_hook")],
            Limits::default(),
            1,
        )
        .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")));
        let e = host
            .vm()
            .eval_string(
                r#"
                g = village.new_game({ seed = 1, table = "empty", variants = { "evil" } })
                orc = g:place("Orc Warrior", { x = 3, y = 3 })
                tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
                before = #g:log()
                return g:melee(orc, tobin)
                "#,
            )
            .expect_err("the hook is stopped");
        // The melee was refused whole: no roll, no result in the log.
        let same = host
            .vm()
            .eval_string("return #g:log() == before")
            .map_err(|e| e.to_string());
        (e, same)
    });
    assert!(matches!(e, ScriptError::Budget(_)), "{e:?}");
    assert!(
        e.to_string()
            .contains("loop_in_nested_hook/scripts/variants/evil.lua:"),
        "{e}"
    );
    assert_eq!(log_unchanged.as_deref(), Ok("true"));
}
