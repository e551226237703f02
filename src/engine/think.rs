//! Running one search for a session, whatever the game: the search moves to
//! a blocking thread and comes back with its result, while the controller's
//! side keeps reading input and writing analysis lines (a [`Controller`]).

use crate::game::Game;
use crate::search::{Decision, Limits, MoveFilter, Search, SearchInfo};
use crate::sim::Simulator;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// How a running search treats new input lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInput {
    /// Queue them (genmove: GTP is sequential).
    Queue,
    /// Stop the search, then queue them (lz-analyze ends at the next line).
    Stop,
}

/// The controller's side of a running search: the protocol layer's
/// connection implements it. Kept as a trait so the engine needs nothing of
/// the protocol's text or I/O.
#[allow(async_fn_in_trait)] // one implementation, driven on the loop's own thread
pub trait Controller {
    /// Runs `job` (a search) on a blocking thread while still reading input:
    /// an interrupt raises `stop`; other lines are queued and, with
    /// [`OnInput::Stop`], also raise it. Lines arriving on `progress` are
    /// written as they come (analysis output); empty ones are skipped, and
    /// a failed write raises `stop` (nobody reads the analysis any more).
    /// A job that panicked comes back as `Err` so the caller can answer `?`
    /// and go on.
    async fn think<R, F>(
        &mut self,
        stop: Arc<AtomicBool>,
        on_input: OnInput,
        progress: Option<tokio::sync::mpsc::UnboundedReceiver<String>>,
        job: F,
    ) -> Result<R, String>
    where
        R: Send + 'static,
        F: FnOnce() -> R + Send + 'static;
}

/// Turns a search snapshot into one line of analysis output (with its
/// newline).
pub type Formatter<M> = Box<dyn Fn(&SearchInfo<M>) -> String + Send + Sync>;

/// Live reporting for a search: every `interval` (or once at the end when
/// it is zero) a line from `format` (an empty one is not written), what
/// new input does to it, and the moves the search must keep out of.
pub struct Stream<M> {
    pub interval: Duration,
    pub format: Formatter<M>,
    pub on_input: OnInput,
    pub filter: Option<MoveFilter<M>>,
}

/// Where a session keeps its search between moves: `Option` because the
/// search lives on the thinking thread while it runs.
pub struct Thinker<G: Game> {
    search: Option<Search<G>>,
    config: crate::search::SearchConfig,
    sim: Arc<dyn Simulator<G>>,
}

/// What a finished search produced.
pub struct Thought<M> {
    pub info: SearchInfo<M>,
    pub decision: Option<Decision<M>>,
}

impl<G: Game> Thinker<G> {
    pub fn new(config: crate::search::SearchConfig, sim: Arc<dyn Simulator<G>>) -> Self {
        Thinker {
            search: Some(Search::new(config.clone(), sim.clone())),
            config,
            sim,
        }
    }

    pub fn threads(&self) -> usize {
        self.config.threads
    }

    pub fn set_threads(&mut self, n: usize) {
        self.reconfigure(|config| config.threads = n);
    }

    pub fn rave_equiv(&self) -> f64 {
        self.config.rave_equiv
    }

    pub fn set_rave_equiv(&mut self, rave_equiv: f64) {
        self.reconfigure(|config| config.rave_equiv = rave_equiv);
    }

    /// Whether the tree scores two passes with dead strings taken off
    /// ([`SearchConfig::judge_two_passes`](crate::search::SearchConfig)).
    /// Changes nothing when already so: a new configuration restarts the
    /// batch sizing.
    pub fn set_judge_two_passes(&mut self, on: bool) {
        if self.config.judge_two_passes != on {
            self.reconfigure(|config| config.judge_two_passes = on);
        }
    }

    /// Changes the search settings, and the kept search's with them.
    fn reconfigure(&mut self, change: impl FnOnce(&mut crate::search::SearchConfig)) {
        change(&mut self.config);
        if let Some(search) = self.search.as_mut() {
            search.set_config(self.config.clone());
        }
    }

    pub fn simulator(&self) -> &Arc<dyn Simulator<G>> {
        &self.sim
    }

    /// Forgets the tree (new game, loaded record) and gets the simulator
    /// ready for `pos`'s board size (the GPU compiles that size's kernels
    /// now, not in the first search's time).
    pub fn clear(&mut self, pos: &G) {
        if let Some(search) = self.search.as_mut() {
            search.clear();
        }
        self.sim.prepare(pos);
    }

    /// Searches `pos` within `limits`, reusing the tree where the position
    /// follows from the last search, streaming reports if asked. A search
    /// thread that panicked is logged and replaced by a fresh search: the
    /// engine keeps serving.
    pub async fn think(
        &mut self,
        pos: G,
        limits: Limits,
        conn: &mut impl Controller,
        mut stream: Option<Stream<G::Move>>,
    ) -> Option<Thought<G::Move>> {
        let mut search = match self.search.take() {
            Some(s) => s,
            None => Search::new(self.config.clone(), self.sim.clone()),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let job_stop = stop.clone();
        let on_input = stream.as_ref().map_or(OnInput::Queue, |s| s.on_input);
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let progress = stream.is_some().then_some(rx);
        let filter = stream.as_mut().and_then(|s| s.filter.take());
        let job = move || {
            if filter.is_some() {
                // A kept tree has visits on moves the filter forbids, and
                // they would be reported: start from scratch.
                search.clear();
            }
            search.set_move_filter(filter);
            search.set_position(&pos);
            let info = match stream {
                Some(Stream {
                    interval, format, ..
                }) if !interval.is_zero() => {
                    let mut report = |info: &SearchInfo<G::Move>| {
                        let _ = tx.send(format(info));
                    };
                    search.run(&limits, &job_stop, Some((interval, &mut report)))
                }
                Some(Stream { format, .. }) => {
                    let info = search.run(&limits, &job_stop, None);
                    let _ = tx.send(format(&info));
                    info
                }
                None => search.run(&limits, &job_stop, None),
            };
            search.set_move_filter(None);
            let decision = search.decide();
            (search, info, decision)
        };
        match conn.think(stop, on_input, progress, job).await {
            Ok((search, info, decision)) => {
                self.search = Some(search);
                log_search(&info);
                Some(Thought { info, decision })
            }
            Err(e) => {
                tracing::error!("{e}");
                self.search = Some(Search::new(self.config.clone(), self.sim.clone()));
                None
            }
        }
    }
}

fn log_search<M: std::fmt::Debug>(info: &SearchInfo<M>) {
    let secs = info.elapsed.as_secs_f64().max(1e-9);
    let best = info.candidates.first();
    tracing::info!(
        playouts = info.playouts,
        playouts_per_second = (info.playouts as f64 / secs) as u64,
        winrate = info.winrate,
        best = ?best.map(|c| &c.mv),
        visits = best.map(|c| c.visits).unwrap_or(0),
        nodes = info.nodes,
        memory_capped = info.memory_capped,
        "search done in {secs:.2}s"
    );
}
