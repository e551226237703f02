"""One Go game of scripts/match, refereed move by move by scripts/goboard.py.

The Python board judges legality (positional superko, no suicide), so an
illegal move is caught whoever plays it, and a correct engine that refuses a
legal `play` is the one at fault. At the end both engines are asked
`final_score`; when they disagree, or the game did not end with two passes,
the referee (GNU Go with Chinese rules, fed every move) decides, and without
a referee the Tromp-Taylor area score of the final position does.
"""

from __future__ import annotations

import time

from goboard import GoBoard, color_name, format_score, parse_score
from gtpclient import GtpClient, GtpFailure
from matchcore import (
    COMMAND_TIMEOUT_S,
    Aborted,
    Forfeit,
    GameResult,
    MatchConfig,
    Player,
    forfeit_result,
    record_resignation,
    start_players,
)


def play_go_game(config: MatchConfig, index: int) -> GameResult:
    black_spec, white_spec = config.colours_of_game(index)
    result = GameResult(index=index, black=black_spec.key, white=white_spec.key, winner=None, result="Void", reason="")
    board = GoBoard(config.size, "positional")
    started = time.monotonic()
    players: "dict[str, Player]" = {}
    try:
        players = start_players(config, index)
        for player in players.values():
            player.ask(f"boardsize {config.size}")
            player.ask("clear_board")
            player.ask(f"komi {config.komi:g}")
            player.setup_common(config.engine_seed(index, player.spec))
        finished = play_moves(config, board, players, result)
        score_game(config, board, players, result, finished)
    except Forfeit as forfeit:
        forfeit_result(result, forfeit)
    except Aborted:
        result.reason = "aborted"
        result.result = "Void"
    finally:
        for player in players.values():
            result.think_time[player.key] = player.think_time
            result.think_moves[player.key] = player.think_moves
            player.close()
        result.moves = [("B" if c == 1 else "W", board.vertex(p)) for c, p in board.moves]
        result.seconds = time.monotonic() - started
    return result


def play_moves(config: MatchConfig, board: GoBoard, players: "dict[str, Player]", result: GameResult) -> bool:
    """Plays until two passes (True), a resignation or the move limit (False)."""
    colour = 1  # Black
    while len(board.moves) < config.max_moves:
        letter = "B" if colour == 1 else "W"
        mover, other = players[letter], players["W" if letter == "B" else "B"]
        word = mover.genmove(color_name(colour))
        if word == "resign":
            record_resignation(result, mover, "W" if letter == "B" else "B")
            return False
        try:
            point = board.point(word)
        except ValueError:
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word!r}: not a vertex") from None
        reason = board.illegal_reason(colour, point)
        if reason is not None:
            raise Forfeit(mover.key, "illegal", f"{mover.client.label} played {word.upper()}: {reason}")
        board.play(colour, point)
        other.ask(f"play {color_name(colour)} {board.vertex(point)}")
        if board.last_two_passed():
            return True
        colour = 3 - colour
    return False


def score_game(
    config: MatchConfig, board: GoBoard, players: "dict[str, Player]", result: GameResult, finished: bool
) -> None:
    if result.reason == "resign":
        return
    claims = {}
    for letter, player in players.items():
        try:
            claims[letter] = parse_score(player.ask("final_score"))
        except Forfeit as forfeit:
            # A game already played is not forfeited over its score; the referee decides.
            claims[letter] = None
            result.detail += f"{player.client.label}: final_score failed ({forfeit.kind}). "
    agreed = claims["B"] is not None and claims["B"] == claims["W"]
    if finished and agreed:
        margin, result.scored_by = claims["B"], "engines"
    else:
        why = "engines disagree on the score" if finished else "move limit reached"
        margin, result.scored_by = referee_score(config, board, result)
        result.detail += f"{why} (engines: B {claims['B']}, W {claims['W']}); scored by {result.scored_by}"
    result.reason = "score" if finished else "max-moves"
    result.result = format_score(margin)
    result.winner = "B" if margin > 0 else "W" if margin < 0 else None


def referee_score(config: MatchConfig, board: GoBoard, result: GameResult) -> "tuple[float, str]":
    """The referee's final_score of the game so far; Tromp-Taylor when there is none."""
    if config.referee:
        try:
            with GtpClient(config.referee, label="referee") as referee:
                for command in (f"boardsize {config.size}", "clear_board", f"komi {config.komi:g}"):
                    referee.send(command, COMMAND_TIMEOUT_S)
                for colour, point in board.moves:
                    referee.send(f"play {color_name(colour)} {board.vertex(point)}", COMMAND_TIMEOUT_S)
                margin = parse_score(referee.send("final_score", 10 * COMMAND_TIMEOUT_S))
                if margin is not None:
                    return margin, "referee"
                result.detail += "referee gave no numeric score; "
        except (GtpFailure, ValueError) as failure:
            result.detail += f"referee failed ({failure}); "
    return board.area_score(config.komi), "tromp-taylor"
