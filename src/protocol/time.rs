//! Clock settings as the protocols state them, shared by GTP and HTP:
//! `time_settings`, `kgs-time_settings` and `time_left`.

use crate::game::Color;
use crate::protocol::args::{keyword, Args, Expected, ParseError};

/// A time system, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit.
    None,
    /// Sudden death: `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Japanese byo-yomi: after main time, `periods` periods of `period`
    /// seconds; a period is lost only when a move takes longer than it.
    ByoYomi {
        main: f64,
        period: f64,
        periods: i64,
    },
    /// Canadian byo-yomi: after main time, `stones` moves every `period`
    /// seconds, over and over.
    Canadian { main: f64, period: f64, stones: i64 },
}

impl TimeSystem {
    /// GTP 2 §4.2 / `time_settings main_time byo_yomi_time byo_yomi_stones`:
    /// byo-yomi time 0 means absolute time; byo-yomi time > 0 with 0 stones
    /// means no time limit; otherwise Canadian byo-yomi.
    ///
    /// One pragmatic addition: `0 0 0` (a zero-second sudden-death clock, which
    /// nobody can mean literally) is read as no time limit, as some
    /// controllers send it to switch clocks off.
    pub fn from_gtp(main: f64, byo_yomi_time: f64, byo_yomi_stones: i64) -> TimeSystem {
        let no_limit = byo_yomi_time > 0.0 && byo_yomi_stones == 0;
        let zero_clock = byo_yomi_time == 0.0 && main == 0.0;
        if no_limit || zero_clock {
            TimeSystem::None
        } else if byo_yomi_time == 0.0 {
            TimeSystem::Absolute { main }
        } else {
            TimeSystem::Canadian {
                main,
                period: byo_yomi_time,
                stones: byo_yomi_stones,
            }
        }
    }
}

/// `time_settings <main> <byo_yomi_time> <byo_yomi_stones>`. GTP says
/// integers; fractional seconds are accepted because they cost nothing and
/// some controllers send them. Negative values are a syntax error.
pub fn parse_time_settings(args: &mut Args) -> Result<TimeSystem, ParseError> {
    let main = args.non_negative_number()?;
    let byo_yomi_time = args.non_negative_number()?;
    let byo_yomi_stones = args.non_negative_integer()?;
    Ok(TimeSystem::from_gtp(main, byo_yomi_time, byo_yomi_stones))
}

/// KGS's `kgs-time_settings`: `none`; `absolute <main>`;
/// `byoyomi <main> <period> <periods>`; `canadian <main> <period> <stones>`.
pub fn parse_kgs_time_settings(args: &mut Args) -> Result<TimeSystem, ParseError> {
    #[derive(Clone, Copy)]
    enum Kind {
        None,
        Absolute,
        ByoYomi,
        Canadian,
    }
    const KINDS: &[(&str, Kind)] = &[
        ("none", Kind::None),
        ("absolute", Kind::Absolute),
        ("byoyomi", Kind::ByoYomi),
        ("canadian", Kind::Canadian),
    ];
    let kind = args.parsed(Expected::TimeSystem, |t| keyword(t, KINDS))?;
    Ok(match kind {
        Kind::None => TimeSystem::None,
        Kind::Absolute => TimeSystem::Absolute {
            main: args.non_negative_number()?,
        },
        Kind::ByoYomi => TimeSystem::ByoYomi {
            main: args.non_negative_number()?,
            period: args.non_negative_number()?,
            periods: args.non_negative_integer()?,
        },
        Kind::Canadian => TimeSystem::Canadian {
            main: args.non_negative_number()?,
            period: args.non_negative_number()?,
            stones: args.non_negative_integer()?,
        },
    })
}

/// `time_left <color> <time> <stones>`. The time may be negative: a
/// controller with network lag can report an overdrawn clock, and refusing
/// the report would leave the engine with an older, wronger one. The
/// engine clamps. Stones (0 while in main time) must not be negative.
pub fn parse_time_left(args: &mut Args) -> Result<(Color, f64, i64), ParseError> {
    let color = args.color()?;
    let seconds = args.number()?;
    let stones = args.non_negative_integer()?;
    Ok((color, seconds, stones))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings_mapping() {
        assert_eq!(
            TimeSystem::from_gtp(300.0, 0.0, 0),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(
            TimeSystem::from_gtp(300.0, 0.0, 5),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(TimeSystem::from_gtp(0.0, 1.0, 0), TimeSystem::None);
        assert_eq!(TimeSystem::from_gtp(600.0, 30.0, 0), TimeSystem::None);
        assert_eq!(TimeSystem::from_gtp(0.0, 0.0, 0), TimeSystem::None);
        assert_eq!(
            TimeSystem::from_gtp(600.0, 30.0, 5),
            TimeSystem::Canadian {
                main: 600.0,
                period: 30.0,
                stones: 5
            }
        );
        assert_eq!(
            TimeSystem::from_gtp(0.0, 30.0, 1),
            TimeSystem::Canadian {
                main: 0.0,
                period: 30.0,
                stones: 1
            }
        );
    }

    fn kgs(text: &str) -> Result<TimeSystem, ParseError> {
        let mut args = Args::new("kgs-time_settings", text);
        let result = parse_kgs_time_settings(&mut args)?;
        args.finish()?;
        Ok(result)
    }

    #[test]
    fn kgs_forms() {
        assert_eq!(kgs("none"), Ok(TimeSystem::None));
        assert_eq!(kgs("NONE"), Ok(TimeSystem::None));
        assert_eq!(
            kgs("absolute 300"),
            Ok(TimeSystem::Absolute { main: 300.0 })
        );
        assert_eq!(
            kgs("byoyomi 600 30 5"),
            Ok(TimeSystem::ByoYomi {
                main: 600.0,
                period: 30.0,
                periods: 5
            })
        );
        assert_eq!(
            kgs("canadian 600 300 25"),
            Ok(TimeSystem::Canadian {
                main: 600.0,
                period: 300.0,
                stones: 25
            })
        );
    }

    #[test]
    fn kgs_errors() {
        for text in [
            "",
            "fischer 300 10",
            "none 5",
            "absolute",
            "absolute -1",
            "absolute x",
            "byoyomi 600 30",
            "byoyomi 600 30 5 1",
            "byoyomi 600 30 2.5",
            "canadian 600 300",
            "canadian 600 -300 25",
        ] {
            assert!(kgs(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn time_left_accepts_an_overdrawn_clock_but_not_negative_stones() {
        let mut args = Args::new("time_left", "b -0.5 0");
        assert_eq!(parse_time_left(&mut args), Ok((Color::Black, -0.5, 0)));
        let mut args = Args::new("time_left", "w 30 -1");
        assert!(parse_time_left(&mut args).is_err());
        let mut args = Args::new("time_left", "x 30 0");
        assert!(parse_time_left(&mut args).is_err());
    }
}
