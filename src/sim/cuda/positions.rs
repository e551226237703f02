//! [`KernelPosition`] for the project's own positions, and the checks run
//! against the project's CPU rules and light policies.
//!
//! Needs `crate::game::go` and `crate::game::havannah` (other branches):
//! once they are merged, declare this file with `pub mod positions;` in
//! `src/sim/cuda/mod.rs`.

use super::check::{
    check_against, fill_cpu_cache_for, CheckLine, CheckOptions, CheckReport, CpuRules,
};
use super::input::{GoLeafInput, HexLeafInput, KernelInput, KernelPosition, BLACK, EMPTY, WHITE};
use crate::game::go::board::stone;
use crate::game::{go, havannah, Color, Game, IllegalMove, Outcome};
use crate::sim::go_rollout::GoPolicy;
use crate::sim::{FastRng, PlayoutRecord, PlayoutResult, Prior, Rollout};

fn code(c: Option<Color>) -> u8 {
    match c {
        Some(Color::Black) => BLACK,
        Some(Color::White) => WHITE,
        None => EMPTY,
    }
}

impl KernelPosition for go::Position {
    fn kernel_input(&self) -> KernelInput {
        let n = self.size();
        let mut colors = vec![EMPTY; n * n];
        // Kernel points are the Game move indices: row * size + col.
        for row in 0..n {
            for col in 0..n {
                if let Some(p) = self.point(col, row) {
                    colors[row * n + col] = code(self.color_at(p));
                }
            }
        }
        let board = self.board();
        // The kernel's ko point binds the side to move only.
        let ko = board
            .ko()
            .filter(|&(_, barred)| barred == stone(self.to_move()))
            .map(|(p, _)| board.dense_index(p));
        let last_move = match self.last_move() {
            Some(go::Move::Play(p)) => Some(board.dense_index(p.0 as usize)),
            _ => None,
        };
        KernelInput::from(GoLeafInput {
            size: n,
            colors,
            to_move: self.to_move(),
            ko,
            consecutive_passes: self.consecutive_passes().min(2) as u8,
            komi: self.komi(),
            last_move,
        })
    }

    fn move_index_of_point(&self, k: usize) -> usize {
        k
    }

    fn cell_of_point(&self, k: usize) -> usize {
        k
    }

    fn point_of_move(&self, mv: go::Move) -> Option<usize> {
        match mv {
            go::Move::Pass => None,
            go::Move::Play(_) => Some(self.move_index(mv)),
        }
    }

    fn captures(&self) -> Option<[u32; 2]> {
        // `captures(c)` counts stones captured *by* c.
        Some([self.captures(Color::White), self.captures(Color::Black)])
    }

    fn area_difference(&self) -> Option<i32> {
        Some((self.area_score() + self.komi()).round() as i32)
    }
}

impl KernelPosition for havannah::Position {
    fn kernel_input(&self) -> KernelInput {
        let colors = (0..self.num_cells())
            .map(|k| code(self.color_at(havannah::Cell(k as u16))))
            .collect();
        KernelInput::from(HexLeafInput {
            side: self.side(),
            colors,
            to_move: self.to_move(),
            last_move: match self.last_move() {
                Some(havannah::Move::Play(c)) => Some(c.0 as usize),
                _ => None,
            },
        })
    }

    /// Both number the cells row by row with the same `(x, y)` lattice
    /// (`tests::havannah_cell_order_matches_the_kernels` checks it).
    fn move_index_of_point(&self, k: usize) -> usize {
        k
    }

    fn cell_of_point(&self, k: usize) -> usize {
        k
    }

    /// The swap move has no cell; replays encode it as `cells`.
    fn point_of_move(&self, mv: havannah::Move) -> Option<usize> {
        match mv {
            havannah::Move::Play(c) => Some(c.0 as usize),
            havannah::Move::Swap => None,
        }
    }
}

/// A Go position whose CPU playouts use a chosen policy: the statistical
/// check compares each kernel with the CPU policy it implements
/// ([`super::GoKernel::policy`]), the light `Random` one or `Patterns`.
#[derive(Clone, Debug)]
pub struct GoWithPolicy(pub go::Position, pub GoPolicy);

impl Game for GoWithPolicy {
    type Move = go::Move;

    fn to_move(&self) -> Color {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<go::Move>) {
        self.0.legal_moves(out)
    }
    fn is_legal(&self, mv: go::Move) -> bool {
        self.0.is_legal(mv)
    }
    fn play(&mut self, mv: go::Move) -> Result<(), IllegalMove<go::Move>> {
        self.0.play(mv)
    }
    fn play_unchecked(&mut self, mv: go::Move) {
        Game::play_unchecked(&mut self.0, mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn move_index(&self, mv: go::Move) -> usize {
        self.0.move_index(mv)
    }
    fn move_space(&self) -> usize {
        self.0.move_space()
    }
    fn move_cell(&self, mv: go::Move) -> Option<usize> {
        self.0.move_cell(mv)
    }
    fn cell_space(&self) -> usize {
        self.0.cell_space()
    }
    fn pass_move(&self) -> Option<go::Move> {
        self.0.pass_move()
    }
}

impl Rollout for GoWithPolicy {
    fn rollout(
        &self,
        rng: &mut FastRng,
        record: &mut PlayoutRecord,
        ownership: &mut [i8],
    ) -> PlayoutResult {
        self.0.rollout_with(self.1, rng, record, ownership)
    }
    fn priors(&self, moves: &[go::Move], out: &mut Vec<Prior>) {
        self.0.priors(moves, out)
    }
}

impl KernelPosition for GoWithPolicy {
    fn kernel_input(&self) -> KernelInput {
        self.0.kernel_input()
    }
    fn move_index_of_point(&self, k: usize) -> usize {
        self.0.move_index_of_point(k)
    }
    fn cell_of_point(&self, k: usize) -> usize {
        self.0.cell_of_point(k)
    }
    fn point_of_move(&self, mv: go::Move) -> Option<usize> {
        self.0.point_of_move(mv)
    }
    fn captures(&self) -> Option<[u32; 2]> {
        KernelPosition::captures(&self.0)
    }
    fn area_difference(&self) -> Option<i32> {
        self.0.area_difference()
    }
}

type ProjectRules = CpuRules<
    GoWithPolicy,
    havannah::Position,
    fn(usize, f32, GoPolicy) -> Option<GoWithPolicy>,
    fn(usize) -> Option<havannah::Position>,
>;

fn project_rules() -> ProjectRules {
    CpuRules {
        name: "project",
        go: |size, komi, policy| {
            go::Position::new(size, komi)
                .ok()
                .map(|p| GoWithPolicy(p, policy))
        },
        havannah: |side| havannah::Position::new(side).ok(),
    }
}

/// `check_gpu` against the project's rules (`crate::game`) and policies
/// (`crate::sim::go_rollout` Random and Patterns,
/// `crate::sim::havannah_rollout`'s uniform fill and the tactical
/// `engine_rollout` of `crate::sim::havannah_tactics`).
pub fn check_gpu_project(
    ordinal: usize,
    opts: &CheckOptions,
    progress: &mut dyn FnMut(&CheckLine),
) -> CheckReport {
    check_against(ordinal, opts, &project_rules(), progress)
}

/// The CPU side of [`check_gpu_project`] into `opts.cpu_cache`, no GPU.
pub fn fill_cpu_cache_project(opts: &CheckOptions) {
    fill_cpu_cache_for(opts, &project_rules());
}

#[cfg(test)]
mod tests {
    use super::super::family::Family;
    use super::*;

    /// The kernels' tables are the game's: each cell's neighbours are
    /// those `Position` plays with, in cyclic order (the kernels' ring
    /// tests walk them round), and six corners and `side - 2` cells an
    /// edge carry a bit.
    #[test]
    fn havannah_kernel_tables_are_the_games_board() {
        for side in super::super::hex::SIZES {
            let pos = havannah::Position::new(side).unwrap();
            let t = havannah::flat_tables(side).unwrap();
            let at = |c: usize, d: usize| t.neighbours[6 * c + d % 6];
            for c in 0..pos.num_cells() {
                let mut ours: Vec<i16> = (0..6).map(|d| at(c, d)).filter(|&n| n >= 0).collect();
                let mut games: Vec<i16> = pos
                    .neighbours(havannah::Cell(c as u16))
                    .map(|n| n.0 as i16)
                    .collect();
                ours.sort_unstable();
                games.sort_unstable();
                assert_eq!(ours, games, "side {side} cell {c}");
                for d in 0..6 {
                    let (a, b) = (at(c, d), at(c, d + 1));
                    if a >= 0 && b >= 0 {
                        assert!(
                            (0..6).any(|e| at(a as usize, e) == b),
                            "side {side} cell {c} dir {d}"
                        );
                    }
                }
            }
            let corners: u32 = t.reach.iter().map(|r| (r & 0x3F).count_ones()).sum();
            assert_eq!(corners, 6);
            for k in 6..12 {
                let on_edge = t.reach.iter().filter(|&&r| r >> k & 1 == 1).count();
                assert_eq!(on_edge, side - 2, "side {side} edge {k}");
            }
        }
    }

    #[test]
    fn go_input_reads_stones_ko_and_passes() {
        let mut pos = go::Position::new(9, 7.5).unwrap();
        let p = pos.point(2, 3).unwrap();
        Game::play(&mut pos, go::Move::Play(p)).unwrap();
        Game::play(&mut pos, go::Move::Pass).unwrap();
        let input = pos.kernel_input();
        assert_eq!((input.family, input.size), (Family::Go, 9));
        assert_eq!(input.colors[3 * 9 + 2], BLACK);
        assert_eq!(input.colors.iter().filter(|&&c| c != EMPTY).count(), 1);
        // GoLeaf: Black to move, no ko, one pass, komi 7.5 as 15 half
        // points, no last move (a pass).
        assert_eq!(input.header, [BLACK as i32, -1, 1, 15, -1]);
        assert_eq!(pos.point_of_move(go::Move::Play(p)), Some(3 * 9 + 2));
    }
}
