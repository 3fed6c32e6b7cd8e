//! The ASCII map of `:map` in the REPL: the table in characters sized to a terminal, north (the table's
//! high y, edge 1) at the top, and a key in which every symbol drawn has one meaning.

use super::building_label;
use crate::geometry::{point_segment_dist, TerrainKind, TerrainShape, Vec2};
use crate::state::{Game, Side, TokenKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The ASCII map of `game` in at most `cols` × `rows` characters (the map keeps the table's proportions,
/// a character cell being twice as tall as wide), followed by a key in which every symbol drawn has
/// exactly one meaning.
///
/// Terrain and tokens are punctuation (`#` wood, `^` hill, `*` rocks, `~` pond, `,` field, `=` wall,
/// `+` hedge; `$` Opportunity, `|` Barricade, `%` Trap), buildings upper-case letters (the first letter
/// of the name no earlier building took), the heroes' side digits `1`–`9` and enemies lower-case
/// letters, in id order, with any letter or digit left over once those run out. A cell holding two or
/// more models shows `&`, and the key lists the models of each such cell. The key names only the
/// terrain and tokens drawn.
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
    let paint = |grid: &mut [Vec<char>], ch: char, inside: &dyn Fn(Vec2) -> bool| {
        for (r, row) in grid.iter_mut().enumerate() {
            for (c, g) in row.iter_mut().enumerate() {
                if inside(cell(c, r)) {
                    *g = ch;
                }
            }
        }
    };
    let mut grid = vec![vec![OPEN; nc]; nr];
    for t in &game.table.terrain {
        let (ch, _) = terrain_symbol(t.kind);
        match &t.shape {
            TerrainShape::Area(poly) => paint(&mut grid, ch, &|p| poly.contains(p)),
            TerrainShape::Line(seg) => paint(&mut grid, ch, &|p| {
                point_segment_dist(p, seg) <= per_col * 0.6
            }),
        }
    }
    let mut symbols = Symbols::default();
    let mut buildings = String::new();
    for b in &game.buildings {
        // Its first letter not taken by an earlier building (Town Hall T, Temple E).
        let letters: Vec<char> = b
            .name
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let ch = symbols.take(letters.into_iter());
        paint(&mut grid, ch, &|p| b.rect.contains(p));
        let _ = writeln!(buildings, "  {ch}  {}", building_label(b));
    }
    for t in &game.tokens {
        let (ch, _) = token_symbol(&t.kind);
        match &t.kind {
            // A Barricade is drawn along its length.
            TokenKind::Barricade { segment, .. } => paint(&mut grid, ch, &|p| {
                point_segment_dist(p, segment) <= per_col * 0.6
            }),
            _ => {
                let (r, c) = grid_cell(t.pos, h, per_col, nr, nc);
                grid[r][c] = ch;
            }
        }
    }
    // The terrain and tokens drawn, before models cover some of them.
    let mut drawn: Vec<char> = grid.iter().flatten().copied().collect();
    drawn.sort_unstable();
    drawn.dedup();
    // Models: each its own symbol; the models sharing a cell are listed under that cell.
    let mut at: BTreeMap<(usize, usize), Vec<(char, String)>> = BTreeMap::new();
    let mut entries: Vec<(Side, (usize, usize), char, String)> = Vec::new();
    for m in &game.models {
        let ch = if m.side == Side::Heroes {
            symbols.take("123456789".chars())
        } else {
            symbols.take('a'..='z')
        };
        let place = grid_cell(m.pos, h, per_col, nr, nc);
        let name = format!("{} ({})", m.name, m.id);
        at.entry(place).or_default().push((ch, name.clone()));
        let line = format!(
            "{name} at ({:.1}, {:.1}){}",
            m.pos.x,
            m.pos.y,
            super::model_tail(m)
        );
        entries.push((m.side, place, ch, line));
    }
    let (mut heroes, mut enemies) = (String::new(), String::new());
    for (side, place, ch, line) in entries {
        let shared = at.get(&place).is_some_and(|v| v.len() > 1);
        let (r, c) = place;
        grid[r][c] = if shared { STACK } else { ch };
        let shown = if shared {
            format!(" — in the {STACK} at row {}, column {}", r + 1, c + 1)
        } else {
            String::new()
        };
        let out = if side == Side::Heroes {
            &mut heroes
        } else {
            &mut enemies
        };
        let _ = writeln!(out, "  {ch}  {line}{shown}");
    }
    let stacks: Vec<String> = at
        .iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|((r, c), v)| {
            let who: Vec<String> = v.iter().map(|(ch, n)| format!("{ch} {n}")).collect();
            format!("  row {}, column {}: {}", r + 1, c + 1, who.join(", "))
        })
        .collect();
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
    out.push_str("Key:\n");
    let mut legend: Vec<(char, &str)> = vec![(OPEN, "open ground")];
    legend.extend(TerrainKind::ALL.iter().map(|k| terrain_symbol(*k)));
    legend.extend(TOKEN_SYMBOLS);
    for (ch, what) in legend {
        if drawn.contains(&ch) {
            let _ = writeln!(out, "  {ch}  {what}");
        }
    }
    if !stacks.is_empty() {
        let _ = writeln!(
            out,
            "  {STACK}  two or more models in one cell (listed under \"Shared cells\")"
        );
    }
    let tracks: String = game
        .tracks
        .iter()
        .map(|(name, t)| format!("  {}\n", super::track_label(name, t)))
        .collect();
    let objectives = super::battle::objective_lines(game);
    for (title, lines) in [
        ("Buildings:", &buildings),
        ("Tracks:", &tracks),
        ("Objectives:", &objectives),
        ("Heroes' side:", &heroes),
        ("Enemies:", &enemies),
    ] {
        if !lines.is_empty() {
            let _ = writeln!(out, "{title}\n{}", lines.trim_end());
        }
    }
    if !stacks.is_empty() {
        let _ = writeln!(
            out,
            "Shared cells (rows and columns counted from the map's top left):\n{}",
            stacks.join("\n")
        );
    }
    out
}

/// Open ground on the map.
const OPEN: char = '.';
/// A cell holding two or more models.
const STACK: char = '&';

/// A terrain kind's map symbol and name.
pub(super) fn terrain_symbol(kind: TerrainKind) -> (char, &'static str) {
    match kind {
        TerrainKind::Wood => ('#', "wood"),
        TerrainKind::Hill => ('^', "hill"),
        TerrainKind::Rocks => ('*', "rocks"),
        TerrainKind::Pond => ('~', "pond"),
        TerrainKind::Field => (',', "field"),
        TerrainKind::Wall => ('=', "wall"),
        TerrainKind::Hedge => ('+', "hedge"),
    }
}

/// The tokens' map symbols and names, in the key's order.
const TOKEN_SYMBOLS: [(char, &str); 3] = [
    ('$', "Opportunity token"),
    ('|', "Barricade"),
    ('%', "Trap"),
];

fn token_symbol(kind: &TokenKind) -> (char, &'static str) {
    TOKEN_SYMBOLS[match kind {
        TokenKind::Opportunity { .. } => 0,
        TokenKind::Barricade { .. } => 1,
        TokenKind::Trap { .. } => 2,
    }]
}

/// The symbols given out on one map, each once: a building or model takes the first of its
/// preferred symbols still free, else any letter or digit left, else a Greek letter.
#[derive(Default)]
struct Symbols {
    used: Vec<char>,
}

impl Symbols {
    fn take(&mut self, preferred: impl Iterator<Item = char>) -> char {
        let spare = ('A'..='Z')
            .chain('a'..='z')
            .chain('0'..='9')
            .chain('α'..='ω');
        let ch = preferred
            .chain(spare)
            .find(|c| !self.used.contains(c))
            // More pieces than symbols (over a hundred): the key still lists each.
            .unwrap_or('@');
        self.used.push(ch);
        ch
    }
}

/// The grid cell (row, column) of table point `p`, kept on the grid (a piece on the far edge is drawn
/// in the last cell rather than dropped).
fn grid_cell(p: Vec2, h: f64, per_col: f64, nr: usize, nc: usize) -> (usize, usize) {
    let c = (p.x / per_col).floor().max(0.0) as usize;
    let r = ((h - p.y) / (per_col * 2.0)).floor().max(0.0) as usize;
    (r.min(nr - 1), c.min(nc - 1))
}
