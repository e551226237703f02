"""Rules of the Python reference board (scripts/goboard.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from goboard import (  # noqa: E402
    BLACK,
    WHITE,
    GoBoard,
    IllegalMove,
    format_score,
    parse_score,
)


def play_all(board: GoBoard, moves: str) -> None:
    """`B:A2 W:C2 ...` onto the board."""
    for token in moves.split():
        colour, vertex = token.split(":")
        board.play_vertex(BLACK if colour == "B" else WHITE, vertex)


class Coordinates(unittest.TestCase):
    def test_vertex_round_trip_skips_i(self):
        board = GoBoard(19)
        for vertex in ("A1", "H8", "J9", "T19", "K10"):
            self.assertEqual(board.vertex(board.point(vertex)), vertex)
        self.assertEqual(board.vertex(board.point("j9")), "J9")

    def test_malformed_or_off_board_is_rejected(self):
        board = GoBoard(9)
        for text in ("I5", "K1", "A10", "A0", "", "Z", "11", "AA1"):
            with self.assertRaises(ValueError, msg=text):
                board.point(text)
        self.assertIsNone(board.point("pass"))


class Captures(unittest.TestCase):
    def test_corner_capture_is_counted_for_the_capturer(self):
        board = GoBoard(5)
        play_all(board, "B:A2 W:A1 B:B1")
        self.assertEqual(board.stones(WHITE), set())
        self.assertEqual(board.captures[BLACK], 1)
        self.assertEqual(board.captures[WHITE], 0)

    def test_suicide_is_illegal_but_capturing_is_not(self):
        board = GoBoard(5)
        play_all(board, "B:A2 W:C1 B:B1")
        # White A1 has no liberty and captures nothing.
        self.assertEqual(board.illegal_reason(WHITE, board.point("A1")), "suicide")
        with self.assertRaises(IllegalMove):
            board.play_vertex(WHITE, "A1")
        self.assertEqual(board.illegal_reason(WHITE, board.point("B1")), "occupied")

    def test_ko_shape(self):
        board = GoBoard(5)
        play_all(board, "B:B2 W:C2 B:A3 W:D3 B:B4 W:C4 B:C3 W:B3")  # White captures C3
        self.assertEqual(board.captures[WHITE], 1)
        self.assertEqual(board.illegal_reason(BLACK, board.point("C3")), "ko")
        play_all(board, "B:E5 W:E1")  # a move elsewhere lifts the ban
        self.assertIsNone(board.illegal_reason(BLACK, board.point("C3")))


class Superko(unittest.TestCase):
    # On 3x3, White's A1 captures two stones; Black's B1 would then recreate
    # the position after White's B2: legal under simple ko, not under superko.
    SEQUENCE = "B:A2 W:C2 B:B1 W:B2 B:C1 W:A1"

    def test_positional_superko_forbids_a_repetition_simple_ko_allows(self):
        board = GoBoard(3, "positional")
        play_all(board, self.SEQUENCE)
        b1 = board.point("B1")
        self.assertEqual(board.illegal_reason(BLACK, b1), "superko")
        self.assertIsNone(board.illegal_reason(BLACK, b1, "simple"))
        self.assertEqual(board.legal_vertices(BLACK, "simple") - board.legal_vertices(BLACK), {"B1"})

    def test_simple_ko_board_plays_it(self):
        board = GoBoard(3, "simple")
        play_all(board, self.SEQUENCE + " B:B1")
        self.assertEqual(board.stones(BLACK), {"A2", "B1"})
        self.assertEqual(board.stones(WHITE), {"C2", "B2"})


class Eyes(unittest.TestCase):
    def test_corner_eye_belongs_to_its_owner_only(self):
        board = GoBoard(5)
        play_all(board, "B:A2 W:E5 B:B1")
        self.assertTrue(board.is_eye(BLACK, board.point("A1")))
        self.assertFalse(board.is_eye(WHITE, board.point("A1")))

    def test_edge_eye_is_false_with_one_enemy_diagonal(self):
        board = GoBoard(5)
        play_all(board, "B:A2 W:B2 B:B1")
        self.assertFalse(board.is_eye(BLACK, board.point("A1")))

    def test_centre_eye_tolerates_one_enemy_diagonal_not_two(self):
        board = GoBoard(5)
        play_all(board, "B:B3 W:B2 B:D3 W:pass B:C2 W:pass B:C4")
        self.assertTrue(board.is_eye(BLACK, board.point("C3")))
        play_all(board, "W:D4")
        self.assertFalse(board.is_eye(BLACK, board.point("C3")))

    def test_point_next_to_an_enemy_is_no_eye(self):
        board = GoBoard(5)
        play_all(board, "B:A2 W:B1")
        self.assertFalse(board.is_eye(BLACK, board.point("A1")))


class Scoring(unittest.TestCase):
    def test_tromp_taylor_area(self):
        board = GoBoard(5)
        # A black wall on column C, a white wall on column D.
        for row in range(1, 6):
            board.play_vertex(BLACK, f"C{row}")
            board.play_vertex(WHITE, f"D{row}")
        # Black: 5 stones + 10 points of A,B; White: 5 stones + 5 points of E.
        self.assertEqual(board.area_score(0), 5.0)
        self.assertEqual(board.area_score(7.5), -2.5)

    def test_shared_region_counts_for_nobody(self):
        board = GoBoard(3)
        play_all(board, "B:A1 W:C3")
        self.assertEqual(board.area_score(0.5), -0.5)

    def test_score_text(self):
        self.assertEqual(parse_score("B+3.5"), 3.5)
        self.assertEqual(parse_score("W+12"), -12.0)
        self.assertEqual(parse_score("0"), 0.0)
        self.assertEqual(parse_score("w+0.5 extra words"), -0.5)
        self.assertIsNone(parse_score("B+R"))
        self.assertIsNone(parse_score(""))
        self.assertIsNone(parse_score("??"))
        self.assertEqual(format_score(3.5), "B+3.5")
        self.assertEqual(format_score(-7.0), "W+7")
        self.assertEqual(format_score(0.0), "0")


if __name__ == "__main__":
    unittest.main()
