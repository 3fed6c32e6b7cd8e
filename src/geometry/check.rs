//! Refusing points and distances that come from outside the kernel (a script, an order, the REPL, a
//! save) before any geometry sees them: NaN and infinities, points off the table, negative distances.
//!
//! Geometry itself assumes finite inputs; every boundary where a number typed or computed by a user
//! becomes a `Vec2` or a distance calls these, so the error names the value and its valid range instead
//! of a comparison panicking somewhere deep in a move.

use super::shapes::Vec2;
use super::table::Table;
use thiserror::Error;

/// Why a point or a distance given from outside was refused. `what` names where it was given (an order's
/// key, a REPL argument, an API option).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum InputError {
    /// x or y is NaN or infinite.
    #[error(
        "{what} = ({}, {}) is not a point on the table: x and y must be finite numbers",
        num(.x),
        num(.y)
    )]
    NotFinite { what: String, x: f64, y: f64 },
    /// A finite point outside the table.
    #[error(
        "{what} = ({}, {}) is off the table: x must be 0 to {width}, y 0 to {height} (inches)",
        num(.x),
        num(.y)
    )]
    OffTable {
        what: String,
        x: f64,
        y: f64,
        width: f64,
        height: f64,
    },
    /// A distance that is NaN, infinite or negative.
    #[error(
        "{what} = {} is not a distance: it must be a finite number of inches, 0 or more",
        num(.value)
    )]
    BadDistance { what: String, value: f64 },
}

/// A number as an error shows it: plainly, or in exponent form when huge or tiny (1e300, not 301
/// digits).
fn num(v: &f64) -> String {
    let a = v.abs();
    if a.is_finite() && (a >= 1e9 || (a > 0.0 && a < 1e-4)) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}

/// `p` when both coordinates are finite numbers.
pub fn finite_point(what: &str, p: Vec2) -> Result<Vec2, InputError> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(p)
    } else {
        Err(InputError::NotFinite {
            what: what.to_string(),
            x: p.x,
            y: p.y,
        })
    }
}

/// `p` when it is finite and on `table` (edges included: [0, width] × [0, height]).
pub fn point_on(table: &Table, what: &str, p: Vec2) -> Result<Vec2, InputError> {
    let p = finite_point(what, p)?;
    let inside = (0.0..=table.width).contains(&p.x) && (0.0..=table.height).contains(&p.y);
    if inside {
        Ok(p)
    } else {
        Err(InputError::OffTable {
            what: what.to_string(),
            x: p.x,
            y: p.y,
            width: table.width,
            height: table.height,
        })
    }
}

/// `d` when it is a finite number of inches, 0 or more.
pub fn distance(what: &str, d: f64) -> Result<f64, InputError> {
    if d.is_finite() && d >= 0.0 {
        Ok(d)
    } else {
        Err(InputError::BadDistance {
            what: what.to_string(),
            value: d,
        })
    }
}

/// `v` limited to [lo, hi] as `f64::clamp` does for valid bounds, but never panicking: a NaN bound or
/// `lo > hi` (which only malformed input produces) leaves the comparisons false instead of aborting.
pub fn clamp_to(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}
