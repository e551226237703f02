//! The connection to the controller: lines in from a dedicated stdin
//! thread, replies out through the one writer of stdout.
//!
//! Why a thread: reading stdin is blocking, and the engine loop must keep
//! seeing lines (for `# interrupt`, for ending an analysis stream, and so
//! commands queue in order) while a search runs on its own threads. The
//! thread only frames bytes into lines; all interpretation happens in the
//! loop.

use super::line::read_line_capped;
use crate::engine::think::{Controller, OnInput};
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc;

/// Where replies go. Boxed so tests can capture them.
pub type Output = Box<dyn Write + Send>;

/// Lines queued between the reader thread and the loop. Small: GTP is
/// request/response, so a controller never runs far ahead.
const CHANNEL_DEPTH: usize = 64;

/// Spawns the reader thread over `source` and returns the loop's end,
/// writing replies to `out`.
pub fn connect<R: Read + Send + 'static>(source: R, out: Output) -> Connection {
    let (tx, rx) = mpsc::channel(CHANNEL_DEPTH);
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::BufReader::new(source), tx))
        .expect("spawning the stdin thread");
    Connection {
        rx,
        pending: VecDeque::new(),
        closed: false,
        gone: false,
        out,
    }
}

/// Frames lines with the protocol layer's capped reader: an overlong line
/// is kept only as far as needed to be reported as overlong.
fn read_lines<R: BufRead>(mut reader: R, tx: mpsc::Sender<Vec<u8>>) {
    loop {
        let mut line = Vec::new();
        match read_line_capped(&mut reader, &mut line) {
            Ok(true) => {
                if tx.blocking_send(line).is_err() {
                    return; // the loop has shut down
                }
            }
            Ok(false) | Err(_) => return, // end of input, or stdin is gone
        }
    }
}

/// The loop's view of the controller: lines in order (plus those that
/// arrived while a search was running), and the output.
pub struct Connection {
    rx: mpsc::Receiver<Vec<u8>>,
    pending: VecDeque<Vec<u8>>,
    closed: bool,
    /// A write failed: the controller stopped reading (a closed pipe).
    /// Nothing more can be answered, so no more input is served either.
    gone: bool,
    out: Output,
}

/// True for GoGui's interrupt comment, which must act at once rather than
/// queue behind the running command.
fn is_interrupt(raw: &[u8]) -> bool {
    raw.trim_ascii() == b"# interrupt"
}

impl Connection {
    /// Writes `text` and flushes. An error means the controller is gone:
    /// from then on [`Connection::next_line`] reports the end of input.
    pub fn write(&mut self, text: &str) -> std::io::Result<()> {
        let written = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
        if written.is_err() {
            self.gone = true;
        }
        written
    }

    /// True once a write has failed.
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// True if a line already waits to be served.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The next line, or `None` at end of input.
    pub async fn next_line(&mut self) -> Option<Vec<u8>> {
        if self.gone {
            return None;
        }
        if let Some(line) = self.pending.pop_front() {
            return Some(line);
        }
        if self.closed {
            return None;
        }
        let line = self.rx.recv().await;
        self.closed = line.is_none();
        line
    }
}

impl Controller for Connection {
    /// Runs `job` (a search) on a blocking thread while still reading input:
    /// `# interrupt` raises `stop`; other lines are queued and, with
    /// [`OnInput::Stop`], also raise it. Lines arriving on `progress` are
    /// written as they come (analysis output); empty ones are skipped, and
    /// a failed write raises `stop` (nobody reads the analysis any more).
    /// A job that panicked comes back as `Err` so the engine can answer `?`
    /// and go on.
    async fn think<R, F>(
        &mut self,
        stop: Arc<AtomicBool>,
        on_input: OnInput,
        mut progress: Option<mpsc::UnboundedReceiver<String>>,
        job: F,
    ) -> Result<R, String>
    where
        R: Send + 'static,
        F: FnOnce() -> R + Send + 'static,
    {
        // A line that came in during an earlier search is already queued:
        // it ends this one too (and so does input that has ended).
        if on_input == OnInput::Stop && (!self.pending.is_empty() || self.closed) {
            stop.store(true, Ordering::Relaxed);
        }
        let mut handle = tokio::task::spawn_blocking(job);
        loop {
            tokio::select! {
                result = &mut handle => {
                    // Reports sent just before the end still go out first.
                    if let Some(rx) = progress.as_mut() {
                        while let Ok(line) = rx.try_recv() {
                            self.write_progress(&line, &stop);
                        }
                    }
                    return result.map_err(|e| format!("search failed: {e}"));
                }
                Some(line) = recv_progress(&mut progress) => self.write_progress(&line, &stop),
                line = self.rx.recv(), if !self.closed => match line {
                    Some(l) if is_interrupt(&l) => stop.store(true, Ordering::Relaxed),
                    Some(l) => {
                        self.pending.push_back(l);
                        if on_input == OnInput::Stop {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    None => {
                        self.closed = true;
                        if on_input == OnInput::Stop {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                },
            }
        }
    }
}

impl Connection {
    /// One analysis line from a running search; after a failed write the
    /// search is stopped and later lines are dropped.
    fn write_progress(&mut self, line: &str, stop: &AtomicBool) {
        if line.is_empty() || self.gone {
            return;
        }
        if self.write(line).is_err() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The next progress line, or never if there is no progress channel.
async fn recv_progress(progress: &mut Option<mpsc::UnboundedReceiver<String>>) -> Option<String> {
    match progress.as_mut() {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::line::MAX_LINE_BYTES;

    fn lines_of(bytes: &'static [u8]) -> Vec<Vec<u8>> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut conn = connect(bytes, Box::new(std::io::sink()));
            let mut out = Vec::new();
            while let Some(l) = conn.next_line().await {
                out.push(l);
            }
            out
        })
    }

    #[test]
    fn splits_lines_and_keeps_a_last_unterminated_one() {
        let got = lines_of(b"name\r\n\nversion\nquit");
        assert_eq!(
            got,
            vec![
                b"name\r".to_vec(),
                vec![],
                b"version".to_vec(),
                b"quit".to_vec()
            ]
        );
    }

    #[test]
    fn truncates_overlong_lines_without_losing_the_next() {
        static BIG: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let big = BIG.get_or_init(|| {
            let mut v = vec![b'x'; 100_000];
            v.extend_from_slice(b"\nname\n");
            v
        });
        let got = lines_of(big.as_slice());
        assert_eq!(got.len(), 2);
        assert!(got[0].len() > MAX_LINE_BYTES);
        assert_eq!(got[1], b"name");
    }

    /// A writer whose reader has gone, like stdout piped into `head`.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_analysis_write_stops_the_search_and_ends_the_input() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // Input that never ends: the search may only stop through the
        // failed write.
        let (_keep_open, reader) = std::os::unix::net::UnixStream::pair().unwrap();
        rt.block_on(async {
            let mut conn = connect(reader, Box::new(ClosedPipe));
            let stop = Arc::new(AtomicBool::new(false));
            let (tx, rx) = mpsc::unbounded_channel();
            let job_stop = stop.clone();
            let job = move || {
                let mut sent = 0u64;
                while !job_stop.load(Ordering::Relaxed) {
                    let _ = tx.send("info move D4\n".to_string());
                    sent += 1;
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                sent
            };
            let sent = conn.think(stop, OnInput::Stop, Some(rx), job).await;
            assert!(sent.unwrap() >= 1);
            assert!(conn.is_gone());
            assert_eq!(conn.next_line().await, None);
        });
    }
}
