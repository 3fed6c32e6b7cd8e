//! What the answer, loop and memory cases share: a throwaway mod folder written from Lua sources held
//! in the test ([`Mod`]), and the `village` binary run as a child process with its exit, its output and
//! its peak memory ([`village`]). A case that could abort (a stack overflow) or grow without bound runs
//! in a child, so the test process outlives it; the peak is the child's maximum resident set size as
//! `wait4` reports it, the figure `/usr/bin/time -v` prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Peak memory every memory case must stay under (issue 36: `/usr/bin/time -v` under 300 MB).
pub const MAX_RSS_MB: f64 = 300.0;

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A folder of its own under the temporary folder, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(what: &str) -> Scratch {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("village-hostile-{what}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Write `text` to `rel` inside the folder (its folders made as needed); its path.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("a folder for a fixture");
        }
        std::fs::write(&p, text).expect("a fixture file");
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A mod folder (`--mod`) made of `files`: (path under the folder, Lua source).
pub struct Mod(Scratch);

impl Mod {
    pub fn new(what: &str, files: &[(&str, &str)]) -> Mod {
        let s = Scratch::new(what);
        for (rel, text) in files {
            s.write(rel, text);
        }
        Mod(s)
    }

    /// A mod of one variant, `scripts/variants/<name>.lua`.
    pub fn variant(name: &str, source: &str) -> Mod {
        Mod::new(name, &[(&format!("scripts/variants/{name}.lua"), source)])
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    pub fn arg(&self) -> String {
        self.path().to_string_lossy().into_owned()
    }

    /// Write one more file into the mod.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.0.write(rel, text)
    }
}

/// How a child run of `village` ended.
#[derive(Debug)]
pub struct Ran {
    /// The exit status, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it (6 for an abort), when one did.
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Its peak resident memory in MB (`ru_maxrss`).
    pub max_rss_mb: f64,
}

impl Ran {
    /// Exited with `code`, without a panic or an abort; else the whole run is shown.
    pub fn exited(&self, code: i32) -> &Self {
        assert!(
            self.signal.is_none() && self.code == Some(code) && !self.stderr.contains("panicked"),
            "expected exit {code}, got {self:?}"
        );
        self
    }

    /// Its stderr names each of `says`.
    pub fn says(&self, says: &[&str]) -> &Self {
        for s in says {
            assert!(
                self.stderr.contains(s),
                "stderr does not say {s:?}:\n{}",
                self.stderr
            );
        }
        self
    }

    /// It stayed under [`MAX_RSS_MB`].
    pub fn small(&self) -> &Self {
        // Reported (docs/reliability.md), asserted only against the bound.
        eprintln!("peak {:.0} MB", self.max_rss_mb);
        assert!(
            self.max_rss_mb < MAX_RSS_MB,
            "the child peaked at {:.0} MB (at most {MAX_RSS_MB} MB): {self:?}",
            self.max_rss_mb
        );
        self
    }
}

/// Run this build's `village` with `args` in the checkout (stdin empty) and wait for it; what it did.
pub fn village(args: &[&str]) -> Ran {
    let out = Scratch::new("child-out");
    let (o, e) = (out.path().join("stdout"), out.path().join("stderr"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_village"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&o).expect("a stdout file"))
        .stderr(std::fs::File::create(&e).expect("a stderr file"));
    // A case that regresses into a hang or a runaway allocation must not take the machine with it:
    // the child gets 3 GiB of address space and a minute of CPU (the hang detector gives up then).
    // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            let limit = |resource, n: libc::rlim_t| {
                let r = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                libc::setrlimit(resource, &r);
            };
            limit(libc::RLIMIT_AS, 3 << 30);
            limit(libc::RLIMIT_CPU, 60);
            Ok(())
        });
    }
    let child = cmd.spawn().expect("village runs");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (`child` is never waited on: std's `Child`
    // does not wait when dropped); `status` and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    drop(child);
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    Ran {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        stdout: read(&o),
        stderr: read(&e),
        // Linux reports kilobytes.
        max_rss_mb: usage.ru_maxrss as f64 / 1024.0,
    }
}

/// `village play --auto` of a short game (Intro, seed 1) with `m` and the extra `args`.
pub fn play(m: &Mod, args: &[&str]) -> Ran {
    let mut all = vec!["play", "--auto", "--length", "intro", "--seed", "1"];
    let arg = m.arg();
    all.extend(["--mod", arg.as_str()]);
    all.extend_from_slice(args);
    village(&all)
}

/// `village play --auto` (Intro, seed 1) with the one variant `name` of `m` enabled.
pub fn play_variant(m: &Mod, name: &str) -> Ran {
    play(m, &["--variant", name])
}
