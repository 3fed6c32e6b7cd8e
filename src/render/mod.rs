//! Pictures for people: the ASCII map of a game's table (`:map`), the SVG picture of a table at any
//! moment (`:render`, `village render --svg`) and SVG charts of results (`village sim --svg`,
//! `village odds ... --svg`). Everything here reads what it is given and changes nothing; the SVGs are
//! self-contained files (no scripts, fonts or links to fetch).

mod ascii;
mod battle;
pub mod chart;
mod svg;
pub mod sweep;
mod table;

pub use ascii::ascii_map;
pub use svg::text_width;
pub use table::{short_names_of, svg, svg_with, SvgOptions};

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

/// A track in words: its marker's space among its bounds, where the game is lost, and the spaces with
/// the marker's in brackets: "threat: 9 of 0–12, the game is lost at 0 — 0 1 2 3 4 5 6 7 8 [9] 10 11 12".
fn track_label(name: &str, t: &crate::state::TrackState) -> String {
    let lost = t
        .loses_at
        .map(|at| format!(", the game is lost at {at}"))
        .unwrap_or_default();
    let spaces: Vec<String> = (t.min..=t.max)
        .map(|i| {
            if i == t.value {
                format!("[{i}]")
            } else {
                i.to_string()
            }
        })
        .collect();
    format!(
        "{name}: {} of {}–{}{lost} — {}",
        t.value,
        t.min,
        t.max,
        spaces.join(" ")
    )
}

/// What follows a model's name where a picture describes it: ", Behaviour, 2 Wounds, engaged" (its
/// Behaviour, Wounds and conditions; empty when it has none of them).
fn model_tail(m: &crate::state::Model) -> String {
    let mut parts: Vec<String> = m.behaviour.iter().cloned().collect();
    if m.wounds > 0 {
        parts.push(format!(
            "{} Wound{}",
            m.wounds,
            if m.wounds == 1 { "" } else { "s" }
        ));
    }
    parts.extend(m.conditions.iter().map(|c| c.as_str().to_string()));
    parts.iter().map(|p| format!(", {p}")).collect()
}
