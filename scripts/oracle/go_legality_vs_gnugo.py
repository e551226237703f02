#!/usr/bin/env python3
"""Go rules oracle: an engine's legal moves, captures and scores against GNU Go.

Plays random games. At every position both engines are asked `all_legal
<colour to move>` and the two sets must be equal, except for the one
legitimate difference: GNU Go knows only simple ko, so it may list moves that
would recreate an earlier whole-board position (positional superko). A small
Python board (scripts/goboard.py) follows the game as a third witness: it says
which moves are superko violations and must itself agree with both engines.

After every move `list_stones black|white` and `captures black|white` must
agree three ways. Games end with two passes once only eye-filling moves are
left; then the engine's `final_score` must equal a Tromp-Taylor area score of
its own `list_stones` (GNU Go's final_score guesses dead stones and is NOT the
oracle).

Exit status: 0 all agreed; 1 a disagreement or an engine failure (message on
stderr says which, with the moves to reproduce it); 2 bad usage.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from goboard import BLACK, WHITE, GoBoard, color_name, opponent, parse_score  # noqa: E402
from gtpclient import GtpClient, GtpFailure  # noqa: E402

# Random-game policy. Captures are favoured so that kos, and now and then
# superko cycles, actually occur; single passes are sprinkled in so that
# `play <colour> pass` is exercised, but never two in a row by chance (a game
# ends only when nothing but eye-filling is left, so scores are unambiguous).
CAPTURE_BIAS = 0.5  # chance of picking among capturing moves when there are some
RANDOM_PASS_CHANCE = 0.02
MOVES_CAP_PER_POINT = 8  # a game stops unscored after this many moves per point
KOMI_CHOICES = (7.5, 6.5, 0.5, 0.0, 5.0)


class Disagreement(Exception):
    pass


def default_gnugo() -> str:
    for candidate in ("/usr/games/gnugo", shutil.which("gnugo")):
        if candidate and os.path.exists(candidate):
            return f"{candidate} --mode gtp"
    return "gnugo --mode gtp"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", required=True, help="command line of the engine under test (GTP)")
    parser.add_argument("--games", type=int, default=10, help="number of random games (default 10)")
    parser.add_argument(
        "--sizes", default="5,7,9,13,19", help="comma-separated board sizes, used in turn (default 5,7,9,13,19)"
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed; a failing game is reproducible from it")
    parser.add_argument("--gnugo", default=default_gnugo(), help="GNU Go command line (default: %(default)s)")
    parser.add_argument(
        "--simple-ko-engine",
        action="store_true",
        help="the engine under test plays simple ko like GNU Go (only to self-test the oracle with GNU Go)",
    )
    parser.add_argument(
        "--no-score-check",
        action="store_true",
        help="skip the final_score check (only to self-test the oracle with GNU Go, whose score guesses dead stones)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds allowed per GTP command (default 60)")
    parser.add_argument("--verbose", action="store_true", help="print one line per game")
    args = parser.parse_args(argv)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes must be comma-separated integers")
    if not args.sizes or any(not 2 <= s <= 25 for s in args.sizes):
        parser.error("--sizes must be between 2 and 25")
    if args.games < 1:
        parser.error("--games must be at least 1")
    return args


class Oracle:
    def __init__(self, args, engine: GtpClient, gnugo: GtpClient):
        self.args = args
        self.engine = engine
        self.gnugo = gnugo
        self.positions = 0
        self.moves = 0
        self.scores_compared = 0
        self.superko_positions = 0
        self.superko_moves = 0
        self.capped_games = 0
        # Context for error messages.
        self.game_index = 0
        self.board: "GoBoard | None" = None
        self.komi = 0.0

    # -- helpers ----------------------------------------------------------------

    def both(self, command: str) -> "tuple[str, str]":
        return (
            self.engine.send(command, self.args.timeout),
            self.gnugo.send(command, self.args.timeout),
        )

    def vertex_set(self, reply: str, who: str) -> "set[str]":
        vertices = set()
        for word in reply.split():
            word = word.upper()
            if word == "PASS":
                continue
            try:
                self.board.point(word)
            except ValueError:
                raise Disagreement(f"{who} answered a malformed or off-board vertex {word!r}") from None
            vertices.add(word)
        return vertices

    def replay_hint(self) -> str:
        board = self.board
        moves = " ".join(f"{'BW'[c - 1]}:{board.vertex(p)}" for c, p in board.moves)
        return (
            f"game {self.game_index + 1} (seed {self.args.seed}), size {board.size}, komi {self.komi}, "
            f"after {len(board.moves)} moves:\n  {moves}\nPython board:\n{board.showboard()}"
        )

    # -- checks -----------------------------------------------------------------

    def check_legal_moves(self, color: int) -> "set[str]":
        board = self.board
        name = color_name(color)
        ours = self.vertex_set(self.engine.send(f"all_legal {name}", self.args.timeout), "engine")
        theirs = self.vertex_set(self.gnugo.send(f"all_legal {name}", self.args.timeout), "GNU Go")
        simple = board.legal_vertices(color, "simple")
        positional = board.legal_vertices(color, "positional")
        expected = simple if self.args.simple_ko_engine else positional
        superko = simple - positional
        problems = []
        if ours - theirs:
            problems.append(f"engine allows, GNU Go forbids: {sorted(ours - theirs)}")
        unexplained = (theirs - ours) - (set() if self.args.simple_ko_engine else superko)
        if unexplained:
            problems.append(f"GNU Go allows, engine forbids (not a superko move): {sorted(unexplained)}")
        if ours != expected:
            problems.append(
                f"engine vs Python board ({'simple ko' if self.args.simple_ko_engine else 'positional superko'}): "
                f"engine extra {sorted(ours - expected)}, engine missing {sorted(expected - ours)}"
            )
        if theirs != simple:
            problems.append(
                f"GNU Go vs Python board (simple ko) - an oracle bug or a GNU Go quirk: "
                f"GNU Go extra {sorted(theirs - simple)}, GNU Go missing {sorted(simple - theirs)}"
            )
        if problems:
            raise Disagreement(f"all_legal {name} disagrees:\n  " + "\n  ".join(problems))
        self.positions += 1
        if theirs != ours:
            self.superko_positions += 1
            self.superko_moves += len(theirs - ours)
        return ours

    def check_position(self) -> None:
        board = self.board
        for color in (BLACK, WHITE):
            name = color_name(color)
            ours, theirs = self.both(f"list_stones {name}")
            ours_set = self.vertex_set(ours, "engine")
            theirs_set = self.vertex_set(theirs, "GNU Go")
            expected = board.stones(color)
            if not ours_set == theirs_set == expected:
                raise Disagreement(
                    f"list_stones {name} disagrees: engine-only {sorted(ours_set - theirs_set)}, "
                    f"GNU Go-only {sorted(theirs_set - ours_set)}, Python board {sorted(expected)}"
                )
            ours, theirs = self.both(f"captures {name}")
            if not ours.strip() == theirs.strip() == str(board.captures[color]):
                raise Disagreement(
                    f"captures {name} disagrees: engine {ours!r}, GNU Go {theirs!r}, "
                    f"Python board {board.captures[color]}"
                )

    def check_final_score(self) -> None:
        reply = self.engine.send("final_score", self.args.timeout)
        ours = parse_score(reply)
        black = self.vertex_set(self.engine.send("list_stones black", self.args.timeout), "engine")
        white = self.vertex_set(self.engine.send("list_stones white", self.args.timeout), "engine")
        scratch = GoBoard(self.board.size)
        scratch.set_stones(black, white)
        expected = scratch.area_score(self.komi)
        if ours is None or abs(ours - expected) > 1e-6:
            raise Disagreement(
                f"final_score {reply!r} but Tromp-Taylor area score of the engine's stones is "
                f"{expected:+g} (Black's margin, komi {self.komi})"
            )
        self.scores_compared += 1

    # -- one game -----------------------------------------------------------------

    def choose_move(self, rng: random.Random, color: int, legal: "set[str]") -> "int | None":
        board = self.board
        points = sorted(board.point(v) for v in legal)
        playable = [p for p in points if not board.is_eye(color, p)]
        if not playable:
            return None
        last_was_pass = bool(board.moves) and board.moves[-1][1] is None
        if not last_was_pass and rng.random() < RANDOM_PASS_CHANCE and self.can_play_on(opponent(color)):
            return None
        capturing = [p for p in playable if board.captures_stones(color, p)]
        if capturing and rng.random() < CAPTURE_BIAS:
            return rng.choice(capturing)
        return rng.choice(playable)

    def can_play_on(self, color: int) -> bool:
        """True if `color` has a move other than filling its own eye. A random
        pass is only made when the opponent can still answer it with a move:
        otherwise the opponent's forced pass would end the game while captures
        remain, and the position would not be played out."""
        board = self.board
        return any(
            not board.is_eye(color, board.point(v)) for v in board.legal_vertices(color)
        )

    def play_game(self, index: int) -> None:
        args = self.args
        rng = random.Random(args.seed * 1_000_003 + index)
        size = args.sizes[index % len(args.sizes)]
        self.game_index = index
        self.komi = rng.choice(KOMI_CHOICES)
        self.board = GoBoard(size, "simple" if args.simple_ko_engine else "positional")
        for command in (f"boardsize {size}", "clear_board", f"komi {self.komi:g}"):
            self.both(command)
        self.check_position()
        color = BLACK
        cap = MOVES_CAP_PER_POINT * size * size
        while not self.board.last_two_passed():
            if len(self.board.moves) >= cap:
                self.capped_games += 1
                return
            legal = self.check_legal_moves(color)
            point = self.choose_move(rng, color, legal)
            vertex = self.board.vertex(point)
            self.both(f"play {color_name(color)} {vertex}")
            self.board.play(color, point)
            self.moves += 1
            self.check_position()
            color = opponent(color)
        if not args.no_score_check:
            self.check_final_score()

    def summary(self) -> str:
        return (
            f"games {self.args.games}, positions compared {self.positions}, moves {self.moves}, "
            f"final scores compared {self.scores_compared}, "
            f"superko differences: {self.superko_positions} positions ({self.superko_moves} moves), "
            f"games stopped at the move cap {self.capped_games}"
        )


def main(argv=None) -> int:
    args = parse_args(argv)
    # End the engines through the `finally` below when CI cancels us.
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    started = time.monotonic()
    try:
        engine = GtpClient(args.engine, label="engine")
        gnugo = GtpClient(args.gnugo, label="GNU Go")
    except (ValueError, GtpFailure) as error:
        print(f"go_legality_vs_gnugo: {error}", file=sys.stderr)
        return 2
    oracle = Oracle(args, engine, gnugo)
    try:
        for index in range(args.games):
            oracle.play_game(index)
            if args.verbose:
                board = oracle.board
                print(
                    f"game {index + 1}/{args.games}: size {board.size}, {len(board.moves)} moves, "
                    f"komi {oracle.komi:g}",
                    flush=True,
                )
    except Disagreement as error:
        print(f"ORACLE DISAGREEMENT: {error}\n{oracle.replay_hint()}", file=sys.stderr)
        return 1
    except GtpFailure as error:
        print(f"ORACLE ENGINE FAILURE: {error}\n{oracle.replay_hint()}", file=sys.stderr)
        return 1
    finally:
        engine.close()
        gnugo.close()
    print(f"go_legality_vs_gnugo: OK: {oracle.summary()} ({time.monotonic() - started:.1f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
