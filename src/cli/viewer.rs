//! The replay viewer's commands: `village replay FILE [--vs B] --html OUT`, `play --auto --html OUT`
//! (through [`write_page`]) and `render --replay FILE --event N --svg OUT`. Each plays the game again
//! with the frame recorder on (a record holds the game's inputs and hashes, not its states) and hands
//! the recording to `village::viewer` or `render::svg`.

use super::write_file;
use crate::DataArgs;
use anyhow::{bail, Result};
use std::path::Path;
use village::script::{Limits, ScriptHost};
use village::sim::Replay;
use village::viewer::{Arm, Recording};

/// A record written by `village sim --record`, checked (format, digest, result) before anything runs.
fn read_record(file: &Path) -> Result<Replay> {
    super::sim::parse_record(file)
}

/// `out` (named by `by`) may be written: not one of the `records` read, nor a rule or script file of
/// the game's layers (`data`'s).
fn output_allowed(records: &[&Path], (by, out): (&str, &Path), data: &DataArgs) -> Result<()> {
    let inputs: Vec<village::files::Named<'_>> = records
        .iter()
        .map(|path| village::files::Named {
            by: "the record",
            path,
        })
        .collect();
    super::distinct_outputs(
        &data.layers(),
        &inputs,
        &[village::files::Named { by, path: out }],
    )
}

/// Play a recorded game again with the recorder on, with the `--mod` folders of the command line
/// (which must include the ones it was recorded with: `sim::record_layers`).
/// A log that no longer matches the recording is said on stderr: the page shows the game as it plays now.
fn record_again(rec: &Replay, file: &Path, data: &DataArgs) -> Result<Recording> {
    let host = ScriptHost::open(
        &super::sim::record_layers(rec, file, data)?,
        Limits::default(),
        rec.seed,
    )
    .map_err(|e| anyhow::anyhow!("{}", e.join("\n")))?;
    let new = rec.new_game();
    let recording = host
        .play_recorded(&new, "generated")
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    if let Some(i) = rec.first_unlike(&recording.events) {
        errln!(
            "note: {}: the game now differs from the recording from event #{i} (changed rules or \
             scripts); the page shows it as it plays now",
            file.display()
        );
    }
    Ok(recording)
}

/// The name an arm's switch shows: its variants, or "default".
fn arm_name(label: &str, rec: &Replay) -> String {
    format!("{label}: {}", super::sim::rules_name(&rec.variants))
}

/// `village replay FILE --html OUT` (and `--vs B`): the viewer page of one recorded game, or of an
/// A/B pair of one seed with their first difference.
pub fn replay_html(file: &Path, vs: Option<&Path>, out: &Path, data: &DataArgs) -> Result<()> {
    let records: Vec<&Path> = std::iter::once(file).chain(vs).collect();
    output_allowed(&records, ("--html", out), data)?;
    let a = read_record(file)?;
    // Both records are checked (and their mods named) before either game is played.
    let b = vs.map(read_record).transpose()?;
    if let Some(b) = &b {
        super::sim::record_layers(b, vs.unwrap_or(file), data)?;
    }
    let ra = record_again(&a, file, data)?;
    let page = match vs {
        None => village::viewer::page(
            &format!("Game {} (seed {})", a.index, a.seed),
            &[Arm {
                name: String::new(),
                recording: &ra,
            }],
            None,
        ),
        Some(vs) => {
            let Some(b) = b else {
                bail!("{}: the record was not read", vs.display());
            };
            if b.seed != a.seed {
                bail!(
                    "{} and {} are games of different seeds ({} and {}): --vs compares the two arms \
                     of one game (village sim --vs V --record DIR writes them to DIR/a and DIR/b)",
                    file.display(),
                    vs.display(),
                    a.seed,
                    b.seed
                );
            }
            let rb = record_again(&b, vs, data)?;
            let first = village::sim::first_difference(&ra.events, &rb.events);
            village::viewer::page(
                &format!("Game {} (seed {}), A/B", a.index, a.seed),
                &[
                    Arm {
                        name: arm_name("A", &a),
                        recording: &ra,
                    },
                    Arm {
                        name: arm_name("B", &b),
                        recording: &rb,
                    },
                ],
                first,
            )
        }
    };
    write_file(out, page.as_bytes())?;
    outln!("wrote {}", out.display());
    Ok(())
}

/// Write the viewer page of a game just played (`play --auto --html OUT`).
pub fn write_page(recording: &Recording, out: &Path) -> Result<()> {
    let page = village::viewer::page(
        &format!("Game of seed {}", recording.summary.seed),
        &[Arm {
            name: String::new(),
            recording,
        }],
        None,
    );
    write_file(out, page.as_bytes())
}

/// `village render --replay FILE --event N --svg OUT`: the table after event N of a recorded game.
pub fn render_replay(file: &Path, event: u64, svg: &Path, data: &DataArgs) -> Result<()> {
    output_allowed(&[file], ("--svg", svg), data)?;
    let rec = read_record(file)?;
    let recording = record_again(&rec, file, data)?;
    let last = recording.events.len().saturating_sub(1);
    if event as usize > last {
        bail!(
            "--event {event}: the game has events #0 to #{last} ({} events)",
            recording.events.len()
        );
    }
    let picture = village::render::svg(&recording.game_at(event));
    write_file(svg, picture.as_bytes())?;
    outln!("wrote {}", svg.display());
    Ok(())
}
