//! What a sweep's points say: per point the win rate and mean waves won with their intervals, the
//! paired difference from the baseline point and from the previous point along each axis, and what
//! ended the games it lost; as text and as CSV (JSON is the report itself).

use super::Plan;
use crate::sim::{difference, report as sim_report, Difference, GameRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointReport {
    /// The point's value on each axis, as labelled.
    pub values: Vec<String>,
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub stalled: u64,
    pub win_rate: f64,
    /// Wilson score interval of the win rate.
    pub ci95: [f64; 2],
    pub waves_won_mean: f64,
    pub waves_won_ci95: [f64; 2],
    /// Games lost, by what ended them (SUPPLEMENT §10).
    pub loss_causes: BTreeMap<String, u64>,
    /// This point − the baseline point, game by game on the same seeds.
    pub vs_baseline: Difference,
    /// This point − the previous point along each axis (none at an axis's first value).
    pub steps: Vec<Option<Difference>>,
}

/// A sweep's report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepReport {
    pub keys: Vec<String>,
    /// Each axis's values as labelled.
    pub labels: Vec<Vec<String>>,
    /// Each axis's values as numbers, when they are.
    pub numbers: Vec<Option<Vec<f64>>>,
    /// The baseline point's value on each axis.
    pub baseline: Vec<String>,
    pub games_per_point: u64,
    pub seed: u64,
    pub heroes: Vec<String>,
    pub length: String,
    pub preset: String,
    pub variants: Vec<String>,
    pub policy: String,
    /// In grid order (the last axis turning fastest).
    pub points: Vec<PointReport>,
}

impl SweepReport {
    /// The preset and the run's own variants: `rulebook`, `veteran + single_horde`.
    pub fn rules(&self) -> String {
        if self.variants.is_empty() {
            self.preset.clone()
        } else {
            format!("{} + {}", self.preset, self.variants.join(", "))
        }
    }
}

/// The report of a sweep whose point `i` (of `plan.points`) played `records[i]`, all on the same
/// seeds.
pub fn sweep_report(plan: &Plan, records: &[Vec<GameRecord>]) -> SweepReport {
    let index = |p: &[usize]| plan.points.iter().position(|q| q == p);
    let base = index(&plan.baseline).and_then(|i| records.get(i));
    let points = plan
        .points
        .iter()
        .zip(records)
        .map(|(p, recs)| {
            let r = sim_report(recs);
            let mut loss_causes = BTreeMap::new();
            for g in recs.iter().filter(|g| g.result == "loss") {
                *loss_causes.entry(g.cause.clone()).or_insert(0) += 1;
            }
            let steps = (0..p.len())
                .map(|axis| {
                    let prev = p[axis].checked_sub(1)?;
                    let mut q = p.clone();
                    q[axis] = prev;
                    Some(difference(recs, records.get(index(&q)?)?))
                })
                .collect();
            PointReport {
                values: p
                    .iter()
                    .zip(&plan.labels)
                    .map(|(&i, l)| l[i].clone())
                    .collect(),
                games: r.games,
                wins: r.wins,
                losses: r.losses,
                stalled: r.stalled,
                win_rate: r.win_rate,
                ci95: r.ci95,
                waves_won_mean: r.waves_won_mean,
                waves_won_ci95: r.waves_won_ci95,
                loss_causes,
                vs_baseline: difference(recs, base.map_or(recs.as_slice(), Vec::as_slice)),
                steps,
            }
        })
        .collect();
    SweepReport {
        keys: plan.keys.clone(),
        labels: plan.labels.clone(),
        numbers: plan.numbers.clone(),
        baseline: plan
            .baseline
            .iter()
            .zip(&plan.labels)
            .map(|(&i, l)| l[i].clone())
            .collect(),
        games_per_point: plan.base.games,
        seed: plan.base.seed,
        heroes: plan.base.heroes.clone(),
        length: plan.base.length.clone(),
        preset: plan.base.preset.clone(),
        variants: plan.base.variants.clone(),
        policy: plan.base.policy.clone(),
        points,
    }
}

fn pct(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// `+0.12 (-0.03 to +0.27)`: a paired difference in waves won.
fn waves_diff(d: &Difference) -> String {
    format!(
        "{:+.2} ({:+.2} to {:+.2})",
        d.waves_won, d.waves_won_ci95[0], d.waves_won_ci95[1]
    )
}

/// `+4.2 pts (+1.0 to +7.4)`: a paired difference in win rate.
fn win_diff(d: &Difference) -> String {
    format!(
        "{:+.1} pts ({:+.1} to {:+.1})",
        d.win_rate * 100.0,
        d.ci95[0] * 100.0,
        d.ci95[1] * 100.0
    )
}

/// Short words for a cause of loss.
fn cause_word(c: &str) -> &str {
    match c {
        "town_hall_destroyed" => "Town Hall",
        "overrun" => "overrun",
        "party_defeated" => "party",
        other => other,
    }
}

/// The report as a table, one row a point; `seconds` the time it took (`None`: merged from a batch
/// run's shards).
pub fn text(r: &SweepReport, seconds: Option<f64>) -> String {
    let games: u64 = r.points.iter().map(|p| p.games).sum();
    let mut s = format!(
        "Sweep of {} over {} points, {} games each on the same seeds (from seed {}): {}, {}, {}, \
         policy {}\n",
        r.keys.join(" × "),
        r.points.len(),
        r.games_per_point,
        r.seed,
        r.heroes.join(", "),
        r.length,
        r.rules(),
        r.policy
    );
    let mut rows: Vec<Vec<String>> = vec![r
        .keys
        .iter()
        .map(|k| short_key(k).to_string())
        .chain(
            [
                "win rate (95%)",
                "waves won (95%)",
                "vs baseline: waves",
                "win rate",
                "step: waves",
                "losses by cause",
            ]
            .map(String::from),
        )
        .collect()];
    let step_axis = r.keys.len() - 1;
    for p in &r.points {
        let mut row = p.values.clone();
        let base = p.values == r.baseline;
        row.push(format!(
            "{} ({}–{})",
            pct(p.win_rate),
            pct(p.ci95[0]),
            pct(p.ci95[1])
        ));
        row.push(format!(
            "{:.2} ({:.2}–{:.2})",
            p.waves_won_mean, p.waves_won_ci95[0], p.waves_won_ci95[1]
        ));
        if base {
            row.push("baseline".into());
            row.push(String::new());
        } else {
            row.push(waves_diff(&p.vs_baseline));
            row.push(win_diff(&p.vs_baseline));
        }
        row.push(
            p.steps[step_axis]
                .as_ref()
                .map_or_else(|| "—".to_string(), waves_diff),
        );
        let causes: Vec<String> = p
            .loss_causes
            .iter()
            .map(|(c, n)| format!("{} {n}", cause_word(c)))
            .collect();
        row.push(if causes.is_empty() {
            "—".into()
        } else {
            causes.join(", ")
        });
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell}{}", " ".repeat(w - cell.chars().count())))
            .collect();
        s.push_str(line.join("  ").trim_end());
        s.push('\n');
    }
    s.push_str(&format!(
        "Baseline: {}. Differences are paired game by game (point − baseline; a step is a point − \
         the one before it along {}), with 95% intervals.\n",
        r.keys
            .iter()
            .zip(&r.baseline)
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        r.keys[step_axis]
    ));
    s.push_str(&match seconds {
        Some(t) => format!(
            "{games} games in {t:.1} s ({:.1} games/s)\n",
            games as f64 / t.max(1e-9)
        ),
        None => format!("{games} games, merged from the shards of a batch run\n"),
    });
    s
}

/// The last part of a key, for a column heading (`combat` of `heroes."Captain Maren".combat`).
fn short_key(k: &str) -> &str {
    k.rsplit('.').next().unwrap_or(k).trim_matches('"')
}

/// A CSV field, quoted when it must be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The report as CSV: one row a point, a column for each axis, the estimates and their intervals,
/// the paired differences and the losses by cause.
pub fn csv(r: &SweepReport) -> String {
    let causes: std::collections::BTreeSet<&String> =
        r.points.iter().flat_map(|p| p.loss_causes.keys()).collect();
    let mut head: Vec<String> = r.keys.iter().map(|k| field(k)).collect();
    head.extend(
        [
            "games",
            "wins",
            "losses",
            "stalled",
            "win_rate",
            "win_rate_lo",
            "win_rate_hi",
            "waves_won",
            "waves_won_lo",
            "waves_won_hi",
            "vs_baseline_win_rate",
            "vs_baseline_win_rate_lo",
            "vs_baseline_win_rate_hi",
            "vs_baseline_waves_won",
            "vs_baseline_waves_won_lo",
            "vs_baseline_waves_won_hi",
            "step_waves_won",
            "step_waves_won_lo",
            "step_waves_won_hi",
        ]
        .map(String::from),
    );
    head.extend(causes.iter().map(|c| format!("losses_{c}")));
    let mut out = head.join(",") + "\n";
    let last = r.keys.len() - 1;
    for p in &r.points {
        let mut row: Vec<String> = p.values.iter().map(|v| field(v)).collect();
        let d = &p.vs_baseline;
        let step = p.steps[last].as_ref();
        let opt = |x: Option<f64>| x.map_or(String::new(), |v| v.to_string());
        row.extend([
            p.games.to_string(),
            p.wins.to_string(),
            p.losses.to_string(),
            p.stalled.to_string(),
            p.win_rate.to_string(),
            p.ci95[0].to_string(),
            p.ci95[1].to_string(),
            p.waves_won_mean.to_string(),
            p.waves_won_ci95[0].to_string(),
            p.waves_won_ci95[1].to_string(),
            d.win_rate.to_string(),
            d.ci95[0].to_string(),
            d.ci95[1].to_string(),
            d.waves_won.to_string(),
            d.waves_won_ci95[0].to_string(),
            d.waves_won_ci95[1].to_string(),
            opt(step.map(|s| s.waves_won)),
            opt(step.map(|s| s.waves_won_ci95[0])),
            opt(step.map(|s| s.waves_won_ci95[1])),
        ]);
        row.extend(
            causes
                .iter()
                .map(|c| p.loss_causes.get(*c).copied().unwrap_or(0).to_string()),
        );
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}
