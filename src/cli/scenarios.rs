//! `village scenarios`: the scenarios of the layers (`scenarios/*.toml` of the built-in data and any
//! `--mod`), each with its description, or why it does not load, as text or JSON.

use super::print_json;
use crate::DataArgs;
use anyhow::{Context, Result};
use serde::Serialize;
use std::process::ExitCode;
use village::scenario::DEFAULT_SCENARIO;

/// One scenario as `village scenarios --json` prints it.
#[derive(Serialize)]
struct Row {
    name: String,
    /// Its description, when it loads.
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    /// The scenario every command plays when `--scenario` is not given.
    default: bool,
    /// The file it is read from.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// Why it does not load (each problem at file:line).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    problems: Vec<String>,
}

/// `village scenarios`; exit status 1 when one does not load.
pub fn run(json: bool, data: &DataArgs) -> Result<ExitCode> {
    let layers = data.layers();
    let rosters = data
        .rosters()
        .context("loading the rosters the scenarios use")?;
    let rows: Vec<Row> = village::scenario::names(&layers)
        .into_iter()
        .map(
            |name| match village::scenario::load(&layers, &rosters, &name) {
                Ok(l) => Row {
                    default: name == DEFAULT_SCENARIO,
                    description: Some(l.scenario.description),
                    file: Some(l.file),
                    name,
                    problems: Vec::new(),
                },
                Err(problems) => Row {
                    default: name == DEFAULT_SCENARIO,
                    description: None,
                    file: None,
                    name,
                    problems: problems.iter().map(ToString::to_string).collect(),
                },
            },
        )
        .collect();
    let broken = rows.iter().any(|r| !r.problems.is_empty());
    if json {
        print_json(&rows)?;
    } else {
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
        for r in &rows {
            let default = if r.default { " (the default)" } else { "" };
            match &r.description {
                Some(d) => outln!("{:width$}  {d}{default}", r.name),
                None => outln!("{:width$}  does not load:", r.name),
            }
            for p in &r.problems {
                outln!("  {p}");
            }
        }
        outln!("Play one with --scenario NAME (or a .toml file): play, sim, render, wave, repl and :new.");
    }
    Ok(if broken {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
