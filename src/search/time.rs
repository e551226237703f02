//! Time control: how long to think about this move, from the clock.
//!
//! Pure functions over a clock state, so the budgets can be tested without
//! waiting. [`Clock`] keeps both colours' clocks: set from GTP `time_left`
//! when the controller sends it, or advanced locally with [`Clock::spend`]
//! when it does not (gogui-twogtp, for one, only sends `time_settings`).
//!
//! The rule: keep a lag margin back (never more than a fifth of what remains),
//! spread main time over the moves expected to remain, and once main time
//! is gone spend a safe share of the overtime period (never less than that
//! share while main time lasts: overtime comes anyway). Spending a budget
//! plus less than its lag margin never loses a byo-yomi or Canadian period.
//! In absolute time the budgets alone never run the clock out, but a fixed
//! overrun per move (lag the engine cannot see) must, in a long enough
//! game: about 240 moves each on 19×19 with 5 minutes and 10 ms per move.

use super::config::{
    BYO_YOMI_FRACTION, DEFAULT_MOVE_TIME, LAG_MARGIN, LAG_MARGIN_MAX_FRACTION, MIN_MOVES_LEFT,
};
use crate::game::Color;
use std::time::Duration;

/// The longest clock the engine keeps: a year. Protocol numbers are `f64`
/// seconds and a controller may send any of them (`time_settings 1e20 0 0`);
/// past about 1.8e19 s a `Duration` cannot hold them, and long before that
/// `Instant + Duration` overflows. A year is far beyond any real game, so
/// clamping to it changes no play.
pub const MAX_CLOCK: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// Seconds from a protocol or option value as a `Duration`, for every place
/// a float becomes a clock: negative, zero or NaN give zero, anything above
/// [`MAX_CLOCK`] (infinity too) gives [`MAX_CLOCK`]. Never panics.
pub fn clock_duration(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else if seconds >= MAX_CLOCK.as_secs_f64() {
        MAX_CLOCK
    } else {
        Duration::from_secs_f64(seconds)
    }
}

/// The time system of the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock: think [`DEFAULT_MOVE_TIME`] per move.
    #[default]
    None,
    /// Sudden death.
    Absolute { main: Duration },
    /// Japanese byo-yomi: after main time, `periods` periods of `period`;
    /// a move that takes longer than a period uses one up.
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Canadian: after main time, `stones` moves in each `period`.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
}

impl TimeControl {
    /// From GTP `time_settings main_time byo_yomi_time byo_yomi_stones`:
    /// byo-yomi time 0 is absolute time (main 0 too: no limit); stones 0
    /// with byo-yomi time > 0 is "no time limit"; otherwise Canadian.
    pub fn from_gtp(main: Duration, byo_yomi: Duration, stones: u32) -> Self {
        match (byo_yomi.is_zero(), stones) {
            (true, _) if main.is_zero() => TimeControl::None,
            (true, _) => TimeControl::Absolute { main },
            (false, 0) => TimeControl::None,
            (false, stones) => TimeControl::Canadian {
                main,
                period: byo_yomi,
                stones,
            },
        }
    }

    /// The overtime period and its count (stones or periods), if any.
    fn overtime(&self) -> Option<(Duration, u32)> {
        match *self {
            TimeControl::ByoYomi {
                period, periods, ..
            } if periods > 0 && !period.is_zero() => Some((period, periods)),
            TimeControl::Canadian { period, stones, .. } if stones > 0 && !period.is_zero() => {
                Some((period, stones))
            }
            _ => None,
        }
    }

    /// A full clock at the start of the game.
    pub fn initial(&self) -> Remaining {
        let main = match *self {
            TimeControl::None => Duration::ZERO,
            TimeControl::Absolute { main }
            | TimeControl::ByoYomi { main, .. }
            | TimeControl::Canadian { main, .. } => main,
        };
        let (period, count) = self.overtime().unwrap_or_default();
        Remaining {
            main,
            period,
            count,
            flagged: false,
        }
    }
}

/// One player's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Remaining {
    /// Main time left.
    pub main: Duration,
    /// Time left in the current overtime period (a full period while main
    /// time lasts).
    pub period: Duration,
    /// Canadian: stones left to play in this period; byo-yomi: periods left.
    pub count: u32,
    /// Lost on time (only [`Clock::spend`] sets it).
    pub flagged: bool,
}

/// Time kept back from `left` for lag: [`LAG_MARGIN`], but never more than
/// [`LAG_MARGIN_MAX_FRACTION`] of it.
pub fn lag_margin(left: Duration) -> Duration {
    LAG_MARGIN.min(left.mul_f64(LAG_MARGIN_MAX_FRACTION))
}

/// `left` minus its lag margin.
fn usable(left: Duration) -> Duration {
    left.saturating_sub(lag_margin(left))
}

/// Moves this player still expects to play: max(points/3 − move/2, 20).
pub fn expected_moves_left(board_points: u32, move_number: u32) -> u32 {
    (board_points / 3)
        .saturating_sub(move_number / 2)
        .max(MIN_MOVES_LEFT)
}

/// Time for one move in overtime from `left` (assumed in overtime).
fn overtime_share(control: &TimeControl, left: &Remaining) -> Duration {
    match control.overtime() {
        None => Duration::ZERO,
        Some(_) if left.count == 0 => Duration::ZERO,
        // Every move gets a fresh period; spend most of one (of what the
        // controller says is left of it, if that is less).
        Some((period, _)) if matches!(control, TimeControl::ByoYomi { .. }) => {
            let period = period.min(left.period);
            period.mul_f64(BYO_YOMI_FRACTION).min(usable(period))
        }
        // What is left of the period, spread over its stones; each
        // stone's share keeps its own lag margin, so a move that overruns
        // its budget by less than that never shrinks the next share.
        Some(_) => usable(left.period / left.count),
    }
}

/// How long to think about the next move. `board_points` is the number of
/// places on the board (361 for 19×19), `move_number` the moves played so
/// far by both players.
pub fn move_budget(
    control: &TimeControl,
    left: &Remaining,
    board_points: u32,
    move_number: u32,
) -> Duration {
    if *control == TimeControl::None {
        return DEFAULT_MOVE_TIME;
    }
    if left.flagged {
        return Duration::ZERO;
    }
    let main_share = usable(left.main) / expected_moves_left(board_points, move_number);
    if left.main.is_zero() {
        return overtime_share(control, left);
    }
    // Still in main time. Overtime starts fresh when main time runs out,
    // even during this move, so spending main time more slowly than the
    // overtime rate would only waste it.
    let fresh = control.initial();
    let overtime = overtime_share(
        control,
        &Remaining {
            main: Duration::ZERO,
            ..fresh
        },
    );
    main_share.max(overtime)
}

/// Both players' clocks under one time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    left: [Remaining; 2],
}

impl Clock {
    pub fn new(control: TimeControl) -> Self {
        Clock {
            control,
            left: [control.initial(); 2],
        }
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    pub fn remaining(&self, color: Color) -> Remaining {
        self.left[color.index()]
    }

    /// GTP `time_left color time stones`: `stones` 0 means main time
    /// (absolute time too); otherwise `time` is what is left of the current
    /// period and `stones` the stones (Canadian) or, following KGS, the
    /// periods (Japanese byo-yomi) left.
    pub fn time_left(&mut self, color: Color, time: Duration, stones: u32) {
        let fresh = self.control.initial();
        let left = &mut self.left[color.index()];
        left.flagged = false;
        if stones == 0 || self.control.overtime().is_none() {
            // Main time; at zero, overtime starts afresh with the next move.
            left.main = time;
            left.period = fresh.period;
            left.count = fresh.count;
        } else {
            left.main = Duration::ZERO;
            left.period = time;
            left.count = stones;
        }
    }

    /// Books `elapsed` on `color`'s clock as the game clock would.
    pub fn spend(&mut self, color: Color, elapsed: Duration) {
        let control = self.control;
        let left = &mut self.left[color.index()];
        if control == TimeControl::None || left.flagged {
            return;
        }
        if !left.main.is_zero() && elapsed <= left.main {
            left.main -= elapsed;
            return;
        }
        // Main time ran out during this move (or was gone already): the
        // rest of the move is overtime.
        let over = elapsed.saturating_sub(left.main);
        left.main = Duration::ZERO;
        let Some((period, count)) = control.overtime() else {
            left.flagged = !over.is_zero();
            return;
        };
        match control {
            TimeControl::ByoYomi { .. } => {
                // Each whole period exceeded costs one; the next move gets
                // a fresh period.
                let lost = over
                    .as_nanos()
                    .div_ceil(period.as_nanos())
                    .saturating_sub(1);
                if lost >= left.count as u128 {
                    left.count = 0;
                    left.flagged = true;
                } else {
                    left.count -= lost as u32;
                }
                left.period = period;
            }
            _ => {
                if over > left.period {
                    left.period = Duration::ZERO;
                    left.flagged = true;
                    return;
                }
                left.period -= over;
                left.count = left.count.saturating_sub(1);
                if left.count == 0 {
                    left.period = period;
                    left.count = count;
                }
            }
        }
    }

    /// [`move_budget`] for `color`.
    pub fn budget(&self, color: Color, board_points: u32, move_number: u32) -> Duration {
        move_budget(
            &self.control,
            &self.remaining(color),
            board_points,
            move_number,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const B: Color = Color::Black;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn japanese(main: f64, period: f64, periods: u32) -> TimeControl {
        TimeControl::ByoYomi {
            main: secs(main),
            period: secs(period),
            periods,
        }
    }

    fn canadian(main: f64, period: f64, stones: u32) -> TimeControl {
        TimeControl::Canadian {
            main: secs(main),
            period: secs(period),
            stones,
        }
    }

    fn close(a: Duration, b: f64) -> bool {
        (a.as_secs_f64() - b).abs() < 1e-6
    }

    #[test]
    fn clock_duration_clamps_instead_of_panicking() {
        assert_eq!(clock_duration(1.5), Duration::from_millis(1500));
        assert_eq!(clock_duration(0.0), Duration::ZERO);
        assert_eq!(clock_duration(-0.0), Duration::ZERO);
        assert_eq!(clock_duration(-3.0), Duration::ZERO);
        assert_eq!(clock_duration(f64::NAN), Duration::ZERO);
        for huge in [1e9, 1.8e19, 1e20, f64::MAX, f64::INFINITY] {
            assert_eq!(clock_duration(huge), MAX_CLOCK, "{huge}");
        }
        // A clamped clock still fits after the current instant.
        assert!(std::time::Instant::now().checked_add(MAX_CLOCK).is_some());
    }

    #[test]
    fn no_settings_means_the_default_move_time() {
        assert_eq!(
            Clock::new(TimeControl::None).budget(B, 361, 0),
            DEFAULT_MOVE_TIME
        );
        assert_eq!(
            TimeControl::from_gtp(Duration::ZERO, Duration::ZERO, 0),
            TimeControl::None
        );
        assert_eq!(
            TimeControl::from_gtp(secs(0.0), secs(10.0), 0),
            TimeControl::None
        );
        assert_eq!(
            TimeControl::from_gtp(secs(60.0), Duration::ZERO, 0),
            TimeControl::Absolute { main: secs(60.0) }
        );
        assert_eq!(
            TimeControl::from_gtp(secs(60.0), secs(30.0), 5),
            canadian(60.0, 30.0, 5)
        );
    }

    #[test]
    fn expected_moves_shrink_to_a_floor() {
        assert_eq!(expected_moves_left(361, 0), 120);
        assert_eq!(expected_moves_left(361, 100), 70);
        assert_eq!(expected_moves_left(361, 300), 20);
        assert_eq!(expected_moves_left(81, 0), 27);
        assert_eq!(expected_moves_left(9, 0), 20);
    }

    #[test]
    fn lag_margin_is_a_second_but_at_most_a_fifth() {
        assert_eq!(lag_margin(secs(100.0)), LAG_MARGIN);
        assert_eq!(lag_margin(secs(5.0)), LAG_MARGIN);
        assert!(close(lag_margin(secs(1.0)), 0.2));
        assert!(close(lag_margin(secs(0.4)), 0.08));
        assert_eq!(lag_margin(Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn absolute_time_is_spread_over_the_moves_left() {
        let clock = Clock::new(TimeControl::Absolute { main: secs(600.0) });
        assert!(close(clock.budget(B, 361, 0), 599.0 / 120.0));
        assert!(close(clock.budget(B, 361, 100), 599.0 / 70.0));
        let mut clock = clock;
        clock.time_left(B, secs(0.4), 0);
        assert!(close(clock.budget(B, 361, 200), 0.32 / 20.0));
        clock.time_left(B, Duration::ZERO, 0);
        assert_eq!(clock.budget(B, 361, 200), Duration::ZERO);
    }

    #[test]
    fn byo_yomi_spends_most_of_a_period_once_main_time_is_gone() {
        let mut clock = Clock::new(japanese(3600.0, 30.0, 5));
        assert!(close(clock.budget(B, 361, 0), 3599.0 / 120.0));
        // Main time spread thinner than the overtime rate: use the latter.
        clock.time_left(B, secs(100.0), 0);
        assert!(close(clock.budget(B, 361, 100), 24.0));
        clock.time_left(B, secs(30.0), 3);
        assert!(close(clock.budget(B, 361, 150), 24.0));
        // A controller that reports less than a period left is believed.
        clock.time_left(B, secs(10.0), 3);
        assert!(close(clock.budget(B, 361, 150), 8.0));
        // A short period: 80% of it, which the lag margin also leaves.
        let short = Clock::new(japanese(0.0, 1.0, 3));
        assert!(close(short.budget(B, 81, 10), 0.8));
        // A shorter one: the lag margin wins over 80%.
        let shorter = Clock::new(japanese(0.0, 0.5, 3));
        assert!(close(shorter.budget(B, 81, 10), 0.4));
    }

    #[test]
    fn canadian_spreads_the_period_over_its_stones() {
        // 6 s a stone, less the 1 s margin.
        let mut clock = Clock::new(canadian(0.0, 60.0, 10));
        assert!(close(clock.budget(B, 361, 0), 5.0));
        clock.time_left(B, secs(12.0), 2);
        assert!(close(clock.budget(B, 361, 50), 5.0));
        // 1 s a stone keeps a fifth back.
        clock.time_left(B, secs(3.0), 3);
        assert!(close(clock.budget(B, 361, 50), 0.8));
        clock.time_left(B, secs(1200.0), 0);
        assert!(close(clock.budget(B, 361, 0), 1199.0 / 120.0));
        // Main time nearly gone: the first period's rate.
        clock.time_left(B, secs(30.0), 0);
        assert!(close(clock.budget(B, 361, 100), 5.0));
    }

    #[test]
    fn spend_follows_the_game_clock() {
        let mut clock = Clock::new(japanese(10.0, 5.0, 3));
        clock.spend(B, secs(8.0));
        assert!(close(clock.remaining(B).main, 2.0));
        clock.spend(B, secs(6.0)); // 2 s main + 4 s of a period: kept
        assert_eq!(clock.remaining(B).count, 3);
        clock.spend(B, secs(7.0)); // one period exceeded
        assert_eq!(clock.remaining(B).count, 2);
        clock.spend(B, secs(11.0)); // two more
        assert!(clock.remaining(B).flagged);

        let mut clock = Clock::new(canadian(0.0, 20.0, 2));
        clock.spend(B, secs(15.0));
        assert_eq!(clock.remaining(B).count, 1);
        assert!(close(clock.remaining(B).period, 5.0));
        clock.spend(B, secs(4.0)); // period done: a fresh one
        assert_eq!(clock.remaining(B).count, 2);
        assert!(close(clock.remaining(B).period, 20.0));
        clock.spend(B, secs(21.0));
        assert!(clock.remaining(B).flagged);

        let mut clock = Clock::new(TimeControl::Absolute { main: secs(1.0) });
        clock.spend(B, secs(1.0));
        assert!(!clock.remaining(B).flagged);
        clock.spend(B, secs(0.1));
        assert!(clock.remaining(B).flagged);
    }

    /// Plays `moves` own moves, each taking its budget plus `overhead`
    /// (search overrun, network lag); returns the clock at the end.
    fn play_out(control: TimeControl, points: u32, moves: u32, overhead: f64) -> Clock {
        let mut clock = Clock::new(control);
        let periods = clock.remaining(B).count;
        for own in 0..moves {
            let budget = clock.budget(B, points, 2 * own);
            clock.spend(B, budget + secs(overhead));
            assert!(
                !clock.remaining(B).flagged,
                "{control:?} lost on move {own}"
            );
            if matches!(control, TimeControl::ByoYomi { .. }) {
                assert_eq!(
                    clock.remaining(B).count,
                    periods,
                    "{control:?} lost a period"
                );
            }
        }
        clock
    }

    #[test]
    fn whole_games_never_lose_on_time() {
        for points in [81, 271, 361] {
            // Absolute: each budget leaves time, however long the game.
            play_out(
                TimeControl::Absolute { main: secs(60.0) },
                points,
                1000,
                0.0,
            );
            // With a fixed overrun per move absolute time must run out some
            // day, whatever the rule; with a local controller's 10 ms it
            // lasts a very long game (on 19×19, 200 moves each).
            play_out(
                TimeControl::Absolute { main: secs(300.0) },
                points,
                points / 2 + 20,
                0.01,
            );
            // Overtime absorbs any overrun below the lag margin, forever
            // (1 s, or a fifth of a short period or per-stone share).
            play_out(japanese(60.0, 10.0, 1), points, 1000, 0.9);
            play_out(japanese(0.0, 1.0, 1), points, 1000, 0.18);
            play_out(canadian(60.0, 60.0, 10), points, 1000, 0.9);
            play_out(canadian(0.0, 30.0, 25), points, 1000, 0.2);
            play_out(canadian(0.0, 1.0, 1), points, 1000, 0.18);
        }
    }

    fn any_control() -> impl Strategy<Value = TimeControl> {
        let t = 0.0..1000.0f64;
        prop_oneof![
            Just(TimeControl::None),
            t.clone()
                .prop_map(|m| TimeControl::Absolute { main: secs(m) }),
            (t.clone(), 0.1..120.0f64, 0..10u32).prop_map(|(m, p, n)| japanese(m, p, n)),
            (t, 0.1..600.0f64, 0..40u32).prop_map(|(m, p, n)| canadian(m, p, n)),
        ]
    }

    proptest! {
        // No regression files: they would land outside this module.
        #![proptest_config(ProptestConfig {
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// From any clock state, one move that takes its budget plus up to
        /// 90% of the lag margin never flags or costs a byo-yomi period.
        #[test]
        fn one_budget_never_loses(
            control in any_control(),
            left in 0.0..1000.0f64,
            stones in 0..40u32,
            points in 9..400u32,
            move_number in 0..600u32,
            overrun in 0.0..0.9f64,
        ) {
            let mut clock = Clock::new(control);
            clock.time_left(B, secs(left), stones);
            let before = clock.remaining(B);
            let budget = clock.budget(B, points, move_number);
            // The clock the move is charged against.
            let relevant = match control {
                _ if !before.main.is_zero() => before.main,
                TimeControl::ByoYomi { period, .. } => period.min(before.period),
                _ => before.period,
            };
            clock.spend(B, budget + lag_margin(relevant).mul_f64(overrun));
            let after = clock.remaining(B);
            if control != TimeControl::None && !(before.main.is_zero() && before.count == 0) {
                prop_assert!(!after.flagged, "{before:?} -> {after:?}, budget {budget:?}");
            }
            if let TimeControl::ByoYomi { .. } = control {
                prop_assert!(after.flagged || after.count == before.count);
            }
        }
    }
}
