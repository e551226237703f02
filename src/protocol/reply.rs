//! Reply layer: formats what the engine answers, for GTP and HTP alike.
//!
//! GTP 2 §2.6: a success is `=[id] result`, a failure `?[id] error_message`,
//! each ending with two newlines. The spec's grammar puts one SPACE between
//! the `=`/id and the text, and every engine controllers are tested against
//! writes that space even when the text is empty: GNU Go 3.8 answers `= ` /
//! `=7 ` to `clear_board` / `7 clear_board`, Leela Zero and Castro do the
//! same. So the space is unconditional here too:
//!
//! | call                              | bytes written               |
//! |-----------------------------------|-----------------------------|
//! | `success(None, "")`               | `"= \n\n"`                  |
//! | `success(Some(7), "")`            | `"=7 \n\n"`                 |
//! | `success(None, "D4")`             | `"= D4\n\n"`                |
//! | `success(None, "\nrow 1\nrow 2")` | `"= \nrow 1\nrow 2\n\n"`    |
//! | `failure(Some(3), "illegal move")`| `"?3 illegal move\n\n"`     |
//!
//! A body that should start on its own line (a `showboard` diagram, as GNU
//! Go prints it) begins with `\n`; a list whose first item shares the `=`
//! line (GNU Go's `list_commands`, `final_status_list`) does not.
//!
//! The body is made safe for framing, because one stray empty line would
//! end the reply early and desynchronise the controller for the rest of the
//! session: control characters are dropped (HT becomes a space, as §2.1 asks
//! for output), trailing white space is trimmed from every line and from the
//! end, and empty lines after the first are dropped.

use std::fmt::Write;

// Standard error texts. GTP 2 defines these strings (§6.3); controllers and
// regression scripts compare against them, so engines must not paraphrase.
pub const UNKNOWN_COMMAND: &str = "unknown command";
pub const SYNTAX_ERROR: &str = "syntax error";
pub const ILLEGAL_MOVE: &str = "illegal move";
pub const UNACCEPTABLE_SIZE: &str = "unacceptable size";
pub const INVALID_NUMBER_OF_STONES: &str = "invalid number of stones";
pub const BOARD_NOT_EMPTY: &str = "board not empty";
pub const BAD_VERTEX_LIST: &str = "bad vertex list";
pub const CANNOT_UNDO: &str = "cannot undo";
pub const CANNOT_SCORE: &str = "cannot score";
pub const CANNOT_LOAD_FILE: &str = "cannot load file";
pub const CANNOT_SAVE_FILE: &str = "cannot save file";

// Havannah situations GTP has no word for. Castro's wording, lower-cased and
// without its punctuation to match the GTP texts above.
pub const WRONG_TURN: &str = "it is the other player's turn";
pub const GAME_OVER: &str = "the game is already over";

/// A success reply: `=[id] body\n\n`.
pub fn success(id: Option<u32>, body: &str) -> String {
    format_reply('=', id, body)
}

/// A failure reply: `?[id] message\n\n`.
pub fn failure(id: Option<u32>, message: &str) -> String {
    format_reply('?', id, message)
}

fn format_reply(mark: char, id: Option<u32>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 16);
    out.push(mark);
    if let Some(id) = id {
        // Writing to a String cannot fail.
        let _ = write!(out, "{id}");
    }
    out.push(' ');

    let body = sanitize(body);
    let mut lines = body.lines().map(str::trim_end);
    if let Some(first) = lines.next() {
        out.push_str(first);
    }
    for line in lines.filter(|line| !line.is_empty()) {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// Drops control characters except LF; HT becomes a space.
fn sanitize(body: &str) -> String {
    body.chars()
        .filter_map(|c| match c {
            '\n' => Some('\n'),
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_success_keeps_the_space() {
        assert_eq!(success(None, ""), "= \n\n");
        assert_eq!(success(Some(7), ""), "=7 \n\n");
        assert_eq!(success(Some(0), ""), "=0 \n\n");
    }

    #[test]
    fn one_line_replies() {
        assert_eq!(success(None, "D4"), "= D4\n\n");
        assert_eq!(success(Some(12), "2"), "=12 2\n\n");
        assert_eq!(failure(None, SYNTAX_ERROR), "? syntax error\n\n");
        assert_eq!(failure(Some(3), ILLEGAL_MOVE), "?3 illegal move\n\n");
        assert_eq!(failure(Some(3), ""), "?3 \n\n");
    }

    #[test]
    fn block_body_starts_on_its_own_line() {
        assert_eq!(success(None, "\nline1\nline2"), "= \nline1\nline2\n\n");
        assert_eq!(success(Some(4), "\nline1\n"), "=4 \nline1\n\n");
    }

    #[test]
    fn list_body_starts_on_the_first_line() {
        assert_eq!(success(None, "name\nversion"), "= name\nversion\n\n");
    }

    #[test]
    fn trailing_newlines_and_spaces_cannot_break_framing() {
        assert_eq!(success(None, "D4\n\n\n"), "= D4\n\n");
        assert_eq!(success(None, "D4 E5 "), "= D4 E5\n\n");
        assert_eq!(success(None, "a  \nb \n"), "= a\nb\n\n");
        assert_eq!(success(None, "\n"), "= \n\n");
    }

    #[test]
    fn empty_inner_lines_are_dropped() {
        assert_eq!(success(None, "a\n\nb"), "= a\nb\n\n");
        assert_eq!(success(None, "\na\n   \nb"), "= \na\nb\n\n");
    }

    #[test]
    fn control_characters_are_cleaned() {
        assert_eq!(success(None, "a\tb"), "= a b\n\n");
        assert_eq!(success(None, "a\r\nb\r\n"), "= a\nb\n\n");
        assert_eq!(failure(None, "bad\x00\x1b[1m"), "? bad[1m\n\n");
    }

    #[test]
    fn every_reply_ends_with_exactly_one_empty_line() {
        for body in ["", "x", "\nx", "x\n", "\n\n", "x\n\ny\n\n"] {
            let reply = success(None, body);
            assert!(reply.ends_with("\n\n"), "{reply:?}");
            assert!(!reply.ends_with("\n\n\n"), "{reply:?}");
            assert!(!reply[..reply.len() - 2].contains("\n\n"), "{reply:?}");
        }
    }
}
