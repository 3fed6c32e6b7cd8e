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
            universal_act(game, self.rosters(), self, model, aim, offers).map_err(hook_error)?;
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

impl ScriptHooks<'_> {
    /// The target of `model` chosen by its Behaviour's declared `steps` (`targets`, §6.3), when the
    /// kernel can choose it (`None`: call the Behaviour's `target`). A `fallback` step asks the roster
    /// entry's `fallback_behaviour`, natively when it declares its steps too (`depth` bounds a chain of
    /// fallbacks; past it, the scripts decide).
    pub(super) fn declared_target(
        &self,
        game: &mut Game,
        model: ModelId,
        steps: &[crate::wave::targets::TargetStep],
        depth: u8,
    ) -> Result<Option<Option<Aim>>, HookError> {
        use crate::wave::targets::{choose, Chosen};
        let chosen = choose(game, model, steps).map_err(hook_error)?;
        if let Chosen::Target(aim) = chosen {
            return Ok(Some(aim));
        }
        // As `A.fallback` of scripts/lib/act.lua finds it: no fallback Behaviour, or one without a
        // script, is no target.
        let rosters = self.rosters();
        let fallback = game
            .model(model)
            .ok()
            .and_then(|m| m.behaviour.as_deref())
            .and_then(|name| rosters.behaviour(name))
            .and_then(|b| b.fallback_behaviour.as_deref())
            .and_then(|name| rosters.behaviour(name))
            .and_then(|b| b.script.as_deref());
        let Some(key) = fallback else {
            return Ok(Some(None));
        };
        match self.registry.get(key).and_then(|m| m.targets.as_deref()) {
            Some(steps) if depth < 4 => self.declared_target(game, model, steps, depth + 1),
            _ => Ok(None),
        }
    }
}

/// A rule's error as the hook's: a script's own error as it was, any other in words.
fn hook_error(e: RuleError) -> HookError {
    match e {
        RuleError::Hook(h) => h,
        other => hook_err(other),
    }
}
