//! Runs on a batch cluster: the job scripts that play a `village sim` or `village sweep` as a Slurm
//! job array (one task per shard, or per sweep point × shard, each on one thread) with a merge job
//! that waits for it (`--dependency=afterok`), their submission with `sbatch`, and a Kubernetes
//! Indexed Job manifest that runs the same tasks.
//!
//! Everything a task needs is in its command line (the `village sim` options of its run, the data
//! folders by absolute path, `--shard K/N --out FILE`), written into `DIR/tasks.sh`; the Slurm script
//! and the manifest only choose the task. Each task writes `DIR/shards/<name>.json`, so a failed task
//! is re-run alone (`sbatch --array=K DIR/tasks.sbatch`) and the merge finds the set whole or names
//! what is missing.

use crate::sim::SimOptions;
use std::path::{Path, PathBuf};

/// One array task: its name (its shard file's stem) and its `village` arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub name: String,
    pub args: Vec<String>,
}

/// A batch run: its folder, the `village` binary the tasks run, the tasks and the merge commands
/// (each `village` arguments and the file its stdout goes to).
#[derive(Debug, Clone)]
pub struct Batch {
    pub dir: PathBuf,
    pub exe: PathBuf,
    /// What the run is, for the job names and the scripts' headers (`sim`, `sweep`).
    pub kind: String,
    pub tasks: Vec<Task>,
    pub merge: Vec<(Vec<String>, PathBuf)>,
}

/// `s` quoted for a POSIX shell.
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// An absolute form of `p` (against the current folder), so a task started elsewhere finds it.
pub fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The `village sim` arguments that play `o`'s run of `total` games (without `--shard`, `--out` or
/// `--jobs`): its party, length, preset, scenario, variants, policy and data layers by absolute path.
pub fn sim_args(o: &SimOptions, total: u64) -> Vec<String> {
    let mut a: Vec<String> = vec![
        "sim".into(),
        "--games".into(),
        total.to_string(),
        "--seed".into(),
        o.seed.to_string(),
        "--heroes".into(),
        o.heroes.join(","),
        "--length".into(),
        o.length.clone(),
        "--preset".into(),
        o.preset.clone(),
        "--scenario".into(),
        o.scenario.clone(),
        "--policy".into(),
        o.policy.clone(),
    ];
    for v in &o.variants {
        a.extend(["--variant".into(), v.clone()]);
    }
    if let Some((data, mods)) = o.layers.split_first() {
        a.extend(["--data".into(), absolute(data).display().to_string()]);
        for m in mods {
            a.extend(["--mod".into(), absolute(m).display().to_string()]);
        }
    }
    if o.decisions {
        a.push("--decisions".into());
    }
    if o.audit {
        a.push("--audit".into());
    }
    a
}

/// The tasks of `shards` shards of a run: `shard-K-of-N` (under `prefix`), each one thread.
pub fn shard_tasks(o: &SimOptions, total: u64, shards: u64, prefix: &str, dir: &Path) -> Vec<Task> {
    (1..=shards)
        .map(|k| {
            let name = format!("{prefix}shard-{k}-of-{shards}");
            let mut args = sim_args(o, total);
            args.extend([
                "--jobs".into(),
                "1".into(),
                "--shard".into(),
                format!("{k}/{shards}"),
                "--out".into(),
                dir.join("shards")
                    .join(format!("{name}.json"))
                    .display()
                    .to_string(),
            ]);
            Task { name, args }
        })
        .collect()
}

/// A command line of `exe` and `args`, quoted.
fn line(exe: &Path, args: &[String]) -> String {
    std::iter::once(quote(&exe.display().to_string()))
        .chain(args.iter().map(|a| quote(a)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Batch {
    /// `DIR/tasks.sh N`: runs task N (1-based) and nothing else.
    fn tasks_sh(&self) -> String {
        let mut s = format!(
            "#!/usr/bin/env bash\n# Written by `village {} --slurm`: task N of {} (1-based), as a \
             Slurm array task or a Kubernetes Indexed Job pod runs it.\n# Each writes its own \
             shards/<name>.json; run one by hand with `bash tasks.sh N`.\nset -euo pipefail\n\
             # One thread a task: the scheduler gives each task one CPU.\nexport RAYON_NUM_THREADS=1\n\
             VILLAGE=${{VILLAGE:-{}}}\ncase \"${{1:?which task (1 to {})}}\" in\n",
            self.kind,
            self.tasks.len(),
            quote(&self.exe.display().to_string()),
            self.tasks.len()
        );
        for (i, t) in self.tasks.iter().enumerate() {
            s.push_str(&format!(
                "  {}) # {}\n    exec \"$VILLAGE\" {} ;;\n",
                i + 1,
                t.name,
                t.args
                    .iter()
                    .map(|a| quote(a))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        s.push_str(&format!(
            "  *) echo \"tasks.sh: no task $1 (there are {})\" >&2; exit 2 ;;\nesac\n",
            self.tasks.len()
        ));
        s
    }

    /// `DIR/tasks.sbatch`: the job array, one CPU a task, a log a task.
    fn tasks_sbatch(&self) -> String {
        let d = self.dir.display();
        format!(
            "#!/usr/bin/env bash\n# Written by `village {kind} --slurm`: the job array, one task per \
             shard{per}, one CPU each.\n# A failed task is re-run alone: sbatch --array=K {d}/tasks.sbatch\n\
             #SBATCH --job-name=village-{kind}\n#SBATCH --array=1-{n}\n#SBATCH --ntasks=1\n\
             #SBATCH --cpus-per-task=1\n#SBATCH --output={d}/logs/task-%a.log\n\
             exec bash {tasks} \"$SLURM_ARRAY_TASK_ID\"\n",
            kind = self.kind,
            per = if self.kind == "sweep" {
                " of each point"
            } else {
                ""
            },
            n = self.tasks.len(),
            tasks = quote(&self.dir.join("tasks.sh").display().to_string()),
        )
    }

    /// `DIR/merge.sbatch`: joins the shards into the reports once every task succeeded.
    fn merge_sbatch(&self) -> String {
        let d = self.dir.display();
        let mut s = format!(
            "#!/usr/bin/env bash\n# Written by `village {} --slurm`: joins the shards into the \
             report (submitted with --dependency=afterok on the tasks).\n\
             #SBATCH --job-name=village-{}-merge\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n\
             #SBATCH --output={d}/logs/merge.log\nset -euo pipefail\n",
            self.kind, self.kind
        );
        for (args, out) in &self.merge {
            s.push_str(&format!(
                "{} > {}\n",
                line(&self.exe, args),
                quote(&out.display().to_string())
            ));
        }
        s
    }

    /// `DIR/submit.sh`: submits the array, then the merge after it.
    fn submit_sh(&self) -> String {
        format!(
            "#!/usr/bin/env bash\n# Written by `village {} --slurm`: submits the tasks, then the \
             merge once they all succeed.\nset -euo pipefail\ncd {dir}\n\
             tasks=$(sbatch --parsable tasks.sbatch)\ntasks=${{tasks%%;*}}\n\
             merge=$(sbatch --parsable --dependency=afterok:\"$tasks\" merge.sbatch)\n\
             merge=${{merge%%;*}}\necho \"tasks job $tasks, merge job $merge: the report will be in \
             {dir}/report.txt\"\n",
            self.kind,
            dir = quote(&self.dir.display().to_string())
        )
    }

    /// Writes `tasks.sh`, `tasks.sbatch`, `merge.sbatch` and `submit.sh` into the run's folder, with
    /// `shards/` and `logs/` beside them.
    pub fn write(&self) -> Result<(), String> {
        for sub in ["shards", "logs"] {
            let d = self.dir.join(sub);
            std::fs::create_dir_all(&d).map_err(|e| format!("cannot make {}: {e}", d.display()))?;
        }
        let files = [
            ("tasks.sh", self.tasks_sh()),
            ("tasks.sbatch", self.tasks_sbatch()),
            ("merge.sbatch", self.merge_sbatch()),
            ("submit.sh", self.submit_sh()),
        ];
        for (name, text) in files {
            let p = self.dir.join(name);
            std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755));
            }
        }
        Ok(())
    }

    /// Submits the array and then the merge (`sbatch --dependency=afterok`): their job ids.
    pub fn submit(&self) -> Result<(String, String), String> {
        let sbatch = |args: &[&str]| -> Result<String, String> {
            let out = std::process::Command::new("sbatch")
                .arg("--parsable")
                .args(args)
                .current_dir(&self.dir)
                .output()
                .map_err(|e| {
                    format!("cannot run sbatch ({e}): is Slurm's client installed and on PATH?")
                })?;
            if !out.status.success() {
                return Err(format!(
                    "sbatch {} failed: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
            let text = String::from_utf8_lossy(&out.stdout);
            // `--parsable` prints "id" or "id;cluster".
            let id = text.trim().split(';').next().unwrap_or("").to_string();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                return Err(format!("sbatch printed no job id: {:?}", text.trim()));
            }
            Ok(id)
        };
        let tasks = sbatch(&["tasks.sbatch"])?;
        let merge = sbatch(&[&format!("--dependency=afterok:{tasks}"), "merge.sbatch"])?;
        Ok((tasks, merge))
    }

    /// A Kubernetes Indexed Job that runs the same tasks (pod i runs task i + 1), for a cluster whose
    /// pods see the run's folder, the data folders and the binary at the same paths (a shared
    /// volume). The merge is left to run after it (`bash DIR/merge.sbatch` is a plain script too).
    pub fn k8s(&self, image: &str) -> String {
        let d = self.dir.display().to_string();
        let n = self.tasks.len();
        format!(
            "# Written by `village {kind} --k8s`: a Kubernetes Indexed Job, one pod per task of\n\
             # {d}/tasks.sh ({n} tasks), one CPU each. UNTESTED: the project tests the Slurm path only.\n\
             # The pods must see {d}, the data folders and the village binary at the same paths\n\
             # (mount a shared volume there), or set VILLAGE to the binary in the image.\n\
             # When the Job completes: bash {d}/merge.sbatch (it is a plain script).\n\
             apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: village-{kind}\nspec:\n\
             \x20 completionMode: Indexed\n  completions: {n}\n  parallelism: {n}\n  backoffLimit: {n}\n\
             \x20 template:\n    spec:\n      restartPolicy: Never\n      containers:\n\
             \x20       - name: task\n          image: {image}\n\
             \x20         command: [\"bash\", \"-c\", \"exec bash {tasks} $((JOB_COMPLETION_INDEX + 1))\"]\n\
             \x20         resources:\n            requests: {{ cpu: \"1\" }}\n            limits: {{ cpu: \"1\" }}\n\
             \x20         volumeMounts:\n            - name: run\n              mountPath: {d}\n\
             \x20     volumes:\n        - name: run\n          persistentVolumeClaim:\n\
             \x20           claimName: village-run # a ReadWriteMany claim holding {d}\n",
            kind = self.kind,
            tasks = quote(&self.dir.join("tasks.sh").display().to_string()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_plain_words_and_escapes_the_rest() {
        assert_eq!(quote("--games"), "--games");
        assert_eq!(quote("Captain Maren,Tobin"), "'Captain Maren,Tobin'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
    }
}
