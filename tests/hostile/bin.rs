//! Running the built `village` for the second round's modules (issue 36): one command with its
//! standard streams and process limits chosen by the case, a fresh folder per case, and the checks
//! every module makes of what reached a terminal.

use super::finishes;
use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// How a case runs the binary: arguments, standard input, where stdout goes, and what the child does
/// before it becomes `village` (a file size limit, a closed stdout).
pub struct Run {
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    stdout: Option<Stdio>,
    file_limit: Option<u64>,
    memory_limit: Option<u64>,
    close_stdout: bool,
    dir: Option<PathBuf>,
}

/// `village ARGS` as a case builds it.
pub fn run(args: &[&str]) -> Run {
    Run {
        args: args.iter().map(|s| s.to_string()).collect(),
        stdin: None,
        stdout: None,
        file_limit: None,
        memory_limit: None,
        close_stdout: false,
        dir: None,
    }
}

impl Run {
    /// Feed `text` on standard input (a piped REPL session).
    pub fn stdin(self, text: &str) -> Run {
        self.stdin_bytes(text.as_bytes())
    }

    /// Feed `bytes` on standard input, text or not (a line that is not UTF-8).
    pub fn stdin_bytes(mut self, bytes: &[u8]) -> Run {
        self.stdin = Some(bytes.to_vec());
        self
    }

    /// Send stdout to `to` instead of a pipe the case reads.
    pub fn stdout(mut self, to: Stdio) -> Run {
        self.stdout = Some(to);
        self
    }

    /// Run under `ulimit -f`: files may grow to `bytes` (SIGXFSZ left at its default action).
    pub fn file_limit(mut self, bytes: u64) -> Run {
        self.file_limit = Some(bytes);
        self
    }

    /// Run under `ulimit -v`: an endless read that is not bounded fails instead of filling the machine.
    pub fn memory_limit(mut self, bytes: u64) -> Run {
        self.memory_limit = Some(bytes);
        self
    }

    /// Start `village` with its stdout closed (`>&-`).
    pub fn closed_stdout(mut self) -> Run {
        self.close_stdout = true;
        self
    }

    /// Run in folder `dir`.
    pub fn within(mut self, dir: &Path) -> Run {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Run it to its end under the hang detector.
    pub fn output(self) -> Output {
        finishes(move || {
            let mut c = Command::new(env!("CARGO_BIN_EXE_village"));
            c.args(&self.args)
                .stdin(Stdio::piped())
                .stdout(self.stdout.unwrap_or_else(Stdio::piped))
                .stderr(Stdio::piped());
            if let Some(d) = &self.dir {
                c.current_dir(d);
            }
            let (fsize, mem, close) = (self.file_limit, self.memory_limit, self.close_stdout);
            // SAFETY: between fork and exec the closure only calls async-signal-safe functions
            // (setrlimit, close) on values copied in before the fork.
            unsafe {
                c.pre_exec(move || {
                    let limit = |what, bytes: u64| {
                        let l = libc::rlimit {
                            rlim_cur: bytes as libc::rlim_t,
                            rlim_max: bytes as libc::rlim_t,
                        };
                        if libc::setrlimit(what, &l) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                        Ok(())
                    };
                    if let Some(b) = fsize {
                        limit(libc::RLIMIT_FSIZE, b)?;
                    }
                    if let Some(b) = mem {
                        limit(libc::RLIMIT_AS, b)?;
                    }
                    if close {
                        libc::close(1);
                    }
                    Ok(())
                });
            }
            let mut child = c.spawn().expect("the village binary runs");
            if let Some(bytes) = self.stdin {
                let mut pipe = child.stdin.take().expect("stdin");
                let _ = pipe.write_all(&bytes);
            }
            drop(child.stdin.take());
            child.wait_with_output().expect("the binary finishes")
        })
    }
}

/// `village ARGS` with piped streams.
pub fn village(args: &[&str]) -> Output {
    run(args).output()
}

/// Bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A path as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A fresh folder for one case: `village-hostile2-<name>-<pid>` in the temp folder.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("village-hostile2-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Every file under `dir`, recursively.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() && !p.is_symlink() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// A copy of the folder `from` at `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("a folder").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).expect("copy");
        }
    }
}

/// The characters a terminal acts on instead of showing: C0 controls but newline and tab, DEL, C1
/// controls, and the bidirectional overrides and isolates that reorder what is shown.
pub fn is_raw_control(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `bytes` (what a command printed) hold no raw control character: each was made visible.
pub fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let t = text(bytes);
    if let Some((i, c)) = t.char_indices().find(|(_, c)| is_raw_control(*c)) {
        let from = t[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
        panic!(
            "{what} printed a raw {:?} after {:?}",
            c.escape_unicode().to_string(),
            &t[from..i]
        );
    }
}
