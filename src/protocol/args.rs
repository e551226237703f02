//! Argument layer: a cursor over the white-space separated arguments of one
//! command (in the manner of mini-redis's `Parse`), with one method per
//! argument type, and the nom grammars for the tokens that are not
//! game-specific (colours, numbers, keywords).
//!
//! Every failure is a [`ParseError`]; the engine answers all of them with
//! `? syntax error`, the text GTP 2 prescribes for malformed arguments, and
//! logs the detail.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{digit1, one_of};
use nom::combinator::{all_consuming, map_res, opt, recognize, value};
use nom::number::complete::recognize_float;
use nom::sequence::pair;
use nom::IResult;

use crate::game::Color;
use crate::protocol::reply::SYNTAX_ERROR;

/// Why a command's text could not be turned into a typed command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but an id on the line.
    #[error("no command name")]
    MissingCommand,
    #[error("{command}: missing {expected}")]
    MissingArgument { command: String, expected: Expected },
    #[error("{command}: expected {expected}, found {found:?}")]
    InvalidArgument {
        command: String,
        expected: Expected,
        found: String,
    },
    #[error("{command}: unexpected extra argument {found:?}")]
    ExtraArgument { command: String, found: String },
}

impl ParseError {
    /// The reply text: GTP 2 has one error text for every malformed
    /// argument, and HTP follows it.
    pub fn reply_text(&self) -> &'static str {
        SYNTAX_ERROR
    }
}

/// What kind of argument was expected, for error messages and logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    Color,
    Vertex,
    Cell,
    Integer,
    NonNegativeInteger,
    Number,
    NonNegativeNumber,
    Boolean,
    CommandName,
    FileName,
    StoneStatus,
    TimeSystem,
    TimeOption,
    AnalyzeKeyword,
    ParamValue,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Color => "colour (b, w, black, white)",
            Expected::Vertex => "vertex (like D4, or pass)",
            Expected::Cell => "cell (like c3, or swap)",
            Expected::Integer => "integer",
            Expected::NonNegativeInteger => "non-negative integer",
            Expected::Number => "number",
            Expected::NonNegativeNumber => "non-negative number",
            Expected::Boolean => "boolean (0, 1, true, false)",
            Expected::CommandName => "command name",
            Expected::FileName => "file name",
            Expected::StoneStatus => "status (alive, dead, seki)",
            Expected::TimeSystem => "time system (none, absolute, byoyomi, canadian)",
            Expected::TimeOption => "time option (like -m or --game)",
            Expected::AnalyzeKeyword => {
                "analysis keyword (interval, minmoves, maxmoves, ownership, rootInfo, pvVisits, avoid, allow)"
            }
            Expected::ParamValue => "parameter value",
        })
    }
}

/// The arguments of one command, consumed left to right.
pub struct Args<'a> {
    command: &'a str,
    tokens: std::iter::Peekable<std::str::SplitAsciiWhitespace<'a>>,
}

impl<'a> Args<'a> {
    /// `command` names the command in error messages; `rest` is the text
    /// after the command name.
    pub fn new(command: &'a str, rest: &'a str) -> Self {
        Args {
            command,
            tokens: rest.split_ascii_whitespace().peekable(),
        }
    }

    /// The next token, whatever it is.
    pub fn word(&mut self, expected: Expected) -> Result<&'a str, ParseError> {
        self.tokens
            .next()
            .ok_or_else(|| ParseError::MissingArgument {
                command: self.command.to_string(),
                expected,
            })
    }

    /// The next token, if there is one.
    pub fn optional_word(&mut self) -> Option<&'a str> {
        self.tokens.next()
    }

    /// The next token without consuming it.
    pub fn peek(&mut self) -> Option<&'a str> {
        self.tokens.peek().copied()
    }

    pub fn is_empty(&mut self) -> bool {
        self.tokens.peek().is_none()
    }

    /// The next token, read with a token grammar from this module or a
    /// vertex module.
    pub fn parsed<T>(
        &mut self,
        expected: Expected,
        grammar: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, ParseError> {
        let token = self.word(expected)?;
        grammar(token).ok_or_else(|| self.invalid(expected, token))
    }

    /// Like [`Args::parsed`], but `Ok(None)` when no arguments are left.
    pub fn optional_parsed<T>(
        &mut self,
        expected: Expected,
        grammar: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, ParseError> {
        if self.is_empty() {
            return Ok(None);
        }
        self.parsed(expected, grammar).map(Some)
    }

    pub fn color(&mut self) -> Result<Color, ParseError> {
        self.parsed(Expected::Color, color)
    }

    pub fn integer(&mut self) -> Result<i64, ParseError> {
        self.parsed(Expected::Integer, integer)
    }

    pub fn non_negative_integer(&mut self) -> Result<i64, ParseError> {
        self.parsed(Expected::NonNegativeInteger, |t| {
            integer(t).filter(|&n| n >= 0)
        })
    }

    pub fn number(&mut self) -> Result<f64, ParseError> {
        self.parsed(Expected::Number, number)
    }

    pub fn non_negative_number(&mut self) -> Result<f64, ParseError> {
        self.parsed(Expected::NonNegativeNumber, |t| {
            number(t).filter(|&x| x >= 0.0)
        })
    }

    pub fn boolean(&mut self) -> Result<bool, ParseError> {
        self.parsed(Expected::Boolean, boolean)
    }

    /// The error for a token that is present but wrong.
    pub fn invalid(&self, expected: Expected, found: &str) -> ParseError {
        ParseError::InvalidArgument {
            command: self.command.to_string(),
            expected,
            found: found.to_string(),
        }
    }

    /// Every command ends here: leftover arguments are an error rather than
    /// silently ignored, so a typo such as `play b D4 E5` is not half-obeyed.
    pub fn finish(mut self) -> Result<(), ParseError> {
        match self.tokens.next() {
            None => Ok(()),
            Some(found) => Err(ParseError::ExtraArgument {
                command: self.command.to_string(),
                found: found.to_string(),
            }),
        }
    }
}

/// Runs a nom grammar over a whole token.
pub fn whole<'a, T>(
    grammar: impl FnMut(&'a str) -> IResult<&'a str, T>,
    token: &'a str,
) -> Option<T> {
    all_consuming(grammar)(token).ok().map(|(_, value)| value)
}

/// `b`, `w`, `black`, `white`, any case (GTP 2 §2.11).
pub fn color(token: &str) -> Option<Color> {
    whole(
        alt((
            value(Color::Black, tag_no_case("black")),
            value(Color::White, tag_no_case("white")),
            value(Color::Black, tag_no_case("b")),
            value(Color::White, tag_no_case("w")),
        )),
        token,
    )
}

/// An optionally signed decimal integer that fits in an `i64`.
pub fn integer(token: &str) -> Option<i64> {
    whole(
        map_res(recognize(pair(opt(one_of("+-")), digit1)), str::parse),
        token,
    )
}

/// A finite decimal number such as `6.5`, `-2`, `.5` or `1e3`. Rust's own
/// `f64::from_str` would also take `inf` and `NaN`, which no clock or komi
/// can be, so the token is first recognised with nom.
pub fn number(token: &str) -> Option<f64> {
    whole(map_res(recognize_float, str::parse::<f64>), token).filter(|x| x.is_finite())
}

/// `0`/`1` as Castro reads them, and `true`/`false` for people.
pub fn boolean(token: &str) -> Option<bool> {
    whole(
        alt((
            value(true, alt((tag_no_case("1"), tag_no_case("true")))),
            value(false, alt((tag_no_case("0"), tag_no_case("false")))),
        )),
        token,
    )
}

/// One of a fixed set of keywords, any case.
pub fn keyword<T: Copy>(token: &str, table: &[(&str, T)]) -> Option<T> {
    table
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(token))
        .map(|&(_, value)| value)
}

/// Splits `text` into the command name and the rest. `None` when empty.
pub fn split_name(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let name_end = text
        .find(|c: char| c.is_ascii_whitespace())
        .unwrap_or(text.len());
    let (name, rest) = text.split_at(name_end);
    (!name.is_empty()).then_some((name, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_in_any_case() {
        for (token, expected) in [
            ("b", Color::Black),
            ("B", Color::Black),
            ("black", Color::Black),
            ("BLACK", Color::Black),
            ("Black", Color::Black),
            ("w", Color::White),
            ("W", Color::White),
            ("white", Color::White),
            ("wHiTe", Color::White),
        ] {
            assert_eq!(color(token), Some(expected), "{token}");
        }
    }

    #[test]
    fn bad_colours() {
        for token in ["", "x", "bl", "blackk", "bw", "empty", "1", "whites"] {
            assert_eq!(color(token), None, "{token}");
        }
    }

    #[test]
    fn integers() {
        assert_eq!(integer("19"), Some(19));
        assert_eq!(integer("-3"), Some(-3));
        assert_eq!(integer("+4"), Some(4));
        assert_eq!(integer("007"), Some(7));
        assert_eq!(integer("9223372036854775807"), Some(i64::MAX));
        for token in [
            "",
            "abc",
            "1.5",
            "1e3",
            "--1",
            "9223372036854775808",
            "1x",
            "-",
        ] {
            assert_eq!(integer(token), None, "{token}");
        }
    }

    #[test]
    fn numbers() {
        assert_eq!(number("6.5"), Some(6.5));
        assert_eq!(number("-2"), Some(-2.0));
        assert_eq!(number("7"), Some(7.0));
        assert_eq!(number(".5"), Some(0.5));
        assert_eq!(number("5."), Some(5.0));
        assert_eq!(number("1e3"), Some(1000.0));
        for token in [
            "", "abc", "inf", "-inf", "NaN", "nan", "infinity", "1e999", "6,5", "6.5.1",
        ] {
            assert_eq!(number(token), None, "{token}");
        }
    }

    #[test]
    fn booleans() {
        assert_eq!(boolean("1"), Some(true));
        assert_eq!(boolean("TRUE"), Some(true));
        assert_eq!(boolean("0"), Some(false));
        assert_eq!(boolean("false"), Some(false));
        for token in ["", "2", "yes", "10", "01"] {
            assert_eq!(boolean(token), None, "{token}");
        }
    }

    #[test]
    fn keywords_ignore_case() {
        let table = [("alive", 1), ("dead", 2)];
        assert_eq!(keyword("DEAD", &table), Some(2));
        assert_eq!(keyword("dea", &table), None);
    }

    #[test]
    fn split_name_finds_the_first_word() {
        assert_eq!(split_name("play b D4"), Some(("play", " b D4")));
        assert_eq!(split_name("  name  "), Some(("name", "  ")));
        assert_eq!(split_name(""), None);
        assert_eq!(split_name("   "), None);
    }

    #[test]
    fn cursor_reports_missing_invalid_and_extra() {
        let mut args = Args::new("play", "b");
        assert_eq!(args.color(), Ok(Color::Black));
        assert_eq!(
            args.color(),
            Err(ParseError::MissingArgument {
                command: "play".into(),
                expected: Expected::Color
            })
        );

        let mut args = Args::new("komi", "abc");
        assert_eq!(
            args.number(),
            Err(ParseError::InvalidArgument {
                command: "komi".into(),
                expected: Expected::Number,
                found: "abc".into()
            })
        );

        let args = Args::new("name", " extra ");
        assert_eq!(
            args.finish(),
            Err(ParseError::ExtraArgument {
                command: "name".into(),
                found: "extra".into()
            })
        );
    }

    #[test]
    fn non_negative_variants_reject_negatives() {
        assert!(Args::new("x", "-1").non_negative_integer().is_err());
        assert_eq!(Args::new("x", "0").non_negative_integer(), Ok(0));
        assert!(Args::new("x", "-0.5").non_negative_number().is_err());
        assert_eq!(Args::new("x", "0.5").non_negative_number(), Ok(0.5));
    }

    #[test]
    fn every_parse_error_is_a_syntax_error() {
        assert_eq!(ParseError::MissingCommand.reply_text(), "syntax error");
    }
}
