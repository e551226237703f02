//! The analysis commands Sabaki and Lizzie send: `lz-analyze`,
//! `kata-analyze` and the `*genmove_analyze` forms.
//!
//! Grammar (Leela Zero and KataGo accept the same): an optional colour, an
//! optional bare interval in centiseconds, then `keyword value` pairs in any
//! order: `interval N`, `minmoves N`, `maxmoves N`, `ownership true|false`.

use crate::game::Color;
use crate::protocol::args::{boolean, color, integer, Args, Expected, ParseError};

/// Which engine's output format to mimic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyzeFormat {
    /// Leela Zero: winrate and prior as integers ×10000.
    Lz,
    /// KataGo: floats 0..1, `scoreLead`, optional `ownership`.
    Kata,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyzeRequest {
    pub format: AnalyzeFormat,
    /// Whose move to analyse; the side to move when omitted.
    pub color: Option<Color>,
    /// Centiseconds between `info` lines; 0 means only at the end.
    pub interval_centis: u32,
    /// Append KataGo's `ownership` to each report.
    pub ownership: bool,
    /// At most this many candidates per report.
    pub max_moves: Option<u32>,
    /// Show at least this many candidates (accepted and ignored: only
    /// visited moves are shown, which is what both GUIs draw).
    pub min_moves: Option<u32>,
}

/// Interval when none is given: one report a second.
pub const DEFAULT_INTERVAL_CENTIS: u32 = 100;

/// Longest interval we accept (one hour); anything longer is a typo.
const MAX_INTERVAL_CENTIS: i64 = 360_000;

fn count(args: &mut Args, limit: i64) -> Result<u32, ParseError> {
    let n = args.non_negative_integer()?;
    if n > limit {
        return Err(args.invalid(Expected::NonNegativeInteger, &n.to_string()));
    }
    Ok(n as u32)
}

/// Parses the arguments after the command name. `needs_color` is true for
/// the genmove forms, where the colour is mandatory.
pub fn parse_analyze(
    format: AnalyzeFormat,
    args: &mut Args,
    needs_color: bool,
) -> Result<AnalyzeRequest, ParseError> {
    let mut request = AnalyzeRequest {
        format,
        color: None,
        interval_centis: DEFAULT_INTERVAL_CENTIS,
        ownership: false,
        max_moves: None,
        min_moves: None,
    };
    // The colour and the bare interval are positional but optional: take a
    // token only if it reads as one, else leave it for the keywords.
    request.color = if needs_color {
        Some(args.color()?)
    } else {
        match args.peek().and_then(color) {
            Some(c) => {
                args.optional_word();
                Some(c)
            }
            None => None,
        }
    };
    if let Some(n) = args.peek().and_then(integer) {
        args.optional_word();
        if !(0..=MAX_INTERVAL_CENTIS).contains(&n) {
            return Err(args.invalid(Expected::NonNegativeInteger, &n.to_string()));
        }
        request.interval_centis = n as u32;
    }
    while let Some(key) = args.optional_word() {
        match key.to_ascii_lowercase().as_str() {
            "interval" => request.interval_centis = count(args, MAX_INTERVAL_CENTIS)?,
            "maxmoves" => request.max_moves = Some(count(args, i64::from(u32::MAX))?),
            "minmoves" => request.min_moves = Some(count(args, i64::from(u32::MAX))?),
            "ownership" => request.ownership = args.parsed(Expected::Boolean, boolean)?,
            other => return Err(args.invalid(Expected::AnalyzeKeyword, other)),
        }
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(rest: &str, needs_color: bool) -> Result<AnalyzeRequest, ParseError> {
        let mut args = Args::new("lz-analyze", rest);
        let r = parse_analyze(AnalyzeFormat::Lz, &mut args, needs_color)?;
        args.finish()?;
        Ok(r)
    }

    #[test]
    fn accepts_the_forms_sabaki_and_lizzie_send() {
        let r = parse("", false).unwrap();
        assert_eq!(
            (r.color, r.interval_centis),
            (None, DEFAULT_INTERVAL_CENTIS)
        );
        let r = parse("B 50", false).unwrap();
        assert_eq!((r.color, r.interval_centis), (Some(Color::Black), 50));
        let r = parse("w interval 20 ownership true maxmoves 5", false).unwrap();
        assert_eq!(r.color, Some(Color::White));
        assert_eq!(
            (r.interval_centis, r.ownership, r.max_moves),
            (20, true, Some(5))
        );
        let r = parse("30", false).unwrap();
        assert_eq!((r.color, r.interval_centis), (None, 30));
    }

    #[test]
    fn rejects_what_it_does_not_understand() {
        assert!(parse("B -5", false).is_err());
        assert!(parse("B interval", false).is_err());
        assert!(parse("B ownership maybe", false).is_err());
        assert!(parse("B avoid b q16 1", false).is_err());
        assert!(parse("", true).is_err());
        assert!(parse("x 50", false).is_err());
    }
}
