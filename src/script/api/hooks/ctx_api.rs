//! The methods and fields of the `ctx` userdata (`CtxHandle`): reading the table, measuring, asking for
//! changes, the spell and reward primitives. Each name comes from `spec` (the API as data).

use super::handle::CtxApi;
use super::*;
use crate::script::api::answer::{Plain, Reader, Shape};

/// What `ctx:grant` is given (spec: `GrantOptions`).
pub(super) const GRANT_OPTIONS: Shape = Shape {
    class: "GrantOptions",
    keys: &["models", "against", "value", "reason", "ends"],
};

/// The most models a granted effect may name (in `models` or `against`).
const MAX_GRANT_MODELS: usize = 256;

/// The most granted effects in force in a game at once. The built-in scripts keep one or two (Hold the
/// Line, for an activation).
pub(crate) const MAX_EFFECTS: usize = 64;

/// The name of a `Ctx` member, as `spec` describes it (a name it does not describe panics).
pub(super) fn api(member: &str) -> &'static str {
    spec::member("Ctx", member)
}

impl CtxHandle {
    /// Every field and method of `ctx`, into `fields` and `methods` (the same registrar: the names
    /// say which is which).
    pub(super) fn register(fields: &mut CtxApi<'_>) {
        Self::add_fields(fields);
        Self::add_methods(fields);
    }

    fn add_fields(fields: &mut CtxApi<'_>) {
        fields.add_field_method_get(api("round"), |lua, this| Ok(this.ctx(lua)?.game().round));
        fields.add_field_method_get(api("wave"), |lua, this| Ok(this.ctx(lua)?.game().wave));
        fields.add_field_method_get(api("supplies"), |lua, this| {
            Ok(this.ctx(lua)?.game().supplies)
        });
        fields.add_field_method_get(api("igniters_burn"), |lua, this| {
            Ok(this.ctx(lua)?.game().igniters_burn)
        });
        fields.add_field_method_get(api("params"), |lua, this| Ok(this.ctx(lua)?.params.clone()));
        fields.add_field_method_get(api("explaining"), |lua, this| {
            Ok(this.ctx(lua)?.kernel.is_some_and(|k| k.explaining()))
        });
    }

    fn add_methods(methods: &mut CtxApi<'_>) {
        methods.add_method(
            api("model"),
            timed("model", |lua, this, id: Value| {
                let id = crate::script::api::convert::whole_arg(
                    lua,
                    "ctx:model",
                    "id",
                    &id,
                    0,
                    i64::from(u32::MAX),
                )? as u32;
                match this.game().model(ModelId(id)) {
                    Ok(m) => Ok(Some(this.model_view(lua, m)?)),
                    Err(_) => Ok(None),
                }
            }),
        );
        methods.add_method(
            api("models"),
            timed("models", |lua, this, opts: Option<Table>| {
                let ids = super::queries::models(lua, this, opts.as_ref())?;
                this.model_views(lua, &ids)
            }),
        );
        methods.add_method(
            api("building"),
            timed("building", |lua, this, name: String| {
                this.building_view_named(lua, &name)
            }),
        );
        methods.add_method(
            api("distance"),
            timed("distance", |_, this, (a, b): (Table, Table)| {
                let game = this.game();
                let (a, b) = (
                    game.model(id_of(&a)?).map_err(mlua::Error::external)?,
                    game.model(id_of(&b)?).map_err(mlua::Error::external)?,
                );
                Ok(crate::geometry::circle_circle_gap(&a.circle(), &b.circle()).max(0.0))
            }),
        );
        methods.add_method(
            api("rule"),
            timed("rule", |lua, this, (section, key): (String, String)| {
                let v = this
                    .rules_json
                    .get(&section)
                    .and_then(|s| s.get(&key))
                    .ok_or_else(|| fail(lua, format!("no rule constant {section}.{key}")))?;
                crate::script::api::convert::to_lua(lua, v)
            }),
        );
        methods.add_method(
            api("spell"),
            timed("spell", |lua, this, name: String| {
                let Some(rosters) = this.rosters() else {
                    return Ok(Value::Nil);
                };
                match rosters.spell(&name) {
                    Some(s) => crate::script::api::convert::to_lua(lua, s),
                    None => Ok(Value::Nil),
                }
            }),
        );
        methods.add_method(
            api("behaviour"),
            timed("behaviour", |lua, this, name: String| {
                let Some(rosters) = this.rosters() else {
                    return Ok(Value::Nil);
                };
                match rosters.behaviour(&name) {
                    Some(b) => crate::script::api::convert::to_lua(lua, b),
                    None => Ok(Value::Nil),
                }
            }),
        );
        methods.add_method(
            api("buildings"),
            timed("buildings", |lua, this, opts: Option<Table>| {
                super::queries::building_views(lua, this, opts.as_ref())
            }),
        );
        methods.add_method(
            api("nearest"),
            timed("nearest", |lua, this, (m, among): (Value, Table)| {
                super::queries::nearest(lua, this, &m, &among)
            }),
        );
        methods.add_method(
            api("town_hall"),
            timed("town_hall", |lua, this, ()| {
                super::queries::town_hall_view(lua, this)
            }),
        );
        methods.add_method(
            api("distances_from"),
            timed(
                "distances_from",
                |lua, this, (m, things): (Value, Table)| {
                    super::queries::distances_from(lua, this, &m, &things)
                },
            ),
        );
        methods.add_method(
            api("distances_to"),
            timed(
                "distances_to",
                |lua, this, (models, thing): (Table, Value)| {
                    super::queries::distances_to(lua, this, &models, &thing)
                },
            ),
        );
        methods.add_method(
            api("distance_to"),
            timed("distance_to", |lua, this, (a, b): (Table, Value)| {
                let game = this.game();
                let me = game.model(id_of(&a)?).map_err(mlua::Error::external)?;
                super::queries::measure(
                    game,
                    me,
                    &super::queries::thing_arg(lua, &b, "distance_to")?,
                )
            }),
        );
        methods.add_method(
            api("tokens"),
            timed("tokens", |lua, this, kind: Option<String>| {
                super::queries::tokens_of(lua, this, kind.as_deref())
            }),
        );
        methods.add_method(
            api("permission"),
            timed("permission", |lua, this, (m, name): (Value, String)| {
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:permission is not available in a spell's cast",
                    ));
                };
                let id = model_id(lua, &m)?;
                k.permission(this.game(), id, &name)
                    .map_err(|e| mlua::Error::runtime(e.message))
            }),
        );
        methods.add_method(
            api("objective"),
            timed("objective", |lua, this, m: Value| {
                let id = model_id(lua, &m)?;
                let game = this.game();
                match game.model(id).ok().and_then(|m| m.objective.as_ref()) {
                    Some(o) => super::objective::objective_value(lua, this, o),
                    None => Ok(Value::Nil),
                }
            }),
        );
        methods.add_method(
            api("reach"),
            timed("reach", |lua, this, (m, t): (Value, Value)| {
                let (m, t) = (model_id(lua, &m)?, model_id(lua, &t)?);
                let aim = crate::rules::hooks::Aim::Model(t);
                match crate::wave::act::route_to(
                    this.game(),
                    m,
                    &aim,
                    this.rules.bases.contact_tolerance,
                ) {
                    Ok(route) => Ok(route.map(|r| r.length)),
                    Err(e) => Err(fail(lua, e)),
                }
            }),
        );
        methods.add_method(
            api("move_actions"),
            timed("move_actions", |lua, this, (m, t): (Value, Value)| {
                let (m, t) = (model_id(lua, &m)?, model_id(lua, &t)?);
                // The mover's band is its traits', asked of the kernel's hooks.
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:move_actions is not available in a spell's cast",
                    ));
                };
                let aim = crate::rules::hooks::Aim::Model(t);
                let game = this.game();
                let route =
                    crate::wave::act::route_to(game, m, &aim, this.rules.bases.contact_tolerance)
                        .map_err(|e| fail(lua, e))?;
                match route {
                    Some(route) => {
                        crate::wave::act::move_actions(game, this.rules, k, m, &route, &aim)
                            .map(Some)
                            .map_err(|e| fail(lua, e))
                    }
                    None => Ok(None),
                }
            }),
        );
        methods.add_method(
            api("can_shoot"),
            timed("can_shoot", |lua, this, (s, t): (Value, Value)| {
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:can_shoot is not available in a spell's cast",
                    ));
                };
                let (s, t) = (model_id(lua, &s)?, model_id(lua, &t)?);
                super::queries::can_shoot(this, k, s, t).map_err(mlua::Error::runtime)
            }),
        );
        methods.add_method(
            api("can_cast"),
            timed(
                "can_cast",
                |lua, this, (c, spell, power, t): (Value, String, u8, Value)| {
                    let Some(k) = this.kernel else {
                        return Err(fail(lua, "ctx:can_cast is not available in a spell's cast"));
                    };
                    let c = model_id(lua, &c)?;
                    let t = match t {
                        Value::Nil => None,
                        v => Some(model_id(lua, &v)?),
                    };
                    let g = this.game();
                    match magic::may_cast_at(g, k.rosters(), k, c, &spell, power, t) {
                        Ok(()) => Ok(true),
                        Err(RuleError::Hook(h)) => Err(mlua::Error::runtime(h.message)),
                        Err(_) => Ok(false),
                    }
                },
            ),
        );
        methods.add_method(
            api("leader_group"),
            timed("leader_group", |lua, this, l: Value| {
                let Some(k) = this.kernel else {
                    return Err(fail(
                        lua,
                        "ctx:leader_group is not available in a spell's cast",
                    ));
                };
                let l = model_id(lua, &l)?;
                let game = this.game();
                let ids = crate::rules::activation::group_candidates(game, this.rules, k, l)
                    .map_err(|e| fail(lua, e))?;
                this.model_views(lua, &ids)
            }),
        );
        methods.add_method(
            api("engaged"),
            timed("engaged", |lua, this, m: Table| {
                super::queries::engaged_views(lua, this, id_of(&m)?)
            }),
        );
        methods.add_method(
            api("touching_terrain"),
            timed(
                "touching_terrain",
                |_, this, (m, kinds): (Table, Vec<String>)| {
                    let game = this.game();
                    let me = game.model(id_of(&m)?).map_err(mlua::Error::external)?;
                    let tol = this.rules.bases.contact_tolerance;
                    Ok(game.table.terrain.iter().any(|t| {
                        let kind = t.kind.name();
                        kinds.iter().any(|k| k == kind)
                            && match &t.shape {
                                TerrainShape::Area(p) => circle_polygon_gap(&me.circle(), p) <= tol,
                                TerrainShape::Line(s) => circle_segment_gap(&me.circle(), s) <= tol,
                            }
                    }))
                },
            ),
        );
        methods.add_method_mut(api("roll"), timed_mut("roll", |lua, this, (n, purpose): (Value, Value)| {
            use crate::script::api::convert::{text_arg, whole_arg};
            let n = whole_arg(lua, "ctx:roll", "dice", &n, 1, 6)? as usize;
            let purpose = text_arg(lua, "ctx:roll", "purpose", &purpose)?
                .unwrap_or_else(|| this.source.clone());
            if let View::Act(g) = &this.view {
                this.asked.roll(lua, "roll")?;
                if let Some(why) = g.log_full() {
                    return Err(fail(lua, format!("ctx:roll: {why}")));
                }
            }
            match &mut this.view {
                View::Act(g) => Ok(g.roll(&purpose, None, n).iter().map(|d| d.face).collect::<Vec<u8>>()),
                View::Read(_) => Err(mlua::Error::runtime(
                    "this ctx is read-only: dice can be rolled only in on_result and on_charge hooks",
                )),
            }
        }));
        methods.add_method(
            api("worsen_quality"),
            timed(
                "worsen_quality",
                |lua, this, (m, amount, reason): (Table, Value, Value)| {
                    use crate::script::api::convert::{text_arg, whole_arg};
                    let amount =
                        whole_arg(lua, "ctx:worsen_quality", "amount", &amount, 0, 255)? as u8;
                    this.ask(
                        lua,
                        Intent::WorsenQuality {
                            model: id_of(&m)?,
                            amount,
                            reason: text_arg(lua, "ctx:worsen_quality", "reason", &reason)?
                                .unwrap_or_else(|| this.source.clone()),
                            source: this.source.clone(),
                        },
                    )
                },
            ),
        );
        methods.add_method(
            api("add_condition"),
            timed(
                "add_condition",
                |lua, this, (m, c, holder): (Table, String, Option<Table>)| {
                    let condition = match c.as_str() {
                        "defenseless" => Condition::Defenseless,
                        "transfixed" => Condition::Transfixed,
                        "entangled" => Condition::Entangled,
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "unknown condition {other:?}"
                            )))
                        }
                    };
                    let held_by = match holder {
                        Some(h) => Some(id_of(&h)?),
                        None => None,
                    };
                    this.ask(
                        lua,
                        Intent::AddCondition {
                            model: id_of(&m)?,
                            condition,
                            held_by,
                            source: this.source.clone(),
                        },
                    )
                },
            ),
        );
        methods.add_method_mut(
            api("transfix"),
            timed_mut("transfix", |lua, this, (target, power): (Value, u8)| {
                this.asked.change(lua, "transfix")?;
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "transfix")?;
                let hooks = ScriptHooks::new(lua, sp.core, sp.registry.clone());
                magic::cast_transfix(game, sp.rosters, &hooks, c, target, power)
                    .map_err(|e| sp.refuse(lua, e))
            }),
        );
        methods.add_method_mut(
            api("spell_attack"),
            timed_mut("spell_attack", |lua, this, (target, power): (Value, u8)| {
                this.asked.change(lua, "spell_attack")?;
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "spell_attack")?;
                let core: &Rc<Core> = sp.core;
                let known = names(game, &[c.caster, target]);
                let hooks = ScriptHooks::new(lua, core, sp.registry.clone());
                let r = magic::cast_attack(game, sp.rosters, &hooks, c, target, power)
                    .map_err(|e| sp.refuse(lua, e))?;
                let t = combat_table(lua, core, game, &r)?;
                fix_names(&t, &known)?;
                Ok(t)
            }),
        );
        methods.add_method_mut(
            api("heal"),
            timed_mut("heal", |lua, this, (target, asked): (Value, String)| {
                if this.reward.is_none() {
                    this.asked.change(lua, "heal")?;
                }
                let target = model_id(lua, &target)?;
                let what = match asked.as_str() {
                    "wound" => Heal::Wound,
                    other => Heal::Condition(parse_condition(other).ok_or_else(|| {
                        fail(
                            lua,
                            format!("ctx:heal heals \"wound\" or a condition, got {other:?}"),
                        )
                    })?),
                };
                // In an item's use (a Potion) healing is a reward the kernel applies after the script.
                if this.reward.is_some() {
                    let source = this.source.clone();
                    return this
                        .reward(
                            lua,
                            "heal",
                            Reward::Heal {
                                model: target,
                                what,
                                source,
                            },
                        )
                        .map(|_| asked);
                }
                let (game, c, sp) = this.casting(lua, "heal")?;
                magic::cast_heal(game, sp.rosters, c, target, what).map_err(|e| sp.refuse(lua, e))
            }),
        );
        methods.add_method(
            api("add_supplies"),
            timed("add_supplies", |lua, this, n: i64| {
                let amount = positive(lua, "add_supplies", n)? as i32;
                let source = this.source.clone();
                this.reward(lua, "add_supplies", Reward::Supplies { amount, source })
            }),
        );
        methods.add_method(
            api("add_herbs"),
            timed("add_herbs", |lua, this, n: i64| {
                let amount = positive(lua, "add_herbs", n)?;
                let source = this.source.clone();
                this.reward(lua, "add_herbs", Reward::Herbs { amount, source })
            }),
        );
        methods.add_method(
            api("join"),
            timed("join", |lua, this, profile: String| {
                let source = this.source.clone();
                this.reward(lua, "join", Reward::Join { profile, source })
            }),
        );
        methods.add_method(api("ambush"), timed("ambush", |lua, this, (profile, count, behaviour, within): (String, i64, String, String)| {
                let count = positive(lua, "ambush", count)?;
                let within: crate::roster::Measure =
                    serde_json::from_value(serde_json::Value::String(within.clone())).map_err(
                        |_| {
                            fail(
                                lua,
                                format!(
                                    "within must be \"short\", \"medium\" or \"long\", got {within:?}"
                                ),
                            )
                        },
                    )?;
                if !this.reward.as_ref().is_some_and(|r| r.claim) {
                    return Err(fail(
                        lua,
                        "ctx:ambush deploys around the claimed token: only in an Opportunity's claim",
                    ));
                }
                let source = this.source.clone();
                this.reward(
                    lua,
                    "ambush",
                    Reward::Ambush {
                        profile,
                        count,
                        behaviour,
                        within,
                        source,
                    },
                )
            }));
        methods.add_method(
            api("give"),
            timed("give", |lua, this, (m, name): (Value, String)| {
                let model = model_id(lua, &m)?;
                let Some(rc) = &this.reward else {
                    return Err(fail(
                    lua,
                    "ctx:give is a reward primitive: it works only in an Opportunity's claim or \
                     wave_end, or an item's use",
                ));
                };
                if name.trim().is_empty() {
                    return Err(fail(lua, "ctx:give needs the item's name"));
                }
                let item = crate::state::Item {
                    name,
                    script: rc.script.clone(),
                    params: rc.params.clone(),
                };
                let source = this.source.clone();
                this.reward(
                    lua,
                    "give",
                    Reward::Give {
                        model,
                        item,
                        source,
                    },
                )
            }),
        );
        methods.add_method(
            api("spent"),
            timed("spent", |_, this, key: String| {
                Ok(this.game().spent.contains(&key))
            }),
        );
        methods.add_method(
            api("spend"),
            timed("spend", |lua, this, key: String| {
                let source = this.source.clone();
                // In a hook that may ask for changes it is a change like the others (Sanctuary).
                if this.reward.is_none() && this.intents.is_some() {
                    return this.ask(lua, Intent::Spend { key, source });
                }
                this.reward(lua, "spend", Reward::Spend { key, source })
            }),
        );
        methods.add_method(
            api("why"),
            timed(
                "why",
                |lua, this, (reason, candidates, scores): (Option<String>, Option<Table>, Option<Table>)| {
                    match this.kernel {
                        Some(k) => k.hear(lua, this.game(), reason, candidates, scores),
                        None => Ok(()),
                    }
                },
            ),
        );
        methods.add_method_mut(
            api("done_for_wave"),
            timed_mut("done_for_wave", |lua, this, ()| {
                let (Some(r), View::Act(game)) = (this.reacting, &mut this.view) else {
                    return Err(fail(
                        lua,
                        "ctx:done_for_wave works only in the hooks the kernel calls for every \
                         script of a model, such as on_opponent_activation (docs/api.md lists them)",
                    ));
                };
                game.set_done_for_wave(r.model, r.module, r.entry);
                Ok(())
            }),
        );
        methods.add_method_mut(
            api("peek"),
            timed_mut("peek", |lua, this, (m, tok): (Value, Value)| {
                this.asked.roll(lua, "peek")?;
                tokens::peek(lua, this, &m, &tok)
            }),
        );
        methods.add_method(
            api("hero"),
            timed("hero", |lua, this, ()| {
                match this.reward.as_ref().and_then(|r| r.hero) {
                    Some(id) => this.model_view_of(lua, id),
                    None => Ok(Value::Nil),
                }
            }),
        );
        methods.add_method_mut(
            api("wall"),
            timed_mut(
                "wall",
                |lua, this, (from, to, power): (Value, Value, u8)| {
                    this.asked.change(lua, "wall")?;
                    let (a, b) = (to_pos(lua, &from)?, to_pos(lua, &to)?);
                    let (game, c, sp) = this.casting(lua, "wall")?;
                    for (what, p) in [("from", a), ("to", b)] {
                        crate::geometry::check::point_on(&game.table, what, p)
                            .map_err(|e| fail(lua, e))?;
                    }
                    magic::cast_wall(game, sp.rosters, c, a, b, power)
                        .map(|t| t.0)
                        .map_err(|e| sp.refuse(lua, e))
                },
            ),
        );
        methods.add_method_mut(
            api("summon"),
            timed_mut(
                "summon",
                |lua, this, (profile, at, within): (String, Value, String)| {
                    this.asked.change(lua, "summon")?;
                    let at = to_pos(lua, &at)?;
                    let within: crate::roster::Measure =
                        serde_json::from_value(serde_json::Value::String(within.clone())).map_err(
                            |_| {
                                fail(
                        lua,
                        format!("within must be \"short\", \"medium\" or \"long\", got {within:?}"),
                    )
                            },
                        )?;
                    let (game, c, sp) = this.casting(lua, "summon")?;
                    crate::geometry::check::point_on(&game.table, "at", at)
                        .map_err(|e| fail(lua, e))?;
                    let id = magic::summon(game, sp.rosters, c, &profile, at, within)
                        .map_err(|e| sp.refuse(lua, e))?;
                    this.model_view_of(lua, id)
                },
            ),
        );
        methods.add_method_mut(
            api("dispel"),
            timed_mut("dispel", |lua, this, target: Value| {
                this.asked.change(lua, "dispel")?;
                let target = model_id(lua, &target)?;
                let (game, c, sp) = this.casting(lua, "dispel")?;
                magic::dispel(game, sp.rosters, c, target).map_err(|e| sp.refuse(lua, e))
            }),
        );
        methods.add_method(
            api("morale"),
            timed("morale", |lua, this, (m, trigger): (Table, String)| {
                let trigger = match trigger.as_str() {
                    "terror" => MoraleTrigger::Terror,
                    "gruesome_kill" => MoraleTrigger::GruesomeKill,
                    "leader_defeated" => MoraleTrigger::LeaderDefeated,
                    "half_lost" => MoraleTrigger::HalfLost,
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "unknown morale trigger {other:?}"
                        )))
                    }
                };
                this.ask(
                    lua,
                    Intent::Morale {
                        model: id_of(&m)?,
                        trigger,
                        source: this.source.clone(),
                    },
                )
            }),
        );
        methods.add_method_mut(
            api("rollouts"),
            timed_mut("rollouts", |lua, this, (cands, opts): (Value, Value)| {
                super::rollouts::rollouts(lua, this, cands, opts)
            }),
        );
        methods.add_method(
            api("grant"),
            timed("grant", |lua, this, opts: Value| {
                let at = crate::script::api::convert::caller(lua);
                let r = Reader::given(&at, "ctx:grant", this.game_id);
                let err = |e: HookError| mlua::Error::runtime(e.message);
                let p = r.read(lua, &opts).map_err(err)?;
                let f = r.fields(&p, "", &GRANT_OPTIONS).map_err(err)?;
                let ids = |key: &str| -> Result<Vec<ModelId>, HookError> {
                    match f.get(key) {
                        Plain::Nil => Ok(Vec::new()),
                        list => {
                            let items = r.list(list, key, "models")?;
                            if items.len() > MAX_GRANT_MODELS {
                                return Err(r.bad(format!(
                                    "{key} lists {} models (at most {MAX_GRANT_MODELS})",
                                    items.len()
                                )));
                            }
                            items
                                .iter()
                                .enumerate()
                                .map(|(i, m)| r.model(m, &format!("{key}[{}]", i + 1), true))
                                .collect()
                        }
                    }
                };
                let ends = match f.text("ends").map_err(err)?.as_deref() {
                    None | Some("activation") => crate::state::EffectEnds::Activation,
                    Some("wave") => crate::state::EffectEnds::Wave,
                    Some(other) => {
                        return Err(fail(
                            lua,
                            format!(
                                "ctx:grant: ends = {other:?} (expected \"activation\" or \"wave\")"
                            ),
                        ))
                    }
                };
                let value = match f
                    .int(
                        "value",
                        -i64::from(super::replies::MAX_MODIFIER),
                        i64::from(super::replies::MAX_MODIFIER),
                    )
                    .map_err(err)?
                {
                    Some(v) => v as i32,
                    None => return Err(fail(lua, "ctx:grant needs a value")),
                };
                // Effects in force are kept for the activation or the wave and read into every roll
                // they match: a bounded number, whatever each call asks for.
                let pending = this.intents.map_or(0, |l| {
                    l.borrow()
                        .iter()
                        .filter(|i| matches!(i, Intent::Grant(_)))
                        .count()
                });
                if this.game().effects.len() + pending >= MAX_EFFECTS {
                    return Err(fail(
                        lua,
                        format!(
                            "ctx:grant: {MAX_EFFECTS} granted effects are in force, at most \
                             {MAX_EFFECTS} a game at once (they end with their activation or wave)"
                        ),
                    ));
                }
                let source = this.source.clone();
                let effect = crate::state::Effect {
                    models: ids("models").map_err(err)?,
                    against: ids("against").map_err(err)?,
                    value,
                    reason: f.reason("reason", || source.clone()).map_err(err)?,
                    source,
                    ends,
                };
                this.ask(lua, Intent::Grant(effect))
            }),
        );
        methods.add_method(
            api("repair"),
            timed("repair", |lua, this, (b, amount): (Value, i32)| {
                let building = building_name(lua, &b)?;
                this.ask(
                    lua,
                    Intent::Repair {
                        building,
                        amount,
                        source: this.source.clone(),
                    },
                )
            }),
        );
        methods.add_method(
            api("track"),
            timed("track", |lua, this, name: String| {
                track_in_play(lua, this.game(), &name).map(|t| t.value)
            }),
        );
        methods.add_method(
            api("track_info"),
            timed("track_info", |lua, this, name: String| {
                let value = track_in_play(lua, this.game(), &name)?.value;
                let Some(track) = this.rosters().and_then(|r| r.track(&name).cloned()) else {
                    return Err(fail(lua, format!("the {name} track is not in the rosters")));
                };
                let t = crate::script::api::convert::to_lua(lua, &track)?;
                if let Value::Table(t) = &t {
                    t.raw_set("value", value)?;
                }
                Ok(t)
            }),
        );
        methods.add_method(
            api("advance_track"),
            timed(
                "advance_track",
                |lua, this, (name, by, reason): (String, i32, Option<String>)| {
                    track_in_play(lua, this.game(), &name)?;
                    let source = this.source.clone();
                    this.ask(
                        lua,
                        Intent::AdvanceTrack {
                            track: name,
                            by,
                            reason: reason.unwrap_or_else(|| source.clone()),
                            source,
                        },
                    )
                },
            ),
        );
        methods.add_method(
            api("vp"),
            timed("vp", |lua, this, side: String| {
                let i = side_index(lua, &side)?;
                Ok(this.game().battle.as_ref().map_or(0, |b| b.vp[i]))
            }),
        );
        methods.add_method(
            api("objectives"),
            timed("objectives", |lua, this, ()| {
                let out = lua.create_table()?;
                let Some(b) = this.game().battle.as_ref() else {
                    return Ok(out);
                };
                for o in &b.objectives {
                    let t = lua.create_table()?;
                    t.raw_set("name", o.name.as_str())?;
                    t.raw_set("x", o.at.x)?;
                    t.raw_set("y", o.at.y)?;
                    t.raw_set("vp", o.vp)?;
                    t.raw_set("each_round", o.each_round)?;
                    t.raw_set("holder", o.holder.map(crate::state::Side::as_str))?;
                    out.raw_push(t)?;
                }
                Ok(out)
            }),
        );
        methods.add_method(
            api("award_vp"),
            timed(
                "award_vp",
                |lua, this, (side, points, reason): (String, i64, Option<String>)| {
                    let i = side_index(lua, &side)?;
                    if this.game().battle.is_none() {
                        return Err(fail(
                            lua,
                            "ctx:award_vp: Victory Points are scored only in a scenario's battle",
                        ));
                    }
                    let points = u32::try_from(points).map_err(|_| {
                        fail(
                            lua,
                            format!("ctx:award_vp: {points} is not 0 or more points"),
                        )
                    })?;
                    let source = this.source.clone();
                    this.ask(
                        lua,
                        Intent::AwardVp {
                            side: if i == 0 {
                                crate::state::Side::Heroes
                            } else {
                                crate::state::Side::Enemies
                            },
                            points,
                            reason: reason.unwrap_or_else(|| source.clone()),
                            source,
                        },
                    )
                },
            ),
        );
        methods.add_method(
            api("extinguish"),
            timed("extinguish", |lua, this, b: Value| {
                let building = building_name(lua, &b)?;
                this.ask(
                    lua,
                    Intent::Extinguish {
                        building,
                        source: this.source.clone(),
                    },
                )
            }),
        );
        methods.add_method(
            api("ignite"),
            timed("ignite", |lua, this, b: Value| {
                let building = building_name(lua, &b)?;
                this.ask(
                    lua,
                    Intent::Ignite {
                        building,
                        source: this.source.clone(),
                    },
                )
            }),
        );
        methods.add_method(api("attack"), timed("attack", |lua, this, (attacker, target, combat, reason): (Value, Value, i32, Option<String>)| {
                let source = this.source.clone();
                this.ask(lua, Intent::Attack {
                    attacker: model_id(lua, &attacker)?,
                    target: model_id(lua, &target)?,
                    combat,
                    reason: crate::script::api::convert::log_text(reason, "ctx:attack's reason")?
                        .unwrap_or_else(|| source.clone()),
                    source,
                })
            }));
        methods.add_method(
            api("summon_near"),
            timed(
                "summon_near",
                |lua, this, (summoner, profile, within): (Value, String, Value)| {
                    let within = match within {
                        Value::Integer(n) if n >= 0 => n as f64,
                        Value::Number(n) if n.is_finite() && n >= 0.0 => n,
                        Value::String(s) => {
                            let name = s.to_string_lossy();
                            let m = crate::roster::Measure::named(&name).ok_or_else(|| {
                                fail(lua, format!("ctx:summon_near: within = {name:?}"))
                            })?;
                            this.rules.measures.get(m)
                        }
                        other => {
                            return Err(fail(
                                lua,
                                format!("ctx:summon_near: within = a {}", other.type_name()),
                            ))
                        }
                    };
                    this.ask(
                        lua,
                        Intent::Summon {
                            summoner: model_id(lua, &summoner)?,
                            profile,
                            within,
                            source: this.source.clone(),
                        },
                    )
                },
            ),
        );
        methods.add_method(
            api("usable"),
            timed("usable", |lua, this, m: Value| {
                let id = model_id(lua, &m)?;
                match this.kernel {
                    Some(k) => k.usable(lua, this, id),
                    None => lua.create_table(),
                }
            }),
        );
        methods.add_method(
            api("remove_barricade"),
            timed("remove_barricade", |lua, this, tok: Value| {
                let token = match &tok {
                    Value::Integer(i) if *i > 0 => TokenId(*i as u32),
                    Value::Table(t) => TokenId(t.raw_get::<u32>("id")?),
                    other => {
                        return Err(fail(
                            lua,
                            format!(
                                "ctx:remove_barricade: a {} (expected a token)",
                                other.type_name()
                            ),
                        ))
                    }
                };
                this.ask(
                    lua,
                    Intent::RemoveBarricade {
                        token,
                        source: this.source.clone(),
                    },
                )
            }),
        );
    }
}

/// A building argument: its name, or a snapshot with `name`.
pub(super) fn building_name(lua: &Lua, v: &Value) -> mlua::Result<String> {
    match v {
        Value::String(s) => Ok(s.to_string_lossy()),
        Value::Table(t) => t.raw_get::<String>("name"),
        other => Err(fail(
            lua,
            format!("expected a building or its name, got {}", other.type_name()),
        )),
    }
}

/// The track `name` of `game`, or an error (at the script's line) saying it is not in play and how a
/// track comes into play.
fn track_in_play<'g>(
    lua: &Lua,
    game: &'g crate::state::Game,
    name: &str,
) -> mlua::Result<&'g crate::state::TrackState> {
    game.tracks.get(name).ok_or_else(|| {
        let known: Vec<&str> = game.tracks.keys().map(String::as_str).collect();
        let in_play = if known.is_empty() {
            "no track is in play".to_string()
        } else {
            format!("in play: {}", known.join(", "))
        };
        fail(
            lua,
            format!(
                "the {name:?} track is not in play in this game ({in_play}); a variant in force puts \
                 a track of rosters/tracks.toml in play with `tracks = {{ \"{name}\" }}`"
            ),
        )
    })
}

/// A side as scripts name it: "heroes" (0) or "enemies" (1).
fn side_index(lua: &Lua, side: &str) -> mlua::Result<usize> {
    match side {
        "heroes" => Ok(0),
        "enemies" => Ok(1),
        other => Err(fail(
            lua,
            format!("a side is \"heroes\" or \"enemies\", not {other:?}"),
        )),
    }
}
