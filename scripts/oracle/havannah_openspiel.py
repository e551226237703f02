#!/usr/bin/env python3
"""Random Havannah games played by OpenSpiel, as an oracle for Warpstone.

Writes tests/data/havannah/openspiel_games.txt, which the Rust test
`game::havannah::tests::oracle` replays: no winner may appear before the
last move, and the winner after it must be OpenSpiel's.

Setup:  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install open_spiel
Run:    /tmp/venv/bin/python scripts/oracle/havannah_openspiel.py [--games 30]
Check:  /tmp/venv/bin/python scripts/oracle/havannah_openspiel.py --check \
            --engine "target/release/warpstone --game havannah --playouts 1"
        plays fresh random OpenSpiel games through the engine over HTP and
        exits 1 on the first disagreement: `havannah_winner` must answer
        `none` before the last move and OpenSpiel's winner after it.

Mapping (from open_spiel/games/havannah/havannah.cc): OpenSpiel keeps the
board as a (2s-1)^2 grid, action = x + y*(2s-1), a cell is on the board when
|x - y| < s, and (x, y) touches (x+-1, y), (x, y+-1), (x+1, y+1), (x-1, y-1).
That is exactly Castro's grid with y the row and x the diagonal, so OpenSpiel
action a is our cell "<letter of row a // d><a % d + 1>". (OpenSpiel prints
the same cell transposed, column letter first: its "h1" is our "a8".)

Player 0 moves first and is drawn as White (O), like our White. With the swap
parameter on, the swap is the action of the first move's own cell at move 2;
the stone becomes player 1's and player 0 moves again: our `swap`.
"""

import argparse
import pathlib
import random
import sys

import pyspiel


def cell_name(side, action):
    d = 2 * side - 1
    x, y = action % d, action // d
    return chr(ord("a") + y) + str(x + 1)


def random_game(side, swap, force_swap, rng):
    game = pyspiel.load_game("havannah", {"board_size": side, "swap": swap})
    state = game.new_initial_state()
    moves = []
    first = None
    while not state.is_terminal():
        legal = state.legal_actions()
        if force_swap and len(moves) == 1:
            action = first
        else:
            action = rng.choice(legal)
        if len(moves) == 1 and action == first:
            moves.append("swap")
        else:
            moves.append(cell_name(side, action))
        if first is None:
            first = action
        state.apply_action(action)
    returns = state.returns()
    if returns[0] > 0:
        winner = "white"
    elif returns[1] > 0:
        winner = "black"
    else:
        winner = "draw"
    return moves, winner


def check_engine(command, games, seed):
    """Replays fresh OpenSpiel games through the engine; returns failures."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from gtpclient import GtpClient

    rng = random.Random(seed)
    failures, played, moves_checked = 0, 0, 0
    engine = GtpClient(command, label="warpstone")
    try:
        for side in range(4, 11):
            for i in range(games):
                moves, winner = random_game(side, swap=True, force_swap=i % 3 == 0, rng=rng)
                engine.send(f"boardsize {side}")
                engine.send("swap 1")
                color = "w"
                problem = None
                for n, move in enumerate(moves, start=1):
                    reply = engine.send(f"play {color} {move}")
                    if reply.strip():
                        problem = f"move {n} {color} {move}: unexpected reply {reply!r}"
                        break
                    said = engine.send("havannah_winner").strip()
                    moves_checked += 1
                    expected = winner if n == len(moves) else "none"
                    if said != expected:
                        problem = f"after move {n} ({move}) engine says {said}, OpenSpiel {expected}"
                        break
                    color = "b" if color == "w" else "w"
                played += 1
                if problem:
                    failures += 1
                    print(f"DISAGREE side {side}: {problem}\n  game: {' '.join(moves)}", file=sys.stderr)
    finally:
        engine.close()
    print(f"havannah_openspiel --check: {played} games, {moves_checked} positions, "
          f"{failures} disagreements", file=sys.stderr)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="play fresh games through --engine instead of writing the data file")
    parser.add_argument("--engine", default="target/release/warpstone --game havannah --playouts 1 --threads 1",
                        help="HTP engine command line for --check")
    parser.add_argument("--games", type=int, default=30, help="games per side")
    parser.add_argument("--draws", type=int, default=3,
                        help="extra side-4 games that ended in a draw (rare in random play)")
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--out", default="tests/data/havannah/openspiel_games.txt")
    args = parser.parse_args()

    if args.check:
        sys.exit(1 if check_engine(args.engine, args.games, args.seed) else 0)

    rng = random.Random(args.seed)
    lines = [
        "# Random Havannah games played by OpenSpiel (scripts/oracle/havannah_openspiel.py,",
        f"# seed {args.seed}, {args.games} games per side, OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}).",
        "# Per line: side, winner after the last move (white/black/draw), number of",
        "# moves played (the swap counts), then the moves in Castro notation; `swap`",
        "# is the swap answer. Every third game forces the swap at move 2. The last",
        f"# {args.draws} games are the first side-4 draws found after those.",
    ]
    for side in range(4, 11):
        for i in range(args.games):
            force = i % 3 == 0
            moves, winner = random_game(side, swap=True, force_swap=force, rng=rng)
            lines.append(f"{side} {winner} {len(moves)} " + " ".join(moves))
    found = 0
    while found < args.draws:
        moves, winner = random_game(4, swap=True, force_swap=False, rng=rng)
        if winner == "draw":
            lines.append(f"4 {winner} {len(moves)} " + " ".join(moves))
            found += 1
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} lines to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
