#!/usr/bin/env python3
"""Warpstone against OpenSpiel's MCTS bot at the Game of the Amazons.

The bot is OpenSpiel's C++ `pyspiel.MCTSBot`: UCT (c = 2) with one random
rollout per leaf, `--simulations` simulations for each of the three actions of
a turn (queen, destination, arrow; OpenSpiel's game is played action by
action), the MCTS-solver on. Warpstone speaks GTP (`genmove`, `play`); its
limits are its own command line's. Colours alternate, Warpstone White (first)
in the even games. The referee is OpenSpiel's state: a move of Warpstone's that
is not legal there loses the game, and so does `resign`.

Setup:  python3 -m venv /tmp/ws-venv && /tmp/ws-venv/bin/pip install open_spiel
Run:    /tmp/ws-venv/bin/python scripts/amazons_vs_openspiel.py --games 20 \
            --engine "target/release/warpstone --game amazons --time-per-move 1 --threads 1"

Prints one line per game and the summary: wins, draws (none in Amazons),
losses, the score and its 95% Wilson interval.
"""

import argparse
import pathlib
import sys
import time

import pyspiel

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gtpclient import GtpClient  # noqa: E402
from matchreport import wilson_interval  # noqa: E402


def square(size, action):
    row, column = divmod(action, size)
    return f"{chr(ord('a') + column)}{size - row}"


def action(size, name):
    column = ord(name[0]) - ord("a")
    rank = int(name[1:])
    return (size - rank) * size + column


def parse_move(size, text):
    frm, rest = text.split("-", 1)
    to, arrow = rest.split("/", 1)
    return [action(size, s) for s in (frm, to, arrow)]


def play_game(engine, game, size, warpstone_white, seed, simulations):
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, simulations,
                          1000, True, seed, False)
    state = game.new_initial_state()
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    colour = "w"
    plies = 0
    while not state.is_terminal():
        warpstone_moves = (colour == "w") == warpstone_white
        if warpstone_moves:
            reply = engine.send(f"genmove {colour}", timeout=600).strip()
            if reply == "resign":
                return not warpstone_white, plies, "warpstone resigned"
            try:
                actions = parse_move(size, reply)
            except (ValueError, IndexError):
                return not warpstone_white, plies, f"warpstone answered {reply!r}"
            for a in actions:
                if a not in state.legal_actions():
                    return not warpstone_white, plies, f"warpstone played {reply}: illegal"
                state.apply_action(a)
        else:
            actions = []
            for _ in range(3):
                a = bot.step(state)
                actions.append(a)
                state.apply_action(a)
            move = "{}-{}/{}".format(*(square(size, a) for a in actions))
            reply = engine.send(f"play {colour} {move}")
            if reply.strip():
                raise RuntimeError(f"engine refused {move}: {reply!r}")
        plies += 1
        colour = "b" if colour == "w" else "w"
    white_won = state.returns()[0] > 0
    return white_won, plies, "no move left"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="target/release/warpstone --game amazons --time-per-move 1 --threads 1")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game("amazons", {"board_size": args.size})
    wins = losses = 0
    engine = GtpClient(args.engine, label="warpstone")
    try:
        for i in range(args.games):
            warpstone_white = i % 2 == 0
            started = time.monotonic()
            white_won, plies, how = play_game(engine, game, args.size, warpstone_white,
                                              args.seed + i, args.simulations)
            won = white_won == warpstone_white
            wins += won
            losses += not won
            side = "W" if warpstone_white else "B"
            print(f"game {i + 1}: warpstone {side} {'won' if won else 'lost'} in {plies} plies "
                  f"({how}, {time.monotonic() - started:.0f} s)", flush=True)
    finally:
        engine.close()
    n = wins + losses
    low, high = wilson_interval(wins, n)
    print(f"warpstone vs MCTSBot({args.simulations}) on {args.size}x{args.size}: "
          f"{wins} W / 0 D / {losses} L, score {wins / max(n, 1):.1%}, "
          f"95% interval {low:.1%}-{high:.1%}", flush=True)


if __name__ == "__main__":
    main()
