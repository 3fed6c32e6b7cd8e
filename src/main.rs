//! The `village` command line: parse arguments (clap), call the library, print text or JSON.
//!
//! No rules logic lives here; every number printed is computed by the library.

/// mimalloc for the whole process, Lua's heap included (the script host allocates Lua memory through
/// Rust's global allocator): a game makes hundreds of thousands of small allocations, and the system
/// allocator spent a fifth of a simulation's time on them. See `cli::alloc` for how it is called.
#[global_allocator]
static GLOBAL: cli::alloc::Mimalloc = cli::alloc::Mimalloc;

/// `print!` for the CLI: the text made terminal-safe (`village::terminal`: a control character from a
/// roster, a script or a file is shown, not obeyed), a failed write kept for the exit status.
macro_rules! out {
    ($($t:tt)*) => {{
        let _ = village::terminal::out(&format!($($t)*));
    }};
}

/// `println!` for the CLI, as [`out!`].
macro_rules! outln {
    () => {{
        let _ = village::terminal::out("\n");
    }};
    ($($t:tt)*) => {{
        let _ = village::terminal::out(&format!("{}\n", format_args!($($t)*)));
    }};
}

/// `eprintln!` for the CLI: the text made terminal-safe.
macro_rules! errln {
    ($($t:tt)*) => {{
        village::terminal::err(&format!("{}\n", format_args!($($t)*)));
    }};
}

mod cli;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory, Parser, Subcommand};
use cli::odds::OddsCommand;
use cli::play::run_play;
use cli::print_json;
use cli::sim::{run_merge, run_replay, run_sim};
use std::path::PathBuf;
use std::process::ExitCode;
use village::args::{GameArgs, SetupArgs, VariantArgs};
use village::names::count as words;
use village::roster::{self, ProfileKind, Rosters};
use village::script::api::spec;
use village::script::{Limits, ScriptHost};

/// A rules engine, Lua scripting host and balance simulator for The Village Must Stand.
///
/// With no command, `village` opens the Lua REPL on a new game, made as the options below say
/// (`village --seed 9 --length siege`).
#[derive(Parser)]
#[command(
    name = "village",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    repl: ReplArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Exact dice odds: activation rolls, melee, ranged attacks and morale checks.
    Odds {
        #[command(subcommand)]
        which: OddsCommand,
    },
    /// Load and validate every roster and script (and a --mod folder's), print the profiles with their
    /// Wave Points.
    Check(CheckArgs),
    /// Check event logs against the rulebook, independently of the kernel (src/audit/): every breach
    /// with its file, event seq and a sentence, then a summary; exit status 1 when there is a breach.
    Audit {
        /// JSON-lines logs (`village play --log FILE`); games may follow each other in one file.
        #[arg(required = true, value_name = "LOG")]
        logs: Vec<PathBuf>,
        /// Print JSON: games, events, breaches by kind and every breach.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Play a game: with --auto the hero policy plays the heroes against the Behaviour scripts.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// Let the hero policy play the heroes (to play them yourself, open the REPL: `village`).
        #[arg(long)]
        auto: bool,
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
        /// Write the game's whole event log to FILE, one JSON event per line.
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Write the replay viewer to FILE: one self-contained HTML page stepping through the game.
        #[arg(long, value_name = "FILE", requires = "auto")]
        html: Option<PathBuf>,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The Lua REPL on a live game (what `village` with no arguments opens): the API of scripts, :map,
    /// :log, :reload, :save/:load. Reads commands line by line from a pipe.
    Repl(ReplArgs),
    /// A profile's card: Quality, Combat, traits with their rule text, weapon, spells with their Power,
    /// the signature or Alpha Rule with its text, params and script, Behaviours, Wave Points, and where
    /// each part comes from (built in or a mod, file:line). `--list`: every hero, enemy, Village
    /// Defender, trait, spell, Behaviour, Opportunity and variant with its one-line description.
    Show {
        /// A hero, enemy or Village Defender ("Captain Maren", or part of the name: maren).
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// List everything the rosters and scripts hold, one line each.
        #[arg(long, conflicts_with = "name")]
        list: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The difficulty presets (rosters/presets.toml and a --mod's): each with its description and
    /// what it changes from the rules. Play one with --preset NAME.
    Presets {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The scenarios (scenarios/*.toml of the built-in data and a --mod's): each with what it is, or
    /// why it does not load. Play one with --scenario NAME.
    Scenarios {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// What this is, where the built-in data comes from, whether it loads, and where to go next.
    About {
        #[command(flatten)]
        source: DataSource,
    },
    /// Start a mod: DIR/rosters/ with an example trait and enemy, DIR/scripts/ with the trait's script
    /// and DIR/tests/ with a scenario, ready for `village check --mod DIR`.
    NewMod {
        /// The folder to create (it must not exist, or be empty).
        dir: PathBuf,
    },
    /// Start a scenario in a mod: DIR/scenarios/NAME.toml (a table, zones, fixed Groups, an
    /// objective, a round limit, conclusions) and DIR/scripts/victory/NAME.lua, ready for
    /// `village play --mod DIR --scenario NAME`.
    NewScenario {
        /// The mod folder (made if missing).
        dir: PathBuf,
        /// The scenario's name: lower-case letters, digits and _.
        name: String,
    },
    /// Print a shell completion script: `village completions bash > ~/.local/share/bash-completion/completions/village`
    /// (zsh: into a folder on $fpath as `_village`; fish: ~/.config/fish/completions/village.fish).
    Completions {
        /// bash, zsh, fish, elvish or powershell.
        shell: clap_complete::Shell,
    },
    /// Measure the engine: Standard games per second on one thread and two, the scaling, and the share
    /// of time spent inside Lua.
    Bench {
        /// Games per measurement (at least 1).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        #[command(flatten)]
        game: GameArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Also time each script function the kernel calls (file:line), most time first (the timing
        /// slows the one-VM pass a little; the games/s figures come from the other passes).
        #[arg(long)]
        profile: bool,
        /// Time the pieces of a game instead: one route, one hook call, one view, one query, a
        /// Behaviour's target, the policy's act and one whole game.
        #[arg(long)]
        micro: bool,
        /// Time the one-thread and two-thread passes this many times, in turn, and report their medians
        /// with the range (the machine's speed wanders from pass to pass).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100))]
        repeat: u64,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Re-run a game recorded by `village sim --record`; with --verify, check its log against the
    /// recording and name the first event that differs (under changed rules or scripts).
    Replay {
        /// The recorded game (game-<index>.json).
        file: PathBuf,
        /// Compare the log with the recording; exit 1 when it differs.
        #[arg(long)]
        verify: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Write the replay viewer to FILE instead: one self-contained HTML page that steps through the
        /// game (the table, each event in words with its dice, a search over the log).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["verify", "json"])]
        html: Option<PathBuf>,
        /// With --html: the other arm of an A/B pair (`sim --vs V --record DIR` writes DIR/a and DIR/b),
        /// shown on the same page with the first event where the two games part.
        #[arg(long, value_name = "B.json", requires = "html")]
        vs: Option<PathBuf>,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Join the shards of a `village sim` run (`--shard K/N --out FILE`) into its report.
    Merge {
        /// The shard files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Also draw the whole run's report as an SVG chart in FILE, as `sim --svg` does.
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Many whole games with the hero policy (in parallel, the same games for any --jobs), and what they
    /// say: outcomes with a 95% interval, the wave of loss, means, how often each script acted.
    Sim(SimArgs),
    /// How the game answers as a knob turns: every value of a rule constant, roster field, preset
    /// value, variant or preset (two make a grid) played on the same seeds, with each point's win rate
    /// and waves won, its paired difference from the baseline and the step before, the causes of
    /// loss, and a curve or heat map (--svg).
    Sweep(cli::sweep::SweepArgs),
    /// The value of a knob that gives a target win rate or waves won (`--set wave.budget_percent=
    /// 60..160 --target win_rate=0.5`): a search that adds games where the answer is uncertain,
    /// reported with its interval and the games it took.
    Calibrate(cli::sweep::CalibrateArgs),
    /// A picture of a game's table: a new game's (generated from --seed, the party deployed), a saved
    /// game's (--load), or a recorded game's after one event (--replay FILE --event N).
    Render {
        /// Write an SVG picture to FILE.
        #[arg(long, value_name = "FILE")]
        svg: PathBuf,
        /// Draw the game saved in FILE (the REPL's `:save`) as it stands, instead of a new game.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["heroes", "length", "seed", "variants", "replay"])]
        load: Option<PathBuf>,
        /// A game recorded by `village sim --record`: draw its table after --event N.
        #[arg(long, value_name = "FILE", requires = "event", conflicts_with_all = ["heroes", "length", "seed", "variants"])]
        replay: Option<PathBuf>,
        /// With --replay: the event after which the table is drawn (#0 is the first).
        #[arg(long, value_name = "N", requires = "replay")]
        event: Option<u64>,
        #[command(flatten)]
        setup: SetupArgs,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Build an enemy wave (§5.1–5.2) for a party and print it: the default wave builder, or a
    /// --variant's (`--variant single_horde`).
    Wave {
        /// The Escalation (I to VII).
        #[arg(long, short, default_value = "I")]
        escalation: String,
        #[command(flatten)]
        setup: SetupArgs,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// Run a Lua file with the `village` API in scope (scenarios, experiments, the project's Lua tests).
    Run {
        /// The Lua file.
        file: PathBuf,
        /// Seed of `village.new_game` when the script gives none, and of `math.random`.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Lua instructions the file may run before it is stopped as a runaway (hooks have their own,
        /// smaller budget).
        #[arg(long, default_value_t = Limits::default().chunk_instructions)]
        budget: u64,
        /// Keep running: run the file again whenever it, a script or a roster changes (Ctrl-C stops).
        #[arg(long)]
        watch: bool,
        #[command(flatten)]
        data: DataArgs,
    },
    /// The Lua API scripts see: a readable reference, or lua-language-server stubs with --luals.
    Api {
        /// Print the `---@meta` stubs for lua-language-server (the content of scripts/types/village.lua).
        #[arg(long)]
        luals: bool,
    },
}

/// Where the built-in rosters and scripts come from (`village::data`): by default the checkout the
/// binary was built from while it is there, else the copy inside the binary.
#[derive(Args, Clone, Default)]
struct DataSource {
    /// Read the built-in rosters/ and scripts/ from DIR instead of the checkout or the copy inside the
    /// binary (also: $VILLAGE_DATA).
    #[arg(long = "data", value_name = "DIR")]
    data: Option<PathBuf>,
}

impl DataSource {
    /// Decide the built-in layer for this process (once; every later `builtin_root` is this one).
    fn select(&self) -> Result<&'static village::data::Builtin> {
        Ok(village::data::select(
            self.data.as_deref(),
            &cli::embedded::files(),
        )?)
    }
}

/// Where the rosters and scripts come from.
#[derive(Args, Clone)]
struct DataArgs {
    #[command(flatten)]
    source: DataSource,
    /// A user folder with its own rosters/ and scripts/, layered over the built-in ones.
    #[arg(long = "mod", value_name = "DIR")]
    mods: Vec<PathBuf>,
}

impl DataArgs {
    fn layers(&self) -> Vec<PathBuf> {
        let mut layers = vec![Rosters::builtin_root()];
        layers.extend(self.mods.iter().cloned());
        layers
    }

    fn rosters(&self) -> Result<Rosters> {
        Rosters::load(&self.layers()).map_err(|e| anyhow::anyhow!("{e}"))
    }
}

/// What `village sim` plays and reports.
#[derive(Args)]
struct SimArgs {
    /// How many games (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    #[command(flatten)]
    game: GameArgs,
    /// Worker threads, 1 to 1024 (default: every core); never more than the games played, and fewer
    /// when the system refuses threads (the games are the same for any number).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// Play only shard K of N of the run (contiguous game ranges), for a batch system's job array;
    /// write it with --out and join the shards with `village merge`.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Record games in DIR (game-<index>.json: the inputs and each event's hash) for
    /// `village replay`; with --vs, both arms: DIR/a/game-<index>.json and DIR/b/game-<index>.json.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// Which games --record keeps: all, win, loss or stalled.
    #[arg(long, default_value = "all", value_name = "OUTCOME")]
    record_when: String,
    /// Write the run's records (and options) to FILE as JSON, for `village merge`.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Paired A/B: also play the same seeds with this variant (or `default`: no variant) and report
    /// both arms, their difference, and where the first game that differs parts.
    #[arg(long, value_name = "VARIANT")]
    vs: Option<String>,
    /// Paired A/B of two hero policies: also play the same seeds with this policy
    /// (scripts/policies/NAME.lua) playing the heroes' side, under the same rules, and report both arms
    /// and their difference as --vs does.
    #[arg(long, value_name = "POLICY", conflicts_with = "vs")]
    vs_policy: Option<String>,
    /// Play every game even when some fail (a script error): the failed ones are reported (index, seed,
    /// error) and counted, the exit status is 1. Without it the run stops at the first failure, naming
    /// the game and its seed (the records of finished games are still written).
    #[arg(long, conflicts_with = "vs")]
    keep_going: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Keep the scripts' decisions (the Behaviours' targets, objectives and actions; the hero
    /// policy's activations, orders and Council purchases) and count them by who decided and script.
    /// The same games: without it the decision hooks skip explaining themselves.
    #[arg(long)]
    decisions: bool,
    /// Audit every game's log with `village audit`'s checks and report the breaches by kind (with the
    /// first of each); the exit status is 1 on any breach. Off by default: it costs time.
    #[arg(long, conflicts_with = "vs")]
    audit: bool,
    /// Also draw the report as an SVG chart in FILE: the win rate with its 95% interval, the wave the
    /// village fell in and what ended the games (with --vs: both arms and their paired difference).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Play the run on a Slurm cluster instead: write DIR/tasks.sbatch (a job array, one task per
    /// shard, one thread each), DIR/merge.sbatch (joins the shards into DIR/report.txt and
    /// DIR/report.json once every task succeeded) and DIR/submit.sh. Nothing is played here.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["vs", "vs_policy", "shard", "out", "record"])]
    slurm: Option<PathBuf>,
    /// The shards of a --slurm run (tasks of the job array).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=10000))]
    shards: u64,
    /// With --slurm: also submit the array and the merge with `sbatch`, and print their job ids.
    #[arg(long, requires = "slurm")]
    submit: bool,
    /// With --slurm: also write a Kubernetes Indexed Job manifest running the same tasks to FILE
    /// (untested: the Slurm path is the tested one).
    #[arg(long, value_name = "FILE", requires = "slurm")]
    k8s: Option<PathBuf>,
    #[command(flatten)]
    data: DataArgs,
}

/// How a REPL session's game is made.
#[derive(Args)]
struct ReplArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The history file (default: $VILLAGE_HISTORY, else ~/.village_history).
    #[arg(long, value_name = "FILE")]
    history: Option<PathBuf>,
    #[command(flatten)]
    data: DataArgs,
}

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    cli::alloc::keep_freed_pages();
    // SIGPIPE, SIGXFSZ and a stdout closed by the caller (`cli::stdio`).
    cli::stdio::setup();
    let parsed = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version as clap prints them; an error through the terminal-safe printer, since it
        // repeats what was typed (a file name may hold anything).
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            errln!("{}", e.render().to_string().trim_end());
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let code = match run(parsed) {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            ExitCode::FAILURE
        }
    };
    // Whatever stdout could not take (a full device, a closed stdout) fails the command: its output is
    // not where its reader looks.
    match village::terminal::finish() {
        Ok(()) => code,
        Err(e) => {
            errln!("error: writing to stdout: {e}");
            ExitCode::FAILURE
        }
    }
}

impl Command {
    /// The data source of a command that reads rosters or scripts; `None` for those that read neither.
    fn data_source(&self) -> Option<&DataSource> {
        match self {
            Command::Odds { which } => Some(&which.data().source),
            Command::Check(CheckArgs { data, .. })
            | Command::Play { data, .. }
            | Command::Audit { data, .. }
            | Command::Repl(ReplArgs { data, .. })
            | Command::Bench { data, .. }
            | Command::Replay { data, .. }
            | Command::Sim(SimArgs { data, .. })
            | Command::Sweep(cli::sweep::SweepArgs { data, .. })
            | Command::Calibrate(cli::sweep::CalibrateArgs { data, .. })
            | Command::Render { data, .. }
            | Command::Wave { data, .. }
            | Command::Run { data, .. }
            | Command::Show { data, .. }
            | Command::Presets { data, .. }
            | Command::Scenarios { data, .. } => Some(&data.source),
            Command::About { source } => Some(source),
            Command::Merge { .. }
            | Command::Completions { .. }
            | Command::Api { .. }
            | Command::NewMod { .. }
            | Command::NewScenario { .. } => None,
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    // The built-in layer is decided before anything reads it, so a bad --data fails first and alone.
    match &cli.command {
        Some(c) => {
            if let Some(source) = c.data_source() {
                source.select()?;
            }
        }
        None => {
            cli.repl.data.source.select()?;
        }
    }
    match cli.command {
        // `village [OPTIONS]` is `village repl [OPTIONS]`.
        None => run_repl(&cli.repl),
        Some(Command::Repl(args)) => run_repl(&args),
        Some(Command::About { source }) => overview(source.select()?),
        Some(Command::Show {
            name,
            list,
            json,
            data,
        }) => cli::show::run(name.as_deref(), list, json, &data),
        Some(Command::Presets { json, data }) => cli::presets::run(json, &data),
        Some(Command::Scenarios { json, data }) => cli::scenarios::run(json, &data),
        Some(Command::NewMod { dir }) => cli::new_mod::run(&dir),
        Some(Command::NewScenario { dir, name }) => cli::new_scenario::run(&dir, &name),
        Some(Command::Sim(args)) => run_sim(&args),
        Some(Command::Sweep(args)) => cli::sweep::run_sweep(&args),
        Some(Command::Calibrate(args)) => cli::sweep::run_calibrate(&args),
        Some(Command::Audit { logs, json, data }) => cli::audit::run(&logs, json, &data.layers()),
        Some(Command::Merge { files, json, svg }) => run_merge(&files, json, svg.as_deref()),
        Some(Command::Replay {
            file,
            html: Some(html),
            vs,
            data,
            ..
        }) => {
            cli::viewer::replay_html(&file, vs.as_deref(), &html, &data)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Replay {
            file,
            verify,
            json,
            data,
            ..
        }) => run_replay(&file, verify, json, &data),
        Some(Command::Bench {
            games,
            game,
            json,
            profile,
            micro,
            repeat,
            data,
        }) => {
            let opts = game.sim_options(data.layers(), games, 0, 1);
            if micro {
                let rows = village::script::micro::micro(&opts).map_err(|e| anyhow::anyhow!(e))?;
                if json {
                    print_json(&rows)?;
                } else {
                    print_micro(&rows);
                }
                return Ok(ExitCode::SUCCESS);
            }
            let repeat = usize::try_from(repeat).unwrap_or(1);
            let b = village::sim::bench(&opts, profile, repeat).map_err(|e| anyhow::anyhow!(e))?;
            if json {
                print_json(&b)?;
            } else {
                outln!(
                    "{} {} games, party of {}: {:.2} games/s on one thread, {:.2} on two ({:.2}x); \
                     {:.0}% of the time inside Lua; {:.0} events a game",
                    b.games,
                    opts.length,
                    opts.heroes.len(),
                    b.games_per_sec_1,
                    b.games_per_sec_2,
                    b.scaling,
                    b.lua_share * 100.0,
                    b.events_per_game
                );
                if b.passes_1.len() > 1 {
                    let range = |v: &[f64]| {
                        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                        format!("{lo:.2}–{hi:.2}")
                    };
                    outln!(
                        "medians of {} passes run in turn: one thread {}, two {}",
                        b.passes_1.len(),
                        range(&b.passes_1),
                        range(&b.passes_2)
                    );
                }
                print_profile(&b.profile);
                print_lines(&b.lines);
            }
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Render {
            svg,
            replay: Some(file),
            event: Some(event),
            data,
            ..
        }) => {
            cli::viewer::render_replay(&file, event, &svg, &data)?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Render {
            svg,
            load,
            setup,
            data,
            ..
        }) => {
            // The picture is never drawn over the save it draws, nor over a rule or script file.
            let inputs: Vec<village::files::Named<'_>> = load
                .iter()
                .map(|path| village::files::Named { by: "--load", path })
                .collect();
            cli::distinct_outputs(
                &data.layers(),
                &inputs,
                &[village::files::Named {
                    by: "--svg",
                    path: &svg,
                }],
            )?;
            let opts = village::repl::Options {
                layers: data.layers(),
                game: setup.new_game(&data.layers(), "default"),
                history: None,
            };
            let picture = match load {
                None => village::repl::render_new_game(&opts)?,
                Some(saved) => {
                    let (picture, warnings) = village::repl::render_saved(&opts, &saved)?;
                    for w in warnings {
                        errln!("warning: {w}");
                    }
                    picture
                }
            };
            cli::write_file(&svg, picture.as_bytes())?;
            outln!("wrote {}", svg.display());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Odds { which }) => cli::odds::run(which),
        Some(Command::Check(args)) => run_check(&args),
        Some(Command::Play {
            game,
            auto,
            json,
            log,
            html,
            data,
        }) => run_play(
            &game,
            (auto, json),
            (log.as_deref(), html.as_deref()),
            &data,
        ),
        Some(Command::Wave {
            escalation,
            setup,
            json,
            data,
        }) => run_wave(&escalation, &setup, json, &data),
        Some(Command::Run {
            file,
            seed,
            budget,
            watch,
            data,
        }) => run_lua(&file, seed, budget, watch, &data),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "village", &mut out);
            print_all(&String::from_utf8_lossy(&out))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Api { luals }) => {
            let text = if luals {
                spec::luals_meta()
            } else {
                spec::reference_markdown()
            };
            print_all(&text)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The REPL (`village`, `village repl`): exit status 1 when a piped command failed.
fn run_repl(args: &ReplArgs) -> Result<ExitCode> {
    Ok(if village::repl::run(&repl_options(args))? {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A REPL session's options from its arguments.
fn repl_options(args: &ReplArgs) -> village::repl::Options {
    let history = args.history.clone().or_else(|| {
        std::env::var_os("VILLAGE_HISTORY")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".village_history")))
    });
    village::repl::Options {
        layers: args.data.layers(),
        game: args.game.new_game(&args.data.layers(), &args.game.policy),
        history,
    }
}

/// `village about`'s next steps, each a command that works from the folder `about` was run in: a
/// scenario of the data's own folder when it has one (a checkout), shown by a path that reaches it
/// from here; otherwise a mod of one's own made by `new-mod`, with its scenario.
fn suggestions(data: &village::data::Builtin) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = [
        ("village check", "profiles and Wave Points"),
        (
            "village show \"Captain Maren\"",
            "a profile: traits, signature, where each comes from",
        ),
        (
            "village show --list",
            "every profile, trait, spell, variant ...",
        ),
        (
            "village odds activation --quality 3 --dice 3",
            "activation odds",
        ),
        ("village odds melee --attacker 4 --defender 3", "melee odds"),
        (
            "village wave --escalation V --heroes maren,tobin",
            "build an enemy wave",
        ),
        (
            "village play --auto --length intro --seed 7",
            "play a whole game with the hero policy",
        ),
    ]
    .into_iter()
    .map(|(c, w)| (c.to_string(), w))
    .collect();
    let scenario = data.root.join("tests/scenarios/example_marksman.lua");
    if scenario.is_file() {
        let cwd = std::env::current_dir().unwrap_or_default();
        let shown = scenario.strip_prefix(&cwd).unwrap_or(&scenario);
        out.push((
            format!("village run {}", shell_word(&shown.display().to_string())),
            "run a Lua scenario",
        ));
        out.push((
            "village new-mod mymod".to_string(),
            "start a mod of your own",
        ));
    } else {
        out.push((
            "village new-mod mymod && village run --mod mymod mymod/tests/shield_bearer.lua"
                .to_string(),
            "a mod of your own and its Lua scenario",
        ));
    }
    out.extend(
        [
            ("village api", "the Lua API scripts see"),
            ("village", "the Lua REPL on a new Standard game"),
            ("village --help", "every command"),
        ]
        .map(|(c, w)| (c.to_string(), w)),
    );
    out
}

/// `word` as one shell word: quoted when it holds anything a shell would split or expand.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:=@".contains(c))
    {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `village about`: what this is, where the built-in data comes from, whether it loads, and where to
/// go next.
fn overview(data: &village::data::Builtin) -> Result<ExitCode> {
    outln!("village — The Village Must Stand: rules engine, Lua host and simulator");
    outln!();
    outln!("Built-in data: {data}");
    let report = roster::check(std::slice::from_ref(&data.root));
    let count = |kind: ProfileKind| report.profiles.iter().filter(|p| p.kind == kind).count();
    outln!(
        "Rosters: {}, {}, {}; {}, {}.",
        words(count(ProfileKind::Hero), "hero", "heroes"),
        words(count(ProfileKind::Enemy), "enemy", "enemies"),
        words(
            count(ProfileKind::Defender),
            "Village Defender",
            "Village Defenders"
        ),
        words(report.errors.len(), "error", "errors"),
        words(report.warnings.len(), "warning", "warnings")
    );
    outln!();
    outln!("Try:");
    for (command, what) in suggestions(data) {
        // Three spaces at least between a command and its words (a long command pushes them right).
        outln!("  {command:<48}   {what}");
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Writes `text` to stdout (a failed write fails the command at its end, `village::terminal::finish`;
/// a reader that stops early, `village api | head`, does not).
fn print_all(text: &str) -> Result<()> {
    let _ = village::terminal::out(text);
    Ok(())
}

fn run_check(args: &CheckArgs) -> Result<ExitCode> {
    let layers = args.data.layers();
    let mut report = roster::check(&layers);
    // The scripts too: a syntax error or a misspelt entry point fails here, not in the first game.
    report
        .errors
        .extend(village::script::check_scripts(&layers, Limits::default()));
    // And every scenario of the layers, against the rosters when they load.
    if let Ok(rosters) = Rosters::load(&layers) {
        for name in village::scenario::names(&layers) {
            if let Err(problems) = village::scenario::load(&layers, &rosters, &name) {
                report
                    .errors
                    .extend(problems.iter().map(ToString::to_string));
            }
        }
    }
    if args.json {
        print_json(&report)?;
    } else {
        out!("{}", report.to_text());
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn run_lua(
    file: &std::path::Path,
    seed: u64,
    budget: u64,
    watch: bool,
    data: &DataArgs,
) -> Result<ExitCode> {
    let limits = Limits {
        chunk_instructions: budget,
        ..Limits::default()
    };
    let host = match ScriptHost::open(&data.layers(), limits, seed) {
        Ok(h) => h,
        Err(errors) => {
            for e in errors {
                errln!("{e}");
            }
            return Ok(ExitCode::FAILURE);
        }
    };
    // A Lua file run by hand prints its results: to stdout, where its reader looks.
    host.print_to_stdout(true);
    let run_once = |host: &ScriptHost| match host.run_file(file) {
        Ok(()) => true,
        Err(e) => {
            errln!("{e}");
            false
        }
    };
    let ok = run_once(&host);
    if !watch {
        return Ok(if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        });
    }
    let watcher = host
        .watch()
        .context("watching the script and roster folders")?;
    errln!("watching for changes (Ctrl-C to stop)");
    loop {
        let Some(report) = host.wait_reload(&watcher, std::time::Duration::from_secs(3600)) else {
            continue;
        };
        errln!("{report}");
        if report.is_ok() {
            // The file runs in the same VM: its globals persist, its games are new.
            run_once(&host);
            errln!("watching for changes (Ctrl-C to stop)");
        }
    }
}

fn run_wave(escalation: &str, setup: &SetupArgs, json: bool, data: &DataArgs) -> Result<ExitCode> {
    let rosters = data.rosters()?;
    let host = script_host(data, setup.seed)?;
    let plan = host
        .preview_wave(&setup.new_game(&data.layers(), "default"), escalation)
        .map_err(|e| anyhow::anyhow!(e))?;
    let heroes = setup.heroes.len();
    if json {
        print_json(&plan)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "Escalation {}: budget {} for {heroes} heroes, {} spent, {}",
        plan.escalation,
        plan.budget,
        plan.spent,
        words(plan.groups.len(), "Group", "Groups")
    );
    let edges = &rosters.rules.table.edges;
    for g in &plan.groups {
        let from = match &g.zone {
            Some(z) => format!("in the zone {z}"),
            None => format!(
                "from the {} edge",
                edges
                    .get(usize::from(g.edge).saturating_sub(1))
                    .map_or("?", String::as_str)
            ),
        };
        outln!(
            "  Group {}: {} ({}), {} points, {from}{}{}",
            g.number,
            summarize(&g.models),
            g.behaviour,
            g.cost,
            g.arrives
                .map(|r| format!(", arrives at round {r}"))
                .unwrap_or_default(),
            if g.igniters { ", Igniters" } else { "" }
        );
    }
    for u in &plan.unmet {
        outln!("  unmet: {u}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A script host on `data`'s layers; its load errors, one a line.
fn script_host(data: &DataArgs, seed: u64) -> Result<ScriptHost> {
    ScriptHost::open(&data.layers(), Limits::default(), seed)
        .map_err(|errors| anyhow::anyhow!("{}", errors.join("\n")))
}

/// The rule constants of `data` under the preset, with the variants' `rules` tables applied.
fn rules_of(data: &DataArgs, variants: &VariantArgs) -> Result<village::roster::Rules> {
    let rosters = data.rosters().context("loading the rule constants")?;
    let plain = rosters
        .preset(&variants.preset)
        .is_some_and(|p| !p.changes_rosters() && p.variants.is_empty());
    if variants.variants.is_empty() && plain {
        return Ok(rosters.rules);
    }
    script_host(data, 1)?
        .rules_of(&variants.preset, &variants.variants)
        .map_err(|e| anyhow::anyhow!(e))
}

/// "3 Orc Warrior" or "Orc Warlord + 2 Orc Warrior".
fn summarize(models: &[String]) -> String {
    let mut parts: Vec<(String, usize)> = Vec::new();
    for m in models {
        match parts.last_mut() {
            Some((name, n)) if name == m => *n += 1,
            _ => parts.push((m.clone(), 1)),
        }
    }
    parts
        .iter()
        .map(|(name, n)| format!("{n} {name}"))
        .collect::<Vec<_>>()
        .join(" + ")
}

/// `village bench --micro`: each measure.
fn print_micro(rows: &[village::script::micro::MicroRow]) {
    outln!("{:>12}  what (the fastest of several passes)", "µs each");
    for r in rows {
        outln!("{:>12.2}  {}", r.micros, r.name);
    }
}

/// `village bench --profile`: the script functions that took the most time (inclusive).
fn print_profile(rows: &[village::sim::ProfileRow]) {
    print_top(
        "Script functions the kernel called (inclusive: a hook's time includes the hooks it set off):",
        &format!("{:>7} {:>11} {:>9}  function", "time", "calls/game", "µs/call"),
        rows.iter().map(|r| {
            format!(
                "{:>6.1}% {:>11.1} {:>9.1}  {}",
                r.share * 100.0,
                r.calls_per_game,
                r.micros_per_call,
                r.function
            )
        }),
    );
}

/// `village bench --profile`: the Lua lines that ran the most of the scripts' own instructions.
fn print_lines(rows: &[village::sim::LineRow]) {
    print_top(
        "Lua lines that ran the scripts' own VM instructions (one sample every 1,000; what a ctx \
         method does in Rust is counted above, not here):",
        &format!("{:>7} {:>12}  line", "share", "samples/game"),
        rows.iter().map(|r| {
            format!(
                "{:>6.1}% {:>12.1}  {}",
                r.share * 100.0,
                r.samples_per_game,
                r.line
            )
        }),
    );
}

/// A profile table: its title and header, then its first 15 rows and how many more `--json` lists
/// (nothing at all for no rows).
fn print_top(title: &str, header: &str, rows: impl ExactSizeIterator<Item = String>) {
    let n = rows.len();
    if n == 0 {
        return;
    }
    outln!("\n{title}");
    outln!("{header}");
    for r in rows.take(15) {
        outln!("{r}");
    }
    if n > 15 {
        outln!("  … {} more (--json lists them all)", n - 15);
    }
}
