//! C functions whose loops are not charged by their arguments' sizes alone (issue 36, root causes 3 and
//! 16): `string.rep` of the empty string runs its loop a trillion times for an empty result, a count
//! given as a numeral string, a table whose `__len` claims a trillion elements, a range read through
//! `__index`, `string.format` arguments past the third, `table.unpack`, `string.byte`,
//! `collectgarbage`, `string.pack`, `packsize`, `unpack` and `tonumber` on a megabyte. Each is charged
//! by the iterations it makes, so the budget stops it at the script's line wherever it runs: a hook, a
//! chunk (`village run`, the REPL), `check` and a reload.

use crate::bin::{run, s, scratch, text, village};
use crate::{finishes, fixture, hook_error, vm_with};
use std::time::Duration;
use village::roster::Rosters;
use village::script::{Limits, ScriptError, ScriptHost, BUDGET_MESSAGE};

/// Sources each of which loops in C far past any budget while its result stays small.
const UNCHARGED_LOOPS: [&str; 17] = [
    "string.rep('', 1e12)",
    "string.rep('', 1e12, '')",
    "local s = '' local r = s:rep(1e12)",
    "local r = (''):rep(1e12, '')",
    "string.rep('', '1e12')",
    "table.move({}, '1', '1099511627776', 2)",
    "table.insert(setmetatable({}, { __len = function() return 1e12 end }), 1, 0)",
    "table.remove(setmetatable({}, { __len = function() return 1e12 end }), 1)",
    "local big = {} for i = 1, 1e5 do big[i] = '' end \
     local t = setmetatable({}, { __index = big }) \
     for i = 1, 1e9 do table.concat(t, '', 1, 1e5) end",
    "local s = ('x'):rep(1e7) local t = {} for i = 1, 1000 do t[i] = s end \
     local f = ('%.0s'):rep(1000) for i = 1, 1e9 do string.format(f, table.unpack(t)) end",
    "for i = 1, 1e9 do local a = table.unpack({}, 1, 9e5) end",
    "local s = ('x'):rep(9e5) for i = 1, 1e9 do local b = s:byte(1, -1) end",
    "local t = {} for i = 1, 5e5 do t[i] = 'xxxxxxxxxxxxxxxxxxxxxxxxxx' .. i end \
     for i = 1, 1e9 do collectgarbage() end",
    "local f = ('x'):rep(1e6) for i = 1, 1e9 do string.pack(f) end",
    "local f = ('x'):rep(1e6) for i = 1, 1e9 do string.packsize(f) end",
    "local f, s = ('b'):rep(2e5), ('a'):rep(2e5) for i = 1, 1e9 do string.unpack(f, s) end",
    "local s = (' '):rep(1e6) for i = 1, 1e9 do local n = tonumber(s) end",
];

/// The budget error (not the wall-clock net, which only catches what no count sees) at `at`.
fn assert_budget(src: &str, e: &ScriptError, at: &str) {
    let text = e.to_string();
    assert!(matches!(e, ScriptError::Budget(_)), "{src}: {e:?}");
    assert!(text.contains(BUDGET_MESSAGE), "{src}: {text}");
    assert!(text.starts_with(at), "{src}: {text}");
}

#[test]
fn a_chunk_is_charged_for_every_iteration_a_c_function_makes() {
    // A chunk's budget (`village run`, a REPL line) with its ten-minute net: without the charge each
    // of these runs for hours.
    for src in UNCHARGED_LOOPS {
        let (e, goes_on) = finishes(move || {
            let vm = vm_with(Limits::default());
            let e = vm.exec(src, "evil.lua").expect_err("the loop is stopped");
            (e, vm.eval_string("return 1 + 1").ok())
        });
        assert_budget(src, &e, "evil.lua:");
        assert_eq!(goes_on.as_deref(), Some("2"), "{src}");
    }
    charged_functions_still_do_their_work();
}

/// The charged functions still do their work, with numeral strings, `__len` and `__index`.
fn charged_functions_still_do_their_work() {
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "local t = setmetatable({}, { __len = function() return 3 end, \
                   __index = function(_, i) return 'v' .. i end }) \
                 local parts = { \
                   string.rep('ab', 3, ','), ('x'):rep('2'), string.rep('', 5), \
                   table.concat({ 'a', 'b', 'c' }, '-', '2', 3), table.concat(t, ''), \
                   string.format('%s %d %.0s|', 'a', 2, 'gone'), select('#', table.unpack({}, 1, 4)), \
                   #{ ('abc'):byte(1, -1) }, table.move({ 1, 2, 3 }, '1', '3', 2)[3], \
                   collectgarbage('count') > 0 and 'counted' or 'none', \
                   string.unpack('<i2', string.pack('<i2', 513)), string.packsize('i4i8'), \
                   tonumber('0x10'), tonumber('  7  '), tonumber('z', 36), \
                 } \
                 table.insert(t, 'w') \
                 return table.concat(parts, ' ') .. ' ' .. rawget(t, 4)",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(
        out.as_deref(),
        Ok("ab,ab,ab xx  b-c v1v2v3 a 2 | 4 3 2 counted 513 12 16 7 35 w")
    );
}

#[test]
fn a_hook_is_charged_before_its_time_limit_has_to_step_in() {
    for src in UNCHARGED_LOOPS {
        let (e, goes_on) = hook_error(src);
        assert_budget(src, &e, "evil.lua:");
        assert!(goes_on, "{src}");
    }
}

#[test]
fn collectgarbage_options_that_would_change_the_collector_are_refused_where_asked() {
    for opt in [
        "stop",
        "restart",
        "incremental",
        "generational",
        "setpause",
        "setstepmul",
    ] {
        let src: &'static str = Box::leak(format!("collectgarbage('{opt}')").into_boxed_str());
        let (e, goes_on) = hook_error(src);
        let text = e.to_string();
        assert!(text.starts_with("evil.lua:1:"), "{src}: {text}");
        assert!(
            text.contains("not available in the sandbox"),
            "{src}: {text}"
        );
        assert!(goes_on, "{src}");
    }
    // The collector still works and still runs generational: a later game is as fast as ever.
    let out = finishes(|| {
        vm_with(Limits::default())
            .eval_string(
                "local before = collectgarbage('count') local t = {} for i = 1, 1e5 do t[i] = {} end \
                 t = nil collectgarbage() collectgarbage('step') \
                 return tostring(collectgarbage('count') < before + 1000)",
            )
            .map_err(|e| e.to_string())
    });
    assert_eq!(out.as_deref(), Ok("true"));
}

#[test]
fn check_stops_a_variant_that_loops_in_c_as_it_loads() {
    let e = finishes(|| {
        ScriptHost::open(
            &[Rosters::builtin_root(), fixture("rep_at_load")],
            Limits::default(),
            1,
        )
        .err()
        .map(|e| e.join("\n"))
    });
    let e = e.expect("the mod is refused");
    assert!(
        e.contains("rep_at_load/scripts/variants/evil.lua:4:"),
        "{e}"
    );
    assert!(e.contains(BUDGET_MESSAGE), "{e}");
    // `village check` says the same, and exits.
    let out = village(&["check", "--mod", s(&fixture("rep_at_load"))]);
    let err = text(&out.stdout) + &text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("rep_at_load/scripts/variants/evil.lua:4:") && err.contains(BUDGET_MESSAGE),
        "{err}"
    );
}

#[test]
fn run_and_the_repl_stop_it_and_the_repl_goes_on() {
    let dir = scratch("cwork-run");
    let f = dir.join("evil.lua");
    std::fs::write(&f, "print('before')\nlocal s = string.rep('', 1e12)\n").expect("written");
    let out = village(&["run", s(&f)]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("evil.lua:2: ") && err.contains(BUDGET_MESSAGE),
        "{err}"
    );
    let out = run(&["repl"])
        .stdin("x = string.rep('', 1e12)\ny = ('x'):rep(1e12, '')\nreturn 1 + 1\n")
        .output();
    let shown = text(&out.stdout);
    assert_eq!(
        shown.matches(BUDGET_MESSAGE).count(),
        2,
        "each line is stopped: {shown}"
    );
    assert!(
        shown.trim_end().ends_with("\n2"),
        "the session goes on: {shown}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reload_under_watch_stops_it_and_takes_the_next_good_save() {
    let dir = scratch("cwork-watch");
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a mod");
    let file = variants.join("evil.lua");
    std::fs::write(&file, "return { name = 'evil' }\n").expect("written");
    let layers = vec![Rosters::builtin_root(), dir.clone()];
    let (bad, good) = finishes(move || {
        let host = ScriptHost::open(&layers, Limits::default(), 1)
            .unwrap_or_else(|e| panic!("the mod loads: {}", e.join("\n")));
        let watcher = host.watch().expect("a watcher");
        std::thread::sleep(Duration::from_millis(300));
        std::fs::write(
            &file,
            "-- saved\nlocal s = string.rep('', 1e12)\nreturn { name = 'evil' }\n",
        )
        .expect("written");
        let bad = host
            .wait_reload(&watcher, Duration::from_secs(20))
            .expect("the save is seen");
        std::fs::write(&file, "return { name = 'better' }\n").expect("written");
        let good = host
            .wait_reload(&watcher, Duration::from_secs(20))
            .expect("the next save is seen");
        (bad.errors().join("\n"), good.is_ok())
    });
    assert!(
        bad.contains("scripts/variants/evil.lua:2:") && bad.contains(BUDGET_MESSAGE),
        "{bad}"
    );
    assert!(good, "the next good save reloads");
    let _ = std::fs::remove_dir_all(&dir);
}
