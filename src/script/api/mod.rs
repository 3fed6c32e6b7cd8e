//! The public game API every script, scenario and the REPL see: the `village` global table and the
//! handles it returns. Names are stable (see scripts/types/village.lua for the reference).

pub mod convert;
pub mod game;
pub mod handles;
pub mod hooks;

use mlua::{Lua, Table};

/// Install the `village` global into a VM.
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let village: Table = lua.create_table()?;
    village.set("version", env!("CARGO_PKG_VERSION"))?;
    village.set(
        "new_game",
        lua.create_function(|lua, opts: Option<Table>| game::new_game(lua, opts))?,
    )?;
    village.set(
        "profiles",
        lua.create_function(|lua, ()| {
            let r = crate::script::host::host(lua)?.rosters()?;
            Ok(r.profiles
                .iter()
                .map(|p| p.name.clone())
                .collect::<Vec<_>>())
        })?,
    )?;
    lua.globals().set("village", village)?;
    Ok(())
}
