//! The replay viewer: one self-contained HTML page (`village replay FILE --html`, `play --auto --html`)
//! that steps through a game event by event — the table as it stands, the event in words with its dice
//! and modifiers, what it led to — with a slider, buttons, keys, a search over the log and each model's
//! profile on a click; two arms of one seed (`replay A --vs B`) on one page with their first difference.
//!
//! It owns turning a [`Recording`] (a game played with the frame recorder on, `state::frames`) into the
//! page's data: the static table drawn once by `render::svg` (terrain and buildings as play began), each
//! model's profile once, and per event only what changed (positions, Wounds, conditions — Engaged
//! included, decided by `rules::query` — buildings, tokens). The drawing and stepping are the page's
//! JavaScript (`page.js`); nothing is fetched, so the file works offline and from disk.

use crate::roster::Rules;
use crate::state::frames::{game_at, Frame};
use crate::state::{describe, Event, EventKind, Game, Model, ModelId, Side, Token, TokenKind};
use crate::wave::play::{GameSummary, Outcome};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One game played with the frame recorder on ([`crate::script::ScriptHost::play_recorded`]).
#[derive(Debug, Clone)]
pub struct Recording {
    /// The game as the frame recorder first saw it: at its `setup` event, before any model is placed
    /// (its log holds that one event); the frames bring every model on.
    pub start: Game,
    /// The whole log.
    pub events: Vec<Event>,
    /// The scripts' decisions, each naming the events it led to.
    pub decisions: Vec<crate::state::Decision>,
    /// The card of every profile of the rosters it was played with, by name (the profile panel).
    pub cards: BTreeMap<String, crate::show::Card>,
    /// What changed at each event, oldest first.
    pub frames: Vec<Frame>,
    /// The rules it was played with (what is Engaged depends on the contact tolerance).
    pub rules: Rules,
    pub summary: GameSummary,
}

impl Recording {
    /// The table after event `event` (the events' own state is not rebuilt: for drawing).
    pub fn game_at(&self, event: u64) -> Game {
        game_at(&self.start, &self.frames, event)
    }
}

/// One game shown on a page, with the name its switch shows ("A: default", "B: single_horde").
pub struct Arm<'a> {
    pub name: String,
    pub recording: &'a Recording,
}

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The page for `arms` (one game, or the two arms of an A/B pair) with `first_difference`, the first
/// event at which the arms' logs part (`sim::first_difference`), if they do.
pub fn page(title: &str, arms: &[Arm], first_difference: Option<usize>) -> String {
    let data = json!({
        "title": title,
        "arms": arms.iter().map(arm_data).collect::<Vec<_>>(),
        "first_difference": first_difference,
    });
    // JSON inside <script>: "</" would end the element early.
    let data = data.to_string().replace("</", "<\\/");
    PAGE.replace("{{title}}", &escape(title))
        .replace("{{style}}", STYLE)
        .replace("{{script}}", SCRIPT)
        .replace("{{data}}", &data)
}

/// Text safe inside an HTML element.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A coordinate kept to the hundredth of an inch (the page's size).
fn r2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A model's drawn state: `[id, x, y, wounds, quality, "conditions,engaged"]`.
fn model_row(m: &Model, engaged: bool) -> Value {
    let mut conds: Vec<&str> = m.conditions.iter().map(|c| c.as_str()).collect();
    if engaged {
        conds.push("engaged");
    }
    json!([
        m.id.0,
        r2(m.pos.x),
        r2(m.pos.y),
        m.wounds,
        m.quality,
        conds.join(",")
    ])
}

/// A model's profile as the page shows it on a click, with the short name its base shows (`short`, as
/// the table picture gives it).
fn profile(
    m: &Model,
    short: &BTreeMap<String, String>,
    cards: &BTreeMap<String, crate::show::Card>,
) -> Value {
    json!({
        "card": cards.get(&m.name).map(|c| c.text()),
        "name": m.name,
        "short": short.get(&m.name),
        "side": m.side.as_str(),
        "kind": m.kind,
        "tier": m.tier,
        "base": m.base,
        "quality": m.profile_quality,
        "combat": m.combat,
        "traits": m.traits,
        "weapon": m.weapon,
        "spells": m.spells,
        "group": m.group,
        "behaviour": m.behaviour,
        "items": m.items.iter().map(|i| i.name.clone()).collect::<Vec<_>>(),
    })
}

/// A building's changing state: `[level, integrity, fire, destroyed]`.
fn building_row(b: &crate::state::Building) -> Value {
    json!([b.level, b.integrity, b.fire, b.destroyed])
}

/// The tokens as the page draws them: kind, place (a Barricade's two ends) and id.
fn tokens(ts: &[Token]) -> Value {
    ts.iter()
        .map(|t| match &t.kind {
            TokenKind::Opportunity { revealed } => {
                json!({"id": t.id.0, "kind": "opportunity", "x": r2(t.pos.x), "y": r2(t.pos.y), "revealed": revealed})
            }
            TokenKind::Barricade {
                segment,
                integrity,
                caster,
                ..
            } => json!({
                "id": t.id.0, "kind": if caster.is_some() { "wall" } else { "barricade" },
                "x": r2(segment.a.x), "y": r2(segment.a.y), "x2": r2(segment.b.x), "y2": r2(segment.b.y),
                "integrity": integrity,
            }),
            TokenKind::Trap { .. } => {
                json!({"id": t.id.0, "kind": "trap", "x": r2(t.pos.x), "y": r2(t.pos.y)})
            }
        })
        .collect()
}

/// Whether each model on the table is Engaged (in contact with an enemy, `rules::query`).
fn engaged_set(g: &Game, rules: &Rules) -> BTreeSet<ModelId> {
    g.models
        .iter()
        .filter(|m| crate::rules::query::is_engaged(g, rules, m.id))
        .map(|m| m.id)
        .collect()
}

/// The static table: terrain and buildings as play began, no models and no tokens (the page draws
/// those as they move, in table inches inside the SVG's `rect.table`), no heading (the page says where
/// it is) and no legend (the page has its own, for what it draws).
fn static_svg(start: &Game) -> String {
    let mut bare = start.clone();
    bare.models.clear();
    bare.tokens.clear();
    crate::render::svg_with(
        &bare,
        &crate::render::SvgOptions {
            legend: false,
            heading: false,
        },
    )
}

/// The event's dice and modifiers, for the page's detail table, when it has any.
fn details(e: &Event) -> Option<Value> {
    let v = serde_json::to_value(e).ok()?;
    let keys = [
        "dice",
        "attacker_die",
        "modifiers",
        "trap_die",
        "faces",
        "roll",
    ];
    keys.iter().any(|k| v.get(*k).is_some()).then_some(v)
}

/// Everything the page needs about one arm.
fn arm_data(arm: &Arm) -> Value {
    let rec = arm.recording;
    let start = &rec.start;
    let names = describe::names_in(&rec.events);
    // Short names over every model that comes on the table, so each keeps one for the whole game.
    let short = crate::render::short_names_of(
        start
            .models
            .iter()
            .chain(rec.frames.iter().flat_map(|f| f.added.iter())),
    );
    let mut profiles: BTreeMap<u32, Value> = BTreeMap::new();
    for m in &start.models {
        profiles.insert(m.id.0, profile(m, &short, &rec.cards));
    }
    // Walk the frames on one game, deciding Engaged after each (it changes with others' moves too).
    let mut g = start.clone();
    let mut engaged = engaged_set(&g, &rec.rules);
    let start_rows: Vec<Value> = g
        .models
        .iter()
        .map(|m| model_row(m, engaged.contains(&m.id)))
        .collect();
    let mut frames = Vec::with_capacity(rec.frames.len());
    for f in &rec.frames {
        f.apply(&mut g);
        let now = engaged_set(&g, &rec.rules);
        let mut touched: BTreeSet<ModelId> = f.changed.iter().map(|c| c.id).collect();
        touched.extend(f.added.iter().map(|m| m.id));
        touched.extend(now.symmetric_difference(&engaged).copied());
        for m in &f.added {
            profiles.insert(m.id.0, profile(m, &short, &rec.cards));
        }
        let rows: Vec<Value> = g
            .models
            .iter()
            .filter(|m| touched.contains(&m.id))
            .map(|m| model_row(m, now.contains(&m.id)))
            .collect();
        engaged = now;
        let mut out = json!({"e": f.event});
        if !rows.is_empty() {
            out["m"] = json!(rows);
        }
        if !f.removed.is_empty() {
            out["r"] = json!(f.removed.iter().map(|id| id.0).collect::<Vec<_>>());
        }
        if !f.buildings.is_empty() {
            out["b"] = f
                .buildings
                .iter()
                .map(|b| json!([b.index, b.level, b.integrity, b.fire, b.destroyed]))
                .collect();
        }
        if let Some(t) = &f.tokens {
            out["t"] = tokens(t);
        }
        if let Some((w, r)) = f.clock {
            out["c"] = json!([w, r]);
        }
        if let Some(s) = f.supplies {
            out["s"] = json!(s);
        }
        frames.push(out);
    }
    let mut led: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for e in &rec.events {
        if let Some(c) = e.cause {
            led.entry(c).or_default().push(e.seq);
        }
    }
    let events: Vec<Value> = rec
        .events
        .iter()
        .map(|e| {
            let mut v = json!({
                "text": describe::describe(e, &names),
                "kind": serde_json::to_value(e).ok().and_then(|v| v.get("event").cloned()),
            });
            if let Some(c) = e.cause {
                v["cause"] = json!(c);
            }
            if let Some(l) = led.get(&e.seq) {
                v["led"] = json!(l);
            }
            if let Some(d) = details(e) {
                v["detail"] = d;
            }
            if let Some(m) = acting(e) {
                v["model"] = json!(m.0);
            }
            // A track's marker after the event: the page shows each track where it stands.
            match &e.kind {
                EventKind::TrackSet { track, value, .. }
                | EventKind::TrackMoved {
                    track, to: value, ..
                } => v["track"] = json!([track, value]),
                // A battle's Victory Points and objectives after the event.
                EventKind::VpScored { side, total, .. } => v["vp"] = json!([side, total]),
                EventKind::ObjectiveHeld { objective, holder } => {
                    v["held"] = json!([objective, holder])
                }
                _ => {}
            }
            v
        })
        .collect();
    let s = &rec.summary;
    json!({
        "name": arm.name,
        // As text: a seed above 2^53 is not a JavaScript number.
        "seed": s.seed.to_string(),
        "result": format!("{} — {} ({})",
            match s.result { Outcome::Win => "Win", Outcome::Loss => "Loss", Outcome::Stalled => "Stalled", Outcome::Draw => "Draw" },
            s.cause.words(),
            match s.vp {
                Some(vp) => format!("VP heroes {} – enemies {}", vp[0], vp[1]),
                None => format!("waves won: {}, Town Hall Integrity {}", s.waves_won, s.town_hall_integrity),
            }),
        "table": [start.table.width, start.table.height],
        "svg": static_svg(start),
        "round_limit": start.battle.as_ref().and_then(|b| b.round_limit),
        "buildings": start.buildings.iter().map(|b| json!({
            "name": b.name,
            "rect": [b.rect.min.x, b.rect.min.y, b.rect.max.x, b.rect.max.y],
            "max": b.max_integrity,
            "start": building_row(b),
        })).collect::<Vec<_>>(),
        "profiles": profiles,
        "start": {
            "m": start_rows,
            "b": start.buildings.iter().map(building_row).collect::<Vec<_>>(),
            "t": tokens(&start.tokens),
            "c": [start.wave, start.round],
            "s": start.supplies,
            "e": start.log().len() as i64 - 1,
        },
        "frames": frames,
        "events": events,
        // The scripts' decisions in words, each shown beside the events it led to.
        "decisions": rec.decisions.iter().map(|d| json!({
            "at": d.at,
            "until": d.until,
            "text": describe::decision_words(d, &names),
        })).collect::<Vec<_>>(),
        "heroes_side": Side::Heroes.as_str(),
    })
}

/// The model an event is about (the page marks it on the table).
fn acting(e: &Event) -> Option<ModelId> {
    match &e.kind {
        EventKind::Placed { model, .. }
        | EventKind::Removed { model, .. }
        | EventKind::Activation { model, .. }
        | EventKind::Moved { model, .. }
        | EventKind::Outcome { model, .. }
        | EventKind::Condition { model, .. }
        | EventKind::Morale { model, .. }
        | EventKind::Deployed { model, .. }
        | EventKind::Healed { model, .. } => Some(*model),
        EventKind::Combat { attacker, .. } => Some(*attacker),
        EventKind::Spell { caster, .. } => Some(*caster),
        EventKind::Roll { model, .. } => *model,
        _ => None,
    }
}
