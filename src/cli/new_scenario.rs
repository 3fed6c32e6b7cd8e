//! `village new-scenario DIR NAME`: scaffold a scenario and its victory script in a mod folder
//! (`DIR/scenarios/NAME.toml`, `DIR/scripts/victory/NAME.lua`) that `check`, `play`, `sim` and the
//! REPL accept at once: a field with a zone for each side, two fixed Groups (one arriving later), an
//! objective scored each round, a round limit decided by Victory Points, and a script that ends the
//! game early. Every key is commented; docs/rosters.md and docs/scripting.md have the whole format.

use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;

/// The scenario file, `{name}` standing for the scenario's name.
const SCENARIO: &str = r#"# {name}: a scenario made by `village new-scenario`. Play it with
#   village play --auto --mod DIR --scenario {name}
# Every key is described in docs/rosters.md ("scenarios"); delete what you do not need.
name = "{name}"
description = "A skirmish at the old well: hold it for eight rounds."
# Each wave (here the one battle) ends at the end of this round.
rounds = 8
# The Escalation the battle is fought at: from II, Igniters may set buildings on fire.
escalation = "II"
# scripts/victory/{name}.lua: asked where the game can end.
victory = "{name}"
# No village: the heroes deploy in their zone.
buildings = []

[table]
width = 36.0
height = 36.0
terrain = [
  { kind = "wood", area = [[5.0, 20.0], [11.0, 19.0], [12.0, 25.0], [6.0, 26.0]] },
  { kind = "hill", area = [[24.0, 12.0], [30.0, 12.0], [30.0, 17.0], [24.0, 17.0]] },
  { kind = "wall", line = [[14.0, 22.0], [21.0, 22.0]] },
]

# The party: `size` heroes of --heroes (or `heroes = [...]`, a fixed party), and Village Defenders.
[party]
size = 3
defenders = ["Village Archer"]

[[zones]]
name = "the camp"
side = "heroes"
rect = [[12.0, 2.0], [24.0, 8.0]]

[[zones]]
name = "the ridge"
side = "enemies"
rect = [[8.0, 30.0], [28.0, 35.0]]

# Fixed enemy Groups: with these the game is one battle, not escalating waves.
[[groups]]
models = ["Orc Warrior", "Orc Warrior", "Orc Warrior"]
behaviour = "Hunter"
zone = "the ridge"

[[groups]]
models = ["Dire Wolf", "Dire Wolf"]
edge = "east"
round = 3

# Held by the side with a base within Short of it and no enemy base there; 1 VP each round.
[[objectives]]
name = "the old well"
point = [18.0, 18.0]
vp = 1
each_round = true

# Besides the rulebook's losses (the village overrun): every enemy removed wins...
[[conclusions]]
when = "enemies_removed"
result = "win"

# ...and at the round limit the side with more VP wins.
[[conclusions]]
when = "round_limit"
result = "vp"
"#;

/// The victory script.
const VICTORY: &str = r#"-- The victory script of scenarios/{name}.toml: `on_victory_check` is asked after each side's turn
-- and at the round limit. Return "win", "loss" or "draw" with a reason to end the game, or nil to
-- play on; ctx:vp, ctx:objectives and ctx:award_vp read and score the battle (docs/api.md).
return {
	on_victory_check = function(ctx, check)
		if check.turn ~= "enemies" then
			return nil
		end
		-- Holding the well at the end of round 6 or later with a lead of 4 VP ends it early.
		if check.round >= 6 and ctx:vp("heroes") - ctx:vp("enemies") >= 4 then
			return "win", "the well is ours"
		end
		return nil
	end,
}
"#;

/// Write the scenario `name` and its victory script into the mod folder `dir` (made if missing),
/// refusing a name that is not a plain word or files that exist.
pub fn run(dir: &Path, name: &str) -> Result<ExitCode> {
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if !plain {
        bail!(
            "{name:?} is not a scenario name: use lower-case letters, digits and _ (it names the \
             file scenarios/NAME.toml and `--scenario NAME`)"
        );
    }
    let files = [
        (
            dir.join("scenarios").join(format!("{name}.toml")),
            SCENARIO.replace("{name}", name),
        ),
        (
            dir.join("scripts/victory").join(format!("{name}.lua")),
            VICTORY.replace("{name}", name),
        ),
    ];
    for (path, _) in &files {
        if path.exists() {
            bail!(
                "{} exists: new-scenario writes only new files, so nothing of yours is overwritten; \
                 choose another name",
                path.display()
            );
        }
    }
    outln!("Created the scenario {name} in {}:", dir.display());
    for (path, text) in &files {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow::anyhow!("creating {}: {e}", parent.display()))?;
        }
        super::write_file(path, text.as_bytes())?;
        outln!("  {}", path.display());
    }
    let d = dir.display();
    outln!();
    outln!("Try:");
    outln!("  village check --mod {d}                       # the scenario checked");
    outln!("  village play --auto --mod {d} --scenario {name}");
    outln!("  village sim --games 200 --mod {d} --scenario {name}");
    outln!("  village repl --mod {d} --scenario {name}      # edit the victory script: it reloads");
    Ok(ExitCode::SUCCESS)
}
