"""One Hex game of scripts/match, between GTP engines as HexGui and MoHex speak it.

Commands used: `boardsize N N`, `clear_board`, `genmove b|w`, `play b|w <cell>`
(a column letter and a row number, `a1` to `k11`, row 1 at the top) and
`play w swap-pieces` (White takes Black's first stone, mirrored across the long
diagonal; Black moves next). Black moves first and joins the top and bottom
rows, White the left and right columns.

The referee is this file's own board: a game ends when the mover's stones join
its two sides, whatever the engines say, and a move is illegal when it is
malformed, off the board or on an occupied cell, or the opponent refuses it.
Hex has no draws: a full board always has exactly one winner.
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

CELL = re.compile(r"^([a-z])([1-9][0-9]?)$")
SWAP = "swap-pieces"
# The six neighbours of (column, row) on the rhombus.
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def parse_cell(word: str, size: int) -> "tuple[int, int] | None":
    """`c4` → (2, 3), zero-based (column, row); None when malformed or off the board."""
    match = CELL.match(word.lower())
    if not match:
        return None
    column, row = ord(match.group(1)) - ord("a"), int(match.group(2)) - 1
    return (column, row) if column < size and 0 <= row < size else None


def cell_name(cell: "tuple[int, int]") -> str:
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


def joins_sides(stones: "set[tuple[int, int]]", colour: str, size: int) -> bool:
    """Whether `colour`'s stones connect its sides: Black top to bottom (rows),
    White left to right (columns)."""
    axis = 1 if colour == "B" else 0
    frontier = [cell for cell in stones if cell[axis] == 0]
    seen = set(frontier)
    while frontier:
        column, row = frontier.pop()
        if (column, row)[axis] == size - 1:
            return True
        for dc, dr in NEIGHBOURS:
            nxt = (column + dc, row + dr)
            if nxt in stones and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return False


def play_hex_game(config: MatchConfig, index: int) -> GameResult:
    def setup(player: Player) -> None:
        player.ask(f"boardsize {config.size} {config.size}")
        player.ask("clear_board")

    return play_board_game(config, index, setup, play_moves)


def play_moves(config: MatchConfig, players: "dict[str, Player]", moves: list, result: GameResult) -> None:
    size = config.size
    stones: "dict[str, set[tuple[int, int]]]" = {"B": set(), "W": set()}
    letter = "B"  # Black moves first in Hex
    limit = min(config.max_moves, size * size + 1)  # +1: the swap
    while len(moves) < limit:
        mover, other = players[letter], players["W" if letter == "B" else "B"]
        word = mover.genmove(letter.lower()).lower()
        if word == "resign":
            record_resignation(result, mover, other.colour)
            return
        is_swap = word in (SWAP, "swap") and len(moves) == 1 and letter == "W"
        cell = None if is_swap else parse_cell(word, size)
        if not is_swap and cell is None:
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word!r}: not a cell")
        if cell is not None and (cell in stones["B"] or cell in stones["W"]):
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word}: occupied")
        text = SWAP if is_swap else cell_name(cell)
        relay_move(mover, other, letter, text, word)
        moves.append((letter, text))
        if is_swap:
            # Black's one stone, mirrored across the long diagonal, becomes White's.
            (column, row) = stones["B"].pop()
            stones["W"].add((row, column))
            letter = "B"
            continue
        stones[letter].add(cell)
        if joins_sides(stones[letter], letter, size):
            result.winner, result.result, result.reason = letter, f"{letter}+", "win"
            return
        letter = other.colour
    result.reason, result.result, result.winner = "max-moves", "Void", None
    result.detail = f"no winner after {len(moves)} moves"
