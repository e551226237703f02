"""What scripts/match prints and saves: per-game lines, the summary, JSON, SGF files."""

from __future__ import annotations

import datetime
import json
import math
import os

from matchamazons import sgf_move, sgf_setup
from matchcore import FORFEIT_KINDS, GameResult, MatchConfig

Z_95 = 1.959964  # two-sided 95% normal quantile


def wilson_interval(score: float, n: int, z: float = Z_95) -> "tuple[float, float]":
    """Wilson score interval for a proportion `score / n` (draws count as half wins)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def game_line(config: MatchConfig, result: GameResult) -> str:
    names = {spec.key: spec.name for spec in config.engines}
    line = (
        f"game {result.index + 1}/{config.last_game()}: {names[result.black]} (B) vs {names[result.white]} (W): "
        f"{result.result} ({result.reason}, {len(result.moves)} moves, {result.seconds:.1f}s)"
    )
    if result.detail:
        line += f" - {result.detail.strip()}"
    return line


def engine_stats(config: MatchConfig, results: "list[GameResult]") -> "list[dict]":
    stats = []
    for spec in config.engines:
        key = spec.key
        played = [r for r in results if r.reason != "aborted"]
        wins = sum(1 for r in played if r.winner_key() == key)
        draws = sum(1 for r in played if r.winner is None)
        losses = len(played) - wins - draws
        score = wins + 0.5 * draws
        low, high = wilson_interval(score, len(played))
        think = sum(r.think_time[key] for r in played)
        think_moves = sum(r.think_moves[key] for r in played)
        entry = {
            "engine": key,
            "name": spec.name,
            "command": spec.command,
            "games": len(played),
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "win_rate": score / len(played) if played else 0.0,
            "ci95": [low, high],
            "wins_as_black": sum(1 for r in played if r.black == key and r.winner == "B"),
            "games_as_black": sum(1 for r in played if r.black == key),
            "wins_as_white": sum(1 for r in played if r.white == key and r.winner == "W"),
            "games_as_white": sum(1 for r in played if r.white == key),
            "seconds_per_move": think / think_moves if think_moves else 0.0,
        }
        for kind in FORFEIT_KINDS:
            entry[f"{kind}_losses"] = sum(1 for r in played if r.forfeit_by == key and r.reason == kind)
        stats.append(entry)
    return stats


def summary_text(config: MatchConfig, results: "list[GameResult]") -> str:
    stats = engine_stats(config, results)
    played = [r for r in results if r.reason != "aborted"]
    average = sum(len(r.moves) for r in played) / len(played) if played else 0.0
    time_control = f"{config.time_per_move:g} s/move" if config.time_per_move else "no time control"
    board = f"{config.size}x{config.size}, komi {config.komi:g}" if config.game == "go" else f"size {config.size}"
    lines = [
        "",
        f"Match: {config.engines[0].name} vs {config.engines[1].name}: {config.game} {board}, "
        f"{len(played)} of {config.games} games played{config.part_text()}, {time_control}",
        f"{'engine':<28} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'win rate':>8} "
        f"{'95% CI (Wilson)':>17} {'as B':>7} {'as W':>7} {'s/move':>7} "
        f"{'time':>4} {'illegal':>7} {'crash':>5} {'error':>5}",
    ]
    for s in stats:
        interval = f"{100 * s['ci95'][0]:5.1f}-{100 * s['ci95'][1]:5.1f}%"
        lines.append(
            f"{s['name'][:28]:<28} {s['games']:>5} {s['wins']:>5} {s['draws']:>5} {s['losses']:>6} "
            f"{100 * s['win_rate']:>7.1f}% {interval:>17} "
            f"{s['wins_as_black']:>3}/{s['games_as_black']:<3} {s['wins_as_white']:>3}/{s['games_as_white']:<3} "
            f"{s['seconds_per_move']:>7.2f} {s['time_losses']:>4} {s['illegal_losses']:>7} "
            f"{s['crash_losses']:>5} {s['error_losses']:>5}"
        )
    reasons: "dict[str, int]" = {}
    for r in results:
        reasons[r.reason] = reasons.get(r.reason, 0) + 1
    ended = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    lines.append(f"games {len(played)}, average length {average:.1f} moves; endings: {ended}")
    scored = [r.scored_by for r in played if r.scored_by]
    if scored:
        by = ", ".join(f"{k} {scored.count(k)}" for k in sorted(set(scored)))
        lines.append(f"scored by: {by}")
    return "\n".join(lines)


def summary_json(config: MatchConfig, results: "list[GameResult]") -> str:
    played = [r for r in results if r.reason != "aborted"]
    document = {
        "match": {
            "game": config.game,
            "size": config.size,
            "komi": config.komi if config.game == "go" else None,
            "games_requested": config.games,
            "first_game": config.first_game,
            "time_per_move": config.time_per_move,
            "max_moves": config.max_moves,
            "referee": config.referee,
            "seed": config.seed,
        },
        "games": len(played),
        "average_moves": sum(len(r.moves) for r in played) / len(played) if played else 0.0,
        "engines": engine_stats(config, results),
        "results": [
            {
                "game": r.index + 1,
                "black": r.black,
                "white": r.white,
                "result": r.result,
                "reason": r.reason,
                "moves": len(r.moves),
                "scored_by": r.scored_by or None,
                "forfeit_by": r.forfeit_by,
            }
            for r in sorted(results, key=lambda r: r.index)
        ],
    }
    return json.dumps(document, sort_keys=True)


def sgf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(directory: str, config: MatchConfig, result: GameResult) -> str:
    """One record per game: SGF for Go, Hex and the Amazons (red-bean's GM[18]); for Havannah LittleGolem's .hgf, with
    cells in its coordinates (`hgf_cell`), which `loadsgf` and LittleGolem tools read."""
    names = {spec.key: spec for spec in config.engines}
    black, white = names[result.black], names[result.white]
    go = config.game == "go"
    amazons = config.game == "amazons"
    header = [
        "FF[4]",
        "GM[1]" if go else "GM[11]" if config.game == "hex" else "GM[18]" if amazons else "",
        "CA[UTF-8]",
        "AP[warpstone-match]",
        f"SZ[{config.size}]",
        f"KM[{config.komi:g}]" if go else "",
        "RU[Chinese]" if go else "",
        f"PB[{sgf_text(black.name)}]",
        f"PW[{sgf_text(white.name)}]",
        f"DT[{datetime.date.today().isoformat()}]",
        f"RE[{sgf_text(result.result)}]",
        f"GN[game {result.index + 1}]",
    ]
    comment = (
        f"Black command: {black.command}\nWhite command: {white.command}\n"
        f"Ended by: {result.reason}\n{result.detail.strip()}"
    ).strip()
    header.append(f"C[{sgf_text(comment)}]")
    if amazons:
        header.append(sgf_setup(config.size))
    body = []
    for colour, move in result.moves:
        if go:
            body.append(f";{colour}[{sgf_go_point(move, config.size)}]")
        elif amazons:
            body.append(f";{colour}[{sgf_move(move, config.size)}]")
        elif config.game == "havannah":
            body.append(f";{colour}[{sgf_text(hgf_cell(move, config.size))}]")
        else:
            body.append(f";{colour}[{sgf_text(move)}]")
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"game-{result.index + 1:04d}.{'sgf' if go or amazons or config.game == 'hex' else 'hgf'}")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("(;" + "".join(h for h in header if h) + "\n" + "\n".join(body) + ")\n")
    return path


def hgf_cell(cell: str, side: int) -> str:
    """Castro's cell (`m14`: row letter, diagonal number) → LittleGolem's (`M7`: the number counts from the row's left
    end, which below the middle row `side - 1` starts on a later diagonal). Anything else (swap) passes unchanged."""
    letter, number = cell[:1].lower(), cell[1:]
    if not ("a" <= letter <= "z" and number.isdigit()):
        return cell
    row = ord(letter) - ord("a")
    diagonal = int(number)
    if row >= side:
        diagonal -= row - side + 1
    return f"{letter.upper()}{diagonal}"


def sgf_go_point(vertex: str, size: int) -> str:
    """GTP vertex → SGF point (`A19` on 19x19 → `aa`); pass → empty."""
    if vertex.lower() == "pass":
        return ""
    columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    col = columns.index(vertex[0].upper())
    row = size - int(vertex[1:])
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[col] + letters[row]
