//! The hero policy's per-model answers: asking its `activate`, `act` or `plan`
//! ([`ScriptHooks::ask_policy`]), and reading the plan: a policy that defines `plan(ctx, self)` is asked
//! once for the orders of the rest of a model's activation, which the kernel carries out in order,
//! asking again only when the plan runs out or breaks (`wave::activation_plan` says when). A policy
//! without `plan`, or whose `plan` gives nil, is asked its `act` for each action, as before.

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
        let Some(answer) = self.ask_policy(game, model, "plan")? else {
            return Ok(None);
        };
        let r = self.reader(answer.module, "plan");
        let Some(orders) = plan_of(&r, self.lua, &answer.value)? else {
            return Ok(None);
        };
        for o in &orders {
            o.check_input(&game.table).map_err(|e| r.bad(e))?;
        }
        answer.record(self, game, model, Decides::Plan, |game| {
            if orders.is_empty() {
                "nothing more this activation".to_string()
            } else {
                orders
                    .iter()
                    .map(|o| crate::rules::words::order_words(game, o))
                    .collect::<Vec<_>>()
                    .join(", then ")
            }
        });
        Ok(Some(orders))
    }

    /// Ask the hero policy's per-model entry point `entry` (`activate`, `act` or `plan`) about `model`:
    /// what it returned and its reason, with the notes kept while the decision is explained. `None`
    /// when the policy does not define it.
    pub(super) fn ask_policy(
        &self,
        game: &mut Game,
        model: ModelId,
        entry: &str,
    ) -> Result<Option<PolicyAnswer<'_>>, HookError> {
        let Some(module) = self.policy_module() else {
            return Ok(None);
        };
        let Some(f) = module.function(entry) else {
            return Ok(None);
        };
        let intents = std::cell::RefCell::new(Vec::new());
        let arg = |_: &Lua, _: &Ctx| Ok(Value::Nil);
        let (called, notes) = self.noting(game, module, |game| {
            self.call_module_act::<(Value, Value)>(
                game, model, module, None, f, &intents, &arg, None,
            )
        });
        let (value, why) = called?;
        let why = decisions::returned_reason(module, entry, why, notes.is_some())?;
        Ok(Some(PolicyAnswer {
            module,
            f,
            value,
            why,
            notes,
        }))
    }
}

/// What the hero policy's `activate`, `act` or `plan` answered ([`ScriptHooks::ask_policy`]).
pub(super) struct PolicyAnswer<'m> {
    pub module: &'m Module,
    pub f: &'m mlua::Function,
    /// The order or plan, as returned.
    pub value: Value,
    /// Its reason (kept only while explained).
    pub why: Option<String>,
    /// The notes kept while the decision is explained.
    pub notes: Option<Vec<decisions::Note>>,
}

impl PolicyAnswer<'_> {
    /// Keep the decision it made, when it is explained: `chose` words what it chose.
    pub(super) fn record(
        self,
        hooks: &ScriptHooks,
        game: &mut Game,
        model: ModelId,
        decides: Decides,
        chose: impl FnOnce(&Game) -> String,
    ) {
        if let Some(notes) = self.notes {
            let chose = chose(game);
            hooks.record_decision(
                game,
                self.module,
                self.f,
                Some(model),
                hooks.policy_name(),
                decides,
                chose,
                self.why,
                notes,
            );
        }
    }
}
