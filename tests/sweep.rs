//! `village sweep` and `village calibrate`: every point plays the same seeds (a point at the rosters'
//! own value is `village sim` itself, and another is `village sim --mod` of its folder), the paired
//! differences add up, a grid draws its heat maps and a curve its points, bad keys and ranges are
//! refused before any game with the closest name, and calibrate's answer lies in its interval and
//! can be saved as a preset.

use serde_json::Value;
use std::process::{Command, Output};

fn village(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_village"))
        .args(args)
        .output()
        .expect("village runs")
}

fn ok_json(args: &[&str]) -> Value {
    let out = village(args);
    assert!(
        out.status.success(),
        "village {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

const MAREN: &str = r#"heroes."Captain Maren".combat"#;

#[test]
fn every_point_plays_the_same_seeds_as_sim_and_the_differences_are_paired() {
    let dir = tempfile::tempdir().unwrap();
    let points = dir.path().join("points");
    let set = format!("{MAREN}=3..4");
    let game = ["--games", "6", "--seed", "2", "--length", "intro"];
    let r = ok_json(
        &[
            &[
                "sweep",
                "--set",
                &set,
                "--json",
                "--points",
                points.to_str().unwrap(),
            ][..],
            &game[..],
        ]
        .concat(),
    );
    assert!(r["games_per_sec"].as_f64().unwrap() > 0.0);
    let pts = r["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2);
    assert_eq!(pts[0]["values"], serde_json::json!(["3"]));
    // The baseline is the rosters' own value, Combat 4.
    assert_eq!(r["baseline"], serde_json::json!(["4"]));
    assert_eq!(pts[1]["vs_baseline"]["waves_won"], 0.0);
    assert_eq!(pts[1]["vs_baseline"]["games_differing"], 0);
    // The point at 4 is `village sim` on the same seeds; the point at 3 is `sim --mod` of its folder,
    // which holds Captain Maren whole with Combat 3.
    let sim = |extra: &[&str]| ok_json(&[&["sim", "--json"][..], &game[..], extra].concat());
    let at4 = sim(&[]);
    assert_eq!(pts[1]["win_rate"], at4["win_rate"]);
    assert_eq!(pts[1]["waves_won_mean"], at4["waves_won_mean"]);
    let heroes = std::fs::read_to_string(points.join("p00/rosters/heroes.toml")).unwrap();
    assert!(
        heroes.contains("combat = 3") && heroes.contains("Hold the Line"),
        "{heroes}"
    );
    let at3 = sim(&["--mod", points.join("p00").to_str().unwrap()]);
    assert_eq!(pts[0]["waves_won_mean"], at3["waves_won_mean"]);
    assert!(pts[0]["loss_causes"].is_object());
    // The step from 3 to 4 is the baseline's difference from 3, turned round.
    let step = pts[1]["steps"][0]["waves_won"].as_f64().unwrap();
    let back = pts[0]["vs_baseline"]["waves_won"].as_f64().unwrap();
    assert!((step + back).abs() < 1e-9, "{step} vs {back}");
    assert!(
        pts[0]["steps"][0].is_null(),
        "no step before the first value"
    );
}

#[test]
fn a_grid_draws_heat_maps_and_a_curve_draws_its_points() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, csv) = (dir.path().join("g.svg"), dir.path().join("g.csv"));
    let r = ok_json(&[
        "sweep",
        "--set",
        "wave.budget_percent=50,100",
        "--set",
        "variant=none,power_blow_lethal",
        "--games",
        "3",
        "--length",
        "intro",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(r["points"].as_array().unwrap().len(), 4);
    assert_eq!(r["baseline"], serde_json::json!(["100", "none"]));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    let cells: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("cell win-rate"))
        .collect();
    assert_eq!(cells.len(), 4);
    for (c, p) in cells.iter().zip(r["points"].as_array().unwrap()) {
        assert_eq!(c.attribute("data-row"), p["values"][0].as_str());
        assert_eq!(c.attribute("data-col"), p["values"][1].as_str());
        let drawn: f64 = c.attribute("data-value").unwrap().parse().unwrap();
        assert_eq!(drawn, p["win_rate"].as_f64().unwrap());
    }
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("baseline"))
            .count(),
        2,
        "the baseline cell is outlined on both maps"
    );
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv.lines().count(), 5, "{csv}");
    assert!(
        csv.starts_with("wave.budget_percent,variant,games,wins"),
        "{csv}"
    );

    // One knob: a curve whose points carry the report's estimates.
    let r = ok_json(&[
        "sweep",
        "--set",
        &format!("{MAREN}=2..4"),
        "--games",
        "3",
        "--length",
        "intro",
        "--json",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let drawn: Vec<(String, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("point waves-won"))
        .map(|n| {
            (
                n.attribute("data-x").unwrap().to_string(),
                n.attribute("data-value").unwrap().parse().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, f64)> = r["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["values"][0].as_str().unwrap().to_string(),
                p["waves_won_mean"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(drawn, want);
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("baseline"))
            .count(),
        2
    );
}

#[test]
fn bad_keys_ranges_and_values_are_refused_before_any_game_with_the_closest_name() {
    let cases: &[(&str, &str)] = &[
        (
            r#"heroes."Captain Marn".combat=2..5"#,
            r#"did you mean "Captain Maren"?"#,
        ),
        (
            r#"heroes."Captain Maren".combt=2..5"#,
            r#"did you mean "combat"?"#,
        ),
        (
            "wave.budget_percnt=80..120",
            r#"did you mean "budget_percent"?"#,
        ),
        ("wav.budget_percent=80..120", r#"did you mean "wave"?"#),
        (
            r#"bestiary."Orc Warior".quality=3..5"#,
            r#"did you mean "Orc Warrior"?"#,
        ),
        (r#"heroes."Captain Maren".combat=5..2"#, "runs backwards"),
        (
            r#"heroes."Captain Maren".combat=2..5:0"#,
            "step must be above 0",
        ),
        (
            r#"heroes."Captain Maren".combat=a..b"#,
            "not a whole number",
        ),
        (
            r#"heroes."Captain Maren".combat=0..100000"#,
            "more than 400",
        ),
        (r#"heroes."Captain Maren".traits=1..2"#, "cannot be swept"),
        ("combat.power_blow_lethal=true,maybe", "not true or false"),
        (
            "variant=none,power_blow_letal",
            r#"did you mean "power_blow_lethal"?"#,
        ),
        ("preset=rulebook,veteren", r#"did you mean "veteran"?"#),
        ("wave.budget_percent=5,100", "budget_percent"),
        ("budget", "KEY=RANGE"),
    ];
    for (set, want) in cases {
        let out = village(&["sweep", "--set", set, "--games", "100000", "--json"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{set} is refused");
        assert!(err.contains(want), "{set}: wanted {want:?} in: {err}");
        assert!(out.stdout.is_empty(), "{set}: nothing is played");
    }
    let out = village(&[
        "sweep",
        "--set",
        &format!("{MAREN}=3..4"),
        "--baseline",
        "7",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown value of"));
}

#[test]
fn calibrate_answers_inside_its_interval_and_saves_a_preset() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mod");
    let made = village(&["new-mod", m.to_str().unwrap()]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let r = ok_json(&[
        "calibrate",
        "--set",
        "wave.budget_percent=20..180:40",
        "--target",
        "win_rate=0.5",
        "--games",
        "8",
        "--max-games",
        "16",
        "--length",
        "intro",
        "--json",
        "--mod",
        m.to_str().unwrap(),
        "--write-preset",
        "fair",
    ]);
    let tried = r["tried"].as_array().unwrap();
    let total: u64 = tried.iter().map(|t| t["games"].as_u64().unwrap()).sum();
    assert_eq!(r["games"].as_u64().unwrap(), total);
    assert!(tried.iter().all(|t| t["games"].as_u64().unwrap() <= 16));
    let num = |v: &Value| v.as_str().unwrap().parse::<i64>().unwrap();
    let (v, lo, hi) = (
        num(&r["value"]),
        num(&r["interval"][0]),
        num(&r["interval"][1]),
    );
    assert!(lo <= v && v <= hi, "{v} in {lo}..{hi}");
    // The easiest waves are won more often than the hardest: the target lies between.
    assert_eq!(r["bracketed"], true, "{r}");
    let presets = std::fs::read_to_string(m.join("rosters/presets.toml")).unwrap();
    assert!(presets.contains("name = \"fair\""), "{presets}");
    assert!(
        presets.contains(&format!("budget_percent = {v}")),
        "{presets}"
    );
    let listed = village(&["presets", "--mod", m.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&listed.stdout).contains("fair"));

    // Bad targets, and a preset of what a preset cannot hold.
    for (args, want) in [
        (vec!["--target", "win_rate=2"], "a win rate is 0 to 1"),
        (vec!["--target", "wins=0.5"], r#"did you mean "win_rate"?"#),
        (
            vec![
                "--target",
                "win_rate=0.5",
                "--write-preset",
                "x",
                "--mod",
                m.to_str().unwrap(),
            ],
            "not a rule constant",
        ),
    ] {
        let set = format!("{MAREN}=2..5");
        let out = village(&[&["calibrate", "--set", set.as_str()][..], &args[..]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains(want),
            "{args:?}: {err}"
        );
    }
}
