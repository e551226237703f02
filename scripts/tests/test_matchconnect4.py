"""The Connect Four referee of scripts/match (scripts/matchconnect4.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matchconnect4 import makes_four  # noqa: E402


def drop(columns: str) -> "tuple[dict, int, int, str]":
    """Plays `columns` (from 1, Black first); returns the board and the last stone."""
    board, heights, letter = {}, [0] * 8, "B"
    for ch in columns:
        c = int(ch) - 1
        board[(c, heights[c])] = letter
        last = (c, heights[c], letter)
        heights[c] += 1
        letter = "W" if letter == "B" else "B"
    return (board,) + last


class MakesFour(unittest.TestCase):
    def test_lines_in_every_direction(self):
        for moves in ("1121314", "1212121", "12234334544", "187765665455"):
            board, column, row, letter = drop(moves)
            self.assertTrue(makes_four(board, column, row, letter), moves)

    def test_three_is_not_four(self):
        for moves in ("11213", "121212", "1223433454"):
            board, column, row, letter = drop(moves)
            self.assertFalse(makes_four(board, column, row, letter), moves)


if __name__ == "__main__":
    unittest.main()
