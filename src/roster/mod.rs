//! Rosters: loading and validating `rosters/*.toml`.
