"""One Havannah game of scripts/match, between HTP (Castro-compatible) engines.

Commands used: `boardsize N` (N cells per side), `clear_board`, `swap 0|1`
(`--swap`, where the engine lists it), `genmove w|b`,
`play w|b <cell>` (Castro's default coordinates, such as `h8`) and
`havannah_winner` (none, white, black or draw). White moves first. The game
ends when the engine that just moved reports a winner or a draw.

There is no Python Havannah board here (scripts/oracle/havannah_openspiel.py
checks the rules): a move is judged illegal when it is malformed, repeats an
occupied cell, or the opponent refuses to `play` it - the mover is the one
that produced it, so the mover is held responsible, and the opponent's reason
is kept in the game's detail.
"""

from __future__ import annotations

import re

from matchcore import (
    Forfeit,
    GameResult,
    MatchConfig,
    Player,
    play_board_game,
    record_resignation,
    relay_move,
)

CELL = re.compile(r"^[a-z][1-9][0-9]?$")
WINNER_WORDS = {"white": "W", "black": "B", "draw": "draw", "none": None}


def cell_count(size: int) -> int:
    """Cells of a hexagonal board with `size` cells per side."""
    return 3 * size * (size - 1) + 1


def play_havannah_game(config: MatchConfig, index: int) -> GameResult:
    def setup(player: Player) -> None:
        player.ask(f"boardsize {config.size}")
        player.ask("clear_board")
        if player.supports("swap"):
            # Both sides must agree on the rule; Castro's default is off.
            player.ask(f"swap {int(config.swap)}")

    return play_board_game(config, index, setup, play_moves)


def ask_winner(player: Player) -> "str | None":
    """'W', 'B', 'draw' or None (game goes on), from the engine's havannah_winner."""
    word = player.ask("havannah_winner").split()
    text = word[0].lower() if word else ""
    if text not in WINNER_WORDS:
        raise Forfeit(player.key, "error", f"{player.client.label}: havannah_winner answered {text!r}")
    return WINNER_WORDS[text]


def play_moves(config: MatchConfig, players: "dict[str, Player]", moves: list, result: GameResult) -> None:
    occupied: "set[str]" = set()
    letter = "W"  # White moves first in Havannah
    limit = min(config.max_moves, cell_count(config.size) + 1)  # +1: a swap places no stone
    while len(moves) < limit:
        mover, other = players[letter], players["B" if letter == "W" else "W"]
        word = mover.genmove(letter.lower())
        if word == "resign":
            record_resignation(result, mover, other.colour)
            return
        # The swap rule: the second move may be `swap` (the first stone changes
        # colour and stays where it is; then White moves again).
        is_swap = word == "swap" and len(moves) == 1
        if not is_swap and not CELL.match(word):
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word!r}: not a cell")
        if word in occupied:
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word}: occupied")
        relay_move(mover, other, letter, word, word)
        if not is_swap:
            occupied.add(word)
        moves.append((letter, word))
        outcome = ask_winner(mover)
        if outcome is not None:
            finish(result, outcome, other)
            return
        letter = other.colour
    result.reason, result.result, result.winner = "max-moves", "Void", None
    result.detail = f"no winner after {len(moves)} moves"


def finish(result: GameResult, outcome: str, other: Player) -> None:
    """Records the mover's claim; notes it when the opponent sees the board differently."""
    try:
        confirmation = ask_winner(other)
    except Forfeit as forfeit:
        confirmation = f"unknown ({forfeit.kind})"
    if confirmation != outcome:
        result.detail = f"winner disputed: the mover says {outcome}, the opponent says {confirmation}"
    if outcome == "draw":
        result.winner, result.result, result.reason = None, "0", "draw"
    else:
        result.winner, result.result, result.reason = outcome, f"{outcome}+", "win"
