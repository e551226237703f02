"""One Connect Four game of scripts/match, between engines speaking GTP framing.

Commands used: `boardsize W H`, `clear_board`, `genmove b|w`, `play b|w <column>`
(columns from 1). Black moves first. The referee is the small board here: a move
is illegal when it is not a column of the board or the column is full; the game
ends at four in a row (the mover wins) or a full board (a draw).
"""

from __future__ import annotations


from matchcore import (
    Forfeit,
    GameResult,
    MatchConfig,
    Player,
    play_board_game,
    record_resignation,
    relay_move,
)

HEIGHT = 6  # --size is the width; the height is the standard board's


def play_connect4_game(config: MatchConfig, index: int) -> GameResult:
    def setup(player: Player) -> None:
        player.ask(f"boardsize {config.size} {HEIGHT}")
        player.ask("clear_board")

    return play_board_game(config, index, setup, play_moves)


def makes_four(board: "dict[tuple[int, int], str]", column: int, row: int, letter: str) -> bool:
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            c, r = column + sign * dc, row + sign * dr
            while board.get((c, r)) == letter:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 4:
            return True
    return False


def play_moves(config: MatchConfig, players: "dict[str, Player]", moves: list, result: GameResult) -> None:
    width = config.size
    heights = [0] * width
    board: "dict[tuple[int, int], str]" = {}
    letter = "B"
    while len(moves) < width * HEIGHT:
        mover, other = players[letter], players["W" if letter == "B" else "B"]
        word = mover.genmove(letter.lower())
        if word == "resign":
            record_resignation(result, mover, other.colour)
            return
        if not word.isdigit() or not 1 <= int(word) <= width or heights[int(word) - 1] >= HEIGHT:
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word!r}: not a playable column")
        relay_move(mover, other, letter, word, word)
        column = int(word) - 1
        row = heights[column]
        heights[column] += 1
        board[(column, row)] = letter
        moves.append((letter, word))
        if makes_four(board, column, row, letter):
            result.winner, result.result, result.reason = letter, f"{letter}+", "win"
            return
        letter = other.colour
    result.winner, result.result, result.reason = None, "0", "draw"
