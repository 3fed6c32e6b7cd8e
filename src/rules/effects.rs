//! Modifiers scripts granted for a while ([`crate::state::Effect`]: Captain Maren's Hold the Line), read
//! into the rolls they match. The kernel applies them so that every model's roll sees them, not only the
//! rolls of the model whose script granted them.

use crate::state::{EffectEnds, Game, Modifier, Role, RollInfo, Target};

/// The granted modifiers that apply to a melee or ranged roll: to the attacker's total when it is one of
/// an effect's models (and the target one it is against), and likewise to the defender's.
pub fn modifiers(game: &Game, info: &RollInfo) -> Vec<Modifier> {
    let Target::Model(defender) = info.target else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in &game.effects {
        for (me, them, to) in [
            (info.attacker, defender, Role::Attacker),
            (defender, info.attacker, Role::Defender),
        ] {
            if e.models.contains(&me) && (e.against.is_empty() || e.against.contains(&them)) {
                out.push(Modifier {
                    to,
                    value: e.value,
                    reason: e.reason.clone(),
                    source: e.source.clone(),
                });
            }
        }
    }
    out
}

/// Effects that last an activation end with it.
pub fn end_activation(game: &mut Game) {
    game.effects.retain(|e| e.ends != EffectEnds::Activation);
}
