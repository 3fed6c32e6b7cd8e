//! The options that make a new game (`--heroes`, `--length`, `--seed`, `--preset`, `--variant`,
//! `--policy`) as clap
//! defines them, in one place: the `village` commands flatten them into their own arguments, and the
//! REPL's `:new` parses its options with the very same definitions ([`NewArgs`]), so a game started in
//! a session has the defaults and checks of one started from the command line.
//!
//! It only reads options; whether a game can be made of them (a party the rules allow, a known length,
//! variant or policy) is decided where the game is made (`script::ScriptHost`, `script::repl::Repl`).

use crate::roster::Rosters;
use crate::script::repl::NewGame;
use clap::{Args, Parser};
use std::path::PathBuf;

/// The difficulty preset and rule variants a command plays or computes under.
#[derive(Args, Clone, Debug)]
pub struct VariantArgs {
    /// A difficulty preset of rosters/presets.toml (`village presets` lists them): story, rulebook
    /// (exactly the rules), veteran.
    #[arg(long, value_name = "NAME", default_value = crate::roster::DEFAULT_PRESET)]
    pub preset: String,
    /// A rule variant (scripts/variants/NAME.lua), in force after the preset's; repeatable.
    #[arg(long = "variant", value_name = "NAME")]
    pub variants: Vec<String>,
}

/// How a new game is made: the party, the length, the seed, the preset and the rule variants.
#[derive(Args, Clone, Debug)]
pub struct SetupArgs {
    /// The heroes (2 to 4), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "Captain Maren,Tobin the Marksman,Sister Ilse,Bram the Smith"
    )]
    pub heroes: Vec<String>,
    /// A length of the rosters: intro, standard, siege, or endless (Defender mode: no final wave).
    /// Default: the scenario's, else the preset's, else standard.
    #[arg(long)]
    pub length: Option<String>,
    /// A scenario: the name of a scenarios/NAME.toml (`village scenarios` lists them), or a .toml
    /// file. Default: rulebook, the rulebook's game.
    #[arg(long, value_name = "NAME|FILE", default_value = crate::scenario::DEFAULT_SCENARIO)]
    pub scenario: String,
    /// Seed of the game: any whole number from 0 to 2^64 − 1, the same range for every command.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rule variants.
    #[command(flatten)]
    pub variants: VariantArgs,
}

/// A game the hero policy plays: how it is made, and the policy.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// The party, length, seed and variants.
    #[command(flatten)]
    pub setup: SetupArgs,
    /// The hero policy (scripts/policies/NAME.lua) that plays the heroes' side.
    #[arg(long, default_value = "default")]
    pub policy: String,
}

impl std::ops::Deref for GameArgs {
    type Target = SetupArgs;
    fn deref(&self) -> &SetupArgs {
        &self.setup
    }
}

impl SetupArgs {
    /// The party as the rosters of `layers` name it: `--heroes "maren, tobin"` is Captain Maren and
    /// Tobin the Marksman (see `Rosters::resolve_hero`). A name that matches no hero, or several, is
    /// kept as given, for the game's own check to refuse with its suggestions.
    pub fn party(&self, layers: &[PathBuf]) -> Vec<String> {
        self.party_of(Rosters::load(layers).ok().as_ref())
    }

    /// [`SetupArgs::party`] with rosters already loaded (`None`: the names as given).
    pub fn party_of(&self, rosters: Option<&Rosters>) -> Vec<String> {
        self.heroes
            .iter()
            .map(|h| {
                rosters
                    .and_then(|r| r.resolve_hero(h).ok())
                    .unwrap_or_else(|| h.trim().to_string())
            })
            .collect()
    }

    /// The length played: `--length`, else the scenario's, else the preset's, else standard (the
    /// scenario and preset as `layers` and their `rosters` have them).
    pub fn length_of(&self, layers: &[PathBuf], rosters: Option<&Rosters>) -> String {
        self.length
            .clone()
            .or_else(|| self.scenario_of(layers, rosters)?.length)
            .or_else(|| {
                rosters?
                    .preset(&self.preset_of(layers, rosters))?
                    .length
                    .clone()
            })
            .unwrap_or_else(|| "standard".to_string())
    }

    /// The preset played: `--preset` when given other than the default, else the scenario's.
    pub fn preset_of(&self, layers: &[PathBuf], rosters: Option<&Rosters>) -> String {
        if self.variants.preset != crate::roster::DEFAULT_PRESET {
            return self.variants.preset.clone();
        }
        self.scenario_of(layers, rosters)
            .and_then(|s| s.preset)
            .unwrap_or_else(|| self.variants.preset.clone())
    }

    /// The scenario, when it loads (its errors are the game's to report).
    fn scenario_of(
        &self,
        layers: &[PathBuf],
        rosters: Option<&Rosters>,
    ) -> Option<crate::scenario::Scenario> {
        crate::scenario::load(layers, rosters?, &self.scenario)
            .ok()
            .map(|l| l.scenario)
    }

    /// The game as the script host makes it from `layers` and their `rosters` (`None`: the names and
    /// length as given), its hero policy `policy`.
    pub fn new_game_of(
        &self,
        layers: &[PathBuf],
        rosters: Option<&Rosters>,
        policy: &str,
    ) -> NewGame {
        NewGame {
            seed: self.seed,
            length: self.length_of(layers, rosters),
            heroes: self.party_of(rosters),
            preset: self.preset_of(layers, rosters),
            scenario: self.scenario.clone(),
            variants: self.variants.variants.clone(),
            policy: policy.to_string(),
        }
    }

    /// The game as the script host makes it from the rosters of `layers`, its hero policy `policy`.
    pub fn new_game(&self, layers: &[PathBuf], policy: &str) -> NewGame {
        self.new_game_of(layers, Rosters::load(layers).ok().as_ref(), policy)
    }
}

impl GameArgs {
    /// A run of `games` games from index `first`, on `jobs` threads, with the rosters and scripts of
    /// `layers`.
    pub fn sim_options(
        &self,
        layers: Vec<PathBuf>,
        games: u64,
        first: u64,
        jobs: usize,
    ) -> crate::sim::SimOptions {
        let rosters = Rosters::load(&layers).ok();
        crate::sim::SimOptions {
            games,
            first,
            seed: self.seed,
            heroes: self.party_of(rosters.as_ref()),
            length: self.length_of(&layers, rosters.as_ref()),
            preset: self.preset_of(&layers, rosters.as_ref()),
            scenario: self.scenario.clone(),
            variants: self.variants.variants.clone(),
            policy: self.policy.clone(),
            layers,
            jobs,
            decisions: false,
            audit: false,
        }
    }
}

/// The options of the REPL's `:new`: those of `village repl` that make its game (not `--mod`, `--data`
/// or `--history`, which belong to the session), with the same defaults.
#[derive(Parser, Debug)]
#[command(
    name = ":new",
    no_binary_name = true,
    disable_version_flag = true,
    about = "Start a new game in this session (the options not given take `village repl`'s defaults)"
)]
pub struct NewArgs {
    /// `village repl`'s own game options.
    #[command(flatten)]
    pub game: GameArgs,
}

impl NewArgs {
    /// The long option names `:new` takes (`--seed`, ...), for Tab completion.
    pub fn flags() -> Vec<String> {
        use clap::CommandFactory;
        NewArgs::command()
            .get_arguments()
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect()
    }
}
