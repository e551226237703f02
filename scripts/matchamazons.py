"""One Game of the Amazons of scripts/match, between engines speaking GTP framing.

Commands used: `boardsize N`, `clear_board`, `genmove w|b`, `play w|b <move>`.
White moves first. Moves are `d1-d7/g7` (from-to/arrow; files a-j from the
left, ranks from the bottom). The referee is the small board here: a move is
illegal unless a queen of the mover stands on `from`, `to` is a queen move
away through empty squares, and `arrow` a queen move from `to` with `from`
vacated; the game ends when the side to move has no legal move (it loses).
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

# The start of each size (White's queens, Black's): the 10x10 and
# OpenSpiel's 8x8 and 6x6, as the engine has them.
STARTS = {
    10: (("a4", "d1", "g1", "j4"), ("a7", "d10", "g10", "j7")),
    8: (("a3", "c1", "f1", "h3"), ("a6", "c8", "f8", "h6")),
    6: (("a2", "b1", "e1", "f2"), ("a5", "b6", "e6", "f5")),
}
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def parse_square(text: str, size: int) -> "tuple[int, int] | None":
    """`d7` -> (3, 6): file and rank from 0; None when malformed or off the board."""
    if len(text) < 2 or not "a" <= text[0] <= "z" or not text[1:].isdigit():
        return None
    file, rank = ord(text[0]) - ord("a"), int(text[1:]) - 1
    return (file, rank) if 0 <= file < size and 0 <= rank < size else None


def square_text(square: "tuple[int, int]") -> str:
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def parse_move(text: str, size: int):
    """`d1-d7/g7` -> (from, to, arrow) squares, or None."""
    if text.count("-") != 1 or text.count("/") != 1:
        return None
    origin, rest = text.split("-")
    to, arrow = rest.split("/")
    squares = [parse_square(s, size) for s in (origin, to, arrow)]
    return None if None in squares else tuple(squares)


class Board:
    """Queens and arrows of one game; `blocked` is every occupied square."""

    def __init__(self, size: int):
        white, black = STARTS[size]
        self.size = size
        self.queens = {
            "W": {parse_square(s, size) for s in white},
            "B": {parse_square(s, size) for s in black},
        }
        self.arrows: "set[tuple[int, int]]" = set()

    def blocked(self) -> "set[tuple[int, int]]":
        return self.queens["W"] | self.queens["B"] | self.arrows

    def on_board(self, square) -> bool:
        return 0 <= square[0] < self.size and 0 <= square[1] < self.size

    def slides(self, origin, blocked) -> "set[tuple[int, int]]":
        """The squares a queen on `origin` reaches through squares not in `blocked`."""
        out = set()
        for df, dr in DIRECTIONS:
            square = (origin[0] + df, origin[1] + dr)
            while self.on_board(square) and square not in blocked:
                out.add(square)
                square = (square[0] + df, square[1] + dr)
        return out

    def is_legal(self, letter: str, move) -> bool:
        origin, to, arrow = move
        if origin not in self.queens[letter]:
            return False
        blocked = self.blocked()
        if to not in self.slides(origin, blocked):
            return False
        return arrow in self.slides(to, (blocked - {origin}) | {to})

    def has_move(self, letter: str) -> bool:
        """A queen with an empty neighbour can step there and shoot back."""
        blocked = self.blocked()
        return any(
            self.on_board((q[0] + df, q[1] + dr)) and (q[0] + df, q[1] + dr) not in blocked
            for q in self.queens[letter]
            for df, dr in DIRECTIONS
        )

    def apply(self, letter: str, move) -> None:
        origin, to, arrow = move
        self.queens[letter].remove(origin)
        self.queens[letter].add(to)
        self.arrows.add(arrow)


def sgf_point(square: "tuple[int, int]", size: int) -> str:
    """red-bean's Amazons point: column letter from the left, row letter from the top."""
    return chr(ord("a") + square[0]) + chr(ord("a") + size - 1 - square[1])


def sgf_move(text: str, size: int) -> str:
    """`d1-d7/g7` -> red-bean's GM[18] move, the three points concatenated (`djdddd`-style)."""
    move = parse_move(text, size)
    return "".join(sgf_point(s, size) for s in move) if move else ""


def sgf_setup(size: int) -> str:
    """The start position spelled out (AW, AB) with White to play first: red-bean's
    default start has the other colours, so a record of this engine's games
    names its own."""
    white, black = STARTS[size]
    points = lambda squares: "".join(f"[{sgf_point(parse_square(s, size), size)}]" for s in squares)  # noqa: E731
    return f"AW{points(white)}AB{points(black)}PL[W]"


def play_amazons_game(config: MatchConfig, index: int) -> GameResult:
    def setup(player: Player) -> None:
        player.ask(f"boardsize {config.size}")
        player.ask("clear_board")

    return play_board_game(config, index, setup, play_moves)


def play_moves(config: MatchConfig, players: "dict[str, Player]", moves: list, result: GameResult) -> None:
    board = Board(config.size)
    letter = "W"
    while len(moves) < config.max_moves:
        mover, other = players[letter], players["B" if letter == "W" else "W"]
        if not board.has_move(letter):
            winner = other.colour
            result.winner, result.result, result.reason = winner, f"{winner}+", "win"
            result.detail = f"{mover.client.label} has no move"
            return
        word = mover.genmove(letter.lower())
        if word == "resign":
            record_resignation(result, mover, other.colour)
            return
        move = parse_move(word, config.size)
        if move is None or not board.is_legal(letter, move):
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word!r}: not a legal move")
        relay_move(mover, other, letter, word, word)
        board.apply(letter, move)
        moves.append((letter, word))
        letter = other.colour
    result.winner, result.result, result.reason = None, "0", "max-moves"
