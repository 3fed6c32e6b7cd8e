//! The public game API every script, scenario and the REPL see: the `village` global table and the
//! handles it returns. Names are stable and described in [`spec`], which every registration takes its
//! names from (scripts/types/village.lua is generated from it: `village api --luals`).

pub mod answer;
pub mod constants;
pub mod convert;
pub(crate) mod fields;
pub mod game;
pub mod handles;
pub mod hooks;
pub mod new_game;
pub mod spec;

use mlua::{Lua, Table};

/// The name of a `village` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("village", member)
}

/// The card of the profile a person names (`village.profile(name)`, `m:profile()`), as a table: what
/// `village show --json` prints, with the sources of this VM's layers and its loaded scripts.
pub(crate) fn profile_card(lua: &Lua, name: &str) -> mlua::Result<mlua::Value> {
    use mlua::LuaSerdeExt as _;
    let h = crate::script::host::host(lua)?;
    let rosters = h.rosters()?;
    let name = rosters
        .resolve_profile(name)
        .map_err(|e| convert::fail(lua, e))?;
    // Each script root is a layer's scripts/ folder.
    let layers: Vec<std::path::PathBuf> = h
        .roots
        .iter()
        .filter_map(|r| r.dir.parent().map(std::path::Path::to_path_buf))
        .collect();
    let sources = crate::roster::sources(&layers);
    let card = crate::show::card(&rosters, &sources, &h.registry().facts(), &name)
        .ok_or_else(|| convert::fail(lua, format!("{name:?} is not a profile of the rosters")))?;
    lua.to_value(&card)
}

/// Install the `village` global into a VM.
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let village: Table = lua.create_table()?;
    village.set(api("version"), env!("CARGO_PKG_VERSION"))?;
    village.set(
        api("new_game"),
        lua.create_function(|lua, opts: Option<Table>| new_game::new_game(lua, opts))?,
    )?;
    village.set(
        api("profiles"),
        lua.create_function(|lua, ()| {
            let r = crate::script::host::host(lua)?.rosters()?;
            Ok(r.profiles
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>())
        })?,
    )?;
    village.set(
        api("profile"),
        lua.create_function(|lua, name: String| profile_card(lua, &name))?,
    )?;
    hooks::install(lua)?;
    // Shared by every script: read-only, like the standard library.
    let village = super::vm::freeze(lua, "`village`", village)?;
    lua.globals().set("village", village)
}
