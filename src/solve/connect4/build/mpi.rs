//! The state-space build over MPI (`--features mpi`, run under `mpirun`):
//! each rank owns the positions whose hashed key falls to it, as the PAPO
//! lab report on Connect Four spread its levels over a cluster
//! (transposition-driven scheduling: a position goes to its owner, never
//! is looked for). Per level, in memory on every rank:
//!
//! - forward: a rank plays every column of its positions; each column's
//!   children come out sorted (see the parent module), are dealt to their
//!   owners as sorted runs in one all-to-all, and each owner merges the
//!   runs it receives, dropping duplicates;
//! - backward: a rank sends its positions' children to their owners in
//!   the same runs, each owner answers a run's scores by one merge-join
//!   with its level, and the answers come back in the order asked.
//!
//! The counts per level and the empty board's score are summed over the
//! ranks; rank 0 reports them.

use super::{Keys, UNSOLVED};
use crate::game::connect4::{mix, Position, Shape};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One rank's share of one level.
struct Part {
    keys: Vec<u64>,
    scores: Vec<i8>,
}

/// What a whole build found, the same on every rank.
pub struct Summary {
    /// Positions per level, over all ranks.
    pub counts: Vec<u64>,
    /// The empty board's score.
    pub root: i32,
    /// [`super::digest`] of every position's score, summed over the ranks.
    pub digest: u64,
}

/// The runs of one exchange: run `dest * W + c` holds column `c`'s keys
/// for rank `dest`.
struct Runs {
    width: usize,
    runs: Vec<Vec<u64>>,
}

impl Runs {
    fn new(ranks: usize, width: usize) -> Runs {
        Runs {
            width,
            runs: vec![Vec::new(); ranks * width],
        }
    }

    fn push(&mut self, dest: usize, column: usize, key: u64) {
        self.runs[dest * self.width + column].push(key);
    }
}

fn owner(key: u64, ranks: usize) -> usize {
    (mix(key) % ranks as u64) as usize
}

fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let here = *at;
            *at += c;
            Some(here)
        })
        .collect()
}

fn count(n: usize) -> Count {
    Count::try_from(n).expect("a rank's share of a level fits an MPI count")
}

/// Sends each rank its runs; returns the keys received and the length of
/// each received run (`source * W + c`).
fn exchange(world: &SimpleCommunicator, runs: &Runs) -> (Vec<u64>, Vec<Count>) {
    let ranks = world.size() as usize;
    let lens: Vec<Count> = runs.runs.iter().map(|r| count(r.len())).collect();
    let mut got_lens = vec![0 as Count; lens.len()];
    world.all_to_all_into(&lens[..], &mut got_lens[..]);
    let per_rank =
        |l: &[Count]| -> Vec<Count> { l.chunks(runs.width).map(|c| c.iter().sum()).collect() };
    let (send_counts, recv_counts) = (per_rank(&lens), per_rank(&got_lens));
    let send: Vec<u64> = runs.runs.concat();
    let mut recv = vec![0u64; recv_counts.iter().map(|&c| c as usize).sum()];
    let send_displs = displacements(&send_counts);
    let recv_displs = displacements(&recv_counts);
    debug_assert_eq!(send_counts.len(), ranks);
    {
        let send = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
        let mut into = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
        world.all_to_all_varcount_into(&send, &mut into);
    }
    (recv, got_lens)
}

/// Sends `answers` (grouped by the rank that asked, `counts` each) back.
/// Both buffers hold at least one byte: an empty `Vec<i8>`'s pointer is
/// 1, which Open MPI reads as `MPI_IN_PLACE`.
fn answer(
    world: &SimpleCommunicator,
    answers: &[i8],
    counts: &[Count],
    asked: &[Count],
) -> Vec<i8> {
    let total: usize = asked.iter().map(|&c| c as usize).sum();
    let mut back = vec![0i8; total.max(1)];
    let pad = [0i8];
    let answers = if answers.is_empty() {
        &pad[..]
    } else {
        answers
    };
    let (send_displs, recv_displs) = (displacements(counts), displacements(asked));
    let send = Partition::new(answers, counts, &send_displs[..]);
    let mut into = PartitionMut::new(&mut back[..], asked, &recv_displs[..]);
    world.all_to_all_varcount_into(&send, &mut into);
    back
}

/// Merges sorted runs, dropping duplicates.
fn merge(keys: &[u64], lens: &[Count]) -> Vec<u64> {
    let mut starts = displacements(lens)
        .into_iter()
        .map(|s| s as usize)
        .collect::<Vec<_>>();
    let ends: Vec<usize> = starts
        .iter()
        .zip(lens)
        .map(|(&s, &l)| s + l as usize)
        .collect();
    let mut heap = BinaryHeap::new();
    for (r, &s) in starts.iter().enumerate() {
        if s < ends[r] {
            heap.push(Reverse((keys[s], r)));
        }
    }
    let mut out: Vec<u64> = Vec::new();
    while let Some(Reverse((key, r))) = heap.pop() {
        if out.last() != Some(&key) {
            out.push(key);
        }
        starts[r] += 1;
        if starts[r] < ends[r] {
            heap.push(Reverse((keys[starts[r]], r)));
        }
    }
    out
}

/// The build on this rank of `world`; every rank returns the summary.
/// `on_level(n, count)` hears each level's total on rank 0.
pub fn build(
    world: &SimpleCommunicator,
    shape: Shape,
    mut on_level: impl FnMut(usize, u64),
) -> Summary {
    let k = Keys::new(shape);
    let (ranks, rank) = (world.size() as usize, world.rank() as usize);
    let width = shape.width as usize;
    let root = k.of(&Position::empty(shape));
    let mut levels = vec![if owner(root, ranks) == rank {
        Part {
            keys: vec![root],
            scores: vec![UNSOLVED],
        }
    } else {
        Part {
            keys: Vec::new(),
            scores: Vec::new(),
        }
    }];
    let mut counts = vec![1u64];
    on_level(0, 1);
    for n in 0..shape.cells() {
        let parent = &levels[n as usize];
        let mut runs = Runs::new(ranks, width);
        for c in 0..width {
            for (&key, &score) in parent.keys.iter().zip(&parent.scores) {
                if score == UNSOLVED && k.playable(key, c) {
                    let child = k.child(key, c, n);
                    runs.push(owner(child, ranks), c, child);
                }
            }
        }
        let (got, lens) = exchange(world, &runs);
        drop(runs);
        let keys = merge(&got, &lens);
        let lost = k.lost(n + 1);
        let scores = keys
            .iter()
            .map(|&key| if k.won(key, n + 1) { lost } else { UNSOLVED })
            .collect();
        let mut total = 0u64;
        world.all_reduce_into(&(keys.len() as u64), &mut total, SystemOperation::sum());
        on_level(n as usize + 1, total);
        counts.push(total);
        levels.push(Part { keys, scores });
    }
    for n in (0..levels.len()).rev() {
        back_up(world, &k, &mut levels, n);
    }
    let mine = match levels[0].keys.first() {
        Some(_) => levels[0].scores[0] as i32,
        None => i32::MIN,
    };
    let mut best = 0i32;
    world.all_reduce_into(&mine, &mut best, SystemOperation::max());
    let mine: u64 = levels
        .iter()
        .flat_map(|l| l.keys.iter().zip(&l.scores))
        .fold(0u64, |d, (&key, &score)| {
            d.wrapping_add(super::digest(key, score))
        });
    let mut digest = 0u64;
    world.all_reduce_into(&mine, &mut digest, SystemOperation::sum());
    Summary {
        counts,
        root: best,
        digest,
    }
}

/// Level `n`'s scores on this rank, from level `n + 1`'s on every rank.
fn back_up(world: &SimpleCommunicator, k: &Keys, levels: &mut [Part], n: usize) {
    let ranks = world.size() as usize;
    let width = k.shape.width as usize;
    let (this, later) = levels.split_at_mut(n + 1);
    let level = &mut this[n];
    let Some(children) = later.first() else {
        for s in &mut level.scores {
            if *s == UNSOLVED {
                *s = 0; // a full board with no four
            }
        }
        return;
    };
    // Ask every position's children, column by column.
    let mut runs = Runs::new(ranks, width);
    for c in 0..width {
        for (&key, &score) in level.keys.iter().zip(&level.scores) {
            if score == UNSOLVED && k.playable(key, c) {
                let child = k.child(key, c, n as u32);
                runs.push(owner(child, ranks), c, child);
            }
        }
    }
    let (asked, lens) = exchange(world, &runs);
    // Answer each run by a merge-join with this rank's share.
    let mut answers = Vec::with_capacity(asked.len());
    let mut at = 0;
    for &len in &lens {
        let mut j = 0;
        for &key in &asked[at..at + len as usize] {
            while children.keys[j] < key {
                j += 1;
            }
            debug_assert_eq!(children.keys[j], key);
            answers.push(children.scores[j]);
        }
        at += len as usize;
    }
    let per_rank =
        |l: &[Count]| -> Vec<Count> { l.chunks(width).map(|c| c.iter().sum()).collect() };
    let sent: Vec<Count> = runs.runs.iter().map(|r| count(r.len())).collect();
    let back = answer(world, &answers, &per_rank(&lens), &per_rank(&sent));
    // The answers come in the order asked: run by run.
    let mut next: Vec<usize> = displacements(&sent)
        .into_iter()
        .map(|d| d as usize)
        .collect();
    let mut best = vec![i8::MIN; level.keys.len()];
    for c in 0..width {
        for (i, (&key, &score)) in level.keys.iter().zip(&level.scores).enumerate() {
            if score == UNSOLVED && k.playable(key, c) {
                let run = owner(k.child(key, c, n as u32), ranks) * width + c;
                best[i] = best[i].max(-back[next[run]]);
                next[run] += 1;
            }
        }
    }
    for (s, b) in level.scores.iter_mut().zip(best) {
        if *s == UNSOLVED {
            *s = b;
        }
    }
}
