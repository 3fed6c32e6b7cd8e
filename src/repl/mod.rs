//! The interactive console: `village` with no arguments (or `village repl`) opens a Lua REPL on a live
//! game, the global `game`, with the same API scripts use. On a terminal it is a rustyline editor with
//! a history file, Tab completion from live state and multi-line input; from a pipe it reads commands
//! line by line, echoes them, and exits non-zero when any failed, so other programs can drive it. An
//! error never ends the session. Evaluation, Lua completion and save/load are the script host's
//! (`script::repl`); this module owns the terminal and runs the `:commands` of [`commands::COMMANDS`].

pub mod commands;

use crate::script::repl::{Eval, NewGame, Repl};
use crate::script::Limits;
use anyhow::Result;
use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Editor, Helper};
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The largest history file a session reads: far more lines than anyone types.
const HISTORY_LIMIT: u64 = 16 << 20;

/// How a REPL session starts.
#[derive(Debug, Clone)]
pub struct Options {
    /// Data layers: the built-in folder, then `--mod` folders.
    pub layers: Vec<PathBuf>,
    pub game: NewGame,
    /// Where the history is kept (terminal sessions only).
    pub history: Option<PathBuf>,
}

/// What one line or chunk did.
enum Step {
    Output(String),
    Failed(String),
    Quit,
}

/// The SVG picture of a new game made as `opts` says (`village render --svg`).
pub fn render_new_game(opts: &Options) -> Result<String> {
    let repl = Repl::open(&opts.layers, Limits::default(), &opts.game)
        .map_err(|e| anyhow::anyhow!("{}", e.join("\n")))?;
    repl.with_game(crate::render::svg)
        .map_err(|e| anyhow::anyhow!(e))
}

/// The SVG picture of the game saved in `path` (`:save`; `village render --load`), as it stands,
/// checked as `:load` checks it; with `:load`'s warnings (a save made with other rosters or scripts).
pub fn render_saved(opts: &Options, path: &Path) -> Result<(String, Vec<String>)> {
    let repl = Repl::open(&opts.layers, Limits::default(), &opts.game)
        .map_err(|e| anyhow::anyhow!("{}", e.join("\n")))?;
    let warnings = repl.load(path).map_err(|e| anyhow::anyhow!(e))?;
    let picture = repl
        .with_game(crate::render::svg)
        .map_err(|e| anyhow::anyhow!(e))?;
    Ok((picture, warnings))
}

/// Run the REPL until `:quit` or the end of input. Returns whether every command succeeded.
pub fn run(opts: &Options) -> Result<bool> {
    let repl = Repl::open(&opts.layers, Limits::default(), &opts.game)
        .map_err(|e| anyhow::anyhow!("{}", e.join("\n")))?;
    // The REPL has no JSON mode: a script's print goes where the person reads the session.
    repl.host().print_to_stdout(true);
    // Hot reload in session: a saved script or roster applies before the next command, with a one-line
    // notice (or the error with file:line, the last good version kept). Without a watcher (a system
    // limit), `:reload` still works.
    let watcher = repl.host().watch().ok();
    if std::io::stdin().is_terminal() {
        terminal(Rc::new(repl), opts, watcher.as_ref())
    } else {
        piped(&repl, watcher.as_ref())
    }
}

/// The notice of a reload the watcher saw, if one is ready.
fn hot_reload(repl: &Repl, watcher: Option<&crate::script::Watcher>) -> Option<String> {
    let report = repl.host().poll_reload(watcher?)?;
    Some(report.to_string())
}

/// Commands read line by line from a pipe: each echoed after `> `, a chunk kept open while unfinished.
/// Everything is printed through `terminal::out` (made terminal-safe); a stdout that cannot be written
/// ends the session (the caller reports it, `terminal::finish`).
fn piped(repl: &Repl, watcher: Option<&crate::script::Watcher>) -> Result<bool> {
    let stdin = std::io::stdin();
    let say = |text: &str| crate::terminal::out(&format!("{text}\n"));
    let mut ok = true;
    let mut chunk = String::new();
    let mut input = stdin.lock();
    let mut raw = Vec::new();
    let mut number = 0;
    loop {
        // Bytes, not `lines()`: a line that is not UTF-8 is that line's error, not the end of the
        // session and of the rest of the input.
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            break;
        }
        number += 1;
        if raw.ends_with(b"\n") {
            raw.pop();
            if raw.ends_with(b"\r") {
                raw.pop();
            }
        }
        let prompt = if chunk.is_empty() { "> " } else { ">> " };
        let line = match String::from_utf8(std::mem::take(&mut raw)) {
            Ok(line) => line,
            Err(e) => {
                let why = crate::script::not_utf8("stdin", number, e.as_bytes());
                let dropped = if chunk.is_empty() {
                    ""
                } else {
                    " (with the unfinished chunk before it)"
                };
                let echo = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let said = say(&format!("{prompt}{echo}")).and_then(|()| {
                    say(&format!(
                        "error: {}; the line was skipped{dropped}",
                        why.unwrap_or_default()
                    ))
                });
                if said.is_err() {
                    return Ok(false);
                }
                chunk.clear();
                ok = false;
                continue;
            }
        };
        if say(&format!("{prompt}{line}")).is_err() {
            return Ok(false);
        }
        if !chunk.is_empty() {
            chunk.push('\n');
        }
        chunk.push_str(&line);
        if chunk.trim().is_empty() {
            chunk.clear();
            continue;
        }
        if repl.incomplete(&chunk) {
            continue;
        }
        if let Some(notice) = hot_reload(repl, watcher) {
            if say(&notice).is_err() {
                return Ok(false);
            }
        }
        let step = one(repl, &chunk);
        chunk.clear();
        let said = match step {
            Step::Output(text) if text.is_empty() => Ok(()),
            Step::Output(text) => say(&text),
            Step::Failed(e) => {
                // In the transcript, where a person reads it; the exit status tells a program.
                ok = false;
                say(&format!("error: {e}"))
            }
            Step::Quit => return Ok(ok),
        };
        if said.is_err() {
            return Ok(false);
        }
    }
    if !chunk.trim().is_empty() {
        let _ = say("error: unfinished input at the end");
        ok = false;
    }
    Ok(ok)
}

/// One command or Lua chunk.
fn one(repl: &Repl, input: &str) -> Step {
    // A command keeps its trailing space: `:complete :attack ` asks for every enemy.
    if let Some(cmd) = input.trim_start().strip_prefix(':') {
        return command(repl, cmd);
    }
    match repl.eval(input) {
        Eval::Values(v) => Step::Output(v.join("\n")),
        Eval::Incomplete => Step::Failed("unfinished input".into()),
        // The first line names file:line and the error; Lua's traceback of a typed line adds nothing.
        Eval::Error(e) => Step::Failed(e.lines().next().unwrap_or_default().to_string()),
    }
}

fn command(repl: &Repl, cmd: &str) -> Step {
    let (typed, raw) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
    let arg = raw.trim();
    let Some(c) = commands::find(typed) else {
        return Step::Failed(format!("unknown command :{typed} (:help lists them)"));
    };
    if c.runs == commands::Runs::Play {
        return match repl.play(c.name, arg) {
            Some(Ok(text)) => Step::Output(text),
            Some(Err(e)) => Step::Failed(e),
            None => Step::Failed(format!(":{} is not a play command", c.name)),
        };
    }
    match c.name {
        "help" => Step::Output(commands::help()),
        "quit" => Step::Quit,
        "map" => {
            let (cols, rows) = terminal_size();
            match repl.with_game(|g| crate::render::ascii_map(g, cols, rows)) {
                Ok(m) => Step::Output(m.trim_end().to_string()),
                Err(e) => Step::Failed(e),
            }
        }
        "scenario" => match repl.setup_words() {
            Ok(words) => Step::Output(words),
            Err(e) => Step::Failed(e),
        },
        "log" => {
            let n = if arg.is_empty() {
                Ok(10)
            } else {
                arg.parse::<usize>()
            };
            let Ok(n) = n else {
                return Step::Failed(format!(":log takes a number of events, not {arg:?}"));
            };
            match repl.with_game(|g| {
                let names = crate::state::describe::names(g);
                let log = g.log();
                crate::state::describe::describe_all(&log[log.len().saturating_sub(n)..], &names)
                    .join("\n")
            }) {
                Ok(text) => Step::Output(text),
                Err(e) => Step::Failed(e),
            }
        }
        "reload" => {
            let report = repl.host().reload();
            match report.outcome {
                Ok(s) => Step::Output(format!(
                    "reloaded: {} script modules{}",
                    s.modules,
                    if s.rosters { ", rosters" } else { "" }
                )),
                Err(errors) => Step::Failed(format!(
                    "kept the last good version:\n{}",
                    errors.join("\n")
                )),
            }
        }
        name @ ("save" | "load" | "render") if arg.is_empty() => {
            Step::Failed(format!(":{name} needs a FILE"))
        }
        "render" => match repl.with_game(crate::render::svg).and_then(|s| {
            repl.output_allowed(":render", Path::new(arg))?;
            crate::files::write_atomic(Path::new(arg), s.as_bytes())
                .map_err(|e| format!("{arg}: {e}"))
        }) {
            Ok(()) => Step::Output(format!("wrote {arg}")),
            Err(e) => Step::Failed(e),
        },
        "save" => match repl.save(Path::new(arg)) {
            Ok(()) => Step::Output(format!("saved to {arg}")),
            Err(e) => Step::Failed(e),
        },
        "load" => match repl.load(Path::new(arg)) {
            Ok(warnings) => Step::Output(
                warnings
                    .iter()
                    .map(|w| format!("warning: {w}\n"))
                    .chain([format!("loaded {arg}")])
                    .collect(),
            ),
            Err(e) => Step::Failed(e),
        },
        "explain" => {
            let which = repl.with_game(|g| {
                let seq = if arg.is_empty() {
                    // The latest combat, else the latest event.
                    g.log()
                        .iter()
                        .rposition(|e| matches!(e.kind, crate::state::EventKind::Combat { .. }))
                        .or(g.log().len().checked_sub(1))
                } else {
                    arg.trim_start_matches('#').parse::<usize>().ok()
                };
                seq.and_then(|s| crate::state::describe::explain(g, s))
            });
            match which {
                Ok(Some(text)) => Step::Output(text),
                Ok(None) => Step::Failed(format!(
                    ":explain takes an event number from :log (#N), not {arg:?}"
                )),
                Err(e) => Step::Failed(e),
            }
        }
        "show" if arg.is_empty() => Step::Failed(
            ":show NAME: a hero, enemy or Village Defender (part of the name will do)".into(),
        ),
        "show" => match repl.host().profile_card(arg) {
            Ok(card) => Step::Output(card.text().trim_end().to_string()),
            Err(e) => Step::Failed(e),
        },
        "why" => {
            let seq = if arg.is_empty() {
                Ok(None)
            } else {
                arg.trim_start_matches('#')
                    .parse::<u64>()
                    .map(Some)
                    .map_err(|_| format!(":why takes an event number from :log (#N), not {arg:?}"))
            };
            match seq.and_then(|s| repl.with_game(|g| crate::state::describe::why(g, s))?) {
                Ok(text) => Step::Output(text),
                Err(e) => Step::Failed(e),
            }
        }
        "new" => new_game(repl, arg),
        "complete" => {
            let (_, words) = commands::complete(repl, raw.trim_start());
            // A candidate of several words ("Captain Maren") is quoted, so the list reads unambiguously.
            let shown: Vec<String> = words
                .iter()
                .map(|w| {
                    if w.contains(char::is_whitespace) {
                        format!("{w:?}")
                    } else {
                        w.clone()
                    }
                })
                .collect();
            Step::Output(shown.join(" "))
        }
        other => Step::Failed(format!(":{other} has no console handler")),
    }
}

/// `:new [OPTIONS]`: the options read by clap as `village repl` reads its own ([`crate::args::NewArgs`],
/// the same definitions and defaults), the party resolved as there, then the game made by the script
/// host's one way of making a session's game (`Repl::new_game`). Anything refused leaves the game as it
/// was.
fn new_game(repl: &Repl, arg: &str) -> Step {
    use clap::Parser as _;
    let words = match split_words(arg) {
        Ok(w) => w,
        Err(e) => return Step::Failed(format!(":new: {e}")),
    };
    let args = match crate::args::NewArgs::try_parse_from(&words) {
        Ok(a) => a,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
            return Step::Output(e.render().to_string().trim_end().to_string())
        }
        Err(e) => {
            // clap's first line is the error ("error: unexpected argument ..."); its usage and tip
            // lines are for a shell. The REPL adds its own "error: ".
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or_default();
            let first = first.strip_prefix("error: ").unwrap_or(first);
            return Step::Failed(format!(
                ":new: {first} (:new --help lists the options; the game is kept)"
            ));
        }
    };
    let g = &args.game;
    let new = g.new_game_of(
        repl.host().layers(),
        repl.host().rosters().as_deref(),
        &g.policy,
    );
    match repl.new_game(&new) {
        Ok(()) => Step::Output(format!(
            "`game` is a new {} game (seed {}{}): {}. :wave starts its first wave.",
            new.length,
            new.seed,
            preset_note(&new.preset),
            new.heroes.join(", ")
        )),
        Err(e) => Step::Failed(format!(":new: {e} (the game is kept)")),
    }
}

/// ", preset story" after a new game's seed; nothing for the rulebook's game.
fn preset_note(preset: &str) -> String {
    if crate::roster::is_default_preset(preset) {
        String::new()
    } else {
        format!(", preset {preset}")
    }
}

/// `text` as words the way a shell splits them for the simple cases a REPL line needs: whitespace
/// separates words, and a part in double or single quotes keeps its spaces (`--heroes "Captain
/// Maren, Bram the Smith"`). An unclosed quote is an error.
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                // `""` is an empty word, not no word.
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("a {q} is not closed"));
    }
    words.extend(word);
    Ok(words)
}

/// The room for the map in characters: the terminal's size (stdout's), else `COLUMNS`/`LINES` when
/// set, else 80 × 40; less the border and room for the key.
fn terminal_size() -> (usize, usize) {
    let get = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (cols, rows) = match terminal_size::terminal_size() {
        Some((terminal_size::Width(w), terminal_size::Height(h))) => (w as usize, h as usize),
        None => (get("COLUMNS", 80), get("LINES", 40)),
    };
    (cols.saturating_sub(2), rows.saturating_sub(12))
}

/// The rustyline helper: completion and multi-line validation from the live session.
struct Console {
    repl: Rc<Repl>,
}

impl Completer for Console {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        // A candidate a terminal would act on (a table key holding an escape) is not offered: it
        // could not be typed, and the editor would print it raw.
        let (at, mut candidates) = commands::complete(&self.repl, &line[..pos]);
        candidates.retain(|c| !c.chars().any(crate::terminal::acts_on));
        Ok((at, candidates))
    }
}

impl Hinter for Console {
    type Hint = String;
}

impl Highlighter for Console {}

impl Validator for Console {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(if self.repl.incomplete(ctx.input()) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}

impl Helper for Console {}

fn terminal(
    repl: Rc<Repl>,
    opts: &Options,
    watcher: Option<&crate::script::Watcher>,
) -> Result<bool> {
    let mut ed: Editor<Console, rustyline::history::DefaultHistory> = Editor::new()?;
    ed.set_helper(Some(Console { repl: repl.clone() }));
    // A history file that is not one (a device, a FIFO) or is past any history's size is neither read
    // (the editor would read it whole) nor written over.
    // (`--history /dev/null`, a device, keeps no history, as asked.)
    let history = opts
        .history
        .as_ref()
        .filter(|h| match std::fs::metadata(h) {
            Ok(m) if std::os::unix::fs::FileTypeExt::is_char_device(&m.file_type()) => false,
            Ok(m) if !m.is_file() || m.len() > HISTORY_LIMIT => {
                crate::terminal::err(&format!(
                    "note: {} is not used as the history: not a regular file of at most {} MiB\n",
                    h.display(),
                    HISTORY_LIMIT >> 20
                ));
                false
            }
            _ => true,
        });
    if let Some(h) = history {
        // A first session has no history file yet.
        let _ = ed.load_history(h);
    }
    let say = |text: &str| crate::terminal::out(&format!("{text}\n"));
    let _ = say(&format!(
        "village REPL — `game` is a new {} game (seed {}{}). :help for commands, Ctrl-D to leave.",
        opts.game.length,
        opts.game.seed,
        preset_note(&opts.game.preset)
    ));
    loop {
        match ed.readline("village> ") {
            Ok(input) => {
                if input.trim().is_empty() {
                    continue;
                }
                let _ = ed.add_history_entry(input.as_str());
                if let Some(notice) = hot_reload(&repl, watcher) {
                    let _ = say(&notice);
                }
                match one(&repl, &input) {
                    Step::Output(text) => {
                        if !text.is_empty() {
                            let _ = say(&text);
                        }
                    }
                    Step::Failed(e) => crate::terminal::err(&format!("error: {e}\n")),
                    Step::Quit => break,
                }
            }
            Err(rustyline::error::ReadlineError::Interrupted) => continue,
            Err(rustyline::error::ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        }
    }
    if let Some(h) = history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = ed.save_history(h) {
            crate::terminal::err(&format!(
                "note: history not saved to {}: {e}\n",
                h.display()
            ));
        }
    }
    Ok(true)
}
