//! The built-in `rosters/`, `scripts/` and `scenarios/` carried inside the binary, for when the checkout it was built
//! from is gone (an installed or moved binary); `village::data` decides when they are used.
//!
//! They live in the binary, not the library, so that editing a script rebuilds only the binary (about
//! 15 s), not the library and every test. Cargo tracks each embedded file, so an edit or a removal
//! rebuilds it; a file only added is seen at the next rebuild of this crate (on stable Rust a macro
//! cannot track a folder; a build script could, but would rebuild everything on every script edit).
//! `tests/install.rs` compares the embedded copy with the checkout, byte for byte.

use include_dir::{include_dir, Dir, DirEntry};
use village::data::EmbeddedFile;

static ROSTERS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/rosters");
static SCRIPTS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scripts");
static SCENARIOS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scenarios");

/// Every embedded file with its path inside the layer (`rosters/…`, `scripts/…`, `scenarios/…`).
pub fn files() -> Vec<EmbeddedFile> {
    fn walk(dir: &'static Dir<'static>, prefix: &str, out: &mut Vec<EmbeddedFile>) {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(d) => walk(d, prefix, out),
                DirEntry::File(f) => {
                    // include_dir's paths are relative to the folder it included, always with `/`.
                    out.push(EmbeddedFile {
                        path: format!("{prefix}/{}", f.path().to_string_lossy()),
                        bytes: f.contents(),
                    });
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&ROSTERS, "rosters", &mut out);
    walk(&SCRIPTS, "scripts", &mut out);
    walk(&SCENARIOS, "scenarios", &mut out);
    out
}
