//! What a run's records say: the report (outcomes with the win rate's interval, draws, the waves
//! won, the causes, Victory Points, the means and the firings), its text, and the paired difference of
//! two arms played on the same seeds.

use super::{FailedGame, GameRecord};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a run says: outcomes with the win rate's 95% interval, when the village fell, and the means
/// and counts the records hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub games: u64,
    pub wins: u64,
    pub losses: u64,
    pub stalled: u64,
    /// Games drawn (a scenario's battle).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub draws: u64,
    pub win_rate: f64,
    /// Wilson score interval of the win rate.
    pub ci95: [f64; 2],
    /// Mean waves won a game: the score that still tells runs apart where nearly every game is lost.
    pub waves_won_mean: f64,
    /// Its 95% interval (mean ± 1.96 standard errors).
    pub waves_won_ci95: [f64; 2],
    /// The median waves won a game.
    pub waves_won_median: f64,
    /// Games by the waves they won.
    pub waves_won_games: BTreeMap<u32, u64>,
    /// Mean rounds survived a game.
    pub rounds_survived_mean: f64,
    /// The run's length is endless (Defender mode): nobody wins, the score is the waves won, and the
    /// text leaves the win rate out. Set by whoever knows the length (`village sim`, `merge`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub endless: bool,
    /// Games by why they ended (SUPPLEMENT §10), every cause listed.
    pub causes: BTreeMap<String, u64>,
    /// Losses by the wave the village fell in.
    pub loss_wave: BTreeMap<u32, u64>,
    pub town_hall_integrity_mean: f64,
    pub wounds_mean: f64,
    pub defeats_mean: f64,
    pub buildings_destroyed_mean: f64,
    pub supplies_spent_mean: f64,
    /// Events naming each script, over the run.
    pub firings: BTreeMap<String, u64>,
    /// Games in which each script acted.
    pub firing_games: BTreeMap<String, u64>,
    /// Decisions by who decided and script, over the run (`sim --decisions`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub decisions: BTreeMap<String, u64>,
    /// Games in which each decided.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub decision_games: BTreeMap<String, u64>,
    /// A scenario's battle: the Victory Points of each side, a game's mean with its interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<VpReport>,
    /// Games that failed (`village sim --keep-going`): not counted in anything above.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<FailedGame>,
    /// The audit's breaches by kind over the run (`sim --audit`), and the first of each kind.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audit: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audit_first: BTreeMap<String, String>,
}

/// The Victory Points of a run's battles: each side's mean a game and its 95% interval, and the
/// heroes' margin (heroes − enemies).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VpReport {
    pub heroes_mean: f64,
    pub heroes_ci95: [f64; 2],
    pub enemies_mean: f64,
    pub enemies_ci95: [f64; 2],
    pub margin_mean: f64,
    pub margin_ci95: [f64; 2],
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The VP report of records that carry Victory Points (`None` when none does).
fn vp_report(records: &[GameRecord]) -> Option<VpReport> {
    let vps: Vec<[u32; 2]> = records.iter().filter_map(|g| g.vp).collect();
    if vps.is_empty() {
        return None;
    }
    let side = |i: usize| mean_ci(&vps.iter().map(|v| f64::from(v[i])).collect::<Vec<_>>());
    let (heroes_mean, heroes_ci95) = side(0);
    let (enemies_mean, enemies_ci95) = side(1);
    let (margin_mean, margin_ci95) = mean_ci(
        &vps.iter()
            .map(|v| f64::from(v[0]) - f64::from(v[1]))
            .collect::<Vec<_>>(),
    );
    Some(VpReport {
        heroes_mean,
        heroes_ci95,
        enemies_mean,
        enemies_ci95,
        margin_mean,
        margin_ci95,
    })
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 0.0];
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.959_963_984_540_054_f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// The mean of `xs` and its 95% interval (mean ± 1.96 standard errors, the sample's standard
/// deviation; a single value has an interval of itself), each rounded as a report prints it.
pub fn mean_ci(xs: &[f64]) -> (f64, [f64; 2]) {
    if xs.is_empty() {
        return (0.0, [0.0, 0.0]);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (r4(mean), [r4(mean - half), r4(mean + half)])
}

/// Round to four decimals, so a report prints the same on every machine.
fn r4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// The report of a run's records.
pub fn report(records: &[GameRecord]) -> Report {
    let n = records.len() as u64;
    let count = |r: &str| records.iter().filter(|g| g.result == r).count() as u64;
    let wins = count("win");
    let mean = |f: &dyn Fn(&GameRecord) -> f64| {
        if n == 0 {
            0.0
        } else {
            r4(records.iter().map(f).sum::<f64>() / n as f64)
        }
    };
    let mut loss_wave = BTreeMap::new();
    let mut firings = BTreeMap::new();
    let mut firing_games = BTreeMap::new();
    let mut decisions = BTreeMap::new();
    let mut decision_games = BTreeMap::new();
    // Every cause of the rulebook's game is listed; a battle's only when a game ended by it.
    let mut causes: BTreeMap<String, u64> = crate::rules::end::Cause::ALL
        .iter()
        .filter(|c| !c.of_battle())
        .map(|c| (c.as_str().to_string(), 0))
        .collect();
    let mut waves_won_games = BTreeMap::new();
    for g in records {
        *causes.entry(g.cause.clone()).or_default() += 1;
        *waves_won_games.entry(g.waves_won).or_default() += 1;
        if let Some(w) = g.lost_at_wave {
            *loss_wave.entry(w).or_default() += 1;
        }
        // Saturating: records read back from shards are checked (`merge` refuses sums that would pass
        // 2^64), and a count that could wrap must never print as a small one.
        for (s, c) in &g.firings {
            let n: &mut u64 = firings.entry(s.clone()).or_default();
            *n = n.saturating_add(*c);
            *firing_games.entry(s.clone()).or_default() += 1;
        }
        for (s, c) in &g.decisions {
            let n: &mut u64 = decisions.entry(s.clone()).or_default();
            *n = n.saturating_add(*c);
            *decision_games.entry(s.clone()).or_default() += 1;
        }
    }
    let ci = wilson(wins, n);
    let waves: Vec<f64> = records.iter().map(|g| f64::from(g.waves_won)).collect();
    let (waves_won_mean, waves_won_ci95) = mean_ci(&waves);
    Report {
        games: n,
        wins,
        losses: count("loss"),
        stalled: count("stalled"),
        draws: count("draw"),
        win_rate: if n == 0 {
            0.0
        } else {
            r4(wins as f64 / n as f64)
        },
        ci95: [r4(ci[0]), r4(ci[1])],
        waves_won_mean,
        waves_won_ci95,
        waves_won_median: median(&waves),
        waves_won_games,
        rounds_survived_mean: mean(&|g| f64::from(g.rounds_survived)),
        endless: false,
        causes,
        loss_wave,
        town_hall_integrity_mean: mean(&|g| f64::from(g.town_hall_integrity)),
        wounds_mean: mean(&|g| f64::from(g.wounds)),
        defeats_mean: mean(&|g| f64::from(g.defeats)),
        buildings_destroyed_mean: mean(&|g| f64::from(g.destroyed)),
        supplies_spent_mean: mean(&|g| g.supplies_spent as f64),
        vp: vp_report(records),
        firings,
        firing_games,
        decisions,
        decision_games,
        failed: Vec::new(),
        audit: records.iter().fold(BTreeMap::new(), |mut m, g| {
            for (k, n) in &g.audit {
                *m.entry(k.clone()).or_default() += n;
            }
            m
        }),
        audit_first: records.iter().fold(BTreeMap::new(), |mut m, g| {
            for (k, t) in &g.audit_first {
                m.entry(k.clone()).or_insert_with(|| t.clone());
            }
            m
        }),
    }
}

/// The report as text: outcomes, the interval, a histogram of the wave of loss, the means, the firings
/// and the speed.
pub fn text(r: &Report, seconds: f64) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let pct = |x: f64| x * 100.0;
    if r.endless {
        let _ = writeln!(
            out,
            "{} games of Defender mode (endless: nobody wins): {} lost, {} stalled",
            r.games, r.losses, r.stalled
        );
    } else {
        let _ = writeln!(
            out,
            "{} games: {} won, {} lost, {} stalled{} — win rate {:.1}% (95% CI {:.1}–{:.1}%)",
            r.games,
            r.wins,
            r.losses,
            r.stalled,
            drawn(r.draws),
            pct(r.win_rate),
            pct(r.ci95[0]),
            pct(r.ci95[1])
        );
    }
    // The score; in Defender mode, where it is the only one, its median too.
    let median = if r.endless {
        format!(", median {}", r.waves_won_median)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "Waves won: mean {:.2} (95% CI {:.2}–{:.2}){median}; rounds survived: mean {:.1}",
        r.waves_won_mean, r.waves_won_ci95[0], r.waves_won_ci95[1], r.rounds_survived_mean
    );
    let causes: Vec<String> = r
        .causes
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(c, n)| format!("{c} {n}"))
        .collect();
    let _ = writeln!(out, "Ended by: {}", causes.join(", "));
    if let Some(v) = &r.vp {
        let _ = writeln!(
            out,
            "Victory Points (mean a game): heroes {:.2} (95% CI {:.2}–{:.2}), enemies {:.2} ({:.2}–{:.2}); margin {:+.2} ({:+.2} to {:+.2})",
            v.heroes_mean,
            v.heroes_ci95[0],
            v.heroes_ci95[1],
            v.enemies_mean,
            v.enemies_ci95[0],
            v.enemies_ci95[1],
            v.margin_mean,
            v.margin_ci95[0],
            v.margin_ci95[1]
        );
    }
    // Endless: the score's histogram (games by waves won); else when the village fell.
    let (title, rows) = if r.endless {
        ("Waves won", &r.waves_won_games)
    } else {
        ("Wave the village fell in", &r.loss_wave)
    };
    if !rows.is_empty() {
        let _ = writeln!(out, "\n{title}:");
        let most = rows.values().copied().max().unwrap_or(1).max(1);
        for (w, c) in rows {
            let bar = "#".repeat(((c * 40).div_ceil(most)) as usize);
            let label = if r.endless {
                format!("{w:>3} won")
            } else {
                format!("wave {w:>2}")
            };
            let _ = writeln!(out, "  {label} {c:>6}  {bar}");
        }
    }
    let _ = writeln!(
        out,
        "\nAt the end (means): Town Hall Integrity {:.2}, party Wounds {:.2}, heroes Defeated {:.2}, buildings Destroyed {:.2}, Supplies spent {:.2}",
        r.town_hall_integrity_mean,
        r.wounds_mean,
        r.defeats_mean,
        r.buildings_destroyed_mean,
        r.supplies_spent_mean
    );
    if !r.firings.is_empty() {
        let _ = writeln!(
            out,
            "\nSignatures, Alpha Rules, Opportunities and spells (events; games):"
        );
        for (s, c) in &r.firings {
            let _ = writeln!(
                out,
                "  {s:<45} {c:>7}  {:>6}",
                r.firing_games.get(s).copied().unwrap_or(0)
            );
        }
    }
    if !r.decisions.is_empty() {
        let _ = writeln!(
            out,
            "\nDecisions, by who decided and script (decisions; games):"
        );
        for (s, c) in &r.decisions {
            let _ = writeln!(
                out,
                "  {s:<56} {c:>7}  {:>6}",
                r.decision_games.get(s).copied().unwrap_or(0)
            );
        }
    }
    if !r.failed.is_empty() {
        let _ = writeln!(
            out,
            "\n{} game{} failed (not counted above):",
            r.failed.len(),
            if r.failed.len() == 1 { "" } else { "s" }
        );
        for f in r.failed.iter().take(10) {
            let _ = writeln!(out, "  {f}");
        }
        if r.failed.len() > 10 {
            let _ = writeln!(
                out,
                "  … {} more (--json lists them all)",
                r.failed.len() - 10
            );
        }
    }
    if seconds > 0.0 {
        let _ = writeln!(
            out,
            "\n{:.1} games per second ({:.1} s)",
            r.games as f64 / seconds,
            seconds
        );
    }
    out
}

/// The difference of two arms played on the same seeds (common random numbers): arm A minus arm B in
/// the win rate and in the mean waves won, each with the 95% interval of the paired difference (game
/// i of A against game i of B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Difference {
    pub win_rate: f64,
    pub ci95: [f64; 2],
    /// Mean waves won, A − B.
    pub waves_won: f64,
    pub waves_won_ci95: [f64; 2],
    /// A scenario's battle: the heroes' VP margin (heroes − enemies), A − B, and its interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp_margin: Option<(f64, [f64; 2])>,
    /// Games that ended differently between the arms: another result, or after another number of waves
    /// won ([`GameRecord::ended_like`]).
    pub games_differing: u64,
}

/// The paired difference of two arms' records (game i of A with game i of B).
pub fn difference(a: &[GameRecord], b: &[GameRecord]) -> Difference {
    let paired = |f: &dyn Fn(&GameRecord) -> f64| {
        let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| f(x) - f(y)).collect();
        mean_ci(&d)
    };
    let (win_rate, ci95) = paired(&|g| f64::from(u8::from(g.result == "win")));
    let (waves_won, waves_won_ci95) = paired(&|g| f64::from(g.waves_won));
    let margin = |g: &GameRecord| g.vp.map(|v| f64::from(v[0]) - f64::from(v[1]));
    let vp_margin = a
        .iter()
        .chain(b)
        .any(|g| g.vp.is_some())
        .then(|| paired(&|g| margin(g).unwrap_or(0.0)));
    Difference {
        win_rate,
        ci95,
        waves_won,
        waves_won_ci95,
        vp_margin,
        games_differing: a.iter().zip(b).filter(|(x, y)| !x.ended_like(y)).count() as u64,
    }
}

/// The median of `xs` (the mean of the middle two for an even count); 0 for none.
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// ", N drawn" when a run had draws (a scenario's battle); nothing otherwise, so the rulebook's text
/// reads as it always has.
pub fn drawn(draws: u64) -> String {
    if draws == 0 {
        String::new()
    } else {
        format!(", {draws} drawn")
    }
}
