//! `--slurm DIR`, `--submit` and `--k8s FILE` of `village sim` and `village sweep`: writing the
//! batch run's scripts, submitting them, and saying what was written and where the report will be.

use anyhow::{anyhow, Result};
use std::path::Path;
use std::process::ExitCode;
use village::batch::Batch;

/// Writes the batch run's scripts (and the manifest), submits them when asked, and says so.
pub fn launch(batch: &Batch, submit: bool, k8s: Option<&Path>) -> Result<ExitCode> {
    batch.write().map_err(|e| anyhow!(e))?;
    let d = batch.dir.display();
    errln!(
        "wrote {d}/tasks.sh ({} tasks, one thread each), {d}/tasks.sbatch (the job array), \
         {d}/merge.sbatch (the merge) and {d}/submit.sh",
        batch.tasks.len()
    );
    if let Some(path) = k8s {
        super::write_file(path, batch.k8s("debian:bookworm-slim").as_bytes())?;
        errln!(
            "wrote {} (a Kubernetes Indexed Job running the same tasks; untested)",
            path.display()
        );
    }
    if submit {
        let (tasks, merge) = batch.submit().map_err(|e| anyhow!(e))?;
        outln!("submitted: tasks job {tasks} (array 1-{}), merge job {merge} (after every task succeeds)", batch.tasks.len());
        outln!("watch: squeue -j {tasks},{merge}");
        outln!("the report, once job {merge} has run: cat {d}/report.txt");
    } else {
        outln!("submit with: bash {d}/submit.sh");
        outln!("the report, once the merge job has run: cat {d}/report.txt");
    }
    Ok(ExitCode::SUCCESS)
}
