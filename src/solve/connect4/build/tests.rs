use super::*;
use crate::game::Game;
use crate::solve::connect4::{Solver, Table};
use std::collections::HashSet;
use std::path::PathBuf;

fn in_memory() -> Budget {
    Budget::new(None, std::env::temp_dir())
}

/// A file name under the system's temporary directory, removed on drop.
struct TempPath(PathBuf);

impl TempPath {
    fn new(name: &str) -> TempPath {
        TempPath(
            std::env::temp_dir().join(format!("warpstone-c4-test-{}-{name}", std::process::id())),
        )
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Positions per level by plain enumeration: every move of every position
/// not won, duplicates merged in a hash set of (stones, side to move).
fn brute_force_counts(shape: Shape) -> Vec<usize> {
    let mut level = vec![Position::empty(shape)];
    let mut counts = vec![1];
    for _ in 0..shape.cells() {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &level {
            if pos.is_won() {
                continue;
            }
            for c in 0..pos.width() {
                if pos.can_play(c) {
                    let mut child = *pos;
                    child.play_column(c);
                    if seen.insert((child.mask(), child.current())) {
                        next.push(child);
                    }
                }
            }
        }
        counts.push(next.len());
        level = next;
    }
    counts
}

fn counts_of(width: usize, height: usize) -> (Database, Vec<usize>) {
    let shape = Shape::new(width, height).unwrap();
    let mut counts = Vec::new();
    let db = Database::build(shape, in_memory(), |n, count| {
        assert_eq!(n, counts.len());
        counts.push(count);
    })
    .unwrap();
    (db, counts)
}

#[test]
fn levels_hold_what_plain_enumeration_finds() {
    for (width, height, total) in [(4, 4, 161_029), (5, 4, 3_945_711)] {
        let (db, counts) = counts_of(width, height);
        let shape = Shape::new(width, height).unwrap();
        assert_eq!(counts, brute_force_counts(shape), "{width}x{height}");
        // John Tromp's counts of the positions of small boards.
        assert_eq!(db.len(), total, "{width}x{height}");
        assert_eq!(counts.iter().sum::<usize>(), total);
    }
}

#[test]
fn keys_follow_the_moves() {
    let shape = Shape::new(7, 6).unwrap();
    let keys = Keys::new(shape);
    let mut pos = Position::empty(shape);
    for (i, column) in [3, 3, 2, 4, 4, 0, 6, 6, 6, 6, 6, 6, 1]
        .into_iter()
        .enumerate()
    {
        let key = keys.of(&pos);
        assert_eq!(keys.position(key, i as u32), pos);
        assert!(keys.playable(key, column));
        let mut child = pos;
        child.play_column(column);
        assert_eq!(keys.child(key, column, i as u32), keys.of(&child));
        assert_eq!(keys.won(keys.of(&child), i as u32 + 1), child.is_won());
        pos = child;
    }
    // Column 7 is full.
    assert!(!keys.playable(keys.of(&pos), 6));
}

/// Every position of the file, or every `step`-th of each level, has the
/// solver's score.
fn check_against_solver(db: &Database, file: &DatabaseFile, step: usize) {
    let shape = db.shape();
    let table = Table::new(1 << 20);
    let mut checked = 0;
    for (n, level) in db.levels.iter().enumerate() {
        let mut keys = level.keys.reader().unwrap();
        let mut i = 0usize;
        while let Some(key) = keys.next().unwrap() {
            i += 1;
            if !(i - 1).is_multiple_of(step) {
                continue;
            }
            let pos = db.keys.position(key, n as u32);
            let stored = file.score(&pos);
            assert_eq!(stored, db.score(&pos), "{pos}");
            if pos.outcome().is_some() {
                continue;
            }
            let want = Solver::new(&table, shape.width as usize).solve(&pos, false);
            assert_eq!(stored, want, "{pos}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
fn every_4x4_and_5x4_position_has_the_solvers_value() {
    for (width, height) in [(4, 4), (5, 4)] {
        let (db, _) = counts_of(width, height);
        let path = TempPath::new(&format!("{width}x{height}.c4db"));
        db.write(&path.0).unwrap();
        let file = DatabaseFile::open(&path.0).unwrap();
        assert_eq!(file.shape(), db.shape());
        check_against_solver(&db, &file, 1);
        // The empty board is a draw on both.
        assert_eq!(file.score(&Position::empty(db.shape())), Some(0));
    }
}

#[test]
fn a_tiny_memory_cap_spills_to_disk_and_changes_nothing() {
    let shape = Shape::new(5, 4).unwrap();
    let (db, counts) = counts_of(5, 4);
    let mut spilled_counts = Vec::new();
    let spill_parent = TempPath::new("spill");
    std::fs::create_dir_all(&spill_parent.0).unwrap();
    let budget = Budget::new(Some(256 << 10), spill_parent.0.clone());
    let spilled = Database::build(shape, budget, |_, c| spilled_counts.push(c)).unwrap();
    assert_eq!(spilled_counts, counts);
    assert!(spilled.levels.iter().any(|l| l.keys.on_disk().is_some()));
    assert!(spilled.budget.used() <= 256 << 10);
    assert_eq!(spilled.digest().unwrap(), db.digest().unwrap());
    let (a, b) = (TempPath::new("mem.c4db"), TempPath::new("disk.c4db"));
    db.write(&a.0).unwrap();
    spilled.write(&b.0).unwrap();
    assert!(std::fs::read(&a.0).unwrap() == std::fs::read(&b.0).unwrap());
    drop(spilled);
    // The spill directory goes with the build.
    assert_eq!(std::fs::read_dir(&spill_parent.0).unwrap().count(), 0);
    std::fs::remove_dir(&spill_parent.0).unwrap();
}

#[test]
fn a_bad_database_file_is_an_error() {
    let (db, _) = counts_of(4, 4);
    let path = TempPath::new("bad.c4db");
    db.write(&path.0).unwrap();
    let good = std::fs::read(&path.0).unwrap();
    for bytes in [
        b"not a database".to_vec(),
        good[..good.len() - 1].to_vec(),
        [&good[..], b"x"].concat(),
        {
            let mut b = good.clone();
            b[8] = 9; // width 9
            b
        },
        {
            let mut b = good.clone();
            b[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
            b
        },
    ] {
        std::fs::write(&path.0, &bytes).unwrap();
        assert!(DatabaseFile::open(&path.0).is_err());
    }
    let missing = TempPath::new("missing.c4db");
    assert!(DatabaseFile::open(&missing.0).is_err());
}

#[test]
fn analysis_from_the_file_matches_the_solvers() {
    let (db, _) = counts_of(5, 4);
    let path = TempPath::new("analyze.c4db");
    db.write(&path.0).unwrap();
    let file = DatabaseFile::open(&path.0).unwrap();
    let table = Table::new(1 << 16);
    for moves in ["", "3", "33", "1122", "3334", "12345"] {
        let pos = Position::from_moves(db.shape(), moves).unwrap();
        let want = Solver::new(&table, 5).analyze(&pos, false);
        assert_eq!(file.analyze(&pos), want, "{moves}");
    }
    // Another board is not in this file.
    assert_eq!(file.score(&Position::standard()), None);
}
