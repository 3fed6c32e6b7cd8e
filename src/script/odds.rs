//! The script host's side of `village odds` by profile name: a scratch game made the way
//! `village.new_game{ table = "empty", variants = ... }` makes one (no party, the variants' rule
//! constants), and each try of the enumeration run with that game's script hooks, their module state
//! fresh for the try (`Host::fresh_registry`), so one try's script variables cannot leak into the next.
//!
//! Owns the Lua-facing half only. The enumeration, where the models stand and every rule are the
//! kernel's (`odds::kernel`); this file never decides a result.

use super::api;
use super::error::ScriptError;
use super::host::host;
use super::session::ScriptHost;
use crate::odds::kernel::{OddsError, Trials, Try};
use crate::roster::Rosters;
use mlua::Lua;
use std::rc::Rc;

/// [`Trials`] on a game of the script host, resolved with its scripts.
struct ScriptTrials<'a> {
    lua: &'a Lua,
    core: Rc<api::game::Core>,
}

impl Trials for ScriptTrials<'_> {
    fn rosters(&self) -> &Rosters {
        self.core.rosters_with_rules()
    }

    fn run(&mut self, f: &mut Try<'_>) -> Result<(), OddsError> {
        let host_err = |e: String| OddsError::Host(e);
        let h = host(self.lua).map_err(|e| host_err(e.to_string()))?;
        let registry = h
            .fresh_registry(self.lua)
            .map_err(|e| host_err(e.headline()))?;
        let hooks = api::hooks::ScriptHooks::new(self.lua, &self.core, registry);
        // `math.random` draws on the VM's own stream, not on the game's dice: a script using it in the
        // resolution has a chance no forced face covers.
        let before = h.dice.borrow().stream_position();
        let out = {
            let mut game =
                self.core.game.try_borrow_mut().map_err(|_| {
                    host_err("the scratch game is busy: a script holds it".to_string())
                })?;
            f(&mut game, self.core.rosters_with_rules(), &hooks)
        };
        if h.dice.borrow().stream_position() != before {
            return Err(host_err(
                "a script drew on math.random during the resolution: that chance is not a die the \
                 kernel rolls, so the odds cannot be counted exactly"
                    .to_string(),
            ));
        }
        out
    }
}

impl ScriptHost {
    /// Hand `f` a scratch game for odds by profile name: an empty table, no party, the rule
    /// constants of `preset` and `variants`, every try resolved with the scripts of this host's layers.
    pub fn odds_trials<T>(
        &self,
        preset: &str,
        variants: &[String],
        f: impl FnOnce(&mut dyn Trials) -> Result<T, OddsError>,
    ) -> Result<T, OddsError> {
        let lua = self.vm().lua();
        let headline = |e: mlua::Error| OddsError::Host(ScriptError::from_lua(e).headline());
        let opts = lua.create_table().map_err(headline)?;
        opts.set("table", "empty").map_err(headline)?;
        opts.set("preset", preset).map_err(headline)?;
        opts.set("variants", variants.to_vec()).map_err(headline)?;
        let handle = api::new_game::new_game(lua, Some(opts)).map_err(headline)?;
        let mut trials = ScriptTrials {
            lua,
            core: handle.0.clone(),
        };
        f(&mut trials)
    }
}
