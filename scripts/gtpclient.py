"""A small, robust GTP/HTP client: one engine subprocess, line framing, timeouts.

Used by scripts/match and the oracles. Standard library only.

The protocol (GTP 2, and Castro's HTP which frames replies the same way): the
controller writes one command per line; the engine answers `=[id] text` or
`?[id] text`, possibly over several lines, and ends the reply with an empty
line. We send commands without ids (some HTP engines reject them).

Robustness rules, because an engine under test may misbehave in any way:
- every reply is read with a deadline (a reader thread feeds a queue), so a
  hung engine raises `GtpTimeout` instead of blocking the caller forever;
- after a timeout or a framing error the stream is out of step, so the client
  marks itself broken and refuses further commands; the caller closes it;
- the engine runs in its own session (process group), so `close()` can end the
  whole tree it spawned (shell wrappers included) and nothing outlives us;
- stderr is drained continuously (a full pipe would stall the engine) and its
  last lines are kept for error reports.
"""

from __future__ import annotations

import atexit
import collections
import os
import queue
import shlex
import shutil
import signal
import subprocess
import threading
import time

__all__ = [
    "GtpClient",
    "GtpFailure",
    "GtpEngineError",
    "GtpTimeout",
    "GtpEngineDied",
    "GtpProtocolError",
    "close_all_clients",
]


class GtpFailure(Exception):
    """Base class: the command did not produce a successful reply."""


class GtpEngineError(GtpFailure):
    """The engine answered `? text`. The engine is still usable."""


class GtpTimeout(GtpFailure):
    """No complete reply within the deadline. The client is now broken."""


class GtpEngineDied(GtpFailure):
    """The engine exited (or closed stdout) before replying."""


class GtpProtocolError(GtpFailure):
    """The engine wrote something that is not a GTP reply."""


# Every live client, so an interrupted run can still end its engines.
_LIVE_CLIENTS: "set[GtpClient]" = set()
_LIVE_LOCK = threading.Lock()

# Seconds granted to an engine to exit by itself after `quit`, then after SIGTERM.
QUIT_GRACE_S = 2.0
TERM_GRACE_S = 2.0
# Stderr lines kept for error messages.
STDERR_TAIL_LINES = 40


def close_all_clients() -> None:
    """Ends every engine still running (atexit and signal handlers call this)."""
    with _LIVE_LOCK:
        clients = list(_LIVE_CLIENTS)
    for client in clients:
        client.kill()


atexit.register(close_all_clients)


def split_command(command: "str | list[str]") -> "list[str]":
    """A command line as argv; raises ValueError when it cannot be run."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("empty engine command")
    program = argv[0]
    if os.sep in program:
        if not (os.path.isfile(program) and os.access(program, os.X_OK)):
            raise ValueError(f"engine program {program!r} is not an executable file")
    elif shutil.which(program) is None:
        raise ValueError(f"engine program {program!r} not found on PATH")
    return argv


class GtpClient:
    """One engine process spoken to over GTP.

    `send()` returns the reply text (without the `=` and id) or raises one of
    the `GtpFailure` subclasses. Use as a context manager, or call `close()`.
    """

    def __init__(
        self,
        command: "str | list[str]",
        label: str = "engine",
        cwd: "str | None" = None,
        env: "dict | None" = None,
        stderr_path: "str | None" = None,
    ):
        self.label = label
        self.argv = split_command(command)
        self.command_line = command if isinstance(command, str) else shlex.join(command)
        self.stderr_tail: "collections.deque[str]" = collections.deque(maxlen=STDERR_TAIL_LINES)
        self.junk_lines: "list[str]" = []  # stdout lines outside any reply
        self.broken: "str | None" = None  # why the stream can no longer be trusted
        self._known_commands: "set[str] | None" = None
        self._lines: "queue.Queue[str | None]" = queue.Queue()
        self._stderr_file = open(stderr_path, "ab") if stderr_path else None
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except OSError as error:
            if self._stderr_file:
                self._stderr_file.close()
            raise GtpEngineDied(f"{label}: cannot start {self.command_line!r}: {error}") from error
        with _LIVE_LOCK:
            _LIVE_CLIENTS.add(self)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # -- context manager ------------------------------------------------------

    def __enter__(self) -> "GtpClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- reader threads -------------------------------------------------------

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            for raw in iter(stream.readline, b""):
                self._lines.put(raw.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass  # closed under us by kill()
        self._lines.put(None)  # end of stream

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        try:
            for raw in iter(stream.readline, b""):
                if self._stderr_file:
                    try:
                        self._stderr_file.write(raw)
                        self._stderr_file.flush()
                    except (OSError, ValueError):
                        pass
                self.stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip("\n"))
        except (OSError, ValueError):
            pass  # closed under us by kill()

    # -- state ----------------------------------------------------------------

    def alive(self) -> bool:
        return self.process.poll() is None

    def describe_exit(self) -> str:
        code = self.process.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exited with status {code}"

    def stderr_excerpt(self, lines: int = 8) -> str:
        tail = list(self.stderr_tail)[-lines:]
        return "\n".join("    " + line for line in tail)

    # -- commands -------------------------------------------------------------

    def send(self, command: str, timeout: "float | None" = 60.0) -> str:
        """Sends one command, returns the reply text.

        `timeout` (seconds, None for no limit) covers the whole reply.
        """
        if self.broken:
            raise GtpProtocolError(f"{self.label}: not usable any more ({self.broken})")
        command = command.strip()
        if "\n" in command:
            raise ValueError("a GTP command is one line")
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(command.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as error:
            self.broken = "engine stdin closed"
            raise GtpEngineDied(self._died_message(command)) from error
        return self._read_reply(command, timeout)

    def _next_line(self, command: str, deadline: "float | None") -> str:
        try:
            if deadline is None:
                line = self._lines.get()
            else:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.broken = f"no reply to {command!r} in time"
            raise GtpTimeout(f"{self.label}: no reply to {command!r} in time") from None
        if line is None:
            self._lines.put(None)  # keep reporting end of stream
            self.broken = "engine closed stdout"
            raise GtpEngineDied(self._died_message(command))
        # GTP: CR is discarded, HT becomes a space.
        return line.rstrip("\n").replace("\r", "").replace("\t", " ")

    def _read_reply(self, command: str, timeout: "float | None") -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        line = self._next_line(command, deadline)
        # Tolerate blank lines and stray output before the reply starts.
        while not line or line[0] not in "=?":
            if line.strip():
                self.junk_lines.append(line)
                if len(self.junk_lines) > 1000:
                    self.broken = "too much output that is not GTP"
                    raise GtpProtocolError(f"{self.label}: writes non-GTP output: {line[:80]!r}")
            line = self._next_line(command, deadline)
        success = line[0] == "="
        rest = line[1:]
        digits = len(rest) - len(rest.lstrip("0123456789"))
        body = [rest[digits:].strip()]
        while True:
            line = self._next_line(command, deadline)
            if not line.strip():
                break
            body.append(line.strip())
        text = "\n".join(body).strip()
        if not success:
            raise GtpEngineError(f"{self.label}: {command!r} failed: ? {text}")
        return text

    def _died_message(self, command: str) -> str:
        # Give the process a moment so the exit status is known.
        try:
            self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        message = f"{self.label}: engine died on {command!r} ({self.describe_exit()})"
        excerpt = self.stderr_excerpt()
        return message + ("\n  last stderr lines:\n" + excerpt if excerpt else "")

    def known_commands(self, timeout: float = 30.0) -> "set[str]":
        """The engine's `list_commands`, cached (empty set if it fails)."""
        if self._known_commands is None:
            try:
                self._known_commands = set(self.send("list_commands", timeout).split())
            except GtpEngineError:
                self._known_commands = set()
        return self._known_commands

    def supports(self, command: str) -> bool:
        return command in self.known_commands()

    def identity(self, timeout: float = 30.0) -> str:
        """`name version`, or the program's file name when the engine has no name."""
        parts = []
        for command in ("name", "version"):
            try:
                reply = self.send(command, timeout).splitlines()
                if reply and reply[0].strip():
                    parts.append(reply[0].strip())
            except GtpEngineError:
                pass
        return " ".join(parts) if parts else os.path.basename(self.argv[0])

    # -- shutdown -------------------------------------------------------------

    def close(self) -> None:
        """Asks the engine to quit, then ends its process group if it lingers."""
        if self.alive() and not self.broken:
            try:
                self.send("quit", timeout=QUIT_GRACE_S)
                self.process.wait(timeout=QUIT_GRACE_S)
            except (GtpFailure, subprocess.TimeoutExpired):
                pass
        self.kill()

    def kill(self) -> None:
        """Ends the engine and everything it started, without asking."""
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(timeout=TERM_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        self._signal_group(signal.SIGKILL)
        try:
            self.process.wait(timeout=TERM_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                if stream:
                    stream.close()
            except OSError:
                pass
        if self._stderr_file:
            try:
                self._stderr_file.close()
            except OSError:
                pass
        with _LIVE_LOCK:
            _LIVE_CLIENTS.discard(self)

    def _signal_group(self, sig: int) -> None:
        # The engine leads its own process group (start_new_session), so the
        # group id is its pid. Signal the group even when the leader already
        # exited: a shell wrapper may have left children behind.
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
