//! A Behaviour that declares `universal = true`: its actions decided by the kernel's universal priority
//! (`wave::universal`, §6.2) with no call into Lua, and kept as a decision as its `act` would have been
//! (same order, same reason, the same script and line); where the rule needs a script, its `act` is
//! called as before.

use super::*;
use crate::wave::universal::{universal_act, Universal};

impl ScriptHooks<'_> {
    /// The order of one action of `model` toward `aim` when the kernel can decide it (`None`: call the
    /// Behaviour's `act`). `f` is that `act`, named by the decision as if it had been called.
    pub(super) fn universal_order(
        &self,
        game: &mut Game,
        model: ModelId,
        aim: &Aim,
        module: &Module,
        f: &mlua::Function,
    ) -> Result<Option<Option<Order>>, HookError> {
        let offers = match game.model(model) {
            Ok(me) => self.modules_with_actions(me),
            Err(_) => return Ok(None),
        };
        let decided =
            universal_act(game, self.rosters(), self, model, aim, offers).map_err(|e| match e {
                RuleError::Hook(h) => h,
                other => hook_err(other),
            })?;
        let Universal::Decided(order, why) = decided else {
            return Ok(None);
        };
        if game.explains() {
            let why = Some(why.to_string());
            self.record_behaviour_action(game, module, f, model, &order, why, Vec::new());
        }
        Ok(Some(order))
    }
}
