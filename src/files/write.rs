//! Writing a file the user named (a log, a record, a shard, a save, a picture) where the name points
//! (issue 36, root cause 2): a symbolic link is followed to its target, which is then written as any
//! file is; a device, FIFO or socket is written in place (a rename would replace the node itself:
//! `/dev/null` as root, or a FIFO a reader waits on); a regular file, or a new one, atomically — a
//! temporary file in the same folder, flushed to disk, renamed over it — so a failed write leaves the
//! old file whole and no temporary file behind. Two files are written in place for want of another
//! way: one reached only through the kernel's own links (`--out /dev/stdout` redirected to a file),
//! and one in a folder where no temporary file may be made. A file with other hard links is replaced,
//! as editors do, so the other names keep the old content.
//!
//! It knows nothing of what it writes.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Symbolic links followed before giving up, as the kernel's own limit (ELOOP) does.
const MAX_LINKS: usize = 40;

/// Write `bytes` to the file `path` names: through symbolic links to their target, in place into a
/// device or FIFO, atomically into a regular file (see the module). The error of a device (`/dev/full`:
/// no space left) or of the disk (a full disk, `ulimit -f`: file too large) is returned, and a
/// temporary file made on the way is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    // What the system finds at the name, every link followed (the kernel's own "magic" links of
    // `/dev/stdout` and `/proc/self/fd/N` too, which name a pipe or an open file, not a path).
    let found = std::fs::metadata(path);
    match &found {
        Ok(m) if m.is_dir() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "it is a folder",
            ))
        }
        Ok(m) if !m.is_file() => return write_in_place(path, bytes),
        _ => {}
    }
    let (target, magic) = resolve(path)?;
    match found {
        // A file reached through the kernel's own links (`/dev/stdout` redirected to a file): the
        // file an open descriptor names, written through that name, in place.
        Ok(_) if magic || std::fs::symlink_metadata(&target).is_err() => {
            write_in_place(path, bytes)
        }
        Ok(m) => replace(&target, bytes, Some(m.permissions())),
        Err(_) => replace(&target, bytes, None),
    }
}

/// `path` with every symbolic link of its last component followed (a relative target read from the
/// link's folder); a link whose target does not exist yet gives that target, where the file is made.
/// The folders above are left to the system, which resolves them for every later call alike.
pub fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    resolve(path).map(|(p, _)| p)
}

/// [`resolve_links`], and whether a link on the way was one of the kernel's under `/proc` (an open
/// descriptor's, whose text names what it holds, not always a path).
fn resolve(path: &Path) -> std::io::Result<(PathBuf, bool)> {
    let mut p = path.to_path_buf();
    let mut magic = false;
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                // `/dev/stdout`, `/dev/fd/1`: the link itself lives in /proc, maybe behind a folder
                // link.
                magic |= p.starts_with("/proc")
                    || p.parent()
                        .and_then(|d| d.canonicalize().ok())
                        .is_some_and(|d| d.starts_with("/proc"));
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            _ => return Ok((p, magic)),
        }
    }
    Err(std::io::Error::other(format!(
        "more than {MAX_LINKS} symbolic links in a row"
    )))
}

/// A device, a FIFO, or a file only its name reaches: opened for writing as it is (never created;
/// truncated, which a device or a FIFO ignores), written, flushed.
fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// A regular file (or none yet) replaced atomically by a temporary file of the same folder, which
/// takes the old file's permissions; on any failure the temporary file is removed.
fn replace(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_string());
    let (tmp, mut f) = match temporary(&dir, &name) {
        Ok(made) => made,
        // A file the user may write in a folder they may not (no temporary file can be made beside
        // it): written in place, as `>` would, rather than refused.
        Err(e)
            if permissions.is_some()
                && matches!(
                    e.kind(),
                    std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
                ) =>
        {
            return write_in_place(path, bytes).map_err(|_| e);
        }
        Err(e) => return Err(e),
    };
    let written = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A new temporary file beside `name` in `dir`: `.NAME.PID.tmp`, or with a count when that exists.
/// Made with `create_new`, which never follows a link someone left at that name.
fn temporary(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let pid = std::process::id();
    let mut last = None;
    for n in 0..100u32 {
        let file = if n == 0 {
            format!(".{name}.{pid}.tmp")
        } else {
            format!(".{name}.{pid}-{n}.tmp")
        };
        let tmp = dir.join(file);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary file name")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("village-write-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::create_dir_all(&dir);
        dir
    }

    #[test]
    fn a_failed_atomic_write_leaves_the_old_file() {
        let dir = scratch("old");
        let path = dir.join("save.json");
        assert!(write_atomic(&path, b"good").is_ok());
        // Writing into a folder that does not exist fails before anything is renamed.
        let missing = dir.join("nope").join("save.json");
        assert!(write_atomic(&missing, b"bad").is_err());
        assert_eq!(std::fs::read(&path).ok().as_deref(), Some(&b"good"[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A link's target is written, the link kept; a chain and a dangling link too; a loop is an error.
    #[test]
    fn links_are_written_through() {
        let dir = scratch("links");
        let target = dir.join("t");
        let _ = std::fs::write(&target, "old");
        let _ = std::os::unix::fs::symlink("t", dir.join("a"));
        let _ = std::os::unix::fs::symlink("a", dir.join("b"));
        assert!(write_atomic(&dir.join("b"), b"new").is_ok());
        assert_eq!(std::fs::read(&target).ok().as_deref(), Some(&b"new"[..]));
        assert!(dir.join("b").is_symlink() && dir.join("a").is_symlink());
        let _ = std::os::unix::fs::symlink("made", dir.join("dangling"));
        assert!(write_atomic(&dir.join("dangling"), b"x").is_ok());
        assert_eq!(
            std::fs::read(dir.join("made")).ok().as_deref(),
            Some(&b"x"[..])
        );
        let _ = std::os::unix::fs::symlink("loop2", dir.join("loop1"));
        let _ = std::os::unix::fs::symlink("loop1", dir.join("loop2"));
        assert!(write_atomic(&dir.join("loop1"), b"x").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A device is written in place: `/dev/null` takes the bytes, `/dev/full` gives its error.
    #[test]
    fn devices_are_written_in_place() {
        assert!(write_atomic(Path::new("/dev/null"), b"x").is_ok());
        let full = write_atomic(Path::new("/dev/full"), b"x").map_err(|e| e.raw_os_error());
        assert_eq!(full, Err(Some(libc::ENOSPC)));
    }
}
