//! The value printer (the REPL's results, `print` of a table in `village run` and the REPL) with values
//! built to explode it (issue 36, root cause 8): a subtable shared thirty times on each of six levels
//! (30^7 lines when each reference is expanded), a table of 300,000 keys, a string of megabytes.
//! A shared table prints once and is named by where it was printed after that, a cycle is `<cycle>`,
//! and the whole output is cut at a bound, which it says.

use crate::finishes;
use std::path::PathBuf;
use std::process::Command;
use village::roster::Rosters;
use village::script::repl::{Eval, NewGame, Repl};
use village::script::Limits;

/// At most what the printer writes for one value, with room for its closing note.
const BOUND: usize = (1 << 20) + 200;

/// Every value `src` returns, as the REPL shows it, and what the session gives for `1 + 1` afterwards.
fn shown(src: &'static str) -> (Vec<String>, Eval) {
    finishes(move || {
        let new = NewGame {
            seed: 1,
            length: "intro".into(),
            heroes: vec!["Captain Maren".into(), "Bram the Smith".into()],
            preset: village::roster::DEFAULT_PRESET.to_string(),
            scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
            variants: Vec::new(),
            policy: "default".into(),
        };
        let repl = Repl::open(&[Rosters::builtin_root()], Limits::default(), &new)
            .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")));
        let values = match repl.eval(src) {
            Eval::Values(v) => v,
            other => panic!("{src}: {other:?}"),
        };
        (values, repl.eval("1 + 1"))
    })
}

/// A table of `refs` references to one subtable, itself `refs` references to the next, `levels` deep.
fn shared(refs: usize, levels: usize) -> &'static str {
    Box::leak(
        format!(
            "local t = {{ leaf = true }} \
             for _ = 1, {levels} do local up = {{}} for i = 1, {refs} do up[i] = t end t = up end \
             return t"
        )
        .into_boxed_str(),
    )
}

#[test]
fn a_shared_subtable_prints_once() {
    // 10 references on 5 levels: a million lines when each is expanded.
    let (values, after) = shown(shared(10, 5));
    let text = &values[0];
    assert!(text.len() < 10_000, "{} bytes", text.len());
    assert_eq!(text.matches("leaf = true").count(), 1, "{text}");
    assert!(text.contains("<same table as [1]>"), "{text}");
    assert!(text.contains("<same table as [1][1][1][1]>"), "{text}");
    assert_eq!(after, Eval::Values(vec!["2".into()]));
    // The issue's own: 30 references on 6 levels, 30^7 lines (4.3 GB) expanded.
    let (values, after) = shown(shared(30, 6));
    assert!(values[0].len() < BOUND, "{} bytes", values[0].len());
    assert_eq!(after, Eval::Values(vec!["2".into()]));
}

#[test]
fn shared_and_cyclic_tables_are_named() {
    let (values, _) = shown(
        "local s = { 1 } local t = { a = s, b = s, list = { s, s } } t.me = t t.list.up = t.list \
         return t",
    );
    assert_eq!(
        values[0],
        "{\n  a = {\n    1,\n  },\n  b = <same table as a>,\n  list = {\n    <same table as a>,\n    \
         <same table as a>,\n    up = <cycle>,\n  },\n  me = <cycle>,\n}"
    );
}

#[test]
fn a_huge_value_is_cut_at_the_bound_and_says_so() {
    for src in [
        "local t = {} for i = 1, 3e5 do t['key' .. i] = i end return t",
        "local t = {} for i = 1, 3e5 do t[i] = i end return t",
        "return { ('x'):rep(5e6) }",
        "return { [('k'):rep(5e6)] = 1 }",
    ] {
        let (values, after) = shown(src);
        let text = &values[0];
        assert!(text.len() < BOUND, "{src}: {} bytes", text.len());
        assert!(
            text.ends_with("… (cut: the value prints more than 1 MiB)"),
            "{src}: {}",
            text.chars().rev().take(200).collect::<String>()
        );
        assert_eq!(after, Eval::Values(vec!["2".into()]), "{src}");
    }
}

#[test]
fn print_in_village_run_is_bounded_too() {
    // 12 references on 5 levels: 270,000 lines, 5 MB, when each is expanded.
    let dir = std::env::temp_dir().join(format!("village-hostile-printer-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let f: PathBuf = dir.join("print.lua");
    std::fs::write(
        &f,
        format!(
            "{}\nprint(t)\nlocal big = {{}} for i = 1, 3e5 do big[i] = i end\nprint(big)\nprint('after')\n",
            shared(12, 5).trim_end_matches("return t")
        ),
    )
    .expect("written");
    let out = finishes(move || {
        Command::new(env!("CARGO_BIN_EXE_village"))
            .arg("run")
            .arg(&f)
            .output()
            .expect("the village binary runs")
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The shared table in a few kilobytes, the long one cut at the bound.
    assert!(
        out.stdout.len() < BOUND + 10_000,
        "{} bytes",
        out.stdout.len()
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("<same table as [1]>"),
        "{}",
        text.chars().take(2000).collect::<String>()
    );
    assert!(text.contains("… (cut: the value prints more than 1 MiB)\n"));
    assert!(out.stdout.ends_with(b"\nafter\n"));
    let _ = std::fs::remove_dir_all(&dir);
}
