//! Where the built-in data layer (`rosters/` and `scripts/`) comes from, decided once per process.
//!
//! In order: a folder the user names (`--data DIR`, else the environment variable `VILLAGE_DATA`); the
//! checkout the binary was built from, while it still has `rosters/` and `scripts/` (so editing and
//! hot-reloading them there works as before); else the copy the binary carries, extracted once into a
//! cache folder named by version and content hash. The rest of the engine stays file-based (layers,
//! `require`, reload, fingerprints): it only ever sees a folder, [`builtin`]`().root`.
//!
//! The embedded files themselves are the binary's (`src/cli/embedded.rs`), so that an edited script
//! rebuilds only the binary, not the library and every test linked to it; the library alone (tests,
//! benches) resolves without them.

use crate::files::{fnv, FNV_START};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming a data folder, as `--data DIR` does.
pub const DATA_ENV: &str = "VILLAGE_DATA";

/// The environment variable that overrides the checkout compiled into the binary (for tests and
/// packagers): a path, or `none` (or empty) for "no checkout".
pub const CHECKOUT_ENV: &str = "VILLAGE_CHECKOUT";

/// One file of the data the binary carries: its path inside the layer (`rosters/rules.toml`,
/// `scripts/traits/big.lua`, always with `/`) and its bytes.
#[derive(Debug, Clone)]
pub struct EmbeddedFile {
    pub path: String,
    pub bytes: &'static [u8],
}

/// Where the built-in layer was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// `--data DIR`.
    Flag,
    /// `$VILLAGE_DATA`.
    Env,
    /// The checkout the binary was built from (or `$VILLAGE_CHECKOUT`).
    Checkout,
    /// The binary's own copy, extracted into the cache folder that is the layer's root.
    Embedded,
}

/// The built-in layer: its folder and where that came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Builtin {
    pub root: PathBuf,
    pub origin: Origin,
}

impl fmt::Display for Builtin {
    /// How `village about` says where the data comes from.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let root = self.root.display();
        match self.origin {
            Origin::Flag => write!(f, "{root} (--data)"),
            Origin::Env => write!(f, "{root} (${DATA_ENV})"),
            Origin::Checkout => write!(f, "the checkout {root}"),
            Origin::Embedded => write!(f, "built into the binary (extracted to {root})"),
        }
    }
}

/// Why the built-in layer cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// A folder given by `--data` or `$VILLAGE_DATA` that is not a data folder.
    #[error("{dir} ({from}) {}: the built-in data folder holds the whole game's rosters/ and scripts/, like a checkout of village (a mod of your own goes in --mod)", if .dir.exists() { "has no rosters/ folder" } else { "does not exist" })]
    NotData { dir: PathBuf, from: String },
    /// No checkout and no embedded copy (only the library, without the binary, can get here).
    #[error("no built-in data: the checkout {0} has no rosters/ and scripts/ (give --data DIR)")]
    Missing(PathBuf),
    /// No cache folder could take the embedded copy.
    #[error("could not extract the built-in data (give --data DIR): {0}")]
    Extract(String),
}

impl DataError {
    /// The folder the error is about: where a later load will look (and fail, naming it).
    fn dir(&self) -> PathBuf {
        match self {
            DataError::NotData { dir, .. } | DataError::Missing(dir) => dir.clone(),
            DataError::Extract(_) => compiled_checkout(),
        }
    }
}

static SELECTED: OnceLock<Builtin> = OnceLock::new();

/// Decide the built-in layer for this process, from `--data` (`flag`), the environment, the checkout
/// and the binary's `embedded` files, in that order. The first call decides; later calls return it.
pub fn select(
    flag: Option<&Path>,
    embedded: &[EmbeddedFile],
) -> Result<&'static Builtin, DataError> {
    if let Some(b) = SELECTED.get() {
        return Ok(b);
    }
    let b = resolve(flag, embedded)?;
    Ok(SELECTED.get_or_init(|| b))
}

/// The built-in layer: what [`select`] decided, or (for the library on its own, as in tests) the
/// same order without `--data` and without embedded files. On an error the folder it names is still
/// returned, so the load that follows fails naming it.
pub fn builtin() -> &'static Builtin {
    SELECTED.get_or_init(|| {
        resolve(None, &[]).unwrap_or_else(|e| Builtin {
            root: e.dir(),
            origin: Origin::Checkout,
        })
    })
}

/// The resolution order, without remembering the answer.
pub fn resolve(flag: Option<&Path>, embedded: &[EmbeddedFile]) -> Result<Builtin, DataError> {
    let env = std::env::var_os(DATA_ENV).filter(|v| !v.is_empty());
    let given = match (flag, env) {
        (Some(dir), _) => Some((dir.to_path_buf(), Origin::Flag, "--data".to_string())),
        (None, Some(dir)) => Some((PathBuf::from(dir), Origin::Env, format!("${DATA_ENV}"))),
        (None, None) => None,
    };
    if let Some((dir, origin, from)) = given {
        if !dir.join("rosters").is_dir() {
            return Err(DataError::NotData { dir, from });
        }
        // Absolute, so that the layer means the same folder wherever a later step runs.
        let root = std::path::absolute(&dir).unwrap_or(dir);
        return Ok(Builtin { root, origin });
    }
    if let Some(root) = checkout() {
        if root.join("rosters").is_dir() && root.join("scripts").is_dir() {
            return Ok(Builtin {
                root,
                origin: Origin::Checkout,
            });
        }
    }
    if embedded.is_empty() {
        return Err(DataError::Missing(
            checkout().unwrap_or_else(compiled_checkout),
        ));
    }
    let root = extract(embedded)?;
    Ok(Builtin {
        root,
        origin: Origin::Embedded,
    })
}

/// The folder this crate was built in.
fn compiled_checkout() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The checkout to prefer: `$VILLAGE_CHECKOUT` when set (`none` or empty: none), else the compiled-in
/// one.
fn checkout() -> Option<PathBuf> {
    match std::env::var_os(CHECKOUT_ENV) {
        Some(v) if v.is_empty() || v == "none" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => Some(compiled_checkout()),
    }
}

/// The name of the cache folder for `files`: the version and a hash of every path and its bytes, so
/// two builds with different data never share one.
pub fn cache_name(files: &[EmbeddedFile]) -> String {
    let mut sorted: Vec<&EmbeddedFile> = files.iter().collect();
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    let mut h = FNV_START;
    for f in sorted {
        h = fnv(f.path.as_bytes(), h);
        h = fnv(b"\0", h);
        h = fnv(&(f.bytes.len() as u64).to_le_bytes(), h);
        h = fnv(f.bytes, h);
    }
    format!("{}-{h:016x}", env!("CARGO_PKG_VERSION"))
}

/// Where the cache folders may go, best first: `$XDG_CACHE_HOME/village`, `~/.cache/village`, the
/// temporary folder's `village-cache`.
fn cache_bases() -> Vec<PathBuf> {
    let mut bases = Vec::new();
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from) {
        // The XDG spec ignores a relative value.
        if x.is_absolute() {
            bases.push(x.join("village"));
        }
    }
    if let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        bases.push(PathBuf::from(home).join(".cache").join("village"));
    }
    bases.push(std::env::temp_dir().join("village-cache"));
    bases
}

/// Extract `files` into the first cache base that takes them; the folder of a previous run is reused
/// when it holds exactly these files.
fn extract(files: &[EmbeddedFile]) -> Result<PathBuf, DataError> {
    let name = cache_name(files);
    let mut tried = Vec::new();
    for base in cache_bases() {
        match extract_into(&base, &name, files) {
            Ok(dir) => return Ok(dir),
            Err(e) => tried.push(format!("{}: {e}", base.join(&name).display())),
        }
    }
    Err(DataError::Extract(tried.join("; ")))
}

/// Extract `files` into `base/name`, atomically: written into a temporary folder beside it, then
/// renamed into place, so another process sees either no folder or a whole one. A folder that is there
/// but differs (edited by hand) is replaced.
fn extract_into(base: &Path, name: &str, files: &[EmbeddedFile]) -> std::io::Result<PathBuf> {
    let dest = base.join(name);
    if holds_exactly(&dest, files) {
        return Ok(dest);
    }
    std::fs::create_dir_all(base)?;
    let stamp = format!(
        "{}.{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let tmp = base.join(format!(".{name}.{stamp}.tmp"));
    let written = write_tree(&tmp, files);
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // The rename is atomic and refuses a folder that is already there: then another process put a
    // whole copy in place first (use it), or an old copy was edited (move it aside and try once more).
    // A folder that holds exactly the files is never moved: another process may be reading it.
    let placed = (|| {
        if std::fs::rename(&tmp, &dest).is_ok() || holds_exactly(&dest, files) {
            return Ok(());
        }
        let old = base.join(format!(".{name}.{stamp}.old"));
        if std::fs::rename(&dest, &old).is_ok() {
            let _ = std::fs::remove_dir_all(&old);
        }
        if std::fs::rename(&tmp, &dest).is_ok() || holds_exactly(&dest, files) {
            return Ok(());
        }
        Err(std::io::Error::other(format!(
            "{} holds other files and could not be replaced",
            dest.display()
        )))
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    placed.map(|()| dest)
}

/// Write every file under `root` (a new folder).
fn write_tree(root: &Path, files: &[EmbeddedFile]) -> std::io::Result<()> {
    std::fs::create_dir(root)?;
    for f in files {
        let path = root.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, f.bytes)?;
    }
    Ok(())
}

/// Whether `dir` holds exactly `files`: the same paths, the same bytes, nothing else.
fn holds_exactly(dir: &Path, files: &[EmbeddedFile]) -> bool {
    let mut found = BTreeMap::new();
    if !list(dir, dir, &mut found) || found.len() != files.len() {
        return false;
    }
    files.iter().all(|f| {
        found
            .get(&f.path)
            .is_some_and(|p| std::fs::read(p).is_ok_and(|bytes| bytes == f.bytes))
    })
}

/// Every file under `dir`, keyed by its `/`-separated path relative to `root`; false when a folder
/// cannot be read.
fn list(root: &Path, dir: &Path, out: &mut BTreeMap<String, PathBuf>) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            if !list(root, &path, out) {
                return false;
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.insert(rel.to_string_lossy().replace('\\', "/"), path);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> Vec<EmbeddedFile> {
        vec![
            EmbeddedFile {
                path: "rosters/a.toml".into(),
                bytes: b"a = 1\n",
            },
            EmbeddedFile {
                path: "scripts/lib/b.lua".into(),
                bytes: b"return 2\n",
            },
        ]
    }

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("village-data-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn extracts_once_and_repairs_an_edited_copy() {
        let base = temp("extract");
        let files = files();
        let name = cache_name(&files);
        let dir = extract_into(&base, &name, &files).expect("extracts");
        assert_eq!(dir, base.join(&name));
        assert!(holds_exactly(&dir, &files));
        // Reused as it is.
        assert_eq!(extract_into(&base, &name, &files).expect("reuses"), dir);
        // An edited or added file is put right, and no temporary folder is left behind.
        std::fs::write(dir.join("rosters/a.toml"), "a = 2\n").expect("edit");
        assert!(!holds_exactly(&dir, &files));
        extract_into(&base, &name, &files).expect("repairs");
        assert_eq!(
            std::fs::read(dir.join("rosters/a.toml")).expect("a"),
            b"a = 1\n"
        );
        std::fs::write(dir.join("rosters/extra.toml"), "").expect("add");
        assert!(!holds_exactly(&dir, &files));
        extract_into(&base, &name, &files).expect("repairs");
        assert!(holds_exactly(&dir, &files));
        let names: Vec<_> = std::fs::read_dir(&base)
            .expect("base")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(&name)]);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_cache_name_follows_the_content() {
        let files = files();
        let mut other = files.clone();
        other[1].bytes = b"return 3\n";
        assert_ne!(cache_name(&files), cache_name(&other));
        assert!(cache_name(&files).starts_with(env!("CARGO_PKG_VERSION")));
    }
}
