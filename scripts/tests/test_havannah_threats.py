"""scripts/havannah-threats: reading the positions, asking the engine, counting saving moves."""

import contextlib
import io
import json
import os
import shlex
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scriptload import load_script  # noqa: E402

threats = load_script("havannah-threats")

HERE = os.path.dirname(os.path.abspath(__file__))
# `--misbehave occupied` makes the fake engine answer genmove with the first
# cell played: a fixed, known move.
FAKE = (f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'fixtures', 'fake_htp_engine.py'))}"
        " --swap --misbehave occupied --seed {seed}")
REPO_DATA = os.path.join(HERE, "..", "..", "tests", "data", "havannah", "double-threats.txt")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = threats.main(list(argv))
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()


class HavannahThreatsTest(unittest.TestCase):
    def data(self, text):
        handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        handle.write(text)
        handle.close()
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def test_counts_the_tries_that_play_a_saving_cell(self):
        path = self.data("# a comment\nhit 8 h8,a1 h8 a2 b3\nmiss 8 c3 h8 a2\n")
        code, out, _ = run("--engine", FAKE, "--data", path, "--seeds", "3")
        self.assertEqual(code, 0)
        summary = json.loads(out.strip().splitlines()[-1])
        self.assertEqual((summary["saved"], summary["tries"], summary["positions_at_9_of_10"]), (3, 6, 1))
        hit, miss = summary["positions"]
        self.assertEqual((hit["name"], hit["saved"], hit["moves"]), ("hit", 3, ["h8"] * 3))
        self.assertEqual((miss["name"], miss["saved"]), ("miss", 0))
        code, out, _ = run("--engine", FAKE, "--data", path, "--seeds", "1", "--only", "miss")
        self.assertEqual(json.loads(out.strip().splitlines()[-1])["tries"], 1)

    def test_a_bad_data_file_is_an_error_not_a_crash(self):
        for text in ("", "# only comments\n", "name notasize a1 a2\n", "short 8\n"):
            code, _, err = run("--engine", FAKE, "--data", self.data(text))
            self.assertEqual(code, 2, text)
            self.assertIn("havannah-threats:", err)
        code, _, err = run("--engine", FAKE, "--data", "/nonexistent/positions.txt")
        self.assertEqual(code, 2)

    def test_the_repository_positions_parse(self):
        positions = threats.read_positions(REPO_DATA)
        self.assertEqual(len(positions), 10)
        for p in positions:
            self.assertEqual(p["size"], 8)
            self.assertTrue(p["saving"])


if __name__ == "__main__":
    unittest.main()
