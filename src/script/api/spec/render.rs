//! The API spec as text: the lua-language-server `---@meta` stubs and the Markdown reference.

use super::*;
use std::fmt::Write;

fn lua_doc(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "---{line}");
    }
}

fn lua_usage(out: &mut String, usage: &str) {
    out.push_str("---\n---```lua\n");
    lua_doc(out, usage);
    out.push_str("---```\n");
}

fn lua_field(out: &mut String, fld: &Field) {
    let q = if fld.optional { "?" } else { "" };
    let _ = writeln!(out, "---@field {}{q} {} {}", fld.name, fld.ty, fld.doc);
}

/// The whole API as a lua-language-server `---@meta` file (the content of `scripts/types/village.lua`).
/// Deterministic: it depends only on this file and `registry::KINDS`.
pub fn luals_meta() -> String {
    let mut out = String::new();
    out.push_str("---@meta village\n");
    out.push_str(
        "-- The village scripting API for lua-language-server. Generated from src/script/api/spec.rs: do not\n\
         -- edit. Regenerate with `cargo run -- api --luals > scripts/types/village.lua`.\n",
    );
    for a in ALIASES {
        out.push('\n');
        lua_doc(&mut out, a.doc);
        let _ = writeln!(out, "---@alias {} {}", a.name, a.ty);
    }
    for c in CLASSES.iter() {
        out.push('\n');
        lua_doc(&mut out, c.doc);
        lua_usage(&mut out, c.usage);
        let _ = writeln!(out, "---@class {}", c.name);
        for fld in c.fields {
            lua_field(&mut out, fld);
        }
        match c.kind {
            ClassKind::Global => {
                let _ = writeln!(out, "{} = {{}}", c.name);
            }
            _ if !c.methods.is_empty() => {
                let _ = writeln!(out, "local {} = {{}}", c.name);
            }
            _ => {}
        }
        let sep = if c.kind == ClassKind::Global {
            "."
        } else {
            ":"
        };
        for m in c.methods {
            out.push('\n');
            lua_doc(&mut out, m.doc);
            lua_usage(&mut out, m.usage);
            for prm in m.params {
                let q = if prm.optional { "?" } else { "" };
                let _ = writeln!(out, "---@param {}{q} {} {}", prm.name, prm.ty, prm.doc);
            }
            if !m.returns.is_empty() {
                let _ = writeln!(out, "---@return {}", m.returns);
            }
            let params: Vec<&str> = m.params.iter().map(|p| p.name).collect();
            let _ = writeln!(
                out,
                "function {}{sep}{}({}) end",
                c.name,
                m.name,
                params.join(", ")
            );
        }
    }
    for (kind, entries) in KINDS {
        out.push('\n');
        let (doc, usage) = match module_kind(kind) {
            Some(m) => (m.doc, m.usage),
            None => ("Not described in src/script/api/spec.rs.", "return {}"),
        };
        lua_doc(&mut out, doc);
        lua_usage(&mut out, usage);
        let _ = writeln!(out, "---@class {}", module_class_name(kind));
        for fld in MODULE_DATA {
            lua_field(&mut out, fld);
        }
        for name in entries.iter() {
            let (ty, doc) = entry_shape(kind, name);
            lua_field(&mut out, &opt(name, ty, doc));
        }
    }
    out
}

fn md_usage(out: &mut String, usage: &str) {
    let _ = writeln!(out, "```lua\n{usage}\n```");
}

fn md_type(ty: &str) -> String {
    format!("`{ty}`")
}

/// The whole API as a readable Markdown reference (`village api`).
pub fn reference_markdown() -> String {
    let mut out = String::new();
    out.push_str("# The village Lua API\n\n");
    out.push_str(
        "Generated from src/script/api/spec.rs. For editor completion, point lua-language-server at \
         scripts/types/village.lua (`village api --luals`).\n",
    );
    out.push_str("\n## Types\n\n");
    for a in ALIASES {
        let _ = writeln!(out, "- `{}` = {} — {}", a.name, md_type(a.ty), a.doc);
    }
    for c in CLASSES.iter() {
        let what = match c.kind {
            ClassKind::Global => "global",
            ClassKind::Handle => "handle",
            ClassKind::Table => "table",
        };
        let _ = writeln!(out, "\n## {} ({what})\n\n{}\n", c.name, c.doc);
        md_usage(&mut out, c.usage);
        if !c.fields.is_empty() {
            out.push('\n');
        }
        for fld in c.fields {
            let q = if fld.optional { "?" } else { "" };
            let _ = writeln!(
                out,
                "- `{}{q}`: {} — {}",
                fld.name,
                md_type(fld.ty),
                fld.doc
            );
        }
        let sep = if c.kind == ClassKind::Global {
            "."
        } else {
            ":"
        };
        for m in c.methods {
            let params: Vec<String> = m
                .params
                .iter()
                .map(|p| {
                    let q = if p.optional { "?" } else { "" };
                    format!("{}{q}: {}", p.name, p.ty)
                })
                .collect();
            let ret = if m.returns.is_empty() {
                String::new()
            } else {
                format!(" → {}", m.returns)
            };
            let _ = writeln!(
                out,
                "\n### {}{sep}{}({}){ret}\n\n{}\n",
                c.name,
                m.name,
                params.join(", "),
                m.doc
            );
            for prm in m.params {
                let _ = writeln!(out, "- `{}`: {}", prm.name, prm.doc);
            }
            if !m.params.is_empty() {
                out.push('\n');
            }
            md_usage(&mut out, m.usage);
        }
    }
    out.push_str("\n## Script modules\n\nA script file returns a table; its keys are a closed vocabulary per folder.\n");
    for (kind, entries) in KINDS {
        let (doc, usage) = match module_kind(kind) {
            Some(m) => (m.doc, m.usage),
            None => ("Not described in src/script/api/spec.rs.", "return {}"),
        };
        let _ = writeln!(
            out,
            "\n### {} (scripts/{kind}/)\n\n{doc}\n",
            module_class_name(kind)
        );
        md_usage(&mut out, usage);
        out.push('\n');
        for fld in MODULE_DATA {
            let _ = writeln!(out, "- `{}?`: {} — {}", fld.name, md_type(fld.ty), fld.doc);
        }
        for name in entries.iter() {
            let (ty, doc) = entry_shape(kind, name);
            let _ = writeln!(out, "- `{name}?`: {} — {doc}", md_type(ty));
        }
    }
    out
}
