//! Hot reload: a `notify` watcher over every layer's `scripts/` and `rosters/` folders (and any other
//! file the session loaded), a debounce of the events it reports, and the reload transaction that
//! swaps in new rosters and a new script registry only when everything loads.
//!
//! Threads: the Lua state is not `Send`, so the watcher's thread only timestamps events and sends them
//! over a channel. Everything else — filtering, debouncing, reloading — runs on the thread that owns
//! the [`ScriptHost`], when it calls [`ScriptHost::poll_reload`] or [`ScriptHost::wait_reload`] at a
//! safe point (between REPL lines, between game steps). A reload never runs in the middle of a rule.
//!
//! What a reload changes: the host's registry and rosters. A game fetches the registry from the host
//! on every call, so script changes apply from its next step. A game keeps the rosters (and the
//! variant rule constants) it was created with — its models were built from them — so roster changes
//! apply to games created after the reload.
//!
//! It must never leave a half-applied change: on any error the previous rosters, registry and
//! `require` cache stay in place, and the failed part is retried with the next batch of changes.

use super::error::ScriptError;
use super::registry;
use super::session::ScriptHost;
use crate::roster::Rosters;
use mlua::Value;
use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind, RemoveKind};
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher as _};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

/// A batch is ready once no relevant event arrived for this long (an editor's save is often several
/// events: truncate, write, close, rename).
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// A batch is handed over after this long even if events keep coming, so a file rewritten in a loop
/// cannot starve the reload.
pub const MAX_BATCH_DELAY: Duration = Duration::from_millis(500);

/// How often a waiting watcher looks at its watched folders themselves: a folder renamed away, deleted
/// or replaced (by a sync tool, a `git checkout` of a parent, a `mv` of the mod) sends its watch no
/// event, or one for the old folder, so only a look tells; the folder is then watched again when it
/// is back, and the reloads in between say it is missing.
pub const ROOT_CHECK: Duration = Duration::from_secs(1);

use super::vm::REQUIRE_CACHE;

/// Why a folder or file could not be watched.
#[derive(Debug, thiserror::Error)]
#[error("cannot watch {path}: {source}")]
pub struct WatchError {
    /// The folder or file.
    pub path: PathBuf,
    /// What the OS watcher said.
    #[source]
    pub source: notify::Error,
}

/// A running file watcher for one [`ScriptHost`]. Dropping it stops watching.
///
/// Poll it on the thread that owns the host (it is not `Sync`, and the host is not `Send`).
pub struct Watcher {
    inner: RefCell<RecommendedWatcher>,
    rx: Receiver<(Instant, notify::Result<Event>)>,
    state: RefCell<WatchState>,
}

/// The folders of one layer, canonical.
#[derive(Debug, Clone)]
struct Layer {
    dir: PathBuf,
    scripts: PathBuf,
    rosters: PathBuf,
}

#[derive(Debug, Default)]
struct WatchState {
    layers: Vec<Layer>,
    /// `scripts/` or `rosters/` folders that did not exist yet; their layer folder is watched
    /// non-recursively until they appear.
    missing: Vec<PathBuf>,
    /// Watched `scripts/` or `rosters/` folders that were removed or renamed: their watch is dead
    /// even if a new folder of that name is already there.
    rewatch: BTreeSet<PathBuf>,
    /// The folder (device, inode) each recursive watch was set on: another folder at the same path (a
    /// copy put in place of one moved away) is not watched by it.
    identity: std::collections::BTreeMap<PathBuf, (u64, u64)>,
    /// Folders that were watched and went: when one is back, files written meanwhile went unseen, so
    /// it is reloaded once.
    lost: BTreeSet<PathBuf>,
    /// Files loaded from outside the layers' folders (a scenario run with `village run`).
    extra: BTreeSet<PathBuf>,
    /// Folders watched non-recursively (layer folders, parents of extra files).
    flat: BTreeSet<PathBuf>,
    /// Loaded files already looked at by `sync`, as the host names them.
    seen: BTreeSet<PathBuf>,
    /// The batch being collected.
    pending: Pending,
    /// Parts of a failed reload, retried with the next batch: their changes were never applied.
    carry: Parts,
}

#[derive(Debug, Default)]
struct Pending {
    paths: BTreeSet<PathBuf>,
    parts: Parts,
    first: Option<Instant>,
    last: Option<Instant>,
}

/// What a batch asks to reload.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Parts {
    rosters: bool,
    scripts: bool,
}

impl Parts {
    fn any(self) -> bool {
        self.rosters || self.scripts
    }

    fn merge(&mut self, other: Parts) {
        self.rosters |= other.rosters;
        self.scripts |= other.scripts;
    }
}

/// A debounced set of changes.
struct Batch {
    paths: Vec<PathBuf>,
    parts: Parts,
}

/// What a reload did: the files whose change triggered it, and either what was swapped in or the
/// errors (the last good version stays).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReloadReport {
    /// The changed files (canonical paths), empty for a reload asked for by hand.
    pub changed: Vec<PathBuf>,
    /// What was reloaded, or every error with file:line (scripts) or file/entry/field (rosters).
    pub outcome: Result<ReloadSummary, Vec<String>>,
}

/// A successful reload.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReloadSummary {
    /// The rosters were reloaded (new games use them).
    pub rosters: bool,
    /// The script registry was reloaded, with a cleared `require` cache.
    pub scripts: bool,
    /// Script modules loaded now.
    pub modules: usize,
    /// Module keys ("traits/toy.lua") that appeared.
    pub added: Vec<String>,
    /// Module keys that disappeared.
    pub removed: Vec<String>,
}

impl ReloadReport {
    /// True when the new version is in effect.
    pub fn is_ok(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The errors of a failed reload (empty on success).
    pub fn errors(&self) -> &[String] {
        match &self.outcome {
            Ok(_) => &[],
            Err(e) => e,
        }
    }
}

impl fmt::Display for ReloadReport {
    /// `reloaded scripts/traits/toy.lua (12 modules)`, or
    /// `kept the last good version: scripts/traits/toy.lua:3: …` (one error per line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(s) if !s.rosters && !s.scripts => {
                // Only a file outside the layers (a scenario being run): the caller re-runs it.
                write!(
                    f,
                    "changed {} (nothing to reload)",
                    short_list(&self.changed)
                )
            }
            Ok(s) => {
                let what = if self.changed.is_empty() {
                    "everything".to_string()
                } else {
                    short_list(&self.changed)
                };
                write!(f, "reloaded {what} (")?;
                if s.rosters {
                    write!(f, "rosters, ")?;
                }
                write!(
                    f,
                    "{} module{})",
                    s.modules,
                    if s.modules == 1 { "" } else { "s" }
                )?;
                if !s.added.is_empty() {
                    write!(f, "; added {}", s.added.join(", "))?;
                }
                if !s.removed.is_empty() {
                    write!(f, "; removed {}", s.removed.join(", "))?;
                }
                Ok(())
            }
            Err(errors) => {
                write!(f, "kept the last good version:")?;
                let mut sep = " ";
                for e in errors {
                    // The headline names file:line; a load-time traceback is noise here.
                    write!(f, "{sep}{}", e.lines().next().unwrap_or_default())?;
                    sep = "\n  ";
                }
                Ok(())
            }
        }
    }
}

/// Paths as a user reads them: relative to the built-in layer, absolute for a mod; at most three.
fn short_list(paths: &[PathBuf]) -> String {
    let builtin = Rosters::builtin_root();
    let builtin = builtin.canonicalize().unwrap_or(builtin);
    let shown: Vec<String> = paths
        .iter()
        .take(3)
        .map(|p| p.strip_prefix(&builtin).unwrap_or(p).display().to_string())
        .collect();
    let mut s = shown.join(", ");
    if paths.len() > 3 {
        s.push_str(&format!(" and {} more", paths.len() - 3));
    }
    s
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// The folder at `p` as (device, inode), if there is one.
fn folder_identity(p: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(p)
        .ok()
        .filter(|m| m.is_dir())
        .map(|m| (m.dev(), m.ino()))
}

impl WatchState {
    /// Which part of the session a changed path belongs to; `None` for paths to ignore (editor
    /// swap files, other files next to a watched one, reads).
    fn classify(&self, path: &Path, kind: &EventKind) -> Option<Parts> {
        let folder_event = matches!(
            kind,
            EventKind::Create(CreateKind::Folder) | EventKind::Remove(RemoveKind::Folder)
        );
        let relevant = |root: &Path, ext: &str| {
            path == root
                || (path.starts_with(root)
                    && (path.extension().is_some_and(|x| x == ext)
                        || folder_event
                        || path.is_dir()))
        };
        for l in &self.layers {
            if relevant(&l.scripts, "lua") {
                return Some(Parts {
                    rosters: false,
                    scripts: true,
                });
            }
            if relevant(&l.rosters, "toml") {
                return Some(Parts {
                    rosters: true,
                    scripts: false,
                });
            }
        }
        // A file outside the layers is reported, and reloads nothing by itself.
        self.extra.contains(path).then_some(Parts::default())
    }

    fn inside_layers(&self, path: &Path) -> bool {
        self.layers
            .iter()
            .any(|l| path.starts_with(&l.scripts) || path.starts_with(&l.rosters))
    }

    fn add(&mut self, at: Instant, path: PathBuf, parts: Parts) {
        self.pending.paths.insert(path);
        self.pending.parts.merge(parts);
        self.pending.first = Some(self.pending.first.map_or(at, |f| f.min(at)));
        self.pending.last = Some(self.pending.last.map_or(at, |l| l.max(at)));
    }

    fn handle(&mut self, at: Instant, event: notify::Result<Event>) {
        let event = match event {
            Ok(e) => e,
            Err(_) => {
                // The watcher lost track (queue overflow, a watched folder gone): reload everything.
                self.add_all(at);
                return;
            }
        };
        if event.need_rescan() {
            self.add_all(at);
            return;
        }
        match event.kind {
            // Opening or reading a file (the reload itself reads them all) changes nothing; neither do
            // metadata-only changes such as an access time.
            EventKind::Access(AccessKind::Close(AccessMode::Write)) => {}
            EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_)) => return,
            _ => {}
        }
        let moved = matches!(
            event.kind,
            EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
        );
        for p in &event.paths {
            if moved
                && self
                    .layers
                    .iter()
                    .any(|l| *p == l.scripts || *p == l.rosters)
            {
                self.rewatch.insert(p.clone());
            }
            if let Some(parts) = self.classify(p, &event.kind) {
                self.add(at, p.clone(), parts);
            }
        }
    }

    fn add_all(&mut self, at: Instant) {
        self.pending.parts.merge(Parts {
            rosters: true,
            scripts: true,
        });
        self.pending.first = Some(self.pending.first.map_or(at, |f| f.min(at)));
        self.pending.last = Some(self.pending.last.map_or(at, |l| l.max(at)));
    }

    /// When the batch being collected will be ready, if one is.
    fn ready_at(&self) -> Option<Instant> {
        let (first, last) = (self.pending.first?, self.pending.last?);
        Some((last + DEBOUNCE).min(first + MAX_BATCH_DELAY))
    }

    fn take(&mut self, now: Instant) -> Option<Batch> {
        if self.ready_at()? > now {
            return None;
        }
        let p = std::mem::take(&mut self.pending);
        let mut parts = p.parts;
        parts.merge(std::mem::take(&mut self.carry));
        Some(Batch {
            paths: p.paths.into_iter().collect(),
            parts,
        })
    }
}

impl Watcher {
    /// Start watching `layers` and the `loaded` files outside them.
    fn start(layers: &[PathBuf], loaded: &[PathBuf]) -> Result<Watcher, WatchError> {
        let (tx, rx) = channel();
        // The watcher's thread only stamps and forwards; it never touches Lua.
        let inner = notify::recommended_watcher(move |e: notify::Result<Event>| {
            let _ = tx.send((Instant::now(), e));
        })
        .map_err(|source| WatchError {
            path: layers.first().cloned().unwrap_or_default(),
            source,
        })?;
        let w = Watcher {
            inner: RefCell::new(inner),
            rx,
            state: RefCell::new(WatchState::default()),
        };
        for dir in layers {
            let dir = canonical(dir);
            let layer = Layer {
                scripts: dir.join("scripts"),
                rosters: dir.join("rosters"),
                dir,
            };
            for folder in [&layer.scripts, &layer.rosters] {
                if folder.is_dir() {
                    w.watch_path(folder, RecursiveMode::Recursive)?;
                    if let Some(id) = folder_identity(folder) {
                        w.state.borrow_mut().identity.insert(folder.clone(), id);
                    }
                } else {
                    // Watch the layer so the folder's creation is seen; `sync` adds it then.
                    w.watch_flat(&layer.dir)?;
                    w.state.borrow_mut().missing.push(folder.clone());
                }
            }
            w.state.borrow_mut().layers.push(layer);
        }
        w.sync(loaded);
        Ok(w)
    }

    fn watch_path(&self, path: &Path, mode: RecursiveMode) -> Result<(), WatchError> {
        self.inner
            .borrow_mut()
            .watch(path, mode)
            .map_err(|source| WatchError {
                path: path.to_path_buf(),
                source,
            })
    }

    fn watch_flat(&self, dir: &Path) -> Result<(), WatchError> {
        if self.state.borrow().flat.contains(dir) {
            return Ok(());
        }
        self.watch_path(dir, RecursiveMode::NonRecursive)?;
        self.state.borrow_mut().flat.insert(dir.to_path_buf());
        Ok(())
    }

    /// Catch up with the session: folders that appeared since, files loaded since. Best effort: a file
    /// that cannot be watched is simply not watched (a reload by hand still works).
    fn sync(&self, loaded: &[PathBuf]) {
        // A watched folder that was deleted, renamed away or replaced (another folder at its path, its
        // layer moved away and back, a copy put in its place): its watch is dead or watches another
        // folder. It is missing until it is back; its layer is watched so its return is seen at once
        // (when the layer itself is gone, the next look finds it: `ROOT_CHECK`); and it is reloaded
        // now, which says the folder is gone.
        let gone: Vec<(PathBuf, PathBuf)> = {
            let mut st = self.state.borrow_mut();
            let rewatch = std::mem::take(&mut st.rewatch);
            st.layers
                .iter()
                .flat_map(|l| {
                    [
                        (l.dir.clone(), l.scripts.clone()),
                        (l.dir.clone(), l.rosters.clone()),
                    ]
                })
                .filter(|(_, f)| {
                    !st.missing.contains(f)
                        && (rewatch.contains(f)
                            || match st.identity.get(f) {
                                Some(id) => folder_identity(f) != Some(*id),
                                None => !f.is_dir(),
                            })
                })
                .collect()
        };
        for (dir, folder) in gone {
            let _ = self.inner.borrow_mut().unwatch(&folder);
            let _ = self.watch_flat(&dir);
            let mut st = self.state.borrow_mut();
            st.identity.remove(&folder);
            st.missing.push(folder.clone());
            st.lost.insert(folder.clone());
            let parts = st.classify(&folder, &EventKind::Any);
            if let Some(parts) = parts {
                st.add(Instant::now(), folder, parts);
            }
        }
        let appeared: Vec<PathBuf> = self
            .state
            .borrow()
            .missing
            .iter()
            .filter(|f| f.is_dir())
            .cloned()
            .collect();
        for folder in appeared {
            if self.watch_path(&folder, RecursiveMode::Recursive).is_ok() {
                let mut st = self.state.borrow_mut();
                st.missing.retain(|f| *f != folder);
                if let Some(id) = folder_identity(&folder) {
                    st.identity.insert(folder.clone(), id);
                }
                if st.lost.remove(&folder) {
                    let parts = st.classify(&folder, &EventKind::Any);
                    if let Some(parts) = parts {
                        st.add(Instant::now(), folder, parts);
                    }
                }
            }
        }
        for raw in loaded {
            if !self.state.borrow_mut().seen.insert(raw.clone()) {
                continue;
            }
            let file = canonical(raw);
            {
                let st = self.state.borrow();
                if st.extra.contains(&file) || st.inside_layers(&file) {
                    continue;
                }
            }
            // Watch the folder, not the file: editors that save by renaming a new file over the old
            // one would end a watch on the file itself.
            let Some(parent) = file.parent() else {
                continue;
            };
            if self.watch_flat(parent).is_ok() {
                self.state.borrow_mut().extra.insert(file);
            } else {
                // Try again at the next poll (the folder may come back).
                self.state.borrow_mut().seen.remove(raw);
            }
        }
    }

    /// Move every event that has arrived into the pending batch.
    fn drain(&self) {
        let mut st = self.state.borrow_mut();
        loop {
            match self.rx.try_recv() {
                Ok((at, e)) => st.handle(at, e),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return,
            }
        }
    }

    /// The next debounced batch: at once if one is ready, else waiting until `deadline` (`None`: do
    /// not wait).
    fn next_batch(&self, deadline: Option<Instant>) -> Option<Batch> {
        loop {
            self.drain();
            let now = Instant::now();
            if let Some(b) = self.state.borrow_mut().take(now) {
                return Some(b);
            }
            let deadline = deadline?;
            if now >= deadline {
                return None;
            }
            let wake = self
                .state
                .borrow()
                .ready_at()
                .map_or(deadline, |r| r.min(deadline));
            match self.rx.recv_timeout(wake.saturating_duration_since(now)) {
                Ok((at, e)) => self.state.borrow_mut().handle(at, e),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    // Cannot happen while we own the watcher; do not spin if it does.
                    std::thread::sleep(wake.saturating_duration_since(Instant::now()));
                }
            }
        }
    }

    /// Folders watched recursively and files watched one by one (for diagnostics and tests).
    pub fn watched(&self) -> Vec<PathBuf> {
        let st = self.state.borrow();
        let mut v: Vec<PathBuf> = st
            .layers
            .iter()
            .flat_map(|l| [l.scripts.clone(), l.rosters.clone()])
            .filter(|f| !st.missing.contains(f))
            .collect();
        v.extend(st.extra.iter().cloned());
        v
    }
}

impl ScriptHost {
    /// Start watching this session's `scripts/` and `rosters/` folders and the files it loaded from
    /// elsewhere. Poll the returned watcher with [`ScriptHost::poll_reload`] or
    /// [`ScriptHost::wait_reload`] on this thread.
    pub fn watch(&self) -> Result<Watcher, WatchError> {
        Watcher::start(self.layers(), &self.vm().loaded_files())
    }

    /// Non-blocking: if a debounced batch of changes is ready, reload and report.
    pub fn poll_reload(&self, w: &Watcher) -> Option<ReloadReport> {
        w.sync(&self.vm().loaded_files());
        let batch = w.next_batch(None)?;
        Some(self.apply(w, batch))
    }

    /// Wait up to `timeout` for the next batch of changes, then reload and report (tests,
    /// `village run --watch`). `None` when nothing changed in time. The watched folders themselves
    /// are looked at every [`ROOT_CHECK`] meanwhile, so one that went away and came back is watched
    /// again (it used to stop reloading without a word).
    pub fn wait_reload(&self, w: &Watcher, timeout: Duration) -> Option<ReloadReport> {
        let deadline = Instant::now() + timeout;
        loop {
            w.sync(&self.vm().loaded_files());
            let look = (Instant::now() + ROOT_CHECK).min(deadline);
            if let Some(batch) = w.next_batch(Some(look)) {
                return Some(self.apply(w, batch));
            }
            if Instant::now() >= deadline {
                return None;
            }
        }
    }

    /// Reload the rosters and every script now (the REPL's `:reload`).
    pub fn reload(&self) -> ReloadReport {
        ReloadReport {
            changed: Vec::new(),
            outcome: self.transaction(Parts {
                rosters: true,
                scripts: true,
            }),
        }
    }

    fn apply(&self, w: &Watcher, batch: Batch) -> ReloadReport {
        let mut parts = batch.parts;
        // Rosters check that the scripts they name exist: a script file appearing or vanishing
        // revalidates them too.
        if parts.scripts && !parts.rosters {
            let on_disk: BTreeSet<String> = registry::discover(&self.vm().host().roots)
                .into_keys()
                .collect();
            let loaded: BTreeSet<String> = self
                .vm()
                .host()
                .registry()
                .modules()
                .map(|m| m.key.clone())
                .collect();
            parts.rosters = on_disk != loaded;
        }
        let outcome = if parts.any() {
            self.transaction(parts)
        } else {
            Ok(ReloadSummary {
                modules: self.module_count(),
                ..ReloadSummary::default()
            })
        };
        if outcome.is_err() {
            // Nothing of this batch was applied: the next batch must redo it, whatever it touches.
            w.state.borrow_mut().carry.merge(parts);
        }
        ReloadReport {
            changed: batch.paths,
            outcome,
        }
    }

    /// Load the asked parts into fresh values; swap them in only if all loaded.
    fn transaction(&self, parts: Parts) -> Result<ReloadSummary, Vec<String>> {
        let h = self.vm().host();
        let lua = self.vm().lua();
        let mut errors: Vec<String> = Vec::new();

        let rosters = if parts.rosters {
            match Rosters::load(self.layers()) {
                Ok(r) => Some(r),
                Err(e) => {
                    errors.extend(e.0.iter().map(|d| d.to_string()));
                    None
                }
            }
        } else {
            None
        };

        let mut saved_cache = None;
        let registry = if parts.scripts {
            // A fresh `require` cache, so changed `lib/` modules are required again.
            let old = lua
                .named_registry_value::<Value>(REQUIRE_CACHE)
                .unwrap_or(Value::Nil);
            let fresh = lua
                .create_table()
                .and_then(|t| lua.set_named_registry_value(REQUIRE_CACHE, t));
            if let Err(e) = fresh {
                errors.push(ScriptError::from_lua(e).to_string());
            }
            saved_cache = Some(old);
            match registry::load(lua, &h.roots, h.limits.hook_instructions) {
                Ok(r) => Some(r),
                Err(es) => {
                    errors.extend(es.iter().map(|e| e.to_string()));
                    None
                }
            }
        } else {
            None
        };

        if !errors.is_empty() {
            if let Some(old) = saved_cache {
                // Best effort: failing to restore only means modules get required afresh later.
                let _ = lua.set_named_registry_value(REQUIRE_CACHE, old);
                // And `require` goes on with the code the kept modules were loaded with.
                *h.required.borrow_mut() = h.registry().required().clone();
            }
            return Err(errors);
        }

        let mut summary = ReloadSummary {
            rosters: rosters.is_some(),
            scripts: registry.is_some(),
            ..ReloadSummary::default()
        };
        if let Some(r) = rosters {
            *h.rosters.borrow_mut() = Some(Rc::new(r));
        }
        if let Some(new) = registry {
            let old = h.registry();
            summary.added = new
                .modules()
                .filter(|m| old.get(&m.key).is_none())
                .map(|m| m.key.clone())
                .collect();
            summary.removed = old
                .modules()
                .filter(|m| new.get(&m.key).is_none())
                .map(|m| m.key.clone())
                .collect();
            h.set_registry(new);
        }
        summary.modules = self.module_count();
        Ok(summary)
    }
}
