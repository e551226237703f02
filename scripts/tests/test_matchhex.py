"""The Hex referee of scripts/match (scripts/matchhex.py): cells and the win test."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matchhex import cell_name, joins_sides, parse_cell  # noqa: E402


def cells(text: str, size: int) -> "set[tuple[int, int]]":
    return {parse_cell(word, size) for word in text.split()}


class Cells(unittest.TestCase):
    def test_round_trip_and_case(self):
        self.assertEqual(parse_cell("c4", 11), (2, 3))
        self.assertEqual(parse_cell("K11", 11), (10, 10))
        self.assertEqual(cell_name((10, 10)), "k11")

    def test_off_board_and_malformed(self):
        for word in ("l1", "a12", "a0", "pass", "", "aa1", "1a"):
            self.assertIsNone(parse_cell(word, 11), word)


class Wins(unittest.TestCase):
    def test_black_joins_top_and_bottom(self):
        column = cells("c1 c2 c3", 3)
        self.assertTrue(joins_sides(column, "B", 3))
        self.assertFalse(joins_sides(column, "W", 3))

    def test_white_joins_left_and_right(self):
        row = cells("a2 b2 c2", 3)
        self.assertTrue(joins_sides(row, "W", 3))
        self.assertFalse(joins_sides(row, "B", 3))

    def test_the_short_diagonal_connects_and_the_long_one_does_not(self):
        # (column+1, row-1) is a neighbour; (column+1, row+1) is not.
        self.assertTrue(joins_sides(cells("a3 b2 c1", 3), "B", 3))
        self.assertFalse(joins_sides(cells("a1 b2 c3", 3), "W", 3))
        self.assertTrue(joins_sides(cells("a1 b1 b2 c2 c3", 3), "W", 3))

    def test_a_gap_is_no_win(self):
        self.assertFalse(joins_sides(cells("c1 c3", 3), "B", 3))


if __name__ == "__main__":
    unittest.main()
