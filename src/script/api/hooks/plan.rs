//! The hero policy's plan: a policy that defines `plan(ctx, self)` is asked once for the orders of the
//! rest of a model's activation, which the kernel carries out in order, asking again only when the plan
//! runs out or breaks (`wave::activation_plan` says when). A policy without `plan`, or whose `plan`
//! gives nil, is asked its `act` for each action, as before.

use super::answers::plan_of;
use super::*;

impl ScriptHooks<'_> {
    /// The orders the policy's `plan` gives for the rest of `model`'s activation (`None`: the policy
    /// defines no `plan`, or its `plan` gave nil). Each is checked as an `act` order is; explained, the
    /// plan is kept as one decision naming every order.
    pub(super) fn plan_of_policy(
        &self,
        game: &mut Game,
        model: ModelId,
    ) -> Result<Option<Vec<Order>>, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(None);
        };
        let Some(f) = module.function("plan") else {
            return Ok(None);
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        let (called, notes) = self.noting(game, module, |game| {
            self.call_module_act::<(Value, Value)>(
                game, model, module, None, f, &intents, &arg, None,
            )
        });
        let (v, why) = called?;
        let why = decisions::returned_reason(module, "plan", why, notes.is_some())?;
        let r = self.reader(module, "plan");
        let Some(orders) = plan_of(&r, self.lua, &v)? else {
            return Ok(None);
        };
        for o in &orders {
            o.check_input(&game.table).map_err(|e| r.bad(e))?;
        }
        if let Some(notes) = notes {
            let chose = if orders.is_empty() {
                "nothing more this activation".to_string()
            } else {
                orders
                    .iter()
                    .map(|o| crate::rules::words::order_words(game, o))
                    .collect::<Vec<_>>()
                    .join(", then ")
            };
            let by = self.policy_name();
            self.record_decision(
                game,
                module,
                f,
                Some(model),
                by,
                Decides::Plan,
                chose,
                why,
                notes,
            );
        }
        Ok(Some(orders))
    }
}
