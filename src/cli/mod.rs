//! The process's allocator (`alloc`), the larger `village` subcommands, one module each (`sim`/`merge`/`replay`, `play`, `new-mod`, `odds`, `show`, the replay
//! viewer's `--html` pages and `render --replay`: `viewer`), the
//! data carried in the binary (`embedded`), and what they share: printing JSON and writing files atomically.

pub mod alloc;
pub mod embedded;
pub mod new_mod;
pub mod odds;
pub mod play;
pub mod show;
pub mod sim;
pub mod viewer;

use anyhow::{Context, Result};
use std::path::Path;

/// Print `value` as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(value: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Write a file the user would hate to lose (a log, a record, a shard, a picture) atomically: a failed
/// write leaves what the file held before, whole.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    village::files::write_atomic(path, bytes).with_context(|| {
        format!(
            "writing {} (nothing was written; the file keeps what it held)",
            path.display()
        )
    })
}
