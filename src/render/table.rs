//! The table as an SVG picture at any moment of a game (`:render`, `village render --svg`, a replay's
//! frames): terrain, buildings with their name, Level, Integrity and fire, tokens each with its own
//! symbol, every model marked by side with its short name and id (the number the log gives it) and
//! its Wounds and conditions drawn on it; the four edges named as the log names them, coordinates and a
//! scale in inches, and a legend. North (the table's high y, edge 1) is at the top. A pure function of
//! the game: the same state always gives the same picture.

use super::ascii::terrain_symbol;
use super::svg::{escape, text_width, Doc};
use crate::geometry::{Segment, TerrainKind, TerrainShape, Vec2};
use crate::roster::ProfileKind;
use crate::state::{Building, Condition, Game, Model, TokenKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the picture holds besides the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SvgOptions {
    /// The legend panel to the right of the table (terrain, buildings, tokens, models, their state and
    /// the short names).
    pub legend: bool,
    /// The heading line above the table (wave, round and Supplies of the game drawn); a viewer that
    /// draws the live state over a static table leaves it out.
    pub heading: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            legend: true,
            heading: true,
        }
    }
}

/// The table of `game` as an SVG picture with its legend.
pub fn svg(game: &Game) -> String {
    svg_with(game, &SvgOptions::default())
}

/// The edges as the rules number them (1 to 4 clockwise from north) and as the log names them.
const EDGES: [&str; 4] = ["north", "east", "south", "west"];

/// Pixels the table's longer side takes.
const TABLE_PX: f64 = 1008.0;
const MARGIN_LEFT: f64 = 64.0;
const MARGIN_TOP: f64 = 72.0;
const MARGIN_RIGHT: f64 = 56.0;
const MARGIN_BOTTOM: f64 = 104.0;
const LEGEND_WIDTH: f64 = 350.0;
/// Grid lines and coordinate labels every this many inches.
const GRID_INCHES: f64 = 6.0;

const HERO_FILL: &str = "#2f5fc4";
const DEFENDER_FILL: &str = "#2e8b57";
const ENEMY_FILL: &str = "#b8322a";
const WOUND_FILL: &str = "#e01b1b";
const BUILDING_FILL: &str = "#c9a27a";
const DESTROYED_FILL: &str = "#9a9a9a";
const BARRICADE: &str = "#7a4a1e";
const WALL_SPELL: &str = "#7d3c98";

/// The table of `game` as an SVG picture, as `opts` says.
pub fn svg_with(game: &Game, opts: &SvgOptions) -> String {
    let (w, h) = (game.table.width, game.table.height);
    let s = (TABLE_PX / w.max(h).max(1.0)).clamp(4.0, 80.0);
    let frame = Frame { s, h };
    let (tw, th) = (w * s, h * s);
    let names = short_names(game);
    let legend_x = MARGIN_LEFT + tw + MARGIN_RIGHT;
    let legend_rows = legend_rows(&names);
    let legend_h = if opts.legend {
        legend_height(&legend_rows)
    } else {
        0.0
    };
    let width = legend_x + if opts.legend { LEGEND_WIDTH } else { 0.0 };
    let height = (MARGIN_TOP + th + MARGIN_BOTTOM).max(MARGIN_TOP + legend_h + 16.0);
    let mut doc = Doc::new(
        width,
        height,
        &format!(
            "The Village Must Stand: wave {}, round {}",
            game.wave, game.round
        ),
    );
    if opts.heading {
        doc.text(
            MARGIN_LEFT,
            26.0,
            18.0,
            r#"font-weight="bold" class="heading""#,
            &super::battle::heading(game),
        );
    }
    if opts.heading {
        tracks(&mut doc, game, legend_x);
    }
    grid(&mut doc, &frame, w, h);
    super::battle::zones(&mut doc, game, &frame);
    terrain(&mut doc, game, &frame);
    super::battle::objectives(&mut doc, game, &frame);
    for b in &game.buildings {
        building(&mut doc, b, &frame);
    }
    tokens(&mut doc, game, &frame);
    for m in &game.models {
        model(&mut doc, m, &names, &frame);
    }
    edges(&mut doc, tw, th);
    scale_bar(&mut doc, s, th);
    if opts.legend {
        legend(&mut doc, legend_x, &legend_rows);
    }
    doc.finish()
}

/// The tracks in play, in the top margin right of the heading and ending where the table does: one
/// row of numbered spaces a track, the marker's space filled, the losing space ringed, each row titled
/// with the track's name and its words.
fn tracks(doc: &mut Doc, game: &Game, right: f64) {
    const CELL: f64 = 18.0;
    for (row, (name, t)) in game.tracks.iter().enumerate() {
        let spaces = (t.max - t.min + 1).max(1);
        let y = 8.0 + row as f64 * (CELL + 4.0);
        let x0 = right - MARGIN_RIGHT - f64::from(spaces) * CELL;
        doc.raw(&format!(
            r#"<g class="track"><title>{}</title>"#,
            escape(&super::track_label(name, t))
        ));
        doc.text(
            x0 - 6.0,
            y + CELL * 0.72,
            13.0,
            r#"text-anchor="end" font-weight="bold""#,
            name,
        );
        for (k, space) in (t.min..=t.max).enumerate() {
            let x = x0 + k as f64 * CELL;
            let (fill, ink) = if space == t.value {
                (ENEMY_FILL, "#fff")
            } else {
                ("#f4f1e6", "#333")
            };
            let stroke = if t.loses_at == Some(space) {
                r##"stroke="#111" stroke-width="2.5""##
            } else {
                r##"stroke="#777" stroke-width="1""##
            };
            doc.raw(&format!(
                r#"<rect x="{x:.1}" y="{y:.1}" width="{CELL:.1}" height="{CELL:.1}" fill="{fill}" {stroke}/>"#
            ));
            doc.text(
                x + CELL / 2.0,
                y + CELL * 0.72,
                10.0,
                &format!(r#"text-anchor="middle" fill="{ink}""#),
                &space.to_string(),
            );
        }
        doc.raw("</g>");
    }
}

/// Table inches to picture pixels.
pub(super) struct Frame {
    /// Pixels per inch.
    pub(super) s: f64,
    /// The table's height in inches (y runs north, pixels south).
    h: f64,
}

impl Frame {
    pub(super) fn x(&self, x: f64) -> f64 {
        MARGIN_LEFT + x * self.s
    }
    pub(super) fn y(&self, y: f64) -> f64 {
        MARGIN_TOP + (self.h - y) * self.s
    }
    fn p(&self, p: Vec2) -> (f64, f64) {
        (self.x(p.x), self.y(p.y))
    }
}

/// The table's cloth, faint grid lines every [`GRID_INCHES`] and their coordinates along the west and
/// south edges (inches from the south-west corner, as the log gives positions).
fn grid(doc: &mut Doc, f: &Frame, w: f64, h: f64) {
    doc.raw(&format!(
        r##"<rect class="table" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e6eed2" stroke="#444" stroke-width="2"/>"##,
        f.x(0.0),
        f.y(h),
        w * f.s,
        h * f.s
    ));
    let mut g = String::from(r##"<g class="grid" stroke="#000" stroke-opacity="0.10">"##);
    let mut v = 0.0;
    while v <= w + 1e-9 {
        let _ = write!(
            g,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#,
            f.y(h),
            f.y(0.0),
            x = f.x(v)
        );
        doc.text(
            f.x(v),
            f.y(0.0) + 16.0,
            11.0,
            r##"text-anchor="middle" fill="#333" class="tick""##,
            &format!("{v:.0}"),
        );
        v += GRID_INCHES;
    }
    let mut v = 0.0;
    while v <= h + 1e-9 {
        let _ = write!(
            g,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
            f.x(0.0),
            f.x(w),
            y = f.y(v)
        );
        doc.text(
            f.x(0.0) - 6.0,
            f.y(v) + 4.0,
            11.0,
            r##"text-anchor="end" fill="#333" class="tick""##,
            &format!("{v:.0}"),
        );
        v += GRID_INCHES;
    }
    g.push_str("</g>");
    doc.raw(&g);
}

/// A terrain kind's colour, and whether it is drawn as a line.
fn terrain_style(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Wood => "#5f8a45",
        TerrainKind::Hill => "#cdb27a",
        TerrainKind::Rocks => "#8c8c8c",
        TerrainKind::Pond => "#7fb2d9",
        TerrainKind::Field => "#ecdc8c",
        TerrainKind::Wall => "#6b6b6b",
        TerrainKind::Hedge => "#2f5e22",
    }
}

/// A linear piece's stroke: a stone wall is a grey line with white joints, a hedge a dark green one.
fn line_style(kind: TerrainKind, s: f64) -> String {
    let width = (0.3 * s).max(4.0);
    match kind {
        TerrainKind::Wall => format!(
            r##"stroke="{}" stroke-width="{width:.1}" stroke-linecap="butt""##,
            terrain_style(kind)
        ),
        _ => format!(
            r##"stroke="{}" stroke-width="{width:.1}" stroke-linecap="round""##,
            terrain_style(kind)
        ),
    }
}

fn terrain(doc: &mut Doc, game: &Game, f: &Frame) {
    for t in &game.table.terrain {
        let name = terrain_symbol(t.kind).1;
        let fill = terrain_style(t.kind);
        match &t.shape {
            TerrainShape::Area(poly) => {
                let pts: Vec<String> = poly
                    .pts
                    .iter()
                    .map(|p| format!("{:.1},{:.1}", f.x(p.x), f.y(p.y)))
                    .collect();
                doc.raw(&format!(
                    r##"<polygon class="terrain" points="{}" fill="{fill}" stroke="#00000040" stroke-width="1"><title>{name}</title></polygon>"##,
                    pts.join(" ")
                ));
            }
            TerrainShape::Line(seg) => {
                let joints = if t.kind == TerrainKind::Wall {
                    format!(
                        r##"{}<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#ffffff" stroke-width="1.5" stroke-dasharray="2 7"/>"##,
                        "",
                        f.x(seg.a.x),
                        f.y(seg.a.y),
                        f.x(seg.b.x),
                        f.y(seg.b.y)
                    )
                } else {
                    String::new()
                };
                doc.raw(&format!(
                    r#"<g class="terrain"><title>{name}</title>{}{joints}</g>"#,
                    segment_line(seg, f, &line_style(t.kind, f.s))
                ));
            }
        }
    }
}

fn segment_line(seg: &Segment, f: &Frame, style: &str) -> String {
    format!(
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {style}/>"#,
        f.x(seg.a.x),
        f.y(seg.a.y),
        f.x(seg.b.x),
        f.y(seg.b.y)
    )
}

/// How a building's label is set: its lines, their size, and whether they run up the building (a tall,
/// narrow one).
struct Fitted {
    lines: Vec<String>,
    size: f64,
    rotated: bool,
}

/// The largest label that fits a `w` × `h` pixel building: the name (on two lines if that fits better,
/// shortened only when nothing else fits) and the status line, from 13 pixels down to 7.
fn fit_label(name: &str, status: &str, w: f64, h: f64) -> Fitted {
    let pad = 3.0;
    // Every line but the status is bold.
    let lines_fit = |lines: &[String], size: f64, aw: f64, ah: f64| {
        let last = lines.len() - 1;
        lines
            .iter()
            .enumerate()
            .all(|(i, l)| text_width(l, size, i < last || l != status) <= aw - 2.0 * pad)
            && lines.len() as f64 * size * 1.2 <= ah - 2.0 * pad
    };
    let mut shapes: Vec<Vec<String>> = vec![vec![name.to_string(), status.to_string()]];
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.len() > 1 {
        // Break where the two lines are most even.
        let split = (1..words.len())
            .min_by_key(|&i| {
                let a = words[..i].join(" ").chars().count();
                let b = words[i..].join(" ").chars().count();
                a.abs_diff(b)
            })
            .unwrap_or(1);
        shapes.push(vec![
            words[..split].join(" "),
            words[split..].join(" "),
            status.to_string(),
        ]);
    }
    let mut size = 13.0;
    while size >= 7.0 {
        for rotated in [false, true] {
            let (aw, ah) = if rotated { (h, w) } else { (w, h) };
            // Turned only when the building is taller than wide.
            if rotated && h <= w {
                continue;
            }
            for lines in &shapes {
                if lines_fit(lines, size, aw, ah) {
                    return Fitted {
                        lines: lines.clone(),
                        size,
                        rotated,
                    };
                }
            }
        }
        size -= 0.5;
    }
    // Nothing fits at 7 pixels: the name shortened letter by letter (with a full stop), along the
    // building's longer side.
    let rotated = h > w;
    let (aw, ah) = if rotated { (h, w) } else { (w, h) };
    let size = 7.0;
    let chars: Vec<char> = name.chars().collect();
    let mut cut = chars.len();
    let mut short = name.to_string();
    while cut > 1 && text_width(&short, size, true) > aw - 2.0 * pad {
        cut -= 1;
        short = chars[..cut].iter().collect::<String>() + ".";
    }
    let lines = if lines_fit(&[short.clone(), status.to_string()], size, aw, ah) {
        vec![short, status.to_string()]
    } else {
        vec![short]
    };
    Fitted {
        lines,
        size,
        rotated,
    }
}

/// The status line of a building: "Lv 1 · 8/8" (Level, Integrity of its starting Integrity).
fn building_status(b: &Building) -> String {
    if b.destroyed {
        "Destroyed".to_string()
    } else {
        format!("Lv {} · {}/{}", b.level, b.integrity, b.max_integrity)
    }
}

fn building(doc: &mut Doc, b: &Building, f: &Frame) {
    let r = &b.rect;
    let (x, y) = (f.x(r.min.x), f.y(r.max.y));
    let (w, h) = (r.size().x * f.s, r.size().y * f.s);
    let fill = if b.destroyed {
        DESTROYED_FILL
    } else {
        BUILDING_FILL
    };
    let stroke = if b.fire {
        r##"stroke="#e8590c" stroke-width="3""##
    } else {
        r##"stroke="#3b2a1a" stroke-width="2""##
    };
    let mut g = format!(
        r#"<g class="building" data-building="{}"><title>{}</title><rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" {stroke}/>"#,
        escape(&b.name),
        escape(&super::building_label(b))
    );
    if b.destroyed {
        // Rubble: the rect crossed out.
        let _ = write!(
            g,
            r##"<path d="M{x:.1},{y:.1} L{:.1},{:.1} M{:.1},{y:.1} L{x:.1},{:.1}" stroke="#555" stroke-width="1.5"/>"##,
            x + w,
            y + h,
            x + w,
            y + h
        );
    }
    let fit = fit_label(&b.name, &building_status(b), w, h);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let line_h = fit.size * 1.2;
    let first = -(fit.lines.len() as f64 - 1.0) * line_h / 2.0 + fit.size * 0.36;
    let turn = if fit.rotated {
        format!(r#" transform="rotate(-90 {cx:.1} {cy:.1})""#)
    } else {
        String::new()
    };
    let status_line = fit.lines.len().saturating_sub(1);
    let has_status = fit.lines.last().map(String::as_str) == Some(&building_status(b));
    let _ = write!(
        g,
        r##"<text class="building-label" x="{cx:.1}" y="{cy:.1}" font-size="{:.1}" text-anchor="middle" fill="#1d130a"{turn}>"##,
        fit.size
    );
    for (i, line) in fit.lines.iter().enumerate() {
        let weight = if has_status && i == status_line {
            ""
        } else {
            r#" font-weight="bold""#
        };
        let _ = write!(
            g,
            r#"<tspan x="{cx:.1}" y="{:.1}"{weight}>{}</tspan>"#,
            cy + first + i as f64 * line_h,
            escape(line)
        );
    }
    g.push_str("</text>");
    if b.fire {
        let size = (w.min(h) * 0.35).clamp(10.0, 22.0);
        g.push_str(&flame(x + w - size * 0.6, y + size * 0.1, size));
    }
    g.push_str("</g>");
    doc.raw(&g);
}

/// A flame of `size` pixels whose top is at (x, y): the fire token.
fn flame(x: f64, y: f64, size: f64) -> String {
    let k = size / 20.0;
    format!(
        r##"<g class="fire" transform="translate({:.1},{y:.1}) scale({k:.3})"><title>fire token</title><path d="M0,0 C8,6 10,10 8,16 C7,19 3,20 0,20 C-3,20 -7,19 -8,16 C-10,10 -5,8 -4,3 C-2,7 -1,8 0,9 C1,6 2,3 0,0 Z" fill="#f76707" stroke="#a61e1e" stroke-width="1.2"/><path d="M0,10 C3,13 4,15 3,17 C2,19 -2,19 -3,17 C-4,15 -2,13 0,10 Z" fill="#ffd43b"/></g>"##,
        x
    )
}

/// A five-pointed star of outer radius `r` at (x, y): the Opportunity token.
fn star(x: f64, y: f64, r: f64, fill: &str, stroke: &str) -> String {
    let pts: Vec<String> = (0..10)
        .map(|i| {
            let a = std::f64::consts::PI * (i as f64) / 5.0 - std::f64::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * 0.45 };
            format!("{:.1},{:.1}", x + rr * a.cos(), y + rr * a.sin())
        })
        .collect();
    format!(
        r#"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>"#,
        pts.join(" ")
    )
}

/// A Trap: a black triangle with a white "!" (its trigger area is drawn apart, dashed).
fn trap_mark(x: f64, y: f64, r: f64) -> String {
    format!(
        r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="#222" stroke="#fff" stroke-width="1"/><text x="{x:.1}" y="{:.1}" font-size="{:.1}" font-weight="bold" text-anchor="middle" fill="#fff">!</text>"##,
        x,
        y - r,
        x + r * 0.95,
        y + r * 0.7,
        x - r * 0.95,
        y + r * 0.7,
        y + r * 0.55,
        r * 1.1
    )
}

/// The two linear tokens' strokes: a Barricade is a brown fence (a bar with cross ticks), a Wall spell
/// a dashed purple line.
fn barricade_style(wall_spell: bool, s: f64) -> (String, String) {
    let width = (0.3 * s).max(5.0);
    if wall_spell {
        (
            format!(r#"stroke="{WALL_SPELL}" stroke-width="{width:.1}" stroke-linecap="round""#),
            format!(
                r##"stroke="#e9d5f5" stroke-width="{:.1}" stroke-dasharray="3 5""##,
                width * 0.35
            ),
        )
    } else {
        (
            format!(r#"stroke="{BARRICADE}" stroke-width="{width:.1}" stroke-linecap="butt""#),
            format!(
                r##"stroke="#2b1a08" stroke-width="{:.1}" stroke-dasharray="2 6""##,
                width * 1.8
            ),
        )
    }
}

fn tokens(doc: &mut Doc, game: &Game, f: &Frame) {
    for t in &game.tokens {
        let (x, y) = f.p(t.pos);
        match &t.kind {
            TokenKind::Opportunity { revealed } => {
                let (what, fill, stroke) = if *revealed {
                    ("Opportunity token (revealed)", "#ffd43b", "#c92a2a")
                } else {
                    ("Opportunity token (face down)", "#ffd43b", "#8a6d00")
                };
                let ring = if *revealed {
                    format!(
                        r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#c92a2a" stroke-width="1.5"/>"##,
                        0.42 * f.s + 3.0
                    )
                } else {
                    String::new()
                };
                doc.raw(&format!(
                    r#"<g class="token opportunity" data-token="{}"><title>{what} {}</title>{ring}{}</g>"#,
                    t.id.0,
                    t.id.0,
                    star(x, y, (0.42 * f.s).max(7.0), fill, stroke)
                ));
            }
            TokenKind::Barricade {
                segment,
                integrity,
                caster,
                ..
            } => {
                let wall = caster.is_some();
                let (under, over) = barricade_style(wall, f.s);
                let what = if wall { "Wall spell" } else { "Barricade" };
                doc.raw(&format!(
                    r#"<g class="token {}" data-token="{}"><title>{what} {}: Integrity {integrity}</title>{}{}</g>"#,
                    if wall { "wall-spell" } else { "barricade" },
                    t.id.0,
                    t.id.0,
                    segment_line(segment, f, &under),
                    segment_line(segment, f, &over)
                ));
            }
            TokenKind::Trap { radius, .. } => {
                doc.raw(&format!(
                    r##"<g class="token trap" data-token="{}"><title>Trap {}</title><circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#222" stroke-width="1" stroke-dasharray="4 3"/>{}</g>"##,
                    t.id.0,
                    t.id.0,
                    radius * f.s,
                    trap_mark(x, y, (0.35 * f.s).max(7.0))
                ));
            }
        }
    }
}

/// Each model's short name: the initials of its name's capitalised words ("Orc Warrior" OW, "Tobin the
/// Marksman" TM), lengthened from its last word where two different names would share one ("Bram the
/// Smith" BS, "Blazing Skeleton" BSk), given in id order so a model keeps its short name as the game
/// goes on. With the id beside it the label is unique: OW12 and OW13 are two Orc Warriors.
fn short_names(game: &Game) -> BTreeMap<String, String> {
    short_names_of(game.models.iter())
}

/// [`short_names`] for any models (a replay's: every model that comes on the table in the game), by
/// name.
pub fn short_names_of<'m>(models: impl Iterator<Item = &'m Model>) -> BTreeMap<String, String> {
    let mut given: BTreeMap<String, String> = BTreeMap::new();
    let mut models: Vec<&Model> = models.collect();
    models.sort_by_key(|m| m.id);
    for m in models {
        if given.contains_key(&m.name) {
            continue;
        }
        let words: Vec<&str> = m.name.split_whitespace().collect();
        let mut initials: String = words
            .iter()
            .filter(|w| w.starts_with(|c: char| c.is_uppercase()))
            .filter_map(|w| w.chars().next())
            .collect();
        if initials.is_empty() {
            initials = words
                .first()
                .and_then(|w| w.chars().next())
                .map(|c| c.to_uppercase().collect())
                .unwrap_or_else(|| "?".to_string());
        }
        let last: Vec<char> = words.last().map_or(Vec::new(), |w| w.chars().collect());
        // A one-word name reads better with two letters: "Zombie" Zo.
        let mut candidates = Vec::new();
        if words.len() > 1 {
            candidates.push(initials.clone());
        }
        for n in 1..last.len().min(4) {
            candidates.push(format!(
                "{initials}{}",
                last[1..=n].iter().collect::<String>()
            ));
        }
        let taken = |c: &String| given.values().any(|v| v == c);
        let short = candidates
            .into_iter()
            .find(|c| !taken(c))
            .unwrap_or_else(|| {
                (2..)
                    .map(|i| format!("{initials}{i}"))
                    .find(|c| !taken(c))
                    .unwrap_or(initials.clone())
            });
        given.insert(m.name.clone(), short);
    }
    given
}

fn model_fill(kind: ProfileKind) -> &'static str {
    match kind {
        ProfileKind::Hero => HERO_FILL,
        ProfileKind::Defender => DEFENDER_FILL,
        ProfileKind::Enemy => ENEMY_FILL,
    }
}

/// A condition's badge: its letter and colour.
fn condition_badge(c: Condition) -> (&'static str, &'static str) {
    match c {
        Condition::Defenseless => ("D", "#e67700"),
        Condition::Transfixed => ("T", "#7048e8"),
        Condition::Entangled => ("E", "#0c8599"),
    }
}

/// A model: its base in its side's colour (a hero with a gold rim), its short name over its id, a red
/// dot on the rim for each Wound and a lettered badge for each condition.
fn model(doc: &mut Doc, m: &Model, names: &BTreeMap<String, String>, f: &Frame) {
    let (x, y) = f.p(m.pos);
    let r = (m.base / 2.0 * f.s).max(6.0);
    let short = names.get(&m.name).map_or("?", String::as_str);
    let title = format!(
        "{} ({}): Quality {}+, Combat {}{}",
        m.name,
        m.id,
        m.quality,
        m.combat,
        super::model_tail(m)
    );
    let rim = if m.kind == ProfileKind::Hero {
        r##"stroke="#f2c12e" stroke-width="2.5""##
    } else {
        r##"stroke="#111" stroke-width="1.2""##
    };
    let size = (r * 0.72).clamp(7.0, 14.0);
    let mut g = format!(
        r#"<g class="model" data-model="{}" data-side="{}" data-x="{}" data-y="{}"><title>{}</title><circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{}" {rim}/>"#,
        m.id,
        m.side.as_str(),
        m.pos.x,
        m.pos.y,
        escape(&title),
        model_fill(m.kind)
    );
    // Each line shrunk to the base's width where it would run over its rim ("HHW", "123").
    let fit = |t: &str| {
        let room = 1.7 * r;
        let w = text_width(t, size, true);
        if w > room {
            size * room / w
        } else {
            size
        }
    };
    let id = m.id.to_string();
    let _ = write!(
        g,
        r##"<text class="model-label" x="{x:.1}" y="{y:.1}" font-size="{size:.1}" font-weight="bold" text-anchor="middle" fill="#fff"><tspan x="{x:.1}" y="{:.1}" font-size="{:.1}">{}</tspan><tspan x="{x:.1}" y="{:.1}" font-size="{:.1}">{id}</tspan></text>"##,
        y - 0.1 * size,
        fit(short),
        escape(short),
        y + 0.9 * size,
        fit(&id),
    );
    // Wounds: dots along the upper rim from the right, clockwise from one o'clock to eleven.
    let shown = usize::from(m.wounds).min(5);
    for i in 0..shown {
        let a = (-60.0 - 30.0 * i as f64).to_radians();
        let _ = write!(
            g,
            r##"<circle class="wound" cx="{:.1}" cy="{:.1}" r="{:.1}" fill="{WOUND_FILL}" stroke="#fff" stroke-width="1"/>"##,
            x + r * a.cos(),
            y + r * a.sin(),
            (r * 0.3).clamp(3.5, 6.0)
        );
    }
    if usize::from(m.wounds) > shown {
        let _ = write!(
            g,
            r##"<text x="{:.1}" y="{:.1}" font-size="9" font-weight="bold" fill="{WOUND_FILL}">+{}</text>"##,
            x - r - 14.0,
            y - r * 0.5,
            usize::from(m.wounds) - shown
        );
    }
    // Conditions: badges just outside the lower right of the rim, clear of the id.
    for (i, c) in m.conditions.iter().enumerate() {
        let (letter, colour) = condition_badge(*c);
        let a = (25.0 + 38.0 * i as f64).to_radians();
        let (bx, by) = (x + (r + 3.0) * a.cos(), y + (r + 3.0) * a.sin());
        let _ = write!(
            g,
            r##"<g class="condition"><circle cx="{bx:.1}" cy="{by:.1}" r="6.5" fill="{colour}" stroke="#fff" stroke-width="1"/><text x="{bx:.1}" y="{:.1}" font-size="9" font-weight="bold" text-anchor="middle" fill="#fff">{letter}</text></g>"##,
            by + 3.2
        );
    }
    g.push_str("</g>");
    doc.raw(&g);
}

/// The four edges named as the log names them, with the rules' numbers.
fn edges(doc: &mut Doc, tw: f64, th: f64) {
    let (cx, cy) = (MARGIN_LEFT + tw / 2.0, MARGIN_TOP + th / 2.0);
    let label = |i: usize| format!("{} edge ({})", EDGES[i], i + 1);
    let attrs = r##"font-weight="bold" text-anchor="middle" fill="#222" class="edge""##;
    doc.text(cx, MARGIN_TOP - 10.0, 15.0, attrs, &label(0));
    doc.text(cx, MARGIN_TOP + th + 36.0, 15.0, attrs, &label(2));
    let (ex, wx) = (MARGIN_LEFT + tw + 30.0, MARGIN_LEFT - 36.0);
    doc.text(
        ex,
        cy,
        15.0,
        &format!(r#"{attrs} transform="rotate(90 {ex:.1} {cy:.1})""#),
        &label(1),
    );
    doc.text(
        wx,
        cy,
        15.0,
        &format!(r#"{attrs} transform="rotate(-90 {wx:.1} {cy:.1})""#),
        &label(3),
    );
}

/// A scale bar of six inches in one-inch blocks under the table, and what the coordinates are.
fn scale_bar(doc: &mut Doc, s: f64, th: f64) {
    let (x0, y0) = (MARGIN_LEFT, MARGIN_TOP + th + 56.0);
    let mut g = String::from(r#"<g class="scale">"#);
    for i in 0..6 {
        let fill = if i % 2 == 0 { "#222" } else { "#fff" };
        let _ = write!(
            g,
            r##"<rect x="{:.1}" y="{y0:.1}" width="{s:.1}" height="8" fill="{fill}" stroke="#222" stroke-width="1"/>"##,
            x0 + i as f64 * s
        );
    }
    g.push_str("</g>");
    doc.raw(&g);
    for i in [0usize, 1, 2, 3, 6] {
        let text = if i == 6 {
            "6 inches".to_string()
        } else {
            i.to_string()
        };
        doc.text(
            x0 + i as f64 * s,
            y0 + 22.0,
            11.0,
            r#"text-anchor="middle" class="scale-label""#,
            &text,
        );
    }
    doc.text(
        x0 + 6.0 * s + 40.0,
        y0 + 9.0,
        12.0,
        r##"fill="#333" class="scale-note""##,
        "Distances in inches, as the rules measure. Grid every 6\"; positions (x, y) are from the south-west corner, as the log gives them.",
    );
}

/// One row of the legend: a symbol and its words, or a section heading.
enum Row {
    Heading(&'static str),
    Entry(String, String),
}

/// The legend's rows: what every colour and symbol means, then the short names of the models drawn.
fn legend_rows(names: &BTreeMap<String, String>) -> Vec<Row> {
    let e = |sym: String, text: &str| Row::Entry(sym, text.to_string());
    let mut rows = vec![Row::Heading("Terrain")];
    for k in TerrainKind::ALL {
        let name = terrain_symbol(k).1;
        let text = match k {
            TerrainKind::Wall => "wall (terrain)",
            _ => name,
        };
        let sym = match k {
            TerrainKind::Wall | TerrainKind::Hedge => {
                let seg = format!(
                    r#"<line x1="-12" y1="0" x2="12" y2="0" {}/>"#,
                    line_style(k, 28.0)
                );
                if k == TerrainKind::Wall {
                    seg + r##"<line x1="-12" y1="0" x2="12" y2="0" stroke="#ffffff" stroke-width="1.5" stroke-dasharray="2 7"/>"##
                } else {
                    seg
                }
            }
            _ => format!(
                r##"<rect x="-12" y="-7" width="24" height="14" fill="{}" stroke="#00000040"/>"##,
                terrain_style(k)
            ),
        };
        rows.push(e(sym, text));
    }
    rows.push(Row::Heading("Buildings"));
    rows.push(e(
        format!(r##"<rect x="-12" y="-8" width="24" height="16" fill="{BUILDING_FILL}" stroke="#3b2a1a" stroke-width="2"/>"##),
        "building: name, Lv Level · Integrity/starting",
    ));
    rows.push(e(
        format!(r##"<rect x="-12" y="-8" width="24" height="16" fill="{DESTROYED_FILL}" stroke="#3b2a1a" stroke-width="2"/><path d="M-12,-8 L12,8 M12,-8 L-12,8" stroke="#555" stroke-width="1.5"/>"##),
        "Destroyed building",
    ));
    rows.push(e(flame(0.0, -9.0, 18.0), "Fire token (the building burns)"));
    rows.push(Row::Heading("Tokens"));
    let seg = Segment {
        a: Vec2::new(-12.0, 0.0),
        b: Vec2::new(12.0, 0.0),
    };
    let line = |wall: bool| {
        let (under, over) = barricade_style(wall, 28.0);
        let l = |st: &str| {
            format!(
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {st}/>"#,
                seg.a.x, seg.a.y, seg.b.x, seg.b.y
            )
        };
        l(&under) + &l(&over)
    };
    rows.push(e(line(false), "Barricade"));
    rows.push(e(line(true), "Wall spell (a Thorn Wall)"));
    rows.push(e(
        trap_mark(0.0, 0.0, 9.0)
            + r##"<circle cx="0" cy="0" r="12" fill="none" stroke="#222" stroke-dasharray="4 3"/>"##,
        "Trap (dashed: the area that sets it off)",
    ));
    rows.push(e(
        star(0.0, 0.0, 10.0, "#ffd43b", "#8a6d00"),
        "Opportunity token, face down",
    ));
    rows.push(e(
        star(0.0, 0.0, 10.0, "#ffd43b", "#c92a2a")
            + r##"<circle cx="0" cy="0" r="13" fill="none" stroke="#c92a2a" stroke-width="1.5"/>"##,
        "Opportunity token, revealed",
    ));
    rows.push(Row::Heading("Models (short name over id, as in the log)"));
    let disc = |fill: &str, rim: &str| {
        format!(
            r##"<circle cx="0" cy="0" r="11" fill="{fill}" {rim}/><text x="0" y="4" font-size="9" font-weight="bold" text-anchor="middle" fill="#fff">7</text>"##
        )
    };
    rows.push(e(
        disc(HERO_FILL, r##"stroke="#f2c12e" stroke-width="2.5""##),
        "hero",
    ));
    rows.push(e(
        disc(DEFENDER_FILL, r##"stroke="#111" stroke-width="1.2""##),
        "Village Defender (villager)",
    ));
    rows.push(e(
        disc(ENEMY_FILL, r##"stroke="#111" stroke-width="1.2""##),
        "enemy",
    ));
    rows.push(e(
        format!(r##"<circle cx="-6" cy="0" r="4" fill="{WOUND_FILL}" stroke="#fff"/><circle cx="6" cy="0" r="4" fill="{WOUND_FILL}" stroke="#fff"/>"##),
        "Wounds: one red dot each",
    ));
    for c in [
        Condition::Defenseless,
        Condition::Transfixed,
        Condition::Entangled,
    ] {
        let (letter, colour) = condition_badge(c);
        let word = match c {
            Condition::Defenseless => "Defenseless",
            Condition::Transfixed => "Transfixed",
            Condition::Entangled => "Entangled",
        };
        rows.push(Row::Entry(
            format!(
                r##"<circle cx="0" cy="0" r="7" fill="{colour}" stroke="#fff"/><text x="0" y="3.5" font-size="10" font-weight="bold" text-anchor="middle" fill="#fff">{letter}</text>"##
            ),
            word.to_string(),
        ));
    }
    if !names.is_empty() {
        rows.push(Row::Heading("Short names"));
        let mut by_short: Vec<(&String, &String)> = names.iter().map(|(n, s)| (s, n)).collect();
        by_short.sort();
        for (short, name) in by_short {
            rows.push(Row::Entry(
                format!(
                    r#"<text x="0" y="4" font-size="12" font-weight="bold" text-anchor="middle">{}</text>"#,
                    escape(short)
                ),
                name.clone(),
            ));
        }
    }
    rows
}

const ROW_H: f64 = 21.0;
const HEADING_H: f64 = 30.0;

fn legend_height(rows: &[Row]) -> f64 {
    30.0 + rows
        .iter()
        .map(|r| match r {
            Row::Heading(_) => HEADING_H,
            Row::Entry(..) => ROW_H,
        })
        .sum::<f64>()
}

fn legend(doc: &mut Doc, x: f64, rows: &[Row]) {
    let mut y = MARGIN_TOP - 10.0;
    doc.raw(&format!(
        r##"<rect class="legend-panel" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#fafafa" stroke="#ccc"/>"##,
        x - 8.0,
        y - 22.0,
        LEGEND_WIDTH - 16.0,
        legend_height(rows) + 4.0
    ));
    doc.text(
        x,
        y,
        16.0,
        r#"font-weight="bold" class="heading""#,
        "Legend",
    );
    for row in rows {
        match row {
            Row::Heading(h) => {
                y += HEADING_H;
                doc.text(
                    x,
                    y,
                    13.0,
                    r##"font-weight="bold" fill="#333" class="legend-heading""##,
                    h,
                );
            }
            Row::Entry(sym, text) => {
                y += ROW_H;
                doc.raw(&format!(
                    r#"<g class="legend-symbol" transform="translate({:.1},{:.1})">{sym}</g>"#,
                    x + 16.0,
                    y - 4.0
                ));
                doc.text(x + 40.0, y, 12.0, r#"class="legend""#, text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_that_fits_is_not_shortened() {
        let f = fit_label("Watchtower", "Lv 1 · 4/4", 84.0, 84.0);
        assert_eq!(f.lines[0], "Watchtower");
        assert!(text_width("Watchtower", f.size, true) <= 84.0 - 6.0);
    }

    #[test]
    fn a_tall_building_turns_its_label() {
        let f = fit_label("Town Hall", "Lv 1 · 8/8", 30.0, 160.0);
        assert!(f.rotated);
    }

    #[test]
    fn a_tiny_building_shortens_the_name() {
        let f = fit_label("Watchtower", "Lv 1 · 4/4", 30.0, 30.0);
        assert!(f.lines[0].ends_with('.'), "{:?}", f.lines);
        assert!(text_width(&f.lines[0], f.size, true) <= 30.0 - 6.0);
    }
}
