//! Text for a terminal. Everything the program prints — a command's report, an error, a REPL value, a
//! script's `print` — goes through here, so a control character that came from user data (a roster
//! name, a modifier reason, a hook's error, a record's or a shard's text) is shown as an escape, never
//! obeyed by the terminal (issue 36, root cause 13). Newlines and tabs are layout and pass.
//!
//! Also the one writer of stdout: a write that fails (a full device, a stdout closed before the
//! program started) is kept, nothing more is written, and [`finish`] hands it to the command so it
//! ends with an error instead of exit 0. A reader that left early (`| head`) is not an error: the
//! binary leaves SIGPIPE at its default action, which ends the process quietly as it ends any Unix
//! tool, and a broken pipe seen without the signal is dropped here.
//!
//! It never decides what to print, and never builds JSON (it only makes serde's text terminal-safe).

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

/// Whether a terminal acts on `c` instead of showing it: C0 controls but newline and tab, DEL, C1
/// controls (U+0080–U+009F: a CSI among them), and the bidirectional embeddings, overrides and
/// isolates (U+202A–U+202E, U+2066–U+2069), which reorder what follows them on the line.
pub fn acts_on(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `text` with every character a terminal acts on shown as an escape: `\x1b` below U+0080, `\u{9b}`
/// above (ESC, then `[31m`, prints as `\x1b[31m`). Borrowed when there is none (the usual case costs
/// one scan).
pub fn safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if !acts_on(c) {
            out.push(c);
        } else if u32::from(c) < 0x80 {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// JSON text as serde writes it (C0 controls already escaped) with the other characters a terminal
/// acts on as JSON escapes (`\u009b`): the same JSON value, safe on a terminal. Such a character can
/// only stand inside a string literal, where any character may be written so.
pub fn safe_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(acts_on) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if acts_on(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The first write to stdout that failed; nothing is written after it.
static STDOUT_FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Set when the process started with its stdout closed (`village ... >&-`): Rust's runtime then gives
/// it `/dev/null`, where every write "succeeds", so the binary says so before anything is printed.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// The process started with no stdout: every later write to stdout fails, and [`finish`] says so.
pub fn mark_stdout_closed() {
    STDOUT_CLOSED.store(true, Ordering::Relaxed);
}

/// Print `text` on stdout, made [`safe`]. A failed write is kept for [`finish`] (and returned), and
/// nothing more is written.
pub fn out(text: &str) -> std::io::Result<()> {
    write_stdout(safe(text).as_bytes())
}

/// Print JSON text on stdout, made [`safe_json`].
pub fn out_json(json: &str) -> std::io::Result<()> {
    write_stdout(safe_json(json).as_bytes())
}

/// Print `text` on stderr, made [`safe`]. A failed write is ignored: stderr is where errors would be
/// said.
pub fn err(text: &str) {
    let _ = std::io::stderr().lock().write_all(safe(text).as_bytes());
}

fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(e) = failed.as_ref() {
        return Err(std::io::Error::new(e.kind(), e.to_string()));
    }
    let written = if STDOUT_CLOSED.load(Ordering::Relaxed) {
        Err(closed())
    } else {
        std::io::stdout().lock().write_all(bytes)
    };
    if let Err(e) = &written {
        *failed = Some(std::io::Error::new(e.kind(), e.to_string()));
    }
    written
}

fn closed() -> std::io::Error {
    std::io::Error::other("it was closed when village started (>&-)")
}

/// Flush stdout; the first write that failed, if one did (a reader that left early, a broken pipe, is
/// not counted: it ends output quietly).
pub fn finish() -> std::io::Result<()> {
    let flushed = if STDOUT_CLOSED.load(Ordering::Relaxed) {
        Ok(())
    } else {
        std::io::stdout().lock().flush()
    };
    let failed = STDOUT_FAILED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    match failed.map_or(flushed, Err) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every C0 control but newline and tab, DEL, every C1 control and the bidirectional controls are
    /// escaped; printable text, newline, tab and other Unicode (accents, a zero-width joiner) pass.
    #[test]
    fn what_a_terminal_acts_on_is_escaped() {
        for c in (0u32..0x20).chain([0x7f]).chain(0x80..0xa0) {
            let c = char::from_u32(c).unwrap_or_default();
            if c == '\n' || c == '\t' {
                assert_eq!(safe(&c.to_string()), c.to_string());
            } else {
                assert!(!safe(&c.to_string()).chars().any(acts_on), "{c:?}");
            }
        }
        assert_eq!(safe("\u{1b}]0;x\u{7}"), "\\x1b]0;x\\x07");
        assert_eq!(safe("\u{202e}abc\u{2069}"), "\\u{202e}abc\\u{2069}");
        assert_eq!(safe("Café 🙂\u{200d}"), "Café 🙂\u{200d}");
        assert!(matches!(safe("plain text\n"), Cow::Borrowed(_)));
    }

    /// JSON keeps its value: the escaped text parses to the same string.
    #[test]
    fn json_stays_the_same_value() {
        let s = "a\u{9b}b\u{7f}c\u{202e}d\u{1b}";
        let json = serde_json::to_string(s).unwrap_or_default();
        let made = safe_json(&json);
        assert!(!made.chars().any(acts_on), "{made}");
        let back: String = serde_json::from_str(&made).unwrap_or_default();
        assert_eq!(back, s);
    }
}
