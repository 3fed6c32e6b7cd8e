//! The REPL's `:commands` as one table: the dispatcher (`repl::command`), `:help` and Tab completion all
//! read [`COMMANDS`], so a command the REPL accepts is one `:help` explains and Tab completes. Each entry
//! says what its argument is, so completion can offer hero names after `:activate`, enemies after
//! `:attack`, order words after `:buy` and files after `:save`.

use crate::script::repl::Repl;
use crate::state::{Game, Side};
use std::fmt::Write as _;

/// What a command's argument names, for Tab completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// Nothing to complete (no argument, a number, or free text).
    Free,
    /// A model of the heroes' side.
    Hero,
    /// An enemy on the table.
    Enemy,
    /// Any model or building (where a move goes).
    Place,
    /// A Council order word, then its building or hero.
    CouncilOrder,
    /// The word `auto` (`:council auto`).
    Auto,
    /// A file.
    File,
    /// A profile of the rosters (`:show`).
    Profile,
    /// The options of `:new` (`--seed`, ...) and the values some of them name.
    NewOptions,
}

/// Who runs a command: the terminal itself, or the play engine (`Repl::play`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    Console,
    Play,
}

/// One `:command`.
#[derive(Debug, Clone, Copy)]
pub struct Command {
    /// Its name, without the colon.
    pub name: &'static str,
    /// Other names typed for it (`:q` for `:quit`).
    pub aliases: &'static [&'static str],
    /// How it is typed, for `:help` (`:activate NAME [DICE]`).
    pub usage: &'static str,
    /// What it does, for `:help` (lines after the first are indented under it).
    pub help: &'static str,
    pub runs: Runs,
    pub arg: Arg,
}

const fn console(
    name: &'static str,
    aliases: &'static [&'static str],
    usage: &'static str,
    help: &'static str,
    arg: Arg,
) -> Command {
    Command {
        name,
        aliases,
        usage,
        help,
        runs: Runs::Console,
        arg,
    }
}

const fn play(name: &'static str, usage: &'static str, help: &'static str, arg: Arg) -> Command {
    Command {
        name,
        aliases: &[],
        usage,
        help,
        runs: Runs::Play,
        arg,
    }
}

/// Every `:command` the REPL accepts, in the order `:help` lists them.
pub const COMMANDS: &[Command] = &[
    console("help", &["h", "?"], ":help", "this text", Arg::Free),
    console(
        "map",
        &[],
        ":map",
        "the table as an ASCII map, with a key for every symbol drawn",
        Arg::Free,
    ),
    console(
        "scenario",
        &[],
        ":scenario",
        "what the game was made of: its scenario (what it is, its file), length, preset, variants and policy",
        Arg::Free,
    ),
    console(
        "log",
        &[],
        ":log [N]",
        "the last N events in words (default 10)",
        Arg::Free,
    ),
    console(
        "explain",
        &[],
        ":explain [#N]",
        "why event N happened (default: the latest combat): the rolls before it and what it caused",
        Arg::Free,
    ),
    console(
        "show",
        &[],
        ":show NAME",
        "a profile's card: traits with their rule text, weapon, spells, signature or Alpha Rule with its script, Behaviours, Wave Points, where each comes from",
        Arg::Profile,
    ),
    console(
        "why",
        &[],
        ":why [#N]",
        "the decisions behind event N (default: the latest): who chose what, what it weighed, its reason and script line",
        Arg::Free,
    ),
    console(
        "reload",
        &[],
        ":reload",
        "reload scripts and rosters (errors keep the last good version)",
        Arg::Free,
    ),
    console(
        "render",
        &[],
        ":render FILE",
        "write an SVG picture of the table as it stands to FILE (legend, scale, edges, each model's Wounds and conditions)",
        Arg::File,
    ),
    console(
        "save",
        &[],
        ":save FILE",
        "write the whole game (state, dice, log) to FILE",
        Arg::File,
    ),
    console(
        "load",
        &[],
        ":load FILE",
        "replace `game` with the one saved in FILE",
        Arg::File,
    ),
    console(
        "new",
        &[],
        ":new [--seed S] [--length L] [--heroes \"A, B\"] [--variant V]... [--policy P]",
        "start a new game in this session: `game` is replaced and play by hand starts over (globals, \
         loaded scripts and history stay); the options are `village repl`'s, and one not given takes \
         its default there (seed 1, standard, the four default heroes), not the current game's; a bad \
         option or party is refused and the game kept (:new --help)",
        Arg::NewOptions,
    ),
    console(
        "complete",
        &[],
        ":complete TEXT",
        "the Tab-completion candidates for TEXT (a candidate of several words is quoted)",
        Arg::Free,
    ),
    console(
        "quit",
        &["q", "exit"],
        ":quit",
        "leave (also Ctrl-D)",
        Arg::Free,
    ),
    play(
        "wave",
        ":wave",
        "start the next wave (build, deploy, abilities); also closes an open Council",
        Arg::Free,
    ),
    play(
        "activate",
        ":activate NAME [DICE]",
        "roll a hero's activation (2 dice by default); one failed die without a turnover leaves it \
         Active, to be activated again this turn\n\
         :activate NAME group [NAMES]: a Leader and its group (every Active friend that may join, or NAMES)",
        Arg::Hero,
    ),
    play(
        "cast",
        ":cast NAME | SPELL POWER [TARGET | X Y | X1 Y1 X2 Y2]",
        "before :activate, :cast NAME declares spellcasting for its next activation (§3.7); while it is \
         active, :cast SPELL POWER ... casts, spending Power actions (a Wall takes its two ends)",
        Arg::Hero,
    ),
    play(
        "move",
        ":move NAME | BUILDING | X Y",
        "one move toward a model, a building or a point, by the shortest legal route around buildings \
         and bases (the order the hero policy's moves give); a move that would go 0\" (already there, \
         or nothing lets it go that way) is refused and costs nothing",
        Arg::Place,
    ),
    play(
        "step",
        ":step NAME | X Y",
        "a one-base-width step, straight toward a model, a building or a point (not routed); one that \
         would go 0\" is refused and costs nothing",
        Arg::Place,
    ),
    play("attack", ":attack NAME", "a melee attack", Arg::Enemy),
    play("blow", ":blow NAME", "a Power Blow (two actions)", Arg::Enemy),
    play(
        "shoot",
        ":shoot NAME [with A B]",
        "a shot; with A B: Concentrated Shooting",
        Arg::Enemy,
    ),
    play("aim", ":aim NAME", "an Aimed Shot", Arg::Enemy),
    play(
        "breakfree",
        ":breakfree",
        "work at breaking free (Transfixed or Entangled: two actions)",
        Arg::Free,
    ),
    play(
        "claim",
        ":claim",
        "claim the Opportunity token in contact",
        Arg::Free,
    ),
    play("use", ":use ITEM", "use an item the active hero carries", Arg::Free),
    play("heal", ":heal NAME", "heal a friend", Arg::Hero),
    play(
        "ability",
        ":ability NAME [at TARGET]",
        "a signature's action (at a model or a building)",
        Arg::Free,
    ),
    play(
        "done",
        ":done",
        "end the activation (the next member of a group takes its actions)",
        Arg::Free,
    ),
    play(
        "heroes",
        ":heroes",
        "the hero policy plays the rest of the heroes' turn",
        Arg::Free,
    ),
    play(
        "advise",
        ":advise [N] [--samples S] [--depth activation|turn|round|wave] [--json]",
        "the top N (5) candidates for the active model's next order (or the models that may be \
         nominated, with 1–3 dice), each played out (16 playouts to the end of the turn by default, the \
         default policy playing on) and ranked by its estimate with a 95% interval; the game is unchanged",
        Arg::Free,
    ),
    play(
        "enemies",
        ":enemies",
        "the enemy turn, then a new round",
        Arg::Free,
    ),
    play(
        "status",
        ":status",
        "who is active, and how many actions are left",
        Arg::Free,
    ),
    play(
        "endwave",
        ":endwave",
        "once no enemy is left, once a wave: the End Sequence (§7.1: heroes put out fires, burning \
         buildings lose Integrity, Supplies for the wave, wave-end rewards), then an Opportunity token \
         is placed and the Council opens (:buy, :council auto, :wave); after the final wave it says the \
         game is won instead",
        Arg::Free,
    ),
    play(
        "buy",
        ":buy ORDER",
        "a Council purchase, while the Council is open: upgrade B | repair B [N|free] | trap X Y | \
         barricade X1 Y1 X2 Y2 | heal NAME | herb NAME | resurrect NAME",
        Arg::CouncilOrder,
    ),
    play(
        "council",
        ":council auto",
        "while the Council is open: the hero policy makes the purchases",
        Arg::Auto,
    ),
];

/// The command typed as `name` (a name or an alias, without the colon).
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS
        .iter()
        .find(|c| c.name == name || c.aliases.contains(&name))
}

/// The widest usage `:help` keeps in its first column.
const HELP_COLUMN: usize = 28;
/// The width `:help` wraps to.
const HELP_WIDTH: usize = 100;

/// `text` wrapped at word boundaries to `width` columns; its own line breaks start new lines.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.lines() {
        let mut line = String::new();
        for w in para.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > width {
                out.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(w);
        }
        out.push(line);
    }
    out
}

/// The `:help` text, made from [`COMMANDS`].
pub fn help() -> String {
    let mut out = String::from(
        "Lua runs against the live game `game` (the API of scripts: `game:models()`, `game:play_wave()`, ...).\n\
         An expression shows its value (a model or building handle with its fields); a statement runs; an\n\
         unfinished chunk asks for more lines. Tab completes Lua names, :commands and their arguments.\n",
    );
    let shown = |c: &Command| {
        let mut u = c.usage.to_string();
        for a in c.aliases {
            u.push_str(&format!(", :{a}"));
        }
        u
    };
    // Usages longer than the column get a line of their own.
    let width = COMMANDS
        .iter()
        .map(|c| shown(c).len())
        .filter(|n| *n <= HELP_COLUMN)
        .max()
        .unwrap_or(HELP_COLUMN);
    for (runs, title) in [
        (Runs::Console, "Commands:"),
        (Runs::Play, "Playing the heroes by hand:"),
    ] {
        out.push_str(title);
        out.push('\n');
        for c in COMMANDS.iter().filter(|c| c.runs == runs) {
            let usage = shown(c);
            let mut lines = wrap(c.help, HELP_WIDTH - width - 4).into_iter();
            if usage.len() > width {
                let _ = writeln!(out, "  {usage}");
            } else {
                let first = lines.next().unwrap_or_default();
                let _ = writeln!(out, "  {usage:width$}  {first}");
            }
            for l in lines {
                let _ = writeln!(out, "  {:width$}  {l}", "");
            }
        }
    }
    out.trim_end().to_string()
}

/// Tab completion for the text before the cursor: where the replaced text starts and its candidates.
/// A `:command` being typed completes to the commands; after one, its argument completes as the table
/// says (names, order words, files); anything else is Lua, completed by the script host.
pub fn complete(repl: &Repl, before: &str) -> (usize, Vec<String>) {
    let lead = before.len() - before.trim_start().len();
    let Some(cmd) = before.trim_start().strip_prefix(':') else {
        return repl.complete(before);
    };
    let Some((name, rest)) = cmd.split_once(char::is_whitespace) else {
        let mut names: Vec<String> = COMMANDS
            .iter()
            .filter(|c| c.name.starts_with(cmd))
            .map(|c| format!(":{}", c.name))
            .collect();
        names.sort();
        return (lead, names);
    };
    let Some(c) = find(name) else {
        return (before.len(), Vec::new());
    };
    let typed = rest.trim_start();
    let start = before.len() - typed.len();
    let words: Vec<String> = match c.arg {
        Arg::Free => Vec::new(),
        Arg::Auto => vec!["auto".to_string()],
        Arg::File => return files(before, typed),
        Arg::CouncilOrder => {
            // The order word first; then what it names.
            match typed.split_once(char::is_whitespace) {
                None => crate::script::COUNCIL_ORDERS
                    .iter()
                    .map(|w| w.to_string())
                    .collect(),
                Some((order, what)) => {
                    let what = what.trim_start();
                    let start = before.len() - what.len();
                    let names = repl
                        .with_game(|g| match order {
                            "upgrade" | "repair" => buildings(g),
                            "heal" | "herb" | "resurrect" => g.party.clone(),
                            _ => Vec::new(),
                        })
                        .unwrap_or_default();
                    return (start, matching(names, what));
                }
            }
        }
        Arg::Hero => repl
            .with_game(|g| side_names(g, Some(Side::Heroes)))
            .unwrap_or_default(),
        Arg::Enemy => repl
            .with_game(|g| side_names(g, Some(Side::Enemies)))
            .unwrap_or_default(),
        Arg::Profile => repl
            .host()
            .rosters()
            .map(|r| r.profiles.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default(),
        Arg::Place => repl
            .with_game(|g| {
                let mut n = side_names(g, None);
                n.extend(buildings(g));
                n
            })
            .unwrap_or_default(),
        Arg::NewOptions => return new_options(repl, before, typed),
    };
    (start, matching(words, typed))
}

/// Completion of `:new`'s options (`typed`, the text after `:new `): an option's name (clap's own list,
/// [`crate::args::NewArgs::flags`]), or after `--length`, `--variant` or `--policy` the lengths,
/// variants or policies there are.
fn new_options(repl: &Repl, before: &str, typed: &str) -> (usize, Vec<String>) {
    let partial = if typed.is_empty() || typed.ends_with(char::is_whitespace) {
        ""
    } else {
        typed.split_whitespace().last().unwrap_or_default()
    };
    let start = before.len() - partial.len();
    let option = typed[..typed.len() - partial.len()]
        .split_whitespace()
        .last()
        .unwrap_or_default();
    let values = repl.new_game_choices(option);
    if !partial.starts_with('-') && !values.is_empty() {
        return (start, matching(values, partial));
    }
    (start, matching(crate::args::NewArgs::flags(), partial))
}

/// The names of the models of `side` (every side when `None`).
fn side_names(game: &Game, side: Option<Side>) -> Vec<String> {
    game.models
        .iter()
        .filter(|m| side.is_none_or(|s| m.side == s))
        .map(|m| m.name.clone())
        .collect()
}

fn buildings(game: &Game) -> Vec<String> {
    game.buildings.iter().map(|b| b.name.clone()).collect()
}

/// The candidates `typed` starts, or one of whose words it starts (any case), sorted, each once:
/// `Ma` finds "Captain Maren" as the REPL's name matching would.
fn matching(words: Vec<String>, typed: &str) -> Vec<String> {
    let low = typed.to_lowercase();
    let mut out: Vec<String> = words
        .into_iter()
        .filter(|w| {
            let w = w.to_lowercase();
            w.starts_with(&low) || w.split_whitespace().any(|p| p.starts_with(&low))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The files and folders that complete the path `typed` (a folder ends with `/`).
fn files(before: &str, typed: &str) -> (usize, Vec<String>) {
    let (dir, stem) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let start = before.len() - stem.len();
    let read = std::fs::read_dir(if dir.is_empty() { "." } else { dir });
    let mut out: Vec<String> = read
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let folder = e.file_type().is_ok_and(|t| t.is_dir());
            (name.starts_with(stem) && (stem.starts_with('.') || !name.starts_with('.')))
                .then(|| if folder { format!("{name}/") } else { name })
        })
        .collect();
    out.sort();
    (start, out)
}
