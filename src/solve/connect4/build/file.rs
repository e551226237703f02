//! The database file a build writes (`--out`) and the engine reads
//! (`--database`): every position of the board with its exact score, so
//! that a position is answered by a binary search on the file, without
//! loading it.
//!
//! Layout, little-endian:
//! - 8 bytes `WSC4DB01`; width and height (one byte each); 6 zero bytes;
//! - for each level `n = 0..=W*H` (the positions of `n` stones), its count
//!   as a `u64`;
//! - every level's keys, level 0 first, each level sorted, 8 bytes a key
//!   (the build's key: per column `2^h + s`, `s` the first player's
//!   stones, see [`Keys`]);
//! - every level's scores, in the same order, one signed byte each: the
//!   side to move's score in the solver's convention.
//!
//! 9 bytes a position: 4x4 1.4 MB, 5x4 36 MB, 5x5 628 MB.

use super::{Database, Keys};
use crate::game::connect4::{Position, Shape};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"WSC4DB01";
const HEADER: u64 = 16;

impl Database {
    /// Writes the database file to `path`.
    pub fn write(&self, path: &Path) -> io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
        let shape = self.shape();
        out.write_all(MAGIC)?;
        out.write_all(&[shape.width, shape.height, 0, 0, 0, 0, 0, 0])?;
        for level in &self.levels {
            out.write_all(&(level.len() as u64).to_le_bytes())?;
        }
        for level in &self.levels {
            let mut keys = level.keys.reader()?;
            while let Some(key) = keys.next()? {
                out.write_all(&key.to_le_bytes())?;
            }
        }
        for level in &self.levels {
            let mut scores = level.scores.reader()?;
            while let Some(score) = scores.next()? {
                out.write_all(&[score as u8])?;
            }
        }
        out.flush()
    }
}

/// An open database file; lookups read the file where they need to.
pub struct DatabaseFile {
    file: File,
    keys: Keys,
    /// Per level: its count, the offset of its first key and of its first
    /// score.
    levels: Vec<(u64, u64, u64)>,
}

fn bad(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

impl DatabaseFile {
    /// Opens `path` and checks its header against its length.
    pub fn open(path: &Path) -> io::Result<DatabaseFile> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let mut head = [0u8; HEADER as usize];
        file.read_exact_at(&mut head, 0)
            .map_err(|_| bad(format!("{}: not a database file", path.display())))?;
        if &head[..8] != MAGIC {
            return Err(bad(format!("{}: not a database file", path.display())));
        }
        let shape = Shape::new(head[8] as usize, head[9] as usize)
            .map_err(|e| bad(format!("{}: {e}", path.display())))?;
        let count = shape.cells() as u64 + 1;
        let mut counts = vec![0u8; 8 * count as usize];
        file.read_exact_at(&mut counts, HEADER)
            .map_err(|_| bad(format!("{}: truncated header", path.display())))?;
        let counts: Vec<u64> = counts
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        let total = counts
            .iter()
            .try_fold(0u64, |a, &c| a.checked_add(c))
            .filter(|&t| t < 1 << 50)
            .ok_or_else(|| bad(format!("{}: impossible counts", path.display())))?;
        let data = HEADER + 8 * count;
        if len != data + 9 * total {
            return Err(bad(format!(
                "{}: {len} bytes, the header says {}",
                path.display(),
                data + 9 * total
            )));
        }
        let (mut key_at, mut score_at) = (data, data + 8 * total);
        let mut levels = Vec::new();
        for &c in &counts {
            levels.push((c, key_at, score_at));
            key_at += 8 * c;
            score_at += c;
        }
        Ok(DatabaseFile {
            file,
            keys: Keys::new(shape),
            levels,
        })
    }

    pub fn shape(&self) -> Shape {
        self.keys.shape
    }

    /// The score of `pos` for the side to move; `None` when the board is
    /// another one, the position is not in the file (not reachable) or the
    /// file cannot be read.
    pub fn score(&self, pos: &Position) -> Option<i32> {
        if *pos.shape() != self.shape() {
            return None;
        }
        let &(count, keys_at, scores_at) = self.levels.get(pos.moves() as usize)?;
        let key = self.keys.of(pos);
        let (mut lo, mut hi) = (0u64, count);
        let mut buf = [0u8; 8];
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.file.read_exact_at(&mut buf, keys_at + 8 * mid).ok()?;
            match u64::from_le_bytes(buf).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    self.file
                        .read_exact_at(&mut buf[..1], scores_at + mid)
                        .ok()?;
                    return Some(buf[0] as i8 as i32);
                }
            }
        }
        None
    }

    /// Each column's score for the side to move (`None`: full), as the
    /// solver's `analyze` gives them; `None` for a finished game or a
    /// position the file lacks.
    pub fn analyze(&self, pos: &Position) -> Option<Vec<Option<i32>>> {
        crate::solve::connect4::column_scores(
            pos,
            crate::solve::connect4::win_in_one(pos),
            |child| self.score(child),
        )
    }
}
