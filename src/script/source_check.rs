//! What the sandbox refuses in a script's source before Lua compiles it: to-be-closed variables
//! (`local x <close> = …`), and a file (or a line piped to the REPL) that is not UTF-8 text.
//!
//! Why `<close>`: when the instruction budget runs out, the error is raised from inside Lua's count
//! hook, where hooks are off, and unwinding the interrupted function runs its `__close` handlers right
//! there. A handler that loops would then run outside every budget, forever. Nothing in a script needs
//! them (a script holds no files or locks to close), so the attribute is refused with the line it is
//! on.
//!
//! The scan follows Lua's lexical rules (short and long strings, short and long comments) and looks for
//! the token sequence `<` `close` `>`; whitespace and comments may sit between the tokens, as Lua allows.
//!
//! Why UTF-8: source text is shared between players, formatted by StyLua, read by lua-language-server
//! and quoted in errors, all of which read UTF-8; a stray Latin-1 byte, which Lua itself would keep in
//! a string, is told at its line instead of failing somewhere later without one. Lua strings may still
//! hold any byte, written as `\xNN`.

/// Why `bytes` are not UTF-8 text, as `label:line: …`, or `None` when they are: the line and column
/// of the first byte that is not, and that byte. The text's first line is line `first_line` of
/// `label` (1 for a file; a REPL line's number in its input).
pub fn not_utf8(label: &str, first_line: usize, bytes: &[u8]) -> Option<String> {
    let bad = std::str::from_utf8(bytes).err()?.valid_up_to();
    let before = &bytes[..bad];
    let line = before.iter().filter(|&&b| b == b'\n').count() + first_line;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    let byte = bytes.get(bad).copied().unwrap_or_default();
    Some(format!(
        "{label}:{line}: not UTF-8 text (byte 0x{byte:02X} at column {column}): Lua source is \
         UTF-8; a byte that is not text is written in a string as \\x{byte:02X}"
    ))
}

/// A script file's text: its bytes read bounded (`files::LUA_SOURCE`; only a regular file when
/// `regular`, as inside a data folder), refused with [`not_utf8`]'s message when they are not UTF-8.
pub(crate) fn read_source(
    path: &std::path::Path,
    label: &str,
    regular: bool,
) -> Result<String, super::ScriptError> {
    let read = if regular {
        crate::files::read_regular(path, crate::files::LUA_SOURCE)
    } else {
        crate::files::read_limited(path, crate::files::LUA_SOURCE)
    };
    let bytes = read.map_err(|e| super::ScriptError::Io {
        path: label.to_string(),
        message: e.reason(),
    })?;
    String::from_utf8(bytes).map_err(|e| super::ScriptError::Syntax {
        message: not_utf8(label, 1, e.as_bytes()).unwrap_or_default(),
        incomplete: false,
    })
}

/// The line of the first to-be-closed variable in `src`, if any.
pub fn to_be_closed_line(src: &[u8]) -> Option<usize> {
    // The last two significant tokens seen, and the line of the last `<`.
    let mut prev: [Token; 2] = [Token::Other, Token::Other];
    let mut less_line = 1;
    let mut line = 1;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        let start_line = line;
        let token = match c {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'-' if src.get(i + 1) == Some(&b'-') => {
                i += 2;
                match long_bracket_level(src, i) {
                    Some(level) => i = skip_long(src, i, level, &mut line),
                    None => {
                        while i < src.len() && src[i] != b'\n' {
                            i += 1;
                        }
                    }
                }
                continue;
            }
            b'"' | b'\'' => {
                i = skip_quoted(src, i, &mut line);
                Token::Other
            }
            b'[' => match long_bracket_level(src, i) {
                Some(level) => {
                    i = skip_long(src, i, level, &mut line);
                    Token::Other
                }
                None => {
                    i += 1;
                    Token::Other
                }
            },
            b'<' => {
                i += 1;
                // `<=` and `<<` are other operators.
                if matches!(src.get(i), Some(b'=') | Some(b'<')) {
                    i += 1;
                    Token::Other
                } else {
                    Token::Less
                }
            }
            b'>' => {
                i += 1;
                if matches!(src.get(i), Some(b'=') | Some(b'>')) {
                    i += 1;
                    Token::Other
                } else {
                    Token::Greater
                }
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                let s = i;
                while i < src.len()
                    && (src[i].is_ascii_alphanumeric() || src[i] == b'_' || src[i] >= 0x80)
                {
                    i += 1;
                }
                if &src[s..i] == b"close" {
                    Token::Close
                } else {
                    Token::Other
                }
            }
            _ => {
                i += 1;
                Token::Other
            }
        };
        if token == Token::Greater && prev == [Token::Less, Token::Close] {
            return Some(less_line);
        }
        if token == Token::Less {
            less_line = start_line;
        }
        prev = [prev[1], token];
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Less,
    Close,
    Greater,
    Other,
}

/// The level of a long bracket opening at `i` (`[[` is 0, `[==[` is 2), if one opens there.
fn long_bracket_level(src: &[u8], i: usize) -> Option<usize> {
    if src.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while src.get(j) == Some(&b'=') {
        j += 1;
    }
    (src.get(j) == Some(&b'[')).then_some(j - i - 1)
}

/// The index after the long string or comment opening at `i` with `level` (the end of the source if it
/// never closes: Lua reports that itself).
fn skip_long(src: &[u8], i: usize, level: usize, line: &mut usize) -> usize {
    let mut j = i + level + 2;
    while j < src.len() {
        match src[j] {
            b'\n' => *line += 1,
            b']' => {
                let mut k = j + 1;
                while src.get(k) == Some(&b'=') {
                    k += 1;
                }
                if k - j - 1 == level && src.get(k) == Some(&b']') {
                    return k + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    src.len()
}

/// The index after the quoted string opening at `i` (escapes skipped; a newline ends an unfinished one,
/// which Lua reports itself).
fn skip_quoted(src: &[u8], i: usize, line: &mut usize) -> usize {
    let quote = src[i];
    let mut j = i + 1;
    while j < src.len() {
        match src[j] {
            b'\\' => {
                // `\z` and an escaped newline may span lines.
                if src.get(j + 1) == Some(&b'\n') {
                    *line += 1;
                }
                j += 2;
                continue;
            }
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => {}
        }
        j += 1;
    }
    src.len()
}

#[cfg(test)]
mod tests {
    use super::to_be_closed_line;

    #[test]
    fn a_to_be_closed_variable_is_found_on_its_line() {
        assert_eq!(to_be_closed_line(b"local x <close> = nil"), Some(1));
        assert_eq!(
            to_be_closed_line(b"local a = 1\n\nlocal x < --[[ hidden ]] close\n> = t"),
            Some(3)
        );
        // (`<close>=` would lex as `>=`, which Lua itself rejects: the space is needed.)
        assert_eq!(to_be_closed_line(b"do local y<close> =f() end"), Some(1));
    }

    #[test]
    fn strings_comments_constants_and_comparisons_are_not_to_be_closed_variables() {
        for src in [
            "local s = \"<close>\"",
            "local s = '<close>'",
            "-- local x <close> = nil",
            "--[==[ local x <close> = nil ]==]",
            "local s = [[ <close> ]]",
            "local k <const> = 1",
            "if a <= close then end",
            "local b = a << close >> 2",
            "local closer <const> = 1",
            "print(\"a\\\"<close>\")",
        ] {
            assert_eq!(to_be_closed_line(src.as_bytes()), None, "{src}");
        }
    }
}
