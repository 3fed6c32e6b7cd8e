//! Errors that did not say where (issue 36, root cause 15's sandbox parts): a game method called
//! through the sandbox's `pcall` or `xpcall` named the sandbox's own line; a
//! recursion through C (`tostring` and `__tostring`, `gsub` with a function, `string.format`, a
//! sort's comparator) overflowed Lua's C stack with no position at all; a library error raised
//! through the sandbox's `setmetatable` had none either. Each now names the script's file:line.

use crate::{finishes, fixture, hook_error};
use village::roster::Rosters;
use village::script::{Limits, ScriptHost};

/// A session on the built-in data, running `src` as the chunk `play.lua`; what it returned, as text.
fn run(src: &'static str) -> Result<String, String> {
    finishes(move || {
        let host = ScriptHost::open(&[Rosters::builtin_root()], Limits::default(), 1)
            .unwrap_or_else(|e| panic!("the session opens: {}", e.join("\n")));
        let values = host.vm().exec(src, "play.lua").map_err(|e| e.to_string())?;
        Ok(values
            .into_iter()
            .map(|v| v.to_string().unwrap_or_default())
            .collect::<Vec<_>>()
            .join("|"))
    })
}

#[test]
fn a_game_method_called_through_pcall_names_the_calling_line() {
    let out = run(r#"
        local g = village.new_game({ seed = 1, table = "empty" })
        local orc = g:place("Orc Warrior", { x = 3, y = 3 })
        local _, a = pcall(g.melee, g, orc, 99)
        local _, b = pcall(g.melee, g)
        local _, c = xpcall(g.place, function(m) return m end, g, "Nobody", { x = 1, y = 1 })
        local _, d = pcall(g.place, g, "Orc Warrior", { x = 1e300, y = 1 })
        local _, e = pcall(g.order, g, orc, { melee = 97 })
        return tostring(a), tostring(b), tostring(c), tostring(d), tostring(e)
        "#);
    let out = out.expect("the chunk runs");
    let shown: Vec<&str> = out.split('|').collect();
    assert_eq!(shown.len(), 5, "{out}");
    for (i, (text, line)) in shown.iter().zip([4, 5, 6, 7, 8]).enumerate() {
        let headline = text.lines().next().unwrap_or_default();
        assert!(
            headline.contains(&format!("play.lua:{line}: ")),
            "error {i}: {text}"
        );
        assert!(!headline.contains("sandbox"), "error {i}: {text}");
    }
}

#[test]
fn a_recursion_through_c_names_the_script_line() {
    for src in [
        "local t = setmetatable({}, { __tostring = function(s) return tostring(s) end })\nreturn tostring(t)",
        "local function f(s) return (s:gsub('.', f)) end\nf('abc')",
        "local t = setmetatable({}, { __tostring = function(s) return ('%s'):format(s) end })\nprint(t)",
        "local t = { 3, 2, 1 }\nlocal function c(a, b) table.sort(t, c) return a < b end\ntable.sort(t, c)",
        "local function f() return coroutine.wrap(f)() end\nf()",
    ] {
        let (e, goes_on) = hook_error(src);
        let text = e.to_string();
        let headline = text.lines().next().unwrap_or_default();
        assert!(
            headline.starts_with("evil.lua:1: ") || headline.starts_with("evil.lua:2: "),
            "{src}: {text}"
        );
        assert!(headline.contains("overflow"), "{src}: {text}");
        assert!(goes_on, "{src}");
    }
}

#[test]
fn a_hook_whose_recursion_overflows_names_its_file_and_line() {
    let e = finishes(|| {
        let host = ScriptHost::open(
            &[Rosters::builtin_root(), fixture("tostring_recursion")],
            Limits::default(),
            1,
        )
        .unwrap_or_else(|e| panic!("the mod loads: {}", e.join("\n")));
        let heroes = vec!["Captain Maren".to_string(), "Bram the Smith".to_string()];
        host.play_logged(
            2,
            &heroes,
            "intro",
            "generated",
            &["evil".to_string()],
            "default",
        )
        .err()
    });
    let e = e.expect("the game stops at the hook");
    let headline = e.lines().next().unwrap_or_default().to_string();
    assert!(
        headline.contains("tostring_recursion/scripts/variants/evil.lua:6: "),
        "{e}"
    );
    assert!(headline.contains("stack overflow"), "{e}");
}

#[test]
fn errors_raised_through_the_sandbox_wrappers_name_the_script_line() {
    for src in [
        "setmetatable(table, {})",
        "setmetatable(1, {})",
        "local t = {}\nwhile true do table.insert(t, 1) table.remove(t) end",
    ] {
        let (e, goes_on) = hook_error(src);
        let text = e.to_string();
        let headline = text.lines().next().unwrap_or_default();
        assert!(headline.starts_with("evil.lua:"), "{src}: {text}");
        assert!(!headline.contains("sandbox"), "{src}: {text}");
        assert!(goes_on, "{src}");
    }
}
