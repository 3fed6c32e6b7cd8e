//! `village play --auto`: one whole game with the hero policy, its waves in words or its summary as
//! JSON, its event log written with `--log` (up to the failure when a script stops the game) and the
//! replay viewer with `--html` ("wrote FILE" on stderr). A party the rules do not allow is refused by
//! the script host before anything is played.

use super::{print_json, write_file};
use crate::DataArgs;
use anyhow::{bail, Result};
use std::process::ExitCode;
use village::args::GameArgs;
use village::names::count as words;
use village::script::{Limits, ScriptHost};

/// `village play`.
pub fn run_play(
    g: &GameArgs,
    (auto, json): (bool, bool),
    (log, html): (Option<&std::path::Path>, Option<&std::path::Path>),
    data: &DataArgs,
) -> Result<ExitCode> {
    if !auto {
        bail!(
            "play without --auto is the REPL's play mode: run `village repl` (or `village`) and type \
             :wave, :activate …; or add --auto to let the hero policy play"
        );
    }
    // The log and the page are two files, neither a rule or script file of the game: checked before
    // anything is played.
    let outputs: Vec<village::files::Named<'_>> = [("--log", log), ("--html", html)]
        .into_iter()
        .filter_map(|(by, p)| p.map(|path| village::files::Named { by, path }))
        .collect();
    super::distinct_outputs(&data.layers(), &[], &outputs)?;
    let host = match ScriptHost::open(&data.layers(), Limits::default(), g.seed) {
        Ok(h) => h,
        Err(errors) => bail!("{}", errors.join("\n")),
    };
    // With --html the game is played with the frame recorder on (the same game: it only watches).
    let mut recording = None;
    // Where a log is kept, the scripts' decisions are kept with it (`decision` events): the same
    // game, which they only explain.
    let new = g.new_game(&data.layers(), &g.policy);
    let keeping_log = |decisions: bool| host.play_keeping_log(&new, "generated", decisions);
    let played = match html {
        None => keeping_log(log.is_some()),
        Some(_) => match host.play_recorded(&new, "generated") {
            Ok(r) => {
                let done = village::script::Played {
                    summary: r.summary.clone(),
                    events: r.events.clone(),
                    decisions: r.decisions.clone(),
                };
                recording = Some(r);
                Ok(done)
            }
            // The page needs a whole game, but the events up to the failure are still the evidence a
            // script author needs: the same game (play is deterministic) played again without the
            // recorder gives them to the log.
            Err(_) if log.is_some() => keeping_log(true),
            Err(error) => bail!("{error}"),
        },
    };
    let write_log =
        |events: &[village::state::Event], decisions: &[village::state::Decision]| -> Result<()> {
            let Some(path) = log else {
                return Ok(());
            };
            let out = village::state::log_lines(events, decisions)?;
            write_file(path, out.as_bytes())
        };
    let (game, events, decisions) = match played {
        Ok(done) => (done.summary, done.events, done.decisions),
        // Nothing was played (a party or option the game refused): the reason is all there is to say.
        Err(f) if f.events.is_empty() => bail!("{}", f.error),
        Err(f) => {
            // The log up to the failure is the evidence a script author needs: written first.
            write_log(&f.events, &f.decisions)?;
            let mut kept = match log {
                Some(path) => format!("written to {}", path.display()),
                None => "--log FILE keeps them".to_string(),
            };
            if let Some(page) = html {
                kept.push_str(&format!(
                    "; --html {} was not written: the page shows a whole game",
                    page.display()
                ));
            }
            bail!(
                "the game stopped in wave {}, round {}, after {} events ({kept}): {}",
                f.wave,
                f.round,
                f.events.len(),
                f.error
            );
        }
    };
    if let (Some(path), None) = (html, &recording) {
        bail!(
            "--html {}: the game played without its recording, so the page was not written",
            path.display()
        );
    }
    // A log that cannot be written does not lose the game: its outcome is printed, then the error.
    let mut logged = write_log(&events, &decisions);
    if let (Some(r), Some(path)) = (&recording, html) {
        let page = super::viewer::write_page(r, path);
        if page.is_ok() {
            // On stderr, as `sim --svg` says it: stdout is the game's summary (JSON with --json).
            errln!("wrote {}", path.display());
        }
        logged = logged.and(page);
    }
    if json {
        print_json(&game)?;
        return logged.map(|()| ExitCode::SUCCESS);
    }
    for w in &game.waves {
        let integrity: Vec<String> = w
            .integrity
            .iter()
            .map(|(n, i)| format!("{n} {i}"))
            .collect();
        let wounds: Vec<String> = w
            .wounds
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(h, n)| format!("{h} {n}"))
            .collect();
        let lost = if w.defeated.is_empty() {
            String::new()
        } else {
            format!("; off the table: {}", w.defeated.join(", "))
        };
        let council = if w.council.is_empty() {
            String::new()
        } else {
            format!("; Council: {}", w.council.join(", "))
        };
        outln!(
            "Wave {} (Escalation {}): {} enemies, {} rounds, {:?}; {}; Supplies {}; Wounds: {}{lost}{council}",
            w.wave,
            w.escalation,
            w.enemies,
            w.rounds,
            w.outcome,
            integrity.join(", "),
            w.supplies,
            if wounds.is_empty() {
                "none".to_string()
            } else {
                wounds.join(", ")
            }
        );
    }
    // A lost or stalled game ends in the wave it was playing; a won one after its last wave.
    let when = match game.waves.last() {
        Some(w) if game.waves_won < w.wave => format!(
            "in wave {} ({} won)",
            w.wave,
            words(game.waves_won, "wave", "waves")
        ),
        _ => format!("after {}", words(game.waves_won, "wave", "waves")),
    };
    // A battle without a Town Hall says its Victory Points instead.
    let standing = match (game.vp, game.town_hall) {
        (Some(vp), false) => format!("VP heroes {} – enemies {}", vp[0], vp[1]),
        (Some(vp), true) => format!(
            "Town Hall Integrity {}; VP heroes {} – enemies {}",
            game.town_hall_integrity, vp[0], vp[1]
        ),
        (None, _) => format!("Town Hall Integrity {}", game.town_hall_integrity),
    };
    outln!(
        "Result: {:?} {when}: {}; {standing} (seed {})",
        game.result,
        game.cause.words(),
        game.seed
    );
    logged.map(|()| ExitCode::SUCCESS)
}
