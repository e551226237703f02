#!/usr/bin/env python3
"""A Connect Four engine that plays a uniformly random legal column (GTP framing).

The weakest opponent for `scripts/match --game connect4`: it answers what the match
sends (`boardsize W H` or `boardsize WxH`, `clear_board`, `play b|w <column>`,
`genmove b|w`, `time_settings`, `set_random_seed`, `undo`) plus the GTP basics.
Columns count from 1. `--seed N` (or `set_random_seed N`) makes it reproducible.
Bad input gets `?` and changes nothing.
"""

from __future__ import annotations

import argparse
import random
import sys

COMMANDS = (
    "protocol_version name version known_command list_commands quit boardsize clear_board "
    "play genmove undo time_settings set_random_seed"
).split()


class Board:
    def __init__(self, width: int = 7, height: int = 6):
        self.width, self.height = width, height
        self.moves: "list[int]" = []

    def heights(self) -> "list[int]":
        counts = [0] * self.width
        for column in self.moves:
            counts[column] += 1
        return counts

    def legal(self) -> "list[int]":
        return [c for c, h in enumerate(self.heights()) if h < self.height]


def parse_size(args: "list[str]") -> "tuple[int, int] | None":
    try:
        if len(args) == 1 and "x" in args[0]:
            w, h = (int(part) for part in args[0].split("x"))
        elif len(args) == 2:
            w, h = int(args[0]), int(args[1])
        else:
            return None
    except ValueError:
        return None
    return (w, h) if 4 <= w <= 8 and 4 <= h <= 7 else None


def answer(board: Board, rng: random.Random, command: str, args: "list[str]") -> "tuple[bool, str]":
    """(success, text) for one command."""
    if command == "protocol_version":
        return True, "2"
    if command == "name":
        return True, "random-connect4"
    if command == "version":
        return True, "1"
    if command == "known_command":
        return True, "true" if args and args[0] in COMMANDS else "false"
    if command == "list_commands":
        return True, "\n".join(COMMANDS)
    if command == "boardsize":
        size = parse_size(args)
        if size is None:
            return False, "unacceptable size"
        board.width, board.height = size
        board.moves = []
        return True, ""
    if command == "clear_board":
        board.moves = []
        return True, ""
    if command == "play":
        if len(args) != 2 or args[0].lower() not in ("b", "w", "black", "white") or not args[1].isdigit():
            return False, "syntax error"
        column = int(args[1]) - 1
        if column not in board.legal():
            return False, "illegal move"
        board.moves.append(column)
        return True, ""
    if command == "genmove":
        if len(args) != 1 or args[0].lower() not in ("b", "w", "black", "white"):
            return False, "syntax error"
        legal = board.legal()
        if not legal:
            return True, "pass"
        column = rng.choice(legal)
        board.moves.append(column)
        return True, str(column + 1)
    if command == "undo":
        if not board.moves:
            return False, "cannot undo"
        board.moves.pop()
        return True, ""
    if command == "time_settings":
        return True, ""
    if command == "set_random_seed":
        if len(args) != 1 or not args[0].lstrip("-").isdigit():
            return False, "syntax error"
        rng.seed(int(args[0]))
        return True, ""
    return False, "unknown command"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    board = Board()
    while True:
        # A bounded read: a line longer than this is refused, not buffered without end.
        line = sys.stdin.readline(4096)
        if not line:
            return 0
        if not line.endswith("\n") and len(line) == 4096:
            while line and not line.endswith("\n"):
                line = sys.stdin.readline(4096)
            sys.stdout.write("? line too long\n\n")
            sys.stdout.flush()
            continue
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                continue
        command, args = words[0], words[1:]
        if command == "quit":
            sys.stdout.write(f"={ident}\n\n")
            sys.stdout.flush()
            return 0
        ok, text = answer(board, rng, command, args)
        sys.stdout.write(f"{'=' if ok else '?'}{ident} {text}\n\n" if text else f"{'=' if ok else '?'}{ident}\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
