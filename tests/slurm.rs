//! `village sim --slurm` and `village sweep --slurm` on a real Slurm cluster: a one-node cluster
//! (`tools/slurm-up.sh`: munged, slurmctld and slurmd from Debian's slurm-wlm and munge, in a
//! temporary folder) takes a 4-shard sim and a 2-point × 2-shard sweep with `--submit`; once the merge
//! jobs have run, their reports equal the same runs played here without Slurm, less timings. The
//! cluster is stopped by its pid files whatever the test does. Skipped, saying so, only when the
//! packages cannot be installed (`slurm-up.sh` exits 3).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A cluster this test started: stopped (exactly its daemons) when dropped.
struct Cluster {
    dir: PathBuf,
    conf: String,
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("bash")
            .arg(root().join("tools/slurm-down.sh"))
            .arg(&self.dir)
            .status();
    }
}

/// Starts the cluster in `dir`; `None` (said on stderr) when the packages cannot be installed.
fn up(dir: &Path) -> Option<Cluster> {
    let out = Command::new("bash")
        .arg(root().join("tools/slurm-up.sh"))
        .arg(dir)
        .output()
        .expect("bash runs tools/slurm-up.sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(3) {
        eprintln!("SKIPPED: Slurm's packages cannot be installed here: {stderr}");
        return None;
    }
    // The cluster is stopped even when it came up half way.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let cluster = Cluster {
        dir: dir.to_path_buf(),
        conf: stdout
            .trim()
            .rsplit("SLURM_CONF=")
            .next()
            .unwrap_or("")
            .to_string(),
    };
    assert!(
        out.status.success() && cluster.conf.ends_with("slurm.conf"),
        "tools/slurm-up.sh failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    Some(cluster)
}

/// `village` with `args` against the cluster: its stdout, or a panic with its stderr.
fn village(conf: &str, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(args)
        .env("SLURM_CONF", conf)
        .output()
        .expect("village runs");
    assert!(
        out.status.success(),
        "village {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until the cluster has no job left (bounded), then shows the logs of a run that left none.
fn wait_for_jobs(c: &Cluster, runs: &[&Path]) {
    let start = Instant::now();
    loop {
        let q = Command::new("squeue")
            .args(["-h", "-o", "%i %T %r"])
            .env("SLURM_CONF", &c.conf)
            .output()
            .expect("squeue runs");
        let text = String::from_utf8_lossy(&q.stdout).trim().to_string();
        if q.status.success() && text.is_empty() {
            return;
        }
        if start.elapsed() > Duration::from_secs(300) {
            let mut logs = String::new();
            for r in runs {
                for e in std::fs::read_dir(r.join("logs"))
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    logs += &format!(
                        "--- {}\n{}\n",
                        e.path().display(),
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    );
                }
            }
            panic!("the jobs did not finish in 300 s: {text}\n{logs}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// A report's text without its timing line (and the blank line before it).
fn untimed(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text
        .lines()
        .filter(|l| {
            !l.contains("games per second")
                && !l.contains(" games in ")
                && !l.contains("merged from the shards")
        })
        .map(str::to_string)
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
}

/// A JSON report without its timing fields.
fn untimed_json(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("a JSON report");
    if let Some(o) = v.as_object_mut() {
        o.remove("seconds");
        o.remove("games_per_sec");
    }
    v
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_sim_and_a_sweep_played_on_a_real_slurm_cluster_report_what_they_report_here() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let Some(cluster) = up(&tmp.path().join("cluster")) else {
        return;
    };
    let conf = cluster.conf.clone();
    let (sim_dir, sweep_dir) = (tmp.path().join("sim"), tmp.path().join("sweep"));
    let sim = ["sim", "--games", "12", "--seed", "3", "--length", "intro"];
    let sweep = [
        "sweep",
        "--set",
        r#"heroes."Captain Maren".combat=3,4"#,
        "--games",
        "8",
        "--seed",
        "3",
        "--length",
        "intro",
    ];
    let submitted = village(
        &conf,
        &[
            &sim[..],
            &[
                "--slurm",
                sim_dir.to_str().unwrap(),
                "--shards",
                "4",
                "--submit",
            ],
        ]
        .concat(),
    );
    assert!(submitted.contains("submitted: tasks job"), "{submitted}");
    let submitted = village(
        &conf,
        &[
            &sweep[..],
            &[
                "--slurm",
                sweep_dir.to_str().unwrap(),
                "--shards",
                "2",
                "--submit",
            ],
        ]
        .concat(),
    );
    assert!(
        submitted.contains("(array 1-4)"),
        "2 points × 2 shards: {submitted}"
    );
    // Each task plays on one thread.
    let tasks = read(&sweep_dir.join("tasks.sh"));
    assert!(
        tasks.contains("RAYON_NUM_THREADS=1") && tasks.matches("--jobs 1").count() == 4,
        "{tasks}"
    );
    wait_for_jobs(&cluster, &[&sim_dir, &sweep_dir]);

    // The sim: the merge job's reports are the local run's, less timings.
    let local = village(&conf, &sim);
    assert_eq!(untimed(&read(&sim_dir.join("report.txt"))), untimed(&local));
    let local = village(&conf, &[&sim[..], &["--json"]].concat());
    assert_eq!(
        untimed_json(&read(&sim_dir.join("report.json"))),
        untimed_json(&local)
    );
    // The sweep likewise.
    let local = village(&conf, &sweep);
    assert_eq!(
        untimed(&read(&sweep_dir.join("report.txt"))),
        untimed(&local)
    );
    let local = village(&conf, &[&sweep[..], &["--json"]].concat());
    assert_eq!(
        untimed_json(&read(&sweep_dir.join("report.json"))),
        untimed_json(&local)
    );
    assert!(read(&sweep_dir.join("report.svg")).contains("<svg"));

    // A failed task: its shard is missing, the merge names it and its task, and the task re-run
    // alone makes the set whole again.
    let lost = sweep_dir.join("shards/p01-shard-1-of-2.json");
    std::fs::remove_file(&lost).expect("remove a shard");
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["sweep", "--merge", sweep_dir.to_str().unwrap()])
        .output()
        .expect("village runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a partial set is refused");
    assert!(
        err.contains("p01-shard-1-of-2.json") && err.contains("task 3"),
        "the missing shard and its task are named: {err}"
    );
    let rerun = Command::new("bash")
        .arg(sweep_dir.join("tasks.sh"))
        .arg("3")
        .output()
        .expect("bash runs tasks.sh");
    assert!(
        rerun.status.success(),
        "{}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    let merged = village(&conf, &["sweep", "--merge", sweep_dir.to_str().unwrap()]);
    assert_eq!(
        untimed(&merged),
        untimed(&read(&sweep_dir.join("report.txt")))
    );
    // `village merge` of the sim names every missing shard too.
    let shards: Vec<String> = (1..=4)
        .map(|k| {
            sim_dir
                .join(format!("shards/shard-{k}-of-4.json"))
                .display()
                .to_string()
        })
        .collect();
    std::fs::remove_file(&shards[1]).expect("remove a shard");
    std::fs::remove_file(&shards[3]).expect("remove a shard");
    let out = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("merge")
        .args(&shards)
        .output()
        .expect("village runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("2 of the 4 shards are missing")
            && err.contains("shard-2-of-4.json")
            && err.contains("shard-4-of-4.json"),
        "{err}"
    );
    drop(cluster);
}
