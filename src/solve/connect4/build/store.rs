//! Where a level's keys and scores live: in memory while the build's
//! memory cap allows, else in files of a temporary directory. Both are
//! read and written only as streams (a level is always read in key order),
//! so a level on disk costs a few buffers of memory however large it is.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes of one read or write buffer.
const BUFFER: usize = 1 << 16;

/// A fixed-size value of a level's stream, stored little-endian.
pub trait Item: Copy + Default {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

impl Item for u64 {
    const SIZE: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(bytes: &[u8]) -> Self {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[..8]);
        u64::from_le_bytes(b)
    }
}

impl Item for i8 {
    const SIZE: usize = 1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn get(bytes: &[u8]) -> Self {
        bytes[0] as i8
    }
}

/// The memory a build may hold in levels, and a place for the rest.
pub struct Budget {
    /// Bytes of level data that may stay in memory (`None`: no cap).
    cap: Option<usize>,
    used: usize,
    dir: Option<SpillDir>,
    parent: PathBuf,
    files: usize,
}

/// A temporary directory, removed with everything in it when dropped.
struct SpillDir(PathBuf);

impl Drop for SpillDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Budget {
    /// `cap` bytes of levels in memory (`None`: all of them); spilled
    /// files go to a fresh directory under `parent`.
    pub fn new(cap: Option<usize>, parent: PathBuf) -> Budget {
        Budget {
            cap,
            used: 0,
            dir: None,
            parent,
            files: 0,
        }
    }

    fn fits(&self, more: usize) -> bool {
        self.cap.is_none_or(|cap| self.used + more <= cap)
    }

    fn new_file(&mut self) -> io::Result<PathBuf> {
        if self.dir.is_none() {
            let name = format!(
                "warpstone-c4-build-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0)
            );
            let path = self.parent.join(name);
            std::fs::create_dir_all(&path)?;
            tracing::info!(dir = %path.display(), "spilling levels to disk");
            self.dir = Some(SpillDir(path));
        }
        self.files += 1;
        let dir = &self.dir.as_ref().expect("made above").0;
        Ok(dir.join(format!("{}.bin", self.files)))
    }

    /// Bytes of level data in memory now.
    pub fn used(&self) -> usize {
        self.used
    }
}

/// A finished stream of `len` items.
pub enum Store<T> {
    Memory(Vec<T>),
    Disk { path: PathBuf, len: usize },
}

impl<T: Item> Store<T> {
    pub fn len(&self) -> usize {
        match self {
            Store::Memory(v) => v.len(),
            Store::Disk { len, .. } => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn reader(&self) -> io::Result<Reader<'_, T>> {
        Ok(match self {
            Store::Memory(v) => Reader::Memory(v.iter()),
            Store::Disk { path, len } => Reader::Disk {
                file: BufReader::with_capacity(BUFFER, File::open(path)?),
                left: *len,
                buf: [0; 8],
            },
        })
    }

    /// Gives the store's memory or file back.
    pub fn release(self, budget: &mut Budget) {
        match self {
            Store::Memory(v) => budget.used -= v.len() * T::SIZE,
            Store::Disk { path, .. } => {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    /// The items in memory, if they are there.
    pub fn as_slice(&self) -> Option<&[T]> {
        match self {
            Store::Memory(v) => Some(v),
            Store::Disk { .. } => None,
        }
    }

    /// Whether the store is a file.
    pub fn on_disk(&self) -> Option<&Path> {
        match self {
            Store::Memory(_) => None,
            Store::Disk { path, .. } => Some(path),
        }
    }
}

/// Reads a store's items in order.
pub enum Reader<'a, T> {
    Memory(std::slice::Iter<'a, T>),
    Disk {
        file: BufReader<File>,
        left: usize,
        buf: [u8; 8],
    },
}

impl<T: Item> Reader<'_, T> {
    /// The next item; `None` at the end. A short file is an error.
    #[inline]
    pub fn next(&mut self) -> io::Result<Option<T>> {
        match self {
            Reader::Memory(it) => Ok(it.next().copied()),
            Reader::Disk { file, left, buf } => {
                if *left == 0 {
                    return Ok(None);
                }
                *left -= 1;
                file.read_exact(&mut buf[..T::SIZE])?;
                Ok(Some(T::get(&buf[..T::SIZE])))
            }
        }
    }
}

/// Writes a stream: in memory while the budget allows, then to a file
/// (what is already in memory goes to the file first).
pub enum Writer<T> {
    Memory(Vec<T>),
    Disk {
        file: BufWriter<File>,
        path: PathBuf,
        len: usize,
        bytes: Vec<u8>,
    },
}

impl<T: Item> Writer<T> {
    pub fn new() -> Writer<T> {
        Writer::Memory(Vec::new())
    }

    #[inline]
    pub fn push(&mut self, item: T, budget: &mut Budget) -> io::Result<()> {
        match self {
            Writer::Memory(v) => {
                if v.len() == v.capacity() {
                    let more = v.capacity().max(1 << 12);
                    if !budget.fits(more * T::SIZE) {
                        self.spill(budget)?;
                        return self.push(item, budget);
                    }
                    let before = v.capacity();
                    v.reserve_exact(more);
                    budget.used += (v.capacity() - before) * T::SIZE;
                }
                v.push(item);
            }
            Writer::Disk {
                file, len, bytes, ..
            } => {
                bytes.clear();
                item.put(bytes);
                file.write_all(bytes)?;
                *len += 1;
            }
        }
        Ok(())
    }

    fn spill(&mut self, budget: &mut Budget) -> io::Result<()> {
        let Writer::Memory(v) = self else {
            return Ok(());
        };
        let path = budget.new_file()?;
        let mut file = BufWriter::with_capacity(BUFFER, File::create(&path)?);
        let mut bytes = Vec::with_capacity(BUFFER);
        for chunk in v.chunks(BUFFER / 8) {
            bytes.clear();
            for &item in chunk {
                item.put(&mut bytes);
            }
            file.write_all(&bytes)?;
        }
        budget.used -= v.capacity() * T::SIZE;
        let len = v.len();
        *self = Writer::Disk {
            file,
            path,
            len,
            bytes,
        };
        Ok(())
    }

    /// The finished store; spare capacity in memory is given back.
    pub fn finish(self, budget: &mut Budget) -> io::Result<Store<T>> {
        Ok(match self {
            Writer::Memory(mut v) => {
                budget.used -= (v.capacity() - v.len()) * T::SIZE;
                v.shrink_to_fit();
                budget.used += (v.capacity() - v.len()) * T::SIZE;
                Store::Memory(v)
            }
            Writer::Disk {
                mut file,
                path,
                len,
                ..
            } => {
                file.flush()?;
                Store::Disk { path, len }
            }
        })
    }
}
