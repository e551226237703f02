"""scripts/compare: pairing two matches' games and the sign test."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scriptload import load_script  # noqa: E402

compare = load_script("compare")


def summary(seed, results, first_game=1):
    """A match summary in `scripts/match`'s JSON shape: engine 1 is Black in
    odd games; `results` are the result strings in game order, from game
    `first_game` on (a part of a match, `--first-game`)."""
    games = []
    for i, result in enumerate(results, start=first_game - 1):
        black, white = (1, 2) if i % 2 == 0 else (2, 1)
        reason = "aborted" if result == "Void" else "score"
        games.append({"game": i + 1, "black": black, "white": white, "result": result, "reason": reason})
    return {"match": {"seed": seed, "first_game": first_game}, "results": games}


def write_summaries(directory, documents, prefix="match"):
    """Each document written as match output into its own file; their paths."""
    paths = []
    for number, doc in enumerate(documents):
        path = os.path.join(directory, f"{prefix}-{number}.txt")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("game 1/2: ...\nsome summary text\n" + json.dumps(doc) + "\n")
        paths.append(path)
    return paths


class CompareTest(unittest.TestCase):
    def test_points_follow_colours_draws_and_aborted_games(self):
        s = summary(5, ["B+R", "B+3", "0", "Void"])
        self.assertEqual(compare.points_by_game(s, 1), {1: 1.0, 2: 0.0, 3: 0.5})
        self.assertEqual(compare.points_by_game(s, 2), {1: 0.0, 2: 1.0, 3: 0.5})

    def test_pairs_count_only_games_played_in_both(self):
        a = summary(7, ["B+R", "B+R", "W+2", "0", "B+1"])
        b = summary(7, ["B+R", "W+R", "B+2", "B+R", "Void"])
        report = compare.compare(a, b, 1)
        # Game 1 the same; 2 and 3 better in B; 4 (draw, then a loss) better in A.
        self.assertEqual((report["pairs"], report["b_better"], report["a_better"], report["same"]), (4, 2, 1, 1))
        self.assertAlmostEqual(report["a_score"], 1.5 / 4)
        self.assertAlmostEqual(report["b_score"], 3 / 4)
        self.assertAlmostEqual(report["difference"], 1.5 / 4)

    def test_games_with_other_colours_are_not_pairs(self):
        a = summary(3, ["B+R", "W+R"])
        b = summary(3, ["B+R", "W+R"])
        b["results"][1]["black"], b["results"][1]["white"] = 1, 2
        with self.assertRaises(ValueError):
            compare.compare(a, b, 1)

    def test_one_pair_has_no_interval(self):
        report = compare.compare(summary(3, ["B+R"]), summary(3, ["W+R"]), 1)
        self.assertEqual((report["pairs"], report["difference_ci95"]), (1, None))
        self.assertIn("no interval", compare.summary_text(report))

    def test_sign_test_is_exact(self):
        self.assertEqual(compare.sign_test(0, 0), 1.0)
        self.assertEqual(compare.sign_test(3, 3), 1.0)
        self.assertAlmostEqual(compare.sign_test(5, 0), 2 / 32)
        # 23 against 13: P(X <= 13) for Binomial(36, 1/2), doubled.
        self.assertAlmostEqual(compare.sign_test(23, 13), 0.1325, places=4)

    def test_cli_reads_match_output_and_refuses_bad_files(self):
        a = summary(9, ["B+R", "B+R"])
        b = summary(9, ["W+R", "B+R"])
        with tempfile.TemporaryDirectory() as tmp:
            paths = write_summaries(tmp, [a, b])
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(compare.main(paths), 0)
            report = json.loads(out.getvalue().strip().splitlines()[-1])
            self.assertEqual((report["a_better"], report["b_better"]), (1, 0))
            empty = os.path.join(tmp, "empty.txt")
            open(empty, "w", encoding="utf-8").close()
            with contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(compare.main([paths[0], empty]), 2)

    def test_parts_of_a_match_are_joined(self):
        a = summary(9, ["B+R", "B+R", "W+R", "B+R"])
        parts = [summary(9, ["W+R", "B+R"]), summary(9, ["W+R", "W+R"], first_game=3)]
        with tempfile.TemporaryDirectory() as tmp:
            path_a, *path_b = write_summaries(tmp, [a, *parts])
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(compare.main([path_a, ",".join(path_b)]), 0)
            report = json.loads(out.getvalue().strip().splitlines()[-1])
            # Game 1 worse in B, 2 and 3 the same, 4 (engine 1 White) better.
            self.assertEqual((report["pairs"], report["a_better"], report["b_better"]), (4, 1, 1))
            # A game in two parts, or parts of different seeds, are not one match.
            again, other_seed = write_summaries(
                tmp, [summary(9, ["B+R"], first_game=2), summary(8, ["B+R"], first_game=5)], prefix="bad"
            )
            for bad in (again, other_seed):
                with self.assertRaises(ValueError):
                    compare.load_parts(",".join([*path_b, bad]))


if __name__ == "__main__":
    unittest.main()
