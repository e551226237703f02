//! The state-space build of Connect Four after the PAPO lab report on
//! Connect Four (whole state space, level by level, values backed up):
//! every position reachable from the empty board, one level per stone
//! count, then the exact values backed up from the last level to the first
//! (each position's score is the best of its children's negated scores).
//! Scores follow the solver's convention, so the two check each other.
//!
//! A level is a sorted stream of keys. The key here keeps the *first*
//! player's stones (not the side to move's, as [`Position::key`] does):
//! per column `2^h + s`, `h` stones and `s` the first player's among them.
//! A stone in column `c` then changes column `c`'s field alone, and by a
//! monotone map (`x + 2^(h+1)` for the first player, `x + 2^h` for the
//! second), so the children through column `c` of a sorted level come out
//! sorted. The next level is therefore a merge of `W` sorted runs, with
//! duplicates dropped as they meet, and the backward pass a merge-join of
//! each column's run with the next level: no sort, no search, no hash
//! table, and every level read strictly in order. That is what lets a
//! level live in a file (`--max-memory`) at the cost of a few buffers: the
//! runs the lab report sorted and merged on disk are here sorted from the
//! start and merged as they are made.

mod file;
#[cfg(feature = "mpi")]
pub mod mpi;
mod store;
#[cfg(test)]
mod tests;

pub use file::DatabaseFile;
pub use store::Budget;

use crate::game::connect4::{Position, Shape};
use std::io;
use store::{Reader, Store, Writer};

/// A score not known yet (the forward pass knows only lost positions).
const UNSOLVED: i8 = i8::MIN;

/// Key arithmetic for one board (see the module's comment).
#[derive(Clone, Copy, Debug)]
pub struct Keys {
    shape: Shape,
    /// Each column's field: its cells and the spare bit above.
    fields: [u64; 8],
    /// Each column's spare bit: set in a full column's key.
    full: [u64; 8],
}

impl Keys {
    pub fn new(shape: Shape) -> Keys {
        let mut fields = [0; 8];
        let mut full = [0; 8];
        for c in 0..shape.width as usize {
            full[c] = shape.top_of(c) << 1;
            fields[c] = shape.column_mask(c) | full[c];
        }
        Keys {
            shape,
            fields,
            full,
        }
    }

    /// The key of `pos`, a position of this board.
    pub fn of(&self, pos: &Position) -> u64 {
        if pos.moves().is_multiple_of(2) {
            pos.key()
        } else {
            (pos.current() ^ pos.mask()) | (pos.mask() + self.shape.bottom)
        }
    }

    /// The position of `key`, a key of a level of `n` stones.
    pub fn position(&self, key: u64, n: u32) -> Position {
        let (first, mask) = self.decode(key);
        let current = if n.is_multiple_of(2) {
            first
        } else {
            mask ^ first
        };
        Position::from_key(self.shape, current | (mask + self.shape.bottom))
    }

    /// The first player's stones and every stone.
    #[inline]
    fn decode(&self, key: u64) -> (u64, u64) {
        let mut markers = 0;
        for &field in &self.fields[..self.shape.width as usize] {
            markers |= 1u64 << (63 - (key & field).leading_zeros());
        }
        let mask = markers - self.shape.bottom;
        (key & mask, mask)
    }

    #[inline]
    fn playable(&self, key: u64, c: usize) -> bool {
        key & self.full[c] == 0
    }

    /// The key after a stone in column `c` (playable) on `n` stones.
    #[inline]
    fn child(&self, key: u64, c: usize, n: u32) -> u64 {
        let marker = 1u64 << (63 - (key & self.fields[c]).leading_zeros());
        if n.is_multiple_of(2) {
            key + (marker << 1)
        } else {
            key + marker
        }
    }

    /// Whether the player who put the `n`-th stone made four.
    #[inline]
    fn won(&self, key: u64, n: u32) -> bool {
        let (first, mask) = self.decode(key);
        let mover = if n % 2 == 1 { first } else { mask ^ first };
        self.shape.has_four(mover)
    }

    /// The side to move's score in a position of `n` stones where the
    /// opponent has just made four.
    fn lost(&self, n: u32) -> i8 {
        (-(self.shape.cells() as i32 + 2 - n as i32) / 2) as i8
    }
}

/// One level: its positions' keys, sorted, and their scores for the side
/// to move.
pub struct Level {
    pub keys: Store<u64>,
    pub scores: Store<i8>,
}

impl Level {
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// The whole state space of one board, solved.
pub struct Database {
    pub keys: Keys,
    pub levels: Vec<Level>,
    pub budget: Budget,
}

fn broken(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// One column's children of a level, in key order: the positions where
/// the game goes on and column `c` has room.
struct Children<'a> {
    keys: Reader<'a, u64>,
    scores: Reader<'a, i8>,
    column: usize,
    head: Option<u64>,
}

impl<'a> Children<'a> {
    fn new(level: &'a Level, column: usize) -> io::Result<Children<'a>> {
        Ok(Children {
            keys: level.keys.reader()?,
            scores: level.scores.reader()?,
            column,
            head: None,
        })
    }

    #[inline]
    fn advance(&mut self, k: &Keys, n: u32) -> io::Result<()> {
        self.head = None;
        while let Some(key) = self.keys.next()? {
            let score = self.scores.next()?.ok_or_else(|| broken("short scores"))?;
            if score == UNSOLVED && k.playable(key, self.column) {
                self.head = Some(k.child(key, self.column, n));
                break;
            }
        }
        Ok(())
    }
}

/// A level read in order to look its positions' scores up, key by
/// increasing key.
struct Lookup<'a> {
    keys: Reader<'a, u64>,
    scores: Reader<'a, i8>,
    head: Option<(u64, i8)>,
}

impl<'a> Lookup<'a> {
    fn new(level: &'a Level) -> io::Result<Lookup<'a>> {
        Ok(Lookup {
            keys: level.keys.reader()?,
            scores: level.scores.reader()?,
            head: None,
        })
    }

    /// The score of `key`, which must not be less than the last one asked.
    #[inline]
    fn find(&mut self, key: u64) -> io::Result<i8> {
        loop {
            if let Some((k, s)) = self.head {
                if k == key {
                    return Ok(s);
                }
                if k > key {
                    break;
                }
            }
            match self.keys.next()? {
                Some(k) => {
                    let s = self.scores.next()?.ok_or_else(|| broken("short scores"))?;
                    self.head = Some((k, s));
                }
                None => break,
            }
        }
        Err(broken("a child missing from the next level"))
    }
}

impl Database {
    /// Enumerates every reachable position and backs the values up.
    /// `on_level(n, count)` hears each level's size as it is made.
    pub fn build(
        shape: Shape,
        mut budget: Budget,
        mut on_level: impl FnMut(usize, usize),
    ) -> io::Result<Database> {
        let keys = Keys::new(shape);
        let empty = Position::empty(shape);
        let mut first_keys = Writer::new();
        first_keys.push(keys.of(&empty), &mut budget)?;
        let mut first_scores = Writer::new();
        first_scores.push(UNSOLVED, &mut budget)?;
        let mut levels = vec![Level {
            keys: first_keys.finish(&mut budget)?,
            scores: first_scores.finish(&mut budget)?,
        }];
        on_level(0, 1);
        for n in 0..shape.cells() {
            let next = expand(&keys, &levels[n as usize], n, &mut budget)?;
            on_level(n as usize + 1, next.len());
            levels.push(next);
        }
        for n in (0..levels.len()).rev() {
            back_up(&keys, &mut levels, n, &mut budget)?;
        }
        Ok(Database {
            keys,
            levels,
            budget,
        })
    }

    pub fn shape(&self) -> Shape {
        self.keys.shape
    }

    /// The score of `pos` (a position of this board) for the side to move.
    pub fn score(&self, pos: &Position) -> Option<i32> {
        let level = self.levels.get(pos.moves() as usize)?;
        let key = self.keys.of(pos);
        let at = match (level.keys.as_slice(), level.scores.as_slice()) {
            (Some(keys), Some(scores)) => scores[keys.binary_search(&key).ok()?],
            _ => {
                let mut lookup = Lookup::new(level).ok()?;
                lookup.find(key).ok()?
            }
        };
        Some(at as i32)
    }

    /// The wrapping sum of [`digest`] over every position: one number
    /// that any difference in keys or scores changes, whatever order (or
    /// MPI rank) the positions were solved in.
    pub fn digest(&self) -> io::Result<u64> {
        let mut sum = 0u64;
        for level in &self.levels {
            let (mut keys, mut scores) = (level.keys.reader()?, level.scores.reader()?);
            while let Some(key) = keys.next()? {
                let score = scores.next()?.ok_or_else(|| broken("short scores"))?;
                sum = sum.wrapping_add(digest(key, score));
            }
        }
        Ok(sum)
    }

    /// Positions in all levels.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Level::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One position's share of a build's digest.
pub fn digest(key: u64, score: i8) -> u64 {
    crate::game::connect4::mix(key ^ ((score as u8 as u64) << 56))
}

/// The level after `parent` (`n` stones): every column's children, merged.
fn expand(k: &Keys, parent: &Level, n: u32, budget: &mut Budget) -> io::Result<Level> {
    let mut runs = Vec::new();
    for c in 0..k.shape.width as usize {
        let mut run = Children::new(parent, c)?;
        run.advance(k, n)?;
        runs.push(run);
    }
    let mut keys = Writer::new();
    let mut scores = Writer::new();
    let lost = k.lost(n + 1);
    while let Some(min) = runs.iter().filter_map(|r| r.head).min() {
        keys.push(min, budget)?;
        let score = if k.won(min, n + 1) { lost } else { UNSOLVED };
        scores.push(score, budget)?;
        for run in &mut runs {
            if run.head == Some(min) {
                run.advance(k, n)?;
            }
        }
    }
    Ok(Level {
        keys: keys.finish(budget)?,
        scores: scores.finish(budget)?,
    })
}

/// Level `n`'s scores from level `n + 1`'s (already final).
fn back_up(k: &Keys, levels: &mut [Level], n: usize, budget: &mut Budget) -> io::Result<()> {
    let (this, later) = levels.split_at_mut(n + 1);
    let level = &mut this[n];
    let mut lookups = Vec::new();
    if let Some(children) = later.first() {
        for _ in 0..k.shape.width {
            lookups.push(Lookup::new(children)?);
        }
    }
    let mut keys = level.keys.reader()?;
    let mut old = level.scores.reader()?;
    let mut scores = Writer::new();
    while let Some(key) = keys.next()? {
        let known = old.next()?.ok_or_else(|| broken("short scores"))?;
        let score = if known != UNSOLVED {
            known
        } else if lookups.is_empty() {
            0 // a full board with no four
        } else {
            let mut best = i8::MIN;
            for (c, lookup) in lookups.iter_mut().enumerate() {
                if k.playable(key, c) {
                    best = best.max(-lookup.find(k.child(key, c, n as u32))?);
                }
            }
            best
        };
        scores.push(score, budget)?;
    }
    drop((keys, old));
    let scores = scores.finish(budget)?;
    std::mem::replace(&mut level.scores, scores).release(budget);
    Ok(())
}

/// Checks `count` positions, spread evenly over every level, against the
/// solver; finished games are skipped. Returns (checked, different).
pub fn verify(db: &Database, count: usize) -> io::Result<(usize, usize)> {
    use crate::game::Game;
    use crate::solve::connect4::{Solver, Table};
    let step = (db.len() / count.max(1)).max(1);
    let table = Table::with_mib(64);
    let (mut checked, mut wrong, mut i) = (0, 0, 0usize);
    for (n, level) in db.levels.iter().enumerate() {
        let mut keys = level.keys.reader()?;
        let mut scores = level.scores.reader()?;
        while let Some(key) = keys.next()? {
            let score = scores.next()?.ok_or_else(|| broken("short scores"))?;
            i += 1;
            if !(i - 1).is_multiple_of(step) {
                continue;
            }
            let pos = db.keys.position(key, n as u32);
            if pos.outcome().is_some() {
                continue;
            }
            let want = Solver::new(&table, pos.width()).solve(&pos, false);
            checked += 1;
            if want != Some(score as i32) {
                tracing::warn!(%pos, score, ?want, "differs from the solver");
                wrong += 1;
            }
        }
    }
    Ok((checked, wrong))
}
