//! The analysis commands Sabaki and Lizzie send: `lz-analyze`,
//! `kata-analyze` and the `*genmove_analyze` forms.
//!
//! Grammar (Leela Zero and KataGo accept the same): an optional colour, an
//! optional bare interval in centiseconds, then `keyword value` pairs in any
//! order: `interval N`, `minmoves N`, `maxmoves N`, `ownership true|false`,
//! Leela Zero's `avoid COLOUR V,V,... N` and `allow COLOUR V,V,... N`, and
//! KataGo's `rootInfo true|false` and `pvVisits true|false`.

use crate::game::Color;
use crate::protocol::args::{boolean, color, integer, Args, Expected, ParseError};
use crate::protocol::Vertex;

/// Which engine's output format to mimic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalyzeFormat {
    /// Leela Zero: winrate and prior as integers ×10000.
    Lz,
    /// KataGo: floats 0..1, `scoreLead`, optional `ownership`.
    Kata,
}

/// Leela Zero's `avoid` / `allow`: for the first `until_depth` moves of
/// the search's own line (depth 0 is the move from the analysed
/// position), `color` may not play `vertices` (avoid) or may play only
/// them (allow).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub allow: bool,
    pub color: Color,
    pub vertices: Vec<Vertex>,
    pub until_depth: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// KataGo's `rootInfo`: a `rootInfo` section for the position itself.
    pub root_info: bool,
    /// KataGo's `pvVisits`: the visits of each position along each PV.
    pub pv_visits: bool,
    /// `avoid` / `allow` rules, in the order given.
    pub rules: Vec<MoveRule>,
}

/// Interval when none is given: one report a second.
pub const DEFAULT_INTERVAL_CENTIS: u32 = 100;

/// Longest interval we accept (one hour); anything longer is a typo.
const MAX_INTERVAL_CENTIS: i64 = 360_000;

/// Deepest `avoid`/`allow` reach we accept; deeper is a typo (no game here
/// lasts that long).
const MAX_RULE_DEPTH: i64 = 10_000;

/// Most vertices in one `avoid`/`allow` list: every point of the largest
/// board, plus pass.
const MAX_RULE_VERTICES: usize = 25 * 25 + 1;

fn count(args: &mut Args, limit: i64) -> Result<u32, ParseError> {
    let n = args.non_negative_integer()?;
    if n > limit {
        return Err(args.invalid(Expected::NonNegativeInteger, &n.to_string()));
    }
    Ok(n as u32)
}

/// `COLOUR V,V,... N` after `avoid` or `allow`.
fn move_rule(args: &mut Args, allow: bool) -> Result<MoveRule, ParseError> {
    let color = args.color()?;
    let list = args.word(Expected::Vertex)?;
    let vertices = list
        .split(',')
        .map(|token| Vertex::parse(token).ok_or_else(|| args.invalid(Expected::Vertex, token)))
        .collect::<Result<Vec<_>, _>>()?;
    if vertices.len() > MAX_RULE_VERTICES {
        return Err(args.invalid(Expected::Vertex, list));
    }
    let until_depth = count(args, MAX_RULE_DEPTH)?;
    Ok(MoveRule {
        allow,
        color,
        vertices,
        until_depth,
    })
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
        root_info: false,
        pv_visits: false,
        rules: Vec::new(),
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
            "rootinfo" => request.root_info = args.parsed(Expected::Boolean, boolean)?,
            "pvvisits" => request.pv_visits = args.parsed(Expected::Boolean, boolean)?,
            "avoid" => request.rules.push(move_rule(args, false)?),
            "allow" => request.rules.push(move_rule(args, true)?),
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
    fn accepts_katago_and_leela_zero_keywords() {
        let r = parse("b 10 rootInfo true pvVisits true", false).unwrap();
        assert!(r.root_info && r.pv_visits);
        let r = parse("b 10 avoid b e5 1 allow w d4,E5,pass 10", false).unwrap();
        let d4 = Vertex::parse("d4").unwrap();
        let e5 = Vertex::parse("e5").unwrap();
        assert_eq!(
            r.rules,
            vec![
                MoveRule {
                    allow: false,
                    color: Color::Black,
                    vertices: vec![e5],
                    until_depth: 1
                },
                MoveRule {
                    allow: true,
                    color: Color::White,
                    vertices: vec![d4, e5, Vertex::Pass],
                    until_depth: 10
                },
            ]
        );
    }

    #[test]
    fn rejects_what_it_does_not_understand() {
        assert!(parse("B -5", false).is_err());
        assert!(parse("B interval", false).is_err());
        assert!(parse("B ownership maybe", false).is_err());
        assert!(parse("B avoid b q16", false).is_err());
        assert!(parse("B avoid x q16 1", false).is_err());
        assert!(parse("B avoid b q16,zz 1", false).is_err());
        assert!(parse("B avoid b q16, 1", false).is_err());
        assert!(parse("B allow w d4 -1", false).is_err());
        assert!(parse("B rootInfo yes", false).is_err());
        assert!(parse("B pvVisits", false).is_err());
        assert!(parse("", true).is_err());
        assert!(parse("x 50", false).is_err());
    }
}
