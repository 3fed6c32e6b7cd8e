//! `village run --watch`: the file runs again when it (or a script or roster) changes.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[test]
fn an_edited_scenario_runs_again() {
    let dir = std::env::temp_dir().join(format!("village-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("watched.lua");
    std::fs::write(&f, "print('first version')\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_village"))
        .args(["run", "--watch"])
        .arg(&f)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait_for = |want: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                if line == want {
                    return true;
                }
            }
        }
        false
    };
    let first = wait_for("first version");
    // Give the watcher a moment to be armed before editing (it starts after the first run).
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(&f, "print('second version')\n").unwrap();
    let second = wait_for("second version");
    let _ = child.kill();
    let _ = child.wait();
    assert!(first, "the first run printed");
    assert!(second, "the edited file ran again");
}

/// `village run` prints a table as the REPL shows the same value (keys and values), not `table: 0x…`.
#[test]
fn village_run_prints_tables_as_the_repl_does() {
    let dir = std::env::temp_dir().join(format!("village-run-print-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("print.lua");
    let value = "{ 1, 'two', k = { x = 1.5 }, [\"a b\"] = true }";
    std::fs::write(&f, format!("print('value', {value})\n")).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("run")
        .arg(&f)
        .output()
        .unwrap();
    assert!(run.status.success());
    let printed = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(!printed.contains("table: 0x"), "{printed}");
    let mut repl = Command::new(env!("CARGO_BIN_EXE_village"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    writeln!(repl.stdin.take().unwrap(), "{value}").unwrap();
    let shown = String::from_utf8_lossy(&repl.wait_with_output().unwrap().stdout).into_owned();
    let shown = shown.split_once('\n').unwrap().1; // after the echoed line
    assert_eq!(printed, format!("value\t{shown}"));
    std::fs::remove_dir_all(&dir).ok();
}
