//! Entities as ID handles (DESIGN.md invariant 3): a model or building handle holds only its id and the
//! game it belongs to, and is resolved on every use, so a stale handle is a clear error.
//!
//! The same field names serve the live handles of the API and the read-only views hooks receive
//! (`hooks/views.rs`); what each field is worth is said once, in `fields.rs` ([`model_field`],
//! [`building_field`]).

use super::convert::fail;
use super::game::Core;
use super::spec;

use crate::state::{EventKind, Game, ModelId};
use mlua::{Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value};
use std::rc::Rc;

// The field lists live in the spec, so the handles, the snapshots and the stubs name the same fields.
pub use super::spec::{BUILDING_FIELDS, MODEL_FIELDS};
// What each field is worth is said once, in `fields` (the views push it from C).
pub use super::fields::{building_field, model_field};

/// A live handle to a model of a game.
#[derive(Clone)]
pub struct ModelRef {
    pub core: Rc<Core>,
    pub id: ModelId,
    /// Kept so a handle to a removed model can still say what it was.
    pub name: String,
}

impl ModelRef {
    /// Its fields in [`MODEL_FIELDS`] order, each with its value now (`pairs(model)`, and the REPL's
    /// display of a handle); a nil field is left out. A model off the table has only `id`, `name` and
    /// `defeated`, as indexing it answers.
    fn fields(&self, lua: &Lua) -> mlua::Result<Vec<(&'static str, Value)>> {
        let game = self.core.read(lua)?;
        match game.model(self.id) {
            Ok(m) => present(MODEL_FIELDS, |key| {
                model_field(lua, &game, &self.core.rules, m, key)
            }),
            Err(_) => {
                let defeated = self
                    .removal(&game)
                    .is_some_and(|r| r == "defeated" || r == "gruesome kill");
                Ok(vec![
                    ("id", Value::Integer(i64::from(self.id.0))),
                    ("name", Value::String(lua.create_string(&self.name)?)),
                    ("defeated", Value::Boolean(defeated)),
                ])
            }
        }
    }

    /// Why the model left the table, if it did.
    fn removal(&self, game: &Game) -> Option<String> {
        game.log().iter().rev().find_map(|e| match &e.kind {
            EventKind::Removed { model, reason } if *model == self.id => Some(reason.clone()),
            _ => None,
        })
    }
}

/// The name of a `Model` member, as `spec` describes it (a name it does not describe panics).
fn api(member: &str) -> &'static str {
    spec::member("Model", member)
}

impl UserData for ModelRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(api("has_trait"), |lua, this, name: String| {
            let game = this.core.read(lua)?;
            let m = game.model(this.id).map_err(|e| fail(lua, e))?;
            Ok(m.has_trait(&name))
        });
        methods.add_method(api("has"), |lua, this, condition: String| {
            let game = this.core.read(lua)?;
            let m = game.model(this.id).map_err(|e| fail(lua, e))?;
            Ok(m.conditions.iter().any(|c| c.as_str() == condition))
        });
        methods.add_method(api("profile"), |lua, this, ()| {
            super::profile_card(lua, &this.name)
        });
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            // The id and name live in the handle: they answer even while a rule is being resolved (a
            // spell script reading the winner of its own attack).
            match key.as_str() {
                "id" => return Ok(Value::Integer(i64::from(this.id.0))),
                "name" => return Ok(Value::String(lua.create_string(&this.name)?)),
                _ => {}
            }
            let game = this.core.read(lua)?;
            match game.model(this.id) {
                Ok(m) => model_field(lua, &game, &this.core.rules, m, &key),
                Err(e) => match key.as_str() {
                    "id" => Ok(Value::Integer(i64::from(this.id.0))),
                    "name" => Ok(Value::String(lua.create_string(&this.name)?)),
                    "defeated" => Ok(Value::Boolean(
                        // Defeated in combat or by morale; not a model that Fled, left or vanished.
                        this.removal(&game)
                            .is_some_and(|r| r == "defeated" || r == "gruesome kill"),
                    )),
                    _ => {
                        let why = this.removal(&game).unwrap_or_else(|| "removed".into());
                        Err(fail(
                            lua,
                            format!(
                                "{e} ({} {}; reading `{key}`)",
                                this.name,
                                removal_words(&why)
                            ),
                        ))
                    }
                },
            }
        });
        methods.add_meta_method(MetaMethod::Pairs, |lua, this, ()| {
            iterate(lua, this.fields(lua)?)
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("{} ({})", this.name, this.id))
        });
        methods.add_meta_method(
            MetaMethod::Eq,
            |_, this, other: mlua::UserDataRef<ModelRef>| {
                Ok(Rc::ptr_eq(&this.core, &other.core) && this.id == other.id)
            },
        );
    }
}

/// The fields of `keys` that have a value (`field` gives it), in that order: what `pairs` lists.
fn present(
    keys: &[&'static str],
    mut field: impl FnMut(&str) -> mlua::Result<Value>,
) -> mlua::Result<Vec<(&'static str, Value)>> {
    let mut out = Vec::new();
    for key in keys {
        let v = field(key)?;
        if !v.is_nil() {
            out.push((*key, v));
        }
    }
    Ok(out)
}

/// What `__pairs` returns for `fields`: an iterator giving each field and its value in order, read when
/// the loop began (a stable order, unlike a table's).
fn iterate(
    lua: &Lua,
    fields: Vec<(&'static str, Value)>,
) -> mlua::Result<(mlua::Function, Value, Value)> {
    let next = std::cell::Cell::new(0usize);
    let f = lua.create_function(move |lua, _: mlua::MultiValue| {
        let i = next.get();
        next.set(i + 1);
        Ok(match fields.get(i) {
            Some((k, v)) => (Value::String(lua.create_string(k)?), v.clone()),
            None => (Value::Nil, Value::Nil),
        })
    })?;
    Ok((f, Value::Nil, Value::Nil))
}

/// How a removal reason reads after a model's name.
fn removal_words(reason: &str) -> String {
    match reason {
        "defeated" => "was Defeated".to_string(),
        "fled" => "Fled".to_string(),
        "gruesome kill" => "suffered a Gruesome Kill".to_string(),
        "removed" => "was removed".to_string(),
        other => format!("was removed ({other})"),
    }
}

/// A live handle to a building of a game.
#[derive(Clone)]
pub struct BuildingRef {
    pub core: Rc<Core>,
    pub name: String,
}

impl UserData for BuildingRef {
    fn add_fields<F: UserDataFields<Self>>(_fields: &mut F) {}

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            let game = this.core.read(lua)?;
            let b = game.building(&this.name).map_err(|e| fail(lua, e))?;
            building_field(lua, b, &key)
        });
        methods.add_meta_method(MetaMethod::Pairs, |lua, this, ()| {
            let game = this.core.read(lua)?;
            let b = game.building(&this.name).map_err(|e| fail(lua, e))?;
            iterate(
                lua,
                present(BUILDING_FIELDS, |key| building_field(lua, b, key))?,
            )
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| Ok(this.name.clone()));
        methods.add_meta_method(
            MetaMethod::Eq,
            |_, this, other: mlua::UserDataRef<BuildingRef>| {
                Ok(Rc::ptr_eq(&this.core, &other.core) && this.name == other.name)
            },
        );
    }
}
