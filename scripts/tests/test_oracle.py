"""The Go legality oracle agrees with honest engines and catches lying ones."""

import os
import shlex
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "..", "oracle", "go_legality_vs_gnugo.py")
FAKE_GO = f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_go_engine.py'))}"
GNUGO = "/usr/games/gnugo" if os.path.exists("/usr/games/gnugo") else shutil.which("gnugo")
# In CI GNU Go is installed first, so its absence there is a failure, not a skip.
if GNUGO is None and os.environ.get("CI"):
    raise RuntimeError("GNU Go is required for the oracle tests in CI")


def run_oracle(*args: str) -> "tuple[int, str]":
    process = subprocess.run(
        [sys.executable, ORACLE, *args], capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL
    )
    return process.returncode, process.stdout + process.stderr


@unittest.skipIf(GNUGO is None, "GNU Go is not installed")
class Oracle(unittest.TestCase):
    def test_honest_engine_passes_and_superko_differences_are_allowed(self):
        status, output = run_oracle("--engine", FAKE_GO, "--games", "30", "--sizes", "5,7", "--seed", "3")
        self.assertEqual(status, 0, output)
        self.assertIn("final scores compared 30", output)
        # Seed 3 is known to reach positions where GNU Go allows a superko move.
        self.assertNotIn("superko differences: 0 positions", output)

    def test_gnugo_agrees_with_itself(self):
        status, output = run_oracle(
            "--engine", f"{GNUGO} --mode gtp", "--simple-ko-engine", "--no-score-check",
            "--games", "5", "--sizes", "5,9,19", "--seed", "2",
        )  # fmt: skip
        self.assertEqual(status, 0, output)

    def test_every_kind_of_lie_is_caught(self):
        for lie in ("all_legal-drop", "all_legal-add", "list_stones", "captures", "final_score", "superko"):
            with self.subTest(lie=lie):
                status, output = run_oracle(
                    "--engine", f"{FAKE_GO} --lie {lie} --lie-after 5", "--games", "40", "--sizes", "5,7", "--seed", "3"
                )
                self.assertEqual(status, 1, output)
                self.assertIn("ORACLE DISAGREEMENT", output)

    def test_crashing_engine_is_a_failure(self):
        status, output = run_oracle("--engine", f"{FAKE_GO} --misbehave crash", "--games", "1")
        self.assertEqual(status, 0, output)  # the oracle never asks for genmove
        status, output = run_oracle("--engine", "/bin/false", "--games", "1")
        self.assertEqual(status, 1, output)
        self.assertIn("ORACLE ENGINE FAILURE", output)


if __name__ == "__main__":
    unittest.main()
