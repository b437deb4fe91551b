#!/usr/bin/env python3
"""Checks an SVG diagram of salta-show against the position it shows.

usage: svg_check.py SVG SIZE PIECES [--flip] [--last SQ,SQ,...] [--marked SQ,SQ,...]

PIECES is the pieces field of the position text (docs/notation.md), e.g.
"S1a1,M1b2,s1f6", or "-" for none. The drawing must parse as XML (a real
parser: xml.etree), be an <svg> in the SVG namespace with the documented
viewBox, have one dark square rect per dark square and exactly one piece
element per piece, each where the documented layout puts its square:
squares of 50 units after a 25-unit band, rank SIZE at the top (rank 1 with
--flip). Exit status 0 when all holds; 1 with the reasons otherwise.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
SQUARE, MARGIN = 50, 25


def square_xy(name, size, flip):
    file, rank = ord(name[0]) - ord("a"), int(name[1:]) - 1
    column = size - 1 - file if flip else file
    row = rank if flip else size - 1 - rank
    return MARGIN + column * SQUARE, MARGIN + row * SQUARE


def main(argv):
    args = argv[1:]
    flip = "--flip" in args
    args = [a for a in args if a != "--flip"]
    options = {}
    for key in ("--last", "--marked"):
        if key in args:
            i = args.index(key)
            options[key] = [s for s in args[i + 1].split(",") if s]
            del args[i : i + 2]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, size, pieces = args[0], int(args[1]), args[2]
    errors = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: not XML: {e}")
        return 1
    if root.tag != NS + "svg":
        errors.append(f"root element is {root.tag}, not svg in the SVG namespace")
    total = size * SQUARE + 2 * MARGIN
    if root.get("viewBox") != f"0 0 {total} {total}":
        errors.append(f"viewBox {root.get('viewBox')!r}, expected '0 0 {total} {total}'")

    dark = {}
    for rect in root.iter(NS + "rect"):
        if rect.get("class") == "dark":
            dark[rect.get("data-square")] = (int(rect.get("x")), int(rect.get("y")))
    expected_dark = {}
    for rank in range(size):
        for file in range(size):
            if (file + rank) % 2 == 0:
                name = chr(ord("a") + file) + str(rank + 1)
                expected_dark[name] = square_xy(name, size, flip)
    if dark != expected_dark:
        wrong = sorted(set(dark.items()) ^ set(expected_dark.items()))
        errors.append(f"dark squares differ from the layout: {wrong[:6]}")

    expected = {}
    if pieces != "-":
        for item in pieces.split(","):
            m = re.fullmatch(r"([SMUsmu][1-5])([a-j](?:10|[1-9]))", item)
            if not m:
                errors.append(f"bad piece item {item!r}")
                continue
            expected[m.group(1)] = m.group(2)
    found = {}
    for g in root.iter(NS + "g"):
        if g.get("class") != "piece":
            continue
        name, square = g.get("data-piece"), g.get("data-square")
        if name in found:
            errors.append(f"two elements for piece {name}")
        found[name] = square
        if expected.get(name) != square:
            errors.append(f"piece {name} on {square}, expected {expected.get(name)}")
            continue
        x, y = square_xy(square, size, flip)
        want = f"translate({x + SQUARE // 2} {y + SQUARE // 2})"
        if g.get("transform") != want:
            errors.append(f"piece {name} at {g.get('transform')}, expected {want}")
        side = "white" if name[0].isupper() else "black"
        if g.get("data-side") != side:
            errors.append(f"piece {name}: data-side {g.get('data-side')}")
        if g.find(NS + "path") is None or g.find(NS + "text") is None:
            errors.append(f"piece {name}: no shape (path) or number (text)")
        elif g.find(NS + "text").text != name[1]:
            errors.append(f"piece {name}: number {g.find(NS + 'text').text!r}")
    for name in expected.keys() - found.keys():
        errors.append(f"no element for piece {name}")

    arrows = [p for p in root.iter(NS + "polyline") if p.get("class") == "last-move"]
    if "--last" in options:
        squares = options["--last"]
        if len(arrows) != 1:
            errors.append(f"{len(arrows)} last-move arrows, expected 1")
        else:
            points = arrows[0].get("points").split()
            x, y = square_xy(squares[0], size, flip)
            if points[0] != f"{x + SQUARE // 2},{y + SQUARE // 2}" or len(points) != len(squares):
                errors.append(f"arrow {points} does not start at {squares[0]} with {len(squares)} points")
            if not arrows[0].get("marker-end", "").startswith("url(#"):
                errors.append("the arrow has no head (marker-end)")
    elif arrows:
        errors.append("an arrow, but no last move")
    marked = sorted(r.get("data-square") for r in root.iter(NS + "rect") if r.get("class") == "marked")
    if sorted(options.get("--marked", [])) != marked:
        errors.append(f"marked squares {marked}, expected {sorted(options.get('--marked', []))}")

    for e in errors:
        print(f"{path}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
