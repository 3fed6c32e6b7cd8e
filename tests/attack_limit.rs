//! One melee or ranged attack per turn (core §3.2), counted by the turn engine (`wave::act::execute`):
//! the second attack order in a turn is refused with the reason and changes nothing, also in a later
//! activation of the same turn (a re-nominated model, §3.1); the side's next turn starts the count afresh,
//! and a new activation (alone or in a Group) resets each member's moves.

mod common;

use common::{place, setup, Core};
use village::rules::activation::{activate, activate_group, begin_turn};
use village::rules::hooks::Order;
use village::rules::RuleError;
use village::wave::act::execute;

#[test]
fn a_second_attack_in_one_activation_is_refused_and_changes_nothing() {
    let (r, mut g) = setup();
    let bram = place(&r, &mut g, "Bram the Smith", 22.5, 18.0);
    let orc = place(&r, &mut g, "Orc Warrior", 23.5, 18.0);
    g.dice.force([6, 6, 2, 1]).unwrap();
    activate(&mut g, &r.rules, &Core, orc, 2).unwrap();
    execute(&mut g, &r, &Core, orc, Order::Melee(bram)).unwrap();
    assert_eq!(g.model(orc).unwrap().attacks, 1);
    let before = g.log().len();
    let err = execute(&mut g, &r, &Core, orc, Order::Melee(bram)).unwrap_err();
    assert!(matches!(err, RuleError::NotAllowed(..)), "{err}");
    assert!(
        err.to_string()
            .contains("one melee or ranged attack per turn"),
        "{err}"
    );
    assert_eq!(g.log().len(), before, "nothing rolled, nothing logged");
    // A second activation in the same turn (re-nominated) still has its attack spent.
    g.dice.force([6, 6]).unwrap();
    activate(&mut g, &r.rules, &Core, orc, 2).unwrap();
    assert_eq!(g.model(orc).unwrap().attacks, 1);
    let before = g.log().len();
    let err = execute(&mut g, &r, &Core, orc, Order::Melee(bram)).unwrap_err();
    assert!(matches!(err, RuleError::NotAllowed(..)), "{err}");
    assert_eq!(g.log().len(), before);
    // The side's next turn starts afresh.
    let side = g.model(orc).unwrap().side;
    begin_turn(&mut g, side);
    g.dice.force([6, 6, 1, 1]).unwrap();
    activate(&mut g, &r.rules, &Core, orc, 2).unwrap();
    assert_eq!(g.model(orc).unwrap().attacks, 0);
    execute(&mut g, &r, &Core, orc, Order::Melee(bram)).unwrap();
}

#[test]
fn every_member_of_a_group_activation_starts_its_moves_afresh() {
    // Found in stalled games: only the member that rolled was reset, so a Slow Zombie further down its
    // Group could never move again after its first move.
    let (r, mut g) = setup();
    let a = place(&r, &mut g, "Zombie", 3.0, 3.0);
    let b = place(&r, &mut g, "Zombie", 5.0, 3.0);
    for id in [a, b] {
        let m = g.model_mut(id).unwrap();
        m.moves = 1;
        m.charged = true;
    }
    g.dice.force([6, 6]).unwrap();
    activate_group(&mut g, &r.rules, &Core, None, &[a, b], 2).unwrap();
    for id in [a, b] {
        let m = g.model(id).unwrap();
        assert_eq!((m.moves, m.charged), (0, false), "{}", m.id.0);
    }
}
