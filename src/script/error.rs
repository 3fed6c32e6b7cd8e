//! Script errors as plain values: what went wrong, where (file:line), and the Lua traceback.

use thiserror::Error;

/// An error raised by or about a script. Its text starts with `file:line:` whenever Lua knows them.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScriptError {
    /// The source does not parse. `incomplete` is true when more input could complete it (REPL).
    #[error("{message}")]
    Syntax { message: String, incomplete: bool },
    /// A runtime error, with its traceback when Lua gave one.
    #[error("{0}")]
    Runtime(String),
    /// The instruction budget ran out: a runaway loop was stopped.
    #[error("{0}")]
    Budget(String),
    /// The memory limit was reached.
    #[error("out of memory: {0}")]
    Memory(String),
    /// A script file could not be read.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
}

impl ScriptError {
    /// Convert an mlua error, unwrapping callback layers so the message names the script's file:line.
    /// A runtime error whose message has no place of its own (Lua's "C stack overflow", raised while
    /// a C function such as `tostring` or `gsub` calls back into Lua, where Lua knows no line) is
    /// given the innermost script line of its traceback.
    pub(crate) fn from_lua(e: mlua::Error) -> Self {
        match Self::unlocated(e) {
            ScriptError::Runtime(text) => ScriptError::Runtime(locate(text)),
            other => other,
        }
    }

    fn unlocated(e: mlua::Error) -> Self {
        match e {
            mlua::Error::SyntaxError {
                message,
                incomplete_input,
            } => ScriptError::Syntax {
                message,
                incomplete: incomplete_input,
            },
            mlua::Error::MemoryError(m) => ScriptError::Memory(bounded(m)),
            mlua::Error::CallbackError { traceback, cause } => {
                match ScriptError::from_lua((*cause).clone()) {
                    ScriptError::Runtime(m) if !m.contains("stack traceback") => {
                        ScriptError::Runtime(format!("{m}\n{traceback}"))
                    }
                    other => other,
                }
            }
            mlua::Error::RuntimeError(text) => {
                let text = bounded(text);
                if is_budget(&text) {
                    ScriptError::Budget(text)
                } else if is_memory(&text) {
                    // A C function's allocation failed under the sandbox's wrapper, which raised it
                    // again with the script's file:line in front.
                    ScriptError::Memory(text)
                } else {
                    ScriptError::Runtime(text)
                }
            }
            other => {
                let text = bounded(other.to_string());
                if is_budget(&text) {
                    ScriptError::Budget(text)
                } else {
                    ScriptError::Runtime(text)
                }
            }
        }
    }

    /// The first line of the message: `file:line: what` without the traceback.
    pub fn headline(&self) -> String {
        self.to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    }
}

/// Whether a message's first line starts with a place, `file:line: ` (what comes before its first
/// `: ` ends in `:` and a line number).
pub(crate) fn has_location(text: &str) -> bool {
    let head = text.lines().next().unwrap_or_default();
    head.split_once(": ")
        .and_then(|(place, _)| place.rsplit_once(':'))
        .is_some_and(|(file, line)| {
            !file.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        })
}

/// `text` with the innermost script frame of its traceback (`file:line: `) in front, when its
/// first line names no place; the frames of C functions and of the sandbox's own Lua are not a
/// script's.
fn locate(text: String) -> String {
    // A place in the sandbox's own Lua (a wrapper's `return ...` overflowing the stack) is none.
    let text = match text.strip_prefix("sandbox:") {
        Some(rest) => match rest.split_once(": ") {
            Some((line, message)) if line.bytes().all(|b| b.is_ascii_digit()) => {
                message.to_string()
            }
            _ => text,
        },
        None => text,
    };
    if has_location(&text) {
        return text;
    }
    let Some((_, traceback)) = text.split_once("stack traceback:") else {
        return text;
    };
    let frame = traceback.lines().find_map(|line| {
        let (place, _) = line.trim_start().split_once(": in ")?;
        let (file, number) = place.rsplit_once(':')?;
        let script = !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
            && !super::api::convert::skipped_source(file);
        script.then(|| format!("{file}:{number}: "))
    });
    match frame {
        Some(at) => format!("{at}{text}"),
        None => text,
    }
}

/// The longest error text kept from a script (`error(string.rep("x", 4e7))` made 40 MB messages that
/// `sim --keep-going` kept for every failed game): longer ones end "… (N bytes more)".
pub const MAX_ERROR_TEXT: usize = 8 * 1024;

/// `text` cut to [`MAX_ERROR_TEXT`] (see `api::answer::cut`).
pub(crate) fn bounded(text: String) -> String {
    if text.len() <= MAX_ERROR_TEXT {
        return text;
    }
    crate::script::api::answer::cut(&text, MAX_ERROR_TEXT).into_owned()
}

/// Whether an error's text is Lua's out-of-memory message (with or without a file:line in front).
fn is_memory(text: &str) -> bool {
    let head = text.lines().next().unwrap_or_default();
    head == "not enough memory"
        || head.ends_with(": not enough memory")
        || head.contains(": not enough memory (the VM's limit)")
}

/// Whether an error's text is a budget's: instructions spent or the wall-clock limit passed.
fn is_budget(text: &str) -> bool {
    text.contains(super::vm::BUDGET_MESSAGE) || text.contains(super::vm::TIME_MESSAGE)
}
