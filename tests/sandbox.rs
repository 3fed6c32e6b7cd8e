//! The Lua sandbox: what scripts cannot reach, runaway loops and memory bombs stopped, VM still usable.

use std::path::PathBuf;
use std::time::{Duration, Instant};
use village::roster::Rosters;
use village::script::{Limits, ScriptError, ScriptHost, ScriptRoot, Vm};

fn scripts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts")
}

fn vm_with(limits: Limits) -> Vm {
    let roots = vec![ScriptRoot {
        dir: scripts_dir(),
        label: "scripts".into(),
    }];
    Vm::new(roots, limits, 1).expect("the VM starts")
}

fn vm() -> Vm {
    vm_with(Limits::default())
}

fn err(vm: &Vm, src: &str) -> ScriptError {
    match vm.exec(src, "test.lua") {
        Ok(v) => panic!("{src:?} should fail, returned {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn dangerous_libraries_are_absent() {
    let vm = vm();
    for lib in ["io", "os", "package", "debug", "dofile", "loadfile"] {
        assert_eq!(
            vm.eval_string(&format!("return {lib} == nil")).unwrap(),
            "true",
            "{lib}"
        );
    }
    let e = err(&vm, "io.open('/etc/passwd')");
    assert!(e.to_string().starts_with("test.lua:1:"), "{e}");
    assert!(e.to_string().contains("'io'"), "{e}");
    let e = err(&vm, "\n\nos.execute('echo pwned')");
    assert!(e.to_string().starts_with("test.lua:3:"), "{e}");
    let e = err(&vm, "debug.sethook()");
    assert!(e.to_string().contains("'debug'"), "{e}");
}

#[test]
fn bytecode_cannot_be_loaded() {
    let vm = vm();
    assert_eq!(vm.eval_string("return string.dump == nil").unwrap(), "true");
    let out = vm
        .eval_string(r#"local f, e = load("\27Lua\84\0\25\147\13\10\26\10") return e"#)
        .unwrap();
    assert!(out.contains("binary"), "{out}");
    // Text chunks still load, in the sandbox.
    assert_eq!(
        vm.eval_string("return load('return io')() == nil").unwrap(),
        "true"
    );
}

#[test]
fn require_stays_inside_the_script_folders() {
    let vm = vm();
    for bad in ["../Cargo", "/etc/passwd", "..", "a/../../Cargo"] {
        let e = err(&vm, &format!("require({bad:?})"));
        assert!(
            e.to_string()
                .contains("only modules inside the script folders"),
            "{bad}: {e}"
        );
    }
    let e = err(&vm, "require('types.village')");
    assert!(e.to_string().contains("editor stubs"), "{e}");
    let e = err(&vm, "require('no.such.module')");
    assert!(
        e.to_string().contains("no no/such/module.lua in scripts"),
        "{e}"
    );
}

#[test]
fn a_runaway_loop_stops_quickly_with_file_and_line() {
    let vm = vm();
    let budget = vm.limits().hook_instructions;
    let t = Instant::now();
    let e = vm.exec_with_budget(
        "local x = 0\nwhile true do x = x + 1 end",
        "scripts/traits/loop.lua",
        budget,
    );
    let elapsed = t.elapsed();
    let e = e.expect_err("the loop must be stopped");
    assert!(matches!(e, ScriptError::Budget(_)), "{e:?}");
    assert!(e.to_string().contains("scripts/traits/loop.lua:2:"), "{e}");
    // The budget is instructions, not time; this bound is generous on purpose (DESIGN: stop < 100 ms).
    eprintln!("runaway loop stopped after {elapsed:?} ({budget} instructions)");
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
    assert_eq!(vm.eval_string("return 1 + 1").unwrap(), "2");
}

#[test]
fn pcall_cannot_swallow_the_budget() {
    let vm = vm();
    let budget = vm.limits().hook_instructions;
    let t = Instant::now();
    for src in [
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "coroutine.wrap(function() while true do end end)()",
        "local ok = pcall(function() while true do end end) while true do end",
    ] {
        let e = vm
            .exec_with_budget(src, "escape.lua", budget)
            .expect_err(src);
        assert!(matches!(e, ScriptError::Budget(_)), "{src}: {e:?}");
    }
    eprintln!("five escape attempts stopped in {:?} in all", t.elapsed());
    assert_eq!(vm.eval_string("return 'still here'").unwrap(), "still here");
}

#[test]
fn a_memory_bomb_is_stopped_and_the_vm_recovers() {
    let vm = vm_with(Limits {
        memory: 32 * 1024 * 1024,
        ..Limits::default()
    });
    let e = err(
        &vm,
        "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end",
    );
    assert!(matches!(e, ScriptError::Memory(_)), "{e:?}");
    let e = err(&vm, "local s = 'x' while true do s = s .. s end");
    assert!(matches!(e, ScriptError::Memory(_)), "{e:?}");
    assert_eq!(
        vm.eval_string("local t = {} for i = 1, 1000 do t[i] = i end return #t")
            .unwrap(),
        "1000"
    );
}

#[test]
fn the_memory_limit_holds_in_a_hook_after_the_kernel_built_snapshots() {
    // The kernel lifts the limit while it builds snapshots (`host::kernel_lua`); a hook that reads the
    // table and then eats memory must still be stopped, and the session goes on.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/memory_hook_mod");
    let host = ScriptHost::open(
        &[Rosters::builtin_root(), dir],
        Limits {
            memory: 64 * 1024 * 1024,
            ..Limits::default()
        },
        1,
    )
    .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")));
    let melee = r#"
        local g = village.new_game({ seed = 1, table = "empty" })
        local orc = g:place("Glutton Orc", { x = 3, y = 3 })
        local tobin = g:place("Tobin the Marksman", { x = 4, y = 3 })
        return g:melee(orc, tobin)
    "#;
    let e = host
        .vm()
        .eval_string(melee)
        .expect_err("the hook is stopped");
    // Lua's memory errors carry no file:line; without the limit the instruction budget would have
    // stopped the loop instead, naming glutton.lua.
    assert!(e.to_string().contains("not enough memory"), "{e:?}");
    assert_eq!(host.vm().eval_string("return 1 + 1").unwrap(), "2");
}

/// A session over the built-in data and `tests/fixtures/nested_hook_mod`, with a 64 MiB memory limit.
fn nested_hook_session() -> ScriptHost {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/nested_hook_mod");
    ScriptHost::open(
        &[Rosters::builtin_root(), dir],
        Limits {
            memory: 64 * 1024 * 1024,
            ..Limits::default()
        },
        1,
    )
    .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")))
}

/// A melee between `profile` and Tobin, whose hooks run `profile`'s scripts.
fn melee_with(profile: &str) -> String {
    format!(
        r#"
        local g = village.new_game({{ seed = 1, table = "empty" }})
        local orc = g:place("{profile}", {{ x = 3, y = 3 }})
        local tobin = g:place("Tobin the Marksman", {{ x = 4, y = 3 }})
        return g:melee(orc, tobin)
    "#
    )
}

#[test]
fn a_hook_the_kernel_calls_inside_a_ctx_method_has_its_budget_and_the_memory_limit() {
    // A ctx method runs as the kernel's own work (no instructions counted, no memory limit); the
    // `targets` it calls for `ctx:usable` is a script again, under a hook's budget and the limit.
    let host = nested_hook_session();
    let start = Instant::now();
    let e = host
        .vm()
        .eval_string(&melee_with("Restless Orc"))
        .expect_err("the loop is stopped");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(
        e.to_string().contains("instruction budget exhausted"),
        "{e}"
    );
    assert!(e.to_string().contains("restless.lua"), "{e}");
    assert_eq!(host.vm().eval_string("return 1 + 1").unwrap(), "2");
    let e = host
        .vm()
        .eval_string(&melee_with("Hoarding Orc"))
        .expect_err("the hoard is stopped");
    assert!(e.to_string().contains("not enough memory"), "{e}");
    assert_eq!(host.vm().eval_string("return 1 + 1").unwrap(), "2");
}

#[test]
fn math_random_is_the_seeded_dice() {
    let a = vm();
    let b = vm();
    let src = "local t = {} for i = 1, 20 do t[i] = math.random(6) end return table.concat(t, ',')";
    let x = a.eval_string(src).unwrap();
    assert_eq!(x, b.eval_string(src).unwrap());
    assert!(x
        .split(',')
        .all(|f| (1..=6).contains(&f.parse::<i32>().unwrap())));
    let e = err(&a, "math.random(3, 1)");
    assert!(e.to_string().contains("empty"), "{e}");
}

#[test]
fn syntax_errors_name_the_chunk_and_say_when_input_is_incomplete() {
    let vm = vm();
    match vm.exec("function f()\n  return 1", "repl") {
        Err(ScriptError::Syntax {
            message,
            incomplete,
        }) => {
            assert!(incomplete);
            assert!(message.contains("repl:"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    match vm.exec("x = = 1", "repl") {
        Err(ScriptError::Syntax { incomplete, .. }) => assert!(!incomplete),
        other => panic!("{other:?}"),
    }
}
