//! Rules of play as pure functions over state: combat results now; activation, movement, melee,
//! shooting, morale, magic, buildings and fire as the rules-of-play work lands.
//!
//! Never rolls dice itself and never reads Lua: callers pass the faces and the modifiers.

pub mod combat;
