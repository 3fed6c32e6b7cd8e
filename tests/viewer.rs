//! The replay viewer as a person sees it: the page `village replay --html` writes, opened in real
//! headless Chromium, stepped to an event through its URL (`#event=N`, `#diff`), screenshotted, and its
//! drawn models (the `data-` attributes of each `g.model`) checked against the event log of the same
//! game. Also: the frame recorder puts the table back at any event as the log says, it does not change
//! play, and the page fetches nothing. Chromium is required (`.ci/run` installs it): without it the
//! tests fail and say so.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use village::roster::Rosters;
use village::script::repl::NewGame;
use village::script::{Limits, ScriptHost};

mod support;
use support::ok as village;

/// A fresh folder for one test.
fn temp(name: &str) -> PathBuf {
    support::temp("viewer", name)
}

/// The Chromium binary: `$CHROMIUM`, else `chromium` on the PATH. Missing, the test fails and says how
/// to install it (no skipping: the browser test is the point).
/// Asked once per test program: every page opened uses it.
fn chromium() -> &'static str {
    static FOUND: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        let name = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".to_string());
        let found = Command::new(&name).arg("--version").output();
        match found {
            Ok(o) if o.status.success() => name,
            _ => panic!(
                "headless Chromium is needed for the viewer tests and `{name}` does not run: install \
                 it (Debian: apt-get install -y chromium; .ci/run does) or point $CHROMIUM at it"
            ),
        }
    })
}

/// Open `page` at `fragment` in headless Chromium, let its scripts run (a virtual-time budget), and
/// return the DOM as it then stands; also take a screenshot into `shot` when given.
fn open(page: &Path, fragment: &str, shot: Option<&Path>) -> String {
    let profile = temp(&format!(
        "profile-{}",
        fragment.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    ));
    let url = format!("file://{}#{fragment}", page.display());
    let run = |extra: &[String]| -> Output {
        Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                &format!("--user-data-dir={}", profile.display()),
                "--window-size=1500,950",
                "--virtual-time-budget=4000",
            ])
            .args(extra)
            .arg(&url)
            .output()
            .expect("chromium runs")
    };
    if let Some(shot) = shot {
        let out = run(&[format!("--screenshot={}", shot.display())]);
        assert!(
            out.status.success(),
            "chromium --screenshot failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let png = std::fs::read(shot).expect("chromium wrote the screenshot");
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 20_000,
            "the screenshot is not a picture of the page ({} bytes)",
            png.len()
        );
    }
    let out = run(&["--dump-dom".to_string()]);
    assert!(
        out.status.success(),
        "chromium --dump-dom failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&profile);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The attributes of each start tag in `dom` whose class is `class` (a plain scan of the serialised DOM).
fn elements(dom: &str, class: &str) -> Vec<BTreeMap<String, String>> {
    let mut found = Vec::new();
    let mut rest = dom;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        let mut attrs = BTreeMap::new();
        let mut t = tag;
        while let Some(eq) = t.find("=\"") {
            let name = t[..eq].rsplit(' ').next().unwrap_or("").to_string();
            let after = &t[eq + 2..];
            let close = after.find('"').unwrap_or(after.len());
            attrs.insert(name, after[..close].to_string());
            t = &after[(close + 1).min(after.len())..];
        }
        if attrs.get("class").map(String::as_str) == Some(class) {
            found.push(attrs);
        }
    }
    found
}

/// The `<body>`'s `data-` attribute `name` (the page's event, arm, model count).
fn body(dom: &str, name: &str) -> String {
    let i = dom.find("<body").expect("a body");
    let tag = &dom[i..i + dom[i..].find('>').unwrap()];
    let key = format!("data-{name}=\"");
    let at = tag
        .find(&key)
        .unwrap_or_else(|| panic!("the page has not stepped: no data-{name} on <body> ({tag})"));
    let v = &tag[at + key.len()..];
    v[..v.find('"').unwrap()].to_string()
}

/// The models the page draws: id → (x, y) in table inches where the browser shows them (the page
/// measures each base's centre on screen against the table's rectangle on screen: `data-seen-x/-y`),
/// after checking that the page's own record of the model (`data-x/-y`) agrees within the rounding of
/// a measure on screen.
fn drawn(dom: &str) -> BTreeMap<u64, (f64, f64)> {
    elements(dom, "model")
        .into_iter()
        .map(|a| {
            let n = |k: &str| -> f64 {
                a.get(k)
                    .unwrap_or_else(|| panic!("a drawn model without {k}: {a:?}"))
                    .parse()
                    .unwrap()
            };
            let (x, y) = (n("data-x"), n("data-y"));
            let (seen_x, seen_y) = (n("data-seen-x"), n("data-seen-y"));
            assert!(
                (seen_x - x).abs() < SEEN_TOLERANCE && (seen_y - y).abs() < SEEN_TOLERANCE,
                "model {} is drawn at ({seen_x}, {seen_y}) on screen, not at ({x}, {y})",
                a["data-id"]
            );
            (n("data-id") as u64, (x, y))
        })
        .collect()
}

/// How far (in inches) a base's centre as measured on screen may be from where it stands: a pixel of
/// the window is about 0.04" of the table.
const SEEN_TOLERANCE: f64 = 0.1;

/// The models on the table after event `n`, by the log alone: placed, moved, deployed, removed.
fn from_log(log: &[Value], n: usize) -> BTreeMap<u64, (f64, f64)> {
    let mut at = BTreeMap::new();
    let pos = |v: &Value| (v["x"].as_f64().unwrap(), v["y"].as_f64().unwrap());
    for e in &log[..=n] {
        let id = e["model"].as_u64();
        match e["event"].as_str().unwrap() {
            "placed" => {
                at.insert(id.unwrap(), pos(&e["pos"]));
            }
            "moved" | "deployed" => {
                at.insert(id.unwrap(), pos(&e["to"]));
            }
            "removed" => {
                at.remove(&id.unwrap());
            }
            _ => {}
        }
    }
    at
}

fn assert_same_table(
    what: &str,
    page: &BTreeMap<u64, (f64, f64)>,
    log: &BTreeMap<u64, (f64, f64)>,
) {
    let ids = |m: &BTreeMap<u64, (f64, f64)>| m.keys().copied().collect::<Vec<_>>();
    assert_eq!(
        ids(page),
        ids(log),
        "{what}: the page draws models {:?}, the log has {:?} on the table",
        ids(page),
        ids(log)
    );
    for (id, (x, y)) in log {
        let (px, py) = page[id];
        assert!(
            (px - x).abs() < 0.011 && (py - y).abs() < 0.011,
            "{what}: model {id} is drawn at ({px}, {py}), the log puts it at ({x:.3}, {y:.3})"
        );
    }
}

/// The log of a recorded game, played again by `village play --auto --log` (its seed is all it needs).
fn log_of(record: &Path, dir: &Path, name: &str) -> Vec<Value> {
    let r: Value = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    let log = dir.join(format!("{name}.jsonl"));
    let heroes: Vec<&str> = r["heroes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let seed = r["seed"].to_string();
    let heroes = heroes.join(",");
    let mut args = vec![
        "play",
        "--auto",
        "--seed",
        &seed,
        "--length",
        r["length"].as_str().unwrap(),
        "--heroes",
        &heroes,
        "--log",
        log.to_str().unwrap(),
    ];
    for v in r["variants"].as_array().unwrap() {
        args.extend(["--variant", v.as_str().unwrap()]);
    }
    village(&args);
    events_of(&log)
}

/// Every line of a written log: its events and its `decision` lines (the scripts' reasons, each just
/// before the events it led to).
fn log_lines(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect()
}

/// The events of a written log, by their number: its `decision` lines set aside.
fn events_of(log: &Path) -> Vec<Value> {
    log_lines(log)
        .into_iter()
        .filter(|v| v["event"] != "decision")
        .collect()
}

/// The record of game `index` of a `village sim --games GAMES --seed SEED --record` run in `dir`.
fn recorded_game(dir: &Path, games: u32, seed: u64, index: u32) -> PathBuf {
    let rec = dir.join("rec");
    village(&[
        "sim",
        "--games",
        &games.to_string(),
        "--seed",
        &seed.to_string(),
        "--record",
        rec.to_str().unwrap(),
    ]);
    rec.join(format!("game-{index}.json"))
}

#[test]
fn the_page_draws_the_models_the_log_has_at_a_combat() {
    let dir = temp("one");
    let record = recorded_game(&dir, 3, 11, 2);
    let page = dir.join("game.html");
    village(&[
        "replay",
        record.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let log = log_of(&record, &dir, "game");
    let of = |kind: &str| -> Vec<usize> {
        (0..log.len())
            .filter(|&i| log[i]["event"] == kind)
            .collect()
    };
    let (combats, moves, removals) = (of("combat"), of("moved"), of("removed"));
    assert!(
        combats.len() > 2 && !moves.is_empty() && !removals.is_empty(),
        "the game has combats, moves and removals to look at"
    );
    // A combat in the middle of the game (screenshotted), a move and a removal (where the table
    // changes at the event itself), the last combat and the game's last event.
    let middle = |v: &[usize]| v[v.len() / 2];
    for (k, n) in [
        middle(&combats),
        middle(&moves),
        middle(&removals),
        combats[combats.len() - 1],
        log.len() - 1,
    ]
    .into_iter()
    .enumerate()
    {
        let shot = dir.join(format!("event-{n}.png"));
        let dom = open(
            &page,
            &format!("event={n}"),
            (k == 0).then_some(shot.as_path()),
        );
        assert_eq!(
            body(&dom, "event"),
            n.to_string(),
            "the page went to #event={n}"
        );
        let page_models = drawn(&dom);
        assert_eq!(body(&dom, "models"), page_models.len().to_string());
        assert_same_table(&format!("event #{n}"), &page_models, &from_log(&log, n));
        // The event in words is the log's.
        assert!(
            dom.contains(&format!("#{n} ")),
            "the page shows event #{n} in words"
        );
    }
}

#[test]
fn the_ab_page_jumps_to_where_the_arms_part() {
    let dir = temp("ab");
    let rec = dir.join("rec");
    let sim = village(&[
        "sim",
        "--games",
        "2",
        "--seed",
        "6",
        "--vs",
        "single_horde",
        "--record",
        rec.to_str().unwrap(),
        "--json",
    ]);
    // Game 0's arms end after another number of waves won (game 1's with another result): game 0 is
    // the first pair that ended differently.
    let (a, b) = (rec.join("a/game-0.json"), rec.join("b/game-0.json"));
    assert!(
        a.is_file() && b.is_file(),
        "sim --vs --record writes both arms"
    );
    // The run says which pair to watch and how; the page is made with the very command it gives.
    let said = String::from_utf8_lossy(&sim.stderr).to_string();
    let command = said
        .lines()
        .find_map(|l| l.split_once(": village ").map(|(_, c)| c.to_string()))
        .unwrap_or_else(|| panic!("sim --vs --record names a page to open: {said}"));
    let page = dir.join("ab.html");
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(
        words[..words.len() - 1],
        [
            "replay",
            a.to_str().unwrap(),
            "--vs",
            b.to_str().unwrap(),
            "--html"
        ],
        "the games ended differently first in game 0: {said}"
    );
    village(&[
        "replay",
        a.to_str().unwrap(),
        "--vs",
        b.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let (la, lb) = (log_of(&a, &dir, "a"), log_of(&b, &dir, "b"));
    let first = (0..la.len().max(lb.len()))
        .find(|&i| la.get(i) != lb.get(i))
        .expect("the variant changes the game");
    for (arm, log) in [(0, &la), (1, &lb)] {
        let dom = open(&page, &format!("diff&arm={arm}"), None);
        assert_eq!(
            body(&dom, "event"),
            first.to_string(),
            "the first-difference jump lands where the logs part"
        );
        assert_eq!(body(&dom, "arm"), arm.to_string());
        assert_same_table(
            &format!("arm {arm} at the first difference #{first}"),
            &drawn(&dom),
            &from_log(log, first),
        );
    }
}

#[test]
fn the_page_fetches_nothing() {
    let dir = temp("offline");
    let page = dir.join("play.html");
    village(&[
        "play",
        "--auto",
        "--seed",
        "3",
        "--length",
        "intro",
        "--html",
        page.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&page).unwrap();
    // The only URL in it is the SVG namespace, a name no browser fetches.
    let urls: Vec<&str> = text
        .match_indices("http")
        .map(|(i, _)| &text[i..(i + 40).min(text.len())])
        .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
        .filter(|u| !u.starts_with("http://www.w3.org/2000/svg"))
        .collect();
    assert!(urls.is_empty(), "the page names URLs: {urls:?}");
    for needle in [
        " src=",
        " href=",
        "url(",
        "@import",
        "fetch(",
        "XMLHttpRequest",
        "//cdn",
    ] {
        assert!(!text.contains(needle), "the page loads something: {needle}");
    }
    assert!(text.len() < 2_000_000, "the page is {} bytes", text.len());
    // And it runs from disk on its own.
    let dom = open(&page, "event=5", None);
    assert_eq!(body(&dom, "event"), "5");
}

/// A game played with the frame recorder on, and its log played without.
fn recorded(seed: u64) -> (village::viewer::Recording, Vec<village::state::Event>) {
    let layers = [Rosters::builtin_root()];
    let host = ScriptHost::open(&layers, Limits::default(), seed).unwrap();
    let heroes: Vec<String> = support::PARTY.map(String::from).to_vec();
    let new = NewGame {
        seed,
        length: "standard".into(),
        heroes: heroes.clone(),
        preset: village::roster::DEFAULT_PRESET.to_string(),
        scenario: village::scenario::DEFAULT_SCENARIO.to_string(),
        variants: Vec::new(),
        policy: "default".into(),
    };
    let rec = host.play_recorded(&new, "generated").unwrap();
    let (_, plain) = host
        .play_logged(seed, &heroes, "standard", "generated", &[], "default")
        .unwrap();
    (rec, plain)
}

#[test]
fn the_recorder_changes_no_play_and_rebuilds_every_event() {
    // Games in which buildings are hit (seed 2's were not after issue 37 changed play).
    for seed in [3, 9] {
        let (rec, plain) = recorded(seed);
        assert_eq!(rec.events, plain, "seed {seed}: recording changed the game");
        let log: Vec<Value> = rec
            .events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        // The recorder starts at the setup (event 0), before any model is placed: a hero comes onto
        // the table at its `placed` event, where it deploys (SUPPLEMENT §11).
        assert_eq!(
            rec.start.log().len(),
            1,
            "seed {seed}: the start is the setup"
        );
        assert_eq!(log[0]["event"], "setup");
        assert!(
            rec.start.models.is_empty(),
            "seed {seed}: no model before it is placed"
        );
        // Every event, each deployment at its own.
        for n in 0..log.len() {
            let g = rec.game_at(n as u64);
            let at: BTreeMap<u64, (f64, f64)> = g
                .models
                .iter()
                .map(|m| (u64::from(m.id.0), (m.pos.x, m.pos.y)))
                .collect();
            assert_same_table(&format!("seed {seed}, event #{n}"), &at, &from_log(&log, n));
        }
        // Buildings at the end are the game's.
        let last = rec.game_at(rec.events.len() as u64 - 1);
        let integrity = |g: &village::state::Game| -> Vec<i32> {
            g.buildings.iter().map(|b| b.integrity).collect()
        };
        let end: BTreeMap<String, i32> = rec
            .summary
            .waves
            .last()
            .unwrap()
            .integrity
            .clone()
            .into_iter()
            .collect();
        for b in &last.buildings {
            if let Some(i) = end.get(&b.name) {
                assert_eq!(*i, b.integrity, "seed {seed}: {} at the end", b.name);
            }
        }
        assert_ne!(
            integrity(&last),
            integrity(&rec.start),
            "seed {seed}: buildings were hit"
        );
    }
}

#[test]
fn render_replay_draws_an_event_and_refuses_one_past_the_end() {
    let dir = temp("render");
    let record = recorded_game(&dir, 1, 6, 0);
    let svg = dir.join("t.svg");
    village(&[
        "render",
        "--replay",
        record.to_str().unwrap(),
        "--event",
        "120",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG parses");
    // The models drawn are the ones on the table after event #120 by the log, where the log puts them
    // (`data-x/-y`, inches), and each base is drawn there: one scale and the table rectangle's corner
    // map every model's inches to its circle's centre.
    let log = log_of(&record, &dir, "render");
    let want = from_log(&log, 120);
    let num = |n: roxmltree::Node, k: &str| -> f64 { n.attribute(k).unwrap().parse().unwrap() };
    let table = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("table"))
        .expect("the table's rectangle");
    let (left, bottom) = (num(table, "x"), num(table, "y") + num(table, "height"));
    let mut drawn = BTreeMap::new();
    let mut centres = Vec::new();
    for g in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("model"))
    {
        let id: u64 = g.attribute("data-model").unwrap().parse().unwrap();
        let (x, y) = (num(g, "data-x"), num(g, "data-y"));
        let c = g.children().find(|c| c.has_tag_name("circle")).unwrap();
        centres.push(((x, y), (num(c, "cx"), num(c, "cy"))));
        drawn.insert(id, (x, y));
    }
    assert_same_table("render --replay at #120", &drawn, &want);
    // A Standard table is 36" wide.
    let inch = (table.attribute("width").unwrap().parse::<f64>().unwrap()) / 36.0;
    for ((x, y), (cx, cy)) in centres {
        assert!(
            (left + x * inch - cx).abs() < 0.2 && (bottom - y * inch - cy).abs() < 0.2,
            "a base at ({x}, {y}) is drawn at ({cx}, {cy})"
        );
    }
    let out = support::run(&[
        "render",
        "--replay",
        record.to_str().unwrap(),
        "--event",
        "999999",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--event 999999: the game has events #0 to #"),
        "{err}"
    );
}

#[test]
fn a_rolled_back_change_leaves_no_frame() {
    use village::geometry::Vec2;
    use village::state::frames::game_at;
    use village::state::EventKind;
    let (r, mut g) = common::setup();
    let a = common::place(&r, &mut g, "Orc Warrior", 10.0, 10.0);
    let start = g.clone();
    g.record_frames();
    let moved = |g: &mut village::state::Game, to: Vec2| {
        let from = g.model(a).unwrap().pos;
        g.model_mut(a).unwrap().pos = to;
        g.record(EventKind::Moved {
            model: a,
            from,
            to,
            kind: Default::default(),
            reach: None,
            band: None,
            band_lost: None,
            actions: None,
            stop: Default::default(),
            with: None,
            via: Vec::new(),
            stopped_by: None,
            traits: Vec::new(),
        });
    };
    // Two moves that are rolled back (a refused order), then two that stand.
    let cp = g.checkpoint();
    moved(&mut g, Vec2::new(20.0, 20.0));
    moved(&mut g, Vec2::new(30.0, 30.0));
    g.restore(cp);
    moved(&mut g, Vec2::new(12.0, 10.0));
    moved(&mut g, Vec2::new(14.0, 10.0));
    let frames = g.take_frames().unwrap();
    let first = g.log().len() as u64 - 2;
    for (n, x) in [(first - 1, 10.0), (first, 12.0), (first + 1, 14.0)] {
        let at = game_at(&start, &frames, n).model(a).unwrap().pos;
        assert_eq!(at, Vec2::new(x, 10.0), "after event #{n}");
    }
}

/// A Standard game of `seed` played by `village play --auto` in `dir`: its page and its log.
fn played(dir: &Path, seed: u64) -> (PathBuf, Vec<Value>) {
    let (page, log_file) = (dir.join("game.html"), dir.join("game.jsonl"));
    village(&[
        "play",
        "--auto",
        "--seed",
        &seed.to_string(),
        "--log",
        log_file.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    (page, events_of(&log_file))
}

#[test]
fn keys_search_and_a_click_drive_the_page_as_a_person_would() {
    let dir = temp("keys");
    // Seed 20: its middle combat is in a wave that another follows (`w` has a wave to go to).
    let (page, log) = played(&dir, 20);
    let combats: Vec<usize> = (0..log.len())
        .filter(|&i| log[i]["event"] == "combat")
        .collect();
    let start = combats[combats.len() / 2] + 1;
    let at = |dom: &str| -> usize { body(dom, "event").parse().unwrap() };

    // → twice, ← once: one event on.
    let dom = open(
        &page,
        &format!("event={start}&keys=ArrowRight,ArrowRight,ArrowLeft"),
        None,
    );
    assert_eq!(at(&dom), start + 1, "→ → ← steps one event on");
    // c: the next combat by the log.
    let next_combat = *combats.iter().find(|&&c| c > start).unwrap();
    let dom = open(&page, &format!("event={start}&keys=c"), None);
    assert_eq!(at(&dom), next_combat, "c goes to the next combat");
    // w: the first event of the next wave (the one before it is still in this wave).
    let wave = |dom: &str| -> u64 { body(dom, "wave").parse().unwrap() };
    let here = wave(&open(&page, &format!("event={start}"), None));
    let dom = open(&page, &format!("event={start}&keys=w"), None);
    let n = at(&dom);
    assert!(
        n > start && wave(&dom) == here + 1,
        "w goes to wave {}",
        here + 1
    );
    assert_eq!(
        wave(&open(&page, &format!("event={}", n - 1), None)),
        here,
        "w lands on the next wave's first event"
    );
    // Home and End.
    assert_eq!(at(&open(&page, "event=500&keys=Home", None)), 0);
    assert_eq!(at(&open(&page, "event=5&keys=End", None)), log.len() - 1);

    // The search box: typing and Enter goes to the first event after the current one that mentions
    // the words (a Gruesome Kill: a combat's result and the model's removal say so).
    let first = (1..log.len())
        .find(|&i| log[i].to_string().to_lowercase().contains("gruesome"))
        .expect("the game has a Gruesome Kill");
    let dom = open(&page, "event=0&search=gruesome", None);
    assert_eq!(
        at(&dom),
        first,
        "the search jumps to the first Gruesome Kill"
    );

    // A click on a model shows its profile: its name, Wounds and conditions at that moment.
    let on_table = from_log(&log, start);
    let (&id, _) = on_table.iter().next().unwrap();
    let dom = open(&page, &format!("event={start}&click={id}"), None);
    assert_eq!(
        body(&dom, "selected"),
        id.to_string(),
        "the click selects it"
    );
    let panel = &dom[dom.find("id=\"model\"").unwrap()..];
    let panel = &panel[..panel.find("</div>").unwrap()];
    assert!(
        panel.contains(&format!("({id})"))
            && panel.contains("Wounds")
            && panel.contains("Conditions"),
        "the profile of model {id}: {panel}"
    );
}

/// How far from a melee's attacker (inches) the models that crowd it stand.
const CROWD_RADIUS: f64 = 3.0;

/// How near (inches, centre to centre) two models of the usual 1" base stand when in base contact.
const CONTACT: f64 = 1.1;

/// The melees of `log`, most crowded first: (event, attacker, how many models within `CROWD_RADIUS` of
/// the attacker the log says carry a label beside their base — in base contact with another model
/// (Engaged, the likeliest) or under a condition the log gave and has not taken back). Searched for,
/// not named, so that a change of play cannot leave the label test looking at a quiet table.
fn crowded_melees(log: &[Value]) -> Vec<(usize, u64, usize)> {
    let mut conditions: BTreeMap<u64, std::collections::BTreeSet<String>> = BTreeMap::new();
    let mut melees = Vec::new();
    for (n, e) in log.iter().enumerate() {
        let model = e["model"].as_u64();
        match e["event"].as_str().unwrap() {
            "condition" => {
                let set = conditions.entry(model.unwrap()).or_default();
                let c = e["condition"].as_str().unwrap().to_string();
                if e["added"] == true {
                    set.insert(c);
                } else {
                    set.remove(&c);
                }
            }
            "removed" => {
                conditions.remove(&model.unwrap());
            }
            "combat" if e["kind"] == "melee" => {
                let at = from_log(log, n);
                let attacker = e["attacker"].as_u64().unwrap();
                let Some(&(ax, ay)) = at.get(&attacker) else {
                    continue;
                };
                let touching = |id: &u64| {
                    let (x, y) = at[id];
                    at.iter()
                        .any(|(o, (ox, oy))| o != id && (x - ox).hypot(y - oy) <= CONTACT)
                };
                let labelled = at
                    .iter()
                    .filter(|(_, (x, y))| (x - ax).hypot(y - ay) <= CROWD_RADIUS)
                    .filter(|(id, _)| {
                        touching(id) || conditions.get(id).is_some_and(|c| !c.is_empty())
                    })
                    .count();
                melees.push((n, attacker, labelled));
            }
            _ => {}
        }
    }
    melees.sort_by_key(|&(n, _, labelled)| (std::cmp::Reverse(labelled), n));
    melees
}

/// The drawn models of a dump: id → (x, y, labelled), labelled when it has Wounds or conditions (the
/// page writes them beside the base, where they can meet another model's).
fn labelled(dom: &str) -> BTreeMap<u64, (f64, f64, bool)> {
    elements(dom, "model")
        .into_iter()
        .map(|a| {
            let n = |k: &str| -> f64 { a[k].parse().unwrap() };
            let tagged = !a["data-conds"].is_empty() || n("data-wounds") > 0.0;
            (n("data-id") as u64, (n("data-x"), n("data-y"), tagged))
        })
        .collect()
}

/// The label boxes the page measured (`#check=labels`) in one view (`table` or `closeup`): the model and
/// kind of each, and its box on screen (left, top, right, bottom in pixels).
fn label_boxes(dom: &str, view: &str) -> Vec<(String, [f64; 4])> {
    body(dom, &format!("labels-{view}"))
        .split(';')
        .filter(|b| !b.is_empty())
        .map(|b| {
            let (name, edges) = b.rsplit_once(':').unwrap();
            let e: Vec<f64> = edges.split(',').map(|v| v.parse().unwrap()).collect();
            (name.to_string(), [e[0], e[1], e[2], e[3]])
        })
        .collect()
}

/// How much two boxes may share, in pixels each way: less than the rounding of a measure on screen.
const TOUCH: f64 = 0.5;

/// Every pair of boxes that intersect (by more than `TOUCH` both ways).
fn overlapping(boxes: &[(String, [f64; 4])]) -> Vec<String> {
    let mut found = Vec::new();
    for (i, (a, p)) in boxes.iter().enumerate() {
        for (b, q) in &boxes[i + 1..] {
            let w = p[2].min(q[2]) - p[0].max(q[0]);
            let h = p[3].min(q[3]) - p[1].max(q[1]);
            if w > TOUCH && h > TOUCH {
                found.push(format!("{a} and {b} ({w:.1} x {h:.1} px)"));
            }
        }
    }
    found
}

/// The melees of a recorded game ranked as the page labels them, most crowded first: (event,
/// attacker, labelled models — with Wounds or conditions — within `CROWD_RADIUS` of the attacker, pairs
/// of them in base contact).
fn labelled_melees(rec: &village::viewer::Recording) -> Vec<(usize, u64, usize, usize)> {
    let mut all = Vec::new();
    for (n, e) in rec.events.iter().enumerate() {
        let village::state::EventKind::Combat { attacker, kind, .. } = &e.kind else {
            continue;
        };
        if *kind != village::state::RollKind::Melee {
            continue;
        }
        let g = rec.game_at(n as u64);
        let Ok(a) = g.model(*attacker) else {
            continue;
        };
        let near: Vec<(f64, f64)> = g
            .models
            .iter()
            .filter(|m| {
                (!m.conditions.is_empty() || m.wounds > 0) && m.pos.dist(a.pos) <= CROWD_RADIUS
            })
            .map(|m| (m.pos.x, m.pos.y))
            .collect();
        let touching = near
            .iter()
            .enumerate()
            .flat_map(|(i, p)| near[i + 1..].iter().map(move |q| (p, q)))
            .filter(|(p, q)| (p.0 - q.0).hypot(p.1 - q.1) <= CONTACT)
            .count();
        all.push((n, u64::from(attacker.0), near.len(), touching));
    }
    all.sort_by_key(|&(n, _, near, touching)| (std::cmp::Reverse((near, touching)), n));
    all
}

/// The crowded melees the labels are checked at: the most crowded of Standard seed 961 and the next
/// one of another fight (at least 50 events apart), and the most crowded of seed 122. Since issue 37
/// (contact stops a move, Groups of five at most) pile-ups are rare: on the per-purpose dice, 16 of
/// the Standard games of seeds 1–1500 with the test party have a melee this crowded (five labelled
/// models within 3" of the attacker, two pairs in contact), and only seeds 961 and 1459 two separate
/// ones, so two games give the three.
const CROWDED: [(u64, usize); 2] = [(961, 2), (122, 1)];

#[test]
fn labels_never_overlap_at_the_most_crowded_melees() {
    let dir = temp("labels");
    let mut checked = 0;
    for (seed, take) in CROWDED {
        let (rec, _) = recorded(seed);
        let log: Vec<Value> = rec
            .events
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        let page = dir.join(format!("game-{seed}.html"));
        let arm = village::viewer::Arm {
            name: format!("seed {seed}"),
            recording: &rec,
        };
        std::fs::write(&page, village::viewer::page("crowded", &[arm], None)).unwrap();
        let mut chosen: Vec<(usize, u64)> = Vec::new();
        for &(n, attacker, _, _) in &labelled_melees(&rec) {
            if chosen.len() < take && chosen.iter().all(|(c, _)| c.abs_diff(n) >= 50) {
                chosen.push((n, attacker));
            }
        }
        assert_eq!(chosen.len(), take, "seed {seed} has {take} separate melees");
        for (n, attacker) in chosen {
            checked += 1;
            let shot = dir.join(format!("crowded-{seed}-{n}.png"));
            let dom = open(
                &page,
                &format!("event={n}&check=labels"),
                (checked == 1).then_some(shot.as_path()),
            );
            assert_eq!(body(&dom, "event"), n.to_string());
            // Still where the log puts them.
            assert_same_table(&format!("event #{n}"), &drawn(&dom), &from_log(&log, n));
            // Crowded for real: at least five models with labels beside their bases within a few inches
            // of the attacker, and at least two pairs of them in base contact.
            let models = labelled(&dom);
            let (ax, ay, _) = models[&attacker];
            let near: Vec<(f64, f64)> = models
                .values()
                .filter(|(x, y, tagged)| *tagged && (x - ax).hypot(y - ay) <= CROWD_RADIUS)
                .map(|&(x, y, _)| (x, y))
                .collect();
            let touching = near
                .iter()
                .enumerate()
                .flat_map(|(i, p)| near[i + 1..].iter().map(move |q| (p, q)))
                .filter(|(p, q)| (p.0 - q.0).hypot(p.1 - q.1) <= CONTACT)
                .count();
            assert!(
            near.len() >= 5 && touching >= 2,
            "seed {seed}, event #{n} is not crowded: {} labelled models within {CROWD_RADIUS}\" of \
             the attacker ({touching} pairs in contact)",
            near.len()
        );
            for view in ["table", "closeup"] {
                let boxes = label_boxes(&dom, view);
                // Every labelled model near the attacker shows its labels in this view.
                let shown = boxes
                    .iter()
                    .filter(|(b, _)| !b.ends_with(":name") && !b.ends_with(":id"))
                    .count();
                assert!(
                    shown >= near.len(),
                    "event #{n}, {view}: {shown} Wound and condition labels for {} labelled models",
                    near.len()
                );
                let bad = overlapping(&boxes);
                assert!(
                    bad.is_empty(),
                    "event #{n}, {view}: labels overlap: {}",
                    bad.join("; ")
                );
            }
        }
    }
    assert_eq!(checked, 3);
}

/// Where, in pixels, model `id` stands in the close-up from the close-up's centre (each way).
fn off_centre(dom: &str, id: u64) -> (f64, f64) {
    let xy = |s: &str| -> (f64, f64) {
        let (x, y) = s.split_once(',').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    };
    let (cx, cy) = xy(&body(dom, "closeup-centre"));
    let m = elements(dom, "closeup-model")
        .into_iter()
        .find(|a| a["data-id"] == id.to_string())
        .unwrap_or_else(|| panic!("model {id} is in the close-up's picture"));
    let (x, y) = xy(&m["data-seen-px"]);
    (x - cx, y - cy)
}

#[test]
fn a_click_centres_the_close_up_on_the_model_clicked() {
    let dir = temp("centre");
    let (page, log) = played(&dir, 12);
    // At the most crowded melee: the close-up is around the attacker and its target.
    let &(n, attacker, _) = crowded_melees(&log).first().expect("the game has melees");
    let at = from_log(&log, n);
    let (ax, ay) = at[&attacker];
    let dist = |id: &u64| -> f64 { (at[id].0 - ax).hypot(at[id].1 - ay) };
    // A model far from the fight, clicked on the table; and one of the crowd but not the attacker,
    // clicked in the close-up.
    let far = *at
        .keys()
        .max_by(|a, b| dist(a).total_cmp(&dist(b)))
        .unwrap();
    let crowd = *at
        .keys()
        .filter(|id| **id != attacker && dist(id) <= CROWD_RADIUS)
        .max_by(|a, b| dist(a).total_cmp(&dist(b)))
        .expect("a crowded melee has more than the attacker");
    let before = open(&page, &format!("event={n}"), None);
    for id in [far, crowd] {
        let (dx, dy) = off_centre(&before, id);
        assert!(
            dx.hypot(dy) > 20.0,
            "model {id} is not at the close-up's centre before it is clicked ({dx:.1}, {dy:.1} px)"
        );
    }
    for (fragment, id) in [
        (format!("event={n}&click={far}"), far),
        (format!("event={n}&closeup-click={crowd}"), crowd),
        (
            format!("event={n}&click={far}&closeup-click={crowd}"),
            crowd,
        ),
    ] {
        let dom = open(&page, &fragment, None);
        assert_eq!(
            body(&dom, "selected"),
            id.to_string(),
            "#{fragment} selects {id}"
        );
        let (dx, dy) = off_centre(&dom, id);
        assert!(
            dx.abs() < 1.5 && dy.abs() < 1.5,
            "#{fragment}: model {id} is {dx:.1}, {dy:.1} px from the close-up's centre"
        );
    }
}

/// The viewer shows the scripts' decisions beside the events they led to: at an enemy's action, the
/// Behaviour's target and action with its reason and script line, as the written log has them.
#[test]
fn the_page_shows_why_beside_the_event_a_decision_led_to() {
    let dir = temp("why");
    let (page, log) = played(&dir, 12);
    let lines = log_lines(&dir.join("game.jsonl"));
    // The first melee an enemy's Behaviour decided on: its action and target decisions, written
    // just before the first event the melee led to.
    let i = lines
        .iter()
        .position(|v| {
            v["event"] == "decision"
                && v["decides"] == "action"
                && v["chose"].as_str().is_some_and(|c| c.starts_with("melee "))
        })
        .expect("an enemy's melee decision");
    let (action, target) = (&lines[i], &lines[i - 1]);
    assert_eq!(target["decides"], "target");
    let n = action["at"].as_u64().unwrap();
    assert_eq!(target["at"].as_u64(), Some(n));
    // The melee's roll and combat are among the events it led to.
    let until = action["until"].as_u64().unwrap();
    assert!(
        (n..until).any(|k| log[k as usize]["event"] == "combat"),
        "no combat in #{n}..#{until}"
    );
    let dom = open(&page, &format!("event={n}"), None);
    let at = dom
        .find("class=\"why\"")
        .unwrap_or_else(|| panic!("no Why at #{n}"));
    let why = &dom[at..at + dom[at..].find("</div>").expect("the Why box ends")];
    assert!(why.contains("Why"), "{why}");
    for d in [target, action] {
        let chose = d["chose"].as_str().unwrap();
        let place = format!("{}:{}", d["script"].as_str().unwrap(), d["line"]);
        assert!(why.contains(chose), "{chose} not in {why}");
        assert!(why.contains(&place), "{place} not in {why}");
    }
    // An event no script decided (the first, of setup) shows no Why.
    let dom = open(&page, "event=0", None);
    assert!(!dom.contains("class=\"why\""), "a Why at #0");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The profile panel prints the clicked model's card as `village show` does: Captain Maren's
/// signature with its text, script and where her roster entry is.
#[test]
fn the_profile_panel_prints_the_card_village_show_prints() {
    let dir = temp("card");
    let (page, log) = played(&dir, 12);
    // Captain Maren: the first placed model of the default party.
    let maren = log
        .iter()
        .find(|e| e["event"] == "placed" && e["name"] == "Captain Maren")
        .expect("Maren is placed");
    let (id, at) = (
        maren["model"].as_u64().unwrap(),
        maren["seq"].as_u64().unwrap(),
    );
    let dom = open(&page, &format!("event={at}&click={id}"), None);
    let panel = &dom[dom.find("id=\"model\"").unwrap()..];
    let panel = &panel[..panel.find("</details>").expect("the card is shown")];
    let shown = String::from_utf8_lossy(&village(&["show", "Captain Maren"]).stdout).to_string();
    for want in [
        "Signature: Hold the Line",
        "scripts/signatures/hold_the_line.lua: on_opponent_activation",
        "rosters/heroes.toml:",
        "Tough (cost",
    ] {
        assert!(panel.contains(want), "{want} not in the panel: {panel}");
        assert!(shown.contains(want), "{want} not in village show: {shown}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scenario's battle in the replay viewer: the table draws its zones and objectives, and the heading
/// says the round of the round limit, the Victory Points and each objective's holder as they stand.
#[test]
fn the_page_shows_a_battles_zones_objectives_and_vp() {
    let dir = temp("battle");
    let page = dir.join("bridge.html");
    let log = dir.join("bridge.jsonl");
    village(&[
        "play",
        "--auto",
        "--scenario",
        "hold_the_bridge",
        "--html",
        page.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
    ]);
    let events = events_of(&log);
    // The first event after which the heroes have scored.
    let scored = events
        .iter()
        .position(|e| e["event"] == "vp_scored" && e["side"] == "heroes")
        .expect("the heroes score in this game");
    let total = events[scored]["total"].as_u64().unwrap();
    let shot = dir.join("bridge.png");
    let dom = open(&page, &format!("event={scored}"), Some(&shot));
    assert_eq!(body(&dom, "event"), scored.to_string());
    // The table and its close-up each draw them.
    assert_eq!(elements(&dom, "zone").len(), 2, "the heroes' zone, twice");
    assert_eq!(
        elements(&dom, "objective").len(),
        4,
        "both objectives, twice"
    );
    let heading = dom
        .split("<h2>")
        .filter_map(|h| h.split("</h2>").next())
        .find(|h| h.starts_with("Event #"))
        .unwrap_or_default()
        .to_string();
    assert!(heading.contains(" of 12"), "{heading}");
    assert!(
        heading.contains(&format!("VP heroes {total}")),
        "{total} in {heading}"
    );
    assert!(heading.contains("the bridge: heroes"), "{heading}");
}

/// A score as the Why box words it (`Decision::words`): whole numbers plainly, others to two places.
fn score_words(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// A recorded `planner` game (issue 41) shows at its decisions what the planner considered: beside the
/// event a weighed nomination or order led to, each candidate it played out with its estimate, the
/// choice it took over the default policy's and why. The page is written with `--html`, which keeps the
/// decisions (no flag of its own), as the `--log` beside it has them.
#[test]
fn a_planner_game_shows_each_candidate_it_played_out_with_its_estimate() {
    let dir = temp("planner");
    let (page, log_file) = (dir.join("game.html"), dir.join("game.jsonl"));
    village(&[
        "play",
        "--auto",
        "--policy",
        "planner",
        "--length",
        "intro",
        "--seed",
        "12",
        "--log",
        log_file.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let lines = log_lines(&log_file);
    for (decides, weighed) in [
        (
            "activation",
            "each nomination played out 8 times to the end of the turn",
        ),
        (
            "order",
            "each order played out 8 times to the end of the turn",
        ),
    ] {
        // The first such decision where a played-out candidate beat the default policy's choice.
        let d = lines
            .iter()
            .find(|v| {
                v["event"] == "decision"
                    && v["by"] == "policy planner"
                    && v["decides"] == decides
                    && v["reason"]
                        .as_str()
                        .is_some_and(|r| r.contains("played out: "))
            })
            .unwrap_or_else(|| panic!("no {decides} the planner took over the default's"));
        let reason = d["reason"].as_str().unwrap();
        assert!(reason.contains(weighed), "{reason}");
        // The candidates it played out: nominations by their dice, orders by what they do.
        let played: Vec<(&str, f64)> = d["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].as_str().unwrap(), c["score"].as_f64().unwrap()))
            .filter(|(name, _)| {
                name.ends_with(" die")
                    || name.contains(" dice")
                    || ["melee ", "shoot ", "move ", "cast ", "ability ", "heal "]
                        .iter()
                        .any(|k| name.starts_with(k))
            })
            .collect();
        assert!(played.len() >= 2, "{decides}: {played:?}");
        assert!(
            played.iter().all(|(_, s)| (0.0..=1.0).contains(s)),
            "an estimate outside 0–1: {played:?}"
        );
        let n = d["at"].as_u64().unwrap();
        let dom = open(&page, &format!("event={n}"), None);
        let at = dom
            .find("class=\"why\"")
            .unwrap_or_else(|| panic!("no Why at #{n}"));
        let why = &dom[at..at + dom[at..].find("</div>").expect("the Why box ends")];
        let chose = d["chose"].as_str().unwrap();
        assert!(why.contains(chose), "{chose} not in {why}");
        assert!(why.contains(weighed), "{weighed} not in {why}");
        assert!(why.contains("played out: "), "{why}");
        for (name, score) in &played {
            let shown = format!("{name} {}", score_words(*score));
            assert!(why.contains(&shown), "{shown} not in {why}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
