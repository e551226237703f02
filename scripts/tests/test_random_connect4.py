"""The random-move Connect Four engine (scripts/random_connect4.py), over its pipe."""

import os
import subprocess
import sys
import unittest

ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "random_connect4.py")


def session(commands: "list[str]", *args: str) -> "list[str]":
    """Sends `commands` (then quit) and returns each reply, one per command."""
    text = "".join(c + "\n" for c in commands) + "quit\n"
    out = subprocess.run([sys.executable, ENGINE, *args], input=text, capture_output=True, text=True, timeout=30)
    replies = [r.strip() for r in out.stdout.split("\n\n") if r.strip()]
    return replies[:-1]  # the last is quit's


class RandomConnect4(unittest.TestCase):
    def test_plays_only_legal_columns_and_refuses_full_ones(self):
        # Column 1 filled to the top: genmove must never answer 1, and `play b 1` is refused.
        fill = [f"play {'bw'[i % 2]} 1" for i in range(6)]
        replies = session(["boardsize 7 6", "clear_board", *fill, "play b 1"] + ["genmove b", "undo"] * 50)
        self.assertEqual(replies[8], "? illegal move")
        moves = [r for r in replies[9:] if r.startswith("= ") and r != "="]
        self.assertEqual(len(moves), 50)
        columns = {int(r[2:]) for r in moves}
        self.assertTrue(columns <= set(range(2, 8)), columns)
        self.assertGreater(len(columns), 1)  # random, not a fixed column

    def test_same_seed_same_moves(self):
        commands = ["boardsize 7x6"] + ["genmove b", "genmove w"] * 10
        self.assertEqual(session(commands, "--seed", "5"), session(commands, "--seed", "5"))
        self.assertEqual(session(["set_random_seed 9"] + commands), session(["set_random_seed 9"] + commands))

    def test_bad_input_gets_question_mark_and_changes_nothing(self):
        replies = session(["boardsize 9 6", "play b 0", "play x 3", "genmove", "frobnicate", "boardsize 4 4"] +
                          ["play b 1"] * 4 + ["play b 1"])
        self.assertTrue(all(r.startswith("?") for r in replies[:5]), replies)
        self.assertEqual(replies[5:10], ["="] * 5)  # boardsize, then column 1 filled
        self.assertEqual(replies[10], "? illegal move")


if __name__ == "__main__":
    unittest.main()
