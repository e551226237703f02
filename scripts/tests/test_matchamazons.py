"""The Amazons referee of scripts/match (scripts/matchamazons.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matchamazons import STARTS, Board, parse_move, sgf_move, sgf_setup  # noqa: E402


def count_moves(board: Board, letter: str) -> int:
    blocked = board.blocked()
    total = 0
    for queen in board.queens[letter]:
        for to in board.slides(queen, blocked):
            total += len(board.slides(to, (blocked - {queen}) | {to}))
    return total


class Referee(unittest.TestCase):
    def test_start_positions_have_the_engines_move_counts(self):
        # 2,176 on 10x10 is the engine's (and OpenSpiel's) count.
        self.assertEqual(count_moves(Board(10), "W"), 2176)
        for size in STARTS:
            self.assertGreater(count_moves(Board(size), "W"), 0)

    def test_legal_and_illegal_moves(self):
        board = Board(10)
        self.assertTrue(board.is_legal("W", parse_move("d1-d7/g7", 10)))
        self.assertTrue(board.is_legal("W", parse_move("d1-d2/d1", 10)))  # back onto the vacated square
        self.assertFalse(board.is_legal("B", parse_move("d1-d2/d1", 10)))  # not Black's queen
        self.assertFalse(board.is_legal("W", parse_move("d1-d10/d9", 10)))  # onto a queen
        self.assertFalse(board.is_legal("W", parse_move("d1-e3/e4", 10)))  # not a queen line
        for text in ("d1-d7", "d1d7/g7", "d1-k7/g7", "d0-d7/g7", "x-y/z"):
            self.assertIsNone(parse_move(text, 10), text)

    def test_a_walled_in_side_has_no_move(self):
        board = Board(6)
        board.queens = {"W": {(0, 0)}, "B": {(5, 5)}}
        board.arrows = {(0, 1), (1, 0), (1, 1)}
        self.assertFalse(board.has_move("W"))
        self.assertTrue(board.has_move("B"))

    def test_sgf_points_follow_red_bean(self):
        # red-bean's Amazons example opens ;B[djddgd]: its first player's d1-d7/g7.
        self.assertEqual(sgf_move("d1-d7/g7", 10), "djddgd")
        self.assertEqual(sgf_setup(10), "AW[ag][dj][gj][jg]AB[ad][da][ga][jd]PL[W]")


if __name__ == "__main__":
    unittest.main()
