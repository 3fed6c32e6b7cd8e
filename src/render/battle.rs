//! A scenario's battle in the table picture: the deployment zones (a tinted, dashed outline with the
//! zone's name), each objective (its point and reach or its area, its name and VP, coloured by its
//! holder), and the heading's round limit and Victory Points. Nothing for the rulebook's game.

use super::svg::{escape, Doc};
use super::table::Frame;
use crate::state::{Game, Side};

const HEROES: &str = "#2f6fb3";
const ENEMIES: &str = "#b3372f";
const NOBODY: &str = "#6b6b6b";

fn side_colour(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::Heroes) => HEROES,
        Some(Side::Enemies) => ENEMIES,
        None => NOBODY,
    }
}

/// The picture's heading: the wave and round (of the round limit), then the Supplies, or a battle's
/// Victory Points.
pub fn heading(game: &Game) -> String {
    let Some(b) = game.battle.as_deref() else {
        return format!(
            "Wave {}, round {} — Supplies {}",
            game.wave, game.round, game.supplies
        );
    };
    let round = match b.round_limit {
        Some(l) => format!("round {} of {l}", game.round),
        None => format!("round {}", game.round),
    };
    format!(
        "{} — wave {}, {round} — VP heroes {}, enemies {}",
        b.scenario, game.wave, b.vp[0], b.vp[1]
    )
}

/// Each deployment zone: its outline tinted in its side's colour, dashed, its name inside.
pub fn zones(doc: &mut Doc, game: &Game, f: &Frame) {
    let Some(b) = game.battle.as_deref() else {
        return;
    };
    for z in &b.zones {
        let colour = side_colour(Some(z.side));
        let pts: Vec<String> = z
            .area
            .pts
            .iter()
            .map(|p| format!("{:.1},{:.1}", f.x(p.x), f.y(p.y)))
            .collect();
        let who = match z.side {
            Side::Heroes => "the heroes' deployment zone",
            Side::Enemies => "an enemies' deployment zone",
        };
        doc.raw(&format!(
            r#"<g class="zone"><title>{}: {who}</title><polygon points="{}" fill="{colour}" fill-opacity="0.10" stroke="{colour}" stroke-width="2" stroke-dasharray="8 5"/>"#,
            escape(&z.name),
            pts.join(" ")
        ));
        let top = z.area.bounds();
        doc.text(
            f.x(top.min.x) + 4.0,
            f.y(top.max.y) + 14.0,
            12.0,
            &format!(r#"fill="{colour}" font-style="italic""#),
            &z.name,
        );
        doc.raw("</g>");
    }
}

/// Each objective: an area outlined, or a point with its reach ringed; a flag in its holder's colour
/// with its name and VP.
pub fn objectives(doc: &mut Doc, game: &Game, f: &Frame) {
    let Some(b) = game.battle.as_deref() else {
        return;
    };
    for o in &b.objectives {
        let colour = side_colour(o.holder);
        let holder = held_by(o.holder);
        let scored = if o.each_round {
            "each round"
        } else {
            "at the end"
        };
        doc.raw(&format!(
            r#"<g class="objective"><title>{}: {} VP {scored}, {holder}</title>"#,
            escape(&o.name),
            o.vp
        ));
        match &o.area {
            Some(a) => {
                let pts: Vec<String> = a
                    .pts
                    .iter()
                    .map(|p| format!("{:.1},{:.1}", f.x(p.x), f.y(p.y)))
                    .collect();
                doc.raw(&format!(
                    r#"<polygon points="{}" fill="{colour}" fill-opacity="0.18" stroke="{colour}" stroke-width="2.5"/>"#,
                    pts.join(" ")
                ));
            }
            None => doc.raw(&format!(
                r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{colour}" fill-opacity="0.12" stroke="{colour}" stroke-width="1.5" stroke-dasharray="4 3"/>"#,
                f.x(o.at.x),
                f.y(o.at.y),
                o.reach * f.s
            )),
        }
        let (x, y) = (f.x(o.at.x), f.y(o.at.y));
        doc.raw(&format!(
            r##"<path d="M{x:.1},{y:.1} v-22 l14,5 l-14,5" fill="{colour}" stroke="#222" stroke-width="1.2"/>"##
        ));
        let label = if o.vp > 0 {
            format!("{} ({} VP)", o.name, o.vp)
        } else {
            o.name.clone()
        };
        doc.text(
            x + 16.0,
            y - 12.0,
            12.0,
            r##"font-weight="bold" fill="#111" stroke="#fff" stroke-width="3" paint-order="stroke""##,
            &label,
        );
        doc.raw("</g>");
    }
}

/// The battle's standing and its objectives for `:map`, a line each: the round limit and Victory
/// Points, then each objective's place, VP and holder, then each zone.
pub fn objective_lines(game: &Game) -> String {
    let Some(b) = game.battle.as_deref() else {
        return String::new();
    };
    let mut out = format!("  VP heroes {}, enemies {}", b.vp[0], b.vp[1]);
    if let Some(l) = b.round_limit {
        out.push_str(&format!(" — round {} of {l}", game.round));
    }
    out.push('\n');
    for o in &b.objectives {
        let holder = held_by(o.holder);
        let place = match &o.area {
            Some(a) => {
                let r = a.bounds();
                format!(
                    "the area ({:.1}, {:.1})–({:.1}, {:.1})",
                    r.min.x, r.min.y, r.max.x, r.max.y
                )
            }
            None => format!("within {}\" of ({:.1}, {:.1})", o.reach, o.at.x, o.at.y),
        };
        let scored = if o.each_round {
            "each round"
        } else {
            "at the end"
        };
        out.push_str(&format!(
            "  {}: {place}, {} VP {scored}, {holder}\n",
            o.name, o.vp
        ));
    }
    for z in &b.zones {
        let r = z.area.bounds();
        let side = z.side.as_str();
        out.push_str(&format!(
            "  zone {} ({side}): ({:.1}, {:.1})–({:.1}, {:.1})\n",
            z.name, r.min.x, r.min.y, r.max.x, r.max.y
        ));
    }
    out
}

/// Who holds an objective, in words.
fn held_by(holder: Option<Side>) -> &'static str {
    match holder {
        Some(Side::Heroes) => "held by the heroes",
        Some(Side::Enemies) => "held by the enemies",
        None => "held by nobody",
    }
}
