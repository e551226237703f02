//! Reference data for `kernels/hostcheck/go_patterns.cpp`, the CPU check of
//! the GPU pattern kernel (`kernels/go_bits_patterns.cu`): the pattern
//! table, positions with the CPU board's answers for every point (eye,
//! legal, self-atari, pattern match) and the CPU's atari candidates, and
//! positions with the CPU Patterns policy's playout statistics; and for
//! `kernels/hostcheck/go_points.cpp`, the check of the point kernels' 3x3
//! and M2 policies: every point's weight, and playout statistics from the
//! kernel's own seeds (compared exactly) and from others.
//!
//! Writes only when `WARPSTONE_HOSTCHECK_DIR` is set (`run.sh` sets it),
//! so a plain `cargo test` spends nothing here.

use super::*;
use crate::game::go::Point;
use crate::game::Game;

/// A position reached by `moves` moves of `policy` from the empty board:
/// Patterns for tactical shapes, Random for chains left in atari.
fn playout_position(size: usize, moves: usize, seed: u64, policy: GoPolicy) -> Position {
    let mut pos = Position::new(size, 7.5).unwrap();
    let mut rng = FastRng::new(seed);
    for _ in 0..moves {
        let mut playout = Playout::new(&pos);
        let mut choice = None;
        if policy == GoPolicy::Patterns && playout.last != 0 {
            choice = playout.tactical_move(&mut rng);
        }
        if choice.is_none() {
            choice = playout.random_move::<true>(&mut rng);
        }
        let Some(p) = choice else { break };
        pos.play_unchecked(Move::Play(Point(p as u16)));
    }
    pos
}

/// Up to `count` positions of light playouts (suicide-free uniform moves)
/// right after a move that leaves some chain at or next to it in atari:
/// the atari candidates' cases, which the policies' own playouts resolve
/// too quickly to meet often.
fn atari_positions(size: usize, count: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = FastRng::new(size as u64);
    while out.len() < count {
        let mut pos = Position::new(size, 7.5).unwrap();
        for _ in 0..2 * size * size {
            let Some(p) = Playout::new(&pos).random_move::<false>(&mut rng) else {
                break;
            };
            pos.play_unchecked(Move::Play(Point(p as u16)));
            let mut c = Candidates::default();
            atari_moves(pos.board(), stone(Game::to_move(&pos)), p, &mut c);
            if c.len > 0 && out.len() < count {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// `size to_move ko last colors`: the header both kinds of lines share,
/// points as dense indices (row * size + col), -1 for none.
fn header(pos: &Position) -> String {
    let board = pos.board();
    let color = stone(Game::to_move(pos));
    let ko = board
        .ko()
        .filter(|&(_, barred)| barred == color)
        .map_or(-1, |(p, _)| board.dense_index(p) as i64);
    let last = match pos.last_move() {
        Some(Move::Play(p)) => board.dense_index(p.0 as usize) as i64,
        _ => -1,
    };
    let mut colors = String::new();
    for p in dense_points(pos) {
        colors.push(char::from(b'0' + board.cell(p)));
    }
    format!("{} {color} {ko} {last} {colors}", pos.size())
}

/// Board cells in dense order.
fn dense_points(pos: &Position) -> Vec<usize> {
    let n = pos.size();
    (0..n * n)
        .map(|k| pos.point(k % n, k / n).unwrap().0 as usize)
        .collect()
}

/// `H header eye legal self_atari match candidates`: one character per
/// point ('-' where not empty) and the atari candidates (dense, with
/// duplicates, in push order; `-` for none).
fn helper_line(pos: &Position) -> String {
    let board = pos.board();
    let color = stone(Game::to_move(pos));
    let mut fields = [String::new(), String::new(), String::new(), String::new()];
    for p in dense_points(pos) {
        let answers = [
            board.is_eye(color, p),
            board.is_legal(color, p),
            board.is_self_atari(color, p),
            patterns::matches(board, p),
        ];
        for (field, yes) in fields.iter_mut().zip(answers) {
            field.push(match (board.cell(p), yes) {
                (EMPTY, true) => '1',
                (EMPTY, false) => '0',
                _ => '-',
            });
        }
    }
    let mut cands = String::from("-");
    if let Some(Move::Play(last)) = pos.last_move() {
        let mut c = Candidates::default();
        atari_moves(board, color, last.0 as usize, &mut c);
        if c.len > 0 {
            cands = c.points[..c.len]
                .iter()
                .map(|&p| board.dense_index(p).to_string())
                .collect::<Vec<_>>()
                .join(",");
        }
    }
    let [eye, legal, self_atari, matches] = fields;
    format!(
        "H {} {eye} {legal} {self_atari} {matches} {cands}\n",
        header(pos)
    )
}

/// `S header passes komi2 playouts wins2 score2_sum score2_squares`:
/// `playouts` CPU playouts of `policy`, Black half wins, sums of twice the
/// komi'd score.
fn stats_line(pos: &Position, policy: GoPolicy, playouts: u32, seed: u64) -> String {
    let mut rng = FastRng::new(seed);
    let mut record = PlayoutRecord::default();
    record.reset(pos.move_space());
    let mut owner = vec![0i8; pos.move_space()];
    let (mut wins2, mut sum, mut squares) = (0u64, 0i64, 0i64);
    for _ in 0..playouts {
        let r = pos.rollout_with(policy, &mut rng, &mut record, &mut owner);
        let s2 = (2.0 * r.score).round() as i64;
        wins2 += match r.winner {
            Some(Color::Black) => 2,
            None => 1,
            Some(Color::White) => 0,
        };
        sum += s2;
        squares += s2 * s2;
    }
    format!(
        "S {} {} {} {playouts} {wins2} {sum} {squares}\n",
        header(pos),
        pos.consecutive_passes().min(2),
        (2.0 * pos.komi()).round() as i64
    )
}

#[test]
fn write_gpu_hostcheck_data() {
    let Some(dir) = std::env::var_os("WARPSTONE_HOSTCHECK_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let table: String = PATTERN_TABLE.iter().map(|w| format!("{w}\n")).collect();
    std::fs::write(dir.join("go_pattern_table.txt"), table).unwrap();
    let mut helpers = String::new();
    for (size, count) in [(9, 400), (13, 150), (19, 80)] {
        for i in 0..count {
            let moves = i * 2 * size * size / count;
            let policy = [GoPolicy::Patterns, GoPolicy::Random][i % 2];
            let pos = playout_position(size, moves, i as u64, policy);
            helpers.push_str(&helper_line(&pos));
        }
    }
    for (size, count) in [(9, 300), (13, 150), (19, 100)] {
        for pos in atari_positions(size, count) {
            helpers.push_str(&helper_line(&pos));
        }
    }
    std::fs::write(dir.join("go_helpers.txt"), helpers).unwrap();
    let playouts: u32 = std::env::var("WARPSTONE_HOSTCHECK_PLAYOUTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let mut stats = String::new();
    // 19x19: the empty board and one after 180 moves, where the windowed
    // string counts of the pattern kernel meet long strings.
    for (size, count) in [(9, 12), (13, 2), (19, 2)] {
        for i in 0..count {
            let moves = i * size * size / count;
            let pos = playout_position(size, moves, 100 + i as u64, GoPolicy::Patterns);
            stats.push_str(&stats_line(
                &pos,
                GoPolicy::Patterns,
                playouts,
                7 + i as u64,
            ));
        }
    }
    // The empty board (no last move) and a position just after a pass.
    let mut passed = playout_position(9, 30, 5, GoPolicy::Patterns);
    passed.play_unchecked(Move::Pass);
    let empty = Position::new(9, 7.5).unwrap();
    for pos in [empty, passed] {
        stats.push_str(&stats_line(&pos, GoPolicy::Patterns, playouts, 3));
    }
    std::fs::write(dir.join("go_stats.txt"), stats).unwrap();
}

/// Up to `count` positions of light playouts right after a move that
/// made a simple ko the side to move may not retake.
fn ko_positions(size: usize, count: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = FastRng::new(1000 + size as u64);
    while out.len() < count {
        let mut pos = Position::new(size, 7.5).unwrap();
        for _ in 0..3 * size * size {
            let Some(p) = Playout::new(&pos).random_move::<false>(&mut rng) else {
                break;
            };
            pos.play_unchecked(Move::Play(Point(p as u16)));
            let barred = pos.board().ko().map(|(_, c)| c);
            if barred == Some(stone(Game::to_move(&pos))) && out.len() < count {
                out.push(pos.clone());
            }
        }
    }
    out
}

/// `W header weights_3x3 weights_m2`: every point's weight for the side to
/// move, comma-separated in dense order.
fn weights_line(pos: &Position) -> String {
    let board = pos.board();
    let color = stone(Game::to_move(pos));
    let list = |m2| {
        let w = weights::Weights::compute(board, color, m2);
        w.w[..pos.size() * pos.size()]
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    format!("W {} {} {}\n", header(pos), list(false), list(true))
}

/// The kernels' stream of playout `k` of leaf `leaf` (common.cuh
/// `playout_seed`).
fn playout_seed(seed: u64, leaf: u32, k: u32) -> u64 {
    seed ^ (leaf as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (k as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// `X seed playouts score2_sum wins2 tables`: the statistics block the
/// point kernel must produce for leaf 0 with `seed` and `playouts` (one
/// block): the CPU's playouts from the kernel's streams. `tables` as
/// common.cuh lays them out: AMAF first plays per point and colour, their
/// Black half wins, ownership sums; comma-separated.
fn exact_part(pos: &Position, policy: GoPolicy, seed: u64, playouts: u32) -> String {
    let points = pos.size() * pos.size();
    let mut record = PlayoutRecord::default();
    let mut owner = vec![0i8; pos.move_space()];
    let mut tables = vec![0i64; 5 * points];
    let (mut sum, mut wins2) = (0i64, 0i64);
    for k in 0..playouts {
        let mut rng = FastRng::new(playout_seed(seed, 0, k));
        record.reset(pos.move_space());
        let r = pos.rollout_with(policy, &mut rng, &mut record, &mut owner);
        let s2 = (2.0 * r.score).round() as i64;
        let bw = match s2 {
            1.. => 2,
            0 => 1,
            _ => 0,
        };
        sum += s2;
        wins2 += bw;
        for m in 0..points {
            if let Some(c) = record.first[m] {
                let c = (c == Color::White) as usize;
                tables[2 * m + c] += 1;
                tables[2 * points + 2 * m + c] += bw;
            }
            tables[4 * points + m] += owner[m] as i64;
        }
    }
    let tables: Vec<String> = tables.iter().map(i64::to_string).collect();
    format!("X {seed} {playouts} {sum} {wins2} {}", tables.join(","))
}

#[test]
fn write_gpu_hostcheck_data_points() {
    let Some(dir) = std::env::var_os("WARPSTONE_HOSTCHECK_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let table: String = PATTERN_TABLE.iter().map(|w| format!("{w}\n")).collect();
    std::fs::write(dir.join("go_pattern_table.txt"), table).unwrap();
    let mut lines = String::new();
    for (size, count) in [(9, 120), (13, 40), (19, 20)] {
        for i in 0..count {
            let moves = i * 2 * size * size / count;
            let policy = [GoPolicy::Patterns, GoPolicy::Random][i % 2];
            lines.push_str(&weights_line(&playout_position(
                size, moves, i as u64, policy,
            )));
        }
        for pos in atari_positions(size, count / 2) {
            lines.push_str(&weights_line(&pos));
        }
        for pos in ko_positions(size, count / 4) {
            lines.push_str(&weights_line(&pos));
        }
    }
    std::fs::write(dir.join("go_points_weights.txt"), lines).unwrap();
    // Kernel playouts per position (run.sh passes its fifth argument) and
    // the CPU's for the statistical side.
    let env = |name: &str, default: u32| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let gpu = env("WARPSTONE_HOSTCHECK_POINT_PLAYOUTS", 200);
    let cpu = env("WARPSTONE_HOSTCHECK_POINT_CPU_PLAYOUTS", 4000);
    let mut positions = vec![Position::new(9, 7.5).unwrap()];
    for i in 1..4 {
        positions.push(playout_position(
            9,
            i * 20,
            200 + i as u64,
            GoPolicy::Patterns,
        ));
    }
    positions.extend(ko_positions(9, 1));
    let mut passed = playout_position(9, 40, 9, GoPolicy::Random);
    passed.play_unchecked(Move::Pass);
    positions.push(passed);
    positions.push(playout_position(13, 60, 13, GoPolicy::Patterns));
    positions.push(playout_position(19, 150, 19, GoPolicy::Patterns));
    let mut lines = String::new();
    for (i, pos) in positions.iter().enumerate() {
        for policy in [GoPolicy::Weighted3x3, GoPolicy::M2] {
            // Fewer on the larger boards: the emulation is slow there.
            let n = match pos.size() {
                9 => gpu,
                13 => gpu / 4,
                _ => gpu / 16,
            }
            .max(2);
            let seed = 4242 + i as u64;
            let stats = stats_line(pos, policy, cpu, 77 + i as u64);
            lines.push_str(&format!(
                "{} {} {}\n",
                policy.name(),
                stats.trim_end(),
                exact_part(pos, policy, seed, n)
            ));
        }
    }
    std::fs::write(dir.join("go_points_playouts.txt"), lines).unwrap();
}
