//! One command's outputs never overwrite its inputs or each other (issue 36, root cause 10):
//! `merge a.json b.json --svg a.json`, `render --load s --svg s`, `play --log x --html x` and a log
//! written over a roster of the game being played are refused before any work. Two names are the same
//! file when they reach the same device and inode (another spelling, a symbolic link, a hard link); a
//! file not made yet is compared by its folder's real path and its name.

use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// A file as a command was given it: the option or word that named it, and the path.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    /// `--svg`, `:save`, "the shard" ...
    pub by: &'a str,
    pub path: &'a Path,
}

/// What makes two names one file.
#[derive(Debug, PartialEq, Eq)]
enum Identity {
    /// An existing file.
    Inode(u64, u64),
    /// A file not made yet: its folder's real path and its name.
    Path(PathBuf),
    /// A device (`/dev/null` twice is no conflict) or a file we cannot tell.
    Any,
}

fn identity(path: &Path) -> Identity {
    match std::fs::metadata(path) {
        Ok(m) if m.file_type().is_file() || m.is_dir() => Identity::Inode(m.dev(), m.ino()),
        Ok(_) => Identity::Any,
        Err(_) => {
            // Not there yet: where it will be made (a dangling link's target).
            let target = super::write::resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
            let name = target.file_name().map(|n| n.to_os_string());
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            match (dir.canonicalize(), name) {
                (Ok(d), Some(n)) => Identity::Path(d.join(n)),
                _ => Identity::Any,
            }
        }
    }
}

/// Refuse `outputs` of which one is the same file as one of `inputs` or as another output, naming both
/// and what named them. Devices are never a conflict.
pub fn distinct(inputs: &[Named<'_>], outputs: &[Named<'_>]) -> Result<(), String> {
    let ins: Vec<(Identity, &Named<'_>)> = inputs.iter().map(|n| (identity(n.path), n)).collect();
    let mut outs: Vec<(Identity, &Named<'_>)> = Vec::new();
    for o in outputs {
        let id = identity(o.path);
        if id == Identity::Any {
            continue;
        }
        if let Some((_, i)) = ins.iter().find(|(x, _)| *x == id) {
            return Err(format!(
                "{} {}: the same file as {} {}: writing it would destroy what the command reads; \
                 name another file",
                o.by,
                o.path.display(),
                i.by,
                i.path.display()
            ));
        }
        if let Some((_, first)) = outs.iter().find(|(x, _)| *x == id) {
            return Err(format!(
                "{} {}: the same file as {} {}: one output would overwrite the other; name two files",
                o.by,
                o.path.display(),
                first.by,
                first.path.display()
            ));
        }
        outs.push((id, o));
    }
    Ok(())
}

/// The rule and script files of `layers` (every `.toml` and `.lua` under each layer's `rosters/` and
/// `scripts/`): a game's inputs, which no output of it may replace.
pub fn layer_files(layers: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for layer in layers {
        for folder in ["rosters", "scripts"] {
            super::collect(&layer.join(folder), &mut out);
        }
    }
    out
}

/// [`distinct`] with the files of `layers` among the inputs, each named "a file of the game's data".
pub fn distinct_from_data(
    layers: &[PathBuf],
    inputs: &[Named<'_>],
    outputs: &[Named<'_>],
) -> Result<(), String> {
    if outputs.is_empty() {
        return Ok(());
    }
    let data = layer_files(layers);
    let mut all: Vec<Named<'_>> = inputs.to_vec();
    all.extend(data.iter().map(|p| Named {
        by: "the rule or script file",
        path: p,
    }));
    distinct(&all, outputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another spelling, a link and a file not made yet are each the same file; a device is not.
    #[test]
    fn the_same_file_by_any_name() {
        let dir = std::env::temp_dir().join(format!("village-same-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let a = dir.join("a");
        let _ = std::fs::write(&a, "a");
        let _ = std::os::unix::fs::symlink("a", dir.join("l"));
        fn n<'a>(by: &'a str, path: &'a Path) -> Named<'a> {
            Named { by, path }
        }
        let dotted = dir.join(".").join("a");
        assert!(distinct(&[n("in", &a)], &[n("--svg", &dotted)]).is_err());
        let link = dir.join("l");
        assert!(distinct(&[n("in", &a)], &[n("--svg", &link)]).is_err());
        let new = dir.join("new");
        let new2 = dir.join(".").join("new");
        assert!(distinct(&[], &[n("--log", &new), n("--html", &new2)]).is_err());
        let other = dir.join("other");
        assert!(distinct(&[], &[n("--log", &new), n("--html", &other)]).is_ok());
        let null = Path::new("/dev/null");
        assert!(distinct(&[], &[n("--log", null), n("--html", null)]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
