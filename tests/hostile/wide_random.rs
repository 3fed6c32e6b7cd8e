//! `math.random` over ranges wider than 32 bits (issue 36, root cause 5): `math.random(math.mininteger,
//! math.maxinteger)` panicked in the dice (`sim` exited 101 with no report, `--keep-going` or not), and
//! `math.random(math.mininteger, 0)` gave the same value every time. Every range Lua accepts is drawn
//! uniformly from the seeded stream, the same way for the same seed, and the dice never panic on any
//! argument.

use crate::{finishes, hook_error, vm_with};
use std::process::Command;
use village::dice::Dice;
use village::script::Limits;

/// `n` draws of `math.random(args)` on a fresh VM seeded 1, as Lua integers.
fn draws(args: &'static str, n: usize) -> Vec<i64> {
    let src: &'static str = Box::leak(
        format!(
            "local out = {{}} for i = 1, {n} do out[i] = string.format('%d', math.random({args})) end \
             return table.concat(out, ' ')"
        )
        .into_boxed_str(),
    );
    let text = finishes(move || {
        vm_with(Limits::default())
            .eval_string(src)
            .map_err(|e| e.to_string())
    });
    let text = text.unwrap_or_else(|e| panic!("math.random({args}): {e}"));
    text.split(' ')
        .map(|v| v.parse().expect("an integer"))
        .collect()
}

/// How many of `values` fall in each of `parts` equal slices of `[lo, hi]`.
fn histogram(values: &[i64], lo: i64, hi: i64, parts: u32) -> Vec<usize> {
    let span = (hi as i128 - lo as i128 + 1) as f64;
    let mut counts = vec![0; parts as usize];
    for &v in values {
        let at = ((v as i128 - lo as i128) as f64 / span * f64::from(parts)) as usize;
        counts[at.min(parts as usize - 1)] += 1;
    }
    counts
}

#[test]
fn every_valid_range_is_drawn_uniformly() {
    let (min, max) = (i64::MIN, i64::MAX);
    for (args, lo, hi) in [
        ("math.mininteger, math.maxinteger", min, max),
        ("math.mininteger, 0", min, 0),
        ("0, math.maxinteger", 0, max),
        ("math.maxinteger", 1, max),
        ("-1, math.maxinteger", -1, max),
        ("math.mininteger, -1", min, -1),
        ("math.mininteger + 1, math.maxinteger - 1", min + 1, max - 1),
        ("-(1 << 40), 1 << 40", -(1 << 40), 1 << 40),
        ("0, 0xFFFFFFFF", 0, 0xFFFF_FFFF),
    ] {
        let values = draws(args, 4000);
        assert!(
            values.iter().all(|v| (lo..=hi).contains(v)),
            "math.random({args}) out of range"
        );
        let mut distinct = values.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(
            distinct.len() > 3990,
            "math.random({args}): {} distinct of 4000",
            distinct.len()
        );
        // Four equal parts of the range get 1,000 draws each on average; 850..1150 is about five
        // standard deviations either way.
        for (i, &c) in histogram(&values, lo, hi, 4).iter().enumerate() {
            assert!(
                (850..1150).contains(&c),
                "math.random({args}): part {i} of 4 got {c} of 4000"
            );
        }
    }
    // The ends of the integers are ranges too.
    assert_eq!(draws("math.maxinteger, math.maxinteger", 3), [i64::MAX; 3]);
    assert_eq!(draws("math.mininteger, math.mininteger", 3), [i64::MIN; 3]);
    let two = draws("math.maxinteger - 1, math.maxinteger", 400);
    assert!(two.contains(&i64::MAX) && two.contains(&(i64::MAX - 1)));
    let two = draws("math.mininteger, math.mininteger + 1", 400);
    assert!(two.contains(&i64::MIN) && two.contains(&(i64::MIN + 1)));
}

#[test]
fn wide_draws_are_the_same_for_the_same_seed() {
    let a = draws("math.mininteger, math.maxinteger", 200);
    let b = draws("math.mininteger, math.maxinteger", 200);
    assert_eq!(a, b);
    let c = draws("math.mininteger, 0", 200);
    assert_eq!(c, draws("math.mininteger, 0", 200));
}

/// Lua 5.4's own errors for the arguments `math.random` refuses (an empty interval is argument #1
/// whichever end is wrong, as in `lmathlib.c`).
#[test]
fn a_range_lua_refuses_is_an_error_at_the_line() {
    for (src, want) in [
        (
            "math.random(2, 1)",
            "evil.lua:1: bad argument #1 to 'random' (interval is empty)",
        ),
        (
            "math.random(0, math.mininteger)",
            "evil.lua:1: bad argument #1 to 'random' (interval is empty)",
        ),
        (
            "math.random(-5)",
            "evil.lua:1: bad argument #1 to 'random' (interval is empty)",
        ),
        (
            "math.random(1.5)",
            "evil.lua:1: bad argument #1 to 'random' (number has no integer representation)",
        ),
        (
            "math.random(1, 2 ^ 63)",
            "evil.lua:1: bad argument #2 to 'random' (number has no integer representation)",
        ),
        (
            "math.random('six')",
            "evil.lua:1: bad argument #1 to 'random' (number expected, got string)",
        ),
        (
            "math.random(1, 2, 3)",
            "evil.lua:1: wrong number of arguments",
        ),
    ] {
        let (e, goes_on) = hook_error(src);
        assert!(e.to_string().starts_with(want), "{src}: {e}");
        assert!(goes_on, "{src}");
    }
}

#[test]
fn no_die_call_panics() {
    let mut d = Dice::new(1);
    assert_eq!(d.below(0), 0);
    assert_eq!(d.below(1), 0);
    assert!(d.below(u32::MAX) < u32::MAX);
    assert!(d.below_u64(0) == 0 && d.below_u64(1) == 0);
    assert!(d.below_u64(u64::MAX) < u64::MAX);
    for (lo, hi) in [
        (i64::MIN, i64::MAX),
        (i64::MIN, 0),
        (i64::MAX, i64::MAX),
        (i64::MIN, i64::MIN),
        (-3, 3),
    ] {
        let v = d.in_range(lo, hi).expect("a range");
        assert!((lo..=hi).contains(&v), "{lo}..={hi}: {v}");
    }
    assert_eq!(d.in_range(1, 0), None);
    assert_eq!(d.in_range(i64::MAX, i64::MIN), None);
    // Enumerations of more dice than any rule allows are refused, not overflowed.
    assert_eq!(village::dice::all_faces(30).count(), 0);
    assert!(
        village::dice::morale_counts_of(30, 4, 0, &village::dice::RollRules::RULEBOOK).is_empty()
    );
}

#[test]
fn sim_with_a_hook_drawing_wide_ranges_plays_and_reports() {
    let dir = std::env::temp_dir().join(format!("village-hostile-wide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let variants = dir.join("scripts/variants");
    std::fs::create_dir_all(&variants).expect("a mod");
    std::fs::write(
        variants.join("wide.lua"),
        "return {\n\tname = 'wide',\n\tmelee_modifier = function()\n\
         \t\tlocal a = math.random(math.mininteger, math.maxinteger)\n\
         \t\tlocal b = math.random(math.mininteger, 0)\n\
         \t\treturn (a == b) and 1 or 0\n\tend,\n}\n",
    )
    .expect("written");
    let run = |keep_going: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_village"));
        c.args(["sim", "--games", "3", "--seed", "5", "--length", "intro"])
            .args(["--variant", "wide", "--json", "--jobs", "1", "--mod"])
            .arg(&dir);
        if keep_going {
            c.arg("--keep-going");
        }
        finishes(move || c.output().expect("the village binary runs"))
    };
    for keep_going in [false, true] {
        let out = run(keep_going);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "--keep-going {keep_going}: {err}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
        assert_eq!(v["games"], 3, "{v}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
