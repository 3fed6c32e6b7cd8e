//! Files the program reads and writes, and the content it was run with: writing where a name points
//! (`write`: through links, in place into devices, atomically into regular files), reading up to a
//! limit of the file's kind (`read`), outputs kept apart from inputs (`same`), the content fingerprint
//! of a run's data layers (every roster and script file, by path and content) and the digest that
//! makes a hand-edited record detectable.
//!
//! This module knows nothing of games; `sim`, saves and the CLI build on it.

mod read;
mod same;
mod write;

pub use read::{
    read_limited, read_regular, read_regular_text, read_text, Kind, ReadError, LUA_SOURCE, RECORD,
    ROSTER, SAVE, SHARD,
};
pub use same::{distinct, distinct_from_data, layer_files, Named};
pub use write::{resolve_links, write_atomic};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// 64-bit FNV-1a, continued from `h` (start with [`FNV_START`]). Not a cryptographic hash: it finds
/// edits and accidents, not a forger who recomputes it.
pub fn fnv(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// The FNV-1a offset basis.
pub const FNV_START: u64 = 0xCBF2_9CE4_8422_2325;

/// The digest of a serializable value: FNV-1a of its JSON text (a record's content, so a hand edit
/// shows).
pub fn digest<T: Serialize>(value: &T) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    format!("{:016x}", fnv(text.as_bytes(), FNV_START))
}

/// The content a run was made with: a hash of each roster and script file of its data layers, keyed
/// `layer<N>/<path inside the layer>` (layer 0 is the built-in folder, 1.. the `--mod` folders in
/// order), and one digest over all of them. Two runs with the same fingerprint read the same rules and
/// scripts, wherever their folders were.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// FNV-1a over every file's key and content, in key order.
    pub content: String,
    /// Each file's own hash.
    pub files: BTreeMap<String, String>,
}

/// The folders of a layer whose files a game reads.
const DATA_FOLDERS: [&str; 3] = ["rosters", "scripts", "scenarios"];

impl Fingerprint {
    /// The fingerprint of `layers` (each layer's `rosters/` and `scripts/`, every `.toml` and `.lua`
    /// file under them; the generated `scripts/types/` stubs are not read by games and are left out).
    /// A file that cannot be read is hashed as its error, so it still differs from a readable one.
    pub fn of_layers(layers: &[PathBuf]) -> Fingerprint {
        let mut files = BTreeMap::new();
        for (n, layer) in layers.iter().enumerate() {
            for folder in DATA_FOLDERS {
                let mut found = Vec::new();
                collect(&layer.join(folder), &mut found);
                for path in found {
                    let Ok(rel) = path.strip_prefix(layer) else {
                        continue;
                    };
                    let rel = rel.to_string_lossy().replace('\\', "/");
                    if rel.starts_with("scripts/types/") {
                        continue;
                    }
                    // Bounded, and never a FIFO's wait: a file that cannot be read is hashed as its
                    // error.
                    let kind = if rel.ends_with(".lua") {
                        LUA_SOURCE
                    } else {
                        ROSTER
                    };
                    let hash = match read_regular(&path, kind) {
                        Ok(bytes) => fnv(&bytes, FNV_START),
                        Err(e) => fnv(e.reason().as_bytes(), FNV_START ^ 1),
                    };
                    files.insert(format!("layer{n}/{rel}"), format!("{hash:016x}"));
                }
            }
        }
        Fingerprint::of_files(files)
    }

    /// The fingerprint of files already hashed: FNV-1a over every key and hash, in key order.
    fn of_files(files: BTreeMap<String, String>) -> Fingerprint {
        let mut all = FNV_START;
        for (k, v) in &files {
            all = fnv(k.as_bytes(), all);
            all = fnv(b"\0", all);
            all = fnv(v.as_bytes(), all);
            all = fnv(b"\n", all);
        }
        Fingerprint {
            content: format!("{all:016x}"),
            files,
        }
    }

    /// [`Fingerprint::of_layers`] with the scenario a game is made of when it is a file given by path
    /// (`--scenario FILE.toml`, outside the layers' `scenarios/`): its content is the games' too.
    pub fn of_game(layers: &[PathBuf], scenario: &str) -> Fingerprint {
        let f = Fingerprint::of_layers(layers);
        let path = std::path::Path::new(scenario);
        if !(scenario.ends_with(".toml") && path.is_file()) {
            return f;
        }
        let hash = match read_regular(path, ROSTER) {
            Ok(bytes) => fnv(&bytes, FNV_START),
            Err(e) => fnv(e.reason().as_bytes(), FNV_START ^ 1),
        };
        let mut files = f.files;
        files.insert(format!("scenario file {scenario}"), format!("{hash:016x}"));
        Fingerprint::of_files(files)
    }

    /// How `other` differs from `self`, in words: the files changed, added or missing (at most five
    /// named, then a count), or `None` when they are the same.
    pub fn differences(&self, other: &Fingerprint) -> Option<String> {
        if self.content == other.content && self.files == other.files {
            return None;
        }
        let mut said = Vec::new();
        for (k, v) in &self.files {
            match other.files.get(k) {
                None => said.push(format!("{k} missing")),
                Some(w) if w != v => said.push(format!("{k} changed")),
                Some(_) => {}
            }
        }
        for k in other.files.keys() {
            if !self.files.contains_key(k) {
                said.push(format!("{k} added"));
            }
        }
        if said.is_empty() {
            return Some("the content digest differs (the file list was edited)".to_string());
        }
        let more = said.len().saturating_sub(5);
        said.truncate(5);
        let mut text = said.join(", ");
        if more > 0 {
            text.push_str(&format!(" and {more} more"));
        }
        Some(text)
    }
}

/// Every `.toml` and `.lua` file under `dir`, recursively, in sorted order (a missing folder holds
/// none). Symbolic links are not followed out of the folder: a linked folder is not entered.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let is_link = std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink());
        if p.is_dir() {
            if !is_link {
                collect(&p, out);
            }
        } else if p.extension().is_some_and(|e| e == "toml" || e == "lua") {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_name_the_file_that_differs() {
        let mut a = Fingerprint {
            content: "1".into(),
            files: BTreeMap::from([("layer1/scripts/x.lua".to_string(), "aa".to_string())]),
        };
        let b = a.clone();
        assert_eq!(a.differences(&b), None);
        a.files.insert("layer1/scripts/x.lua".into(), "bb".into());
        a.content = "2".into();
        assert_eq!(
            a.differences(&b).as_deref(),
            Some("layer1/scripts/x.lua changed")
        );
    }
}
