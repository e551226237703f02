"""scripts/havannah-losses: the winning cells of the winner of each lost game, and their kinds."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scriptload import load_script  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from matchreport import hgf_cell  # noqa: E402

losses = load_script("havannah-losses")

SIDE = 8


def lg(cell):
    """(row, diagonal) → LittleGolem's name, as scripts/match writes records."""
    return hgf_cell(losses.cell_name(cell), SIDE)


def around(centre):
    return [(centre[0] + dr, centre[1] + dq) for dr, dq in losses.NEIGHBOURS]


def record(white, black, result, white_moves, black_moves):
    """White moves first; the two lists alternate, White's first."""
    body = []
    for i, cell in enumerate(white_moves):
        body.append(f";W[{lg(cell)}]")
        if i < len(black_moves):
            body.append(f";B[{lg(black_moves[i])}]")
    return f"(;FF[4]SZ[{SIDE}]PW[{white}]PB[{black}]RE[{result}]\n" + "\n".join(body) + ")"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = losses.main(list(argv))
    return code, out.getvalue(), err.getvalue()


# Black's stones far from everything White builds: along row 12.
FAR = [(12, q) for q in range(6, 14)]


class HavannahLossesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(lambda: [os.unlink(os.path.join(self.dir, f)) for f in os.listdir(self.dir)]
                        or os.rmdir(self.dir))

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w", encoding="utf-8") as f:
            f.write(text)

    def test_a_ring_threat_and_a_double_threat_are_found(self):
        # Game 1: Castro (White) has five of the six cells round h8; Warpstone resigned.
        ring = around((7, 7))
        self.write("game-0001.hgf", record("Castro", "Warpstone", "W+R", ring[:5], FAR[:4]))
        # Game 2: five round d4 and five round h12: two winning cells at once.
        two = around((3, 3))[:5] + around((7, 11))[:5]
        self.write("game-0002.hgf", record("Castro", "Warpstone", "W+R", two, FAR[:9]))
        # Game 3: Warpstone (White) won: not studied.
        self.write("game-0003.hgf", record("Warpstone", "Castro", "W+", ring[:5], FAR[:4]))
        code, out, _ = run("--player", "Warpstone", self.dir)
        self.assertEqual(code, 0)
        summary = json.loads(out.strip().splitlines()[-1])
        self.assertEqual(summary["lost"], 2)
        first, second = summary["games"]
        self.assertEqual(first["winning_cells"],
                         [{"cell": losses.cell_name(ring[5]), "kinds": ["ring"], "ring_cells": 1}])
        self.assertEqual(first["most_at_once"], 1)
        self.assertEqual(sorted(h["cell"] for h in second["winning_cells"]),
                         sorted([losses.cell_name(around((3, 3))[5]), losses.cell_name(around((7, 11))[5])]))
        self.assertEqual(second["most_at_once"], 2)
        self.assertEqual(summary["winning_cells_at_end"], {"2+": 1, "1": 1, "0": 0})
        self.assertEqual(summary["double_threat_at_some_point"], 1)

    def test_bridges_forks_and_rings_round_own_stones(self):
        board = losses.Board(SIDE)
        # Row a from corner a1 to a7: a8, the next corner, makes a bridge.
        self.assertEqual(board.wins({(0, q) for q in range(7)}, (0, 7)), ["bridge"])
        # Row d across the board, then down diagonal 11 to the bottom edge: three edges.
        fork = {(3, q) for q in range(11)} | {(r, 10) for r in range(4, 14)}
        self.assertEqual(board.wins(fork, (14, 10)), ["fork"])
        # Six stones round an own stone close a ring round it: it encloses one cell.
        solid = set(around((7, 7))[:5]) | {(7, 7)}
        self.assertEqual(board.wins(solid, around((7, 7))[5]), ["ring"])
        self.assertEqual(board.enclosed(solid | {around((7, 7))[5]}), {(7, 7)})
        # Five round a cell is no ring yet.
        self.assertEqual(board.enclosed(set(around((7, 7))[:5])), set())

    def test_a_bad_record_is_an_error_not_a_crash(self):
        self.write("bad.hgf", "(;FF[4]SZ[8]PW[Castro]PB[Warpstone]RE[W+]\n;W[??])")
        code, _, err = run("--player", "Warpstone", os.path.join(self.dir, "bad.hgf"))
        self.assertEqual(code, 2)
        self.assertIn("havannah-losses:", err)
        self.write("neither.hgf", "(;FF[4]SZ[8]PW[A]PB[B]RE[W+]\n;W[H8])")
        code, _, err = run("--player", "Warpstone", os.path.join(self.dir, "neither.hgf"))
        self.assertEqual(code, 2)
        self.write("huge.hgf", "(;FF[4]SZ[999999999999]PW[Castro]PB[Warpstone]RE[W+]\n;W[A1])")
        code, _, err = run("--player", "Warpstone", os.path.join(self.dir, "huge.hgf"))
        self.assertEqual(code, 2)
        self.assertIn("side", err)
        code, _, err = run("--player", "Warpstone", "/dev/zero")  # endless
        self.assertEqual(code, 2)
        self.assertIn("longer than", err)


if __name__ == "__main__":
    unittest.main()
