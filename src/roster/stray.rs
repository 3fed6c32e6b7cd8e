//! Files under a layer's `rosters/` that the loader does not read (issue 36, root cause 14): it reads
//! the fixed list of `load::FILES` directly in `rosters/`, so a subfolder (`rosters/extra/*.toml`), a
//! name in the wrong case (`heroes.TOML`) or a misspelt one (`heros.toml`) used to be skipped without a
//! word. Each is a warning naming the file and why it is not read — a warning, since a mod may keep
//! other things beside its rosters; files that are not TOML (notes) and hidden files (an editor's) are
//! left alone.

use super::error::Diagnostic;
use super::load::FILES;
use super::source::display_name;
use std::path::Path;

/// A warning for each entry of `root/rosters/` that the loader of layer `layer` will not read.
pub(crate) fn stray_files(layer: usize, root: &Path, warnings: &mut Vec<Diagnostic>) {
    let Ok(entries) = std::fs::read_dir(root.join("rosters")) else {
        return;
    };
    let mut names: Vec<(String, bool)> = entries
        .filter_map(Result::ok)
        .map(|e| {
            let dir = e.path().is_dir();
            (e.file_name().to_string_lossy().into_owned(), dir)
        })
        .collect();
    names.sort();
    let known: Vec<&str> = FILES.iter().map(|(f, _, _)| *f).collect();
    let listed = known.join(", ");
    for (name, dir) in names {
        if name.starts_with('.') || known.contains(&name.as_str()) {
            continue;
        }
        let shown = display_name(layer, root, &name);
        let why = if dir {
            format!(
                "a subfolder of rosters/, not read: the loader reads only the files directly in \
                 rosters/ ({listed}); put its entries in one of them"
            )
        } else if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(&name)) {
            format!("not read: the loader reads {k} (file names are case-sensitive)")
        } else if name.to_ascii_lowercase().ends_with(".toml") {
            let stem = name.get(..name.len() - ".toml".len()).unwrap_or(&name);
            let near =
                crate::names::closest(stem, known.iter().map(|k| k.trim_end_matches(".toml")))
                    .map(|k| format!(" (did you mean {k}.toml?)"))
                    .unwrap_or_default();
            format!("not read: not a roster file{near}; the loader reads {listed}")
        } else {
            continue;
        };
        warnings.push(Diagnostic::file(shown, why));
    }
}
