//! village: the rules engine for *The Village Must Stand*.
//!
//! The kernel (dice, geometry, state, rosters, rules) is plain Rust; everything a designer changes lives in
//! Lua scripts under `scripts/` and data under `rosters/`. See ARCHITECTURE.md for the map.

pub mod args;
pub mod audit;
pub mod batch;
pub mod data;
pub mod dice;
pub mod files;
pub mod geometry;
pub mod names;
pub mod odds;
pub mod render;
pub mod repl;
pub mod roster;
pub mod rules;
pub mod scenario;
pub mod script;
pub mod show;
pub mod sim;
pub mod state;
pub mod sweep;
pub mod terminal;
pub mod viewer;
pub mod wave;
