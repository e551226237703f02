"""The GTP client: framing, failures, timeouts and process cleanup."""

import os
import shlex
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from gtpclient import (  # noqa: E402
    GtpClient,
    GtpEngineDied,
    GtpEngineError,
    GtpProtocolError,
    GtpTimeout,
)

FAKE_GO = os.path.join(HERE, "fixtures", "fake_go_engine.py")
PYTHON = shlex.quote(sys.executable)


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); look at its state.
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


class ScriptEngine:
    """A throw-away engine written to a temporary file."""

    def __init__(self, source: str):
        handle = tempfile.NamedTemporaryFile("w", suffix=".py", delete=False)
        handle.write(textwrap.dedent(source))
        handle.close()
        self.path = handle.name
        self.command = f"{PYTHON} {shlex.quote(self.path)}"

    def remove(self):
        os.unlink(self.path)


class Framing(unittest.TestCase):
    def test_replies_and_multi_line_replies(self):
        with GtpClient(f"{PYTHON} {FAKE_GO}") as client:
            self.assertEqual(client.send("name"), "FakeGo")
            self.assertEqual(client.send("boardsize 5"), "")
            commands = client.send("list_commands").splitlines()
            self.assertIn("genmove", commands)
            self.assertTrue(client.supports("all_legal"))
            self.assertEqual(client.identity(), "FakeGo 0.1")

    def test_error_reply_raises_and_engine_stays_usable(self):
        with GtpClient(f"{PYTHON} {FAKE_GO}") as client:
            with self.assertRaises(GtpEngineError) as raised:
                client.send("no_such_command")
            self.assertIn("unknown command", str(raised.exception))
            self.assertEqual(client.send("name"), "FakeGo")

    def test_ids_tabs_carriage_returns_and_junk_are_tolerated(self):
        engine = ScriptEngine(
            """
            import sys
            print("banner the engine should not print", flush=True)
            for line in sys.stdin:
                if line.startswith("quit"):
                    break
                sys.stdout.write("=7 two\\twords\\r\\nsecond line\\r\\n\\r\\n")
                sys.stdout.flush()
            """
        )
        try:
            with GtpClient(engine.command) as client:
                self.assertEqual(client.send("anything"), "two words\nsecond line")
                self.assertEqual(client.junk_lines, ["banner the engine should not print"])
        finally:
            engine.remove()


class Failures(unittest.TestCase):
    def test_timeout_marks_client_broken(self):
        with GtpClient(f"{PYTHON} {FAKE_GO} --misbehave hang") as client:
            client.send("boardsize 5")
            with self.assertRaises(GtpTimeout):
                client.send("genmove b", timeout=0.5)
            with self.assertRaises(GtpProtocolError):
                client.send("name")
            pid = client.process.pid
        self.assertFalse(process_exists(pid))

    def test_crash_is_reported_with_exit_status(self):
        with GtpClient(f"{PYTHON} {FAKE_GO} --misbehave crash") as client:
            with self.assertRaises(GtpEngineDied) as raised:
                client.send("genmove b")
            self.assertIn("status 3", str(raised.exception))

    def test_missing_program_is_a_value_error(self):
        with self.assertRaises(ValueError):
            GtpClient("/nonexistent/engine --flag")
        with self.assertRaises(ValueError):
            GtpClient("")


class Cleanup(unittest.TestCase):
    def test_close_ends_children_of_a_wrapper(self):
        # The engine is a shell that starts a helper process, then execs the engine.
        command = ["sh", "-c", f"sleep 300 & echo helper $! >&2; exec {PYTHON} {shlex.quote(FAKE_GO)}"]
        client = GtpClient(command)
        self.assertEqual(client.send("name"), "FakeGo")
        deadline = time.monotonic() + 5
        while not any(line.startswith("helper ") for line in client.stderr_tail):
            self.assertLess(time.monotonic(), deadline, "helper pid never appeared")
            time.sleep(0.05)
        helper = int(next(line for line in client.stderr_tail if line.startswith("helper ")).split()[1])
        self.assertTrue(process_exists(helper))
        client.close()
        deadline = time.monotonic() + 5
        while process_exists(helper) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(process_exists(helper))
        self.assertFalse(process_exists(client.process.pid))


if __name__ == "__main__":
    unittest.main()
