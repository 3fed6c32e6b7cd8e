//! Reading a file the program is given, up to a limit of its kind (issue 36, root cause 16): a save, a
//! record, a shard, a roster or a Lua source larger than any real one is refused with the file and
//! the limit named, before memory runs out — a regular file by its size, without reading it; anything
//! else (a pipe, `/dev/zero`) by reading no more than the limit. Where only a regular file makes sense
//! (a roster or a script inside a data folder) anything else is refused outright, so a FIFO there
//! cannot stall the loader.

use std::io::Read as _;
use std::path::{Path, PathBuf};

/// What a file is read as: its name in errors and the most it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    /// "a saved game", "a Lua source" ...
    pub what: &'static str,
    /// Bytes.
    pub limit: u64,
}

const MIB: u64 = 1 << 20;

/// A Lua source (a script module, a file `village run` runs): the largest built-in one is a few dozen
/// KB, and the VM's memory limit is 256 MiB.
pub const LUA_SOURCE: Kind = Kind {
    what: "a Lua source",
    limit: 16 * MIB,
};

/// A roster file (`rosters/*.toml`): 4,000 heroes take about 1 MB.
pub const ROSTER: Kind = Kind {
    what: "a roster file",
    limit: 16 * MIB,
};

/// A saved game (`:save`): a whole Siege game's save, log included, is about 1 MB.
pub const SAVE: Kind = Kind {
    what: "a saved game",
    limit: 64 * MIB,
};

/// A recorded game (`sim --record`): a few dozen KB.
pub const RECORD: Kind = Kind {
    what: "a recorded game",
    limit: 64 * MIB,
};

/// A shard (`sim --out`): under 1 KB a game, so a quarter of a million games.
pub const SHARD: Kind = Kind {
    what: "a shard",
    limit: 256 * MIB,
};

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The system's error (not found, no permission, not UTF-8 ...).
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Larger than its kind's limit.
    #[error("{}: more than {} MiB, the most {} may be: not read", path.display(), limit / MIB, what)]
    TooLarge {
        path: PathBuf,
        what: &'static str,
        limit: u64,
    },
    /// Not a regular file where only one makes sense.
    #[error("{}: not a regular file ({found}): {what} must be one", path.display())]
    NotRegular {
        path: PathBuf,
        what: &'static str,
        found: &'static str,
    },
}

impl ReadError {
    /// The file does not exist (a layer may leave a roster file out).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }

    /// The reason alone, without the file (for a message that names the file itself).
    pub fn reason(&self) -> String {
        match self {
            ReadError::Io { source, .. } => source.to_string(),
            ReadError::TooLarge { what, limit, .. } => {
                format!(
                    "more than {} MiB, the most {what} may be: not read",
                    limit / MIB
                )
            }
            ReadError::NotRegular { what, found, .. } => {
                format!("not a regular file ({found}): {what} must be one")
            }
        }
    }
}

/// The bytes of `path`, at most `kind.limit` of them: a regular file larger than that is refused by
/// its size, anything else (a pipe, a device) read until it ends or passes the limit.
pub fn read_limited(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    let io = |source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::open(path).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    if meta.is_dir() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder",
        )));
    }
    let too_large = || ReadError::TooLarge {
        path: path.to_path_buf(),
        what: kind.what,
        limit: kind.limit,
    };
    if meta.is_file() && meta.len() > kind.limit {
        return Err(too_large());
    }
    if meta.is_file() {
        // Its size is known and within the limit: read it straight into a vector of that size (no
        // buffer to zero: a sim reads every rule and script file), at most one byte past the limit in
        // case it grew since.
        let mut bytes =
            Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).saturating_add(1));
        (&mut f)
            .take(kind.limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > kind.limit {
            return Err(too_large());
        }
        return Ok(bytes);
    }
    // A pipe or a device: room growing in steps never past the limit + 1 byte (the byte that shows an
    // endless source is over it): a doubling vector would reserve twice the limit.
    let cap = usize::try_from(kind.limit.saturating_add(1)).unwrap_or(usize::MAX);
    let mut bytes: Vec<u8> = Vec::with_capacity(
        usize::try_from(meta.len().min(kind.limit))
            .unwrap_or(0)
            .saturating_add(1),
    );
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = match f.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if bytes.len() + n > bytes.capacity() {
            let want = bytes.capacity().saturating_mul(2).max(bytes.len() + n);
            let want = want.min(cap).max(bytes.len() + n);
            bytes.reserve_exact(want - bytes.len());
        }
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > kind.limit {
            return Err(too_large());
        }
    }
    Ok(bytes)
}

/// [`read_limited`] of a file that must be a regular one (a roster or a script inside a data folder):
/// anything else is refused before it is opened, so a FIFO cannot make the reader wait.
pub fn read_regular(path: &Path, kind: Kind) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !meta.is_file() && !meta.is_dir() {
        use std::os::unix::fs::FileTypeExt as _;
        let t = meta.file_type();
        let found = if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a file"
        };
        return Err(ReadError::NotRegular {
            path: path.to_path_buf(),
            what: kind.what,
            found,
        });
    }
    read_limited(path, kind)
}

/// [`read_limited`] as UTF-8 text (an error as the system's own for text that is not).
pub fn read_text(path: &Path, kind: Kind) -> Result<String, ReadError> {
    text(path, read_limited(path, kind)?)
}

/// [`read_regular`] as UTF-8 text.
pub fn read_regular_text(path: &Path, kind: Kind) -> Result<String, ReadError> {
    text(path, read_regular(path, kind)?)
}

fn text(path: &Path, bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|_| ReadError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: Kind = Kind {
        what: "a test file",
        limit: 1000,
    };

    /// An endless device is cut at the limit; a file at the limit reads; one byte over is refused by
    /// its size; a FIFO where a regular file belongs is refused without waiting.
    #[test]
    fn reads_stop_at_the_limit() {
        let e = read_limited(Path::new("/dev/zero"), TINY).map(|b| b.len());
        assert!(
            matches!(e, Err(ReadError::TooLarge { limit: 1000, .. })),
            "{e:?}"
        );
        let dir = std::env::temp_dir().join(format!("village-read-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let p = dir.join("f");
        let _ = std::fs::write(&p, vec![b'a'; 1000]);
        assert_eq!(read_limited(&p, TINY).map(|b| b.len()).ok(), Some(1000));
        let _ = std::fs::write(&p, vec![b'a'; 1001]);
        assert!(matches!(
            read_limited(&p, TINY),
            Err(ReadError::TooLarge { .. })
        ));
        let e = read_regular(Path::new("/dev/zero"), TINY);
        assert!(
            matches!(
                e,
                Err(ReadError::NotRegular {
                    found: "a device",
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(read_limited(&dir.join("none"), TINY).is_err_and(|e| e.is_not_found()));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
