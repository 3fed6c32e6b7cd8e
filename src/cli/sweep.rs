//! `village sweep` and `village calibrate`: their options, the run with its progress bar, and where
//! the reports go (text or `--json` on stdout, `--csv` and `--svg` files). The sweeping itself is
//! `village::sweep`'s.

use super::{print_json, write_file};
use crate::DataArgs;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use village::args::GameArgs;
use village::sweep::{self, Axis, Plan};

/// What `village sweep` turns, plays and reports.
#[derive(Args)]
pub struct SweepArgs {
    /// A knob and its values: KEY=a..b (whole steps), KEY=a..b:step, or KEY=a,b,c. KEY is a rule
    /// constant (`wave.budget_percent`), a roster field (`heroes."Captain Maren".combat`,
    /// `bestiary."Orc Warrior".quality`), a preset's value (`presets.veteran.rules.wave.
    /// party_value_per_hero`), `variant` (`variant=none,power_blow_lethal`) or `preset`. Two make a
    /// grid.
    #[arg(
        long = "set",
        value_name = "KEY=RANGE",
        required_unless_present = "merge"
    )]
    pub sets: Vec<String>,
    /// Games at each point (the same seeds at every point).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    #[command(flatten)]
    pub game: GameArgs,
    /// The point the others are compared with: its value on each --set, comma-separated. Default:
    /// the rosters' own values (no variant, the run's preset) when the sweep has them, else the first.
    #[arg(long, value_name = "VALUES")]
    pub baseline: Option<String>,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Keep each point's roster changes in DIR/pNN (a mod folder: `village play --mod DIR/p03`)
    /// instead of a temporary folder.
    #[arg(long, value_name = "DIR")]
    pub points: Option<PathBuf>,
    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Also write the report as CSV to FILE: a row a point.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw the report as SVG in FILE: win rate and waves won against the value with their
    /// intervals and the baseline marked; for a grid, heat maps.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Play the sweep on a Slurm cluster instead: write DIR/points/ (each point's mod folder),
    /// DIR/tasks.sbatch (a job array, one task per point × shard, one thread each), DIR/merge.sbatch
    /// (`village sweep --merge DIR` once every task succeeded) and DIR/submit.sh.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["merge", "points"])]
    pub slurm: Option<PathBuf>,
    /// The shards of each point in a --slurm run.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=10000))]
    pub shards: u64,
    /// With --slurm: also submit the array and the merge with `sbatch`, and print their job ids.
    #[arg(long, requires = "slurm")]
    pub submit: bool,
    /// With --slurm: also write a Kubernetes Indexed Job manifest running the same tasks to FILE
    /// (untested: the Slurm path is the tested one).
    #[arg(long, value_name = "FILE", requires = "slurm")]
    pub k8s: Option<PathBuf>,
    /// Join the shards of a `--slurm` sweep in DIR into its report (what its merge job runs); a
    /// missing or mismatched shard is named.
    #[arg(long, value_name = "DIR")]
    pub merge: Option<PathBuf>,
    #[command(flatten)]
    pub data: DataArgs,
}

/// What a `--slurm` sweep saves for its merge job (`DIR/sweep.json`).
#[derive(serde::Serialize, serde::Deserialize)]
struct Job {
    format: String,
    shards: u64,
    plan: Plan,
}

/// The format name of `sweep.json`.
const JOB_FORMAT: &str = "village-sweep-job 1";

/// `village sweep --slurm DIR`: every point's folder, the tasks (point × shard) and the merge job.
fn slurm(args: &SweepArgs, dir: &Path) -> Result<ExitCode> {
    use village::batch::{absolute, shard_tasks, Batch};
    let dir = absolute(dir);
    std::fs::create_dir_all(&dir).map_err(|e| anyhow!("--slurm {}: {e}", dir.display()))?;
    let (_, plan) = plan(args, &dir.join("points"))?;
    let shards = args.shards.min(args.games);
    let tasks = plan
        .runs
        .iter()
        .enumerate()
        .flat_map(|(p, run)| {
            let prefix = format!("{}-", sweep::point_dir(p));
            shard_tasks(run, args.games, shards, &prefix, &dir)
        })
        .collect();
    let job = Job {
        format: JOB_FORMAT.into(),
        shards,
        plan,
    };
    write_file(
        &dir.join("sweep.json"),
        serde_json::to_string_pretty(&job)?.as_bytes(),
    )?;
    let merge = |extra: &[&str]| {
        let mut a = vec![
            "sweep".to_string(),
            "--merge".into(),
            dir.display().to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let (csv, svg) = (dir.join("report.csv"), dir.join("report.svg"));
    let batch = Batch {
        exe: std::env::current_exe().map_err(|e| anyhow!("where is this program? {e}"))?,
        kind: "sweep".into(),
        tasks,
        merge: vec![
            (
                merge(&[
                    "--csv",
                    &csv.display().to_string(),
                    "--svg",
                    &svg.display().to_string(),
                ]),
                dir.join("report.txt"),
            ),
            (merge(&["--json"]), dir.join("report.json")),
        ],
        dir,
    };
    super::batch::launch(&batch, args.submit, args.k8s.as_deref())
}

/// `village sweep --merge DIR`: the report of a `--slurm` sweep from its shards.
fn merge(args: &SweepArgs, dir: &Path) -> Result<ExitCode> {
    let path = dir.join("sweep.json");
    let text = village::files::read_text(&path, village::files::SHARD)?;
    let job: Job = serde_json::from_str(&text).map_err(|e| {
        anyhow!(
            "{}: not written by `village sweep --slurm`: {e}",
            path.display()
        )
    })?;
    if job.format != JOB_FORMAT {
        bail!(
            "{}: format {:?}, this version reads {JOB_FORMAT:?}",
            path.display(),
            job.format
        );
    }
    let file = |p: usize, k: u64| {
        dir.join("shards").join(format!(
            "{}-shard-{k}-of-{}.json",
            sweep::point_dir(p),
            job.shards
        ))
    };
    // Every missing shard named at once, with the task that writes it.
    let mut missing = Vec::new();
    for p in 0..job.plan.runs.len() {
        for k in 1..=job.shards {
            if !file(p, k).exists() {
                let task = p as u64 * job.shards + k;
                missing.push(format!(
                    "{} (point {}, task {task})",
                    file(p, k).display(),
                    job.plan.name(p)
                ));
            }
        }
    }
    if !missing.is_empty() {
        bail!(
            "{} shards are missing:\n  {}\nre-run a task alone with `sbatch --array=N {}/tasks.sbatch`, \
             then merge again",
            missing.len(),
            missing.join("\n  "),
            dir.display()
        );
    }
    let mut records = Vec::new();
    for (p, run) in job.plan.runs.iter().enumerate() {
        let mut shards = Vec::new();
        for k in 1..=job.shards {
            let f = file(p, k);
            let text = village::files::read_text(&f, village::files::SHARD)?;
            let shard: village::sim::Shard = serde_json::from_str(&text)
                .map_err(|e| anyhow!("{}: not a shard of village sim --out: {e}", f.display()))?;
            let o = &shard.options;
            let same = o.seed == run.seed
                && o.heroes == run.heroes
                && o.length == run.length
                && o.preset == run.preset
                && o.variants == run.variants
                && o.policy == run.policy
                && o.layers == run.layers
                && shard.total == job.plan.base.games;
            if !same {
                bail!(
                    "{}: not a shard of the point {} of this sweep (its run's options differ)",
                    f.display(),
                    job.plan.name(p)
                );
            }
            shards.push((f.display().to_string(), shard));
        }
        let played = village::sim::merge(shards, None)
            .map_err(|e| anyhow!("the point {}: {e}", job.plan.name(p)))?;
        records.push(
            played
                .all_finished()
                .map_err(|e| anyhow!("the point {}: {e}", job.plan.name(p)))?,
        );
    }
    let report = sweep::sweep_report(&job.plan, &records);
    write_outputs(&report, args.csv.as_deref(), args.svg.as_deref())?;
    if args.json {
        print_json(&report)?;
    } else {
        out!("{}", sweep::text(&report, None));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `village calibrate` searches.
#[derive(Args)]
pub struct CalibrateArgs {
    /// The knob and the values to search: KEY=a..b or KEY=a..b:step (as `sweep --set`).
    #[arg(long = "set", value_name = "KEY=RANGE")]
    pub set: String,
    /// What to reach: win_rate=0.5 or waves_won=4.
    #[arg(long, value_name = "MEASURE=VALUE")]
    pub target: String,
    /// Games first played at each value tried.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Games at most at one value: games are added (doubling) where the answer is uncertain, up to
    /// this.
    #[arg(long, default_value_t = 3200, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    #[command(flatten)]
    pub game: GameArgs,
    /// Worker threads, 1 to 1024 (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Save the value found as a preset NAME in the last --mod folder's rosters/presets.toml (a rule
    /// constant only: a preset holds rules, not roster entries).
    #[arg(long, value_name = "NAME")]
    pub write_preset: Option<String>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub data: DataArgs,
}

/// Worker threads: `--jobs`, else every core.
fn jobs(j: Option<u64>) -> usize {
    j.and_then(|j| usize::try_from(j).ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// A progress bar on a terminal's stderr (nothing when stderr is not a terminal).
fn bar(total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, ETA {eta} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    })
}

/// The folder for the points' layers: `keep`, else a temporary one removed when the guard drops.
fn points_dir(keep: Option<&Path>) -> Result<(PathBuf, Option<tempfile::TempDir>)> {
    match keep {
        Some(d) => {
            std::fs::create_dir_all(d)
                .map_err(|e| anyhow!("--points {}: cannot make it: {e}", d.display()))?;
            Ok((d.to_path_buf(), None))
        }
        None => {
            let t = tempfile::Builder::new()
                .prefix("village-sweep-")
                .tempdir()
                .map_err(|e| anyhow!("cannot make a temporary folder for the points: {e}"))?;
            Ok((t.path().to_path_buf(), Some(t)))
        }
    }
}

/// The axes and plan of a sweep's options (every point checked, its layer written in `dir`).
pub fn plan(args: &SweepArgs, dir: &Path) -> Result<(Vec<Axis>, Plan)> {
    let layers = args.data.layers();
    let base = args.game.sim_options(layers.clone(), args.games, 0, 1);
    let base = village::sim::SimOptions {
        jobs: jobs(args.jobs).min(usize::try_from(args.games).unwrap_or(usize::MAX)),
        ..base
    };
    let axes = sweep::axes(&layers, &base.preset, &args.sets).map_err(|e| anyhow!(e))?;
    let baseline = sweep::baseline(&axes, args.baseline.as_deref()).map_err(|e| anyhow!(e))?;
    let plan = Plan::new(&axes, baseline, base, dir).map_err(|e| anyhow!(e))?;
    Ok((axes, plan))
}

/// `village sweep`: play every point and report.
pub fn run_sweep(args: &SweepArgs) -> Result<ExitCode> {
    let outputs: Vec<village::files::Named<'_>> = [
        ("--csv", args.csv.as_deref()),
        ("--svg", args.svg.as_deref()),
    ]
    .into_iter()
    .filter_map(|(by, p)| p.map(|path| village::files::Named { by, path }))
    .collect();
    super::distinct_outputs(&args.data.layers(), &[], &outputs)?;
    if let Some(dir) = &args.merge {
        return merge(args, dir);
    }
    if let Some(dir) = &args.slurm {
        return slurm(args, dir);
    }
    let (dir, _guard) = points_dir(args.points.as_deref())?;
    let (_, plan) = plan(args, &dir)?;
    let n = plan.points.len();
    let bar = bar(args.games * n as u64);
    let tick = |i: usize, done: u64| {
        if let Some(b) = &bar {
            if done == 1 {
                b.set_message(format!("· point {}/{n}: {}", i + 1, plan.name(i)));
            }
            b.inc(1);
        }
    };
    let start = std::time::Instant::now();
    let records = plan.run(&tick).map_err(|e| anyhow!(e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = sweep::sweep_report(&plan, &records);
    write_outputs(&report, args.csv.as_deref(), args.svg.as_deref())?;
    if args.json {
        let mut v = serde_json::to_value(&report)?;
        v["seconds"] = serde_json::json!(seconds);
        v["games_per_sec"] = serde_json::json!((args.games * n as u64) as f64 / seconds.max(1e-9));
        print_json(&v)?;
    } else {
        out!("{}", sweep::text(&report, Some(seconds)));
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the CSV and the SVG a sweep was asked for.
pub fn write_outputs(r: &sweep::SweepReport, csv: Option<&Path>, svg: Option<&Path>) -> Result<()> {
    if let Some(path) = csv {
        write_file(path, sweep::csv(r).as_bytes())?;
        errln!("wrote {}", path.display());
    }
    if let Some(path) = svg {
        write_file(path, village::render::sweep::svg(r).as_bytes())?;
        errln!("wrote {}", path.display());
    }
    Ok(())
}

/// `village calibrate`: search the knob's values for the target.
pub fn run_calibrate(args: &CalibrateArgs) -> Result<ExitCode> {
    let target = sweep::calibrate::Target::parse(&args.target).map_err(|e| anyhow!(e))?;
    let layers = args.data.layers();
    let base = args
        .game
        .sim_options(layers.clone(), args.games, 0, jobs(args.jobs));
    let axes = sweep::axes(&layers, &base.preset, std::slice::from_ref(&args.set))
        .map_err(|e| anyhow!(e))?;
    let axis = &axes[0];
    let preset = match &args.write_preset {
        Some(name) => Some(preset_target(axis, name, &args.data)?),
        None => None,
    };
    let (dir, _guard) = points_dir(None)?;
    // Every value is checked before any game (a value the rosters refuse is refused here).
    for i in 0..axis.labels.len() {
        let opts = sweep::point_options(&base, &axes, &[i], &dir.join(sweep::point_dir(i)))
            .map_err(|e| anyhow!(e))?;
        village::sim::check(&opts).map_err(|e| anyhow!("{}={}: {e}", axis.key, axis.labels[i]))?;
    }
    let bar = bar(0);
    let tick = |value: &str, done: u64| {
        if let Some(b) = &bar {
            if done == 1 {
                b.set_message(format!("· {value}"));
            }
            b.inc_length(1);
            b.inc(1);
        }
    };
    let start = std::time::Instant::now();
    let c = sweep::calibrate::calibrate(
        axis,
        &base,
        &dir,
        target,
        (args.games, args.max_games),
        &tick,
    )
    .map_err(|e| anyhow!(e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some((file, name, path)) = preset {
        if !c.bracketed {
            bail!(
                "the target is not inside the range, so no preset was written:\n{}",
                sweep::calibrate::text(&c, seconds)
            );
        }
        write_preset(&file, &name, &path, &c)?;
        errln!("wrote the preset {name} to {}", file.display());
    }
    if args.json {
        let mut v = serde_json::to_value(&c)?;
        v["seconds"] = serde_json::json!(seconds);
        print_json(&v)?;
    } else {
        out!("{}", sweep::calibrate::text(&c, seconds));
    }
    Ok(ExitCode::SUCCESS)
}

/// Where `--write-preset NAME` writes, checked before any game: the last --mod folder's
/// rosters/presets.toml, a rule constant's path, and a name the file does not have yet.
fn preset_target(
    axis: &Axis,
    name: &str,
    data: &DataArgs,
) -> Result<(PathBuf, String, Vec<String>)> {
    let Some(path) = (match &axis.knob {
        sweep::Knob::Roster(k) => k.rule_path().map(<[String]>::to_vec),
        _ => None,
    }) else {
        bail!(
            "--write-preset: {} is not a rule constant, and a preset holds rule constants (its \
             `rules`), not roster entries or variants; keep the point as a mod instead (`village \
             sweep --points DIR`)",
            axis.key
        );
    };
    let Some(folder) = data.mods.last() else {
        bail!(
            "--write-preset needs a --mod folder to write into (`village new-mod DIR` makes one)"
        );
    };
    let name = name.trim().to_string();
    if name.is_empty() {
        bail!("--write-preset: the preset needs a name");
    }
    let file = folder.join("rosters").join("presets.toml");
    let layers = data.layers();
    if let Ok(r) = village::roster::Rosters::load(&layers) {
        if r.preset(&name).is_some() {
            bail!("--write-preset {name}: the rosters already have a preset {name:?}; pick another name");
        }
    }
    Ok((file, name, path))
}

/// Appends the preset to `file` (its other contents kept as they are).
fn write_preset(
    file: &Path,
    name: &str,
    path: &[String],
    c: &sweep::calibrate::Calibration,
) -> Result<()> {
    let value: toml::Value = c
        .value
        .parse::<i64>()
        .map(toml::Value::Integer)
        .or_else(|_| c.value.parse::<f64>().map(toml::Value::Float))
        .or_else(|_| c.value.parse::<bool>().map(toml::Value::Boolean))
        .unwrap_or_else(|_| toml::Value::String(c.value.clone()));
    let mut rules = toml::Table::new();
    let mut here = &mut rules;
    for (i, p) in path.iter().enumerate() {
        if i + 1 == path.len() {
            here.insert(p.clone(), value.clone());
        } else {
            here = match here
                .entry(p.clone())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            {
                toml::Value::Table(t) => t,
                _ => bail!("{}: not a table", p),
            };
        }
    }
    let mut entry = toml::Table::new();
    entry.insert("name".into(), toml::Value::String(name.to_string()));
    entry.insert(
        "description".into(),
        toml::Value::String(format!(
            "Calibrated by `village calibrate`: {} = {} gives {} {:.3} (95%: {:.3} to {:.3}) for a \
             target of {} over {} games.",
            c.key, c.value, c.measure, c.estimate, c.ci95[0], c.ci95[1], c.target, c.games_at_value
        )),
    );
    entry.insert("rules".into(), toml::Value::Table(rules));
    let mut doc = toml::Table::new();
    doc.insert(
        "preset".into(),
        toml::Value::Array(vec![toml::Value::Table(entry)]),
    );
    let before = std::fs::read_to_string(file).unwrap_or_default();
    let sep = if before.is_empty() || before.ends_with("\n\n") {
        ""
    } else if before.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent)?;
    }
    write_file(
        file,
        format!("{before}{sep}{}", toml::to_string(&doc)?).as_bytes(),
    )
}
