//! `village sim`, `merge` and `replay`: running many games, joining shards and re-running a recorded
//! game. What the CLI writes here (records, shards) is written atomically and sealed with the run's
//! content fingerprint and a digest, and what it reads back is checked against them.

use super::{print_json, write_file};
use crate::{DataArgs, SimArgs};
use anyhow::{bail, Context, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use village::files::Fingerprint;
use village::roster::Rosters;

/// `village sim --slurm DIR`: the run as a job array of `--shards` tasks and a merge job, checked here
/// first (a run that cannot start is refused before anything is written).
fn slurm(
    opts: &village::sim::SimOptions,
    games: u64,
    args: &SimArgs,
    dir: &std::path::Path,
) -> Result<ExitCode> {
    use village::batch::{absolute, shard_tasks, Batch};
    village::sim::check(opts).map_err(|e| anyhow::anyhow!(e))?;
    let dir = absolute(dir);
    let shards = args.shards.min(games);
    let tasks = shard_tasks(opts, games, shards, "", &dir);
    let files: Vec<String> = tasks
        .iter()
        .map(|t| {
            dir.join("shards")
                .join(format!("{}.json", t.name))
                .display()
                .to_string()
        })
        .collect();
    let merge = |json: bool| {
        let mut a = vec!["merge".to_string()];
        if json {
            a.push("--json".into());
        }
        a.extend(files.iter().cloned());
        a
    };
    let batch = Batch {
        exe: std::env::current_exe().context("where is this program?")?,
        kind: "sim".into(),
        tasks,
        merge: vec![
            (merge(false), dir.join("report.txt")),
            (merge(true), dir.join("report.json")),
        ],
        dir,
    };
    super::batch::launch(&batch, args.submit, args.k8s.as_deref())
}

/// `village sim`: play the games, then print the report (text, or JSON with `games_per_sec`).
pub fn run_sim(args: &SimArgs) -> Result<ExitCode> {
    let (games, g, jobs, json, data) = (args.games, &args.game, args.jobs, args.json, &args.data);
    let (shard, out) = (args.shard.as_deref(), args.out.as_deref());
    let record = args
        .record
        .as_deref()
        .map(|d| (d, args.record_when.as_str()));
    let vs = args.vs.as_deref().or(args.vs_policy.as_deref());
    // Every output the options ask for is written, or the run is refused before it starts.
    if let (Some(_), Some(path)) = (vs, out) {
        bail!(
            "--out {} with --vs: --out writes a shard for `village merge`, which joins the games of one \
             set of rules, and --vs plays two; shard each arm as a run of its own (`--variant V --shard \
             K/N --out F`), or leave out --out",
            path.display()
        );
    }
    let outputs: Vec<village::files::Named<'_>> = [("--out", out), ("--svg", args.svg.as_deref())]
        .into_iter()
        .filter_map(|(by, p)| p.map(|path| village::files::Named { by, path }))
        .collect();
    super::distinct_outputs(&data.layers(), &[], &outputs)?;
    use std::io::IsTerminal;
    let shard_part: Option<[u64; 2]> = match shard {
        None => None,
        Some(s) => Some(
            s.split_once('/')
                .and_then(|(k, n)| Some([k.parse().ok()?, n.parse().ok()?]))
                .ok_or_else(|| anyhow::anyhow!("--shard K/N, not {s:?}"))?,
        ),
    };
    let (first, count) = match shard_part {
        None => (0, games),
        Some([k, n]) => village::sim::shard_range(games, k, n).map_err(|e| anyhow::anyhow!(e))?,
    };
    // Never more workers than games: each opens a VM of its own, and the games are the same for any
    // number (a worker with no game to play is only memory).
    let jobs = jobs
        .and_then(|j| usize::try_from(j).ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(usize::try_from(count).unwrap_or(usize::MAX))
        .max(1);
    let opts = village::sim::SimOptions {
        decisions: args.decisions,
        audit: args.audit,
        ..g.sim_options(data.layers(), count, first, jobs)
    };
    if let Some(dir) = &args.slurm {
        return slurm(&opts, games, args, dir);
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(games);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let tick = |_: u64| {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    // Where the run's files go is checked before any game is played, so a long run never ends on a
    // typo in a path.
    if let Some((dir, when)) = record {
        if !["all", "win", "loss", "stalled"].contains(&when) {
            bail!("--record-when is all, win, loss or stalled, not {when:?}");
        }
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        not_a_record(dir, &outputs)?;
    }
    if let Some(path) = out {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        if parent.is_some_and(|p| !p.is_dir()) {
            bail!(
                "--out {}: the folder {} does not exist",
                path.display(),
                parent.map_or(String::new(), |p| p.display().to_string())
            );
        }
    }
    // The content the games are played with, taken before they start (a file saved during the run
    // does not change what the records say they were played with).
    let fingerprint = Fingerprint::of_game(&opts.layers, &opts.scenario);
    let (played, seconds) =
        village::sim::timed_games(&opts, args.keep_going, &tick).map_err(|e| anyhow::anyhow!(e))?;
    if let Some(vs) = vs {
        let records = played.all_finished().map_err(|e| anyhow::anyhow!(e))?;
        // `--vs-policy`: the same rules played by another policy; `--vs`: other rules.
        let other = match &args.vs_policy {
            Some(policy) => village::sim::SimOptions {
                policy: policy.clone(),
                ..opts.clone()
            },
            None => village::sim::SimOptions {
                variants: if vs == "default" {
                    Vec::new()
                } else {
                    vec![vs.to_string()]
                },
                ..opts.clone()
            },
        };
        if let Some(b) = &bar {
            b.reset();
        }
        let (records_b, seconds_b) =
            village::sim::timed(&other, &tick).map_err(|e| anyhow::anyhow!(e))?;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        if let Some((dir, when)) = record {
            let kept = write_pairs(
                dir,
                when,
                (&opts, &other),
                (&records, &records_b),
                &fingerprint,
            )?;
            // The pair worth watching first: the first kept game that ended differently.
            let is_kept: std::collections::HashSet<u64> = kept.iter().copied().collect();
            let watch = records
                .iter()
                .zip(&records_b)
                .find(|(x, y)| !x.ended_like(y) && is_kept.contains(&x.index))
                .map(|(x, _)| x.index)
                .or(kept.first().copied());
            errln!(
                "{} pairs of records are in {} and {}",
                kept.len(),
                dir.join("a").display(),
                dir.join("b").display()
            );
            if let Some(i) = watch {
                let (a, b) = (
                    dir.join("a").join(format!("game-{i}.json")),
                    dir.join("b").join(format!("game-{i}.json")),
                );
                errln!(
                    "watch game {i} under both rules on one page: village replay {} --vs {} --html game-{i}.html",
                    a.display(),
                    b.display()
                );
            }
        }
        return ab_report(
            &opts,
            &other,
            (&records, &records_b),
            seconds + seconds_b,
            (json, args.svg.as_deref()),
        );
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // The finished games are kept whatever failed: their records are written first. A record that
    // cannot be written stops the writing, not the report (printed below, then the error).
    let mut written = 0usize;
    let mut write_error: Option<anyhow::Error> = None;
    if let Some((dir, when)) = record {
        for r in played
            .records
            .iter()
            .filter(|r| when == "all" || r.result == when)
        {
            let path = dir.join(format!("game-{}.json", r.index));
            let wrote = village::sim::record_replay(&opts, r.index, &fingerprint)
                .map_err(|e| anyhow::anyhow!(e))
                .and_then(|rep| Ok(serde_json::to_string(&rep)?))
                .and_then(|text| write_file(&path, text.as_bytes()));
            if let Err(e) = wrote {
                write_error = Some(e);
                break;
            }
            written += 1;
        }
    }
    if !args.keep_going {
        if let Some(f) = played.failed.first() {
            let kept = match record {
                Some((dir, _)) => format!(
                    "; {written} records of the {} finished games are in {}",
                    played.records.len(),
                    dir.display()
                ),
                None => String::new(),
            };
            let unwritten = if outputs.is_empty() {
                String::new()
            } else {
                let named: Vec<String> = outputs
                    .iter()
                    .map(|n| format!("{} {}", n.by, n.path.display()))
                    .collect();
                format!("; not written: {}", named.join(", "))
            };
            bail!(
                "{f}{kept}{unwritten} (--keep-going plays the other games and reports the failed ones)"
            );
        }
    }
    if let (Some(path), None) = (out, &write_error) {
        let mut shard = village::sim::Shard::new(games, opts.clone(), fingerprint, played.clone());
        if let Some(part) = shard_part {
            shard.seal_part(part);
        }
        if let Err(e) = serde_json::to_string(&shard)
            .map_err(anyhow::Error::from)
            .and_then(|text| write_file(path, text.as_bytes()))
        {
            write_error = Some(e);
        }
    }
    let mut report = village::sim::report(&played.records);
    report.failed = played.failed.clone();
    let length = length_of(&opts);
    report.endless = is_endless(length.as_ref());
    if let (Some(path), None) = (args.svg.as_deref(), &write_error) {
        let chart = village::render::chart::sim_svg(
            &report,
            &run_title(&opts, None),
            axis_waves(length.as_ref()),
        );
        match write_file(path, chart.as_bytes()) {
            Ok(()) => errln!("wrote {}", path.display()),
            Err(e) => write_error = Some(e),
        }
    }
    if json {
        let mut v = serde_json::to_value(&report)?;
        v["seed"] = serde_json::json!(g.seed);
        v["games_per_sec"] = serde_json::json!(games as f64 / seconds.max(1e-9));
        v["seconds"] = serde_json::json!(seconds);
        if args.audit {
            let total: u64 = report.audit.values().sum();
            v["audit"] = serde_json::json!({ "breaches": total, "kinds": &report.audit });
        }
        print_json(&v)?;
    } else {
        if !opts.variants.is_empty() {
            outln!(
                "Rules: {} — {}",
                rules_name(&opts.variants),
                rules_words(&opts.layers, &opts.variants)
            );
        }
        out!("{}", village::sim::text(&report, seconds));
        if args.audit {
            out!("{}", audit_text(&report));
        }
    }
    if let Some(e) = write_error {
        return Err(e);
    }
    // A run with failed games (or, with --audit, breaches) is reported whole, but its exit status says
    // it was not clean.
    Ok(if report.failed.is_empty() && report.audit.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The audit's lines of a `sim --audit` report: breaches by kind, each with its first example.
fn audit_text(r: &village::sim::Report) -> String {
    let total: u64 = r.audit.values().sum();
    let mut s = format!("\nAudit: {} games, {total} breaches\n", r.games);
    for (k, n) in &r.audit {
        let first = r.audit_first.get(k).map_or("", String::as_str);
        s.push_str(&format!("  {k:<20} {n:>7}  first: {first}\n"));
    }
    s
}

/// An output of `sim` written where `--record DIR` puts its records (`DIR/game-<i>.json`, and
/// `DIR/a/`, `DIR/b/` with `--vs`) would be replaced by one, or replace one: refused before the run.
fn not_a_record(dir: &std::path::Path, outputs: &[village::files::Named<'_>]) -> Result<()> {
    // A folder's real path where it exists, else its nearest existing folder's and the rest (the
    // arms' folders are made only when their records are written).
    fn real(p: &std::path::Path) -> PathBuf {
        match (p.canonicalize(), p.parent(), p.file_name()) {
            (Ok(r), _, _) => r,
            (Err(_), Some(up), Some(name)) if !up.as_os_str().is_empty() => real(up).join(name),
            _ => std::env::current_dir().unwrap_or_default().join(p),
        }
    }
    let folders: Vec<PathBuf> = [dir.to_path_buf(), dir.join("a"), dir.join("b")]
        .iter()
        .map(|d| real(d))
        .collect();
    for o in outputs {
        let name = o.path.file_name().map(|n| n.to_string_lossy().into_owned());
        let parent = match o.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let in_records = folders.contains(&real(&parent));
        if in_records && name.is_some_and(|n| n.starts_with("game-") && n.ends_with(".json")) {
            bail!(
                "{} {}: a record of --record {} may take that name; name another file",
                o.by,
                o.path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// `--vs --record DIR`: both arms of each game kept (either arm's result matching `when`) as
/// DIR/a/game-<i>.json and DIR/b/game-<i>.json, a pair `village replay A --vs B --html` shows on one page.
/// Returns the indices of the games kept.
fn write_pairs(
    dir: &std::path::Path,
    when: &str,
    (a, b): (&village::sim::SimOptions, &village::sim::SimOptions),
    (ra, rb): (&[village::sim::GameRecord], &[village::sim::GameRecord]),
    fingerprint: &Fingerprint,
) -> Result<Vec<u64>> {
    let kept: Vec<u64> = ra
        .iter()
        .zip(rb)
        .filter(|(x, y)| when == "all" || x.result == when || y.result == when)
        .map(|(x, _)| x.index)
        .collect();
    for (arm, opts) in [("a", a), ("b", b)] {
        let sub = dir.join(arm);
        std::fs::create_dir_all(&sub).with_context(|| format!("creating {}", sub.display()))?;
        for &i in &kept {
            let rep = village::sim::record_replay(opts, i, fingerprint)
                .map_err(|e| anyhow::anyhow!(e))?;
            write_file(
                &sub.join(format!("game-{i}.json")),
                serde_json::to_string(&rep)?.as_bytes(),
            )?;
        }
    }
    Ok(kept)
}

/// `village replay`: re-run a recorded game (with the mods it was recorded with, plus any given).
/// How to watch a recorded game: the `play --auto --log` command that plays it again, event for event
/// (a game's seed is all a game needs, whatever run it came from), and what `--verify` adds.
fn watch_text(rec: &village::sim::Replay, file: &std::path::Path, data: &DataArgs) -> String {
    let mut cmd = format!(
        "village play --auto --seed {} --length {} --heroes {}",
        rec.seed,
        rec.length,
        shell_word(&rec.heroes.join(","))
    );
    if !village::roster::is_default_preset(&rec.preset) {
        cmd.push_str(&format!(" --preset {}", shell_word(&rec.preset)));
    }
    if !village::scenario::is_default_scenario(&rec.scenario) {
        cmd.push_str(&format!(" --scenario {}", shell_word(&rec.scenario)));
    }
    for v in &rec.variants {
        cmd.push_str(&format!(" --variant {}", shell_word(v)));
    }
    if rec.policy != "default" {
        cmd.push_str(&format!(" --policy {}", shell_word(&rec.policy)));
    }
    for m in &data.mods {
        cmd.push_str(&format!(" --mod {}", shell_word(&m.display().to_string())));
    }
    let log = format!("game-{}.jsonl", rec.index);
    format!(
        "To watch it, play it again with its whole log (one event a line):\n  {cmd} --log {log}\n\
         or step through it in the REPL: the same options without --auto and --log, then :wave, \
         :heroes, :enemies and :log.\n\
         `village replay {} --verify` checks the log against the recording, event by event.\n",
        shell_word(&file.display().to_string())
    )
}

/// `s` as one shell word: bare when it is plain, single-quoted otherwise.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./,:=+".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// A record written by `village sim --record`, as its file says, read up to the limit of a record and
/// checked ([`village::sim::Replay::check`]: its format, its digest, its result) before anything is
/// played.
pub(crate) fn parse_record(file: &std::path::Path) -> Result<village::sim::Replay> {
    let text = village::files::read_text(file, village::files::RECORD)?;
    let rec: village::sim::Replay = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a game recorded by village sim --record",
            file.display()
        )
    })?;
    rec.check()
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    Ok(rec)
}

/// The layers a recorded game is played again with: the built-in folder and the `--mod` folders of the
/// command line, and nothing else. A record is data: it names the mods it was made with, and each
/// must be among those given (the same folder, or one of its name when the recorded path does not
/// exist here), or the replay is refused, naming them: code runs only from folders the user named.
pub(crate) fn record_layers(
    rec: &village::sim::Replay,
    file: &std::path::Path,
    data: &DataArgs,
) -> Result<Vec<PathBuf>> {
    let given = |recorded: &std::path::Path| match recorded.canonicalize() {
        Ok(r) => data
            .mods
            .iter()
            .any(|g| g.canonicalize().is_ok_and(|g| g == r)),
        Err(_) => data
            .mods
            .iter()
            .any(|g| g.file_name().is_some() && g.file_name() == recorded.file_name()),
    };
    let missing: Vec<&PathBuf> = rec.mods.iter().filter(|m| !given(m)).collect();
    if !missing.is_empty() {
        let all: Vec<String> = rec
            .mods
            .iter()
            .map(|m| format!("--mod {}", shell_word(&m.display().to_string())))
            .collect();
        let absent: Vec<String> = missing.iter().map(|m| m.display().to_string()).collect();
        bail!(
            "{} was recorded with {}; replay runs code only from folders named on its command line, \
             and {} {} not: add {} (after checking what {} hold{})",
            file.display(),
            all.join(" "),
            absent.join(", "),
            if absent.len() == 1 { "is" } else { "are" },
            all.join(" "),
            if all.len() == 1 { "it" } else { "they" },
            if all.len() == 1 { "s" } else { "" }
        );
    }
    let mut layers = vec![Rosters::builtin_root()];
    layers.extend(data.mods.iter().cloned());
    Ok(layers)
}

/// How a report names an arm's rules: its variants joined by `+`, or "default".
/// What each of `variants` does, in words (the run's rules when none), from the scripts of `layers`;
/// empty when they do not load (the run itself reports that).
fn rules_words(layers: &[std::path::PathBuf], variants: &[String]) -> String {
    match village::script::ScriptHost::open(layers, village::script::Limits::default(), 0) {
        Ok(host) => village::show::rules_description(&host.script_facts(), variants),
        Err(_) => String::new(),
    }
}

pub(crate) fn rules_name(variants: &[String]) -> String {
    if variants.is_empty() {
        "default".to_string()
    } else {
        variants.join("+")
    }
}

pub fn run_replay(
    file: &std::path::Path,
    verify: bool,
    json: bool,
    data: &DataArgs,
) -> Result<ExitCode> {
    let rec = parse_record(file)?;
    let layers = record_layers(&rec, file, data)?;
    let v = village::sim::replay(&rec, &layers).map_err(|e| anyhow::anyhow!(e))?;
    if json {
        print_json(&v)?;
    } else {
        outln!(
            "game {} (seed {}): {} (recorded: {})",
            rec.index,
            rec.seed,
            v.result,
            rec.result
        );
        if v.result != v.recorded_result {
            outln!(
                "the result differs: the game gives {:?}, the file records {:?}",
                v.result,
                v.recorded_result
            );
        }
        if let Some(d) = &v.content_differs {
            outln!("the rosters/scripts differ from the recording's: {d}");
        }
        if !verify {
            out!("{}", watch_text(&rec, file, data));
        }
        if verify {
            match &v.first_difference {
                None => outln!("the log is the recorded one ({} events)", rec.events.len()),
                Some((i, now)) => outln!(
                    "the log differs from event #{i}: now {}",
                    now.as_ref()
                        .map_or("(the log ended)".to_string(), |e| e.to_string())
                ),
            }
        }
    }
    Ok(if verify && !v.same {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// `village merge`: the report of a run's shards, as `village sim` prints it (less the timing). Each
/// shard is read up to the limit of a shard and checked whole (`village::sim::merge`) before anything
/// is reported or drawn; the chart may not be one of the shards.
pub fn run_merge(files: &[PathBuf], json: bool, svg: Option<&std::path::Path>) -> Result<ExitCode> {
    let inputs: Vec<village::files::Named<'_>> = files
        .iter()
        .map(|f| village::files::Named {
            by: "the shard",
            path: f,
        })
        .collect();
    let outputs: Vec<village::files::Named<'_>> = svg
        .map(|path| village::files::Named { by: "--svg", path })
        .into_iter()
        .collect();
    village::files::distinct(&inputs, &outputs).map_err(anyhow::Error::msg)?;
    // Every missing file named at once (a batch run's failed tasks), not only the first.
    let missing: Vec<String> = files
        .iter()
        .filter(|f| !f.exists())
        .map(|f| f.display().to_string())
        .collect();
    if !missing.is_empty() {
        bail!(
            "{} of the {} shards are missing: {} (re-run their tasks, then merge again)",
            missing.len(),
            files.len(),
            missing.join(", ")
        );
    }
    let mut shards = Vec::new();
    for f in files {
        let text = village::files::read_text(f, village::files::SHARD)?;
        let shard: village::sim::Shard = serde_json::from_str(&text).with_context(|| {
            format!("{}: not a shard written by village sim --out", f.display())
        })?;
        shards.push((f.display().to_string(), shard));
    }
    let seed = shards.first().map_or(0, |(_, s)| s.options.seed);
    let options = shards.first().map(|(_, s)| village::sim::SimOptions {
        games: s.total,
        ..s.options.clone()
    });
    // The waves of the run's length, from its rosters when they can be read here (data only: no script
    // of the layers runs), so every wave a shard names is checked against the game it was.
    let length = options.as_ref().and_then(length_of);
    let waves = length.as_ref().map(|l| l.last_wave());
    let played = village::sim::merge(shards, waves).map_err(|e| anyhow::anyhow!(e))?;
    let mut report = village::sim::report(&played.records);
    report.failed = played.failed;
    report.endless = is_endless(length.as_ref());
    if let (Some(path), Some(o)) = (svg, &options) {
        // The whole run's chart: the shards carry the run's settings, so it is the unsharded run's.
        let axis = axis_waves(length.as_ref());
        let chart = village::render::chart::sim_svg(&report, &run_title(o, None), axis);
        write_file(path, chart.as_bytes())?;
        errln!("wrote {}", path.display());
    }
    if json {
        let mut v = serde_json::to_value(&report)?;
        v["seed"] = serde_json::json!(seed);
        print_json(&v)?;
    } else {
        out!("{}", village::sim::text(&report, 0.0));
    }
    Ok(if report.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The paired A/B report: each arm, the difference with its interval, and where the first differing
/// game parts.
fn ab_report(
    a: &village::sim::SimOptions,
    b: &village::sim::SimOptions,
    (ra, rb): (&[village::sim::GameRecord], &[village::sim::GameRecord]),
    seconds: f64,
    (json, svg): (bool, Option<&std::path::Path>),
) -> Result<ExitCode> {
    use village::sim;
    // Arms played by different policies are named by them (and their rules, when not the rulebook's).
    let by_policy = a.policy != b.policy;
    let name = |o: &sim::SimOptions| match (by_policy, o.variants.is_empty()) {
        (false, _) => rules_name(&o.variants),
        (true, true) => format!("policy {}", o.policy),
        (true, false) => format!("policy {}, {}", o.policy, rules_name(&o.variants)),
    };
    let (mut rep_a, mut rep_b) = (sim::report(ra), sim::report(rb));
    // Both arms play the same length (`--vs` changes only the variants, `--vs-policy` the policy).
    let length = length_of(a);
    rep_a.endless = is_endless(length.as_ref());
    rep_b.endless = rep_a.endless;
    let diff = sim::difference(ra, rb);
    let first = ra
        .iter()
        .zip(rb)
        .find(|(x, y)| !x.ended_like(y))
        .map(|(x, _)| x.index);
    let divergence = match first {
        Some(i) => sim::divergence(a, b, i).map_err(|e| anyhow::anyhow!(e))?,
        None => None,
    };
    let games = (ra.len() + rb.len()) as f64;
    let words = |o: &sim::SimOptions| match by_policy {
        false => rules_words(&o.layers, &o.variants),
        true => format!(
            "The heroes' side played by scripts/policies/{}.lua. {}",
            o.policy,
            rules_words(&o.layers, &o.variants)
        ),
    };
    let (words_a, words_b) = (words(a), words(b));
    if let Some(path) = svg {
        let chart = village::render::chart::ab_svg(
            (&name(a), &rep_a),
            (&name(b), &rep_b),
            &diff,
            &run_title(a, Some(&name(b))),
            axis_waves(length.as_ref()),
            (&words_a, &words_b),
        );
        write_file(path, chart.as_bytes())?;
        errln!("wrote {}", path.display());
    }
    if json {
        let v = serde_json::json!({
            "seed": a.seed,
            "a": { "name": name(a), "description": words_a, "report": rep_a },
            "b": { "name": name(b), "description": words_b, "report": rep_b },
            "difference": diff,
            "divergence": divergence,
            "games_per_sec": games / seconds.max(1e-9),
            "seconds": seconds,
        });
        print_json(&v)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!("A: {}\n   {words_a}\n{}", name(a), sim::text(&rep_a, 0.0));
    outln!("B: {}\n   {words_b}\n{}", name(b), sim::text(&rep_b, 0.0));
    if rep_a.endless {
        // Nobody wins an endless game: the waves won are the score.
        outln!(
            "{} of {} games ended differently",
            diff.games_differing,
            ra.len()
        );
    } else {
        outln!(
            "A − B win rate: {:+.1} points (95% CI {:+.1} to {:+.1}); {} of {} games ended differently",
            diff.win_rate * 100.0,
            diff.ci95[0] * 100.0,
            diff.ci95[1] * 100.0,
            diff.games_differing,
            ra.len()
        );
    }
    outln!(
        "A − B mean waves won: {:+.2} (95% CI {:+.2} to {:+.2}); A {:.2}, B {:.2}",
        diff.waves_won,
        diff.waves_won_ci95[0],
        diff.waves_won_ci95[1],
        rep_a.waves_won_mean,
        rep_b.waves_won_mean
    );
    if let Some((m, ci)) = diff.vp_margin {
        outln!(
            "A − B heroes' VP margin: {m:+.2} (95% CI {:+.2} to {:+.2})",
            ci[0],
            ci[1]
        );
    }
    if !rep_a.endless {
        let bar = |r: &sim::Report| "#".repeat((r.win_rate * 40.0).round() as usize);
        outln!("  A {:>5.1}% {}", rep_a.win_rate * 100.0, bar(&rep_a));
        outln!("  B {:>5.1}% {}", rep_b.win_rate * 100.0, bar(&rep_b));
    }
    if let Some(d) = divergence {
        outln!(
            "First game that differs: game {} (seed {}), parting at event #{}{}",
            d.game,
            d.seed,
            d.event,
            d.script
                .as_deref()
                .map(|s| format!(" — {s}"))
                .unwrap_or_default()
        );
        let show = |v: &Option<serde_json::Value>| {
            v.as_ref()
                .map_or("(the log has ended)".to_string(), |v| v.to_string())
        };
        outln!("  A: {}\n  B: {}", show(&d.a), show(&d.b));
    }
    outln!(
        "\n{:.1} games per second ({:.1} s)",
        games / seconds.max(1e-9),
        seconds
    );
    Ok(ExitCode::SUCCESS)
}

/// A chart's title: what was played ("200 standard games, seed 1: Captain Maren, …"), and with `vs`
/// the two arms.
fn run_title(o: &village::sim::SimOptions, vs: Option<&str>) -> String {
    let arm = rules_name(&o.variants);
    let arms = match vs {
        Some(b) => format!(" — A {arm} vs B {b}"),
        None if o.variants.is_empty() => String::new(),
        None => format!(" — variant {arm}"),
    };
    let preset = if village::roster::is_default_preset(&o.preset) {
        String::new()
    } else {
        format!(", preset {}", o.preset)
    };
    format!(
        "{} {} games, seed {}, party of {}{preset}{arms}",
        o.games,
        o.length,
        o.seed,
        o.heroes.len()
    )
}

/// The run's length as its rosters give it, when they load.
fn length_of(o: &village::sim::SimOptions) -> Option<village::roster::Length> {
    Rosters::load(&o.layers).ok()?.length(&o.length).cloned()
}

/// Where a chart's wave axis runs to: the length's final wave; none for an endless length (the axis
/// runs to the last wave a game reached) or one unknown.
fn axis_waves(length: Option<&village::roster::Length>) -> Option<u32> {
    length.filter(|l| !l.is_endless()).map(|l| l.last_wave())
}

/// Whether the length is endless (Defender mode).
fn is_endless(length: Option<&village::roster::Length>) -> bool {
    length.is_some_and(|l| l.is_endless())
}
