//! Line layer, shared by GTP (Go) and HTP (Havannah): raw bytes of one input
//! line in, a [`Line`] out. Nothing here knows any command.
//!
//! The rules are GTP 2 §2.2 ("preprocessing"), applied in the spec's order:
//!
//! 1. remove every control character except HT and LF (this drops the CR of
//!    CR LF line ends, and any NUL or ESC a careless client sends);
//! 2. discard everything from the first `#` to the end of the line;
//! 3. convert HT to SPACE;
//! 4. ignore lines that are then empty or only white space.
//!
//! What is left is `[id] command_name [arguments]`, where the optional id is
//! an unsigned number the engine echoes back in its reply.
//!
//! Two things the spec leaves open are decided here, so that a hostile or
//! broken client cannot crash the engine or make it buffer without bound:
//! lines whose command part (before any `#`) is longer than
//! [`MAX_LINE_BYTES`], and command parts that are not UTF-8, become
//! [`Line::Malformed`], which the engine answers with `? syntax error`, with
//! the id when the line starts with one (GTP 2 wants the id echoed whenever
//! it can be read). A comment is never answered, however long it is or
//! whatever bytes it holds: a reply to it would put the controller one reply
//! out of step.

use std::io::{self, BufRead};

/// Longest line content we accept, in bytes, not counting the line end.
/// GTP commands are short; even GoGui's longest (`play` sequences, large
/// `set_free_handicap` lists on 25×25) stay far below this.
pub const MAX_LINE_BYTES: usize = 4096;

/// What one input line turned out to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A command to parse (with [`crate::protocol::parse_gtp`] or
    /// [`crate::protocol::parse_htp`]). `text` is trimmed, has no comment,
    /// no control characters and no tabs; it may be empty when the line held
    /// only an id, which the command parser reports as a syntax error.
    Command { id: Option<u32>, text: String },
    /// GoGui's interrupt request: the comment line `# interrupt`, sent while
    /// the engine is busy with a `genmove`. A comment to everybody else, so
    /// an idle engine simply ignores it (no reply).
    Interrupt,
    /// Empty, white space or comment only: no reply at all.
    Blank,
    /// Cannot be read as a command; answer `? syntax error`, with `id` when
    /// the line starts with a readable one.
    Malformed { id: Option<u32>, reason: LineError },
}

/// Why a line could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line longer than {MAX_LINE_BYTES} bytes")]
    TooLong,
    #[error("line is not valid UTF-8")]
    InvalidUtf8,
    /// The leading number is too large for an id. Read as a command name it
    /// would give `unknown command` with no id, which hides the real problem.
    #[error("command id does not fit in 32 bits")]
    IdOutOfRange,
}

/// Classifies one raw input line (with or without its LF / CR LF ending).
/// `raw` may be a line cut short by [`read_line_capped`]: whatever follows a
/// `#` is a comment, so only the part before it has to be whole.
pub fn preprocess(raw: &[u8]) -> Line {
    // Leading white space and control characters go before the length is
    // measured (rules 1 and 4 would drop them anyway), so that a blank line
    // of any length stays blank; [`read_line_capped`] skips them too.
    let content = strip_line_end(raw);
    let start = content
        .iter()
        .position(|&b| !is_leading_filler(b))
        .unwrap_or(content.len());
    let content = &content[start..];

    // Rule 2 first, on bytes: `#` is ASCII and never occurs inside a UTF-8
    // sequence, so the comment can be cut before anything is decoded, and
    // its length and bytes do not matter. GoGui's interrupt is a comment
    // line, so it is recognised before the cut.
    let hash = content.iter().position(|&b| b == b'#');
    if hash.is_some() && is_interrupt_comment(content) {
        return Line::Interrupt;
    }
    let command = &content[..hash.unwrap_or(content.len())];
    if command.len() > MAX_LINE_BYTES {
        return Line::Malformed {
            id: leading_id(command),
            reason: LineError::TooLong,
        };
    }

    // Rules 1 and 3. Working on bytes is safe for UTF-8: bytes below 0x80
    // never occur inside a multi-byte sequence. A stray LF inside the line
    // (only possible if the caller did its own framing) is treated like HT.
    let cleaned: Vec<u8> = command
        .iter()
        .map(|&b| if b == b'\n' { b'\t' } else { b })
        .filter(|&b| !is_discarded_control(b))
        .collect();
    let Ok(text) = String::from_utf8(cleaned) else {
        return Line::Malformed {
            id: leading_id(command),
            reason: LineError::InvalidUtf8,
        };
    };
    let spaced = text.replace('\t', " ");
    let trimmed = spaced.trim_matches(' ');

    // Rule 4.
    if trimmed.is_empty() {
        return Line::Blank;
    }

    split_id(trimmed)
}

/// Reads one raw line (up to and excluding its LF) into `line`, keeping at
/// most `MAX_LINE_BYTES + 2` bytes of it and discarding the rest, so a
/// client that never sends a newline cannot make us allocate without bound.
/// Leading white space and control characters are not kept (they never
/// matter, and a long run of them must not push a command out of the kept
/// prefix). A cut command is still longer than [`MAX_LINE_BYTES`] after a
/// CR is stripped, so [`preprocess`] reports it as [`LineError::TooLong`];
/// a cut comment is just a comment.
///
/// Returns `Ok(false)` at end of input when nothing was read; a last line
/// without a final LF is still returned.
pub fn read_line_capped<R: BufRead>(reader: &mut R, line: &mut Vec<u8>) -> io::Result<bool> {
    const KEEP: usize = MAX_LINE_BYTES + 2;
    line.clear();
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read_any);
        }
        read_any = true;
        let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], true),
            None => (available, false),
        };
        let available_line_len = chunk.len();
        let chunk = if line.is_empty() {
            let start = chunk
                .iter()
                .position(|&b| !is_leading_filler(b))
                .unwrap_or(chunk.len());
            &chunk[start..]
        } else {
            chunk
        };
        let room = KEEP.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = available_line_len + usize::from(found_newline);
        reader.consume(used);
        if found_newline {
            return Ok(true);
        }
    }
}

fn strip_line_end(raw: &[u8]) -> &[u8] {
    let raw = raw.strip_suffix(b"\n").unwrap_or(raw);
    raw.strip_suffix(b"\r").unwrap_or(raw)
}

/// What may precede a command without meaning anything: space, HT and the
/// control characters rule 1 drops (never LF, which ends the line).
fn is_leading_filler(b: u8) -> bool {
    b == b' ' || (b != b'\n' && is_discarded_control(b)) || b == b'\t'
}

/// ASCII control characters other than HT (DEL counts as one). LF never
/// reaches this point.
fn is_discarded_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

/// `# interrupt`, allowing any white space around and between the parts
/// (control characters are dropped first, as for every line).
fn is_interrupt_comment(content: &[u8]) -> bool {
    if content.len() > MAX_LINE_BYTES {
        return false;
    }
    let cleaned: Vec<u8> = content
        .iter()
        .copied()
        .filter(|&b| !is_discarded_control(b))
        .collect();
    cleaned
        .trim_ascii()
        .strip_prefix(b"#")
        .is_some_and(|rest| rest.trim_ascii() == b"interrupt")
}

/// The id of a line that cannot be read as a command, if it starts with
/// one: digits up to the first space or tab, fitting 32 bits. Read on bytes
/// so that an over-long or non-UTF-8 rest does not hide it.
fn leading_id(command: &[u8]) -> Option<u32> {
    let cleaned: Vec<u8> = command
        .iter()
        .copied()
        .filter(|&b| !is_discarded_control(b))
        .collect();
    let start = cleaned.iter().position(|&b| b != b' ' && b != b'\t')?;
    let rest = &cleaned[start..];
    let end = rest
        .iter()
        .position(|&b| b == b' ' || b == b'\t')
        .unwrap_or(rest.len());
    let digits = &rest[..end];
    // A run of digits with nothing after it may be the cut end of an
    // over-long line, not a whole id.
    if digits.is_empty() || end == rest.len() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

/// Splits off the optional numeric id. `text` is trimmed and not empty.
fn split_id(text: &str) -> Line {
    let (first, rest) = match text.split_once(' ') {
        Some((first, rest)) => (first, rest.trim_start_matches(' ')),
        None => (text, ""),
    };
    if !first.bytes().all(|b| b.is_ascii_digit()) {
        return Line::Command {
            id: None,
            text: text.to_string(),
        };
    }
    match first.parse::<u32>() {
        Ok(id) => Line::Command {
            id: Some(id),
            text: rest.to_string(),
        },
        Err(_) => Line::Malformed {
            id: None,
            reason: LineError::IdOutOfRange,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(id: Option<u32>, text: &str) -> Line {
        Line::Command {
            id,
            text: text.to_string(),
        }
    }

    fn malformed(reason: LineError) -> Line {
        Line::Malformed { id: None, reason }
    }

    fn malformed_with_id(id: u32, reason: LineError) -> Line {
        Line::Malformed {
            id: Some(id),
            reason,
        }
    }

    #[test]
    fn plain_command_keeps_its_arguments() {
        assert_eq!(preprocess(b"play b D4\n"), command(None, "play b D4"));
        assert_eq!(preprocess(b"name"), command(None, "name"));
    }

    #[test]
    fn numeric_id_is_split_off() {
        assert_eq!(
            preprocess(b"12 play b D4\n"),
            command(Some(12), "play b D4")
        );
        assert_eq!(preprocess(b"0 name"), command(Some(0), "name"));
        assert_eq!(preprocess(b"007 name"), command(Some(7), "name"));
        assert_eq!(
            preprocess(b"4294967295 name"),
            command(Some(u32::MAX), "name")
        );
    }

    #[test]
    fn id_alone_gives_empty_command_text() {
        assert_eq!(preprocess(b"5\n"), command(Some(5), ""));
        assert_eq!(preprocess(b"5 # just an id"), command(Some(5), ""));
    }

    #[test]
    fn oversized_id_is_malformed() {
        assert_eq!(
            preprocess(b"4294967296 name"),
            malformed(LineError::IdOutOfRange)
        );
        assert_eq!(
            preprocess(b"99999999999999999999999 name"),
            malformed(LineError::IdOutOfRange)
        );
    }

    #[test]
    fn things_that_are_not_ids_stay_in_the_command() {
        assert_eq!(preprocess(b"-1 name"), command(None, "-1 name"));
        assert_eq!(preprocess(b"+1 name"), command(None, "+1 name"));
        assert_eq!(preprocess(b"1a name"), command(None, "1a name"));
    }

    #[test]
    fn crlf_and_cr_are_removed() {
        assert_eq!(preprocess(b"name\r\n"), command(None, "name"));
        assert_eq!(preprocess(b"3 name\r"), command(Some(3), "name"));
        // A CR in the middle is a control character like any other.
        assert_eq!(preprocess(b"na\rme\r\n"), command(None, "name"));
    }

    #[test]
    fn other_control_characters_are_removed() {
        assert_eq!(preprocess(b"na\x00me\x1b\x7f"), command(None, "name"));
        assert_eq!(preprocess(b"\x01\x02\x03\n"), Line::Blank);
    }

    #[test]
    fn tabs_become_spaces_and_outer_space_is_trimmed() {
        assert_eq!(preprocess(b"\tplay\tb\tD4\t\n"), command(None, "play b D4"));
        assert_eq!(preprocess(b"  1\t\tname  "), command(Some(1), "name"));
    }

    #[test]
    fn inner_runs_of_spaces_are_kept_for_the_parser() {
        assert_eq!(preprocess(b"play  b   D4"), command(None, "play  b   D4"));
    }

    #[test]
    fn comments_are_cut() {
        assert_eq!(
            preprocess(b"play b D4 # my move\n"),
            command(None, "play b D4")
        );
        assert_eq!(preprocess(b"name#comment"), command(None, "name"));
        assert_eq!(preprocess(b"# whole line\n"), Line::Blank);
        assert_eq!(preprocess(b"#"), Line::Blank);
    }

    #[test]
    fn blank_lines_are_blank() {
        for raw in [&b""[..], b"\n", b"\r\n", b"   \t \n", b" \x00 "] {
            assert_eq!(preprocess(raw), Line::Blank, "{raw:?}");
        }
    }

    #[test]
    fn gogui_interrupt_comment_is_recognised() {
        assert_eq!(preprocess(b"# interrupt\n"), Line::Interrupt);
        assert_eq!(preprocess(b"# interrupt\r\n"), Line::Interrupt);
        assert_eq!(preprocess(b"  #interrupt  "), Line::Interrupt);
        assert_eq!(preprocess(b"#\tinterrupt"), Line::Interrupt);
        // Only the exact word; anything else is an ordinary comment.
        assert_eq!(preprocess(b"# interrupted"), Line::Blank);
        assert_eq!(preprocess(b"# please interrupt"), Line::Blank);
        assert_eq!(preprocess(b"name # interrupt"), command(None, "name"));
    }

    #[test]
    fn invalid_utf8_is_malformed_and_keeps_a_readable_id() {
        assert_eq!(preprocess(b"name\xff\n"), malformed(LineError::InvalidUtf8));
        assert_eq!(
            preprocess(b"1 play b \xc3"),
            malformed_with_id(1, LineError::InvalidUtf8)
        );
        assert_eq!(
            preprocess(b"\t77\x00 play b \xc3\x28\r\n"),
            malformed_with_id(77, LineError::InvalidUtf8)
        );
        // Not an id: a broken first word, or digits too many for 32 bits.
        assert_eq!(preprocess(b"7\xff name"), malformed(LineError::InvalidUtf8));
        assert_eq!(
            preprocess(b"4294967296 name \xff"),
            malformed(LineError::InvalidUtf8)
        );
    }

    #[test]
    fn a_comment_is_never_decoded() {
        // The comment is cut on bytes first, so its bytes do not matter.
        assert_eq!(preprocess(b"name # \xff"), command(None, "name"));
        assert_eq!(preprocess(b"# \xfe\xfe\n"), Line::Blank);
        assert_eq!(preprocess(b"5 name#\xc3"), command(Some(5), "name"));
    }

    #[test]
    fn valid_non_ascii_text_passes_through() {
        assert_eq!(
            preprocess("play b Ä4".as_bytes()),
            command(None, "play b Ä4")
        );
    }

    #[test]
    fn length_limit_counts_content_only() {
        let mut at_limit = vec![b'x'; MAX_LINE_BYTES];
        at_limit.extend_from_slice(b"\r\n");
        assert!(matches!(preprocess(&at_limit), Line::Command { .. }));

        let over = vec![b'x'; MAX_LINE_BYTES + 1];
        assert_eq!(preprocess(&over), malformed(LineError::TooLong));

        // The id of an over-long line is still echoed.
        let mut long_with_id = b"77 name ".to_vec();
        long_with_id.resize(MAX_LINE_BYTES + 1, b'x');
        assert_eq!(
            preprocess(&long_with_id),
            malformed_with_id(77, LineError::TooLong)
        );

        // Comments do not count: only the command part must be whole (the
        // reader keeps a bounded prefix of any line).
        let mut long_comment = b"name #".to_vec();
        long_comment.resize(10 * MAX_LINE_BYTES, b'x');
        assert_eq!(preprocess(&long_comment), command(None, "name"));
        let mut only_comment = vec![b'#'; 5000];
        only_comment.push(b'\n');
        assert_eq!(preprocess(&only_comment), Line::Blank);
        let mut late_hash = vec![b'x'; MAX_LINE_BYTES + 1];
        late_hash.extend_from_slice(b"# comment");
        assert_eq!(preprocess(&late_hash), malformed(LineError::TooLong));
    }

    #[test]
    fn leading_white_space_of_any_length_is_dropped() {
        let mut blank = vec![b' '; 3 * MAX_LINE_BYTES];
        blank.extend_from_slice(b"\t\x00\r\n");
        assert_eq!(preprocess(&blank), Line::Blank);
        let mut input = blank.clone();
        input.extend_from_slice(&vec![b'\t'; 2 * MAX_LINE_BYTES]);
        input.extend_from_slice(b"9 name\n");
        let lines = read_all(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(preprocess(&lines[0]), Line::Blank);
        assert_eq!(preprocess(&lines[1]), command(Some(9), "name"));
    }

    #[test]
    fn a_long_comment_line_cut_by_the_reader_stays_blank() {
        let mut input = vec![b'#'];
        input.resize(1 + 3 * MAX_LINE_BYTES, b'x');
        input.extend_from_slice(b"\n5 name\n");
        let lines = read_all(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(preprocess(&lines[0]), Line::Blank);
        assert_eq!(preprocess(&lines[1]), command(Some(5), "name"));
    }

    fn read_all(input: &[u8]) -> Vec<Vec<u8>> {
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut lines = Vec::new();
        let mut line = Vec::new();
        while read_line_capped(&mut reader, &mut line).expect("in-memory read") {
            lines.push(line.clone());
        }
        lines
    }

    #[test]
    fn capped_reader_splits_lines() {
        let lines = read_all(b"name\r\n\nversion\nlast");
        let expected: Vec<&[u8]> = vec![b"name\r", b"", b"version", b"last"];
        assert_eq!(lines, expected);
        assert!(read_all(b"").is_empty());
    }

    #[test]
    fn capped_reader_bounds_long_lines_and_resynchronises() {
        let mut input = vec![b'y'; 3 * MAX_LINE_BYTES];
        input.extend_from_slice(b"\nname\n");
        let lines = read_all(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].len(), MAX_LINE_BYTES + 2);
        assert_eq!(preprocess(&lines[0]), malformed(LineError::TooLong));
        assert_eq!(preprocess(&lines[1]), command(None, "name"));
    }

    #[test]
    fn capped_reader_keeps_a_line_exactly_at_the_limit() {
        let mut input = vec![b'z'; MAX_LINE_BYTES];
        input.extend_from_slice(b"\r\n");
        let lines = read_all(&input);
        assert_eq!(lines.len(), 1);
        assert!(matches!(preprocess(&lines[0]), Line::Command { .. }));
    }
}
