//! Opportunities in the kernel (core §6.1, §7.1 step 4; SUPPLEMENT §7): a claim that costs more than one
//! action is a Task, the state an Opportunity leaves (pending rewards, items) survives a save, an old
//! save without it still loads, and an Ambush's spots keep their distance. The results themselves, run by
//! their scripts, are the Lua scenarios `tests/scenarios/opportunity_*.lua`.

mod common;

use common::{place, setup, Core};
use village::geometry::Vec2;
use village::rules::hooks::{Hooks, OpportunityCall, Reward};
use village::rules::HookError;
use village::state::{EventKind, Game, Item, PendingReward, TokenKind};
use village::wave::deploy::spots_near;
use village::wave::opportunity::claim;

/// The core traits, plus a Herb Patch whose "script" asks for one Herb token.
struct Herbs;

impl Hooks for Herbs {
    fn permission(
        &self,
        game: &Game,
        model: village::state::ModelId,
        name: &str,
    ) -> Result<Option<String>, HookError> {
        Core.permission(game, model, name)
    }

    fn opportunity(&self, _: &mut Game, call: &OpportunityCall) -> Result<Vec<Reward>, HookError> {
        Ok(vec![Reward::Herbs {
            amount: 1,
            source: format!("test {}", call.row.name),
        }])
    }
}

#[test]
fn a_claim_costing_two_actions_is_a_task_and_rolls_once_complete() {
    let (mut r, mut g) = setup();
    r.rules.actions.claim_opportunity = 2;
    let bram = place(&r, &mut g, "Bram the Smith", 10.0, 10.0);
    let tok = g.add_token(
        TokenKind::Opportunity { revealed: false },
        Vec2::new(10.5, 10.0),
    );
    g.dice.force([3]).unwrap();
    let first = claim(&mut g, &r, &Herbs, bram, tok).unwrap();
    assert_eq!((first.roll, first.done, first.needed), (None, 1, 2));
    assert_eq!(g.tokens.len(), 1, "still on the table");
    assert_eq!(g.herbs, 0);
    let second = claim(&mut g, &r, &Herbs, bram, tok).unwrap();
    assert_eq!(second.roll, Some(3));
    assert_eq!(second.result.as_deref(), Some("Herb Patch"));
    assert!(g.tokens.is_empty());
    assert_eq!(g.herbs, 1);
    let claimed = g
        .log()
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Claimed { source, .. } => Some(source.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        claimed, "opportunities/herb_patch.lua",
        "the row names its script"
    );
}

#[test]
fn a_wave_end_result_waits_in_the_state_and_survives_a_save() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 10.0, 10.0);
    let tok = g.add_token(
        TokenKind::Opportunity { revealed: false },
        Vec2::new(10.5, 10.0),
    );
    g.dice.force([2]).unwrap();
    claim(&mut g, &r, &Herbs, bram, tok).unwrap();
    assert_eq!(g.herbs, 0, "a wave-end result does not run on claiming");
    assert_eq!(
        g.rewards,
        vec![PendingReward {
            hero: bram,
            hero_name: "Bram the Smith".into(),
            roll: 2,
            result: "Supply Cache".into(),
        }]
    );
    g.model_mut(bram).unwrap().items.push(Item {
        name: "Relic Blade".into(),
        script: "opportunities/relic_blade.lua".into(),
        params: r.opportunity(6).unwrap().params.clone(),
    });
    let json = serde_json::to_string(&g).unwrap();
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back.rewards, g.rewards);
    assert_eq!(
        back.model(bram).unwrap().items,
        g.model(bram).unwrap().items
    );
    village::wave::play::end_of_wave(&mut g, &r, &Herbs).unwrap();
    assert!(g.rewards.is_empty(), "resolved at the End Sequence");
    assert_eq!(g.herbs, 1);
}

#[test]
fn a_save_without_opportunity_state_loads_empty() {
    let (r, mut g) = setup();
    place(&r, &mut g, "Bram the Smith", 10.0, 10.0);
    let mut v = serde_json::to_value(&g).unwrap();
    v.as_object_mut().unwrap().remove("rewards");
    for m in v["models"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("items");
    }
    let back: Game = serde_json::from_value(v).unwrap();
    assert!(back.rewards.is_empty() && back.models[0].items.is_empty());
}

#[test]
fn ambush_spots_are_within_reach_outside_contact_and_apart() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 10.0, 10.0);
    let at = Vec2::new(10.5, 10.0);
    let tol = r.rules.bases.contact_tolerance;
    let spots = spots_near(&g, at, 3.0, 0.5, 2, tol);
    assert_eq!(spots.len(), 2);
    let hero = g.model(bram).unwrap().circle();
    for p in &spots {
        assert!(p.dist(at) + 0.5 <= 3.0 + 1e-9, "wholly within Short");
        let c = village::geometry::Circle::new(*p, 0.5);
        assert!(village::geometry::circle_circle_gap(&hero, &c) > tol);
    }
    assert!(
        spots[0].dist(spots[1]) >= 1.0 - 1e-9,
        "the bases do not overlap"
    );
    // Deterministic: the same table gives the same spots.
    assert_eq!(spots, spots_near(&g, at, 3.0, 0.5, 2, tol));
    // A reach smaller than a base holds nothing.
    assert!(spots_near(&g, at, 0.4, 0.5, 2, tol).is_empty());
}
