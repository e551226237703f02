#!/usr/bin/env python3
"""Random Amazons games played by OpenSpiel, replayed through Warpstone.

OpenSpiel's `amazons` (board_size 6, 8 or 10, the sizes it accepts) plays
random games; every move goes to the engine with `play`, and at every ply the
engine's legal moves must be OpenSpiel's: the count (`warpstone-legal_count`)
and the moves themselves (`all_legal`). After the last move the engine must
have no move left and name OpenSpiel's winner in `final_score`. Exits 1 on the
first disagreement of any game (each game is reported).

Setup:  python3 -m venv /tmp/ws-venv && /tmp/ws-venv/bin/pip install open_spiel
Run:    /tmp/ws-venv/bin/python scripts/oracle/amazons_openspiel.py \
            --engine "target/release/warpstone --game amazons --playouts 1 --threads 1"

Mapping (open_spiel/games/amazons): a square's action is row * size + column,
row 0 at the top; player 0 (drawn X) moves first from the squares that are
White's in the standard setup, so player 0 is White, and OpenSpiel row r is
our rank size - r. One turn is three actions: the queen's square, where it
goes, where the arrow lands.
"""

import argparse
import pathlib
import random
import sys

import pyspiel


def square(size, action):
    row, column = divmod(action, size)
    return f"{chr(ord('a') + column)}{size - row}"


def legal_moves(state, size):
    """Every whole move of the player to move, as `from-to/arrow`."""
    moves = set()
    for frm in state.legal_actions():
        after_from = state.clone()
        after_from.apply_action(frm)
        for to in after_from.legal_actions():
            after_to = after_from.clone()
            after_to.apply_action(to)
            for arrow in after_to.legal_actions():
                moves.add(f"{square(size, frm)}-{square(size, to)}/{square(size, arrow)}")
    return moves


def check_game(engine, size, rng):
    """Plays one random game in both; returns (plies, problem or None)."""
    state = pyspiel.load_game("amazons", {"board_size": size}).new_initial_state()
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    colour = "w"
    plies = 0
    while True:
        expected = legal_moves(state, size) if not state.is_terminal() else set()
        count = int(engine.send("warpstone-legal_count").strip())
        if count != len(expected):
            return plies, f"ply {plies}: engine counts {count} moves, OpenSpiel {len(expected)}"
        said = set(engine.send("all_legal").split())
        if said != expected:
            extra = sorted(said - expected)[:5]
            missing = sorted(expected - said)[:5]
            return plies, f"ply {plies}: engine also lists {extra}, misses {missing}"
        if state.is_terminal():
            break
        actions = []
        for _ in range(3):
            action = rng.choice(state.legal_actions())
            actions.append(action)
            state.apply_action(action)
        move = f"{square(size, actions[0])}-{square(size, actions[1])}/{square(size, actions[2])}"
        reply = engine.send(f"play {colour} {move}")
        if reply.strip():
            return plies, f"ply {plies}: play {colour} {move} answered {reply!r}"
        plies += 1
        colour = "b" if colour == "w" else "w"
    winner = "W" if state.returns()[0] > 0 else "B"
    score = engine.send("final_score").strip()
    if not score.startswith(winner + "+"):
        return plies, f"game over: engine scores {score!r}, OpenSpiel's winner is {winner}"
    return plies, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="target/release/warpstone --game amazons --playouts 1 --threads 1")
    parser.add_argument("--games", type=int, default=10, help="games per board size")
    parser.add_argument("--sizes", default="6,8,10")
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from gtpclient import GtpClient

    rng = random.Random(args.seed)
    failures = games = positions = 0
    engine = GtpClient(args.engine, label="warpstone")
    try:
        for size in [int(s) for s in args.sizes.split(",")]:
            for _ in range(args.games):
                plies, problem = check_game(engine, size, rng)
                games += 1
                positions += plies + 1
                if problem:
                    failures += 1
                    print(f"DISAGREE {size}x{size}: {problem}", file=sys.stderr)
    finally:
        engine.close()
    print(f"amazons_openspiel: {games} games, {positions} positions, {failures} disagreements",
          file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
