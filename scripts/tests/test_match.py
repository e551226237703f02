"""scripts/match end to end, with the fake engines of tests/fixtures."""

import contextlib
import io
import json
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
sys.path.insert(0, SCRIPTS)
sys.path.insert(0, HERE)

from matchreport import hgf_cell, wilson_interval  # noqa: E402
from scriptload import load_script  # noqa: E402

MATCH = os.path.join(SCRIPTS, "match")
PYTHON = shlex.quote(sys.executable)
FAKE_GO = f"{PYTHON} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_go_engine.py'))}"
FAKE_HTP = f"{PYTHON} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_htp_engine.py'))}"


def load_match_module():
    return load_script("match")


def run_match(*args: str) -> "tuple[int, str, dict]":
    """Runs scripts/match; returns (exit status, text output, parsed JSON line)."""
    process = subprocess.run(
        [sys.executable, MATCH, "--referee", "none", *args],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    lines = process.stdout.strip().splitlines()
    document = json.loads(lines[-1]) if lines and lines[-1].startswith("{") else {}
    return process.returncode, process.stdout + process.stderr, document


class Statistics(unittest.TestCase):
    def test_wilson_interval(self):
        low, high = wilson_interval(5, 10)
        self.assertAlmostEqual(low, 0.2366, places=3)
        self.assertAlmostEqual(high, 0.7634, places=3)
        low, high = wilson_interval(0, 4)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, 0.4899, places=3)
        self.assertEqual(wilson_interval(0, 0), (0.0, 1.0))


class Options(unittest.TestCase):
    def test_time_per_move_sets_the_loss_on_time_limit(self):
        match = load_match_module()
        args = match.parse_args(["--engine1", "a", "--engine2", "b", "--time-per-move", "2"])
        self.assertEqual(args.move_timeout, 11.0)
        args = match.parse_args(["--black", "a", "--white", "b", "--game", "havannah"])
        self.assertEqual(args.size, 8)
        self.assertEqual(args.max_moves, 169)
        self.assertIsNone(args.referee)

    def test_engines_are_required(self):
        match = load_match_module()
        for argv in (["--engine1", "a"], ["--engine1", "a", "--black", "b", "--engine2", "c"]):
            with contextlib.redirect_stderr(io.StringIO()) as errors, self.assertRaises(SystemExit):
                match.parse_args(argv)
            self.assertIn("engine", errors.getvalue())


class GoMatches(unittest.TestCase):
    def test_complete_games_are_scored_and_summarised(self):
        with tempfile.TemporaryDirectory() as sgf_dir:
            status, output, document = run_match(
                "--engine1", f"{FAKE_GO} --seed {{seed}}",
                "--engine2", f"{FAKE_GO} --name Other --seed {{seed}}",
                "--games", "3", "--size", "5", "--komi", "0.5", "--seed", "4", "--jobs", "2",
                "--sgf-dir", sgf_dir,
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            self.assertEqual(document["games"], 3)
            one, two = document["engines"]
            self.assertEqual(one["name"], "FakeGo 0.1")
            self.assertEqual(one["wins"] + two["wins"], 3)  # half komi: no draws
            self.assertEqual([r["black"] for r in document["results"]], [1, 2, 1])
            self.assertTrue(all(r["reason"] == "score" for r in document["results"]))
            self.assertTrue(all(r["scored_by"] == "engines" for r in document["results"]))
            files = sorted(os.listdir(sgf_dir))
            self.assertEqual(files, ["game-0001.sgf", "game-0002.sgf", "game-0003.sgf"])
            with open(os.path.join(sgf_dir, files[1]), encoding="utf-8") as handle:
                sgf = handle.read()
            for prop in ("SZ[5]", "KM[0.5]", "PB[Other 0.1]", "PW[FakeGo 0.1]", f"RE[{document['results'][1]['result']}]"):
                self.assertIn(prop, sgf)
            self.assertIn("95% CI", output)

    def test_forfeits_are_attributed_and_the_match_goes_on(self):
        cases = {
            "crash": ("crash_losses", "--move-timeout", "30"),
            "error": ("error_losses", "--move-timeout", "30"),
            "illegal": ("illegal_losses", "--move-timeout", "30"),
            "hang": ("time_losses", "--move-timeout", "1"),
        }
        for mode, (counter, *extra) in cases.items():
            with self.subTest(mode=mode):
                status, output, document = run_match(
                    "--engine1", f"{FAKE_GO} --misbehave {mode} --misbehave-after 4",
                    "--engine2", FAKE_GO, "--games", "2", "--size", "5", "--fail-on-forfeit", *extra,
                )  # fmt: skip
                self.assertEqual(status, 1, output)
                bad, good = document["engines"]
                self.assertEqual(bad[counter], 2, output)
                self.assertEqual(good["wins"], 2)
                self.assertEqual([r["forfeit_by"] for r in document["results"]], [1, 1])

    def logs_of_two_jobs(self, log1: str, log2: str) -> "list[str]":
        """The log files that 4 games in 2 jobs write, each engine logging to the
        file named by its (placeholder-filled) `log1` / `log2`."""
        with tempfile.TemporaryDirectory() as tmp:
            status, output, _ = run_match(
                "--engine1", f"{FAKE_GO} --log {tmp}/{log1}",
                "--engine2", f"{FAKE_GO} --log {tmp}/{log2}",
                "--games", "4", "--size", "5", "--jobs", "2",
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            return sorted(os.listdir(tmp))

    def test_job_slots_fill_in_job_placeholders(self):
        # Two workers: slots 0 and 1 (the name check runs as slot 0);
        # modulo 1 every slot is 0.
        self.assertEqual(self.logs_of_two_jobs("one-{job}", "two-{job%1}"), ["one-0", "one-1", "two-0"])

    def test_core_ranges_are_the_slots_own(self):
        self.assertEqual(
            self.logs_of_two_jobs("one-{cores:4}", "two-{cores:1}-{job}"),
            ["one-0-3", "one-4-7", "two-0-0-0", "two-1-1-1"],
        )

    def test_a_part_of_a_match_plays_that_matchs_games(self):
        # Games 3 and 4 of the match with seed 10: engine1's seeds 10+2*2 and
        # 10+2*3, engine2's one more; engine1 is Black in odd games. (The
        # name check runs once per engine with seed 1.)
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as sgf_dir:
            status, output, document = run_match(
                "--engine1", f"{FAKE_GO} --log {tmp}/one-{{seed}}",
                "--engine2", f"{FAKE_GO} --log {tmp}/two-{{seed}}",
                "--games", "2", "--first-game", "3", "--seed", "10", "--size", "5", "--sgf-dir", sgf_dir,
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            self.assertEqual(sorted(os.listdir(tmp)), ["one-1", "one-14", "one-16", "two-1", "two-15", "two-17"])
            self.assertEqual(sorted(os.listdir(sgf_dir)), ["game-0003.sgf", "game-0004.sgf"])
        self.assertEqual([(r["game"], r["black"]) for r in document["results"]], [(3, 1), (4, 2)])
        self.assertEqual(document["match"]["first_game"], 3)
        self.assertIn("game 4/4:", output)
        self.assertIn("games 3-4", output)

    def test_a_part_needs_the_matchs_seed(self):
        status, output, _ = run_match("--engine1", FAKE_GO, "--engine2", FAKE_GO, "--first-game", "3")
        self.assertEqual(status, 2)
        self.assertIn("--first-game needs --seed", output)

    def test_disagreeing_scores_go_to_the_fallback_scorer(self):
        status, output, document = run_match(
            "--engine1", FAKE_GO, "--engine2", f"{FAKE_GO} --lie final_score", "--games", "1", "--size", "5",
        )  # fmt: skip
        self.assertEqual(status, 0, output)
        self.assertEqual(document["results"][0]["scored_by"], "tromp-taylor")

    def test_time_settings_are_sent_as_canadian_one_stone(self):
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "commands.log")
            status, output, _ = run_match(
                "--engine1", f"{FAKE_GO} --log {shlex.quote(log)}", "--engine2", FAKE_GO,
                "--games", "1", "--size", "5", "--time-per-move", "3", "--seed", "9",
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            with open(log, encoding="utf-8") as handle:
                commands = handle.read().splitlines()
            self.assertIn("time_settings 0 3 1", commands)
            self.assertIn("set_random_seed 9", commands)
            self.assertIn("komi 7.5", commands)


class HavannahMatches(unittest.TestCase):
    def test_white_moves_first_and_winner_is_recorded(self):
        status, output, document = run_match(
            "--game", "havannah", "--engine1", f"{FAKE_HTP} --win-after 7", "--engine2", f"{FAKE_HTP} --win-after 7",
            "--games", "2",
        )  # fmt: skip
        self.assertEqual(status, 0, output)
        # Move 7 is White's (White moves first), and engine1 is White in game 1.
        self.assertEqual([r["result"] for r in document["results"]], ["W+", "W+"])
        self.assertEqual([r["white"] for r in document["results"]], [1, 2])
        self.assertEqual(document["engines"][0]["wins"], 1)

    def test_records_use_littlegolem_cells(self):
        # lg-interface.rb's check: Castro's F5 is hgf F3 on side 4; rows down to the middle keep the number.
        self.assertEqual(hgf_cell("f5", 4), "F3")
        self.assertEqual(hgf_cell("d7", 4), "D7")
        self.assertEqual(hgf_cell("m14", 8), "M9")
        self.assertEqual(hgf_cell("swap", 8), "swap")
        with tempfile.TemporaryDirectory() as sgf_dir:
            status, output, _ = run_match(
                "--game", "havannah", "--engine1", f"{FAKE_HTP} --win-after 7", "--engine2", FAKE_HTP,
                "--games", "1", "--sgf-dir", sgf_dir,
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            with open(os.path.join(sgf_dir, "game-0001.hgf"), encoding="utf-8") as handle:
                moves = [line[3:-1] for line in handle.read().splitlines() if line.startswith(";")]
            self.assertEqual(len(moves), 7)
            self.assertTrue(all(m[0].isupper() for m in moves), moves)

    def test_draw_and_occupied_cell(self):
        status, output, document = run_match(
            "--game", "havannah", "--engine1", f"{FAKE_HTP} --draw --win-after 5",
            "--engine2", f"{FAKE_HTP} --draw --win-after 5", "--games", "1",
        )  # fmt: skip
        self.assertEqual(document["results"][0]["result"], "0", output)
        status, output, document = run_match(
            "--game", "havannah", "--engine1", FAKE_HTP,
            "--engine2", f"{FAKE_HTP} --misbehave occupied --misbehave-after 3", "--games", "1",
        )  # fmt: skip
        self.assertEqual(document["engines"][1]["illegal_losses"], 1, output)

    def test_swap_rule_is_sent_to_engines_that_list_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            logs = [os.path.join(tmp, f"{name}.log") for name in ("listed", "unlisted", "on")]
            status, output, _ = run_match(
                "--game", "havannah", "--engine1", f"{FAKE_HTP} --swap --log {shlex.quote(logs[0])}",
                "--engine2", f"{FAKE_HTP} --log {shlex.quote(logs[1])}", "--games", "1",
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            status, output, _ = run_match(
                "--game", "havannah", "--engine1", f"{FAKE_HTP} --swap --log {shlex.quote(logs[2])}",
                "--engine2", FAKE_HTP, "--games", "1", "--swap", "on",
            )  # fmt: skip
            self.assertEqual(status, 0, output)
            commands = []
            for path in logs:
                with open(path, encoding="utf-8") as handle:
                    commands.append(handle.read().splitlines())
        self.assertIn("swap 0", commands[0])
        self.assertFalse(any(c.startswith("swap") for c in commands[1]), commands[1])
        self.assertIn("swap 1", commands[2])

    def test_cell_the_opponent_refuses_is_the_movers_fault(self):
        status, output, document = run_match(
            "--game", "havannah", "--engine1", f"{FAKE_HTP} --misbehave offboard --misbehave-after 2",
            "--engine2", FAKE_HTP, "--games", "1",
        )  # fmt: skip
        self.assertEqual(document["results"][0]["forfeit_by"], 1, output)
        self.assertIn("refused by the opponent", output)


if __name__ == "__main__":
    unittest.main()
