//! The Lua host — the only module that names mlua (DESIGN.md invariant 2).
//!
//! Owns the sandboxed VM, the public game API scripts and the REPL see, the hooks registry and hot
//! reload. The rest of the kernel calls scripts through plain Rust types and never sees a Lua value.

pub mod api;
mod declared;
mod error;
mod host;
pub mod micro;
mod odds;
pub(crate) mod patterns;
mod play;
pub mod registry;
mod reload;
pub mod repl;
mod save_check;
mod session;
mod source_check;
mod variant_rules;
mod vm;

pub use error::{ScriptError, MAX_ERROR_TEXT};
pub use play::COUNCIL_ORDERS;
pub use reload::{ReloadReport, ReloadSummary, WatchError, Watcher, DEBOUNCE, MAX_BATCH_DELAY};
pub use session::{check_scripts, roots_of, PlayFailure, Played, ScriptHost};
pub use source_check::not_utf8;
pub use vm::{Limits, ScriptRoot, Vm, BUDGET_MESSAGE};
