//! `village new-mod DIR`: scaffold a mod folder that `check`, `run` and `play` accept at once — a new
//! trait with its script, an enemy carrying it (with a built-in Behaviour), and a scenario showing it.
//!
//! The files are commented examples of the formats in docs/scripting.md; the names (Shield Bearer,
//! Goblin Shieldbearer) are the example's, for the designer to rename.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A file of the scaffold: its path inside the mod and its text.
const FILES: &[(&str, &str)] = &[
    (
        "rosters/traits.toml",
        r#"# Traits this mod adds (or replaces: an entry with a built-in name replaces it). The fields are
# those of the built-in rosters/traits.toml: `cost` is the Wave Point cost (SUPPLEMENT §8), `script`
# the Lua file under scripts/ that gives the trait its effect, `params` the numbers the script reads as
# ctx.params, so that no number is written in Lua.
[[trait]]
name = "Shield Bearer"
cost = 3
text = "+1 Combat when attacked in melee."
script = "traits/shield_bearer.lua"
params = { bonus = 1 }
"#,
    ),
    (
        "rosters/bestiary.toml",
        r#"# Enemies this mod adds to the Bestiary; the wave builder may pick them like the built-in ones.
# `traits` and `behaviours` name entries of any layer (Hunter is built in: rosters/behaviours.toml).
# Without `wave_points` the cost is the formula's; `village check --mod` prints it.
[[enemy]]
name = "Goblin Shieldbearer"
tier = "mob"
quality = 4
combat = 2
traits = ["Shield Bearer"]
behaviours = ["Hunter"]
"#,
    ),
    (
        "scripts/traits/shield_bearer.lua",
        r#"-- Shield Bearer (rosters/traits.toml): when its owner is attacked in melee, +params.bonus to its
-- total. A script returns a table of entry points; which ones a trait may have is in docs/api.md
-- ("Script modules"). Returning nil means "nothing to add".
return {
	melee_modifier = function(ctx, self, roll)
		if roll.role ~= "defender" then
			return nil -- it attacks: no bonus
		end
		return { value = ctx.params.bonus, reason = "Shield Bearer" }
	end,
}
"#,
    ),
    (
        "tests/shield_bearer.lua",
        r#"-- A scenario for `village run --mod DIR DIR/tests/shield_bearer.lua`: one melee with forced dice (the
-- attacker's die, then the defender's), and an assert that the trait added its bonus.
local inspect = require("lib.inspect")
local SCRIPT = "traits/shield_bearer.lua"

local g = village.new_game({ seed = 1, table = "empty" })
local goblin = g:place("Goblin Shieldbearer", { x = 10, y = 10 })
local maren = g:place("Captain Maren", { x = 11, y = 10 }) -- in base contact

g:force_dice({ 3, 3 })
local r = g:melee(maren, goblin)
print(
	string.format("%s %d vs %s %d: %s", maren.name, r.attacker_total, goblin.name, r.defender_total, r.result)
)
for _, m in ipairs(r.modifiers) do
	print(string.format("  %+d to the %s: %s (%s)", m.value, m.to, m.reason, m.source))
end
local mods = inspect.modifiers_from(r, SCRIPT)
assert(#mods == 1 and mods[1].to == "defender", "one Shield Bearer bonus for the defender")
print("Shield Bearer works")
"#,
    ),
];

/// Create the scaffold in `dir`, refusing a folder that has anything in it.
pub fn run(dir: &Path) -> Result<ExitCode> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir)
            .with_context(|| format!("{} exists and is not a readable folder", dir.display()))?;
        if entries.next().is_some() {
            bail!(
                "{} is not empty: new-mod only creates a new folder (or fills an empty one), so nothing \
                 of yours is overwritten; choose another name",
                dir.display()
            );
        }
    }
    let mut created: Vec<PathBuf> = Vec::new();
    for (rel, text) in FILES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        super::write_file(&path, text.as_bytes())?;
        created.push(path);
    }
    outln!("Created the mod {}:", dir.display());
    for path in &created {
        outln!("  {}", path.display());
    }
    let d = dir.display();
    outln!();
    outln!("Try:");
    outln!("  village check --mod {d}        # the new trait and enemy with their Wave Points");
    outln!("  village run --mod {d} {d}/tests/shield_bearer.lua   # the scenario");
    outln!("  village play --auto --mod {d}  # a whole game with the mod");
    outln!(
        "Then rename the examples; docs/scripting.md (in the village repository) explains every hook."
    );
    Ok(ExitCode::SUCCESS)
}
