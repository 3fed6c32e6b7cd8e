//! The process's allocator (`alloc`) and standard streams (`stdio`), the larger `village` subcommands,
//! one module each (`sim`/`merge`/`replay`, `play`, `new-mod`, `odds`, `show`, the replay viewer's
//! `--html` pages and `render --replay`: `viewer`), the data carried in the binary (`embedded`), and
//! what they share: printing JSON, writing files where they point, and keeping outputs apart from
//! inputs.

pub mod alloc;
pub mod audit;
pub mod batch;
pub mod embedded;
pub mod new_mod;
pub mod new_scenario;
pub mod odds;
pub mod play;
pub mod presets;
pub mod scenarios;
pub mod show;
pub mod sim;
pub mod stdio;
pub mod sweep;
pub mod viewer;

use anyhow::{Context, Result};
use std::path::Path;

/// Print `value` as pretty JSON on stdout (terminal-safe: `village::terminal::out_json`).
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let _ = village::terminal::out_json(&format!("{}\n", serde_json::to_string_pretty(value)?));
    Ok(())
}

/// Write a file the user would hate to lose (a log, a record, a shard, a picture) where its name points
/// (`village::files::write_atomic`: through a link, in place into a device or FIFO, atomically into a
/// file): a failed write leaves what the file held before, whole.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    village::files::write_atomic(path, bytes).with_context(|| {
        // A device or FIFO is written in place: there is no old content to keep.
        let in_place = village::files::resolve_links(path)
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
            .is_some_and(|m| !m.is_file() && !m.is_dir());
        if in_place {
            format!("writing {}", path.display())
        } else {
            format!(
                "writing {} (nothing was written; the file keeps what it held)",
                path.display()
            )
        }
    })
}

/// Refuse outputs that are the same file as an input (the game's rule and script files of `layers`
/// among them) or as each other, before any work.
pub fn distinct_outputs(
    layers: &[std::path::PathBuf],
    inputs: &[village::files::Named<'_>],
    outputs: &[village::files::Named<'_>],
) -> Result<()> {
    village::files::distinct_from_data(layers, inputs, outputs).map_err(anyhow::Error::msg)
}
