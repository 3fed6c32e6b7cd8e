//! `village audit`: the project's own, independent reading of event logs against the rulebook.
//!
//! The audit reads JSON-lines logs into its own types ([`log`]), rebuilds the table from them
//! ([`table`]) with its own geometry ([`geom`]) and the rosters' data ([`facts`]), and runs one family
//! of checks per file under [`checks`]. It never calls the kernel's rules, geometry or state methods to
//! judge the kernel: a bug there cannot hide itself here. Each breach names its file, event `seq` and
//! kind, in a plain sentence ([`report`]).

pub mod checks;
pub mod facts;
pub mod geom;
pub mod log;
pub mod report;
pub mod table;

pub use facts::Facts;
pub use report::{Breach, Kind, Report};

use log::{Ev, Line};
use std::collections::BTreeSet;
use std::path::Path;
use table::Table;

/// Why a log could not be audited at all (a single bad line is a breach, not an error).
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The file could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The rosters the audit takes its data from did not load.
    #[error("the rosters did not load: {0}")]
    Rosters(String),
}

/// What a check is told about where it is: the rosters' facts, and where breaches go.
pub struct Cx<'a> {
    /// The rosters' facts.
    pub facts: &'a Facts,
    file: &'a str,
    game: usize,
    out: &'a mut Vec<Breach>,
    missing: &'a mut BTreeSet<String>,
}

impl Cx<'_> {
    /// Report a breach of `kind` at event `seq`.
    pub fn breach(&mut self, kind: Kind, seq: u64, text: String) {
        self.out.push(Breach {
            file: self.file.to_string(),
            game: self.game,
            seq: Some(seq),
            line: None,
            kind,
            text,
        });
    }

    /// Report, once a game, that the log lacks something (a `log` breach): the audit then does without
    /// it rather than guess.
    pub fn missing(&mut self, what: &str, seq: u64) {
        if self.missing.insert(what.to_string()) {
            self.breach(
                Kind::Log,
                seq,
                format!("missing {what} (the checks that need it are skipped where it is absent)"),
            );
        }
    }
}

/// One family of checks: it sees every event with the table as it stood before the event, and the
/// table at the end of the game.
pub trait Check {
    /// An event, with the table before it.
    fn see(&mut self, t: &Table, l: &Line, cx: &mut Cx);
    /// The game's log has ended (`last` is its last event).
    fn end(&mut self, _t: &Table, _last: &Line, _cx: &mut Cx) {}
}

/// Audits one or more logs, event by event, game by game (a `seq` of 0 starts a new game).
pub struct Auditor<'f> {
    facts: &'f Facts,
    report: Report,
    game: Option<Game>,
}

struct Game {
    file: String,
    table: Table,
    checks: Vec<Box<dyn Check>>,
    next: u64,
    last: Option<Line>,
    missing: BTreeSet<String>,
}

impl<'f> Auditor<'f> {
    /// An auditor reading with these facts.
    pub fn new(facts: &'f Facts) -> Auditor<'f> {
        Auditor {
            facts,
            report: Report::default(),
            game: None,
        }
    }

    /// Audit a whole log held as text (one JSON event a line), named `file` in breaches.
    pub fn text(&mut self, file: &str, text: &str) {
        for (i, line) in text.lines().enumerate() {
            self.line(file, i + 1, line);
        }
        self.finish();
    }

    /// Audit a file.
    pub fn file(&mut self, path: &Path) -> Result<(), AuditError> {
        let name = path.display().to_string();
        let text = std::fs::read(path).map_err(|source| AuditError::Read {
            file: name.clone(),
            source,
        })?;
        self.text(&name, &String::from_utf8_lossy(&text));
        Ok(())
    }

    /// One line of a log (1-based `no`).
    pub fn line(&mut self, file: &str, no: usize, text: &str) {
        match log::read_line(no, text) {
            Ok(Some(l)) => self.event(file, l),
            Ok(None) => {}
            Err(p) => {
                if p.seq == Some(0) {
                    self.finish();
                }
                if let Some(g) = self.game.as_mut() {
                    if let Some(s) = p.seq {
                        g.next = s + 1;
                    }
                }
                self.report.breaches.push(Breach {
                    file: file.to_string(),
                    game: self.report.games.max(1),
                    seq: p.seq,
                    line: Some(p.no),
                    kind: Kind::Log,
                    text: format!("{file}:{}: {}", p.no, p.text),
                });
            }
        }
    }

    fn event(&mut self, file: &str, l: Line) {
        let new_game = l.seq == 0 || self.game.as_ref().is_none_or(|g| g.file != file);
        if new_game {
            self.finish();
            self.report.games += 1;
            self.game = Some(Game {
                file: file.to_string(),
                table: Table::default(),
                checks: checks::all(),
                next: 0,
                last: None,
                missing: BTreeSet::new(),
            });
        }
        let Some(g) = self.game.as_mut() else { return };
        self.report.events += 1;
        let mut cx = Cx {
            facts: self.facts,
            file: &g.file,
            game: self.report.games,
            out: &mut self.report.breaches,
            missing: &mut g.missing,
        };
        if l.seq != g.next {
            cx.breach(
                Kind::Log,
                l.seq,
                format!(
                    "seq {} follows seq {}: the log has a gap or is out of order",
                    l.seq,
                    g.next.wrapping_sub(1)
                ),
            );
        }
        g.next = l.seq + 1;
        if l.seq == 0 && !matches!(l.ev, Ev::Setup { .. }) {
            cx.missing(
                "setup (the game's first event: table, terrain, buildings)",
                l.seq,
            );
        }
        for c in g.checks.iter_mut() {
            c.see(&g.table, &l, &mut cx);
        }
        g.table.apply(&l, self.facts);
        g.last = Some(l);
    }

    /// End the game in progress (its end-of-log checks run).
    pub fn finish(&mut self) {
        let Some(mut g) = self.game.take() else {
            return;
        };
        let Some(last) = g.last.take() else { return };
        let mut cx = Cx {
            facts: self.facts,
            file: &g.file,
            game: self.report.games,
            out: &mut self.report.breaches,
            missing: &mut g.missing,
        };
        for c in g.checks.iter_mut() {
            c.end(&g.table, &last, &mut cx);
        }
    }

    /// The report so far (games finished).
    pub fn report(mut self) -> Report {
        self.finish();
        self.report
    }
}

/// The facts of the built-in rosters (and `--mod` layers after them).
pub fn facts(layers: &[std::path::PathBuf]) -> Result<Facts, AuditError> {
    let r = crate::roster::Rosters::load(layers).map_err(|e| AuditError::Rosters(e.to_string()))?;
    Ok(Facts::of(&r))
}

/// Audit one log held as text.
pub fn audit_text(facts: &Facts, file: &str, text: &str) -> Report {
    let mut a = Auditor::new(facts);
    a.text(file, text);
    a.report()
}
