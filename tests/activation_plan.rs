//! The hero policy's plan for an activation (`Hooks::policy_plan`, src/wave/activation_plan.rs), played
//! through the kernel with a Rust stand-in for the policy: asked once for the orders of the activation
//! and not again while they hold; asked again when an order is refused or a fact the plan rested on
//! changes (here: the model becomes Engaged); nothing more after an empty plan; and a policy without a
//! plan (or with none this time) asked its per-action `act` for each action, as before.

mod common;

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use village::roster::Rosters;
use village::rules::hooks::{Aim, Hooks, Order};
use village::rules::HookError;
use village::state::{Game, ModelId};
use village::wave::act::ActionReport;
use village::wave::turn::policy_actions;

/// A hero policy in Rust: its plans, handed out in turn (`None`: no plan), and its per-action `act`
/// order; counts what it was asked.
struct Planner {
    plans: RefCell<VecDeque<Option<Vec<Order>>>>,
    act: Option<Order>,
    plans_asked: Cell<usize>,
    acts_asked: Cell<usize>,
}

impl Planner {
    fn new(plans: Vec<Option<Vec<Order>>>, act: Option<Order>) -> Self {
        Planner {
            plans: RefCell::new(plans.into()),
            act,
            plans_asked: Cell::new(0),
            acts_asked: Cell::new(0),
        }
    }
}

impl Hooks for Planner {
    core_traits!();
    fn policy_plan(&self, _: &mut Game, _: ModelId) -> Result<Option<Vec<Order>>, HookError> {
        self.plans_asked.set(self.plans_asked.get() + 1);
        Ok(self
            .plans
            .borrow_mut()
            .pop_front()
            .unwrap_or(Some(Vec::new())))
    }
    fn policy_order(&self, _: &mut Game, _: ModelId) -> Result<Option<Order>, HookError> {
        self.acts_asked.set(self.acts_asked.get() + 1);
        Ok(self.act.clone())
    }
}

/// A hero and an Orc Warrior `apart` inches away on the empty table, the hero Active.
fn hero_and_orc(apart: f64) -> (Rosters, Game, ModelId, ModelId) {
    let (r, mut g) = common::setup();
    let hero = common::place(&r, &mut g, "Captain Maren", 10.0, 18.0);
    let orc = common::place(&r, &mut g, "Orc Warrior", 10.0 + apart, 18.0);
    (r, g, hero, orc)
}

fn moved(reports: &[ActionReport]) -> usize {
    reports
        .iter()
        .filter(|r| matches!(r, ActionReport::Moved { .. }))
        .count()
}

fn lost(reports: &[ActionReport]) -> usize {
    reports
        .iter()
        .filter(|r| matches!(r, ActionReport::Lost { .. }))
        .count()
}

#[test]
fn a_plan_is_asked_once_and_carried_out_while_it_holds() {
    // Far out of reach: three moves toward the Orc, none of them reaching it. One call for three actions.
    let (r, mut g, hero, orc) = hero_and_orc(30.0);
    let toward = Order::Move(Aim::Model(orc));
    let p = Planner::new(vec![Some(vec![toward.clone(); 3])], None);
    let reports = policy_actions(&mut g, &r, &p, hero, 3).unwrap();
    assert_eq!(moved(&reports), 3, "{reports:?}");
    assert_eq!(p.plans_asked.get(), 1, "one plan for the activation");
    assert_eq!(
        p.acts_asked.get(),
        0,
        "a policy that plans is not asked its act"
    );
}

#[test]
fn a_refused_order_breaks_the_plan_and_the_policy_is_asked_again() {
    // A melee attack on an enemy out of contact is refused (the action lost): the rest of that plan is
    // dropped and the policy asked again, which then moves.
    let (r, mut g, hero, orc) = hero_and_orc(30.0);
    let strike = Order::Melee(orc);
    let toward = Order::Move(Aim::Model(orc));
    let p = Planner::new(
        vec![
            Some(vec![strike, toward.clone(), toward.clone()]),
            Some(vec![toward.clone(), toward]),
        ],
        None,
    );
    let reports = policy_actions(&mut g, &r, &p, hero, 3).unwrap();
    assert_eq!(lost(&reports), 1, "{reports:?}");
    assert_eq!(moved(&reports), 2, "{reports:?}");
    assert_eq!(
        p.plans_asked.get(),
        2,
        "asked again after the refused order"
    );
}

#[test]
fn a_plan_is_asked_again_once_the_model_is_engaged() {
    // 3" apart: the first move reaches contact. The plan rested on the hero not being Engaged, so the
    // policy is asked again before the second action instead of moving on.
    let (r, mut g, hero, orc) = hero_and_orc(3.0);
    let toward = Order::Move(Aim::Model(orc));
    let p = Planner::new(
        vec![
            Some(vec![toward.clone(), toward]),
            Some(vec![Order::Melee(orc)]),
        ],
        None,
    );
    let reports = policy_actions(&mut g, &r, &p, hero, 2).unwrap();
    assert_eq!(moved(&reports), 1, "{reports:?}");
    assert!(
        matches!(reports.get(1), Some(ActionReport::Melee { .. })),
        "the new plan's strike: {reports:?}"
    );
    assert_eq!(p.plans_asked.get(), 2);
}

#[test]
fn an_empty_plan_is_nothing_more_this_activation() {
    let (r, mut g, hero, _) = hero_and_orc(30.0);
    let p = Planner::new(vec![Some(Vec::new())], None);
    let reports = policy_actions(&mut g, &r, &p, hero, 3).unwrap();
    assert_eq!(moved(&reports), 0, "{reports:?}");
    assert_eq!(
        p.plans_asked.get(),
        1,
        "not asked again while nothing changed"
    );
    assert_eq!(p.acts_asked.get(), 0);
}

#[test]
fn no_plan_leaves_every_action_to_the_per_action_act() {
    // The old contract: a policy with no plan (or none this activation) is asked its act for each
    // action, and the plan is not asked again in that activation.
    let (r, mut g, hero, orc) = hero_and_orc(30.0);
    let p = Planner::new(vec![None], Some(Order::Move(Aim::Model(orc))));
    let reports = policy_actions(&mut g, &r, &p, hero, 3).unwrap();
    assert_eq!(moved(&reports), 3, "{reports:?}");
    assert_eq!(p.plans_asked.get(), 1);
    assert_eq!(p.acts_asked.get(), 3, "act is asked for each action");
}
