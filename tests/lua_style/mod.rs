//! The project's Lua style (StyLua with the checkout's `stylua.toml`), checked in-process with
//! StyLua's library: a fresh machine needs no `stylua` binary on PATH for the tests, and a designer
//! who runs `stylua` on a file the tests accept gets no diff.
#![allow(dead_code)] // each test file uses the part it needs

use std::path::{Path, PathBuf};

/// The checkout's `stylua.toml`, read as StyLua reads it (unknown keys are an error).
pub fn config() -> stylua_lib::Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("stylua.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `.lua` file under `dir`, sorted.
pub fn lua_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "lua") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// `source` as StyLua formats it with the project's config, or StyLua's error.
pub fn format(source: &str) -> Result<String, String> {
    stylua_lib::format_code(source, config(), None, stylua_lib::OutputVerification::None)
        .map_err(|e| e.to_string())
}

/// What StyLua would change in one source: `None` when it is formatted, else the first line that
/// differs, as `line N: "have" → "want"` (or StyLua's error when it cannot parse it).
pub fn difference(source: &str) -> Option<String> {
    let formatted = match format(source) {
        Ok(f) => f,
        Err(e) => return Some(format!("StyLua cannot format it: {e}")),
    };
    if formatted == source {
        return None;
    }
    let (have, want): (Vec<&str>, Vec<&str>) =
        (source.lines().collect(), formatted.lines().collect());
    let n = have
        .iter()
        .zip(&want)
        .position(|(a, b)| a != b)
        .unwrap_or(have.len().min(want.len()));
    Some(format!(
        "line {}: {:?} → {:?}",
        n + 1,
        have.get(n).copied().unwrap_or("<end of file>"),
        want.get(n).copied().unwrap_or("<end of file>")
    ))
}

/// The `.lua` files under `dir` that StyLua would change, each with its first difference.
pub fn unformatted(dir: &Path) -> Vec<String> {
    lua_files(dir)
        .into_iter()
        .filter_map(|p| {
            let source =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            difference(&source).map(|d| format!("{}: {d}", p.display()))
        })
        .collect()
}
