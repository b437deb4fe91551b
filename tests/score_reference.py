#!/usr/bin/env python3
"""salta-score's counts against a plain breadth-first search written here.

A second implementation of the scoring count, in another language, from
docs/rules.md and docs/scoring.md alone: one side's pieces on a board clear
of the opponent's, moved by the variant's steps and jumps (over its own
pieces only), until every piece stands on its target. The positions are the
final positions of random games (salta-play), each read back with
salta-show; the tool counts them with salta-score --json, as a user would.
Where a game is over by a goal or the move limit (half the games have one),
its result and score are checked against the counts (or the pieces home)
by rules.md section 9.

Usage: score_reference.py BIN_DIR [--seed S] [--games G] [--boards 4x1,6x1]
(games per rule set and board; boards as NxR). A search of over 300,000
placements is skipped: in Python that takes minutes, and larger boards are
the C++ tests' (tests/finish_test.cpp). By hand, `--boards 6x2,8x1` checks
a few of those too.
Exit status: 0 every count agrees; 1 some count disagrees (printed), or
none was checked.
"""

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

KINDS = "SMU"  # stars, moons, suns: rows 1, 2, 3 as the owner sees them

# The rule sets: a preset and its overrides (docs/rules.md section 5).
RULE_SETS = [
    ("standard", []),
    ("pre1900", []),
    ("forward", []),
    ("standard", ["jump-over=any"]),
    ("standard", ["jump-over=any", "jump-dir=any", "chain=on"]),
    ("pre1900", ["jump-over=any", "chain=on"]),
    ("standard", ["steps=forward"]),
    ("forward", ["chain=off", "jump-dir=any"]),
    ("forward", ["goal=translate"]),
    ("forward", ["limit-scoring=moves"]),
]

PRESETS = {
    "standard": {"steps": "any", "jump-over": "opponent", "jump-dir": "forward",
                 "chain": "off", "goal": "translate", "limit-scoring": "moves",
                 "extra-move": "on"},
    "pre1900": {"steps": "any", "jump-over": "opponent", "jump-dir": "forward",
                "chain": "off", "goal": "mirror", "limit-scoring": "moves",
                "extra-move": "on"},
    "forward": {"steps": "forward", "jump-over": "any", "jump-dir": "forward",
                "chain": "on", "goal": "mirror", "limit-scoring": "pieces",
                "extra-move": "off"},
}


def rules_of(preset, overrides):
    rules = dict(PRESETS[preset])
    for o in overrides:
        key, value = o.split("=")
        rules[key] = value
    return rules


def dark_squares_of_rank(n, rank):
    """The dark squares (file, rank) of a 0-based rank, from the a file."""
    return [(f, rank) for f in range(n) if (f + rank) % 2 == 0]


def white_start(n, kind, number):
    return dark_squares_of_rank(n, kind)[number - 1]


def turned(n, sq):
    return (n - 1 - sq[0], n - 1 - sq[1])


def target(n, rows, goal, white, kind, number):
    """A piece's target square (rules.md section 4)."""
    if goal == "translate":
        sq = dark_squares_of_rank(n, kind + n - rows)[number - 1]
        return sq if white else turned(n, sq)
    # mirror: the start square of the opponent's piece of that kind and number
    sq = white_start(n, kind, number)
    return turned(n, sq) if white else sq


def parse_square(text):
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def parse_pieces(position):
    """{(white, kind, number): square} from a position's text."""
    field = position.split()[1]
    pieces = {}
    if field == "-":
        return pieces
    for item in field.split(","):
        letter = item[0]
        digits = ""
        i = 1
        while item[i].isdigit():
            digits += item[i]
            i += 1
        pieces[(letter.isupper(), KINDS.index(letter.upper()), int(digits))] = \
            parse_square(item[i:])
    return pieces


class Count:
    """The clear-board problem of one side, searched breadth first."""

    def __init__(self, n, rules, white):
        self.n = n
        fwd = 1 if white else -1
        self.steps = [(-1, fwd), (1, fwd)]
        if rules["steps"] == "any":
            self.steps += [(-1, -fwd), (1, -fwd)]
        self.jumps = []
        if rules["jump-over"] == "any":  # only own pieces stand on the board
            self.jumps = [(-1, fwd), (1, fwd)]
            if rules["jump-dir"] == "any":
                self.jumps += [(-1, -fwd), (1, -fwd)]
        self.chain = rules["chain"] == "on"

    def on_board(self, sq):
        return 0 <= sq[0] < self.n and 0 <= sq[1] < self.n

    def destinations(self, start, occupied):
        """Every square the piece on `start` can move to."""
        out = set()
        for d in self.steps:
            to = (start[0] + d[0], start[1] + d[1])
            if self.on_board(to) and to not in occupied:
                out.add(to)
        # Jumps; in a chain the start square is empty and never landed on.
        others = occupied - {start}
        visited = {start}
        stack = [start]
        while stack:
            at = stack.pop()
            for d in self.jumps:
                over = (at[0] + d[0], at[1] + d[1])
                to = (at[0] + 2 * d[0], at[1] + 2 * d[1])
                if (over in others and self.on_board(to) and to not in others
                        and to not in visited):
                    visited.add(to)
                    out.add(to)
                    if self.chain:
                        stack.append(to)
        return out

    def solve(self, squares, targets, limit=300_000):
        """Fewest moves from `squares` to `targets` (tuples, piece by
        piece); None when unreachable; raises when the search is too big."""
        start, goal = tuple(squares), tuple(targets)
        if start == goal:
            return 0
        seen = {start}
        frontier = [start]
        depth = 0
        while frontier:
            depth += 1
            nxt = []
            for state in frontier:
                occupied = set(state)
                for i, sq in enumerate(state):
                    for to in self.destinations(sq, occupied):
                        child = state[:i] + (to,) + state[i + 1:]
                        if child in seen:
                            continue
                        if child == goal:
                            return depth
                        seen.add(child)
                        nxt.append(child)
            if len(seen) > limit:
                raise RuntimeError("search too big")
            frontier = nxt
        return None


# One side's state in a position: its count (None: unreachable), its pieces
# on their targets, and whether it has completed its goal.
SideState = collections.namedtuple("SideState", "count home completed")


def limit_score(scoring, counts):
    """(result, score) of a game stopped by the move limit, neither side
    home (rules.md section 9, scoring.md's table); counts[side] is a
    SideState."""
    if scoring == "pieces":
        w, b = counts["white"].home, counts["black"].home
        return ("1-0" if w > b else "0-1" if b > w else "1/2-1/2", abs(w - b))
    w, b = counts["white"].count, counts["black"].count
    if w is None and b is None:
        return ("1/2-1/2", 0)
    if w is None:
        return ("0-1", None)
    if b is None:
        return ("1-0", None)
    b = max(b - 1, 0)  # Black moved second
    return ("1-0" if w < b else "0-1" if b < w else "1/2-1/2", abs(w - b))


def game_score(rules, white_to_move, reason, counts):
    """(result, score) of a game over by a goal or the move limit (rules.md
    section 9, the table of scoring.md)."""
    white_home, black_home = counts["white"].completed, counts["black"].completed
    if white_home and black_home:
        return ("1/2-1/2", 0)
    if black_home:
        return ("0-1", counts["white"].count)
    if white_home:
        need = counts["black"].count
        # Black's extra move due but not played (or cut off by the limit):
        # credited as played well, one move less.
        if rules["extra-move"] == "on" and (not white_to_move or
                                                      reason == "move-limit"):
            if need is None:
                return ("1-0", None)
            need = max(need - 1, 0)
            return ("1-0" if need > 0 else "1/2-1/2", need)
        return ("1-0", need)
    return limit_score(rules["limit-scoring"], counts)


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


class Checker:
    """Compares salta-score with the breadth-first counts, tallying."""

    def __init__(self, bin_dir):
        self.bin_dir = bin_dir
        self.checked = self.scored = self.disagreements = 0

    def tool(self, name):
        return os.path.join(self.bin_dir, name)

    def disagree(self, text):
        self.disagreements += 1
        print("DISAGREE", text)

    def check(self, what, position, rules, n, rows, score_args):
        """One position: both counts, then the result and score where the
        game is over by a goal or the move limit. Returns the JSON."""
        scored = run([self.tool("salta-score"), *score_args, "--side", "both", "--json",
                      "--pattern-dir", ""])
        if scored.returncode != 0:
            self.disagree(f"{what}: {position}: salta-score failed: {scored.stdout} "
                          f"{scored.stderr}")
            return None
        out = json.loads(scored.stdout)
        pieces = parse_pieces(position)
        counts = {}
        for white, name in ((True, "white"), (False, "black")):
            own = sorted(k for k in pieces if k[0] == white)
            squares = [pieces[k] for k in own]
            targets = [target(n, rows, rules["goal"], white, k[1], k[2]) for k in own]
            try:
                want = Count(n, rules, white).solve(squares, targets)
            except RuntimeError:
                continue
            counts[name] = SideState(want, sum(a == b for a, b in zip(squares, targets)),
                                     squares == targets and bool(own))
            got = out[name]
            self.checked += 1
            if not (got["exact"] and ((want is None and not got["reachable"]) or
                                      (want is not None and got["reachable"] and
                                       got["moves"] == want))):
                self.disagree(f"{what} {name}: {position}: breadth-first {want}, "
                              f"salta-score {json.dumps(got)}")
        reason = out.get("reason")
        if reason in ("goal", "extra-move", "move-limit") and len(counts) == 2:
            want = game_score(rules, position.split()[0] == "w", reason, counts)
            got = (out["result"], out["score"])
            self.scored += 1
            if want != got:
                self.disagree(f"{what} {reason}: {position}: expected {want}, "
                              f"salta-score {got}")
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--boards", default="4x1,6x1")
    args = ap.parse_args()
    checker = Checker(args.bin_dir)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        for preset, overrides in RULE_SETS:
            rules = rules_of(preset, overrides)
            rule_flags = [f for o in overrides for f in ("--rule", o)]
            for geometry in args.boards.split(","):
                n, rows = (int(x) for x in geometry.split("x"))
                record = os.path.join(tmp, "games.sgn")
                plies = rng.randint(2, 8 * n)
                # Half the games stop at a move limit, scored by both counts.
                limit = ["--rule", f"move-limit={rng.randint(1, 4 * n)}"] if rng.random() < 0.5 \
                    else []
                r = run([checker.tool("salta-play"), "--rules", preset, *rule_flags, *limit,
                         "--board", str(n), "--rows", str(rows), "--games", str(args.games),
                         "--seed", str(rng.randint(1, 10**6)), "--player", "random",
                         "--max-plies", str(plies), "-o", record])
                if r.returncode != 0:
                    print("salta-play failed:", r.stderr, file=sys.stderr)
                    return 1
                what = f"{preset} {' '.join(overrides)} {n}x{n}/{rows}"
                for game in range(1, args.games + 1):
                    position = show(checker, ["--record", record, "--game", str(game)])
                    out = checker.check(what, position, rules, n, rows,
                                        ["--record", record, "--game", str(game)])
                    if out and out.get("reason") == "extra-move" and position.startswith("w "):
                        # The same game before Black's extra move: credited.
                        ply = int(position.split()[2]) - 1
                        before = show(checker, ["--record", record, "--game", str(game),
                                                "--ply", str(ply)])
                        checker.check(what + " before the extra move", before, rules, n, rows,
                                      ["--rules", preset, *rule_flags, *limit, "--board",
                                       str(n), "--rows", str(rows), "--position", before])
    print(f"{checker.checked} counts and {checker.scored} games' results and scores checked, "
          f"{checker.disagreements} disagree")
    return 1 if checker.disagreements or checker.checked == 0 else 0


def show(checker, args):
    """A position's text, as salta-show prints it."""
    shown = run([checker.tool("salta-show"), *args])
    for line in shown.stdout.splitlines():
        if line.startswith("Position: "):
            return line.split(": ", 1)[1]
    raise RuntimeError(f"salta-show {' '.join(args)}: no position: {shown.stderr}")


if __name__ == "__main__":
    sys.exit(main())
