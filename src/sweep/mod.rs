//! `village sweep` and `village calibrate`: how the game answers as a designer turns a knob. A knob is
//! an axis ([`Axis`]): a rule constant, a roster field or a preset's value (each a
//! [`crate::roster::patch::RosterKey`]), the variant in force or the preset played, over a range or a
//! list of values. Two axes make a grid. Every point plays the same seeds (common random numbers, as
//! `sim --vs` does), so neighbouring points and each point and the baseline are paired game by game.
//!
//! A point is a [`crate::sim::SimOptions`] like any run: the roster changes are a mod layer written to
//! the point's folder (`roster::patch::write_layer`), the variant and preset its options. So a point
//! runs anywhere a `village sim` runs, a batch job among them ([`crate::batch`]).

pub mod calibrate;
mod report;

pub use report::{csv, sweep_report, text, PointReport, SweepReport};

use crate::roster::patch::RosterKey;
use crate::sim::{GameRecord, SimOptions};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// At most this many points in a sweep: a typo in a step (`0..1000:1` for `0..1000:100`) is refused
/// rather than queued for days.
pub const MAX_POINTS: usize = 400;

/// What an axis turns.
#[derive(Debug, Clone, PartialEq)]
pub enum Knob {
    /// A key of the rosters.
    Roster(RosterKey),
    /// The variant in force beside the run's own (`none`: no other).
    Variant,
    /// The preset played.
    Preset,
}

/// One axis of a sweep: a knob and the values it takes, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The key as typed (`heroes."Captain Maren".combat`, `variant`).
    pub key: String,
    pub knob: Knob,
    /// Each value as the reports print it.
    pub labels: Vec<String>,
    /// Each value as the rosters take it (roster knobs only).
    values: Vec<toml::Value>,
    /// The value the run has without the sweep (the rosters', no variant, the run's preset), when it
    /// is one of the axis's values.
    pub current: Option<usize>,
}

impl Axis {
    /// Whether the axis's values are numbers (a curve can be drawn against them).
    pub fn numeric(&self) -> bool {
        self.values.iter().all(|v| v.is_integer() || v.is_float()) && !self.values.is_empty()
    }

    /// Value `i` as a number (numeric axes), else its position.
    pub fn number(&self, i: usize) -> f64 {
        match self.values.get(i) {
            Some(toml::Value::Integer(n)) => *n as f64,
            Some(toml::Value::Float(f)) => *f,
            _ => i as f64,
        }
    }
}

/// `KEY=RANGE` split at its first `=`.
fn split_set(set: &str) -> Result<(&str, &str), String> {
    set.split_once('=')
        .map(|(k, v)| (k.trim(), v.trim()))
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .ok_or_else(|| {
            format!(
                "--set {set:?}: write KEY=RANGE, as `heroes.\"Captain Maren\".combat=2..5`, \
                 `wave.budget_percent=80..140:10` or `variant=none,power_blow_lethal`"
            )
        })
}

/// The values a RANGE names for `key`: `a..b` (whole steps of 1), `a..b:step`, or a list `a,b,c`.
fn range_values(key: &RosterKey, range: &str) -> Result<Vec<toml::Value>, String> {
    if matches!(key.current, toml::Value::Array(_) | toml::Value::Table(_)) {
        return Err(format!(
            "{}: a {} cannot be swept; set one of its keys",
            key.text,
            key.current.type_str()
        ));
    }
    let Some((from, rest)) = range.split_once("..") else {
        return range
            .split(',')
            .map(|v| key.parse_value(v))
            .collect::<Result<Vec<_>, _>>();
    };
    let (to, step) = match rest.split_once(':') {
        Some((t, s)) => (t, Some(s)),
        None => (rest, None),
    };
    let bad = |why: &str| format!("{}={range}: {why}", key.text);
    match key.current {
        toml::Value::Integer(_) => {
            let num = |t: &str| {
                t.trim()
                    .parse::<i64>()
                    .map_err(|_| bad(&format!("{:?} is not a whole number", t.trim())))
            };
            let (a, b) = (num(from)?, num(to)?);
            let s = step.map_or(Ok(1), num)?;
            if s <= 0 {
                return Err(bad("the step must be above 0"));
            }
            if b < a {
                return Err(bad(
                    "the range runs backwards (write the smaller value first)",
                ));
            }
            let n = (b - a) / s + 1;
            if n > MAX_POINTS as i64 {
                return Err(bad(&format!("{n} values, more than {MAX_POINTS}")));
            }
            Ok((0..n).map(|i| toml::Value::Integer(a + i * s)).collect())
        }
        toml::Value::Float(_) => {
            let num = |t: &str| {
                t.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .ok_or_else(|| bad(&format!("{:?} is not a number", t.trim())))
            };
            let (a, b) = (num(from)?, num(to)?);
            let s = match step {
                Some(s) => num(s)?,
                None if a.fract() == 0.0 && b.fract() == 0.0 => 1.0,
                None => return Err(bad("give a step (a..b:step) for values that are not whole")),
            };
            if s <= 0.0 {
                return Err(bad("the step must be above 0"));
            }
            if b < a {
                return Err(bad(
                    "the range runs backwards (write the smaller value first)",
                ));
            }
            let n = ((b - a) / s + 1e-9).floor() + 1.0;
            if n > MAX_POINTS as f64 {
                return Err(bad(&format!("{n} values, more than {MAX_POINTS}")));
            }
            // Rounded so 0.1 steps print as 0.3, not 0.30000000000000004.
            let round = |x: f64| (x * 1e9).round() / 1e9;
            Ok((0..n as i64)
                .map(|i| toml::Value::Float(round(a + i as f64 * s)))
                .collect())
        }
        _ => Err(bad(&format!(
            "a range needs a number; the rosters have {} (list the values: a,b,c)",
            key.current
        ))),
    }
}

/// A value as a report prints it.
fn label(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The axes of `--set KEY=RANGE` options, checked against the rosters of `layers` and the scripts
/// and presets they have; `preset` is the run's own. A bad key, range or value is refused with what
/// would be right, before any game.
pub fn axes(layers: &[PathBuf], preset: &str, sets: &[String]) -> Result<Vec<Axis>, String> {
    if sets.is_empty() {
        return Err("a sweep needs at least one --set KEY=RANGE".into());
    }
    let mut out: Vec<Axis> = Vec::new();
    for set in sets {
        let (key, range) = split_set(set)?;
        if out.iter().any(|a| a.key == key) {
            return Err(format!("--set {key}: the key is set twice"));
        }
        let axis = match key {
            "variant" | "preset" => {
                let labels: Vec<String> = range
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect();
                let (knob, current) = if key == "variant" {
                    (Knob::Variant, "none")
                } else {
                    (Knob::Preset, preset)
                };
                Axis {
                    key: key.to_string(),
                    knob,
                    current: labels.iter().position(|l| l == current),
                    labels,
                    values: Vec::new(),
                }
            }
            _ => {
                let rk = crate::roster::patch::resolve(layers, key)?;
                let values = range_values(&rk, range)?;
                Axis {
                    key: key.to_string(),
                    current: values.iter().position(|v| *v == rk.current),
                    labels: values.iter().map(label).collect(),
                    values,
                    knob: Knob::Roster(rk),
                }
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        if let Some(dup) = axis.labels.iter().find(|l| !seen.insert(*l)) {
            return Err(format!("--set {key}: the value {dup} is listed twice"));
        }
        out.push(axis);
    }
    let points: usize = out.iter().map(|a| a.labels.len()).product();
    if points > MAX_POINTS {
        return Err(format!(
            "the sweep has {points} points, more than {MAX_POINTS}: take fewer values"
        ));
    }
    Ok(out)
}

/// Every point of a grid of axes: each point's index on every axis, the last axis turning fastest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for a in axes {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..a.labels.len()).map(move |i| {
                    let mut q = p.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    out
}

/// The point `--baseline` names (its values in the axes' order, comma-separated), else the point at
/// the run's own values when the sweep has it, else the first.
pub fn baseline(axes: &[Axis], typed: Option<&str>) -> Result<Vec<usize>, String> {
    match typed {
        Some(t) => {
            let parts: Vec<&str> = t.split(',').map(str::trim).collect();
            if parts.len() != axes.len() {
                return Err(format!(
                    "--baseline {t:?}: give one value for each --set ({}), comma-separated",
                    axes.len()
                ));
            }
            axes.iter()
                .zip(parts)
                .map(|(a, p)| {
                    a.labels.iter().position(|l| l == p).ok_or_else(|| {
                        format!(
                            "--baseline: {}",
                            crate::names::unknown(
                                &format!("value of {}", a.key),
                                p,
                                a.labels.iter().map(String::as_str)
                            )
                        )
                    })
                })
                .collect()
        }
        None => Ok(axes.iter().map(|a| a.current.unwrap_or(0)).collect()),
    }
}

/// A point's name as a folder (`p03`): the same for the same sweep on every machine.
pub fn point_dir(index: usize) -> String {
    format!("p{index:02}")
}

/// The run of one point: `base` with the point's variant and preset, and, when it changes the rosters,
/// their changes written as a mod layer in `dir` (added last to the layers).
pub fn point_options(
    base: &SimOptions,
    axes: &[Axis],
    point: &[usize],
    dir: &Path,
) -> Result<SimOptions, String> {
    let mut opts = base.clone();
    let mut changes = Vec::new();
    for (a, &i) in axes.iter().zip(point) {
        match &a.knob {
            Knob::Variant => {
                if a.labels[i] != "none" {
                    opts.variants.push(a.labels[i].clone());
                }
            }
            Knob::Preset => opts.preset = a.labels[i].clone(),
            Knob::Roster(k) => changes.push((k, a.values[i].clone())),
        }
    }
    if !changes.is_empty() {
        crate::roster::patch::write_layer(&base.layers, &changes, dir)?;
        opts.layers.push(dir.to_path_buf());
    }
    Ok(opts)
}

/// A point's values as `key=value` pairs, for errors and progress.
fn name_of<K: AsRef<str>>(keys: &[K], labels: &[Vec<String>], point: &[usize]) -> String {
    keys.iter()
        .zip(labels)
        .zip(point)
        .map(|((k, l), &j)| format!("{}={}", k.as_ref(), l[j]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a sweep plays, as it is saved beside a batch run's shards (`sweep.json`): enough for the merge
/// job to build the report the local run prints.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// Each axis's key and value labels.
    pub keys: Vec<String>,
    pub labels: Vec<Vec<String>>,
    /// Whether each axis's values are numbers, and those numbers.
    pub numbers: Vec<Option<Vec<f64>>>,
    pub baseline: Vec<usize>,
    pub points: Vec<Vec<usize>>,
    /// The run every point varies (its layers without the points' own).
    pub base: SimOptions,
    /// Each point's run, in the order of `points`.
    pub runs: Vec<SimOptions>,
}

impl Plan {
    /// The plan of `axes` with `baseline`, over `base`: each point's roster changes written as a mod
    /// layer in `dir/pNN`, and each point's run checked (its rosters load, its variants, preset and
    /// party exist), so a bad value is refused before any game is played.
    pub fn new(
        axes: &[Axis],
        baseline: Vec<usize>,
        base: SimOptions,
        dir: &Path,
    ) -> Result<Plan, String> {
        let points = grid(axes);
        let mut runs = Vec::with_capacity(points.len());
        for (i, p) in points.iter().enumerate() {
            let opts = point_options(&base, axes, p, &dir.join(point_dir(i)))?;
            crate::sim::check(&opts).map_err(|e| {
                let keys: Vec<&str> = axes.iter().map(|a| a.key.as_str()).collect();
                let labels: Vec<Vec<String>> = axes.iter().map(|a| a.labels.clone()).collect();
                format!("the point {}: {e}", name_of(&keys, &labels, p))
            })?;
            runs.push(opts);
        }
        Ok(Plan {
            keys: axes.iter().map(|a| a.key.clone()).collect(),
            labels: axes.iter().map(|a| a.labels.clone()).collect(),
            numbers: axes
                .iter()
                .map(|a| {
                    a.numeric()
                        .then(|| (0..a.labels.len()).map(|i| a.number(i)).collect())
                })
                .collect(),
            baseline,
            points,
            base,
            runs,
        })
    }

    /// Plays every point, one after another (each on the run's threads), on the same seeds.
    /// `tick(point, games done at that point)` follows them.
    pub fn run(&self, tick: &(dyn Fn(usize, u64) + Sync)) -> Result<Vec<Vec<GameRecord>>, String> {
        self.runs
            .iter()
            .enumerate()
            .map(|(i, opts)| {
                crate::sim::run(opts, &|n| tick(i, n))
                    .map_err(|e| format!("the point {}: {e}", self.name(i)))
            })
            .collect()
    }

    /// Point `i`'s values as `key=value` pairs.
    pub fn name(&self, i: usize) -> String {
        name_of(&self.keys, &self.labels, &self.points[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int_key(v: i64) -> RosterKey {
        // A key resolved against the built-in rosters, with the value kind under test.
        let layers = vec![crate::roster::Rosters::builtin_root()];
        let mut k = crate::roster::patch::resolve(&layers, "wave.max_rounds").unwrap();
        k.current = toml::Value::Integer(v);
        k
    }

    #[test]
    fn ranges_step_from_the_first_value_to_the_last_inclusive() {
        let k = int_key(4);
        let ints = |r: &str| -> Vec<i64> {
            range_values(&k, r)
                .unwrap()
                .iter()
                .map(|v| v.as_integer().unwrap())
                .collect()
        };
        assert_eq!(ints("2..5"), vec![2, 3, 4, 5]);
        assert_eq!(ints("80..140:20"), vec![80, 100, 120, 140]);
        assert_eq!(ints("80..130:20"), vec![80, 100, 120]);
        assert_eq!(ints("7,3,9"), vec![7, 3, 9]);
        assert!(range_values(&k, "5..2").is_err());
        assert!(range_values(&k, "1..5:0").is_err());
        assert!(range_values(&k, "1..x").is_err());
        assert!(range_values(&k, "0..100000").is_err());
    }

    #[test]
    fn a_grid_turns_its_last_axis_fastest() {
        let axis = |n: usize| Axis {
            key: "k".into(),
            knob: Knob::Variant,
            labels: (0..n).map(|i| i.to_string()).collect(),
            values: Vec::new(),
            current: None,
        };
        assert_eq!(
            grid(&[axis(2), axis(3)]),
            vec![
                vec![0, 0],
                vec![0, 1],
                vec![0, 2],
                vec![1, 0],
                vec![1, 1],
                vec![1, 2]
            ]
        );
    }
}
