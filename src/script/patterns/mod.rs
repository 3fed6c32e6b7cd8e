//! Lua 5.4's pattern matching (`string.find`, `string.match`, `string.gmatch`, `string.gsub`), ported
//! from lstrlib.c (Lua 5.4.9) so that its work is charged to the script's instruction budget.
//!
//! Lua's own matcher runs inside one C call that the instruction hook never interrupts, and a
//! backtracking pattern (`string.rep(".-", 30) .. "b"` over a long subject) can run for hours there.
//! This module owns the replacement: a byte-for-byte port of the matcher (same results, same error
//! texts, same 5.4 rules for `init`, anchors, `lastmatch` and replacements) whose every step is counted
//! and handed to a charge callback, plus the glue that installs it in a VM's `string` table.
//!
//! Two layers:
//! - the pure core ([`find`], [`str_match`], [`GMatch`], [`gsub`]) works on `&[u8]` and knows nothing of
//!   mlua. It takes the charge callback as `&mut dyn FnMut(u64) -> Result<(), E>`: the units of work
//!   are added up and the callback is called each time at least [`CHARGE_BATCH`] have piled up, then
//!   once with the remainder before the call returns. An `Err` from it stops the match at once and
//!   comes back as [`MatchError::Host`].
//! - the glue ([`install`]) checks and coerces arguments as `luaL_check*` do, converts results, calls
//!   replacement tables and functions, and raises Lua's errors as Lua does: as strings with the
//!   caller's `file:line:` in front. A Rust callback can only raise an mlua error object, so each
//!   function is wrapped in a two-line Lua shim (chunk `=sandbox`) that raises the message with
//!   `error(msg, 0)`; errors from the charge callback (the budget) go through untouched.
//!
//! What counts as one unit: each step of `match` (every entry and every item it moves past without
//! recursing), each character tried by `max_expand`/`min_expand`, each byte `matchbalance` scans, each
//! set item a bracket class examines and each byte `classend` scans in one, each byte compared by a
//! back-reference or a plain search, each start position tried, each pattern byte scanned for
//! specials, and each byte copied into a `gsub` result.

/// Units of work added up before the charge callback is called, so the hot loop only adds and compares.
pub(crate) const CHARGE_BATCH: u64 = 1000;

/// Maximum recursion depth of `match` (lstrlib.c `MAXCCALLS`); deeper patterns are "too complex".
const MAXCCALLS: usize = 200;
/// Captures a pattern may open (`LUA_MAXCAPTURES`).
const MAXCAPTURES: usize = 32;
/// Capture length of a capture still open.
const CAP_UNFINISHED: isize = -1;
/// Capture length of a position capture `()`.
const CAP_POSITION: isize = -2;
/// The escape character of patterns and replacement strings.
const L_ESC: u8 = b'%';
/// Bytes that make `string.find` use the matcher instead of a plain search.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Why a pattern call stopped before producing a result.
#[derive(Debug)]
pub(crate) enum MatchError<E> {
    /// An error Lua's matcher raises, with Lua's exact text and no position prefix (the caller adds
    /// the `file:line:` of the script, as `luaL_error` does).
    Lua(String),
    /// An error from a host callback (the charge callback or a replacement), passed through untouched.
    Host(E),
}

type Res<T, E> = Result<T, MatchError<E>>;

fn lua_err<T, E>(msg: impl Into<String>) -> Res<T, E> {
    Err(MatchError::Lua(msg.into()))
}

/// The charge callback of the core: called with a number of units, an `Err` stops the work.
pub(crate) type ChargeFn<'c, E> = dyn FnMut(u64) -> Result<(), E> + 'c;

/// Adds up units of work and hands them to the charge callback in batches.
struct Meter<'c, 'f, E> {
    pending: u64,
    /// Set once the callback has refused: it is never called again, not even for the remainder.
    refused: bool,
    charge: &'f mut ChargeFn<'c, E>,
}

impl<'c, 'f, E> Meter<'c, 'f, E> {
    fn new(charge: &'f mut ChargeFn<'c, E>) -> Self {
        Meter {
            pending: 0,
            refused: false,
            charge,
        }
    }

    #[inline]
    fn add(&mut self, units: u64) -> Res<(), E> {
        self.pending = self.pending.saturating_add(units);
        if self.pending >= CHARGE_BATCH {
            self.flush()
        } else {
            Ok(())
        }
    }

    fn flush(&mut self) -> Res<(), E> {
        let units = std::mem::take(&mut self.pending);
        if units == 0 || self.refused {
            return Ok(());
        }
        (self.charge)(units).map_err(|e| {
            self.refused = true;
            MatchError::Host(e)
        })
    }

    /// Charges the remainder and returns the call's result. The remainder is charged on Lua errors
    /// too (the work was done); a refused charge wins over any other outcome.
    fn finish<T>(&mut self, res: Res<T, E>) -> Res<T, E> {
        match self.flush() {
            Ok(()) => res,
            Err(e) => Err(e),
        }
    }
}

/// One capture of a successful match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Capture<'s> {
    /// A substring of the subject.
    Text(&'s [u8]),
    /// A position capture `()`: a 1-based index into the subject.
    Position(usize),
}

/// A capture slot while matching: start and length, or one of the `CAP_*` marks as length.
#[derive(Debug, Clone, Copy)]
struct Cap {
    init: usize,
    len: isize,
}

/// lstrlib.c's `MatchState`: positions are indices into `src` and `pat`. Reading one past the end
/// gives 0, as reading C's terminating `'\0'` does (frontiers and `%b` rely on it).
struct MatchState<'s, 'p, 'm, 'c, 'f, E> {
    src: &'s [u8],
    pat: &'p [u8],
    matchdepth: usize,
    level: usize,
    capture: [Cap; MAXCAPTURES],
    meter: &'m mut Meter<'c, 'f, E>,
}

/// C's `match_class`: `cl` is the class letter after `%`, in the C locale (bytes >= 0x80 belong to no
/// class).
fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace also holds for '\v', which Rust's is_ascii_whitespace leaves out.
        b's' => c.is_ascii_whitespace() || c == 0x0b,
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0, // deprecated, still accepted by 5.4
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

/// C's `matchbracketclass`: whether `c` is in the set whose `[` is at `p` and `]` at `ec`, and how many
/// set items were examined (the caller charges them).
fn bracket_class(pat: &[u8], c: u8, mut p: usize, ec: usize) -> (bool, u64) {
    let at = |i: usize| pat.get(i).copied().unwrap_or(0);
    let mut sig = true;
    let mut steps = 0;
    if at(p + 1) == b'^' {
        sig = false;
        p += 1; // skip the '^'
    }
    loop {
        p += 1;
        if p >= ec {
            return (!sig, steps);
        }
        steps += 1;
        if at(p) == L_ESC {
            p += 1;
            if match_class(c, at(p)) {
                return (sig, steps);
            }
        } else if at(p + 1) == b'-' && p + 2 < ec {
            p += 2;
            if at(p - 2) <= c && c <= at(p) {
                return (sig, steps);
            }
        } else if at(p) == c {
            return (sig, steps);
        }
    }
}

impl<'s, 'p, 'm, 'c, 'f, E> MatchState<'s, 'p, 'm, 'c, 'f, E> {
    fn new(src: &'s [u8], pat: &'p [u8], meter: &'m mut Meter<'c, 'f, E>) -> Self {
        MatchState {
            src,
            pat,
            matchdepth: MAXCCALLS,
            level: 0,
            capture: [Cap { init: 0, len: 0 }; MAXCAPTURES],
            meter,
        }
    }

    #[inline]
    fn pat_at(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn src_at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn reprepstate(&mut self) {
        self.matchdepth = MAXCCALLS;
        self.level = 0;
    }

    fn check_capture(&self, l: u8) -> Res<usize, E> {
        let l = i32::from(l) - i32::from(b'1');
        match usize::try_from(l) {
            Ok(i) if i < self.level && self.capture[i].len != CAP_UNFINISHED => Ok(i),
            _ => lua_err(format!("invalid capture index %{}", l + 1)),
        }
    }

    fn capture_to_close(&self) -> Res<usize, E> {
        match (0..self.level)
            .rev()
            .find(|&l| self.capture[l].len == CAP_UNFINISHED)
        {
            Some(l) => Ok(l),
            None => lua_err("invalid pattern capture"),
        }
    }

    /// C's `classend`: the index just past the single-char class at `p`.
    fn classend(&mut self, p: usize) -> Res<usize, E> {
        let plen = self.pat.len();
        let first = self.pat_at(p);
        let mut p = p + 1;
        match first {
            L_ESC => {
                if p >= plen {
                    return lua_err("malformed pattern (ends with '%')");
                }
                Ok(p + 1)
            }
            b'[' => {
                let start = p;
                if self.pat_at(p) == b'^' {
                    p += 1;
                }
                // The first byte is taken before looking for ']', so "[]]" is a set of ']'.
                loop {
                    if p >= plen {
                        return lua_err("malformed pattern (missing ']')");
                    }
                    let c = self.pat_at(p);
                    p += 1;
                    if c == L_ESC && p < plen {
                        p += 1; // skip escapes (e.g. '%]')
                    }
                    if self.pat_at(p) == b']' {
                        break;
                    }
                }
                // A long set is scanned again at every step that uses it: charge the scan.
                self.meter.add((p - start) as u64)?;
                Ok(p + 1)
            }
            _ => Ok(p),
        }
    }

    fn matchbracketclass(&mut self, c: u8, p: usize, ec: usize) -> Res<bool, E> {
        let (found, steps) = bracket_class(self.pat, c, p, ec);
        self.meter.add(steps)?;
        Ok(found)
    }

    fn singlematch(&mut self, s: usize, p: usize, ep: usize) -> Res<bool, E> {
        let Some(&c) = self.src.get(s) else {
            return Ok(false);
        };
        Ok(match self.pat_at(p) {
            b'.' => true,
            L_ESC => match_class(c, self.pat_at(p + 1)),
            b'[' => return self.matchbracketclass(c, p, ep.saturating_sub(1)),
            pc => pc == c,
        })
    }

    fn matchbalance(&mut self, s: usize, p: usize) -> Res<Option<usize>, E> {
        if p + 1 >= self.pat.len() {
            return lua_err("malformed pattern (missing arguments to '%b')");
        }
        if self.src_at(s) != self.pat_at(p) {
            return Ok(None);
        }
        let (open, close) = (self.pat_at(p), self.pat_at(p + 1));
        let mut depth = 1usize;
        let mut i = s + 1;
        let mut found = None;
        while let Some(&c) = self.src.get(i) {
            if c == close {
                depth -= 1;
                if depth == 0 {
                    found = Some(i + 1);
                    break;
                }
            } else if c == open {
                depth += 1;
            }
            i += 1;
        }
        self.meter.add((i - s) as u64)?;
        Ok(found)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Res<Option<usize>, E> {
        let mut i = 0;
        while self.singlematch(s + i, p, ep)? {
            self.meter.add(1)?;
            i += 1;
        }
        // Try the rest of the pattern with the most repetitions first, then fewer.
        loop {
            if let Some(res) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(res));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Res<Option<usize>, E> {
        loop {
            if let Some(res) = self.do_match(s, ep + 1)? {
                return Ok(Some(res));
            }
            if self.singlematch(s, p, ep)? {
                self.meter.add(1)?;
                s += 1; // try with one more repetition
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Res<Option<usize>, E> {
        let level = self.level;
        if level >= MAXCAPTURES {
            return lua_err("too many captures");
        }
        self.capture[level] = Cap { init: s, len: what };
        self.level = level + 1;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.level -= 1; // undo capture
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Res<Option<usize>, E> {
        let l = self.capture_to_close()?;
        self.capture[l].len = s.saturating_sub(self.capture[l].init) as isize;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.capture[l].len = CAP_UNFINISHED; // undo capture
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, l: u8) -> Res<Option<usize>, E> {
        let l = self.check_capture(l)?;
        let cap = self.capture[l];
        // A position capture has length -2, which C compares as a huge size_t: it never matches.
        let Ok(len) = usize::try_from(cap.len) else {
            return Ok(None);
        };
        if self.src.len().saturating_sub(s) < len {
            return Ok(None);
        }
        let earlier = self.src.get(cap.init..cap.init + len).unwrap_or_default();
        let here = self.src.get(s..s + len).unwrap_or_default();
        let same = earlier.iter().zip(here).take_while(|(a, b)| a == b).count();
        self.meter.add(same as u64)?;
        Ok((same == len).then_some(s + len))
    }

    /// C's `match`: the end of the match of `pat[p..]` at `src[s..]`, if any.
    fn do_match(&mut self, s: usize, p: usize) -> Res<Option<usize>, E> {
        if self.matchdepth == 0 {
            return lua_err("pattern too complex");
        }
        self.matchdepth -= 1;
        let res = self.match_steps(s, p);
        self.matchdepth += 1;
        res
    }

    /// The body of C's `match`; the loop is its `goto init` (tail calls without recursion).
    fn match_steps(&mut self, mut s: usize, mut p: usize) -> Res<Option<usize>, E> {
        loop {
            self.meter.add(1)?;
            let Some(&pc) = self.pat.get(p) else {
                return Ok(Some(s)); // end of pattern
            };
            match pc {
                b'(' => {
                    return if self.pat_at(p + 1) == b')' {
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                // '$' is an anchor only as the last pattern byte; elsewhere it is a plain char.
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                L_ESC => match self.pat_at(p + 1) {
                    b'b' => match self.matchbalance(s, p + 2)? {
                        Some(e) => {
                            s = e;
                            p += 4;
                            continue;
                        }
                        None => return Ok(None),
                    },
                    b'f' => {
                        p += 2;
                        if self.pat_at(p) != b'[' {
                            return lua_err("missing '[' after '%f' in pattern");
                        }
                        let ep = self.classend(p)?;
                        let previous = if s == 0 { 0 } else { self.src_at(s - 1) };
                        let current = self.src_at(s);
                        if !self.matchbracketclass(previous, p, ep - 1)?
                            && self.matchbracketclass(current, p, ep - 1)?
                        {
                            p = ep;
                            continue;
                        }
                        return Ok(None);
                    }
                    d if d.is_ascii_digit() => match self.match_capture(s, d)? {
                        Some(e) => {
                            s = e;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    },
                    _ => {}
                },
                _ => {}
            }
            // A single-char class with an optional suffix.
            let ep = self.classend(p)?;
            let suffix = self.pat_at(ep);
            if !self.singlematch(s, p, ep)? {
                if matches!(suffix, b'*' | b'?' | b'-') {
                    p = ep + 1; // accept empty
                    continue;
                }
                return Ok(None);
            }
            match suffix {
                b'?' => {
                    if let Some(res) = self.do_match(s + 1, ep + 1)? {
                        return Ok(Some(res));
                    }
                    p = ep + 1;
                }
                b'+' => return self.max_expand(s + 1, p, ep),
                b'*' => return self.max_expand(s, p, ep),
                b'-' => return self.min_expand(s, p, ep),
                _ => {
                    s += 1;
                    p = ep;
                }
            }
        }
    }

    /// C's `get_onecapture`: capture `i`, or the whole match `whole` when there are no captures.
    fn get_onecapture(&self, i: usize, whole: Option<(usize, usize)>) -> Res<Capture<'s>, E> {
        if i >= self.level {
            if i != 0 {
                return lua_err(format!("invalid capture index %{}", i + 1));
            }
            let (s, e) = whole.unwrap_or((0, 0));
            return Ok(Capture::Text(self.src.get(s..e).unwrap_or_default()));
        }
        let cap = self.capture[i];
        match cap.len {
            CAP_UNFINISHED => lua_err("unfinished capture"),
            CAP_POSITION => Ok(Capture::Position(cap.init + 1)),
            len => {
                let end = cap.init + usize::try_from(len).unwrap_or(0);
                Ok(Capture::Text(
                    self.src.get(cap.init..end).unwrap_or_default(),
                ))
            }
        }
    }

    /// C's `push_captures`: all captures, or the whole match when there are none and `whole` is given.
    fn push_captures(&self, whole: Option<(usize, usize)>) -> Res<Vec<Capture<'s>>, E> {
        let nlevels = if self.level == 0 && whole.is_some() {
            1
        } else {
            self.level
        };
        (0..nlevels)
            .map(|i| self.get_onecapture(i, whole))
            .collect()
    }
}

/// C's `posrelatI`: a 1-based start position, negative counting from the end, clipped to >= 1.
fn posrelat_i(pos: i64, len: usize) -> u64 {
    let len = len as u64;
    if pos > 0 {
        pos as u64
    } else if pos == 0 || pos.unsigned_abs() > len {
        1
    } else {
        len - pos.unsigned_abs() + 1
    }
}

/// C's `init` handling: the 0-based start, or `None` when it lies after the end of the subject.
fn start_index(init: i64, len: usize) -> Option<usize> {
    let init = posrelat_i(init, len) - 1;
    if init > len as u64 {
        None
    } else {
        Some(init as usize)
    }
}

/// C's `lmemfind`: the first occurrence of `needle` in `hay`; each byte scanned or compared is a unit.
fn lmemfind<E>(hay: &[u8], needle: &[u8], meter: &mut Meter<'_, '_, E>) -> Res<Option<usize>, E> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(0)); // empty strings are everywhere
    };
    let Some(last) = hay.len().checked_sub(needle.len()) else {
        return Ok(None);
    };
    let mut i = 0;
    while i <= last {
        let window = hay.get(i..=last).unwrap_or_default();
        let Some(k) = window.iter().position(|&b| b == first) else {
            meter.add(window.len() as u64)?;
            return Ok(None);
        };
        meter.add(k as u64 + 1)?;
        let at = i + k;
        let tail = hay.get(at + 1..at + needle.len()).unwrap_or_default();
        let same = tail.iter().zip(rest).take_while(|(a, b)| a == b).count();
        meter.add(same as u64)?;
        if same == rest.len() {
            return Ok(Some(at));
        }
        i = at + 1;
    }
    Ok(None)
}

/// C's `nospecials`: whether the pattern can be searched for as plain text.
fn nospecials<E>(p: &[u8], meter: &mut Meter<'_, '_, E>) -> Res<bool, E> {
    meter.add(p.len() as u64)?;
    Ok(!p.iter().any(|b| SPECIALS.contains(b)))
}

/// A match found by [`find`]: 1-based start and end (inclusive) and the pattern's explicit captures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found<'s> {
    /// 1-based index of the first byte of the match.
    pub start: usize,
    /// 1-based index of the last byte of the match (`start - 1` for an empty match).
    pub end: usize,
    /// The explicit captures (none when the pattern has none).
    pub captures: Vec<Capture<'s>>,
}

/// The shared body of `string.find` and `string.match` (C's `str_find_aux`).
fn find_aux<'s, E>(
    s: &'s [u8],
    p: &[u8],
    init: i64,
    find: bool,
    plain: bool,
    meter: &mut Meter<'_, '_, E>,
) -> Res<Option<Found<'s>>, E> {
    let Some(init) = start_index(init, s.len()) else {
        return Ok(None); // start after the end: cannot find anything
    };
    if find && (plain || nospecials(p, meter)?) {
        let hay = s.get(init..).unwrap_or_default();
        return Ok(lmemfind(hay, p, meter)?.map(|at| Found {
            start: init + at + 1,
            end: init + at + p.len(),
            captures: Vec::new(),
        }));
    }
    let anchor = p.first() == Some(&b'^');
    let pat = if anchor { &p[1..] } else { p };
    let mut ms = MatchState::new(s, pat, meter);
    let mut s1 = init;
    loop {
        ms.reprepstate();
        ms.meter.add(1)?; // a start position tried
        if let Some(e) = ms.do_match(s1, 0)? {
            // find reports the explicit captures only; match falls back to the whole match.
            let captures = ms.push_captures(if find { None } else { Some((s1, e)) })?;
            return Ok(Some(Found {
                start: s1 + 1,
                end: e,
                captures,
            }));
        }
        if s1 >= s.len() || anchor {
            return Ok(None);
        }
        s1 += 1;
    }
}

/// `string.find(s, p, init, plain)` without the Lua side: `init` is Lua's (1-based, negative from the
/// end; pass 1 for the default). `None` is Lua's `fail`.
pub(crate) fn find<'s, E>(
    s: &'s [u8],
    p: &[u8],
    init: i64,
    plain: bool,
    charge: &mut ChargeFn<'_, E>,
) -> Res<Option<Found<'s>>, E> {
    let mut meter = Meter::new(charge);
    let res = find_aux(s, p, init, true, plain, &mut meter);
    meter.finish(res)
}

/// `string.match(s, p, init)` without the Lua side: the captures (or the whole match), `None` when
/// nothing matches.
pub(crate) fn str_match<'s, E>(
    s: &'s [u8],
    p: &[u8],
    init: i64,
    charge: &mut ChargeFn<'_, E>,
) -> Res<Option<Vec<Capture<'s>>>, E> {
    let mut meter = Meter::new(charge);
    let res = find_aux(s, p, init, false, false, &mut meter);
    meter.finish(res).map(|found| found.map(|f| f.captures))
}

/// The state of a `string.gmatch` iterator (C's `GMatchState` without the strings, which the caller
/// keeps and passes to every [`GMatch::next`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GMatch {
    /// Where the next search starts (0-based; may be one past the end).
    src: usize,
    /// End of the last match, so an empty match right there is skipped (5.4 rule).
    lastmatch: Option<usize>,
}

impl GMatch {
    /// The iterator state of `string.gmatch` over a subject of `len` bytes from Lua position `init`.
    pub(crate) fn new(len: usize, init: i64) -> GMatch {
        // Past the end: one beyond it, so the first call finds nothing (C avoids the overflow so).
        let src = start_index(init, len).unwrap_or(len + 1);
        GMatch {
            src,
            lastmatch: None,
        }
    }

    /// The next match of `p` in `s`: its captures (or the whole match), or `None` when there are no
    /// more. In 5.4 gmatch `^` is not an anchor: it is matched as a plain byte, as C does.
    pub(crate) fn next<'s, E>(
        &mut self,
        s: &'s [u8],
        p: &[u8],
        charge: &mut ChargeFn<'_, E>,
    ) -> Res<Option<Vec<Capture<'s>>>, E> {
        let mut meter = Meter::new(charge);
        let res = self.next_metered(s, p, &mut meter);
        meter.finish(res)
    }

    fn next_metered<'s, E>(
        &mut self,
        s: &'s [u8],
        p: &[u8],
        meter: &mut Meter<'_, '_, E>,
    ) -> Res<Option<Vec<Capture<'s>>>, E> {
        let mut ms = MatchState::new(s, p, meter);
        let mut src = self.src;
        while src <= s.len() {
            ms.reprepstate();
            ms.meter.add(1)?; // a start position tried
            if let Some(e) = ms.do_match(src, 0)? {
                if Some(e) != self.lastmatch {
                    // C moves on before pushing the captures, even if pushing them fails.
                    self.src = e;
                    self.lastmatch = Some(e);
                    return ms.push_captures(Some((src, e))).map(Some);
                }
            }
            src += 1;
        }
        Ok(None)
    }
}

/// A replacement callback for a table: given the first capture (or the whole match), append the
/// replacement to the buffer and return `true`, or return `false` to keep the match (nil or false).
pub(crate) type TableRepl<'r, E> = dyn FnMut(Capture<'_>, &mut Vec<u8>) -> Res<bool, E> + 'r;
/// A replacement callback for a function: given all captures (or the whole match), as [`TableRepl`].
pub(crate) type FunctionRepl<'r, E> = dyn FnMut(&[Capture<'_>], &mut Vec<u8>) -> Res<bool, E> + 'r;

/// The third argument of `string.gsub`.
pub(crate) enum Replacement<'r, E> {
    /// A string (or a number, as text): `%0`–`%9` insert captures, `%%` a `%`.
    Text(&'r [u8]),
    /// A table, indexed with the first capture.
    Table(&'r mut TableRepl<'r, E>),
    /// A function, called with all captures.
    Function(&'r mut FunctionRepl<'r, E>),
}

/// The result of [`gsub`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Gsub {
    /// The new string, or `None` when nothing changed (Lua then returns the subject itself).
    pub text: Option<Vec<u8>>,
    /// The number of matches replaced (Lua's second result).
    pub count: i64,
}

/// `string.gsub(s, p, repl, n)` without the Lua side; `max_n` is Lua's `n` (pass `s.len() + 1` for
/// the default).
pub(crate) fn gsub<E>(
    src: &[u8],
    p: &[u8],
    mut repl: Replacement<'_, E>,
    max_n: i64,
    charge: &mut ChargeFn<'_, E>,
) -> Res<Gsub, E> {
    let mut meter = Meter::new(charge);
    let res = gsub_metered(src, p, &mut repl, max_n, &mut meter);
    meter.finish(res)
}

fn gsub_metered<E>(
    src: &[u8],
    p: &[u8],
    repl: &mut Replacement<'_, E>,
    max_n: i64,
    meter: &mut Meter<'_, '_, E>,
) -> Res<Gsub, E> {
    let anchor = p.first() == Some(&b'^');
    let pat = if anchor { &p[1..] } else { p };
    let mut ms = MatchState::new(src, pat, meter);
    let mut out = Vec::new();
    let mut s = 0;
    let mut lastmatch = None;
    let mut count = 0i64;
    let mut changed = false;
    while count < max_n {
        ms.reprepstate();
        ms.meter.add(1)?; // a start position tried
        match ms.do_match(s, 0)? {
            Some(e) if Some(e) != lastmatch => {
                count += 1;
                changed |= ms.add_value(&mut out, s, e, repl)?;
                s = e;
                lastmatch = Some(e);
            }
            _ if s < src.len() => {
                // No (new) match here: keep one byte and move on.
                out.push(src[s]);
                ms.meter.add(1)?;
                s += 1;
            }
            _ => break, // end of subject
        }
        if anchor {
            break;
        }
    }
    if !changed {
        return Ok(Gsub { text: None, count });
    }
    let rest = src.get(s..).unwrap_or_default();
    ms.meter.add(rest.len() as u64)?;
    out.extend_from_slice(rest);
    Ok(Gsub {
        text: Some(out),
        count,
    })
}

impl<'s, E> MatchState<'s, '_, '_, '_, '_, E> {
    /// C's `add_value`: append the replacement of the match `s..e`; whether the subject changed.
    fn add_value(
        &mut self,
        out: &mut Vec<u8>,
        s: usize,
        e: usize,
        repl: &mut Replacement<'_, E>,
    ) -> Res<bool, E> {
        let before = out.len();
        let changed = match repl {
            Replacement::Text(news) => {
                self.add_s(out, s, e, news)?;
                true
            }
            Replacement::Table(f) => {
                let key = self.get_onecapture(0, Some((s, e)))?;
                f(key, out)?
            }
            Replacement::Function(f) => {
                let captures = self.push_captures(Some((s, e)))?;
                f(&captures, out)?
            }
        };
        if !changed {
            // nil or false: keep the original text
            out.truncate(before);
            out.extend_from_slice(self.src.get(s..e).unwrap_or_default());
        }
        self.meter.add((out.len() - before) as u64)?;
        Ok(changed)
    }

    /// C's `add_s`: expand a replacement string.
    fn add_s(&mut self, out: &mut Vec<u8>, s: usize, e: usize, news: &[u8]) -> Res<(), E> {
        let mut rest = news;
        while let Some(k) = rest.iter().position(|&b| b == L_ESC) {
            out.extend_from_slice(&rest[..k]);
            // After a trailing '%' C reads the terminating '\0', which is no valid escape either.
            let c = rest.get(k + 1).copied().unwrap_or(0);
            if c == L_ESC {
                out.push(L_ESC);
            } else if c == b'0' {
                out.extend_from_slice(self.src.get(s..e).unwrap_or_default());
            } else if c.is_ascii_digit() {
                match self.get_onecapture(usize::from(c - b'1'), Some((s, e)))? {
                    Capture::Text(t) => out.extend_from_slice(t),
                    Capture::Position(i) => out.extend_from_slice(i.to_string().as_bytes()),
                }
            } else {
                return lua_err("invalid use of '%' in replacement string");
            }
            rest = rest.get(k + 2..).unwrap_or_default();
        }
        out.extend_from_slice(rest);
        Ok(())
    }
}

mod glue;
pub(crate) use glue::install;

#[cfg(test)]
mod tests;
