//! The pictures as a person sees them: the table SVG (`render --svg`, `render --load`, the REPL's
//! `:render`) and the charts (`sim --svg`, `sim --vs --svg`, `odds ... --svg`) are run through the
//! binary, parsed with roxmltree and checked against the numbers and the game they draw, and every SVG
//! is rendered to PNG in-process with resvg (`tests/png`), its text in DejaVu Sans.

use roxmltree::{Document, Node};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use village::render::text_width;

mod png;
mod support;
use support::{ok, run as village};

/// A REPL session fed `input`; its transcript (stdout), the session having ended well.
fn session(args: &[&str], input: &str) -> String {
    let mut cmd = support::command();
    cmd.args(args);
    let out = support::piped(cmd, input);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    text
}

fn temp(name: &str) -> PathBuf {
    support::temp("pictures", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn class_is(n: &Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

fn with_class<'a>(doc: &'a Document, class: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants().filter(|n| class_is(n, class)).collect()
}

/// The text of an element, its `<tspan>`s joined.
fn text_of(n: &Node) -> String {
    n.descendants()
        .filter(|d| d.is_text())
        .filter_map(|d| d.text())
        .collect()
}

fn num(n: &Node, attr: &str) -> f64 {
    n.attribute(attr)
        .unwrap_or_else(|| panic!("{n:?} has no {attr}"))
        .parse()
        .unwrap()
}

/// `path` rendered to PNG in-process by resvg (`tests/png`): the PNG exists, has the SVG's size, and
/// holds more than a blank page would.
fn renders(path: &Path) {
    let png = path.with_extension("png");
    if let Err(e) = png::svg_to_png(path, &png) {
        panic!("{e} — the pictures are checked by rendering them");
    }
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is a PNG",
        png.display()
    );
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    let svg = std::fs::read_to_string(path).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let root = doc.root_element();
    assert_eq!(
        (f64::from(be(16)), f64::from(be(20))),
        (num(&root, "width"), num(&root, "height")),
        "the PNG has the SVG's size"
    );
    // A white page of this size compresses to a few kilobytes; a drawn one does not.
    assert!(
        bytes.len() > 20_000,
        "{} is only {} bytes",
        png.display(),
        bytes.len()
    );
}

/// A saved game in the middle of a wave, edited to hold one of everything the picture draws: fire,
/// Wounds, every condition, a Barricade, a Wall spell, a Trap and both faces of Opportunity token.
fn busy_save(dir: &Path) -> (PathBuf, Value) {
    let save = dir.join("mid.json");
    session(
        &["repl", "--seed", "9"],
        &format!("game:start_wave()\n:enemies\n:save {}\n", save.display()),
    );
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&save).unwrap()).unwrap();
    let g = &mut v["game"];
    g["buildings"][1]["fire"] = json!(true);
    g["models"][0]["wounds"] = json!(1);
    g["models"][0]["conditions"] = json!(["defenseless", "entangled"]);
    let last = g["models"].as_array().unwrap().len() - 1;
    g["models"][last]["conditions"] = json!(["transfixed"]);
    let caster = g["models"][2]["id"].clone();
    let p = |x: f64, y: f64| json!({ "x": x, "y": y });
    g["tokens"] = json!([
        { "id": 91, "pos": p(3.0, 3.0), "kind": "barricade",
          "segment": { "a": p(1.5, 3.0), "b": p(4.5, 3.0) }, "integrity": 2, "structure": 2 },
        { "id": 92, "pos": p(3.0, 33.0), "kind": "barricade",
          "segment": { "a": p(1.5, 33.0), "b": p(4.5, 33.0) }, "integrity": 2, "structure": 2,
          "caster": caster },
        { "id": 93, "pos": p(33.0, 3.0), "kind": "trap", "combat": 3, "radius": 1.0, "entangle": false },
        { "id": 94, "pos": p(33.0, 33.0), "kind": "opportunity", "revealed": false },
        { "id": 95, "pos": p(30.0, 33.0), "kind": "opportunity", "revealed": true },
    ]);
    // The token counter above the ids given, as play keeps it (a save is checked for it).
    g["next_token"] = json!(96);
    std::fs::write(&save, serde_json::to_string(&v).unwrap()).unwrap();
    (save, v)
}

#[test]
fn the_table_picture_has_a_legend_edges_and_every_model_labelled_with_its_state() {
    let dir = temp("table");
    let (save, v) = busy_save(&dir);
    let svg_path = dir.join("table.svg");
    ok(&["render", "--load", s(&save), "--svg", s(&svg_path)]);
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = Document::parse(&text).expect("the SVG parses");
    let game = &v["game"];

    // The legend names every kind of thing the table can show.
    let legend: BTreeSet<String> = with_class(&doc, "legend").iter().map(text_of).collect();
    for entry in [
        "wood",
        "hill",
        "rocks",
        "pond",
        "field",
        "wall (terrain)",
        "hedge",
        "Barricade",
        "Wall spell (a Thorn Wall)",
        "Trap (dashed: the area that sets it off)",
        "Opportunity token, face down",
        "Opportunity token, revealed",
        "Fire token (the building burns)",
        "Destroyed building",
        "hero",
        "Village Defender (villager)",
        "enemy",
        "Wounds: one red dot each",
        "Defenseless",
        "Transfixed",
        "Entangled",
    ] {
        assert!(legend.contains(entry), "legend lacks {entry:?}: {legend:?}");
    }
    // The edges as the log names them ("from the west edge"), with the rules' numbers.
    let edges: Vec<String> = with_class(&doc, "edge").iter().map(text_of).collect();
    assert_eq!(
        edges.iter().cloned().collect::<BTreeSet<_>>(),
        [
            "north edge (1)",
            "east edge (2)",
            "south edge (3)",
            "west edge (4)"
        ]
        .map(String::from)
        .into_iter()
        .collect::<BTreeSet<_>>()
    );
    assert!(
        !with_class(&doc, "scale").is_empty(),
        "a scale bar is drawn"
    );
    assert!(with_class(&doc, "scale-label")
        .iter()
        .any(|n| text_of(n) == "6 inches"));

    // One label per model, on the picture, ending in the id the log gives it; no two alike.
    let models = game["models"].as_array().unwrap();
    let groups = with_class(&doc, "model");
    assert_eq!(groups.len(), models.len(), "one marker per model");
    let mut labels = BTreeSet::new();
    for m in models {
        let id = m["id"].as_u64().unwrap();
        let g = groups
            .iter()
            .find(|g| g.attribute("data-model") == Some(&id.to_string()))
            .unwrap_or_else(|| panic!("model {id} is not drawn"));
        let label: Vec<Node> = g
            .descendants()
            .filter(|n| class_is(n, "model-label"))
            .collect();
        assert_eq!(label.len(), 1, "model {id} has one label");
        let label = text_of(&label[0]);
        assert!(
            label.ends_with(&id.to_string()) && label.len() > id.to_string().len(),
            "model {id}'s label {label:?}: short name then id"
        );
        assert!(labels.insert(label.clone()), "{label} twice");
        // Its Wounds and conditions, drawn (not only in the hover title).
        let wounds = g.descendants().filter(|n| class_is(n, "wound")).count();
        assert_eq!(wounds as u64, m["wounds"].as_u64().unwrap(), "{label}");
        let conditions = g
            .descendants()
            .filter(|n| class_is(n, "condition"))
            .map(|n| text_of(&n))
            .collect::<Vec<_>>();
        let expected: Vec<String> = m["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap()[..1].to_uppercase())
            .collect();
        assert_eq!(conditions, expected, "{label}'s conditions");
    }
    // Every short name drawn is explained in the legend.
    let key: BTreeSet<String> = with_class(&doc, "legend-symbol")
        .iter()
        .map(text_of)
        .filter(|t| !t.is_empty() && t != "7")
        .collect();
    for label in &labels {
        let short = label.trim_end_matches(|c: char| c.is_ascii_digit());
        assert!(key.contains(short), "{short} is not in the key {key:?}");
    }

    // Each token kind with its own symbol, as many as the game holds.
    let tokens = game["tokens"].as_array().unwrap();
    for (class, n) in [
        ("barricade", 1),
        ("wall-spell", 1),
        ("trap", 1),
        ("opportunity", 2),
    ] {
        assert_eq!(with_class(&doc, class).len(), n, "{class}");
    }
    assert_eq!(with_class(&doc, "token").len(), tokens.len());

    // Buildings: every label line inside its building; the burning one carries the fire symbol.
    let buildings = with_class(&doc, "building");
    assert_eq!(buildings.len(), game["buildings"].as_array().unwrap().len());
    for (b, saved) in buildings.iter().zip(game["buildings"].as_array().unwrap()) {
        let name = saved["name"].as_str().unwrap();
        let rect = b.children().find(|n| n.has_tag_name("rect")).unwrap();
        let label = b
            .descendants()
            .find(|n| class_is(n, "building-label"))
            .unwrap();
        let size = num(&label, "font-size");
        assert!(size >= 7.0, "{name}: {size}px is too small to read");
        let rotated = label.attribute("transform").is_some();
        let room = if rotated {
            num(&rect, "height")
        } else {
            num(&rect, "width")
        };
        let lines: Vec<Node> = label
            .children()
            .filter(|n| n.has_tag_name("tspan"))
            .collect();
        // The name whole, its first words (wrapped), or shortened with a full stop.
        let first = text_of(&lines[0]);
        assert!(
            !first.is_empty() && name.starts_with(first.trim_end_matches('.')),
            "{name}: {first:?}"
        );
        for l in &lines {
            let bold = l.attribute("font-weight") == Some("bold");
            let w = text_width(&text_of(l), size, bold);
            assert!(
                w <= room,
                "{name}: {:?} is {w:.0}px wide in {room:.0}px",
                text_of(l)
            );
        }
        let fire = b.descendants().any(|n| class_is(&n, "fire"));
        assert_eq!(fire, saved["fire"].as_bool().unwrap(), "{name}'s fire");
    }
    renders(&svg_path);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_repl_renders_the_live_game_as_render_load_draws_its_save() {
    let dir = temp("repl");
    let (live, save, loaded) = (
        dir.join("live.svg"),
        dir.join("live.json"),
        dir.join("loaded.svg"),
    );
    session(
        &["repl", "--seed", "4"],
        &format!(
            "game:start_wave()\n:enemies\n:render {}\n:save {}\n",
            live.display(),
            save.display()
        ),
    );
    ok(&["render", "--load", s(&save), "--svg", s(&loaded)]);
    let a = std::fs::read_to_string(&live).unwrap();
    assert!(
        a == std::fs::read_to_string(&loaded).unwrap(),
        "one state, one picture: the REPL's :render and render --load of its save differ"
    );
    // The live game, not a new one: the wave's enemies are on it.
    let doc = Document::parse(&a).unwrap();
    let enemies = with_class(&doc, "model")
        .iter()
        .filter(|n| n.attribute("data-side") == Some("enemies"))
        .count();
    assert!(
        enemies > 0,
        "no enemies drawn: a new game, not the live one"
    );
    // A saved game and the options that make a new one do not mix.
    let out = village(&[
        "render",
        "--load",
        s(&save),
        "--seed",
        "3",
        "--svg",
        s(&loaded),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot be used with"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The bars of one class: (data-label, data-series, data-value).
fn bars(doc: &Document, class: &str) -> Vec<(String, String, f64)> {
    with_class(doc, class)
        .iter()
        .filter(|n| class_is(n, "bar"))
        .map(|n| {
            (
                n.attribute("data-label").unwrap_or("").to_string(),
                n.attribute("data-series").unwrap_or("").to_string(),
                num(n, "data-value"),
            )
        })
        .collect()
}

fn win_rate_text(r: &Value) -> String {
    let f = |v: &Value| v.as_f64().unwrap() * 100.0;
    format!(
        "{:.1}% (95% CI {:.1}–{:.1}%)",
        f(&r["win_rate"]),
        f(&r["ci95"][0]),
        f(&r["ci95"][1])
    )
}

#[test]
fn the_sim_chart_draws_the_reports_numbers() {
    let dir = temp("sim");
    let svg_path = dir.join("sim.svg");
    // 16 Intro games, seed 2: the run drawn whole and in two shards.
    let run = |more: &[&str]| {
        let mut args = vec!["sim", "--games", "16", "--length", "intro", "--seed", "2"];
        args.extend_from_slice(more);
        ok(&args)
    };
    let out = run(&["--json", "--svg", s(&svg_path)]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout, alone");
    let text = std::fs::read_to_string(&svg_path).unwrap();
    // The same run in two shards, merged, draws the same chart.
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let shard = dir.join(format!("shard-{}.json", &k[..1]));
        run(&["--shard", k, "--out", s(&shard)]);
        shards.push(shard);
    }
    let merged = dir.join("merged.svg");
    ok(&["merge", s(&shards[0]), s(&shards[1]), "--svg", s(&merged)]);
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        text,
        "merge --svg draws the unsharded run's chart"
    );
    let doc = Document::parse(&text).unwrap();
    let rate: Vec<String> = with_class(&doc, "win-rate").iter().map(text_of).collect();
    assert_eq!(rate, vec![win_rate_text(&report)]);
    let bar = &with_class(&doc, "win-rate-bar")[0];
    assert_eq!(num(bar, "data-value"), report["win_rate"].as_f64().unwrap());
    // The mean waves won with its interval, as the report has them.
    let waves = &with_class(&doc, "waves-won-bar")[0];
    assert_eq!(
        num(waves, "data-value"),
        report["waves_won_mean"].as_f64().unwrap()
    );
    assert_eq!(
        num(waves, "data-low"),
        report["waves_won_ci95"][0].as_f64().unwrap()
    );
    assert_eq!(
        num(waves, "data-high"),
        report["waves_won_ci95"][1].as_f64().unwrap()
    );
    assert_eq!(
        text_of(&with_class(&doc, "waves-won")[0]),
        format!(
            "{:.2} (95% CI {:.2}–{:.2})",
            report["waves_won_mean"].as_f64().unwrap(),
            report["waves_won_ci95"][0].as_f64().unwrap(),
            report["waves_won_ci95"][1].as_f64().unwrap()
        )
    );
    // One bar per wave some game was lost in, its height the report's count; one per cause.
    let counts = |key: &str| -> BTreeMap<String, f64> {
        report[key]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| (k.clone(), n.as_f64().unwrap()))
            .collect()
    };
    let drawn = |class: &str| -> BTreeMap<String, f64> {
        bars(&doc, class)
            .into_iter()
            .map(|(l, _, v)| (l, v))
            .collect()
    };
    assert_eq!(drawn("loss-wave"), counts("loss_wave"));
    assert_eq!(drawn("cause"), counts("causes"));
    let titles: Vec<String> = with_class(&doc, "panel-title")
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(titles.len(), 4, "{titles:?}");
    renders(&svg_path);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_ab_chart_puts_both_arms_on_one_scale_and_the_difference_against_zero() {
    let dir = temp("ab");
    let svg_path = dir.join("ab.svg");
    let out = ok(&[
        "sim",
        "--games",
        "16",
        "--length",
        "intro",
        "--vs",
        "power_blow_lethal",
        "--json",
        "--svg",
        s(&svg_path),
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = Document::parse(&text).unwrap();
    let rates: Vec<String> = with_class(&doc, "win-rate").iter().map(text_of).collect();
    assert_eq!(
        rates,
        vec![
            win_rate_text(&v["a"]["report"]),
            win_rate_text(&v["b"]["report"])
        ]
    );
    let d = &v["difference"];
    let pts = |x: &Value| x.as_f64().unwrap() * 100.0;
    assert_eq!(
        text_of(&with_class(&doc, "difference")[0]),
        format!(
            "{:+.1} points (95% CI {:+.1} to {:+.1})",
            pts(&d["win_rate"]),
            pts(&d["ci95"][0]),
            pts(&d["ci95"][1])
        )
    );
    // The paired difference in mean waves won, its interval as the JSON has it.
    assert_eq!(
        text_of(&with_class(&doc, "waves-difference")[0]),
        format!(
            "{:+.2} waves (95% CI {:+.2} to {:+.2})",
            d["waves_won"].as_f64().unwrap(),
            d["waves_won_ci95"][0].as_f64().unwrap(),
            d["waves_won_ci95"][1].as_f64().unwrap()
        )
    );
    let bar = &with_class(&doc, "waves-difference-bar")[0];
    assert_eq!(num(bar, "data-value"), d["waves_won"].as_f64().unwrap());
    assert_eq!(
        num(bar, "data-low"),
        d["waves_won_ci95"][0].as_f64().unwrap()
    );
    assert_eq!(
        num(bar, "data-high"),
        d["waves_won_ci95"][1].as_f64().unwrap()
    );
    assert_eq!(with_class(&doc, "zero-line").len(), 2);
    // Each arm's rules in words, as the report's JSON has them.
    let described: Vec<String> = with_class(&doc, "arm-description")
        .iter()
        .map(text_of)
        .collect();
    assert_eq!(
        described,
        vec![
            format!("A: {}", v["a"]["description"].as_str().unwrap()),
            format!("B: {}", v["b"]["description"].as_str().unwrap())
        ]
    );
    assert!(
        described[1].contains("Power Blow is Lethal"),
        "{described:?}"
    );
    // Both arms' loss waves on the same categories, each arm's bar its own count (0 where it lost none).
    let drawn = bars(&doc, "loss-wave");
    let waves: BTreeSet<&String> = drawn.iter().map(|(l, _, _)| l).collect();
    assert_eq!(drawn.len(), 2 * waves.len());
    for (arm, series) in [("a", "A: default"), ("b", "B: power_blow_lethal")] {
        for w in &waves {
            let count = v[arm]["report"]["loss_wave"][w.as_str()]
                .as_f64()
                .unwrap_or(0.0);
            assert!(
                drawn
                    .iter()
                    .any(|(l, s, c)| l == *w && s == series && *c == count),
                "{series} wave {w}: {count}"
            );
        }
    }
    renders(&svg_path);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_odds_charts_show_the_distribution_and_its_at_least_and_at_most_views() {
    let dir = temp("odds");
    for (args, n) in [
        (
            vec!["odds", "activation", "--quality", "3", "--dice", "3"],
            4,
        ),
        (
            vec![
                "odds",
                "melee",
                "--attacker",
                "4",
                "--defender",
                "3",
                "--free-hack",
            ],
            10,
        ),
        (
            vec!["odds", "melee", "--attacker", "2", "--defender", "5"],
            9,
        ),
    ] {
        let svg_path = dir.join(format!("{}-{n}.svg", args[1]));
        let mut full = args.clone();
        full.extend(["--json", "--svg", s(&svg_path)]);
        let out = ok(&full);
        let odds: Value = serde_json::from_slice(&out.stdout).unwrap();
        let doc_text = std::fs::read_to_string(&svg_path).unwrap();
        let doc = Document::parse(&doc_text).unwrap();
        let exactly: Vec<f64> = bars(&doc, "exactly").iter().map(|b| b.2).collect();
        assert_eq!(exactly.len(), n, "{args:?}");
        let sum: f64 = exactly.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "{args:?}: the bars add to {sum}");
        if args[1] == "activation" {
            let p: Vec<f64> = odds["successes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_f64().unwrap())
                .collect();
            assert_eq!(exactly, p);
        } else {
            let tie = odds["tie"].as_f64().unwrap();
            assert!(bars(&doc, "exactly")
                .iter()
                .any(|(l, _, v)| l == "tie" && *v == tie));
        }
        let at_least: Vec<f64> = bars(&doc, "at-least").iter().map(|b| b.2).collect();
        let at_most: Vec<f64> = bars(&doc, "at-most").iter().map(|b| b.2).collect();
        assert_eq!((at_least.len(), at_most.len()), (n, n));
        for i in 0..n {
            let above: f64 = exactly[i..].iter().sum();
            let below: f64 = exactly[..=i].iter().sum();
            assert!((at_least[i] - above.min(1.0)).abs() < 1e-9, "at least {i}");
            assert!((at_most[i] - below.min(1.0)).abs() < 1e-9, "at most {i}");
        }
        renders(&svg_path);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A scenario's battle in the table picture: each deployment zone and objective drawn with its name,
/// VP and holder, the round limit and VP in the heading; rendered by resvg.
#[test]
fn a_scenario_picture_draws_its_zones_objectives_and_round_limit() {
    let dir = temp("scenario");
    let svg_path = dir.join("bridge.svg");
    ok(&[
        "render",
        "--scenario",
        "hold_the_bridge",
        "--svg",
        s(&svg_path),
    ]);
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = Document::parse(&text).expect("the SVG parses");
    let title = |n: &Node| {
        n.children()
            .find(|c| c.has_tag_name("title"))
            .map(|t| text_of(&t))
            .unwrap_or_default()
    };
    let zones: Vec<String> = with_class(&doc, "zone").iter().map(title).collect();
    assert_eq!(zones, ["the south bank: the heroes' deployment zone"]);
    let objectives: Vec<String> = with_class(&doc, "objective").iter().map(title).collect();
    assert_eq!(
        objectives,
        [
            "the bridge: 1 VP each round, held by nobody",
            "the village road: 0 VP at the end, held by nobody"
        ]
    );
    // The zone's outline is where the scenario puts it: 12" to 24" across a 36" table.
    let zone = with_class(&doc, "zone")[0];
    let poly = zone.children().find(|c| c.has_tag_name("polygon")).unwrap();
    let xs: Vec<f64> = poly
        .attribute("points")
        .unwrap()
        .split(' ')
        .map(|p| p.split(',').next().unwrap().parse().unwrap())
        .collect();
    let table = with_class(&doc, "table")[0];
    let (x0, w) = (num(&table, "x"), num(&table, "width"));
    let inch = w / 36.0;
    let lo = xs.iter().copied().fold(f64::MAX, f64::min);
    let hi = xs.iter().copied().fold(f64::MIN, f64::max);
    assert!(((lo - x0) / inch - 12.0).abs() < 0.05, "{lo}");
    assert!(((hi - x0) / inch - 24.0).abs() < 0.05, "{hi}");
    let heading: String = with_class(&doc, "heading").iter().map(text_of).collect();
    assert!(
        heading.contains("round 0 of 12") && heading.contains("VP heroes 0, enemies 0"),
        "{heading}"
    );
    renders(&svg_path);
    // The rulebook's picture has none of them.
    let plain = dir.join("plain.svg");
    ok(&["render", "--svg", s(&plain)]);
    let text = std::fs::read_to_string(&plain).unwrap();
    let doc = Document::parse(&text).unwrap();
    assert!(with_class(&doc, "zone").is_empty() && with_class(&doc, "objective").is_empty());
}
