//! `village sim`: many whole games of `village play --auto`, in parallel, and what they say about the
//! rules. Game `i` of a run is seeded from the run's seed and `i` alone ([`game_seed`]) and each worker
//! thread keeps one Lua VM, so the games — and the report, less its timing — are the same for any
//! number of threads. The per-game record ([`GameRecord`]) is what the report, shards and A/B
//! comparisons are built from.

mod report;
mod trust;

pub use report::{difference, mean_ci, median, report, text, wilson, Difference, Report, VpReport};

use crate::files::{fnv, Fingerprint, FNV_START};
use crate::roster::ProfileKind;
use crate::script::{Limits, ScriptHost};
use crate::state::{Event, EventKind, ModelId};
use crate::wave::play::{GameSummary, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What a run plays.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SimOptions {
    /// Games in the run (game indices `first .. first + games`).
    pub games: u64,
    /// The first game index (a shard of a larger run starts later).
    #[serde(default)]
    pub first: u64,
    pub seed: u64,
    pub heroes: Vec<String>,
    pub length: String,
    /// The difficulty preset (rosters/presets.toml).
    #[serde(
        default = "crate::roster::default_preset",
        skip_serializing_if = "crate::roster::is_default_preset"
    )]
    pub preset: String,
    /// The scenario (scenarios/NAME.toml, or a file).
    #[serde(
        default = "crate::scenario::default_scenario",
        skip_serializing_if = "crate::scenario::is_default_scenario"
    )]
    pub scenario: String,
    /// The variants asked for (in force after the preset's).
    pub variants: Vec<String>,
    /// The hero policy (scripts/policies/NAME.lua).
    #[serde(default = "default_policy")]
    pub policy: String,
    /// Data layers: the built-in folder, then `--mod` folders.
    pub layers: Vec<PathBuf>,
    /// Worker threads.
    pub jobs: usize,
    /// Keep the scripts' decisions and count them by who decided and script (`sim --decisions`):
    /// the same games, with the decision hooks explaining themselves.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub decisions: bool,
    /// Audit every game's log (`sim --audit`, [`crate::audit`]): each record counts its breaches.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub audit: bool,
}

fn default_policy() -> String {
    "default".to_string()
}

impl SimOptions {
    /// The game of this run's party, length, preset, variants and policy seeded `seed`.
    pub fn new_game(&self, seed: u64) -> crate::script::repl::NewGame {
        crate::script::repl::NewGame {
            seed,
            length: self.length.clone(),
            heroes: self.heroes.clone(),
            preset: self.preset.clone(),
            scenario: self.scenario.clone(),
            variants: self.variants.clone(),
            policy: self.policy.clone(),
        }
    }

    /// Play one game of this run with `host`, seeded `seed`.
    pub fn play(&self, host: &ScriptHost, seed: u64) -> Result<(GameSummary, Vec<Event>), String> {
        host.play_keeping_log(&self.new_game(seed), "generated", false)
            .map(|p| (p.summary, p.events))
            .map_err(|f| f.error)
    }

    /// [`SimOptions::play`] with the game's decisions when the run counts them.
    pub fn play_counted(
        &self,
        host: &ScriptHost,
        seed: u64,
    ) -> Result<crate::script::Played, String> {
        host.play_keeping_log(&self.new_game(seed), "generated", self.decisions)
            .map_err(|f| f.error)
    }
}

/// One game of a run, as the report needs it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u64,
    pub seed: u64,
    /// "win", "loss", "stalled" or "draw".
    pub result: String,
    /// Why the game ended (SUPPLEMENT §10): "town_hall_destroyed", "overrun", "party_defeated",
    /// "final_wave_survived" or "stalled".
    pub cause: String,
    /// Waves won (survived to their end): the game's score.
    pub waves_won: u32,
    /// Rounds played to their end over the game (the round the village fell in is not survived).
    pub rounds_survived: u32,
    /// The wave the village fell in (a loss only).
    pub lost_at_wave: Option<u32>,
    pub town_hall_integrity: i32,
    /// Wounds the party carried at the end.
    pub wounds: u32,
    /// Heroes Defeated (removed other than by fleeing) over the game.
    pub defeats: u32,
    /// Buildings Destroyed at the end.
    pub destroyed: u32,
    /// Supplies spent in the Council Phases.
    pub supplies_spent: i64,
    /// A scenario's battle: the Victory Points of the heroes' side, then the enemies'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vp: Option<[u32; 2]>,
    /// Events naming each signature, Alpha Rule and Opportunity script, by script.
    pub firings: BTreeMap<String, u64>,
    /// Decisions by who decided and script ("Hunter: scripts/behaviours/hunter.lua"), when the run
    /// kept them (`sim --decisions`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub decisions: BTreeMap<String, u64>,
    /// The audit's breaches by kind (`sim --audit`), and the first of each kind in words.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audit: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audit_first: BTreeMap<String, String>,
}

impl GameRecord {
    /// Whether two games (an A/B pair) ended alike: the same result after the same number of waves won
    /// (an endless game is always lost, so its waves are what can differ).
    pub fn ended_like(&self, other: &GameRecord) -> bool {
        self.result == other.result && self.waves_won == other.waves_won
    }
}

/// Audit one game's events with the project's independent checker: each event goes through its JSON
/// line, as a log file would, so the audit reads nothing of the kernel but the log. Breaches by kind,
/// and the first of each kind ("#seq text").
pub fn audit_events(
    facts: &crate::audit::Facts,
    seed: u64,
    events: &[Event],
) -> (BTreeMap<String, u64>, BTreeMap<String, String>) {
    let mut a = crate::audit::Auditor::new(facts);
    let name = format!("seed {seed}");
    for (i, e) in events.iter().enumerate() {
        match serde_json::to_string(e) {
            Ok(line) => a.line(&name, i + 1, &line),
            Err(err) => a.line(&name, i + 1, &format!("unserializable event: {err}")),
        }
    }
    let report = a.report();
    let mut counts = BTreeMap::new();
    let mut first = BTreeMap::new();
    for b in &report.breaches {
        *counts.entry(b.kind.name().to_string()).or_default() += 1;
        first.entry(b.kind.name().to_string()).or_insert_with(|| {
            format!(
                "seed {seed} #{}: {}",
                b.seq.map_or("-".to_string(), |q| q.to_string()),
                b.text
            )
        });
    }
    (counts, first)
}

/// The seed of game `index` of a run seeded `seed` (SplitMix64 of the pair, kept to 63 bits so Lua holds
/// it as an integer): independent of threads, shards and the other games.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let z = seed
        ^ index
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x632B_E59B_D9B4_E019);
    crate::dice::mix64(z) >> 1
}

/// The scripts whose firings a report counts: signatures, Alpha Rules, Opportunities and spells (a cast
/// names its spell's script).
const FIRING_KINDS: [&str; 4] = [
    "scripts/signatures/",
    "scripts/alpha/",
    "scripts/opportunities/",
    "scripts/spells/",
];

/// Every `*.lua` path starting with one of `prefixes` that a string of an event names (a modifier's, a
/// changed result's, a spent use's ... source). The strings are visited without writing the event out
/// (`state::for_each_str`), on the simulation's hot path.
fn scripts_named(text: &str, prefixes: &[&str], found: &mut BTreeSet<String>) {
    // Most strings (names, reasons) name no script: one substring search rules them out before each
    // prefix is looked for (every prefix asked for starts with "scripts/"). The searcher is built once:
    // std's `contains` sets one up for every string, which cost more than the search on short names.
    static SCRIPTS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("scripts/"));
    debug_assert!(prefixes.iter().all(|p| p.starts_with("scripts/")));
    // Shorter than the shortest prefix, or without a slash (a name, most reasons): nothing to find,
    // settled by one byte scan, cheaper still than the searcher's call on a short string.
    if text.len() < "scripts/".len() || memchr::memchr(b'/', text.as_bytes()).is_none() {
        return;
    }
    // Every place a prefix starts is a place "scripts/" starts: one pass of the searcher finds them
    // all, and each is matched against the prefixes by its bytes (a `str::find` per prefix set up a
    // searcher of its own for every string that names a script, a trait's as well).
    for i in SCRIPTS.find_iter(text.as_bytes()) {
        let tail = &text[i..];
        if !prefixes.iter().any(|p| tail.starts_with(p)) {
            continue;
        }
        let quote = memchr::memchr(b'"', tail.as_bytes()).unwrap_or(tail.len());
        if let Some(e) = memchr::memmem::find(&tail.as_bytes()[..quote], b".lua") {
            // A mod's script is named by its folder as the log names it ("mymod/scripts/..."): the
            // path runs back from "scripts/" to the start of the word it is in.
            let start = if text[..i].ends_with('/') {
                text[..i]
                    .rfind(|c: char| c.is_whitespace() || "\"'(,[".contains(c))
                    .map_or(0, |k| k + 1)
            } else {
                i
            };
            found.insert(text[start..i + e + 4].to_string());
        }
    }
}

/// The record of one played game.
pub fn record(
    index: u64,
    summary: &GameSummary,
    events: &[Event],
    decisions: &[crate::state::Decision],
) -> GameRecord {
    let mut heroes: BTreeSet<ModelId> = BTreeSet::new();
    let mut defeats = 0;
    let mut supplies_spent = 0i64;
    let mut firings: BTreeMap<String, u64> = BTreeMap::new();
    let mut hero_names: BTreeSet<&str> = BTreeSet::new();
    if let Some(w) = summary.waves.first() {
        hero_names.extend(w.wounds.iter().map(|(n, _)| n.as_str()));
    }
    for e in events {
        match &e.kind {
            EventKind::Placed { model, name, .. } if hero_names.contains(name.as_str()) => {
                heroes.insert(*model);
            }
            EventKind::Removed { model, reason }
                if heroes.contains(model) && reason != "fled" && reason != "left the table" =>
            {
                defeats += 1;
            }
            EventKind::Council {
                supplies,
                refused: None,
                ..
            } => supplies_spent += i64::from(*supplies),
            _ => {}
        }
        let mut found = BTreeSet::new();
        crate::state::for_each_str(e, &mut |text| {
            scripts_named(text, &FIRING_KINDS, &mut found)
        });
        for s in found {
            *firings.entry(s).or_default() += 1;
        }
    }
    let last = summary.waves.last();
    let result = summary.result.as_str();
    GameRecord {
        index,
        seed: summary.seed,
        result: result.to_string(),
        cause: summary.cause.as_str().to_string(),
        waves_won: summary.waves_won,
        rounds_survived: summary.rounds_survived,
        lost_at_wave: (summary.result == Outcome::Loss).then(|| summary.waves_won + 1),
        town_hall_integrity: summary.town_hall_integrity,
        wounds: last.map_or(0, |w| w.wounds.iter().map(|(_, n)| u32::from(*n)).sum()),
        defeats,
        destroyed: last.map_or(0, |w| {
            w.integrity.iter().filter(|(_, i)| *i <= 0).count() as u32
        }),
        supplies_spent,
        vp: summary.vp,
        firings,
        decisions: decision_counts(decisions),
        audit: BTreeMap::new(),
        audit_first: BTreeMap::new(),
    }
}

/// Decisions counted by who decided and the deciding script: "Hunter: scripts/behaviours/hunter.lua".
fn decision_counts(decisions: &[crate::state::Decision]) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for d in decisions {
        *out.entry(format!("{}: {}", d.by, d.script)).or_default() += 1;
    }
    out
}

/// The longest error text a failed game keeps (its script's message and traceback): the bound every
/// script error already has, applied again to errors that reach a game from elsewhere (a refused order).
pub const MAX_FAILED_ERROR: usize = crate::script::MAX_ERROR_TEXT;

/// A game of a run that failed (a script error, a refused order): which game, its seed and the error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedGame {
    pub index: u64,
    pub seed: u64,
    pub error: String,
}

impl std::fmt::Display for FailedGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The error's first line (the script's file:line and message); the traceback under it is in
        // the JSON report.
        let headline = self.error.lines().next().unwrap_or_default();
        write!(f, "game {} (seed {}): {headline}", self.index, self.seed)
    }
}

/// What a run played: the records of the games that finished and the games that failed, each in game
/// order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Played {
    pub records: Vec<GameRecord>,
    pub failed: Vec<FailedGame>,
}

impl Played {
    /// The records, or the lowest-numbered failed game as an error naming its index and seed.
    pub fn all_finished(self) -> Result<Vec<GameRecord>, String> {
        match self.failed.first() {
            Some(f) => Err(f.to_string()),
            None => Ok(self.records),
        }
    }
}

/// Play the run's games on `opts.jobs` threads; `tick` is called after each game (a progress bar).
/// Each thread opens one VM and takes the next unplayed game until none is left, so a long game never
/// holds the others back and no VM is opened twice. Records come back in game order, whatever the
/// threads did. A game that fails is kept as a [`FailedGame`]; with `keep_going` the other games still
/// run, without it no new game starts after the first failure (the games already finished are kept,
/// so a caller can still write their records). Only a run that cannot start at all is an `Err`.
pub fn run_games(
    opts: &SimOptions,
    keep_going: bool,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<Played, String> {
    let pool = worker_pool(opts.jobs)?;
    check(opts)?;
    let facts = if opts.audit {
        Some(crate::audit::facts(&opts.layers).map_err(|e| e.to_string())?)
    } else {
        None
    };
    let end = opts.first + opts.games;
    let next = AtomicU64::new(opts.first);
    let done = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    // Err(Ok(game)): a game failed; Err(Err(text)): a worker could not open its VM (the whole run
    // cannot start, whatever `keep_going` says).
    type Outcome = Result<GameRecord, Result<FailedGame, String>>;
    let played: Vec<Vec<(u64, Outcome)>> = pool.broadcast(|_| {
        let host = match ScriptHost::open(&opts.layers, Limits::default(), opts.seed) {
            Ok(h) => h,
            Err(e) => {
                failed.store(true, Ordering::Relaxed);
                return vec![(opts.first, Err(Err(e.join("\n"))))];
            }
        };
        let mut out = Vec::new();
        while keep_going || !failed.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= end {
                break;
            }
            let seed = game_seed(opts.seed, i);
            let r = opts
                .play_counted(&host, seed)
                .map(|p| {
                    let mut r = record(i, &p.summary, &p.events, &p.decisions);
                    if let Some(f) = &facts {
                        (r.audit, r.audit_first) = audit_events(f, seed, &p.events);
                    }
                    r
                })
                .map_err(|error| {
                    // Kept for the report with every other failed game: a bounded text, whatever the
                    // script raised (a 40 MB message a game took gigabytes over a run).
                    let error =
                        crate::script::api::answer::cut(&error, MAX_FAILED_ERROR).into_owned();
                    Ok(FailedGame {
                        index: i,
                        seed,
                        error,
                    })
                });
            failed.fetch_or(r.is_err(), Ordering::Relaxed);
            tick(done.fetch_add(1, Ordering::Relaxed) + 1);
            out.push((i, r));
        }
        out
    });
    let mut all: Vec<(u64, Outcome)> = played.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    let mut out = Played::default();
    for (_, r) in all {
        match r {
            Ok(rec) => out.records.push(rec),
            Err(Ok(f)) => out.failed.push(f),
            Err(Err(e)) => return Err(e),
        }
    }
    Ok(out)
}

/// A pool of `jobs` worker threads, or as many as the system gives (halving until it starts one):
/// the games are the same for any number of threads, only slower, so a system that refuses threads
/// (`os error 11`) costs speed, not the run. The shortfall is said on stderr.
fn worker_pool(jobs: usize) -> Result<rayon::ThreadPool, String> {
    let mut n = jobs.max(1);
    loop {
        match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => {
                if n < jobs {
                    crate::terminal::err(&format!(
                        "note: the system started {n} worker threads, not the {jobs} asked for: \
                         the games are the same, only slower\n"
                    ));
                }
                return Ok(pool);
            }
            Err(_) if n > 1 => n /= 2,
            Err(e) => return Err(format!("cannot start a worker thread: {e}")),
        }
    }
}

/// [`run_games`] that stops at the first failed game, as an error naming the game and its seed.
pub fn run(opts: &SimOptions, tick: &(dyn Fn(u64) + Sync)) -> Result<Vec<GameRecord>, String> {
    run_games(opts, false, tick)?.all_finished()
}

/// The party names heroes of the rosters and has as many as the rules allow, and the length,
/// variants and policy exist (a clear error before any thread starts, not a failure of game 0).
pub fn check(opts: &SimOptions) -> Result<(), String> {
    crate::state::check_party(&opts.heroes)?;
    let rosters = crate::roster::Rosters::load(&opts.layers).map_err(|e| e.to_string())?;
    if rosters.length(&opts.length).is_none() {
        return Err(rosters.unknown_length(&opts.length));
    }
    crate::scenario::load(&opts.layers, &rosters, &opts.scenario).map_err(|problems| {
        let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        lines.join("\n")
    })?;
    let scripts = crate::script::registry::discover(&crate::script::roots_of(&opts.layers));
    let known = |kind: &'static str| {
        scripts
            .keys()
            .filter_map(move |k| k.strip_prefix(kind)?.strip_suffix(".lua"))
    };
    for v in &opts.variants {
        if !scripts.contains_key(&format!("variants/{v}.lua")) {
            return Err(crate::names::unknown("variant", v, known("variants/")));
        }
    }
    if !scripts.contains_key(&format!("policies/{}.lua", opts.policy)) {
        return Err(crate::names::unknown(
            "policy",
            &opts.policy,
            known("policies/"),
        ));
    }
    for h in &opts.heroes {
        if rosters
            .profile(h)
            .is_none_or(|p| p.kind != ProfileKind::Hero)
        {
            // The error names the closest heroes (a short name the CLI did not resolve is not a
            // full one either).
            return Err(rosters
                .resolve_hero(h)
                .err()
                .unwrap_or_else(|| format!("{h:?} is not a hero of the rosters")));
        }
    }
    let Some(preset) = rosters.preset(&opts.preset) else {
        return Err(rosters.unknown_preset(&opts.preset));
    };
    // The party size the rules allow (core Ch. IV: 2 to 4 heroes), as the preset and variants may change
    // it: variants' `rules` tables are Lua, read by one script host (the workers open their own).
    let rules = if opts.variants.is_empty() && preset.variants.is_empty() {
        preset.rules(&rosters.rules)?
    } else {
        ScriptHost::open(&opts.layers, Limits::default(), opts.seed)
            .map_err(|e| e.join("\n"))?
            .rules_of(&opts.preset, &opts.variants)?
    };
    crate::wave::check_party_size(opts.heroes.len(), &rules).map_err(|e| e.to_string())
}

/// A run timed: its records and the seconds it took (stopping at the first failed game).
pub fn timed(
    opts: &SimOptions,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<(Vec<GameRecord>, f64), String> {
    let (played, seconds) = timed_games(opts, false, tick)?;
    Ok((played.all_finished()?, seconds))
}

/// [`run_games`] timed.
pub fn timed_games(
    opts: &SimOptions,
    keep_going: bool,
    tick: &(dyn Fn(u64) + Sync),
) -> Result<(Played, f64), String> {
    let start = Instant::now();
    let played = run_games(opts, keep_going, tick)?;
    Ok((played, start.elapsed().as_secs_f64()))
}

/// Where two arms' logs of one game part: the first event that differs, in words and as JSON, and the
/// script it names (or the variant that changed the rules).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    pub game: u64,
    pub seed: u64,
    /// The index of the first differing event (`seq`).
    pub event: usize,
    pub a: Option<serde_json::Value>,
    pub b: Option<serde_json::Value>,
    /// The script the differing events name, or the variant file of the arm that differs.
    pub script: Option<String>,
}

/// The first event at which two logs of one seed part (its JSON differs, or one log has ended), if
/// they do: where an A/B pair's game first went differently.
pub fn first_difference(a: &[Event], b: &[Event]) -> Option<usize> {
    let json = |e: Option<&Event>| e.and_then(|e| serde_json::to_value(e).ok());
    (0..a.len().max(b.len())).find(|&i| json(a.get(i)) != json(b.get(i)))
}

/// Replay game `index` of both arms with their logs and find the first event where they differ.
pub fn divergence(
    a: &SimOptions,
    b: &SimOptions,
    index: u64,
) -> Result<Option<Divergence>, String> {
    let seed = game_seed(a.seed, index);
    let log_of = |o: &SimOptions| -> Result<Vec<Event>, String> {
        let host =
            ScriptHost::open(&o.layers, Limits::default(), seed).map_err(|e| e.join("\n"))?;
        let (_, events) = o
            .play(&host, seed)
            .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
        Ok(events)
    };
    let (la, lb) = (log_of(a)?, log_of(b)?);
    let json = |e: Option<&Event>| e.and_then(|e| serde_json::to_value(e).ok());
    let Some(i) = first_difference(&la, &lb) else {
        return Ok(None);
    };
    let (ea, eb) = (json(la.get(i)), json(lb.get(i)));
    let mut named = BTreeSet::new();
    // An event that says it followed a rule constant (a Power Blow read as Lethal by
    // `combat.power_blow_lethal`) parts on the rules a variant set, whatever script the other arm's
    // event names (its Cleric's Lethal reading of the same blow): the variant is named.
    let mut by_constant = false;
    for e in [la.get(i), lb.get(i)].into_iter().flatten() {
        crate::state::for_each_str(e, &mut |text| {
            by_constant |= text.contains("rule constant");
            scripts_named(text, &["scripts/"], &mut named)
        });
    }
    if by_constant {
        named.clear();
    }
    let script = named.into_iter().next().or_else(|| {
        let differs: Vec<(&String, &SimOptions)> = a
            .variants
            .iter()
            .map(|v| (v, a))
            .chain(b.variants.iter().map(|v| (v, b)))
            .filter(|(v, _)| !(a.variants.contains(v) && b.variants.contains(v)))
            .collect();
        differs
            .first()
            .map(|(v, arm)| variant_script(&arm.layers, v))
    });
    Ok(Some(Divergence {
        game: index,
        seed,
        event: i,
        a: ea,
        b: eb,
        script,
    }))
}

/// The script of variant `v` named as the log names scripts: the file of the last layer that has it, a
/// mod's with its folder (`mymod/scripts/variants/v.lua`), so that an A/B whose games part on a rule
/// constant names the mod's file as it names the file of a modifier its hooks add.
fn variant_script(layers: &[PathBuf], v: &str) -> String {
    let rel = format!("variants/{v}.lua");
    crate::script::roots_of(layers)
        .iter()
        .rev()
        .find(|r| r.dir.join(&rel).is_file())
        .map_or_else(
            || format!("scripts/{rel}"),
            |r| format!("{}/{rel}", r.label),
        )
}

/// Games `first .. first + games` of shard `k` of `n` of a run of `total` games (contiguous ranges).
pub fn shard_range(total: u64, k: u64, n: u64) -> Result<(u64, u64), String> {
    if n == 0 || k == 0 || k > n {
        return Err(format!("a shard is K/N with 1 <= K <= N, not {k}/{n}"));
    }
    let lo = total * (k - 1) / n;
    let hi = total * k / n;
    Ok((lo, hi - lo))
}

/// What a shard writes (`--out`) and `village merge` reads: the run's options, the content its rules
/// and scripts had, its records and failed games, and a digest of all of that (a hand edit shows).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Shard {
    pub format: String,
    /// The whole run's number of games.
    pub total: u64,
    pub options: SimOptions,
    /// Every roster and script file of the run's layers, hashed. (Defaulted when absent, so a file of
    /// an older format reads far enough to be refused by its format name.)
    #[serde(default)]
    pub fingerprint: Fingerprint,
    pub records: Vec<GameRecord>,
    /// Games that failed (`--keep-going`).
    #[serde(default)]
    pub failed: Vec<FailedGame>,
    /// Which shard of how many (`--shard K/N`), so a partial set names the shards it lacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<[u64; 2]>,
    /// [`crate::files::digest`] of the shard with this field empty.
    #[serde(default)]
    pub digest: String,
}

/// The format name of shard files: 3 since a game's dice are a stream per purpose (shards of format 2
/// played other games on the same seeds, and must not be merged with these).
pub const SHARD_FORMAT: &str = "village-sim-shard 3";

impl Shard {
    /// A sealed shard (its digest computed) of a run of `total` games.
    pub fn new(total: u64, options: SimOptions, fingerprint: Fingerprint, played: Played) -> Shard {
        let mut s = Shard {
            format: SHARD_FORMAT.to_string(),
            total,
            options,
            fingerprint,
            records: played.records,
            failed: played.failed,
            part: None,
            digest: String::new(),
        };
        s.digest = s.content_digest();
        s
    }

    /// Names the shard as part K of N of its run, and seals it again.
    pub fn seal_part(&mut self, part: [u64; 2]) {
        self.part = Some(part);
        self.digest = self.content_digest();
    }

    fn content_digest(&self) -> String {
        let mut unsealed = self.clone();
        unsealed.digest.clear();
        crate::files::digest(&unsealed)
    }

    /// The settings that make two shards parts of one run, named as `village sim`'s flags.
    fn settings(&self) -> [(&'static str, String); 8] {
        let o = &self.options;
        [
            ("--games (the whole run's)", self.total.to_string()),
            ("--seed", o.seed.to_string()),
            ("--heroes", format!("{:?}", o.heroes)),
            ("--length", format!("{:?}", o.length)),
            ("--preset", format!("{:?}", o.preset)),
            ("--scenario", format!("{:?}", o.scenario)),
            ("--variant", format!("{:?}", o.variants)),
            ("--policy", format!("{:?}", o.policy)),
        ]
    }
}

/// Merge shards of one run, each given with the name of its file: every shard unedited (its digest
/// holds), the same run (settings and rule and script content), every field within what the run's
/// settings allow (`waves`: the number of waves of its length, when its rosters could be read; else
/// [`crate::roster::MAX_WAVES`]), no game twice, none missing, no count summed past 2^64. Records and
/// failed games come back in game order.
pub fn merge(shards: Vec<(String, Shard)>, waves: Option<u32>) -> Result<Played, String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("nothing to merge".into());
    };
    let (first_name, want, total) = (first_name.clone(), first.clone(), first.total);
    let mut out = Played::default();
    // Which file holds each game, and the sums the report will make, checked as they grow.
    let mut holder: BTreeMap<u64, String> = BTreeMap::new();
    let (mut firings, mut decisions) = (BTreeMap::new(), BTreeMap::new());
    for (name, s) in shards {
        if s.format != SHARD_FORMAT {
            return Err(format!(
                "{name}: not a shard file of this version ({:?}; this version reads {SHARD_FORMAT:?})",
                s.format
            ));
        }
        if s.content_digest() != s.digest {
            return Err(format!(
                "{name}: the shard was edited after it was written (its digest {} does not match its \
                 content)",
                s.digest
            ));
        }
        for ((flag, a), (_, b)) in want.settings().iter().zip(s.settings()) {
            if *a != b {
                return Err(format!(
                    "{name} is not of the same run as {first_name}: {flag} differs ({b} vs {a})"
                ));
            }
        }
        if let Some(d) = want.fingerprint.differences(&s.fingerprint) {
            return Err(format!(
                "{name} is not of the same run as {first_name}: the rosters/scripts differ ({d})"
            ));
        }
        trust::check_shard(&name, &s, waves)?;
        let indices = s
            .records
            .iter()
            .map(|r| r.index)
            .chain(s.failed.iter().map(|f| f.index));
        for i in indices {
            if i >= total {
                return Err(format!(
                    "{name}: game {i} is not of the run (its games are 0 to {})",
                    total.saturating_sub(1)
                ));
            }
            if let Some(other) = holder.insert(i, name.clone()) {
                return Err(format!(
                    "{name}: game {i} is twice in the shards (also in {other})"
                ));
            }
        }
        for r in &s.records {
            trust::add_counts(&mut firings, &r.firings, "firings")
                .and_then(|()| trust::add_counts(&mut decisions, &r.decisions, "decisions"))
                .map_err(|e| format!("{name}: game {}: {e}", r.index))?;
        }
        out.records.extend(s.records);
        out.failed.extend(s.failed);
    }
    out.records.sort_by_key(|r| r.index);
    out.failed.sort_by_key(|f| f.index);
    if let Some(i) = (0..total).find(|i| !holder.contains_key(i)) {
        // The shards of the run that hold none of their games, named as `--shard K/N`.
        let lacking: Vec<String> = match want.part {
            Some([_, n]) => (1..=n)
                .filter(|&k| {
                    shard_range(total, k, n).is_ok_and(|(lo, c)| {
                        c > 0 && !(lo..lo + c).any(|g| holder.contains_key(&g))
                    })
                })
                .map(|k| format!("{k}/{n}"))
                .collect(),
            None => Vec::new(),
        };
        let named = if lacking.is_empty() {
            String::new()
        } else {
            format!("; missing: shard {}", lacking.join(", shard "))
        };
        return Err(format!(
            "the shards hold {} of {total} games (game {i} is missing){named}",
            holder.len()
        ));
    }
    Ok(out)
}

/// One script function in `village bench --profile`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfileRow {
    /// Where it is defined: `scripts/policies/default.lua:18`.
    pub function: String,
    /// Calls a game.
    pub calls_per_game: f64,
    /// Microseconds a call, inside it (hooks it set off included).
    pub micros_per_call: f64,
    /// Its time over the one-thread pass's time.
    pub share: f64,
}

/// One Lua line in `village bench --profile`: how many of the scripts' VM instructions it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineRow {
    /// `scripts/lib/tactics.lua:142`.
    pub line: String,
    /// Its share of the scripts' sampled VM instructions.
    pub share: f64,
    /// Samples a game (one every 1,000 VM instructions of a script).
    pub samples_per_game: f64,
}

/// `village bench`: what a run of Standard games costs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bench {
    pub games: u64,
    /// One thread: games per second (the figure per core).
    pub games_per_sec_1: f64,
    /// Two threads.
    pub games_per_sec_2: f64,
    /// Two threads over one.
    pub scaling: f64,
    /// The share of one thread's time spent inside Lua calls.
    pub lua_share: f64,
    /// With `--profile`: the script functions the kernel called in the one-VM pass, most time first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profile: Vec<ProfileRow>,
    /// With `--profile`: the Lua lines that ran the most of the scripts' own VM instructions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineRow>,
    /// Events logged per game, on average.
    pub events_per_game: f64,
    /// Each timed pass on one thread, games per second, in the order run (`--repeat`: the figures above
    /// are their medians).
    pub passes_1: Vec<f64>,
    /// Each timed pass on two threads, run in turn with those on one.
    pub passes_2: Vec<f64>,
}

/// Play `opts.games` games on one VM (timing the share spent inside Lua), then the same games as `village
/// sim` plays them on one thread and on two (records and all), timed alike, `repeat` times in turn (at
/// least once): the machine's speed wanders from one pass to the next, and the median of several is a
/// steadier figure than any one.
pub fn bench(opts: &SimOptions, profile: bool, repeat: usize) -> Result<Bench, String> {
    check(opts)?;
    let host =
        ScriptHost::open(&opts.layers, Limits::default(), opts.seed).map_err(|e| e.join("\n"))?;
    if profile {
        host.start_profile();
    }
    let start = Instant::now();
    let mut events = 0usize;
    for i in opts.first..opts.first + opts.games {
        let seed = game_seed(opts.seed, i);
        let (_, log) = opts
            .play(&host, seed)
            .map_err(|e| format!("game {i} (seed {seed}): {e}"))?;
        events += log.len();
    }
    let pass = start.elapsed().as_secs_f64().max(1e-9);
    let lua_share = host.lua_seconds() / pass;
    let per_game = opts.games.max(1) as f64;
    let profile = host
        .profile()
        .into_iter()
        .map(|(function, calls, seconds)| ProfileRow {
            function,
            calls_per_game: calls as f64 / per_game,
            micros_per_call: seconds * 1e6 / calls.max(1) as f64,
            share: seconds / pass,
        })
        .collect();
    let sampled = host.line_profile();
    let total = sampled.iter().map(|(_, n)| *n).sum::<u64>().max(1) as f64;
    let lines = sampled
        .into_iter()
        .map(|(line, n)| LineRow {
            line,
            share: n as f64 / total,
            samples_per_game: n as f64 / per_game,
        })
        .collect();
    // Both thread counts are timed the same way, as `village sim` plays (records and all).
    let on = |jobs: usize| {
        let opts = SimOptions {
            jobs,
            ..opts.clone()
        };
        timed(&opts, &|_| {}).map(|(_, seconds)| seconds)
    };
    let n = opts.games as f64;
    let (mut passes_1, mut passes_2) = (Vec::new(), Vec::new());
    for _ in 0..repeat.max(1) {
        passes_1.push(n / on(1)?.max(1e-9));
        passes_2.push(n / on(2)?.max(1e-9));
    }
    let (one, two) = (median(&passes_1), median(&passes_2));
    Ok(Bench {
        games: opts.games,
        games_per_sec_1: one,
        games_per_sec_2: two,
        scaling: two / one.max(1e-9),
        lua_share,
        profile,
        lines,
        events_per_game: events as f64 / n.max(1.0),
        passes_1,
        passes_2,
    })
}

/// A recorded game (`village sim --record DIR`): its inputs, and a hash of each event of its log, so
/// `village replay --verify` can re-run it and say where a changed rule first changed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: String,
    pub index: u64,
    /// The game's own seed (`game_seed` of the run's seed and the index).
    pub seed: u64,
    pub heroes: Vec<String>,
    pub length: String,
    /// The difficulty preset (rosters/presets.toml).
    #[serde(
        default = "crate::roster::default_preset",
        skip_serializing_if = "crate::roster::is_default_preset"
    )]
    pub preset: String,
    /// The scenario (scenarios/NAME.toml, or a file).
    #[serde(
        default = "crate::scenario::default_scenario",
        skip_serializing_if = "crate::scenario::is_default_scenario"
    )]
    pub scenario: String,
    /// The variants asked for (in force after the preset's).
    pub variants: Vec<String>,
    #[serde(default = "default_policy")]
    pub policy: String,
    /// The `--mod` folders it was played with.
    pub mods: Vec<PathBuf>,
    pub result: String,
    /// FNV-1a of the whole log (its events' JSON, one per line).
    pub hash: u64,
    /// FNV-1a of each event's JSON.
    pub events: Vec<u64>,
    /// Every roster and script file it was played with, hashed. (Defaulted when absent, so a file of
    /// an older format reads far enough to be refused by its format name.)
    #[serde(default)]
    pub fingerprint: Fingerprint,
    /// [`crate::files::digest`] of the record with this field empty.
    #[serde(default)]
    pub digest: String,
}

/// The format name of replay files: 3 since Combat events say when they are Free Hacks or made
/// outside an action (their hashes differ from those of format 2); 4 since a game's dice are a
/// stream per purpose (a record of format 3 would replay another game).
pub const REPLAY_FORMAT: &str = "village-replay 4";

impl Replay {
    /// The game the record plays again: its seed, party, length, preset, variants and policy.
    pub fn new_game(&self) -> crate::script::repl::NewGame {
        crate::script::repl::NewGame {
            seed: self.seed,
            length: self.length.clone(),
            heroes: self.heroes.clone(),
            preset: self.preset.clone(),
            scenario: self.scenario.clone(),
            variants: self.variants.clone(),
            policy: self.policy.clone(),
        }
    }

    /// The first event of `events` (a log of this game played again) whose hash is not the recorded
    /// one, or where one log ends before the other; `None` when the log is the recorded one.
    pub fn first_unlike(&self, events: &[Event]) -> Option<usize> {
        let (_, each) = hashes(events);
        (0..each.len().max(self.events.len())).find(|&i| each.get(i) != self.events.get(i))
    }

    fn content_digest(&self) -> String {
        let mut unsealed = self.clone();
        unsealed.digest.clear();
        crate::files::digest(&unsealed)
    }

    /// Whether the record may be played again: of this format, unedited (its digest holds), with a
    /// result that exists. A record is data: nothing it names runs before this passes.
    pub fn check(&self) -> Result<(), String> {
        trust::check_record(self)
    }
}

/// The JSON text of an event (the log's own line), as a replay record hashes it: without its `cause`
/// link, which explains the game but is not play, so a record made before events carried causes still
/// verifies.
fn json_line(e: &Event) -> String {
    let e = Event {
        cause: None,
        ..e.clone()
    };
    serde_json::to_string(&e).unwrap_or_default()
}

/// Each event's hash and the log's.
fn hashes(events: &[Event]) -> (u64, Vec<u64>) {
    let mut all = FNV_START;
    let mut each = Vec::with_capacity(events.len());
    for e in events {
        let line = json_line(e);
        each.push(fnv(line.as_bytes(), FNV_START));
        all = fnv(line.as_bytes(), all);
        all = fnv(b"\n", all);
    }
    (all, each)
}

/// Play game `index` of `opts` again and record it, with the `fingerprint` of the run's content.
pub fn record_replay(
    opts: &SimOptions,
    index: u64,
    fingerprint: &Fingerprint,
) -> Result<Replay, String> {
    let seed = game_seed(opts.seed, index);
    let host = ScriptHost::open(&opts.layers, Limits::default(), seed).map_err(|e| e.join("\n"))?;
    let (summary, events) = opts
        .play(&host, seed)
        .map_err(|e| format!("game {index} (seed {seed}): {e}"))?;
    let (hash, each) = hashes(&events);
    let mut r = Replay {
        format: REPLAY_FORMAT.to_string(),
        index,
        seed,
        heroes: opts.heroes.clone(),
        length: opts.length.clone(),
        preset: opts.preset.clone(),
        scenario: opts.scenario.clone(),
        variants: opts.variants.clone(),
        policy: opts.policy.clone(),
        mods: opts.layers.iter().skip(1).cloned().collect(),
        result: record(index, &summary, &events, &[]).result,
        hash,
        events: each,
        fingerprint: fingerprint.clone(),
        digest: String::new(),
    };
    r.digest = r.content_digest();
    Ok(r)
}

/// What re-running a recorded game gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verified {
    pub result: String,
    /// The result the file records.
    pub recorded_result: String,
    /// Everything agrees: the result and every event are the recorded ones (an edited file is refused
    /// before it is played).
    pub same: bool,
    /// How the rosters and scripts now differ from the recording's (files changed, added, missing).
    pub content_differs: Option<String>,
    /// The first event that differs from the recording (its index and the event as it is now; `None`
    /// when the new log ended first).
    pub first_difference: Option<(usize, Option<serde_json::Value>)>,
}

/// Re-run a recorded game with `layers` and compare its log with the recording. The record is checked
/// first ([`Replay::check`]): an edited one is refused before anything runs.
pub fn replay(r: &Replay, layers: &[PathBuf]) -> Result<Verified, String> {
    r.check()?;
    let host = ScriptHost::open(layers, Limits::default(), r.seed).map_err(|e| e.join("\n"))?;
    let new = r.new_game();
    let (summary, events) = host
        .play_keeping_log(&new, "generated", false)
        .map(|p| (p.summary, p.events))
        .map_err(|f| f.error)?;
    let (hash, each) = hashes(&events);
    let first = (0..each.len().max(r.events.len()))
        .find(|&i| each.get(i) != r.events.get(i))
        .map(|i| (i, events.get(i).and_then(|e| serde_json::to_value(e).ok())));
    let result = record(r.index, &summary, &events, &[]).result;
    Ok(Verified {
        same: hash == r.hash && first.is_none() && result == r.result,
        recorded_result: r.result.clone(),
        result,
        content_differs: r
            .fingerprint
            .differences(&Fingerprint::of_game(layers, &r.scenario)),
        first_difference: first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The median of an odd count is the middle pass, of an even count the mean of the middle two,
    /// whatever order the passes came in; none gives 0.
    #[test]
    fn the_median_of_passes() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0]), 3.0);
        assert_eq!(median(&[5.0, 1.0, 3.0]), 3.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    /// A game's record with only its result and its waves won set.
    fn game(result: &str, waves_won: u32) -> GameRecord {
        GameRecord {
            index: 0,
            seed: 0,
            result: result.to_string(),
            cause: "overrun".to_string(),
            waves_won,
            rounds_survived: 0,
            lost_at_wave: None,
            town_hall_integrity: 0,
            wounds: 0,
            defeats: 0,
            destroyed: 0,
            supplies_spent: 0,
            vp: None,
            firings: BTreeMap::new(),
            decisions: BTreeMap::new(),
            audit: BTreeMap::new(),
            audit_first: BTreeMap::new(),
        }
    }

    /// The mean with mean ± 1.96 standard errors (the sample's deviation, n − 1), worked by hand: 2, 4,
    /// 4, 4, 5, 5, 7, 9 has mean 5 and sample deviation √(32/7).
    #[test]
    fn the_mean_and_its_interval() {
        assert_eq!(mean_ci(&[]), (0.0, [0.0, 0.0]));
        assert_eq!(mean_ci(&[3.0]), (3.0, [3.0, 3.0]));
        let (m, ci) = mean_ci(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        let half = 1.959_963_984_540_054 * (32.0f64 / 7.0 / 8.0).sqrt();
        assert_eq!(m, 5.0);
        assert!((ci[0] - (5.0 - half)).abs() < 1e-4 && (ci[1] - (5.0 + half)).abs() < 1e-4);
    }

    /// The paired difference is taken game by game: two arms whose waves differ by exactly one in
    /// every game differ by one with no spread, where the unpaired means' intervals would overlap
    /// widely; the win-rate difference counts only the game whose result differs, and every game
    /// ended differently (after another number of waves).
    #[test]
    fn the_paired_difference_in_waves_won_is_taken_game_by_game() {
        let a: Vec<GameRecord> = [0, 3, 6, 1, 4]
            .iter()
            .map(|w| game("loss", w + 1))
            .collect();
        let mut b: Vec<GameRecord> = [0, 3, 6, 1, 4].iter().map(|w| game("loss", *w)).collect();
        b[2].result = "win".into();
        let d = difference(&a, &b);
        assert_eq!((d.waves_won, d.waves_won_ci95), (1.0, [1.0, 1.0]));
        assert_eq!(d.win_rate, -0.2);
        assert_eq!(
            d.games_differing, 5,
            "every game ended after another number of waves"
        );
        let (ra, rb) = (report(&a), report(&b));
        assert_eq!((ra.waves_won_mean, rb.waves_won_mean), (3.8, 2.8));
        assert!(ra.waves_won_ci95[0] < rb.waves_won_ci95[1], "{ra:?} {rb:?}");
    }

    /// Every `.lua` path under a prefix asked for, wherever it sits in the string (a JSON-like quote ends
    /// one), and nothing under another folder.
    #[test]
    fn scripts_named_finds_each_path_under_the_prefixes_asked_for() {
        let mut found = BTreeSet::new();
        let text = r#"+1 (scripts/traits/savage.lua) and "scripts/spells/heal.lua" then scripts/alpha/hex.lua, scripts/spells/x" no.lua"#;
        scripts_named(text, &FIRING_KINDS, &mut found);
        let found: Vec<&str> = found.iter().map(String::as_str).collect();
        assert_eq!(found, ["scripts/alpha/hex.lua", "scripts/spells/heal.lua"]);
        let mut all = BTreeSet::new();
        scripts_named(text, &["scripts/"], &mut all);
        assert_eq!(all.len(), 3, "{all:?}");
        let mut none = BTreeSet::new();
        scripts_named("Captain Maren", &FIRING_KINDS, &mut none);
        scripts_named("a/b", &FIRING_KINDS, &mut none);
        assert!(none.is_empty());
        // A mod's script keeps its folder, as the log names it.
        let mut modded = BTreeSet::new();
        scripts_named(
            "+1 Ward (defender, /tmp/m scripts/mymod/scripts/spells/ward.lua) and mod2/scripts/alpha/x.lua",
            &FIRING_KINDS,
            &mut modded,
        );
        let modded: Vec<&str> = modded.iter().map(String::as_str).collect();
        assert_eq!(
            modded,
            [
                "mod2/scripts/alpha/x.lua",
                "scripts/mymod/scripts/spells/ward.lua"
            ]
        );
    }
}
