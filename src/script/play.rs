//! Interactive play from the REPL: the player commands the heroes' side one activation and one order at
//! a time (`:activate Maren`, `:move Forge`, `:attack orc`, ...), and asks for the enemy turn, the End
//! Sequence and the Council. Each command runs the kernel's turn engine with the script hooks and
//! returns what happened in words (`state::describe`); an impossible order is refused with its reason
//! and costs nothing. The terminal and the `:command` parsing are `src/repl.rs`'s.

use super::api::hooks::ScriptHooks;
use super::host::host;
use super::repl::Repl;
use crate::geometry::Vec2;
use crate::names::count;
use crate::rules::hooks::{Aim, Hooks, Order};
use crate::state::{describe, Game, ModelId, Side, TokenKind, Transaction};
use crate::wave::act::ActionReport;

/// The activation being played, if any.
#[derive(Debug, Clone, Default)]
pub struct PlayState {
    active: Option<Active>,
    /// The last activation rolled two failures: the heroes' turn ends with it.
    turnover: bool,
    /// A Council Phase is open (after `:endwave`): `:buy` orders, `:council auto`.
    council: bool,
    /// A declaration of spellcasting waiting for its model's next `:activate` (`:cast NAME`, §3.7).
    declare: Option<ModelId>,
    /// The wave was won in this session and its End Sequence has not run: `:wave` waits for
    /// `:endwave`. (Session memory: after `:load` it is unknown, and `:wave` is allowed as before.)
    won: bool,
    /// The wave whose End Sequence ran in this session (`:endwave` once a wave).
    ended: u32,
}

/// An activation under way: the model giving orders now, its actions left, and the rest of its group.
#[derive(Debug, Clone)]
struct Active {
    model: ModelId,
    left: u8,
    /// Members of a Leader's group still to take their actions, in order.
    next: Vec<ModelId>,
    /// The actions each member of the activation has (one roll for all, §3.1).
    each: u8,
    /// Every model of the activation, the nominated one first.
    members: Vec<ModelId>,
    /// They stay Active when it ends: the roll failed exactly one die without a turnover.
    again: bool,
}

impl Active {
    /// The activation as the turn engine keeps it (`Game::underway`), at its current member.
    fn underway(&self, turnover: bool) -> crate::state::Underway {
        crate::state::Underway {
            members: self.members.clone(),
            successes: self.each,
            again: self.again,
            turnover,
            current: self
                .members
                .iter()
                .position(|m| *m == self.model)
                .unwrap_or(0),
        }
    }

    /// The next member of the group, or `None` when the activation is over.
    fn advance(mut self) -> Option<Active> {
        if self.next.is_empty() {
            return None;
        }
        self.model = self.next.remove(0);
        self.left = self.each;
        Some(self)
    }
}

/// A model of the table named by `text`: its id, or a case-insensitive part of its name (which must
/// name one model only).
fn find_model(game: &Game, text: &str, side: Option<Side>) -> Result<ModelId, String> {
    let t = text.trim().trim_start_matches('#');
    if let Ok(id) = t.parse::<u32>() {
        return game
            .model(ModelId(id))
            .map(|m| m.id)
            .map_err(|_| format!("no model {id} on the table"));
    }
    let low = t.to_lowercase();
    let found: Vec<&crate::state::Model> = game
        .models
        .iter()
        .filter(|m| side.is_none_or(|s| m.side == s))
        .filter(|m| m.name.to_lowercase().contains(&low))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.id),
        [] => Err(format!("no model called {t:?} on the table")),
        many => Err(format!(
            "{t:?} could be {} — give its number",
            many.iter()
                .map(|m| format!("{} ({})", m.name, m.id))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn find_building(game: &Game, text: &str) -> Option<String> {
    let low = text.trim().to_lowercase();
    game.buildings
        .iter()
        .find(|b| b.name.to_lowercase() == low || b.name.to_lowercase().starts_with(&low))
        .map(|b| b.name.clone())
}

/// The point (`x`, `y`) typed for `what`, when it is finite and on the table; the refusal names both.
fn table_point(game: &Game, what: &str, x: f64, y: f64) -> Result<Vec2, String> {
    crate::geometry::check::point_on(&game.table, what, Vec2::new(x, y)).map_err(|e| e.to_string())
}

/// Where a `:move` goes: `X Y`, a building or a model.
fn aim_of(game: &Game, text: &str) -> Result<Aim, String> {
    let parts: Vec<&str> = text.split_whitespace().collect();
    if let [x, y] = parts.as_slice() {
        if let (Ok(x), Ok(y)) = (x.parse::<f64>(), y.parse::<f64>()) {
            // `nan`, `inf` and off-table points are refused here, before any action is spent.
            return table_point(game, "X Y", x, y).map(Aim::Point);
        }
    }
    if let Some(b) = find_building(game, text) {
        return Ok(Aim::Building(b));
    }
    find_model(game, text, None).map(Aim::Model)
}

impl Repl {
    /// Run one play command (`name` without its colon, `arg` the rest of the line). `None` when `name`
    /// is not a play command; otherwise the text to show, or the refusal.
    pub fn play(&self, name: &str, arg: &str) -> Option<Result<String, String>> {
        let runs = crate::repl::commands::find(name).map(|c| c.runs);
        if runs != Some(crate::repl::commands::Runs::Play) {
            return None;
        }
        Some(self.play_command(name, arg))
    }

    fn play_command(&self, name: &str, arg: &str) -> Result<String, String> {
        let lua = self.lua();
        let core = self.core()?;
        let registry = host(lua).map_err(|e| e.to_string())?.registry();
        let hooks = ScriptHooks::new(lua, &core, registry);
        let rosters = core.rosters_with_rules();
        // A refused or failed command leaves the game as it was, its log included (a Behaviour that
        // errors halfway through `:enemies` does not keep the Group's roll, moves or Free Hack).
        let mut game = Transaction::begin(
            core.game
                .try_borrow_mut()
                .map_err(|_| "the game is busy".to_string())?,
        );
        let from = game.log().len();
        let mut state = self.play_state();
        let mut notes: Vec<String> = Vec::new();
        let err = |e: crate::rules::RuleError| e.to_string();
        // A lost game is over at the event that ended it (SUPPLEMENT §10): nothing more is played.
        if let Some(cause) = crate::wave::play::village_lost(&game, rosters) {
            if name != "status" {
                return Err(format!("the game is over: {}", cause.words()));
            }
        }
        // Turn commands need a wave under way: none before the first `:wave`, none while the Council
        // sits (they would report a won wave, or move heroes between waves).
        if !matches!(name, "wave" | "status" | "buy" | "council") {
            if game.wave == 0 {
                return Err("no wave has started: use :wave".into());
            }
            if state.council {
                return Err(
                    "the Council is open: :buy, :council auto, or :wave for the next wave".into(),
                );
            }
        }
        match name {
            "status" => {}
            "wave" => {
                // One wave at a time: starting another would stack its enemies on this one's.
                let enemies = game.side(Side::Enemies).count();
                if game.wave > 0 && enemies > 0 {
                    return Err(format!(
                        "wave {} is in progress ({enemies} enemies on the table): play it out \
                         (:activate, :heroes, :enemies), then :endwave, before the next :wave",
                        game.wave
                    ));
                }
                if state.won {
                    return Err(format!(
                        "wave {} is won but its End Sequence has not run: :endwave first",
                        game.wave
                    ));
                }
                // Starting a wave closes any open Council and any activation.
                let plan = crate::wave::play::start_wave(&mut game, rosters, &hooks, &core.length)
                    .map_err(|e| e.to_string())?;
                crate::rules::activation::begin_turn(&mut game, Side::Heroes);
                state = PlayState::default();
                notes.push(format!(
                    "Wave {} (Escalation {}): {} — round 1, the heroes' turn. :activate a hero.",
                    game.wave,
                    plan.escalation,
                    plan.groups
                        .iter()
                        .map(|g| format!(
                            "Group {} {} ({})",
                            g.number,
                            g.behaviour,
                            g.models.join(", ")
                        ))
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
            "activate" => {
                if let Some(a) = &state.active {
                    return Err(format!(
                        "{} is still active with {}: give its orders or :done",
                        label(&game, a.model),
                        count(a.left, "action", "actions")
                    ));
                }
                if state.turnover {
                    return Err("the heroes' turn ended with a turnover: :enemies".into());
                }
                let (id, ask) = activation_of(&game, rosters, &hooks, arg, state.declare)?;
                // A refused nomination costs nothing: the game is put back as it was.
                let before = game.checkpoint();
                let (roll, members) =
                    match crate::wave::turn::nominate(&mut game, rosters, &hooks, id, &ask) {
                        Ok(r) => r,
                        Err(e) => {
                            game.restore(before);
                            return Err(e.to_string());
                        }
                    };
                if ask.cast {
                    state.declare = None;
                }
                state.turnover = roll.turnover;
                let again = crate::rules::activation::stays_active(&roll);
                if again {
                    notes.push(format!(
                        "{} failed one die without a turnover: still Active, it may be nominated \
                         again this turn (§3.1).",
                        label(&game, id)
                    ));
                }
                let a = Active {
                    model: id,
                    left: roll.successes,
                    next: members[1..].to_vec(),
                    each: roll.successes,
                    members,
                    again,
                };
                state.active = if roll.successes > 0 {
                    Some(a)
                } else {
                    crate::wave::turn::finish_activation(&mut game, &a.members, a.again);
                    None
                };
            }
            "done" => {
                let Some(a) = state.active.take() else {
                    return Err("no hero is active".into());
                };
                notes.push(format!("{} ends its actions", label(&game, a.model)));
                state.active = next_member(&mut game, a, &mut notes);
            }
            "heroes" => {
                if state.turnover {
                    return Err("the heroes' turn ended with a turnover: :enemies".into());
                }
                // The hero policy finishes the activation under way (the rest of its group too), then
                // plays the models that are still Active.
                if let Some(a) = state.active.take() {
                    let left = Some(a.left);
                    let under = a.underway(state.turnover);
                    crate::wave::turn::activation_actions(
                        &mut game,
                        rosters,
                        &hooks,
                        under,
                        left,
                        Vec::new(),
                    )
                    .map_err(err)?;
                }
                let turn =
                    crate::wave::turn::hero_turn_rest(&mut game, rosters, &hooks).map_err(err)?;
                state.turnover = turn.last().is_some_and(|a| a.turnover);
                wave_over(&game, rosters, &mut notes);
            }
            "advise" => {
                let registry = host(lua).map_err(|e| e.to_string())?.registry();
                notes.push(advise(
                    lua, &core, registry, &mut game, &hooks, &state, arg,
                )?);
            }
            "enemies" => {
                if state.active.is_some() {
                    return Err("a hero is still active: give its orders or :done".into());
                }
                crate::wave::turn::enemy_turn(&mut game, rosters, &hooks).map_err(err)?;
                state.turnover = false;
                if !wave_over(&game, rosters, &mut notes) {
                    let next = game.round + 1;
                    crate::wave::play::begin_round(&mut game, next);
                    crate::rules::activation::begin_turn(&mut game, Side::Heroes);
                    notes.push(format!("Round {}: the heroes' turn.", game.round));
                }
            }
            "cast" if state.active.is_none() => {
                // Declaring before :activate (§3.7): `:cast NAME`.
                let id = find_model(&game, arg, Some(Side::Heroes))?;
                crate::rules::magic::casters(&game, &hooks, &[id]).map_err(err)?;
                state.declare = Some(id);
                notes.push(format!(
                    "{} will declare spellcasting when it is nominated: :activate it, then :cast SPELL \
                     POWER [TARGET | X Y | X1 Y1 X2 Y2].",
                    label(&game, id)
                ));
            }
            "endwave" => {
                if game.side(Side::Enemies).next().is_some() {
                    return Err("enemies are still on the table".into());
                }
                if state.ended == game.wave {
                    return Err(format!(
                        "the End Sequence of wave {} has already run",
                        game.wave
                    ));
                }
                state.won = false;
                state.ended = game.wave;
                if state.council {
                    return Err("the Council is open: :buy, :council auto, or :wave".into());
                }
                crate::wave::play::end_of_wave(&mut game, rosters, &hooks).map_err(err)?;
                let (waves, endless) = rosters
                    .length(&core.length)
                    .map_or((0, false), |l| (l.last_wave(), l.is_endless()));
                if let Some(cause) = crate::wave::play::village_lost(&game, rosters) {
                    notes.push(format!("The game is lost: {}.", cause.words()));
                } else if endless && game.wave >= waves {
                    notes.push(format!(
                        "The village has held out {} waves, the endless length's safety cap: the game is stalled.",
                        game.wave
                    ));
                } else if game.wave >= waves {
                    notes.push(format!(
                        "The final wave is over and the Town Hall stands: the game is won ({} waves).",
                        game.wave
                    ));
                } else {
                    crate::wave::council::place_opportunity(&mut game, rosters)
                        .map_err(|e| e.to_string())?;
                    crate::wave::council::open_council(&mut game, rosters, &hooks).map_err(err)?;
                    state = PlayState {
                        council: true,
                        ended: state.ended,
                        ..PlayState::default()
                    };
                    notes.push(council_text(&game, rosters));
                }
            }
            "council" => {
                if !state.council {
                    return Err("no Council is open (it follows :endwave)".into());
                }
                if arg != "auto" {
                    return Err(
                        ":council auto lets the hero policy buy; or give :buy orders".into(),
                    );
                }
                let info = crate::wave::council::council_info(&game, rosters);
                let orders = hooks
                    .policy_council(&mut game, &info)
                    .map_err(|e| e.message)?;
                for o in &orders {
                    crate::wave::council::council_order(&mut game, rosters, o);
                }
                game.decisions_done();
                notes.push(format!(
                    "{} left. :wave for the next wave.",
                    count(game.supplies, "Supply", "Supplies")
                ));
            }
            "buy" => {
                if !state.council {
                    return Err("no Council is open (it follows :endwave)".into());
                }
                let order = council_order_of(&game, arg)?;
                let report = crate::wave::council::council_order(&mut game, rosters, &order);
                if let Some(why) = report.refused {
                    return Err(why);
                }
                notes.push(format!(
                    "{} left.",
                    count(game.supplies, "Supply", "Supplies")
                ));
            }
            order_name => {
                let Some(a) = state.active.take() else {
                    return Err("no hero is active: :activate one first".into());
                };
                let order = match order_for(&game, a.model, order_name, arg) {
                    Ok(o) => o,
                    Err(e) => {
                        state.active = Some(a);
                        self.set_play_state(state);
                        return Err(e);
                    }
                };
                let step = crate::wave::turn::player_step(
                    &mut game, rosters, &hooks, a.model, a.left, order,
                );
                let (report, spent) = match step {
                    Ok(done) => done,
                    Err(e) => {
                        state.active = Some(a);
                        self.set_play_state(state);
                        return Err(e.to_string());
                    }
                };
                if matches!(report, ActionReport::StoodUp) {
                    notes.push(
                        "it stood up first (Defenseless, not Engaged): give the order again".into(),
                    );
                }
                let left = a.left.saturating_sub(spent);
                // A Javelin thrown for free after moving closer (§3.5) keeps the activation open.
                let free = crate::wave::act::free_throw_ready(&game, rosters, a.model);
                if left == 0 && free {
                    notes.push("a free throw is ready (§3.5): :shoot TARGET, or :done".into());
                }
                state.active = if (left == 0 && !free) || game.model(a.model).is_err() {
                    next_member(&mut game, a, &mut notes)
                } else {
                    Some(Active { left, ..a })
                };
                wave_over(&game, rosters, &mut notes);
            }
        }
        // A wave won now waits for its End Sequence before the next `:wave`.
        if game.wave > 0
            && game.side(Side::Enemies).next().is_none()
            && state.ended != game.wave
            && !state.council
        {
            state.won = true;
        }
        let names = describe::names(&game);
        let mut out = describe::describe_all(&game.log()[from..], &names);
        out.extend(notes);
        out.push(match &state.active {
            _ if state.council => "The Council is open: :buy, :council auto, or :wave.".to_string(),
            Some(a) => format!(
                "{} has {} left.",
                label(&game, a.model),
                count(a.left, "action", "actions")
            ),
            None if state.turnover => "Turnover: the heroes' turn is over. :enemies".to_string(),
            None => "No hero is active.".to_string(),
        });
        game.commit();
        self.set_play_state(state);
        Ok(out.join("\n"))
    }
}

/// What the Council can do now, in words (core §7.2–7.3).
fn council_text(game: &Game, rosters: &crate::roster::Rosters) -> String {
    let info = crate::wave::council::council_info(game, rosters);
    let mut out = vec![format!(
        "Council after wave {}: {}, {}.",
        info.wave,
        count(info.supplies, "Supply", "Supplies"),
        count(info.herbs, "Herb token", "Herb tokens")
    )];
    for b in &info.buildings {
        out.push(format!(
            "  {} Level {}: Integrity {}/{}{}{}",
            b.name,
            b.level,
            b.integrity,
            b.max_integrity,
            if b.destroyed { ", Destroyed" } else { "" },
            b.upgrade_cost
                .map(|c| format!(", next Level for {c} Supplies"))
                .unwrap_or_default()
        ));
    }
    let abilities: Vec<String> = info
        .abilities
        .iter()
        .map(|a| {
            format!(
                "{} ({} {}){}",
                a.name,
                a.building,
                a.level,
                if a.used { ", used" } else { "" }
            )
        })
        .collect();
    if !abilities.is_empty() {
        out.push(format!("  Abilities: {}", abilities.join("; ")));
    }
    if !info.defeated.is_empty() {
        out.push(format!("  Defeated: {}", info.defeated.join(", ")));
    }
    out.push(format!(
        "  Barricade {} Supplies (within {}\" of a building), Trap {} (within {}\").",
        info.barricade_cost, info.barricade_within, info.trap_cost, info.trap_within
    ));
    out.push(
        "Orders: :buy upgrade B | repair B [N|free] | barricade X1 Y1 X2 Y2 | trap X Y | heal H | herb H \
         | resurrect H; :council auto lets the hero policy buy; :wave starts the next wave."
            .into(),
    );
    out.join("\n")
}

/// A hero of the party named by part of its name.
fn party_hero(game: &Game, text: &str) -> Result<String, String> {
    let low = text.trim().to_lowercase();
    let found: Vec<&String> = game
        .party
        .iter()
        .filter(|h| h.to_lowercase().contains(&low))
        .collect();
    match found.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!("no hero of the party called {:?}", text.trim())),
        _ => Err(format!("{:?} names several heroes", text.trim())),
    }
}

/// The order words of `:buy` (what [`council_order_of`] reads), for Tab completion.
pub const COUNCIL_ORDERS: &[&str] = &[
    "upgrade",
    "repair",
    "barricade",
    "trap",
    "heal",
    "herb",
    "resurrect",
];

/// A `:buy` order.
fn council_order_of(game: &Game, arg: &str) -> Result<crate::rules::hooks::CouncilOrder, String> {
    use crate::rules::hooks::CouncilOrder as C;
    let (what, rest) = arg.split_once(char::is_whitespace).unwrap_or((arg, ""));
    let rest = rest.trim();
    let nums = |s: &str| -> Result<Vec<f64>, String> {
        s.split_whitespace()
            .map(|n| {
                n.parse::<f64>()
                    .map_err(|_| format!("{n:?} is not a number"))
            })
            .collect()
    };
    let building =
        |s: &str| find_building(game, s).ok_or_else(|| format!("no building called {s:?}"));
    Ok(match what {
        "upgrade" => C::Upgrade {
            building: building(rest)?,
            level: None,
        },
        "repair" => {
            let mut words: Vec<&str> = rest.split_whitespace().collect();
            let (supplies, free) = match words.last().copied() {
                Some("free") => {
                    words.pop();
                    (None, true)
                }
                Some(n) if n.parse::<u32>().is_ok() => {
                    words.pop();
                    (n.parse::<u32>().ok(), false)
                }
                _ => (Some(1), false),
            };
            C::Repair {
                building: building(&words.join(" "))?,
                supplies,
                free,
            }
        }
        "barricade" => match nums(rest)?.as_slice() {
            [x1, y1, x2, y2] => C::Barricade {
                from: table_point(game, "X1 Y1", *x1, *y1)?,
                toward: table_point(game, "X2 Y2", *x2, *y2)?,
                free: false,
                reinforce: false,
            },
            _ => return Err(":buy barricade X1 Y1 X2 Y2".into()),
        },
        "trap" => match nums(rest)?.as_slice() {
            [x, y] => C::Trap {
                at: table_point(game, "X Y", *x, *y)?,
            },
            _ => return Err(":buy trap X Y".into()),
        },
        "heal" => C::Heal {
            hero: party_hero(game, rest)?,
        },
        "herb" => C::Herb {
            hero: party_hero(game, rest)?,
        },
        "resurrect" => C::Resurrect {
            hero: party_hero(game, rest)?,
            at: None,
        },
        other => {
            return Err(format!(
                "unknown Council order {other:?} (one of {})",
                COUNCIL_ORDERS.join(", ")
            ))
        }
    })
}

fn label(game: &Game, id: ModelId) -> String {
    game.model(id)
        .map(crate::rules::query::label)
        .unwrap_or_else(|_| format!("model {id}"))
}

/// Whether the wave has ended (no enemy left, or the game lost), with a note saying so.
fn wave_over(game: &Game, rosters: &crate::roster::Rosters, notes: &mut Vec<String>) -> bool {
    if let Some(cause) = crate::wave::play::village_lost(game, rosters) {
        notes.push(format!("The game is lost: {}.", cause.words()));
        return true;
    }
    if game.side(Side::Enemies).next().is_none() {
        notes.push(
            "No enemy is left: the wave is won. :endwave for the End Sequence and Council.".into(),
        );
        return true;
    }
    false
}

/// `:cast SPELL POWER [TARGET | X Y | X1 Y1 X2 Y2]` as a cast order (§3.7): a model the spell aims at, a
/// Summoning's spot, or a Wall's two endpoints.
fn cast_order(game: &Game, arg: &str) -> Result<Order, String> {
    let usage = ":cast SPELL POWER [TARGET | X Y | X1 Y1 X2 Y2]";
    let words: Vec<&str> = arg.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.parse::<u8>().is_ok())
        .ok_or(usage)?;
    if at == 0 {
        return Err(usage.into());
    }
    let spell = words[..at].join(" ");
    let power: u8 = words[at].parse().map_err(|_| "a Power of 1 to 3")?;
    let rest = &words[at + 1..];
    let nums: Option<Vec<f64>> = rest.iter().map(|w| w.parse::<f64>().ok()).collect();
    let mut order = crate::rules::hooks::CastOrder {
        spell,
        power,
        target: None,
        from: None,
        to: None,
        at: None,
        what: None,
    };
    match nums.as_deref() {
        Some([]) => {}
        // One number names a model by its number, as everywhere in the REPL.
        Some([_]) => order.target = Some(find_model(game, rest[0], None)?),
        Some([x, y]) => order.at = Some(table_point(game, "X Y", *x, *y)?),
        Some([x1, y1, x2, y2]) => {
            order.from = Some(table_point(game, "X1 Y1", *x1, *y1)?);
            order.to = Some(table_point(game, "X2 Y2", *x2, *y2)?);
        }
        Some(_) => return Err(usage.into()),
        None => order.target = Some(find_model(game, &rest.join(" "), None)?),
    }
    Ok(Order::Cast(order))
}

/// The model an `:activate` names and how it is nominated: `:activate NAME [group [NAMES...]] [DICE]`
/// (§3.1: a Leader's group — the named friends, or without names every Active friend that may join it),
/// declaring spellcasting when `:cast NAME` asked for it before (§3.7).
fn activation_of(
    game: &Game,
    rosters: &crate::roster::Rosters,
    hooks: &dyn Hooks,
    arg: &str,
    declare: Option<ModelId>,
) -> Result<(ModelId, crate::rules::hooks::ActivationAsk), String> {
    let mut words = arg.split_whitespace().collect::<Vec<_>>();
    let dice = match words.last().and_then(|w| w.parse::<u8>().ok()) {
        Some(d) if words.len() > 1 => {
            words.pop();
            d
        }
        _ => 2,
    };
    let (who, group) = match words.iter().position(|w| w.eq_ignore_ascii_case("group")) {
        Some(i) => (words[..i].join(" "), Some(words[i + 1..].to_vec())),
        None => (words.join(" "), None),
    };
    let id = find_model(game, &who, Some(Side::Heroes))?;
    let group = match group {
        None => Vec::new(),
        Some(names) if names.is_empty() => {
            let found = crate::rules::activation::group_candidates(game, &rosters.rules, hooks, id)
                .map_err(|e| e.to_string())?;
            if found.is_empty() {
                return Err(format!(
                    "no Active friend can join {}'s group (within Long of it and of each other)",
                    label(game, id)
                ));
            }
            found
        }
        Some(names) => names
            .iter()
            .map(|n| find_model(game, n, Some(Side::Heroes)))
            .collect::<Result<_, _>>()?,
    };
    let ask = crate::rules::hooks::ActivationAsk {
        dice,
        cast: declare == Some(id),
        group,
    };
    Ok((id, ask))
}

/// The member of a group activation that takes its actions next, or — the last one done — the end of
/// the activation (its models marked Activated, or left Active after one failed die).
fn next_member(game: &mut Game, a: Active, notes: &mut Vec<String>) -> Option<Active> {
    let (members, again) = (a.members.clone(), a.again);
    match a.advance() {
        Some(n) => {
            notes.push(format!(
                "{} of the group takes its {}.",
                label(game, n.model),
                count(n.left, "action", "actions")
            ));
            Some(n)
        }
        None => {
            crate::wave::turn::finish_activation(game, &members, again);
            None
        }
    }
}

/// The order a play command gives.
fn order_for(game: &Game, me: ModelId, name: &str, arg: &str) -> Result<Order, String> {
    let enemy = |t: &str| find_model(game, t, Some(Side::Enemies));
    Ok(match name {
        "move" => Order::Move(aim_of(game, arg)?),
        "step" => Order::Step(aim_of(game, arg)?),
        "attack" => Order::Melee(enemy(arg)?),
        "blow" => Order::PowerBlow(enemy(arg)?),
        // `:shoot TARGET with A B`: Concentrated Shooting (§3.5).
        "shoot" => match arg.split_once(" with ") {
            Some((target, others)) => Order::Concentrated {
                target: enemy(target)?,
                with: others
                    .split([',', ' '])
                    .filter(|w| !w.trim().is_empty())
                    .map(|w| find_model(game, w, Some(Side::Heroes)))
                    .collect::<Result<_, _>>()?,
            },
            None => Order::Shoot(enemy(arg)?),
        },
        "breakfree" => Order::BreakFree,
        "cast" => cast_order(game, arg)?,
        "aim" => Order::AimedShot(enemy(arg)?),
        "heal" => Order::Heal {
            target: find_model(game, arg, Some(Side::Heroes))?,
            what: None,
        },
        "use" => Order::Use(arg.trim().to_string()),
        "claim" => {
            let m = game.model(me).map_err(|e| e.to_string())?;
            let token = game
                .tokens
                .iter()
                .filter(|t| matches!(t.kind, TokenKind::Opportunity { .. }))
                .min_by(|a, b| m.pos.dist(a.pos).total_cmp(&m.pos.dist(b.pos)))
                .ok_or("there is no Opportunity token on the table")?;
            Order::Claim(token.id)
        }
        "ability" => {
            let (ability, target) = match arg.split_once(" at ") {
                Some((a, t)) => (a.trim(), Some(t.trim())),
                None => (arg.trim(), None),
            };
            let target = match target {
                None => None,
                Some(t) => Some(match find_building(game, t) {
                    Some(b) => crate::rules::hooks::AbilityTarget::Building(b),
                    None => crate::rules::hooks::AbilityTarget::Model(find_model(game, t, None)?),
                }),
            };
            Order::Ability {
                name: ability.to_string(),
                target,
            }
        }
        other => return Err(format!("unknown play command :{other}")),
    })
}

/// The options of `:advise`: how many candidates to show, the playouts, and JSON.
struct AdviseArgs {
    top: usize,
    samples: u32,
    depth: crate::wave::rollout::Depth,
    json: bool,
}

fn advise_args(arg: &str) -> Result<AdviseArgs, String> {
    use crate::wave::rollout::{Depth, MAX_SAMPLES};
    let mut a = AdviseArgs {
        top: 5,
        samples: 16,
        depth: Depth::Turn,
        json: false,
    };
    let mut words = arg.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "--json" => a.json = true,
            "--samples" => {
                let v = words.next().unwrap_or_default();
                a.samples = v
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_SAMPLES).contains(n))
                    .ok_or_else(|| format!("--samples is 1 to {MAX_SAMPLES}, not {v:?}"))?;
            }
            "--depth" => {
                let v = words.next().unwrap_or_default();
                a.depth = Depth::ALL
                    .iter()
                    .find(|(n, _)| *n == v)
                    .map(|(_, d)| *d)
                    .ok_or_else(|| {
                        format!("--depth is activation, turn, round or wave, not {v:?}")
                    })?;
            }
            n => {
                a.top = n.parse().ok().filter(|n| *n >= 1).ok_or_else(|| {
                    format!(":advise [N] [--samples S] [--depth D] [--json], not {n:?}")
                })?;
            }
        }
    }
    Ok(a)
}

/// `:advise [N]`: the candidates the default policy would weigh now, played out (`wave::rollout`) and
/// ranked by their estimate: the active model's orders during an activation (the default policy's own
/// choice among them), else each model that may be nominated with one, two or three dice. The game is
/// left exactly as it was; the same position always gets the same estimates (the playouts' dice come
/// from the game's seed and the event it stands at).
fn advise(
    lua: &mlua::Lua,
    core: &std::rc::Rc<super::api::game::Core>,
    registry: std::rc::Rc<super::registry::Registry>,
    game: &mut Game,
    hooks: &ScriptHooks,
    state: &PlayState,
    arg: &str,
) -> Result<String, String> {
    use crate::wave::rollout::{Candidate, Score, Settings};
    let a = advise_args(arg)?;
    if state.turnover {
        return Err("the heroes' turn ended with a turnover: nothing to advise (:enemies)".into());
    }
    let rosters = core.rosters_with_rules();
    let before = game.checkpoint();
    // What the candidates are, and what the default policy itself would do.
    let mut default_choice = None;
    let (whom, list): (String, Vec<Candidate>) = match &state.active {
        Some(act) => {
            game.underway = Some(act.underway(state.turnover));
            if let Ok(m) = game.model_mut(act.model) {
                m.actions_left = act.left;
            }
            let mut orders =
                crate::wave::rollout::order_candidates(game, rosters, hooks, act.model)
                    .map_err(|e| e.to_string())?;
            let playout_hooks =
                ScriptHooks::new(lua, core, registry.clone()).with_policy("default");
            let own = game.playout(game.seed, |g| playout_hooks.policy_order(g, act.model));
            if let Ok(Some(o)) = own {
                orders.retain(|x| *x != o);
                orders.insert(0, o.clone());
                default_choice = Some(crate::rules::words::order_words(game, &o));
            }
            let who = format!(
                "{}, {} left",
                label(game, act.model),
                count(act.left, "action", "actions")
            );
            (
                who,
                orders
                    .into_iter()
                    .map(|o| Candidate::Orders(vec![o]))
                    .collect(),
            )
        }
        None => {
            let ids: Vec<ModelId> = game
                .side(Side::Heroes)
                .filter(|m| m.active && !game.unplaced.contains(&m.id))
                .map(|m| m.id)
                .collect();
            let list = ids
                .iter()
                .flat_map(|id| {
                    (1..=3).map(|d| {
                        Candidate::Nominate(*id, crate::rules::hooks::ActivationAsk::dice(d))
                    })
                })
                .take(crate::wave::rollout::MAX_CANDIDATES)
                .collect();
            ("the models that may be nominated".to_string(), list)
        }
    };
    if list.is_empty() {
        game.restore(before);
        return Err("nothing to advise: no order or nomination is open now".into());
    }
    let settings = Settings {
        samples: a.samples,
        depth: a.depth,
        score: Score::Result,
        events: crate::wave::rollout::MAX_EVENTS,
    };
    let played = super::api::hooks::play_out(lua, core, registry, game, &list, settings, "default");
    let words: Vec<String> = list
        .iter()
        .map(|c| match c {
            Candidate::Orders(o) => o
                .iter()
                .map(|o| crate::rules::words::order_words(game, o))
                .collect::<Vec<_>>()
                .join(", then "),
            Candidate::Nominate(id, ask) => format!(
                "{}: {}",
                label(game, *id),
                crate::rules::words::activation_words(game, ask)
            ),
            Candidate::Wait(id) => format!("{}: not now", label(game, *id)),
        })
        .collect();
    game.restore(before);
    let r = played?;
    let mut ranked: Vec<usize> = (0..list.len()).collect();
    ranked.sort_by(|x, y| {
        let (ex, ey) = (&r.estimates[*x], &r.estimates[*y]);
        ex.refused
            .is_some()
            .cmp(&ey.refused.is_some())
            .then(ey.mean.total_cmp(&ex.mean))
            .then(x.cmp(y))
    });
    let depth = crate::wave::rollout::Depth::ALL
        .iter()
        .find(|(_, d)| *d == a.depth)
        .map_or("turn", |(n, _)| *n);
    if a.json {
        let rows: Vec<serde_json::Value> = ranked
            .iter()
            .take(a.top)
            .enumerate()
            .map(|(rank, i)| {
                let e = &r.estimates[*i];
                serde_json::json!({
                    "rank": rank + 1,
                    "candidate": words[*i],
                    "default_choice": default_choice.as_deref() == Some(words[*i].as_str()),
                    "mean": e.mean,
                    "low": e.low,
                    "high": e.high,
                    "playouts": e.playouts,
                    "refused": e.refused,
                })
            })
            .collect();
        let v = serde_json::json!({
            "for": whom,
            "samples": r.samples,
            "depth": depth,
            "score": "result",
            "candidates": list.len(),
            "advice": rows,
        });
        return serde_json::to_string(&v).map_err(|e| e.to_string());
    }
    let mut out = vec![format!(
        "Advice for {whom}: {} weighed, {} each to the end of the {depth} (the default policy plays on), \
         scored by the wave's result (1 won, 0 lost, the position's worth between):",
        count(list.len(), "candidate", "candidates"),
        count(r.samples, "playout", "playouts"),
    )];
    let width = ranked
        .iter()
        .take(a.top)
        .map(|i| words[*i].chars().count())
        .max()
        .unwrap_or(0);
    for (rank, i) in ranked.iter().take(a.top).enumerate() {
        let e = &r.estimates[*i];
        let mark = if default_choice.as_deref() == Some(words[*i].as_str()) {
            "  (the default policy's choice)"
        } else {
            ""
        };
        out.push(match &e.refused {
            Some(why) => format!("  {}. {:width$}  refused: {why}", rank + 1, words[*i]),
            None => format!(
                "  {}. {:width$}  {:.3} ({:.3}–{:.3}), {}{mark}",
                rank + 1,
                words[*i],
                e.mean,
                e.low,
                e.high,
                count(e.playouts, "playout", "playouts")
            ),
        });
    }
    Ok(out.join("\n"))
}
