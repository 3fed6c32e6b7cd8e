//! Carrying out the hero policy's plan for an activation: a policy that plans (`Hooks::policy_plan`) is
//! asked once for the orders of the rest of an activation, and asked again only when the plan runs out
//! or breaks — an order of it refused (the action lost), or a fact it rested on changed: the model hurt,
//! held or freed (its Wounds, conditions or items), Engaged or no longer, a model removed from the table
//! (a target gone), a token taken or dropped. A move it made is not such a change: carrying the plan out
//! moves the model. A policy that does not plan, or answers that it has no plan this time, is asked its
//! `act` for each action (`Hooks::policy_order`), as before. (Not the wave's `WavePlan`: that is what a
//! wave brings.)

use super::act::{ActionReport, Step};
use crate::roster::Rosters;
use crate::rules::hooks::{Hooks, Order};
use crate::rules::RuleError;
use crate::state::{Condition, Game, ModelId};
use std::cell::RefCell;
use std::collections::VecDeque;

/// What a plan for one model rests on: when any of it differs before an action, the policy is asked
/// again.
#[derive(Debug, PartialEq)]
struct Mark {
    wounds: u8,
    conditions: Vec<Condition>,
    items: usize,
    engaged: bool,
    models: usize,
    tokens: usize,
}

impl Mark {
    fn of(game: &Game, rosters: &Rosters, id: ModelId) -> Result<Self, RuleError> {
        let m = game.model(id)?;
        Ok(Mark {
            wounds: m.wounds,
            conditions: m.conditions.clone(),
            items: m.items.len(),
            engaged: crate::rules::query::is_engaged(game, &rosters.rules, id),
            models: game.models.len(),
            tokens: game.tokens.len(),
        })
    }
}

/// One model's plan while its actions are taken.
#[derive(Debug)]
struct State {
    /// The policy plans (until it answers that it does not: it has no `plan`, or its `plan` gave nil,
    /// and its `act` decides the rest of the activation).
    plans: bool,
    /// The orders still to carry out.
    queue: VecDeque<Order>,
    /// What the plan rests on, as it was when it was made (none before the first).
    mark: Option<Mark>,
    /// The plan was empty: nothing more this activation, until a fact changes.
    ended: bool,
    /// The last step was an order of the plan (so a lost action means the plan broke).
    ordered: bool,
}

/// The plan of one model's activation: [`Planner::next`] gives each action's step.
#[derive(Debug)]
pub struct Planner(RefCell<State>);

impl Default for Planner {
    fn default() -> Self {
        Planner(RefCell::new(State {
            plans: true,
            queue: VecDeque::new(),
            mark: None,
            ended: false,
            ordered: false,
        }))
    }
}

impl Planner {
    /// The next step of model `id`'s plan, asking the policy for a new plan when there is none yet, the
    /// last ran out, or it broke; `last` is the report of the action before. `None` when the policy does
    /// not plan, or gave no plan this activation: the caller asks its `act`.
    pub fn next(
        &self,
        game: &mut Game,
        rosters: &Rosters,
        hooks: &dyn Hooks,
        id: ModelId,
        last: Option<&ActionReport>,
    ) -> Result<Option<Step>, RuleError> {
        {
            let mut st = self.0.borrow_mut();
            if !st.plans {
                return Ok(None);
            }
            let refused = st.ordered && matches!(last, Some(ActionReport::Lost { .. }));
            // The mark is taken only once there is a plan to hold (a policy that does not plan pays
            // nothing for it).
            let holds = match &st.mark {
                Some(mark) if !refused => *mark == Mark::of(game, rosters, id)?,
                _ => false,
            };
            // The next order, or, after an empty plan, nothing more.
            if holds && (!st.queue.is_empty() || st.ended) {
                return Ok(Some(st.step()));
            }
        }
        // Asked with no borrow held: the policy's script runs meanwhile.
        let Some(orders) = hooks.policy_plan(game, id)? else {
            self.0.borrow_mut().plans = false;
            return Ok(None);
        };
        let mark = Mark::of(game, rosters, id)?;
        let mut st = self.0.borrow_mut();
        st.mark = Some(mark);
        st.queue = orders.into();
        st.ended = st.queue.is_empty();
        Ok(Some(st.step()))
    }
}

impl State {
    /// The plan's next order (a [`Step::Planned`] while more follow it), or, with none left, an action
    /// lost for want of one.
    fn step(&mut self) -> Step {
        match self.queue.pop_front() {
            Some(order) => {
                self.ordered = true;
                if self.queue.is_empty() {
                    Step::Order(order)
                } else {
                    Step::Planned(order)
                }
            }
            None => {
                self.ordered = false;
                nothing()
            }
        }
    }
}

/// The step of an action the policy gives no order for (by its plan or its `act`).
pub(super) fn nothing() -> Step {
    Step::Done(ActionReport::Lost {
        why: "the policy ordered nothing".into(),
    })
}
