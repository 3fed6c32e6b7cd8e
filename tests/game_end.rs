//! The game ends when the rules say so (core §6.4, §7.1; SUPPLEMENT §10): at the event that ends it —
//! the Town Hall Destroyed, the village overrun — with nothing after it in the log, and every ended game
//! records its cause in `play --json` and in each `sim` record, which the report counts.

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

fn village(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(args)
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Play one game with its log; returns the summary and the events.
fn play(length: &str, heroes: &str, seed: u64) -> (Value, Vec<Value>) {
    let dir = std::env::temp_dir().join(format!("village-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join(format!("{length}-{seed}.jsonl"));
    let s = seed.to_string();
    let out = village(&[
        "play",
        "--auto",
        "--length",
        length,
        "--heroes",
        heroes,
        "--seed",
        &s,
        "--json",
        "--log",
        log.to_str().unwrap(),
    ]);
    let events = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (serde_json::from_str(&out).unwrap(), events)
}

/// Check that a lost game's log stops at the event that lost it; returns the cause.
fn ends_at_its_event(v: &Value, events: &[Value], what: &str) -> String {
    let cause = v["cause"].as_str().expect("a cause").to_string();
    let last = events.last().unwrap();
    match cause.as_str() {
        "town_hall_destroyed" => {
            assert_eq!(v["result"], "loss", "{what}");
            assert!(
                last["event"] == "damage"
                    && last["building"] == "Town Hall"
                    && last["destroyed"] == true,
                "{what}: the log goes on after the Town Hall fell: {last}"
            );
        }
        "overrun" => {
            assert_eq!(v["result"], "loss", "{what}");
            // The removal that emptied the heroes' side, then at most the lines that tell the same result
            // (its outcome, or the morale check it came from).
            let removed = events
                .iter()
                .rposition(|e| e["event"] == "removed")
                .expect("a removal");
            let who = &events[removed]["model"];
            for e in &events[removed + 1..] {
                assert!(
                    (e["event"] == "outcome" || e["event"] == "morale") && &e["model"] == who,
                    "{what}: something resolved after the Overrun: {e}"
                );
            }
        }
        "final_wave_survived" => assert_eq!(v["result"], "win", "{what}"),
        "stalled" => assert_eq!(v["result"], "stalled", "{what}"),
        other => panic!("{what}: unexpected cause {other}"),
    }
    cause
}

#[test]
fn every_lost_game_ends_at_the_event_that_lost_it() {
    let mut causes: BTreeMap<String, u32> = BTreeMap::new();
    for seed in 1..=16u64 {
        let (v, events) = play("intro", "Captain Maren,Tobin the Marksman", seed);
        *causes
            .entry(ends_at_its_event(
                &v,
                &events,
                &format!("intro seed {seed}"),
            ))
            .or_default() += 1;
    }
    for seed in 1..=4u64 {
        let party = "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith";
        let (v, events) = play("standard", party, seed);
        *causes
            .entry(ends_at_its_event(
                &v,
                &events,
                &format!("standard seed {seed}"),
            ))
            .or_default() += 1;
    }
    // Both ways of losing happen in these games, so both were checked.
    assert!(causes.contains_key("town_hall_destroyed"), "{causes:?}");
    assert!(causes.contains_key("overrun"), "{causes:?}");
}

#[test]
fn the_sim_report_counts_games_by_cause() {
    let out = village(&[
        "sim",
        "--games",
        "6",
        "--seed",
        "4",
        "--length",
        "intro",
        "--heroes",
        "Captain Maren,Tobin the Marksman",
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let causes = v["causes"].as_object().expect("causes");
    for c in [
        "town_hall_destroyed",
        "overrun",
        "party_defeated",
        "final_wave_survived",
        "stalled",
    ] {
        assert!(causes.contains_key(c), "{c} listed: {causes:?}");
    }
    let total: u64 = causes.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(total, 6);
    assert_eq!(
        causes["final_wave_survived"].as_u64(),
        v["wins"].as_u64(),
        "every win survived the final wave"
    );
    let text = village(&[
        "sim",
        "--games",
        "6",
        "--seed",
        "4",
        "--length",
        "intro",
        "--heroes",
        "Captain Maren,Tobin the Marksman",
    ]);
    assert!(text.contains("Ended by: "), "{text}");
}
