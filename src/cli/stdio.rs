//! The process's standard streams and the signals about writing, set once before anything runs:
//! a reader that stops early (`village check | head`) ends the program quietly through SIGPIPE, as it
//! ends any Unix tool; a file size limit (`ulimit -f`) makes a write fail with "File too large"
//! instead of killing the process mid-write (which left a temporary file behind); and a stdout
//! closed by the caller (`>&-`) is noticed, so a command that prints fails instead of exiting 0.
//!
//! Printing itself is `village::terminal`'s.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether fd 1 was closed when the process started.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Looks at fd 1 before Rust's runtime starts: the runtime opens `/dev/null` on a closed standard
/// stream, after which a closed stdout can no longer be told from `> /dev/null`.
extern "C" fn note_closed_stdout() {
    // SAFETY: fcntl with F_GETFD only reads the descriptor table.
    if unsafe { libc::fcntl(1, libc::F_GETFD) } == -1 {
        STDOUT_CLOSED_AT_START.store(true, Ordering::Relaxed);
    }
}

/// Run by the dynamic loader with the program's other initialisers, before `main` and before Rust's
/// runtime sanitises the standard streams (`.init_array` is ELF's list of such functions).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

/// Set the signals' actions and tell the printer about a closed stdout. Called first in `main`, before
/// any thread starts.
pub fn setup() {
    #[cfg(unix)]
    // SAFETY: setting the action of two signals before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) {
        village::terminal::mark_stdout_closed();
    }
}
