//! Issue 37's movement examples (SUPPLEMENT §11), each replayed by its seed and audited by `village audit`.
//!
//! Before the fix: `tests/fixtures/pre37/*.jsonl` are the same games played by the engine before the
//! movement rulings (e44ebaf's play, written with the complete log of issue 37, decisions left out, cut
//! a few events after the breach), and the audit finds each example's breach in them. After: the same
//! seeds played now have no breach at all, and the Siege game that stalled ends.

use std::path::Path;
use std::process::Command;

/// (fixture, length, seed, heroes, the breaches the pre-fix log must show)
const EXAMPLES: &[(&str, &str, &str, &str, &[&str])] = &[
    // 1. Moves continue after contact (Maren, #126–131), and bend.
    (
        "e1",
        "intro",
        "10857",
        "Hedda the Hedge Witch,Captain Maren",
        &["move_bent", "move_contact"],
    ),
    // 1. Ride Down on Free Hacks that hit a mover that touched an enemy mid-move.
    (
        "e1b",
        "intro",
        "6863373734341127769",
        "Bram the Smith,Sir Roland",
        &["hack_bonus", "move_contact"],
    ),
    // 2. Terrain reduces the band per leg, not per move (Wren: 9" against 6").
    (
        "e2",
        "intro",
        "14955421329065631928",
        "Grimm the Trapper,Captain Maren,Tobin the Marksman,Wren the Scout",
        &["move_length"],
    ),
    // 4. Fall-backs through a building; 5. a Lethal Free Hack on a model that did not leave.
    (
        "e4a",
        "intro",
        "7520981283915420701",
        "",
        &["move_through", "free_hack"],
    ),
    // 4. Fall-backs through an enemy base.
    ("e4b", "intro", "10251", "", &["move_through"]),
    // 5. Free Hacks after a fall-back of 0" (Roland).
    ("e5", "intro", "18163967940769814039", "", &["move_through"]),
    // 9. The Siege stall (wave 3 to 40 rounds); 3. its move actions bend.
    (
        "e9",
        "siege",
        "258",
        "Hedda the Hedge Witch,Grimm the Trapper,Wren the Scout",
        &["move_bent"],
    ),
];

fn village() -> Command {
    Command::new(env!("CARGO_BIN_EXE_village"))
}

/// `village audit --json FILE`: the kinds of its breaches.
fn breach_kinds(file: &Path) -> Vec<String> {
    let out = village()
        .args(["audit", "--json"])
        .arg(file)
        .output()
        .expect("village audit runs");
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("audit --json prints JSON");
    v["breaches"]
        .as_array()
        .expect("a breaches array")
        .iter()
        .map(|b| b["kind"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn each_example_is_a_breach_in_the_pre_fix_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pre37");
    for (name, _, seed, _, kinds) in EXAMPLES {
        let found = breach_kinds(&dir.join(format!("{name}.jsonl")));
        for k in *kinds {
            assert!(
                found.iter().any(|f| f == k),
                "seed {seed}: the pre-fix log shows no {k} breach: {found:?}"
            );
        }
    }
}

#[test]
fn each_example_replayed_now_has_no_breach_and_the_siege_game_ends() {
    let dir = std::env::temp_dir().join(format!("village-movement37-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    for (name, length, seed, heroes, _) in EXAMPLES {
        let log = dir.join(format!("{name}.jsonl"));
        let mut play = village();
        play.args(["play", "--auto", "--length", length, "--seed", seed]);
        if !heroes.is_empty() {
            play.args(["--heroes", heroes]);
        }
        let out = play
            .arg("--log")
            .arg(&log)
            .output()
            .expect("village play runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("Stalled"), "seed {seed} stalls:\n{text}");
        let found = breach_kinds(&log);
        assert!(found.is_empty(), "seed {seed}: {found:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
