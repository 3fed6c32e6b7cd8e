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
    pub(crate) fn from_lua(e: mlua::Error) -> Self {
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
