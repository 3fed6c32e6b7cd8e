//! The log in words, as `:log` and the REPL's play commands print it: counts take their noun, a move
//! action along several legs is one line, a limited use is named as people say it, a Council order
//! names what it was for. Checked on whole games the hero policy plays, not on hand-made events only.

mod support;

use village::roster::Rosters;
use village::script::{Limits, ScriptHost};
use village::state::describe::{describe, describe_all, names_in};
use village::state::{Event, EventKind};

fn games() -> Vec<Vec<Event>> {
    let host = ScriptHost::open(&[Rosters::builtin_root()], Limits::default(), 1).unwrap();
    let party: Vec<String> = support::PARTY.map(String::from).to_vec();
    (1..=4)
        .map(|seed| {
            host.play_logged(seed, &party, "standard", "generated", &[], "default")
                .unwrap()
                .1
        })
        .collect()
}

#[test]
fn a_whole_games_log_reads_as_words() {
    let mut move_actions = 0;
    let mut legs = 0;
    let mut spent = 0;
    for log in games() {
        let names = names_in(&log);
        let lines = describe_all(&log, &names);
        let text = lines.join("\n");
        for rough in [
            "(s)",
            "(1 models)",
            " 1 Supplies",
            "stopped by crosses",
            "stopped by enters",
            ": one band less",
            " wave:",
            " game:",
            " council:",
        ] {
            let bad: Vec<&String> = lines.iter().filter(|l| l.contains(rough)).collect();
            assert!(bad.is_empty(), "{rough:?} in {bad:#?}");
        }
        // One line per move action: an action's further legs are folded into its first leg's line.
        let moves = log
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Moved { leg: false, .. }))
            .count();
        let further = log
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Moved { leg: true, .. }))
            .count();
        // A further leg after something that happened on the way (a token claimed in passing, a Free
        // Hack) has a line of its own, saying it is the same move.
        let move_lines = lines
            .iter()
            .filter(|l| l.contains(" moves ") && !l.contains(" (the same move) "))
            .count();
        // Ready Mounts and similar abilities describe a move of their own besides the event's line.
        let ability_moves = lines
            .iter()
            .filter(|l| l.contains(" moves ") && l.contains(" — "))
            .count();
        assert_eq!(move_lines - ability_moves, moves, "{text}");
        let folded: usize = lines.iter().map(|l| legs_in(l) - 1).sum();
        // Every further leg is folded into its move's line or opens a "(the same move)" line.
        let opened = lines
            .iter()
            .filter(|l| l.contains(" (the same move) moves "))
            .count();
        assert_eq!(folded + opened, further, "{text}");
        assert_eq!(
            lines.len() + folded,
            log.len(),
            "one line per event, legs folded"
        );
        move_actions += moves;
        legs += further;
        spent += log
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Spent { .. }))
            .count();
        assert!(
            lines
                .iter()
                .filter(|l| l.contains(" is spent for "))
                .count()
                == log
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::Spent { .. }))
                    .count(),
            "{text}"
        );
    }
    // The games exercised what is checked.
    assert!(
        move_actions > 50 && legs > 20 && spent > 0,
        "{move_actions} {legs} {spent}"
    );
}

/// How many events a line stands for: `#110–113 …` is 4, `#7 …` is 1.
fn legs_in(line: &str) -> usize {
    let first = line.trim_start_matches('#').split(' ').next().unwrap_or("");
    match first.split_once('–') {
        Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
        None => 1,
    }
}

fn event(kind: EventKind) -> Event {
    Event {
        seq: 7,
        cause: None,
        kind,
    }
}

#[test]
fn a_council_heal_names_the_hero_and_one_supply_is_singular() {
    let names = Default::default();
    let heal = describe(
        &event(EventKind::Council {
            what: "heal".into(),
            building: None,
            hero: Some("Captain Maren".into()),
            pos: None,
            token: None,
            line: None,
            integrity: None,
            radius: None,
            supplies: 1,
            source: "Temple I".into(),
            detail: "1 Wound healed".into(),
            refused: None,
        }),
        &names,
    );
    assert_eq!(
        heal,
        "#7 Council: heal Captain Maren for 1 Supply (Temple I): 1 Wound healed"
    );
    let repair = describe(
        &event(EventKind::Council {
            what: "repair".into(),
            building: Some("Town Hall".into()),
            hero: None,
            pos: None,
            token: None,
            line: None,
            integrity: None,
            radius: None,
            supplies: 2,
            source: "Forge I Repairs".into(),
            detail: "Integrity 4 -> 6".into(),
            refused: None,
        }),
        &names,
    );
    assert!(
        repair.contains("repair the Town Hall for 2 Supplies"),
        "{repair}"
    );
}

#[test]
fn a_limited_use_is_named_as_people_say_it() {
    let mut names = std::collections::BTreeMap::new();
    names.insert(village::state::ModelId(7), "Goblin Shaman".to_string());
    let say = |key: &str| {
        describe(
            &event(EventKind::Spent {
                key: key.into(),
                source: "scripts/x.lua".into(),
            }),
            &names,
        )
    };
    assert_eq!(
        say("wave:Hold the Line:Captain Maren#1"),
        "#7 Captain Maren's Hold the Line is spent for this wave (use 1) (scripts/x.lua)"
    );
    assert_eq!(
        say("wave:Overwatch"),
        "#7 Overwatch is spent for this wave (scripts/x.lua)"
    );
    assert_eq!(
        say("wave:Hex:7#2"),
        "#7 Goblin Shaman (7)'s Hex is spent for this wave (use 2) (scripts/x.lua)"
    );
    assert_eq!(
        say("game:Relic Blade:Tobin the Marksman"),
        "#7 Tobin the Marksman's Relic Blade is spent for this game (scripts/x.lua)"
    );
}
