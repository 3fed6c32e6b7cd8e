//! `village sweep --svg`: how the game answers as a knob turns. One knob: the win rate and the mean
//! waves won against its value, each with its 95% band, the baseline marked. Two knobs: a heat map of
//! each over the grid, the baseline's cell outlined. Points and cells carry their numbers as `data-`
//! attributes so a test reads back exactly what was drawn.

use super::chart::{
    base_line, heading, nice_axis, panel_title, pct, subheading, x_axis_title, y_axis, Area, BLUE,
    ORANGE,
};
use super::svg::{escape, text_width, Doc};
use crate::sweep::{PointReport, SweepReport};

/// What a sweep ran, in words (under the title).
fn what(r: &SweepReport) -> String {
    format!(
        "{} games a point on the same seeds · {} · {} · preset {}",
        r.games_per_point,
        r.heroes.join(", "),
        r.length,
        r.rules()
    )
}

/// The sweep's picture: a curve for one knob, heat maps for two.
pub fn svg(r: &SweepReport) -> String {
    if r.keys.len() == 2 {
        grid(r)
    } else {
        curves(r)
    }
}

/// A measure of a point: its estimate and interval.
type Measure = fn(&PointReport) -> (f64, [f64; 2]);

fn win_rate(p: &PointReport) -> (f64, [f64; 2]) {
    (p.win_rate, p.ci95)
}

fn waves_won(p: &PointReport) -> (f64, [f64; 2]) {
    (p.waves_won_mean, p.waves_won_ci95)
}

/// One knob: two panels of estimates against the value.
fn curves(r: &SweepReport) -> String {
    let title = format!("Sweep of {}", r.keys[0]);
    let mut doc = Doc::new(1000.0, 800.0, &title);
    heading(&mut doc, &title);
    subheading(&mut doc, 58.0, &what(r));
    let n = r.points.len();
    // Where each value sits across: by its number on a numeric axis, else evenly.
    let numbers = r.numbers[0].clone();
    let (lo, hi) = match &numbers {
        Some(v) if n > 1 => (v[0], v[n - 1]),
        _ => (0.0, (n.max(2) - 1) as f64),
    };
    let position = |i: usize| numbers.as_ref().map_or(i as f64, |v| v[i]);
    let panels: [(&str, Measure, &str, bool); 2] = [
        ("Win rate, with its 95% interval", win_rate, BLUE, true),
        (
            "Mean waves won a game, with its 95% interval",
            waves_won,
            ORANGE,
            false,
        ),
    ];
    for (k, (name, measure, colour, share)) in panels.into_iter().enumerate() {
        let a = Area {
            x: 110.0,
            y: 130.0 + 340.0 * k as f64,
            w: 820.0,
            h: 230.0,
        };
        let x_of = |v: f64| {
            let pad = 0.04 * a.w;
            a.x + pad + (v - lo) / (hi - lo).max(1e-9) * (a.w - 2.0 * pad)
        };
        panel_title(&mut doc, a, name);
        let top = if share {
            (1.0, 0.1)
        } else {
            let max = r.points.iter().map(|p| measure(p).1[1]).fold(0.0, f64::max);
            nice_axis(max, false)
        };
        let fmt = |v: f64| if share { pct(v) } else { format!("{v:.1}") };
        y_axis(
            &mut doc,
            a,
            top,
            &fmt,
            if share { "games won" } else { "waves won" },
        );
        let y_of = |v: f64| a.y + a.h - (v / top.0).clamp(0.0, 1.0) * a.h;
        // The band of the intervals, then the line of the estimates, then the points.
        let upper: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "{:.1},{:.1}",
                    x_of(position(i)),
                    y_of(measure(&r.points[i]).1[1])
                )
            })
            .collect();
        let lower: Vec<String> = (0..n)
            .rev()
            .map(|i| {
                format!(
                    "{:.1},{:.1}",
                    x_of(position(i)),
                    y_of(measure(&r.points[i]).1[0])
                )
            })
            .collect();
        doc.raw(&format!(
            r#"<polygon class="band" points="{} {}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
            upper.join(" "),
            lower.join(" ")
        ));
        let line: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "{:.1},{:.1}",
                    x_of(position(i)),
                    y_of(measure(&r.points[i]).0)
                )
            })
            .collect();
        doc.raw(&format!(
            r#"<polyline class="curve" points="{}" fill="none" stroke="{colour}" stroke-width="2.5"/>"#,
            line.join(" ")
        ));
        for (i, p) in r.points.iter().enumerate() {
            let (e, ci) = measure(p);
            let (x, y) = (x_of(position(i)), y_of(e));
            let base = p.values == r.baseline;
            doc.raw(&format!(
                r##"<circle class="point {}" data-x="{}" data-value="{e}" data-low="{}" data-high="{}" cx="{x:.1}" cy="{y:.1}" r="{}" fill="{}" stroke="#111" stroke-width="1.5"><title>{} = {}: {} ({}–{})</title></circle>"##,
                if share { "win-rate" } else { "waves-won" },
                escape(&p.values[0]),
                ci[0],
                ci[1],
                if base { 6.5 } else { 4.5 },
                if base { "#fff" } else { colour },
                escape(&r.keys[0]),
                escape(&p.values[0]),
                fmt(e),
                fmt(ci[0]),
                fmt(ci[1]),
            ));
            doc.text(
                x,
                a.y + a.h + 16.0,
                12.0,
                r#"text-anchor="middle" class="tick""#,
                &p.values[0],
            );
            if base {
                doc.raw(&format!(
                    r##"<line class="baseline" x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#111" stroke-dasharray="5,4" stroke-opacity="0.7"/>"##,
                    a.y,
                    a.y + a.h
                ));
                doc.text(
                    x + 5.0,
                    a.y + 12.0,
                    11.0,
                    r##"fill="#111" class="baseline-label""##,
                    "baseline",
                );
            }
        }
        base_line(&mut doc, a);
        x_axis_title(&mut doc, a, 36.0, &r.keys[0]);
    }
    doc.finish()
}

/// A colour's red, green and blue, 0 to 255.
type Rgb = (f64, f64, f64);

/// A colour from white (0) to `rgb`'s full strength (1).
fn shade(t: f64, rgb: Rgb) -> String {
    let t = t.clamp(0.0, 1.0);
    let mix = |c: f64| (255.0 - (255.0 - c) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(rgb.0), mix(rgb.1), mix(rgb.2))
}

/// Two knobs: a heat map of the win rate and one of the mean waves won, rows the first knob's values
/// and columns the second's.
fn grid(r: &SweepReport) -> String {
    let (rows, cols) = (r.labels[0].len(), r.labels[1].len());
    let widest = r.labels[1]
        .iter()
        .map(|l| text_width(l, 12.0, false))
        .fold(0.0, f64::max);
    let cell_w = (380.0 / cols as f64).clamp(34.0, 90.0).max(widest + 12.0);
    let cell_h = (380.0 / rows as f64).clamp(26.0, 60.0);
    let label_w = r.labels[0]
        .iter()
        .map(|l| text_width(l, 12.0, false))
        .fold(0.0, f64::max)
        + 16.0;
    let map_w = cell_w * cols as f64;
    let width = (80.0 + 2.0 * (label_w + map_w) + 120.0).max(1000.0);
    let height = 130.0 + cell_h * rows as f64 + 70.0;
    let title = format!("Sweep of {} × {}", r.keys[0], r.keys[1]);
    let mut doc = Doc::new(width, height, &title);
    heading(&mut doc, &title);
    subheading(&mut doc, 58.0, &what(r));
    let maps: [(&str, Measure, Rgb, bool); 2] = [
        ("Win rate", win_rate, (59.0, 111.0, 209.0), true),
        ("Mean waves won", waves_won, (232.0, 131.0, 12.0), false),
    ];
    for (k, (name, measure, rgb, share)) in maps.into_iter().enumerate() {
        // The colours run from the lowest estimate to the highest, so a small effect still shows.
        let (min, max) = r
            .points
            .iter()
            .map(|p| measure(p).0)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        let strength = |v: f64| 0.15 + 0.85 * (v - min) / (max - min).max(1e-9);
        let a = Area {
            x: 40.0 + label_w + k as f64 * (label_w + map_w + 60.0),
            y: 130.0,
            w: map_w,
            h: cell_h * rows as f64,
        };
        panel_title(&mut doc, a, name);
        for (ci, l) in r.labels[1].iter().enumerate() {
            doc.text(
                a.x + cell_w * (ci as f64 + 0.5),
                a.y - 6.0,
                12.0,
                r#"text-anchor="middle" class="tick""#,
                l,
            );
        }
        for (ri, l) in r.labels[0].iter().enumerate() {
            doc.text(
                a.x - 6.0,
                a.y + cell_h * (ri as f64 + 0.5) + 4.0,
                12.0,
                r#"text-anchor="end" class="tick""#,
                l,
            );
        }
        for (i, p) in r.points.iter().enumerate() {
            let (ri, ci) = (i / cols, i % cols);
            let (e, iv) = measure(p);
            let (x, y) = (a.x + cell_w * ci as f64, a.y + cell_h * ri as f64);
            let fill = shade(strength(e), rgb);
            let text = if share { pct(e) } else { format!("{e:.2}") };
            let dark = strength(e) > 0.6;
            doc.raw(&format!(
                r##"<rect class="cell {}" data-row="{}" data-col="{}" data-value="{e}" data-low="{}" data-high="{}" x="{x:.1}" y="{y:.1}" width="{cell_w:.1}" height="{cell_h:.1}" fill="{fill}" stroke="#fff"><title>{} = {}, {} = {}: {text}</title></rect>"##,
                if share { "win-rate" } else { "waves-won" },
                escape(&p.values[0]),
                escape(&p.values[1]),
                iv[0],
                iv[1],
                escape(&r.keys[0]),
                escape(&p.values[0]),
                escape(&r.keys[1]),
                escape(&p.values[1]),
            ));
            doc.text(
                x + cell_w / 2.0,
                y + cell_h / 2.0 + 4.0,
                if cell_w < 44.0 { 10.0 } else { 12.0 },
                &format!(
                    r#"text-anchor="middle" fill="{}" class="cell-value""#,
                    if dark { "#fff" } else { "#111" }
                ),
                &text,
            );
            if p.values == r.baseline {
                doc.raw(&format!(
                    r##"<rect class="baseline" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="#111" stroke-width="3"/>"##,
                    x + 1.5,
                    y + 1.5,
                    cell_w - 3.0,
                    cell_h - 3.0
                ));
            }
        }
    }
    let notes = [
        format!("Rows: {}; columns: {}.", r.keys[0], r.keys[1]),
        "The outlined cell is the baseline; the colours run from the lowest estimate to the highest; \
         each cell's 95% interval is in its tooltip."
            .to_string(),
    ];
    for (i, note) in notes.iter().enumerate() {
        doc.text(
            40.0,
            height - 34.0 + 18.0 * i as f64,
            12.0,
            r##"fill="#333" class="note""##,
            note,
        );
    }
    doc.finish()
}
