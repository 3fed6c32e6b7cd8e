//! `village presets`: the difficulty presets of the rosters (`rosters/presets.toml` and any `--mod`'s),
//! each with its description and what it changes from the rules, as text or JSON.

use super::print_json;
use crate::DataArgs;
use anyhow::{Context, Result};
use serde::Serialize;
use std::process::ExitCode;
use village::roster::{Preset, DEFAULT_PRESET};

/// One preset as `village presets --json` prints it.
#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    description: &'a str,
    /// The preset every command plays when `--preset` is not given.
    default: bool,
    /// Each change from the rules, in words.
    changes: Vec<String>,
    /// The preset as the rosters hold it.
    preset: &'a Preset,
}

/// `village presets`.
pub fn run(json: bool, data: &DataArgs) -> Result<ExitCode> {
    let rosters = data.rosters().context("loading the presets")?;
    let rows: Vec<Row> = rosters
        .presets
        .iter()
        .map(|p| Row {
            name: &p.name,
            description: &p.description,
            default: p.name == DEFAULT_PRESET,
            changes: p.changes(&rosters),
            preset: p,
        })
        .collect();
    if json {
        print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    for r in &rows {
        let default = if r.default { " (the default)" } else { "" };
        outln!("{}{default}: {}", r.name, r.description);
        if r.changes.is_empty() {
            outln!("  changes nothing: exactly the rules");
        }
        for c in &r.changes {
            outln!("  {c}");
        }
    }
    outln!("Play one with --preset NAME (play, sim, render, wave, repl and its :new, odds).");
    Ok(ExitCode::SUCCESS)
}
