"""scripts/opening-sanity: which moves count as lonely edge moves, and a run
with the fake engine."""

import contextlib
import io
import json
import os
import shlex
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from goboard import BLACK, WHITE, GoBoard  # noqa: E402
from scriptload import load_script  # noqa: E402

sanity = load_script("opening-sanity")
FAKE_GO = f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_go_engine.py'))}"


def lonely(board, color, vertex, metric="manhattan", radius=2):
    return sanity.is_lonely_edge_move(board, color, board.point(vertex), radius, metric)


class LonelyEdgeMoves(unittest.TestCase):
    def test_lines_and_opponents(self):
        board = GoBoard(19)
        board.play_vertex(WHITE, "R16")
        board.play_vertex(BLACK, "C4")
        # Second line with nothing near: lonely; third line never counts.
        self.assertTrue(lonely(board, BLACK, "K2"))
        self.assertFalse(lonely(board, BLACK, "K3"))
        # Beside an opponent stone: an answer, not lonely.
        self.assertFalse(lonely(board, BLACK, "S16"))
        # Beside only one's own stone: still lonely.
        self.assertTrue(lonely(board, BLACK, "B4"))
        self.assertFalse(lonely(board, WHITE, "B4"))

    def test_manhattan_against_chebyshev(self):
        board = GoBoard(19)
        board.play_vertex(WHITE, "D17")
        # B19 is (dx 2, dy 2) from D17: Chebyshev 2, Manhattan 4.
        self.assertTrue(lonely(board, BLACK, "B19", "manhattan"))
        self.assertFalse(lonely(board, BLACK, "B19", "chebyshev"))


class Run(unittest.TestCase):
    def test_counts_match_the_listed_moves(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = sanity.main(["--engine", FAKE_GO + " --seed {seed}", "--games", "2", "--moves", "12", "--size", "9"])
        self.assertEqual(code, 0)
        lines = out.getvalue().splitlines()
        summary = json.loads(lines[-1])
        listed = [line for line in lines if line.endswith("lonely edge move")]
        self.assertEqual(summary["lonely"], len(listed))
        self.assertEqual(summary["judged"], 24)
        self.assertEqual([g["seed"] for g in summary["games"]], [1, 2])
        # Replaying the recorded moves gives the same count.
        recount = 0
        for game in summary["games"]:
            board, color = GoBoard(9), BLACK
            for vertex in game["moves"]:
                recount += lonely(board, color, vertex)
                board.play_vertex(color, vertex)
                color = WHITE if color == BLACK else BLACK
        self.assertEqual(recount, summary["lonely"])

    def test_bad_arguments_exit_2(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as raised:
            sanity.main(["--engine", FAKE_GO, "--games", "0"])
        self.assertEqual(raised.exception.code, 2)


if __name__ == "__main__":
    unittest.main()
