//! Defender mode (`--length endless`, issue 39): the waves past an endless length's list — the last row
//! raised by `budget_percent_step` a wave, up to the safety cap — are built and deployed on both table
//! kinds for every party size without failing, the wave past the cap does not exist, a game on the
//! length is never won, and a length's `endless` is checked when the rosters load.

mod support;

use village::roster::{ProfileKind, Rosters};
use village::state::{self, TableKind};
use village::wave::{self, WaveError};

fn rosters() -> Rosters {
    Rosters::load(&[Rosters::builtin_root()]).expect("built-in rosters load")
}

/// The endless length lists Standard's waves, then raises VII by 20 budget percent a wave to its cap.
#[test]
fn the_waves_past_the_list_are_the_last_row_raised_a_step_a_wave() {
    let r = rosters();
    let endless = r.length("endless").expect("an endless length");
    let standard = r.length("standard").expect("standard");
    assert_eq!(endless.waves, standard.waves);
    let cap = endless.last_wave();
    assert_eq!(cap, 100);
    for w in 1..=7 {
        let esc = wave::escalation_for_wave(&r, "endless", w).unwrap();
        assert_eq!(Some(&esc), r.escalation(&standard.waves[w as usize - 1]));
    }
    let vii = r.escalation("VII").unwrap();
    for (w, name, pct) in [(8, "VII+1", 160), (9, "VII+2", 180), (100, "VII+93", 2_000)] {
        let esc = wave::escalation_for_wave(&r, "endless", w).unwrap();
        assert_eq!((esc.name.as_str(), esc.budget_percent), (name, pct));
        // Everything but the name and the budget is VII's.
        assert_eq!(
            (esc.min_groups, esc.boss_first, esc.min_spawn_edges),
            (vii.min_groups, vii.boss_first, vii.min_spawn_edges)
        );
    }
    assert!(matches!(
        wave::escalation_for_wave(&r, "endless", cap + 1),
        Err(WaveError::NoSuchWave { wave: 101, .. })
    ));
    assert!(matches!(
        wave::escalation_for_wave(&r, "standard", 8),
        Err(WaveError::NoSuchWave { wave: 8, .. })
    ));
}

/// Budgets far past the Bestiary's usual waves (up to the cap's 2,000%: about 125 Groups, 360 models for
/// four heroes) build — several Groups of one profile, every spawn edge — and deploy on both table
/// kinds, for every party size.
#[test]
fn the_largest_waves_build_and_deploy_for_every_party_and_table() {
    let r = rosters();
    let heroes: Vec<_> = r.profiles_of(ProfileKind::Hero).collect();
    for w in [8u32, 30, 100] {
        let esc = wave::escalation_for_wave(&r, "endless", w).unwrap();
        for (seed, table) in [(1u64, TableKind::Generated), (2, TableKind::Empty)] {
            for party in 2..=4u32 {
                let mut game = state::new_game(&r, seed, table);
                for h in heroes.iter().take(party as usize) {
                    game.add_model(state::model_from_profile(h, &r, game.table.center()));
                }
                let plan = wave::build_wave_of(&mut game, &r, &esc, party)
                    .unwrap_or_else(|e| panic!("wave {w} seed {seed} ×{party}: {e}"));
                assert_eq!(plan.escalation, esc.name);
                assert!(plan.spent <= plan.budget && plan.budget > 0);
                if w == 100 {
                    let profiles: Vec<&String> = plan.groups.iter().map(|g| &g.models[0]).collect();
                    let distinct: std::collections::BTreeSet<&&String> = profiles.iter().collect();
                    assert!(
                        distinct.len() < profiles.len(),
                        "several Groups of one profile"
                    );
                    let edges: std::collections::BTreeSet<u8> =
                        plan.groups.iter().map(|g| g.edge).collect();
                    assert_eq!(edges.len(), 4, "every spawn edge: {edges:?}");
                }
                wave::deploy_heroes(&mut game, &r, false).unwrap();
                let deployed = wave::deploy_enemy_groups(&mut game, &r, &plan)
                    .unwrap_or_else(|e| panic!("wave {w} seed {seed} ×{party}: {e}"));
                assert_eq!(deployed.len(), plan.groups.len());
                let models: usize = plan.groups.iter().map(|g| g.models.len()).sum();
                assert_eq!(
                    game.side(village::state::Side::Enemies).count(),
                    models,
                    "wave {w} seed {seed} ×{party}"
                );
            }
        }
    }
}

/// `village ARGS`: whether it succeeded, its stdout and its stderr.
fn village(args: &[&str]) -> (bool, String, String) {
    let out = support::run(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Nobody wins an endless game: it ends as the rules end it, with its score.
#[test]
fn an_endless_game_is_never_won_and_ends_as_the_rules_end_it() {
    let (ok, out, err) = village(&[
        "sim", "--games", "24", "--seed", "3", "--length", "endless", "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["wins"].as_u64(), Some(0));
    assert_eq!(v["stalled"].as_u64(), Some(0));
    assert_eq!(v["causes"]["final_wave_survived"].as_u64(), Some(0));
    assert!(v["waves_won_mean"].as_f64().unwrap() > 0.0);
    let (ok, out, err) = village(&[
        "play", "--auto", "--length", "endless", "--seed", "5", "--json",
    ]);
    assert!(ok, "{err}");
    let g: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(g["result"], "loss");
    let waves = g["waves"].as_array().unwrap();
    assert_eq!(g["waves_won"].as_u64(), Some(waves.len() as u64 - 1));
}

/// A village that holds out to the length's safety cap has not won: the game ends `stalled`, its
/// score the cap, and no game of the length is won. A mod's endless length of one listed wave and a
/// cap of two ("I", then "I+1" at 60%) lets a party reach it.
#[test]
fn the_safety_cap_ends_a_game_stalled_and_none_is_won() {
    let dir = support::temp("endless", "cap");
    let rosters = dir.join("rosters");
    std::fs::create_dir_all(&rosters).unwrap();
    std::fs::write(
        rosters.join("escalation.toml"),
        "[[length]]\nname = \"short_endless\"\nwaves = [\"I\"]\n\
         endless = { budget_percent_step = 20, max_waves = 2 }\n",
    )
    .unwrap();
    let mut capped = 0;
    for seed in 1..=5 {
        let s = seed.to_string();
        let (ok, out, err) = village(&[
            "play",
            "--auto",
            "--mod",
            dir.to_str().unwrap(),
            "--length",
            "short_endless",
            "--seed",
            &s,
            "--json",
        ]);
        assert!(ok, "seed {seed}: {err}");
        let g: serde_json::Value = serde_json::from_str(&out).unwrap();
        let escalations: Vec<&str> = g["waves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["escalation"].as_str().unwrap())
            .collect();
        assert_ne!(g["result"], "win", "seed {seed}");
        if g["result"] == "stalled" && g["waves_won"] == 2 {
            assert_eq!(g["cause"], "stalled", "seed {seed}");
            assert_eq!(escalations, ["I", "I+1"], "seed {seed}");
            capped += 1;
        }
    }
    assert!(capped > 0, "some game reaches the cap");
    std::fs::remove_dir_all(&dir).ok();
}

/// `sim` on an endless length reports the score — the mean waves won with its interval, the median,
/// the histogram — and no win rate; the report is the same on one thread and on two.
#[test]
fn sim_reports_the_score_and_no_win_rate_the_same_for_any_jobs() {
    let run = |jobs: &str, json: bool| {
        let mut args = vec![
            "sim", "--games", "12", "--seed", "9", "--length", "endless", "--jobs", jobs,
        ];
        if json {
            args.push("--json");
        }
        let (ok, out, err) = village(&args);
        assert!(ok, "{err}");
        out
    };
    let strip = |text: String| {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("games_per_sec");
        o.remove("seconds");
        v
    };
    let (one, two) = (strip(run("1", true)), strip(run("2", true)));
    assert_eq!(one, two);
    assert_eq!(one["endless"], true);
    let games: u64 = one["waves_won_games"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(games, 12);
    let text = run("2", false);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("12 games of Defender mode"), "{first}");
    assert!(!text.contains("win rate"), "{text}");
    let score = format!(
        "Waves won: mean {:.2} (95% CI {:.2}–{:.2}), median {}",
        one["waves_won_mean"].as_f64().unwrap(),
        one["waves_won_ci95"][0].as_f64().unwrap(),
        one["waves_won_ci95"][1].as_f64().unwrap(),
        one["waves_won_median"].as_f64().unwrap()
    );
    assert!(text.contains(&score), "{score}\n{text}");
    assert!(text.contains("\nWaves won:\n"), "the histogram: {text}");
    // An A/B's chart on the length draws no win rate, only the difference in waves won.
    let dir = support::temp("endless", "ab");
    let svg = dir.join("ab.svg");
    let (ok, _, err) = village(&[
        "sim",
        "--games",
        "8",
        "--seed",
        "9",
        "--length",
        "endless",
        "--vs",
        "power_blow_lethal",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let chart = std::fs::read_to_string(&svg).unwrap();
    assert!(!chart.contains("class=\"win-rate"), "no win rate drawn");
    assert!(
        !chart.contains("class=\"difference"),
        "no win-rate difference drawn"
    );
    assert!(chart.contains("class=\"waves-difference-bar\""), "{chart}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A length's `endless` is checked where it is written: a cap below the listed waves or past 100, a
/// step that leaves a party a fraction of a Wave Point, an unknown key.
#[test]
fn a_bad_endless_is_refused_at_its_file_and_field() {
    let dir = support::temp("endless", "bad");
    let rosters = dir.join("rosters");
    std::fs::create_dir_all(&rosters).unwrap();
    std::fs::write(
        rosters.join("rules.toml"),
        "[wave]\nparty_value_per_hero = 50\n",
    )
    .unwrap();
    for (body, want) in [
        (
            "endless = { budget_percent_step = 20, max_waves = 3 }",
            "endless.max_waves",
        ),
        (
            "endless = { budget_percent_step = 20, max_waves = 101 }",
            "endless.max_waves",
        ),
        (
            // With 50 Wave Points a hero (below), 15% of three heroes' 150 is 22.5.
            "endless = { budget_percent_step = 15, max_waves = 50 }",
            "endless.budget_percent_step",
        ),
        (
            "endless = { budget_percent_step = 20, max_waves = 50, grow = 2 }",
            "grow",
        ),
    ] {
        std::fs::write(
            rosters.join("escalation.toml"),
            format!(
                "[[length]]\nname = \"long\"\nwaves = [\"I\", \"II\", \"III\", \"IV\"]\n{body}\n"
            ),
        )
        .unwrap();
        let (ok, out, err) = village(&["check", "--mod", dir.to_str().unwrap()]);
        assert!(!ok, "{body}: refused");
        let said = format!("{out}{err}");
        let line = said
            .lines()
            .find(|l| l.contains("escalation.toml") && l.contains(want))
            .unwrap_or_else(|| panic!("{body}: {said}"));
        assert!(
            line.contains("entry \"long\"") && line.contains("(line 4)"),
            "{body}: {line}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
