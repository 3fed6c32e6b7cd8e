//! Hostile and careless input (issue 16): scripts, rosters, saves, shards and orders that try to hang,
//! crash, poison or lose work. Each case checks three things: the error is clear (file:line, or
//! file/entry/field), the process or session goes on where it should, and nothing was half-applied or
//! lost. Every case runs under a hang detector (a thread given a generous bound); how long each takes
//! on this machine is in the README ("Reliability"), never asserted here.
//!
//! One module per class of input; the helpers they share are here.

mod answers;
mod answers_prop;
mod bin;
mod budget;
mod bytes;
mod c_work;
mod careless;
mod child;
mod cli;
mod environments;
mod free_orders;
mod frozen;
mod half_applied;
mod kernel;
mod limits;
mod located;
mod memory;
mod outputs;
mod printer;
mod rosters;
mod rosters2;
mod smaller;
mod terminal;
mod trusted_files;
mod watching;
mod wide_random;

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;
use village::script::{Limits, ScriptError, Vm};

/// Run `f` on its own thread; fail the test if it has not returned within a minute (a hang).
pub fn finishes<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    finishes_within(Duration::from_secs(60), f)
}

/// [`finishes`] with another bound, for a case that plays many games (debug builds are slow).
pub fn finishes_within<R: Send + 'static>(
    bound: Duration,
    f: impl FnOnce() -> R + Send + 'static,
) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(bound)
        .unwrap_or_else(|_| panic!("the case hangs: it ran past {bound:?}"))
}

/// A VM on the built-in scripts with `limits`.
pub fn vm_with(limits: Limits) -> Vm {
    let roots = vec![village::script::ScriptRoot {
        dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts"),
        label: "scripts".into(),
    }];
    Vm::new(roots, limits, 1).expect("the VM starts")
}

/// A chunk run with a hook's budget (what a hook may spend), its error, and whether the VM still works.
pub fn hook_error(src: &'static str) -> (ScriptError, bool) {
    finishes(move || {
        let vm = vm_with(Limits::default());
        let start = std::time::Instant::now();
        let e = match vm.exec_with_budget(src, "evil.lua", Limits::default().hook_instructions) {
            Ok(v) => panic!("{src:?} should fail, returned {v:?}"),
            Err(e) => e,
        };
        // Reported, never asserted (the README's Reliability figures come from here).
        eprintln!("stopped in {:?}: {src}", start.elapsed());
        let goes_on = vm.eval_string("return 1 + 1").ok().as_deref() == Some("2");
        (e, goes_on)
    })
}

/// A fixture folder under tests/fixtures/hostile.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile")
        .join(name)
}
