"""Shared vocabulary of scripts/match: configuration, game results, forfeits.

A game is played by fresh engine processes (started for the game, ended after
it), so a crash, hang or confused state never leaks into the next game and
per-game seeds are exact. Anything an engine does wrong is turned into a
`Forfeit` naming the culprit; the game loop catches it and the culprit loses.
"""

from __future__ import annotations

import dataclasses
import os
import re
import threading
import time
from typing import Callable

from gtpclient import GtpClient, GtpEngineDied, GtpEngineError, GtpFailure, GtpProtocolError, GtpTimeout

# How a game can end; the forfeit kinds are counted per engine in the summary.
FORFEIT_KINDS = ("time", "illegal", "crash", "error")
# Seconds allowed for commands that need no thinking (setup, play, final_score).
COMMAND_TIMEOUT_S = 60.0


class JobSlots:
    """Numbers the match's worker threads 0, 1, ... in the order they first ask.

    Each worker plays its games one after another, so a worker's number is a
    job slot: at most one game at a time has it. `{job}` in an engine command
    is that number, so that games played side by side can be given separate
    resources (`warpstone --gpus {job}` with one job per GPU).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next = 0
        self._mine = threading.local()

    def current(self) -> int:
        slot = getattr(self._mine, "slot", None)
        if slot is None:
            with self._lock:
                slot = self._next
                self._next += 1
            self._mine.slot = slot
        return slot


JOB_PATTERN = re.compile(r"\{job(?:%([1-9][0-9]*))?\}")
# {cores:N}: the job slot's own N CPU cores as a range for `taskset -c`, so
# that engines of games played side by side do not compete for cores (on a
# 4-GPU, 64-core machine `--jobs 4` and `taskset -c {cores:16} ... --gpus
# {job}` gives each game what one GPU machine of 16 cores would have).
CORES_PATTERN = re.compile(r"\{cores:([1-9][0-9]*)\}")


def core_range(job: int, count: int) -> str:
    """CPU cores job*count to job*count+count-1, written as `taskset -c` takes them."""
    return f"{job * count}-{job * count + count - 1}"


def substitute(command: str, seed: int, job: int) -> str:
    """`command` with {seed}, {job} (or {job%N}: the job slot modulo N) and {cores:N} filled in."""
    command = command.replace("{seed}", str(seed))
    command = CORES_PATTERN.sub(lambda m: core_range(job, int(m.group(1))), command)
    return JOB_PATTERN.sub(lambda m: str(job % int(m.group(1))) if m.group(1) else str(job), command)


@dataclasses.dataclass
class EngineSpec:
    key: int  # 1 or 2: engine1 / engine2
    command: str
    name: str = ""  # from `name` + `version`, made unique in the match


@dataclasses.dataclass
class MatchConfig:
    game: str  # "go", "havannah" or "connect4"
    size: int
    komi: float
    games: int
    time_per_move: "float | None"  # seconds, Canadian byo-yomi of 1 stone; None: engines' own flags
    move_timeout: float  # seconds before a genmove counts as lost on time
    max_moves: int
    referee: "str | None"  # Go referee command line
    seed: int
    alternate: bool
    engines: "tuple[EngineSpec, EngineSpec]"
    engine1_black_in_game1: bool = True
    stderr_dir: "str | None" = None  # save engines' stderr per game here
    first_game: int = 1  # 1-based number of the first game played (--first-game)
    swap: bool = False  # Havannah swap rule (--swap), sent to engines that list `swap`
    stop: threading.Event = dataclasses.field(default_factory=threading.Event)
    job_slots: JobSlots = dataclasses.field(default_factory=JobSlots)

    def game_indices(self) -> range:
        """0-based indices of the games this run plays: a part of a longer
        match starts at `first_game - 1`, so seeds and colours are that match's."""
        return range(self.first_game - 1, self.last_game())

    def last_game(self) -> int:
        """1-based number of the last game this run plays."""
        return self.first_game - 1 + self.games

    def part_text(self) -> str:
        """", games N-M" for a part of a longer match, else nothing."""
        return f", games {self.first_game}-{self.last_game()}" if self.first_game > 1 else ""

    def colours_of_game(self, index: int) -> "tuple[EngineSpec, EngineSpec]":
        """(black, white) for game `index` (0-based); colours swap every game when alternating."""
        first, second = self.engines
        swapped = not self.engine1_black_in_game1
        if self.alternate and index % 2 == 1:
            swapped = not swapped
        return (second, first) if swapped else (first, second)

    def engine_seed(self, index: int, spec: EngineSpec) -> int:
        return self.seed + 2 * index + (spec.key - 1)


@dataclasses.dataclass
class GameResult:
    index: int
    black: int  # engine key
    white: int
    winner: "str | None"  # "B", "W", or None for a draw / no result
    result: str  # SGF RE text: "B+3.5", "W+R", "B+T", "W+F", "0", "Void"
    reason: str  # score, resign, win, draw, time, illegal, crash, error, max-moves, aborted
    forfeit_by: "int | None" = None  # engine key that forfeited (time/illegal/crash/error)
    detail: str = ""
    moves: "list[tuple[str, str]]" = dataclasses.field(default_factory=list)  # ("B", "D4")
    scored_by: str = ""  # engines, referee, tromp-taylor (Go), or empty
    seconds: float = 0.0
    think_time: "dict[int, float]" = dataclasses.field(default_factory=lambda: {1: 0.0, 2: 0.0})
    think_moves: "dict[int, int]" = dataclasses.field(default_factory=lambda: {1: 0, 2: 0})

    def winner_key(self) -> "int | None":
        if self.winner == "B":
            return self.black
        if self.winner == "W":
            return self.white
        return None


class Forfeit(Exception):
    """An engine broke the rules of the match; it loses the game."""

    def __init__(self, key: int, kind: str, detail: str):
        super().__init__(detail)
        self.key = key
        self.kind = kind
        self.detail = detail


class Aborted(Exception):
    """The whole match is being stopped (interrupt)."""


def classify(failure: GtpFailure) -> str:
    if isinstance(failure, GtpTimeout):
        return "time"
    if isinstance(failure, GtpEngineDied):
        return "crash"
    if isinstance(failure, (GtpEngineError, GtpProtocolError)):
        return "error"
    return "error"


class Player:
    """One engine process in one game, with its time accounting."""

    def __init__(self, spec: EngineSpec, colour: str, config: MatchConfig, index: int):
        self.spec = spec
        self.key = spec.key
        self.colour = colour  # "B" or "W"
        self.config = config
        command = substitute(spec.command, config.engine_seed(index, spec), config.job_slots.current())
        stderr_path = None
        if config.stderr_dir:
            os.makedirs(config.stderr_dir, exist_ok=True)
            stderr_path = os.path.join(config.stderr_dir, f"game-{index + 1:04d}-engine{spec.key}-{colour}.stderr")
        try:
            self.client = GtpClient(command, label=f"{spec.name or spec.command} ({colour})", stderr_path=stderr_path)
        except GtpFailure as failure:
            raise Forfeit(self.key, "crash", str(failure)) from failure
        self.think_time = 0.0
        self.think_moves = 0

    def ask(self, command: str, timeout: float = COMMAND_TIMEOUT_S) -> str:
        """Sends a command; any failure is this engine's forfeit."""
        if self.config.stop.is_set():
            raise Aborted()
        try:
            return self.client.send(command, timeout)
        except GtpFailure as failure:
            if self.config.stop.is_set():
                raise Aborted() from failure
            raise Forfeit(self.key, classify(failure), str(failure)) from failure

    def genmove(self, colour_word: str) -> str:
        """`genmove`, timed against the per-move limit; the first word of the reply, lower case."""
        limit = self.config.move_timeout
        started = time.monotonic()
        try:
            reply = self.ask(f"genmove {colour_word}", timeout=limit)
        except Forfeit as forfeit:
            if forfeit.kind == "time":
                forfeit.detail = f"{self.client.label}: no move within {limit:g} s (lost on time)"
            raise
        self.think_time += time.monotonic() - started
        self.think_moves += 1
        words = reply.split()
        if not words:
            raise Forfeit(self.key, "illegal", f"{self.client.label}: empty reply to genmove")
        return words[0].lower()

    def supports(self, command: str) -> bool:
        try:
            return command in self.client.known_commands(COMMAND_TIMEOUT_S)
        except GtpFailure as failure:
            raise Forfeit(self.key, classify(failure), str(failure)) from failure

    def setup_common(self, seed: int) -> None:
        """Time settings and random seed, each only where the engine supports it."""
        t = self.config.time_per_move
        if t is not None and self.supports("time_settings"):
            # What gogui-twogtp sends for `-time 0+t/1` (converted to seconds):
            # no main time, then Canadian byo-yomi of t seconds per 1 stone.
            self.ask(f"time_settings 0 {max(1, round(t))} 1")
        if self.supports("set_random_seed"):
            self.ask(f"set_random_seed {seed}")

    def close(self) -> None:
        self.client.close()


def start_players(config: MatchConfig, index: int) -> "dict[str, Player]":
    """Starts Black's and White's engines for game `index`; ends both if either fails."""
    black_spec, white_spec = config.colours_of_game(index)
    players: "dict[str, Player]" = {}
    try:
        for colour, spec in (("B", black_spec), ("W", white_spec)):
            if config.stop.is_set():
                raise Aborted()
            players[colour] = Player(spec, colour, config, index)
    except BaseException:
        for player in players.values():
            player.close()
        raise
    return players


def forfeit_result(result: GameResult, forfeit: Forfeit) -> GameResult:
    loser = "B" if forfeit.key == result.black else "W"
    winner = "W" if loser == "B" else "B"
    letter = {"time": "T", "illegal": "F", "crash": "F", "error": "F"}.get(forfeit.kind, "F")
    result.winner = winner
    result.result = f"{winner}+{letter}"
    result.reason = forfeit.kind
    result.forfeit_by = forfeit.key
    result.detail = forfeit.detail
    return result


def record_resignation(result: GameResult, mover: Player, winner: str) -> None:
    """Ends `result` with `mover` resigning to `winner` (its colour letter)."""
    result.winner, result.result, result.reason = winner, f"{winner}+R", "resign"
    result.detail = f"{mover.client.label} resigned"


def identify(spec: EngineSpec) -> str:
    """Starts the engine once to learn its name; raises GtpFailure/ValueError if it cannot run."""
    command = substitute(spec.command, 1, 0)
    with GtpClient(command, label=f"engine{spec.key}") as client:
        return client.identity(COMMAND_TIMEOUT_S)


def play_board_game(
    config: MatchConfig,
    index: int,
    setup: "Callable[[Player], None]",
    play_moves: "Callable[[MatchConfig, dict[str, Player], list, GameResult], None]",
) -> GameResult:
    """One game of a game without a referee engine (Havannah, Hex, Connect Four):
    starts both engines, sends each `setup(player)` (board size, rules) and the
    common settings, plays `play_moves` and records the outcome, a forfeit or an
    abort; the engines are closed whatever happens."""
    black_spec, white_spec = config.colours_of_game(index)
    result = GameResult(index=index, black=black_spec.key, white=white_spec.key, winner=None, result="Void", reason="")
    moves: "list[tuple[str, str]]" = []
    started = time.monotonic()
    players: "dict[str, Player]" = {}
    try:
        players = start_players(config, index)
        for player in players.values():
            setup(player)
            player.setup_common(config.engine_seed(index, player.spec))
        play_moves(config, players, moves, result)
    except Forfeit as forfeit:
        forfeit_result(result, forfeit)
    except Aborted:
        result.reason, result.result = "aborted", "Void"
    finally:
        for player in players.values():
            result.think_time[player.key] = player.think_time
            result.think_moves[player.key] = player.think_moves
            player.close()
        result.moves = moves
        result.seconds = time.monotonic() - started
    return result


def relay_move(mover: Player, other: Player, letter: str, text: str, word: str) -> None:
    """Sends the mover's move `text` (as `word` came from it) to the opponent as
    `play`. A `?` from the opponent makes it the mover's illegal move: the
    mover produced it; the opponent's reason is kept in the forfeit's detail."""
    try:
        other.ask(f"play {letter.lower()} {text}")
    except Forfeit as forfeit:
        if forfeit.kind != "error" or not isinstance(forfeit.__cause__, GtpEngineError):
            raise
        raise Forfeit(
            mover.key, "illegal", f"{mover.client.label} played {word}, refused by the opponent: {forfeit.detail}"
        ) from None
