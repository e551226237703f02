//! The serving loop: framed lines in, a game's [`Session`] answers, replies
//! out. It is the only writer of stdout.
//!
//! Every game's state lives in the one generic [`GameSession`](super::session::GameSession)
//! (position, undo, search under limits and clocks, analysis dboards); a
//! game's adapter ([`GoSession`](super::go::GoSession),
//! [`HavannahSession`](super::havannah::HavannahSession), ...) parses its
//! protocol and adds only the commands where its game differs. Searches run
//! on blocking threads (see [`Controller::think`](crate::engine::think::Controller::think))
//! so input keeps flowing and analysis lines can be written while the
//! engine thinks.

use super::connection::{self, Connection};
use super::line::{self, Line};

/// What a session answers to one command.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// `= body`
    Success(String),
    /// `? message`
    Failure(String),
    /// `= ` and then shut down (the `quit` command).
    Quit,
    /// The session already wrote the whole reply (analysis streams).
    Streamed,
}

impl Reply {
    pub fn ok(body: impl Into<String>) -> Reply {
        Reply::Success(body.into())
    }
    pub fn empty() -> Reply {
        Reply::Success(String::new())
    }
    pub fn err(message: impl Into<String>) -> Reply {
        Reply::Failure(message.into())
    }
}

/// A game's command handler. `execute` gets the command's id and text
/// (comments already stripped) and the connection, so a long search can
/// keep reading lines, and an analysis can stream, while it thinks.
#[allow(async_fn_in_trait)] // sessions run on the loop's own thread
pub trait Session {
    async fn execute(&mut self, id: Option<u32>, text: &str, conn: &mut Connection) -> Reply;

    /// Called when a reply is out and no command is waiting: the place to
    /// ponder. Must return as soon as a new line arrives.
    async fn idle(&mut self, conn: &mut Connection) {
        let _ = conn;
    }
}

/// The first line of a streamed success reply: `=id ` and a newline.
pub fn stream_header(id: Option<u32>) -> String {
    match id {
        Some(id) => format!("={id} \n"),
        None => "= \n".to_string(),
    }
}

/// Serves `session` until `quit` or end of input. Returns normally in both
/// cases: an engine that loses its controller simply exits.
pub async fn serve<S: Session>(session: &mut S, conn: &mut Connection) {
    while let Some(raw) = conn.next_line().await {
        let (id, reply) = match line::preprocess(&raw) {
            Line::Blank | Line::Interrupt => continue,
            Line::Malformed { id, reason } => {
                tracing::debug!(?reason, "malformed line");
                (id, Reply::err("syntax error"))
            }
            Line::Command { id, text } => {
                tracing::debug!(%text, "command");
                (id, session.execute(id, &text, conn).await)
            }
        };
        let (text, quit) = match &reply {
            Reply::Success(body) => (super::success(id, body), false),
            Reply::Failure(msg) => (super::failure(id, msg), false),
            Reply::Quit => (super::success(id, ""), true),
            Reply::Streamed => continue,
        };
        // A controller that went away is no reason to panic: stop serving.
        if conn.write(&text).is_err() || quit {
            return;
        }
        if !conn.has_pending() {
            session.idle(conn).await;
        }
    }
}

/// Clock settings as the protocol states them → the search's time control.
/// Negative numbers read as zero, numbers past a year as a year
/// ([`clock_duration`](crate::search::time::clock_duration)).
pub fn time_control(system: super::TimeSystem) -> crate::search::time::TimeControl {
    use super::TimeSystem as T;
    use crate::search::time::TimeControl as C;
    let secs = crate::search::time::clock_duration;
    let count = |n: i64| u32::try_from(n).unwrap_or(if n < 0 { 0 } else { u32::MAX });
    match system {
        T::None => C::None,
        T::Absolute { main } => C::Absolute { main: secs(main) },
        T::ByoYomi {
            main,
            period,
            periods,
        } => C::ByoYomi {
            main: secs(main),
            period: secs(period),
            periods: count(periods),
        },
        T::Canadian {
            main,
            period,
            stones,
        } => C::Canadian {
            main: secs(main),
            period: secs(period),
            stones: count(stones),
        },
    }
}

/// `time_left colour seconds stones`, the same in GTP and HTP. A little
/// below zero is accepted (controllers with lag report that) and read as
/// zero, more than a year as a year; anything not finite or a negative stone
/// count is a syntax error and changes nothing.
pub fn apply_time_left(
    clock: &mut crate::search::time::Clock,
    color: crate::game::Color,
    seconds: f64,
    stones: i64,
) -> Reply {
    if !seconds.is_finite() || stones < 0 {
        return Reply::err(super::reply::SYNTAX_ERROR);
    }
    let stones = u32::try_from(stones).unwrap_or(u32::MAX);
    clock.time_left(color, crate::search::time::clock_duration(seconds), stones);
    Reply::empty()
}

/// Serves `session` on stdin/stdout until `quit` or end of input.
/// Returns the process exit code.
pub fn run<S: Session>(mut session: S) -> i32 {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("warpstone: cannot start the runtime: {e}");
            return 1;
        }
    };
    runtime.block_on(async move {
        let mut conn = connection::connect(std::io::stdin(), Box::new(std::io::stdout()));
        serve(&mut session, &mut conn).await
    });
    0
}
