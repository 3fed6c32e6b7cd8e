//! `village audit LOG…`: read each log with the audit (`village::audit`), print every breach and the
//! summary (or JSON), and exit 1 when there is a breach.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use village::audit::{facts, Auditor};

/// Audit `logs` with the rosters of `layers`.
pub fn run(logs: &[PathBuf], json: bool, layers: &[PathBuf]) -> Result<ExitCode> {
    let facts = facts(layers)?;
    let mut a = Auditor::new(&facts);
    for f in logs {
        a.file(f)?;
    }
    let report = a.report();
    if json {
        super::print_json(&report.json())?;
    } else {
        // A failed write is kept for the exit status (`terminal::finish`).
        let _ = village::terminal::out(&report.text());
    }
    Ok(if report.breaches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
