//! Pictures for people: the ASCII map of a game's table (`:map`), the SVG picture of a table at any
//! moment (`:render`, `village render --svg`) and SVG charts of results (`village sim --svg`,
//! `village odds ... --svg`). Everything here reads what it is given and changes nothing; the SVGs are
//! self-contained files (no scripts, fonts or links to fetch).

mod ascii;
pub mod chart;
mod svg;
mod table;

pub use ascii::ascii_map;
pub use svg::text_width;
pub use table::{svg, svg_with, SvgOptions};

/// A building in words: name, Level, Integrity, fire, Destroyed.
fn building_label(b: &crate::state::Building) -> String {
    format!(
        "{} (Level {}): Integrity {}/{}{}{}",
        b.name,
        b.level,
        b.integrity,
        b.max_integrity,
        if b.fire { ", burning" } else { "" },
        if b.destroyed { ", Destroyed" } else { "" }
    )
}
