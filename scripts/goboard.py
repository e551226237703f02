"""Tiny Go rules in pure Python: the referee board of scripts/match and the oracles.

Rules: stones are captured when they lose their last liberty; suicide is
illegal; the ko rule is either `positional` (positional superko: no move may
recreate any earlier whole-board position, the rule Warpstone plays) or
`simple` (only the immediate recapture is forbidden, the rule GNU Go knows).
Scoring is Tromp-Taylor area: stones plus empty regions that reach only one
colour, minus komi for White.

Points are indices into a padded 1-D array (one border ring), michi style;
`Vertex` text such as `D4` is what GTP speaks. Speed matters only mildly (an
oracle asks for every legal move of every position), so a position is
analysed once into groups and their liberties, and each candidate move is then
judged from its neighbours' groups.
"""

from __future__ import annotations

import random

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips I
MAX_SIZE = 25
KO_RULES = ("positional", "simple")


class IllegalMove(Exception):
    def __init__(self, vertex: str, reason: str):
        super().__init__(f"illegal move {vertex}: {reason}")
        self.vertex = vertex
        self.reason = reason


def opponent(color: int) -> int:
    return BLACK + WHITE - color


def parse_color(text: str) -> int:
    word = text.strip().lower()
    if word in ("b", "black"):
        return BLACK
    if word in ("w", "white"):
        return WHITE
    raise ValueError(f"not a colour: {text!r}")


def color_name(color: int) -> str:
    return "black" if color == BLACK else "white"


def color_letter(color: int) -> str:
    return "B" if color == BLACK else "W"


def parse_score(text: str) -> "float | None":
    """GTP `final_score` text to Black's margin (`B+3.5` → 3.5, `W+1` → -1, `0` → 0).

    None when the text is not a numeric score (`B+R`, `?`, garbage)."""
    word = text.strip().split()[0].upper() if text.strip() else ""
    if word in ("0", "DRAW", "JIGO", "B+0", "W+0", "B+0.0", "W+0.0"):
        return 0.0
    if len(word) < 3 or word[0] not in "BW" or word[1] != "+":
        return None
    try:
        margin = float(word[2:])
    except ValueError:
        return None
    return margin if word[0] == "B" else -margin


def format_score(margin: float) -> str:
    """Black's margin as GTP/SGF result text."""
    if margin == 0:
        return "0"
    text = f"{abs(margin):g}"
    return ("B+" if margin > 0 else "W+") + text


class GoBoard:
    """A Go position plus the history the ko rule needs."""

    def __init__(self, size: int, ko_rule: str = "positional"):
        if not 2 <= size <= MAX_SIZE:
            raise ValueError(f"board size {size} outside 2..{MAX_SIZE}")
        if ko_rule not in KO_RULES:
            raise ValueError(f"ko rule must be one of {KO_RULES}")
        self.size = size
        self.ko_rule = ko_rule
        self.stride = size + 2
        self.grid = [BORDER] * (self.stride * self.stride)
        for row in range(1, size + 1):
            for col in range(1, size + 1):
                self.grid[row * self.stride + col] = EMPTY
        self.points = [p for p, v in enumerate(self.grid) if v == EMPTY]
        stride = self.stride
        self.neighbours = {p: (p - stride, p + 1, p + stride, p - 1) for p in self.points}
        self.diagonals = {
            p: (p - stride - 1, p - stride + 1, p + stride - 1, p + stride + 1) for p in self.points
        }
        # Fixed seed: hashes only need to be consistent within one board.
        rng = random.Random(0x5EED)
        self.zobrist = {
            (p, c): rng.getrandbits(64) for p in self.points for c in (BLACK, WHITE)
        }
        self.hash = 0
        self.seen = {0}  # every whole-board position so far (positional superko)
        self.hash_before_last_move = 0  # simple ko: the recapture would recreate it
        self.captures = {BLACK: 0, WHITE: 0}  # stones captured BY each colour
        self.moves: "list[tuple[int, int | None]]" = []  # (colour, point or None = pass)
        self._analysis = None

    # -- coordinates ----------------------------------------------------------

    def point(self, vertex: str) -> "int | None":
        """`D4` → point, `pass` → None; ValueError when off the board or malformed."""
        text = vertex.strip().upper()
        if text == "PASS":
            return None
        if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
            raise ValueError(f"not a vertex: {vertex!r}")
        col = COLUMNS.index(text[0]) + 1
        row_number = int(text[1:])
        if col > self.size or not 1 <= row_number <= self.size:
            raise ValueError(f"vertex {vertex!r} is off a {self.size}x{self.size} board")
        row = self.size + 1 - row_number  # row 1 of the array is the top line
        return row * self.stride + col

    def vertex(self, point: "int | None") -> str:
        if point is None:
            return "pass"
        row, col = divmod(point, self.stride)
        return f"{COLUMNS[col - 1]}{self.size + 1 - row}"

    # -- analysis of the current position ---------------------------------------

    def _analyse(self):
        """Groups of the position: point → group id; per group (colour, stones, liberties, hash)."""
        if self._analysis is not None:
            return self._analysis
        group_of: "dict[int, int]" = {}
        groups = []
        grid = self.grid
        for start in self.points:
            color = grid[start]
            if color not in (BLACK, WHITE) or start in group_of:
                continue
            gid = len(groups)
            stones, liberties, stack = [], set(), [start]
            group_of[start] = gid
            zhash = 0
            while stack:
                p = stack.pop()
                stones.append(p)
                zhash ^= self.zobrist[(p, color)]
                for n in self.neighbours[p]:
                    v = grid[n]
                    if v == EMPTY:
                        liberties.add(n)
                    elif v == color and n not in group_of:
                        group_of[n] = gid
                        stack.append(n)
            groups.append((color, stones, liberties, zhash))
        self._analysis = (group_of, groups)
        return self._analysis

    def _consequence(self, color: int, point: int):
        """For a stone of `color` on empty `point`: (captured group ids, resulting hash),
        or the reason string when suicide."""
        group_of, groups = self._analyse()
        captured = set()
        has_liberty = False
        for n in self.neighbours[point]:
            v = self.grid[n]
            if v == EMPTY:
                has_liberty = True
            elif v in (BLACK, WHITE):
                gid = group_of[n]
                libs = len(groups[gid][2])
                if v == color:
                    if libs > 1:
                        has_liberty = True
                elif libs == 1:
                    captured.add(gid)
        if not has_liberty and not captured:
            return "suicide"
        new_hash = self.hash ^ self.zobrist[(point, color)]
        for gid in captured:
            new_hash ^= groups[gid][3]
        return captured, new_hash

    def illegal_reason(self, color: int, point: "int | None", ko_rule: "str | None" = None):
        """None when legal, else 'occupied', 'suicide', 'ko' or 'superko'."""
        if point is None:
            return None
        if self.grid[point] != EMPTY:
            return "occupied"
        result = self._consequence(color, point)
        if isinstance(result, str):
            return result
        new_hash = result[1]
        if new_hash == self.hash_before_last_move and self.moves and self.moves[-1][1] is not None:
            return "ko"
        if (ko_rule or self.ko_rule) == "positional" and new_hash in self.seen:
            return "superko"
        return None

    def legal_points(self, color: int, ko_rule: "str | None" = None) -> "list[int]":
        """Every legal board point for `color` (never pass)."""
        return [p for p in self.points if self.illegal_reason(color, p, ko_rule) is None]

    def legal_vertices(self, color: int, ko_rule: "str | None" = None) -> "set[str]":
        return {self.vertex(p) for p in self.legal_points(color, ko_rule)}

    def captures_stones(self, color: int, point: int) -> bool:
        """Would a (legal) stone of `color` on `point` capture something?"""
        result = self._consequence(color, point)
        return not isinstance(result, str) and bool(result[0])

    def is_eye(self, color: int, point: int) -> bool:
        """A point whose neighbours are all `color` and whose diagonals do not make it
        false (at most one opponent diagonal in the middle, none on the edge).
        Filling it is pointless; random games avoid it so that they end."""
        if self.grid[point] != EMPTY:
            return False
        if any(self.grid[n] not in (color, BORDER) for n in self.neighbours[point]):
            return False
        diagonals = [self.grid[d] for d in self.diagonals[point]]
        enemies = sum(1 for v in diagonals if v == opponent(color))
        on_edge = BORDER in diagonals
        return enemies == 0 if on_edge else enemies <= 1

    # -- moves ----------------------------------------------------------------

    def play(self, color: int, point: "int | None") -> int:
        """Plays a move, returns the number of stones captured; IllegalMove if illegal."""
        reason = self.illegal_reason(color, point)
        if reason is not None:
            raise IllegalMove(self.vertex(point), reason)
        before = self.hash
        count = 0
        if point is not None:
            captured, new_hash = self._consequence(color, point)
            _, groups = self._analyse()
            self.grid[point] = color
            for gid in captured:
                for p in groups[gid][1]:
                    self.grid[p] = EMPTY
                    count += 1
            self.hash = new_hash
            self.captures[color] += count
            self.seen.add(new_hash)
            self._analysis = None
        self.hash_before_last_move = before
        self.moves.append((color, point))
        return count

    def play_vertex(self, color: int, vertex: str) -> int:
        return self.play(color, self.point(vertex))

    def last_two_passed(self) -> bool:
        return len(self.moves) >= 2 and self.moves[-1][1] is None and self.moves[-2][1] is None

    # -- reading the position ---------------------------------------------------

    def stones(self, color: int) -> "set[str]":
        return {self.vertex(p) for p in self.points if self.grid[p] == color}

    def set_stones(self, black: "set[str]", white: "set[str]") -> None:
        """Replaces the stones (history untouched): for scoring a position read from an engine."""
        for p in self.points:
            self.grid[p] = EMPTY
        for color, vertices in ((BLACK, black), (WHITE, white)):
            for vertex in vertices:
                point = self.point(vertex)
                if point is not None:
                    self.grid[point] = color
        self._analysis = None

    def area_score(self, komi: float) -> float:
        """Tromp-Taylor: Black's area minus White's area minus komi (positive: Black wins)."""
        area = {BLACK: 0, WHITE: 0}
        visited = set()
        for start in self.points:
            v = self.grid[start]
            if v in (BLACK, WHITE):
                area[v] += 1
                continue
            if start in visited:
                continue
            region, borders, stack = 0, set(), [start]
            visited.add(start)
            while stack:
                p = stack.pop()
                region += 1
                for n in self.neighbours[p]:
                    w = self.grid[n]
                    if w == EMPTY and n not in visited:
                        visited.add(n)
                        stack.append(n)
                    elif w in (BLACK, WHITE):
                        borders.add(w)
            if len(borders) == 1:
                area[borders.pop()] += region
        return area[BLACK] - area[WHITE] - komi

    def showboard(self) -> str:
        """Human picture of the board, for error messages."""
        symbols = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        header = "   " + " ".join(COLUMNS[: self.size])
        lines = [header]
        for row in range(1, self.size + 1):
            cells = " ".join(symbols[self.grid[row * self.stride + c]] for c in range(1, self.size + 1))
            lines.append(f"{self.size + 1 - row:2d} {cells}")
        return "\n".join(lines)
