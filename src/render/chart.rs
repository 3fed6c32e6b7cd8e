//! Charts of results as self-contained SVG, written by hand (no plotting crate, no fonts to embed):
//! `village sim --svg` (the win rate and the mean waves won with their 95% intervals, the wave the
//! village fell in, what ended the games), `village sim --vs --svg` (both arms on one scale and their
//! paired differences in win rate and in waves won) and
//! `village odds ... --svg` (a distribution as bars, with its "at least" and "at most" views). Every
//! panel has its title, axes with tick labels and, where colours differ, a legend. Bars carry their
//! numbers as `data-` attributes so a test reads back exactly what was drawn.

use super::svg::{escape, text_width, Doc};
use crate::sim::{Difference, Report};

/// A plotting area in pixels (the axes are drawn around it).
#[derive(Clone, Copy)]
pub(super) struct Area {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// A series of bars: its name in the legend, its colour and its CSS class.
struct Series {
    name: String,
    colour: &'static str,
}

pub(super) const BLUE: &str = "#3b6fd1";
pub(super) const ORANGE: &str = "#e8830c";
const GREY: &str = "#555";

/// An axis from 0 to a round number at or above `max`, and its step (about five ticks; whole steps
/// for counts).
pub(super) fn nice_axis(max: f64, whole: bool) -> (f64, f64) {
    let max = if max > 0.0 { max } else { 1.0 };
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|k| k * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let step = if whole { step.max(1.0).round() } else { step };
    ((max / step - 1e-9).ceil() * step, step)
}

pub(super) fn pct(p: f64) -> String {
    let v = p * 100.0;
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}%")
    } else {
        format!("{v:.1}%")
    }
}

/// A panel's title above its area.
pub(super) fn panel_title(doc: &mut Doc, a: Area, title: &str) {
    doc.text(
        a.x,
        a.y - 26.0,
        15.0,
        r#"font-weight="bold" class="panel-title""#,
        title,
    );
}

/// Horizontal grid lines and labels up the left side of `a`, from 0 to `max` by `step`, and the axis
/// title turned along it.
pub(super) fn y_axis(
    doc: &mut Doc,
    a: Area,
    (max, step): (f64, f64),
    fmt: &dyn Fn(f64) -> String,
    title: &str,
) {
    let mut v = 0.0;
    while v <= max + 1e-9 {
        let y = a.y + a.h - v / max * a.h;
        doc.raw(&format!(
            r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#000" stroke-opacity="{}"/>"##,
            a.x,
            a.x + a.w,
            if v == 0.0 { "0.8" } else { "0.12" }
        ));
        doc.text(
            a.x - 6.0,
            y + 4.0,
            12.0,
            r#"text-anchor="end" class="tick""#,
            &fmt(v),
        );
        v += step;
    }
    let (tx, ty) = (a.x - 52.0, a.y + a.h / 2.0);
    doc.text(
        tx,
        ty,
        12.0,
        &format!(r##"text-anchor="middle" fill="#333" class="axis-title" transform="rotate(-90 {tx:.1} {ty:.1})""##),
        title,
    );
}

/// Vertical grid lines and labels under `a`, from `min` to `max` by `step`, and the axis title.
fn x_axis(
    doc: &mut Doc,
    a: Area,
    (min, max, step): (f64, f64, f64),
    fmt: &dyn Fn(f64) -> String,
    title: &str,
) {
    let mut v = min;
    while v <= max + 1e-9 {
        let x = a.x + (v - min) / (max - min) * a.w;
        doc.raw(&format!(
            r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#000" stroke-opacity="0.12"/>"##,
            a.y,
            a.y + a.h
        ));
        doc.text(
            x,
            a.y + a.h + 16.0,
            12.0,
            r#"text-anchor="middle" class="tick""#,
            &fmt(v),
        );
        v += step;
    }
    base_line(doc, a);
    x_axis_title(doc, a, 34.0, title);
}

/// The axis line along the bottom of `a`.
pub(super) fn base_line(doc: &mut Doc, a: Area) {
    doc.raw(&format!(
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#000" stroke-opacity="0.8"/>"##,
        a.x,
        a.y + a.h,
        a.x + a.w,
        a.y + a.h
    ));
}

/// A legend of coloured squares in one row starting at (x, y).
fn series_legend(doc: &mut Doc, x: f64, y: f64, series: &[Series]) {
    let mut x = x;
    for s in series {
        doc.raw(&format!(
            r#"<rect class="legend-swatch" x="{x:.1}" y="{:.1}" width="12" height="12" fill="{}"/>"#,
            y - 10.0,
            s.colour
        ));
        doc.text(x + 17.0, y, 12.0, r#"class="legend""#, &s.name);
        x += 34.0 + text_width(&s.name, 12.0, false);
    }
}

/// One group of vertical bars: its label under the axis (lines split at `\n`) and one value per series,
/// with the text written above each bar.
struct Group {
    label: String,
    values: Vec<(f64, String)>,
}

/// Vertical bars in `a` on an axis from 0 to `max`, grouped; each bar a `<rect class="bar {class}">`
/// with its value in `data-value`.
fn vbars(doc: &mut Doc, a: Area, max: f64, groups: &[Group], series: &[Series], class: &str) {
    let n = groups.len().max(1) as f64;
    let slot = a.w / n;
    let per = series.len().max(1) as f64;
    let bar_w = (slot * 0.8 / per).min(70.0);
    for (i, g) in groups.iter().enumerate() {
        let cx = a.x + slot * (i as f64 + 0.5);
        for (j, (v, text)) in g.values.iter().enumerate() {
            let x = cx - bar_w * per / 2.0 + bar_w * j as f64;
            let bh = (v / max).clamp(0.0, 1.0) * a.h;
            let colour = series.get(j).map_or(GREY, |s| s.colour);
            let name = series.get(j).map_or("", |s| s.name.as_str());
            doc.raw(&format!(
                r#"<rect class="bar {class}" data-label="{}" data-series="{}" data-value="{v}" x="{x:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{colour}"><title>{}: {}</title></rect>"#,
                escape(&g.label.replace('\n', " ")),
                escape(name),
                a.y + a.h - bh,
                bar_w - 2.0,
                escape(&g.label.replace('\n', " ")),
                escape(text)
            ));
            let size = if bar_w < 34.0 { 10.0 } else { 12.0 };
            doc.text(
                x + (bar_w - 2.0) / 2.0,
                a.y + a.h - bh - 4.0,
                size,
                r#"text-anchor="middle" class="bar-value""#,
                text,
            );
        }
        for (k, line) in g.label.split('\n').enumerate() {
            doc.text(
                cx,
                a.y + a.h + 16.0 + 14.0 * k as f64,
                12.0,
                r#"text-anchor="middle" class="category""#,
                line,
            );
        }
    }
}

/// A horizontal interval on an axis: the bar from the axis' zero to the estimate, the 95% interval as
/// an error bar with caps, and the estimate as a dot.
#[allow(clippy::too_many_arguments)]
fn interval(
    doc: &mut Doc,
    x_of: &dyn Fn(f64) -> f64,
    y: f64,
    height: f64,
    estimate: f64,
    ci: [f64; 2],
    colour: &str,
    class: &str,
) {
    let (x0, xe) = (x_of(0.0), x_of(estimate));
    doc.raw(&format!(
        r#"<rect class="{class}" data-value="{estimate}" data-low="{}" data-high="{}" x="{:.1}" y="{:.1}" width="{:.1}" height="{height:.1}" fill="{colour}" fill-opacity="0.45"/>"#,
        ci[0],
        ci[1],
        x0.min(xe),
        y - height / 2.0,
        (xe - x0).abs()
    ));
    let (l, h) = (x_of(ci[0]), x_of(ci[1]));
    let cap = height * 0.45;
    doc.raw(&format!(
        r##"<path class="error-bar" d="M{l:.1},{y:.1} H{h:.1} M{l:.1},{:.1} V{:.1} M{h:.1},{:.1} V{:.1}" stroke="#111" stroke-width="2" fill="none"/><circle cx="{xe:.1}" cy="{y:.1}" r="5" fill="{colour}" stroke="#111" stroke-width="1.5"/>"##,
        y - cap,
        y + cap,
        y - cap,
        y + cap
    ));
}

/// "43.0% (95% CI 33.7–52.8%)": the text every win rate is given, in the report's own numbers.
pub fn win_rate_text(r: &Report) -> String {
    format!(
        "{:.1}% (95% CI {:.1}–{:.1}%)",
        r.win_rate * 100.0,
        r.ci95[0] * 100.0,
        r.ci95[1] * 100.0
    )
}

/// "+3.0 points (95% CI −2.1 to +8.1)": the paired difference in words.
pub fn difference_text(d: &Difference) -> String {
    format!(
        "{:+.1} points (95% CI {:+.1} to {:+.1})",
        d.win_rate * 100.0,
        d.ci95[0] * 100.0,
        d.ci95[1] * 100.0
    )
}

/// "4.35 (95% CI 4.10–4.60)": the mean waves won, in the report's own numbers.
pub fn waves_won_text(r: &Report) -> String {
    format!(
        "{:.2} (95% CI {:.2}–{:.2})",
        r.waves_won_mean, r.waves_won_ci95[0], r.waves_won_ci95[1]
    )
}

/// "+0.12 waves (95% CI +0.05 to +0.19)": the paired difference in mean waves won, in words.
pub fn waves_difference_text(d: &Difference) -> String {
    format!(
        "{:+.2} waves (95% CI {:+.2} to {:+.2})",
        d.waves_won, d.waves_won_ci95[0], d.waves_won_ci95[1]
    )
}

/// Waves on the loss-wave axis: every wave from 1 to the last in `waves` or in the reports.
fn wave_axis(waves: Option<u32>, reports: &[&Report]) -> Vec<u32> {
    let last = reports
        .iter()
        .filter_map(|r| r.loss_wave.keys().next_back().copied())
        .chain(waves)
        .max()
        .unwrap_or(1)
        .max(1);
    (1..=last).collect()
}

/// The causes a run's games ended by, as words ("town_hall_destroyed" → "town hall destroyed").
fn cause_words(c: &str) -> String {
    c.replace('_', " ")
}

/// The title under a panel's horizontal axis, `below` pixels under the panel.
pub(super) fn x_axis_title(doc: &mut Doc, a: Area, below: f64, title: &str) {
    doc.text(
        a.x + a.w / 2.0,
        a.y + a.h + below,
        12.0,
        r##"text-anchor="middle" fill="#333" class="axis-title""##,
        title,
    );
}

/// A chart's title, in bold across its top.
pub(super) fn heading(doc: &mut Doc, title: &str) {
    doc.text(
        40.0,
        34.0,
        20.0,
        r#"font-weight="bold" class="heading""#,
        title,
    );
}

/// The line under a chart's title, `y` pixels down: what was played, in words.
pub(super) fn subheading(doc: &mut Doc, y: f64, text: &str) {
    doc.text(40.0, y, 13.0, r##"fill="#333" class="subheading""##, text);
}

/// `village sim --svg`: the win rate and the mean waves won with their intervals, the histogram of the
/// wave the village fell in
/// (one bar for each wave some game was lost in) and what ended the games. `waves` is the game's
/// number of waves (the loss-wave axis runs to it); `title` says what was played.
pub fn sim_svg(r: &Report, title: &str, waves: Option<u32>) -> String {
    let (width, height) = (1000.0, if r.endless { 690.0 } else { 830.0 });
    let mut doc = Doc::new(width, height, title);
    heading(&mut doc, title);
    let summary = if r.endless {
        format!(
            "{} games of Defender mode (endless: nobody wins): {} lost, {} stalled",
            r.games, r.losses, r.stalled
        )
    } else {
        format!(
            "{} games: {} won, {} lost, {} stalled",
            r.games, r.wins, r.losses, r.stalled
        )
    };
    subheading(&mut doc, 58.0, &summary);
    // The win rate on a 0–100% axis (none in Defender mode: its score panel takes the place).
    let a = Area {
        x: 110.0,
        y: 120.0,
        w: 600.0,
        h: 44.0,
    };
    if !r.endless {
        win_rate_panel(&mut doc, a, r);
    }
    // The mean waves won, on an axis of the game's waves.
    let v = Area {
        x: 110.0,
        y: if r.endless { a.y } else { 260.0 },
        w: 600.0,
        h: 44.0,
    };
    waves_won_panel(&mut doc, v, r, waves);
    // The wave of loss.
    let below = v.y + 150.0;
    let b = Area {
        x: 110.0,
        y: below,
        w: 440.0,
        h: 340.0,
    };
    let axis = wave_axis(waves, &[r]);
    loss_wave_panel(&mut doc, b, r, &axis);
    // What ended the games.
    let c = Area {
        x: 640.0,
        y: below,
        w: 300.0,
        h: 340.0,
    };
    causes_panel(&mut doc, c, &[(r, BLUE)], r.games);
    doc.finish()
}

/// The win rate with its Wilson interval on a 0–100% axis.
fn win_rate_panel(doc: &mut Doc, a: Area, r: &Report) {
    panel_title(doc, a, "Win rate, with its 95% interval (Wilson)");
    x_axis(doc, a, (0.0, 1.0, 0.1), &pct, "share of games won");
    let x_of = |v: f64| a.x + v * a.w;
    let bar = Estimate {
        value: r.win_rate,
        ci: r.ci95,
        class: "win-rate",
        text: win_rate_text(r),
        colour: BLUE,
        height: 26.0,
    };
    estimate_row(doc, a, &x_of, &bar);
}

/// One estimate drawn in a panel of its own: the value with its interval (`{class}-bar`) and, right of
/// the axis, the words (`{class}`).
struct Estimate {
    value: f64,
    ci: [f64; 2],
    class: &'static str,
    text: String,
    colour: &'static str,
    /// The bar's height, pixels.
    height: f64,
}

/// `e` across the middle of `a`, placed by `x_of`.
fn estimate_row(doc: &mut Doc, a: Area, x_of: &dyn Fn(f64) -> f64, e: &Estimate) {
    let mid = a.y + a.h / 2.0;
    interval(
        doc,
        x_of,
        mid,
        e.height,
        e.value,
        e.ci,
        e.colour,
        &format!("{}-bar", e.class),
    );
    doc.text(
        a.x + a.w + 12.0,
        mid + 5.0,
        13.0,
        &format!(r#"font-weight="bold" class="{}""#, e.class),
        &e.text,
    );
}

/// The mean waves won with its interval, on an axis of the game's `waves` (a tick each, up to ten), or
/// to a round number past the interval when the length has no final wave or is not known.
fn waves_won_panel(doc: &mut Doc, v: Area, r: &Report, waves: Option<u32>) {
    panel_title(doc, v, "Waves won a game (mean), with its 95% interval");
    let (top, step) = match waves {
        Some(w @ 1..=10) if f64::from(w) >= r.waves_won_ci95[1] => (f64::from(w), 1.0),
        _ => nice_axis(
            f64::from(waves.unwrap_or(0))
                .max(r.waves_won_ci95[1])
                .max(1.0),
            true,
        ),
    };
    x_axis(
        doc,
        v,
        (0.0, top, step),
        &|x| format!("{x:.0}"),
        "waves won",
    );
    let x_of = |x: f64| v.x + x / top * v.w;
    let bar = Estimate {
        value: r.waves_won_mean,
        ci: r.waves_won_ci95,
        class: "waves-won",
        text: waves_won_text(r),
        colour: BLUE,
        height: 26.0,
    };
    estimate_row(doc, v, &x_of, &bar);
}

/// The histogram of the wave the village fell in, a bar for each wave of `axis` some game was lost in.
fn loss_wave_panel(doc: &mut Doc, b: Area, r: &Report, axis: &[u32]) {
    panel_title(
        doc,
        b,
        &format!("Wave the village fell in ({} losses)", r.losses),
    );
    let most = r.loss_wave.values().copied().max().unwrap_or(0) as f64;
    let scale = nice_axis(most, true);
    y_axis(
        doc,
        b,
        scale,
        &|v| format!("{v:.0}"),
        "games lost in the wave",
    );
    let groups: Vec<Group> = axis
        .iter()
        .map(|w| Group {
            label: w.to_string(),
            values: r
                .loss_wave
                .get(w)
                .map(|c| vec![(*c as f64, c.to_string())])
                .unwrap_or_default(),
        })
        .collect();
    vbars(
        doc,
        b,
        scale.0,
        &groups,
        &[Series {
            name: "losses".into(),
            colour: ORANGE,
        }],
        "loss-wave",
    );
    x_axis_title(doc, b, 40.0, "wave");
}

/// Horizontal bars of the games each cause ended, one row per cause, a bar per report.
fn causes_panel(doc: &mut Doc, a: Area, reports: &[(&Report, &'static str)], games: u64) {
    panel_title(doc, a, "What ended the games");
    let causes: Vec<&String> = reports
        .first()
        .map(|(r, _)| r.causes.keys().collect())
        .unwrap_or_default();
    let rows = causes.len().max(1) as f64;
    let slot = a.h / rows;
    let per = reports.len().max(1) as f64;
    let bar_h = (slot * 0.5 / per).min(22.0);
    let games = games.max(1) as f64;
    for (i, cause) in causes.iter().enumerate() {
        let y = a.y + slot * i as f64;
        doc.text(
            a.x,
            y + 14.0,
            13.0,
            r#"class="category""#,
            &cause_words(cause),
        );
        for (j, (r, colour)) in reports.iter().enumerate() {
            let n = r.causes.get(*cause).copied().unwrap_or(0);
            let share = n as f64 / games;
            let w = share * (a.w - 90.0);
            let by = y + 22.0 + bar_h * j as f64;
            doc.raw(&format!(
                r#"<rect class="bar cause" data-label="{}" data-value="{n}" x="{:.1}" y="{by:.1}" width="{w:.1}" height="{:.1}" fill="{colour}"/>"#,
                escape(cause),
                a.x,
                bar_h - 2.0
            ));
            doc.text(
                a.x + w + 6.0,
                by + bar_h - 5.0,
                11.0,
                r#"class="bar-value""#,
                &format!("{n} ({})", pct(share)),
            );
        }
    }
}

/// `text` cut with "…" to fit `room` pixels at `size`.
fn fit(text: &str, room: f64, size: f64) -> String {
    if text_width(text, size, false) <= room {
        return text.to_string();
    }
    let mut out: String = text.to_string();
    while !out.is_empty() && text_width(&format!("{out}…"), size, false) > room {
        out.pop();
    }
    format!("{}…", out.trim_end())
}

/// The colour of a paired difference.
const PURPLE: &str = "#6741d9";

/// Both arms' win rates with their intervals on one axis in `w`, a row each.
fn arm_win_rates(doc: &mut Doc, w: Area, arms: [(&Report, &Series); 2]) {
    panel_title(doc, w, "Win rate, with its 95% interval");
    x_axis(doc, w, (0.0, 1.0, 0.1), &pct, "share of games won");
    let x_of = |v: f64| w.x + v * w.w;
    for (i, (r, s)) in arms.iter().enumerate() {
        let y = w.y + w.h * (0.28 + 0.44 * i as f64);
        doc.text(
            w.x - 10.0,
            y + 5.0,
            13.0,
            r#"text-anchor="end" font-weight="bold" class="category""#,
            if i == 0 { "A" } else { "B" },
        );
        interval(
            doc,
            &x_of,
            y,
            22.0,
            r.win_rate,
            r.ci95,
            s.colour,
            "win-rate-bar",
        );
        doc.text(
            w.x + w.w + 12.0,
            y + 5.0,
            13.0,
            r#"font-weight="bold" class="win-rate""#,
            &win_rate_text(r),
        );
    }
}

/// A paired difference `e` in `p`, on an axis from −half to +half (`(half, step)`, in the axis's units:
/// `scale` of the estimate's) with its ticks and title (`labels`), against a dashed zero line.
fn difference_panel(
    doc: &mut Doc,
    p: Area,
    title: &str,
    ((half, step), scale): ((f64, f64), f64),
    (tick, axis_title): (&dyn Fn(f64) -> String, &str),
    e: &Estimate,
) {
    panel_title(doc, p, title);
    x_axis(doc, p, (-half, half, step), tick, axis_title);
    let x_of = |v: f64| p.x + (v * scale + half) / (2.0 * half) * p.w;
    let zero = x_of(0.0);
    doc.raw(&format!(
        r##"<line class="zero-line" x1="{zero:.1}" y1="{:.1}" x2="{zero:.1}" y2="{:.1}" stroke="#c92a2a" stroke-width="2" stroke-dasharray="6 3"/>"##,
        p.y - 6.0,
        p.y + p.h + 4.0
    ));
    estimate_row(doc, p, &x_of, e);
}

/// A signed tick with two decimals at most, as the steps run (0.1, 0.25, 0.5 ...), without trailing
/// zeros; "0" at zero.
fn signed_tick(v: f64) -> String {
    if v.abs() < 1e-9 {
        return "0".to_string();
    }
    let t = format!("{v:+.2}");
    t.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `village sim --vs --svg`: both arms' win rates with their intervals on one axis, the paired
/// differences A − B in win rate and in mean waves won with their intervals against zero lines, and
/// both arms' loss waves and causes side by side on shared axes. An endless run (nobody wins) has no
/// win-rate panels: the waves-won difference leads.
pub fn ab_svg(
    (name_a, a): (&str, &Report),
    (name_b, b): (&str, &Report),
    d: &Difference,
    title: &str,
    waves: Option<u32>,
    descriptions: (&str, &str),
) -> String {
    let (width, height) = (1000.0, if a.endless { 810.0 } else { 1140.0 });
    let mut doc = Doc::new(width, height, title);
    heading(&mut doc, title);
    let series = [
        Series {
            name: format!("A: {name_a}"),
            colour: BLUE,
        },
        Series {
            name: format!("B: {name_b}"),
            colour: ORANGE,
        },
    ];
    series_legend(&mut doc, 40.0, 60.0, &series);
    subheading(
        &mut doc,
        80.0,
        &format!(
            "{} games per arm, the same seeds; {} ended differently",
            a.games, d.games_differing
        ),
    );
    // Nobody wins an endless game: its chart has no win rates, only the score.
    let endless = a.endless;
    if !endless {
        let w = Area {
            x: 110.0,
            y: 140.0,
            w: 580.0,
            h: 90.0,
        };
        arm_win_rates(&mut doc, w, [(a, &series[0]), (b, &series[1])]);
        let reach = d.ci95[0].abs().max(d.ci95[1].abs()).max(d.win_rate.abs()) * 100.0;
        let points = Estimate {
            value: d.win_rate,
            ci: d.ci95,
            class: "difference",
            text: difference_text(d),
            colour: PURPLE,
            height: 22.0,
        };
        difference_panel(
            &mut doc,
            Area {
                x: 110.0,
                y: 330.0,
                w: 580.0,
                h: 44.0,
            },
            "Paired difference A − B in win rate (points), with its 95% interval",
            (nice_axis(reach.max(5.0), true), 100.0),
            (
                &|v| format!("{v:+.0}"),
                "points (A − B); left of 0: B wins more often",
            ),
            &points,
        );
    }
    // The paired difference in mean waves won: where nearly every game is lost, the score that still
    // tells the arms apart.
    let q = Area {
        x: 110.0,
        y: if endless { 140.0 } else { 470.0 },
        w: 580.0,
        h: 44.0,
    };
    let reach = d
        .waves_won_ci95
        .iter()
        .chain([&d.waves_won])
        .fold(0.0f64, |m, x| m.max(x.abs()));
    let waves_won = Estimate {
        value: d.waves_won,
        ci: d.waves_won_ci95,
        class: "waves-difference",
        text: waves_difference_text(d),
        colour: PURPLE,
        height: 22.0,
    };
    difference_panel(
        &mut doc,
        q,
        "Paired difference A − B in mean waves won, with its 95% interval",
        (nice_axis(reach.max(0.5), false), 1.0),
        (&signed_tick, "waves (A − B); left of 0: B holds out longer"),
        &waves_won,
    );
    // Loss waves side by side.
    let l = Area {
        x: 110.0,
        y: q.y + 140.0,
        w: 440.0,
        h: 380.0,
    };
    panel_title(&mut doc, l, "Wave the village fell in");
    let most = a
        .loss_wave
        .values()
        .chain(b.loss_wave.values())
        .copied()
        .max()
        .unwrap_or(0) as f64;
    let scale = nice_axis(most, true);
    y_axis(
        &mut doc,
        l,
        scale,
        &|v| format!("{v:.0}"),
        "games lost in the wave",
    );
    let groups: Vec<Group> = wave_axis(waves, &[a, b])
        .iter()
        .map(|w| Group {
            label: w.to_string(),
            values: [a, b]
                .iter()
                .map(|r| {
                    let c = r.loss_wave.get(w).copied().unwrap_or(0);
                    (c as f64, c.to_string())
                })
                .collect(),
        })
        .collect();
    vbars(&mut doc, l, scale.0, &groups, &series, "loss-wave");
    x_axis_title(&mut doc, l, 40.0, "wave");
    let c = Area {
        x: 640.0,
        y: q.y + 140.0,
        w: 320.0,
        h: 380.0,
    };
    causes_panel(&mut doc, c, &[(a, BLUE), (b, ORANGE)], a.games.max(b.games));
    // What each arm plays: the variant's own description (or the plain rules), under the panels.
    for (k, (arm, text)) in [("A", descriptions.0), ("B", descriptions.1)]
        .iter()
        .enumerate()
    {
        let line = fit(&format!("{arm}: {text}"), width - 80.0, 12.0);
        doc.text(
            40.0,
            height - 36.0 + 18.0 * k as f64,
            12.0,
            r#"class="arm-description""#,
            &line,
        );
    }
    doc.finish()
}

/// `village odds ... --svg`: the chance of each outcome as bars, then the chance of at least and of
/// at most each outcome, as AnyDice shows them. `outcomes` run from the worst to the best for the one
/// rolling; `note` is a line under the title (a turnover's chance, the modifiers).
pub fn odds_svg(title: &str, note: &str, axis: &str, outcomes: &[(String, f64)]) -> String {
    let n = outcomes.len().max(1) as f64;
    // Each outcome's slot is as wide as its longest label line.
    let slot = outcomes
        .iter()
        .flat_map(|(l, _)| l.split('\n'))
        .map(|l| text_width(l, 12.0, false) + 14.0)
        .fold(80.0, f64::max);
    let width = (160.0 + n * slot).max(760.0);
    let (panel_h, gap) = (200.0, 110.0);
    let two_lines = outcomes.iter().any(|(l, _)| l.contains('\n'));
    let gap = if two_lines { gap + 14.0 } else { gap };
    let height = 124.0 + 3.0 * (panel_h + gap);
    let mut doc = Doc::new(width, height, title);
    heading(&mut doc, title);
    subheading(&mut doc, 58.0, note);
    let exactly: Vec<f64> = outcomes.iter().map(|o| o.1).collect();
    let at_least: Vec<f64> = (0..exactly.len())
        .map(|i| exactly[i..].iter().sum())
        .collect();
    let at_most: Vec<f64> = (0..exactly.len())
        .map(|i| exactly[..=i].iter().sum())
        .collect();
    let views = [
        ("Exactly", "exactly", exactly),
        ("At least (this or better)", "at-least", at_least),
        ("At most (this or worse)", "at-most", at_most),
    ];
    for (k, (name, class, values)) in views.iter().enumerate() {
        let a = Area {
            x: 110.0,
            y: 124.0 + k as f64 * (panel_h + gap),
            w: width - 150.0,
            h: panel_h,
        };
        panel_title(&mut doc, a, name);
        let groups: Vec<Group> = outcomes
            .iter()
            .zip(values)
            .map(|((label, _), p)| {
                let p = p.clamp(0.0, 1.0);
                Group {
                    label: label.clone(),
                    values: vec![(p, pct_places(p))],
                }
            })
            .collect();
        let most = groups
            .iter()
            .flat_map(|g| g.values.iter().map(|v| v.0))
            .fold(0.0, f64::max);
        // The cumulative views share one 0–100% axis; the distribution's own axis fits its tallest bar.
        let scale = if k == 0 {
            nice_axis(most, false)
        } else {
            (1.0, 0.2)
        };
        y_axis(&mut doc, a, scale, &pct, "chance");
        vbars(
            &mut doc,
            a,
            scale.0,
            &groups,
            &[Series {
                name: (*name).to_string(),
                colour: [BLUE, "#2f9e44", "#ae3ec9"][k],
            }],
            class,
        );
        x_axis_title(&mut doc, a, if two_lines { 50.0 } else { 36.0 }, axis);
    }
    doc.finish()
}

/// A chance with two decimals, as `village odds` prints it ("22.22%").
fn pct_places(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_end_on_round_numbers() {
        assert_eq!(nice_axis(37.0, true), (40.0, 10.0));
        assert_eq!(nice_axis(3.0, true), (3.0, 1.0));
        let (max, step) = nice_axis(0.444, false);
        assert!(max >= 0.444 && (max / step).round() <= 6.0, "{max} {step}");
    }
}
