//! Pictures of a game's table for people: an ASCII map sized to a terminal (`:map` in the REPL) and an
//! SVG picture (`:render`, `village render --svg`). North (the table's high y, edge 1) is at the top.
//! It reads the game and never changes it.

use crate::geometry::{point_segment_dist, TerrainKind, TerrainShape, Vec2};
use crate::state::{Game, Side, TokenKind};
use std::fmt::Write as _;

/// The ASCII map of `game` in at most `cols` × `rows` characters (the map keeps the table's proportions,
/// a character cell being twice as tall as wide), followed by a key naming every model and building.
///
/// Terrain: `♣`-free ASCII — `#` wood, `^` hill, `*` rocks, `~` pond, `,` field, `=` wall, `+` hedge.
/// Buildings are the first letter of their name no earlier building took, in capitals (lower case when
/// Destroyed) with the Integrity and a
/// `!` for fire in the key; heroes' side models are digits/letters `1`–`9`, `a`–`z` in id order, enemies
/// `A`–`Z` then `@`; tokens: `o` Opportunity, `|` Barricade, `x` Trap.
pub fn ascii_map(game: &Game, cols: usize, rows: usize) -> String {
    let (w, h) = (game.table.width, game.table.height);
    // A cell is about 1:2 (w:h): choose the largest scale that fits both limits.
    let cols = cols.clamp(20, 400);
    let rows = rows.clamp(10, 200);
    let per_col = (w / cols as f64).max(h / (rows as f64 * 2.0));
    let nc = ((w / per_col).floor() as usize).max(1);
    let nr = ((h / (per_col * 2.0)).floor() as usize).max(1);
    // Row 0 is the north edge (high y).
    let cell = |c: usize, r: usize| {
        Vec2::new(
            (c as f64 + 0.5) * per_col,
            h - (r as f64 + 0.5) * per_col * 2.0,
        )
    };
    let mut grid = vec![vec!['.'; nc]; nr];
    for t in &game.table.terrain {
        let ch = match t.kind {
            TerrainKind::Wood => '#',
            TerrainKind::Hill => '^',
            TerrainKind::Rocks => '*',
            TerrainKind::Pond => '~',
            TerrainKind::Field => ',',
            TerrainKind::Wall => '=',
            TerrainKind::Hedge => '+',
        };
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, g) in row.iter_mut().enumerate() {
                let p = cell(c, r);
                let inside = match &t.shape {
                    TerrainShape::Area(poly) => poly.contains(p),
                    TerrainShape::Line(seg) => point_segment_dist(p, seg) <= per_col * 0.6,
                };
                if inside {
                    *g = ch;
                }
            }
        }
    }
    let mut key = String::new();
    let mut used: Vec<char> = Vec::new();
    for b in &game.buildings {
        // Its first letter not taken by an earlier building (Town Hall T, Temple E).
        let letter = b
            .name
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !used.contains(c))
            .unwrap_or('?');
        used.push(letter);
        let ch = if b.destroyed {
            letter.to_ascii_lowercase()
        } else {
            letter.to_ascii_uppercase()
        };
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, g) in row.iter_mut().enumerate() {
                if b.rect.contains(cell(c, r)) {
                    *g = ch;
                }
            }
        }
        let _ = writeln!(key, "  {ch}  {}", building_label(b));
    }
    for t in &game.tokens {
        let ch = match t.kind {
            TokenKind::Opportunity { .. } => 'o',
            TokenKind::Barricade { .. } => '|',
            TokenKind::Trap { .. } => 'x',
        };
        put(&mut grid, t.pos, h, per_col, ch);
    }
    let heroes = "123456789abcdefghijklmnopqrstuvwxyz";
    let enemies = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let (mut hi, mut ei) = (0, 0);
    for m in &game.models {
        let ch = if m.side == Side::Heroes {
            hi += 1;
            heroes.chars().nth(hi - 1).unwrap_or('&')
        } else {
            ei += 1;
            enemies.chars().nth(ei - 1).unwrap_or('@')
        };
        put(&mut grid, m.pos, h, per_col, ch);
        let mut state: Vec<String> = m
            .conditions
            .iter()
            .map(|c| c.as_str().to_string())
            .collect();
        if m.wounds > 0 {
            state.push(format!("{} Wound(s)", m.wounds));
        }
        let _ = writeln!(
            key,
            "  {ch}  {} ({}) at ({:.1}, {:.1}){}{}",
            m.name,
            m.id,
            m.pos.x,
            m.pos.y,
            m.behaviour
                .as_deref()
                .map(|b| format!(", {b}"))
                .unwrap_or_default(),
            if state.is_empty() {
                String::new()
            } else {
                format!(", {}", state.join(", "))
            }
        );
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Wave {}, round {}: {}\" × {}\" (one character ≈ {:.1}\")",
        game.wave, game.round, w, h, per_col
    );
    let border: String = "-".repeat(nc);
    let _ = writeln!(out, "+{border}+");
    for row in &grid {
        let line: String = row.iter().collect();
        let _ = writeln!(out, "|{line}|");
    }
    let _ = writeln!(out, "+{border}+");
    out.push_str(&key);
    out
}

fn put(grid: &mut [Vec<char>], p: Vec2, h: f64, per_col: f64, ch: char) {
    let c = (p.x / per_col).floor();
    let r = ((h - p.y) / (per_col * 2.0)).floor();
    if c < 0.0 || r < 0.0 {
        return;
    }
    let (c, r) = (c as usize, r as usize);
    if let Some(cell) = grid.get_mut(r).and_then(|row| row.get_mut(c)) {
        *cell = ch;
    }
}

/// The table of `game` as an SVG picture (one SVG unit per inch, north up): terrain, buildings with
/// their name, Level, Integrity and fire, tokens, and every model as its base with its name (a
/// `<title>` a browser shows on hover, and a short label).
pub fn svg(game: &Game) -> String {
    let (w, h) = (game.table.width, game.table.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 {} {}" width="{}" height="{}" font-family="sans-serif">"#,
        w + 2.0,
        h + 2.0,
        (w + 2.0) * 20.0,
        (h + 2.0) * 20.0
    );
    let _ = writeln!(
        out,
        r##"<title>The Village Must Stand: wave {}, round {}</title>
<rect x="0" y="0" width="{w}" height="{h}" fill="#dfe8c8" stroke="#555" stroke-width="0.1"/>"##,
        game.wave, game.round
    );
    for t in &game.table.terrain {
        let (fill, name) = match t.kind {
            TerrainKind::Wood => ("#6b8e4e", "wood"),
            TerrainKind::Hill => ("#c9b27c", "hill"),
            TerrainKind::Rocks => ("#8a8a8a", "rocks"),
            TerrainKind::Pond => ("#7fb2d9", "pond"),
            TerrainKind::Field => ("#e8d98a", "field"),
            TerrainKind::Wall => ("#5a4a3a", "wall"),
            TerrainKind::Hedge => ("#3f6b2f", "hedge"),
        };
        match &t.shape {
            TerrainShape::Area(poly) => {
                let pts: Vec<String> = poly
                    .pts
                    .iter()
                    .map(|p| format!("{:.2},{:.2}", p.x, h - p.y))
                    .collect();
                let _ = writeln!(
                    out,
                    r#"<polygon points="{}" fill="{fill}" opacity="0.8"><title>{name}</title></polygon>"#,
                    pts.join(" ")
                );
            }
            TerrainShape::Line(s) => {
                let _ = writeln!(
                    out,
                    r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{fill}" stroke-width="0.3"><title>{name}</title></line>"#,
                    s.a.x,
                    h - s.a.y,
                    s.b.x,
                    h - s.b.y
                );
            }
        }
    }
    for b in &game.buildings {
        let (x, y) = (b.rect.min.x, h - b.rect.max.y);
        let size = b.rect.size();
        let fill = if b.destroyed { "#777" } else { "#b5835a" };
        let c = b.rect.center();
        let label = building_label(b);
        let _ = writeln!(
            out,
            r##"<g class="building"><title>{}</title><rect x="{x:.2}" y="{y:.2}" width="{:.2}" height="{:.2}" fill="{fill}" stroke="#3b2a1a" stroke-width="0.15"/><text x="{:.2}" y="{:.2}" font-size="0.8" text-anchor="middle">{}</text><text x="{:.2}" y="{:.2}" font-size="0.7" text-anchor="middle">{}{}</text></g>"##,
            escape(&label),
            size.x,
            size.y,
            c.x,
            h - c.y - 0.2,
            escape(&b.name),
            c.x,
            h - c.y + 0.7,
            b.integrity,
            if b.fire { " (fire)" } else { "" }
        );
    }
    for t in &game.tokens {
        match &t.kind {
            TokenKind::Opportunity { .. } => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{:.2}" cy="{:.2}" r="0.4" fill="#f3d250" stroke="#a07d00" stroke-width="0.1"><title>Opportunity token {}</title></circle>"##,
                    t.pos.x,
                    h - t.pos.y,
                    t.id.0
                );
            }
            TokenKind::Barricade { segment, .. } => {
                let _ = writeln!(
                    out,
                    r##"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="#8b5a2b" stroke-width="0.4"><title>Barricade {}</title></line>"##,
                    segment.a.x,
                    h - segment.a.y,
                    segment.b.x,
                    h - segment.b.y,
                    t.id.0
                );
            }
            TokenKind::Trap { .. } => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{:.2}" y="{:.2}" width="0.6" height="0.6" fill="#444"><title>Trap {}</title></rect>"##,
                    t.pos.x - 0.3,
                    h - t.pos.y - 0.3,
                    t.id.0
                );
            }
        }
    }
    for m in &game.models {
        let fill = if m.side == Side::Heroes {
            "#3d6fd6"
        } else {
            "#c0392b"
        };
        let short: String = m
            .name
            .split_whitespace()
            .map(|w| w.chars().next().unwrap_or(' '))
            .collect();
        let _ = writeln!(
            out,
            r#"<g class="model"><title>{} ({}), Quality {}+, Combat {}{}</title><circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{fill}" stroke="black" stroke-width="0.05"/><text x="{:.2}" y="{:.2}" font-size="0.45" text-anchor="middle" fill="white">{}</text></g>"#,
            escape(&m.name),
            m.id,
            m.quality,
            m.combat,
            if m.wounds > 0 {
                format!(", {} Wound(s)", m.wounds)
            } else {
                String::new()
            },
            m.pos.x,
            h - m.pos.y,
            m.base / 2.0,
            m.pos.x,
            h - m.pos.y + 0.15,
            escape(&short)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Text safe inside an XML element or attribute.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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
