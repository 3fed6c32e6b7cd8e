//! `village calibrate`: the value of a knob that gives a target (a win rate, or mean waves won). The
//! knob's values are searched by bisection, assuming the game answers monotonically; at each value
//! tried, games are added (doubling, on the same seeds as every other value) until its estimate's 95%
//! interval lies on one side of the target or the games per value run out. The answer is the value
//! whose estimate is nearest the target, and the interval is every value between the nearest ones
//! known to be below and above it.

use super::{point_options, Axis};
use crate::sim::{report, GameRecord, SimOptions};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// What to reach.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// A win rate, 0 to 1.
    WinRate(f64),
    /// Mean waves won a game.
    WavesWon(f64),
}

impl Target {
    /// `win_rate=0.5` or `waves_won=4`.
    pub fn parse(t: &str) -> Result<Target, String> {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| format!("--target {t:?}: write win_rate=0.5 or waves_won=4"))?;
        let v: f64 = v
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("--target {t:?}: {:?} is not a number", v.trim()))?;
        match k.trim() {
            "win_rate" if (0.0..=1.0).contains(&v) => Ok(Target::WinRate(v)),
            "win_rate" => Err(format!(
                "--target {t:?}: a win rate is 0 to 1 (0.5 is half the games)"
            )),
            "waves_won" if v >= 0.0 => Ok(Target::WavesWon(v)),
            "waves_won" => Err(format!("--target {t:?}: waves won are 0 or more")),
            other => Err(format!(
                "--target: {}",
                crate::names::unknown("target", other, ["win_rate", "waves_won"])
            )),
        }
    }

    /// The target's measure and value.
    pub fn parts(self) -> (&'static str, f64) {
        match self {
            Target::WinRate(v) => ("win_rate", v),
            Target::WavesWon(v) => ("waves_won", v),
        }
    }

    /// The estimate and its 95% interval of `records` in this target's measure.
    fn estimate(self, records: &[GameRecord]) -> (f64, [f64; 2]) {
        let r = report(records);
        match self {
            Target::WinRate(_) => (r.win_rate, r.ci95),
            Target::WavesWon(_) => (r.waves_won_mean, r.waves_won_ci95),
        }
    }
}

/// One value tried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tried {
    pub value: String,
    pub games: u64,
    pub estimate: f64,
    pub ci95: [f64; 2],
}

/// What `calibrate` found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub key: String,
    /// `win_rate` or `waves_won`, and the value aimed at.
    pub measure: String,
    pub target: f64,
    /// The value whose estimate is nearest the target.
    pub value: String,
    /// Its estimate and 95% interval, and the games played at it.
    pub estimate: f64,
    pub ci95: [f64; 2],
    pub games_at_value: u64,
    /// The values the target lies between: the last one known to fall short of it (or the range's
    /// first) and the first known to pass it (or the range's last).
    pub interval: [String; 2],
    /// Whether the range's ends lie on both sides of the target (else the value is the nearer end).
    pub bracketed: bool,
    /// Games played in all, over every value tried.
    pub games: u64,
    /// Every value tried, in the order of the range.
    pub tried: Vec<Tried>,
}

/// Where a value's estimate lies against the target, as far as its games tell.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    Below,
    Above,
    Unsure,
}

/// The search's state: the games played at each value tried (on seeds 0, 1, … of the run).
struct Search<'a> {
    axis: &'a Axis,
    base: &'a SimOptions,
    dir: &'a Path,
    target: Target,
    start: u64,
    max: u64,
    played: BTreeMap<usize, Vec<GameRecord>>,
    tick: &'a (dyn Fn(&str, u64) + Sync),
}

impl Search<'_> {
    /// Plays value `i` up to `games` games (only the games it has not played yet).
    fn play(&mut self, i: usize, games: u64) -> Result<(), String> {
        let have = self.played.get(&i).map_or(0, |r| r.len() as u64);
        if have >= games {
            return Ok(());
        }
        let dir = self.dir.join(super::point_dir(i));
        let opts = point_options(self.base, std::slice::from_ref(self.axis), &[i], &dir)?;
        let opts = SimOptions {
            first: have,
            games: games - have,
            jobs: self
                .base
                .jobs
                .min(usize::try_from(games - have).unwrap_or(1)),
            ..opts
        };
        let label = format!("{}={}", self.axis.key, self.axis.labels[i]);
        let recs = crate::sim::run(&opts, &|n| (self.tick)(&label, n))
            .map_err(|e| format!("{label}: {e}"))?;
        self.played.entry(i).or_default().extend(recs);
        Ok(())
    }

    /// Value `i`'s side of the target, with games added until it is sure or the games run out.
    fn side(&mut self, i: usize) -> Result<Side, String> {
        let mut games = self.start;
        loop {
            self.play(i, games)?;
            let (_, ci) = self.target.estimate(&self.played[&i]);
            let t = self.target.parts().1;
            if ci[0] > t {
                return Ok(Side::Above);
            }
            if ci[1] < t {
                return Ok(Side::Below);
            }
            if games >= self.max {
                return Ok(Side::Unsure);
            }
            games = (games * 2).min(self.max);
        }
    }

    /// The first index in `lo..=hi` whose side meets `hit` (assumed to hold from some index on), by
    /// bisection; `hi + 1` when none does.
    fn first(
        &mut self,
        (mut lo, mut hi): (usize, usize),
        hit: impl Fn(Side) -> bool,
    ) -> Result<usize, String> {
        let mut found = hi + 1;
        while lo <= hi {
            let mid = lo + (hi - lo) / 2;
            if hit(self.side(mid)?) {
                found = mid;
                if mid == 0 {
                    break;
                }
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        Ok(found)
    }
}

/// Finds the value of `axis` (a numeric range) that gives `target` over `base`, starting each value
/// with `start` games and adding games up to `max` where the answer is uncertain. Point folders go in
/// `dir`. `tick(value, games)` follows the games.
pub fn calibrate(
    axis: &Axis,
    base: &SimOptions,
    dir: &Path,
    target: Target,
    (start, max): (u64, u64),
    tick: &(dyn Fn(&str, u64) + Sync),
) -> Result<Calibration, String> {
    let n = axis.labels.len();
    if n < 2 {
        return Err(format!(
            "{}: give a range of values to search (a..b or a list)",
            axis.key
        ));
    }
    let mut s = Search {
        axis,
        base,
        dir,
        target,
        start: start.max(1),
        max: max.max(start),
        played: BTreeMap::new(),
        tick,
    };
    let (first, last) = (s.side(0)?, s.side(n - 1)?);
    // The side the range starts on; the search looks for where it stops being on it.
    let (from, to) = match (first, last) {
        (Side::Below, Side::Above) | (Side::Below, Side::Unsure) | (Side::Unsure, Side::Above) => {
            (Side::Below, Side::Above)
        }
        (Side::Above, Side::Below) | (Side::Above, Side::Unsure) | (Side::Unsure, Side::Below) => {
            (Side::Above, Side::Below)
        }
        _ => (first, first),
    };
    let bracketed = from != to;
    let (lo, hi) = if bracketed {
        // The last value still on the starting side, and the first on the far side.
        // The first value off the starting side, then the first surely on the far one.
        let first_off = s.first((0, n - 1), |side| side != from)?;
        let first_far = s.first((first_off, n - 1), |side| side == to)?;
        (first_off.saturating_sub(1), first_far.min(n - 1))
    } else {
        (0, n - 1)
    };
    let nearest = s
        .played
        .iter()
        .filter(|(i, _)| (lo..=hi).contains(*i))
        .map(|(i, r)| (*i, (target.estimate(r).0 - target.parts().1).abs()))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(0, |(i, _)| i);
    let (estimate, ci95) = target.estimate(&s.played[&nearest]);
    let (measure, t) = target.parts();
    Ok(Calibration {
        key: axis.key.clone(),
        measure: measure.to_string(),
        target: t,
        value: axis.labels[nearest].clone(),
        estimate,
        ci95,
        games_at_value: s.played[&nearest].len() as u64,
        interval: [axis.labels[lo].clone(), axis.labels[hi].clone()],
        bracketed,
        games: s.played.values().map(|r| r.len() as u64).sum(),
        tried: s
            .played
            .iter()
            .map(|(i, r)| {
                let (estimate, ci95) = target.estimate(r);
                Tried {
                    value: axis.labels[*i].clone(),
                    games: r.len() as u64,
                    estimate,
                    ci95,
                }
            })
            .collect(),
    })
}

/// The calibration as text.
pub fn text(c: &Calibration, seconds: f64) -> String {
    let fmt = |v: f64| {
        if c.measure == "win_rate" {
            format!("{:.1}%", v * 100.0)
        } else {
            format!("{v:.2}")
        }
    };
    let mut s = String::new();
    if c.bracketed {
        s.push_str(&format!(
            "{} = {} gives {} {} (95%: {}–{}) over {} games, for a target of {}.\n",
            c.key,
            c.value,
            c.measure.replace('_', " "),
            fmt(c.estimate),
            fmt(c.ci95[0]),
            fmt(c.ci95[1]),
            c.games_at_value,
            fmt(c.target)
        ));
        s.push_str(&format!(
            "The target lies between {} = {} and {}: the nearest values whose games tell them from it \
             (or the range's ends).\n",
            c.key, c.interval[0], c.interval[1]
        ));
    } else {
        s.push_str(&format!(
            "The target {} {} is not inside the range: the whole range lies on one side of it. The \
             nearest value is {} = {}, {} (95%: {}–{}) over {} games.\n",
            c.measure.replace('_', " "),
            fmt(c.target),
            c.key,
            c.value,
            fmt(c.estimate),
            fmt(c.ci95[0]),
            fmt(c.ci95[1]),
            c.games_at_value
        ));
    }
    s.push_str("Values tried:\n");
    for t in &c.tried {
        s.push_str(&format!(
            "  {:>8}  {:>6} (95%: {}–{})  {} games\n",
            t.value,
            fmt(t.estimate),
            fmt(t.ci95[0]),
            fmt(t.ci95[1]),
            t.games
        ));
    }
    s.push_str(&format!(
        "{} games in all, {seconds:.1} s ({:.1} games/s)\n",
        c.games,
        if seconds > 0.0 {
            c.games as f64 / seconds
        } else {
            0.0
        }
    ));
    s
}
