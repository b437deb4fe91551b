#!/usr/bin/env python3
"""The game viewer of salta-show --html in a real browser (issue 11).

Headless Chromium (Debian's chromium and chromium-driver, driven by
python3-selenium) opens pages that salta-show wrote for record files of
data/games/valid and for a record with hostile tags, steps through every
game with the arrow keys (forward to the end with ArrowRight, back to the
start with ArrowLeft), and checks at every ply that

  - the page's position text is the library's position at that ply, as
    salta-perft (another tool and code path: PlayMoves) computes it from
    the record's start, rules and board and the moves so far;
  - the pieces drawn on the visible board are exactly that position's
    pieces, each drawn inside its square;
  - the ply counter, the last-move arrow and the move list agree;

and that the buttons, Home and End, the list of games, the result section
(against salta-score --json), escaping of user text and the page's loading
nothing at all hold. A screenshot is kept in --out as a test artifact
(viewer.png; failure.png when a check fails).

usage: viewer_test.py --tools DIR --data DIR --out DIR
Exit status 0 when every check holds, 1 otherwise.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    sys.exit(
        "viewer_test.py: python3-selenium is missing (./dev.sh test installs it with chromium and "
        "chromium-driver)"
    )

CHROME_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1200,1000",
]

# What the page shows, read in one call: the ply counter, the position
# text, the visible board's pieces (name, square, whether the drawing lies
# inside its square's rect) and arrow, and the current move in the list.
READ_STATE = """
const board = document.querySelector('#boards > .board:not([hidden])');
const svg = board.querySelector('svg');
const pieces = [];
for (const el of svg.querySelectorAll('.piece')) {
  if (el.getAttribute('display') === 'none') continue;
  const square = el.getAttribute('data-square');
  const rect = svg.querySelector('rect.dark[data-square="' + square + '"]');
  const p = el.getBoundingClientRect(), r = rect.getBoundingClientRect();
  const inside = p.width > 0 && p.left >= r.left - 1 && p.right <= r.right + 1 &&
                 p.top >= r.top - 1 && p.bottom <= r.bottom + 1;
  pieces.push([el.getAttribute('data-piece'), square, inside]);
}
const arrow = svg.querySelector('.last-move');
const current = document.querySelectorAll('#infos > .info:not([hidden]) .move.current');
return {
  game: Number(board.getAttribute('data-game')),
  ply: Number(document.getElementById('ply').getAttribute('data-ply')),
  position: document.getElementById('position-text').textContent,
  pieces: pieces,
  arrow: arrow.getAttribute('display') === 'none' ? '' : arrow.getAttribute('points'),
  current: Array.from(current).map(e => Number(e.getAttribute('data-ply'))),
};
"""

READ_MOVES = """
return Array.from(document.querySelectorAll('#infos > .info:not([hidden]) .move'))
    .map(e => [Number(e.getAttribute('data-ply')), e.textContent]);
"""


class Failure(Exception):
    pass


class Checker:
    def __init__(self, args):
        self.tools = args.tools
        self.data = args.data
        self.out = args.out
        self.errors = []
        self.checked_plies = 0
        self.perft_cache = {}

    def error(self, message):
        self.errors.append(message)
        print("FAIL: " + message, file=sys.stderr)
        if len(self.errors) > 20:
            raise Failure("too many failures")

    def expect(self, condition, message):
        if not condition:
            self.error(message)

    def tool(self, name, *args):
        r = subprocess.run(
            [os.path.join(self.tools, name), *args], capture_output=True, text=True, timeout=300
        )
        if r.returncode != 0:
            raise Failure(f"{name} {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
        return r.stdout

    # -- what the library says ------------------------------------------------

    @staticmethod
    def tags(record_text):
        """The tags of each game of a record file, split as docs/records.md
        says: a game ends at its result token, or where a tag follows its
        moves; comments are skipped."""
        games, current, state = [], None, "start"
        text, i = record_text.lstrip("\ufeff"), 0
        tag = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\\n]|\\.)*)"\s*\]')
        while i < len(text):
            c = text[i]
            if c == "{" or c == ";":
                end = text.find("}" if c == "{" else "\n", i)
                i = len(text) if end < 0 else end + 1
            elif c == "[":
                m = tag.match(text, i)
                if not m:
                    raise Failure(f"cannot read the tag at {text[i:i + 40]!r}")
                if current is None or state != "tags":
                    current, state = {}, "tags"
                    games.append(current)
                current[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
                i = m.end()
            elif c.isspace():
                i += 1
            else:
                m = re.compile(r"[^\s{;\[]+").match(text, i)
                if current is None or state == "ended":
                    current = {}
                    games.append(current)
                state = "ended" if m.group(0) in ("1-0", "0-1", "1/2-1/2", "*") else "moves"
                i = m.end()
        return games

    @staticmethod
    def variant_args(tags):
        args = []
        rules = tags.get("Rules", "standard").split()
        args += ["--rules", rules[0]]
        for option in rules[1:]:
            args += ["--rule", option]
        board = tags.get("Board", "10x10, 3 rows")
        m = re.fullmatch(r"\s*(\d+)(?:x\d+)?\s*(?:,\s*(\d+)\s+rows?)?\s*", board)
        size = int(m.group(1))
        rows = int(m.group(2)) if m.group(2) else min(3, (size - 1) // 2)
        args += ["--board", str(size), "--rows", str(rows)]
        return args

    def library_position(self, tags, moves):
        key = (json.dumps(tags, sort_keys=True), tuple(moves))
        if key not in self.perft_cache:
            out = self.tool(
                "salta-perft",
                *self.variant_args(tags),
                "--position",
                tags.get("Position", "start"),
                "--moves",
                " ".join(moves),
                "--json",
                "0",
            )
            self.perft_cache[key] = json.loads(out)["position"]
        return self.perft_cache[key]

    # -- the page -------------------------------------------------------------

    def check_ply(self, driver, what, tags, moves, ply):
        state = driver.execute_script(READ_STATE)
        where = f"{what}, ply {ply}"
        if state["ply"] != ply:
            self.error(f"{where}: the page shows ply {state['ply']}")
            return state
        expected = self.library_position(tags, [m.rstrip("!?") for _, m in moves[:ply]])
        self.expect(
            state["position"] == expected,
            f"{where}: position text {state['position']!r}, the library says {expected!r}",
        )
        field = expected.split()[1]
        pieces = {}
        if field != "-":
            for item in field.split(","):
                pieces[item[:2]] = item[2:]
        drawn = {name: square for name, square, _ in state["pieces"]}
        self.expect(
            len(drawn) == len(state["pieces"]), f"{where}: a piece is drawn twice: {state['pieces']}"
        )
        self.expect(drawn == pieces, f"{where}: pieces drawn {drawn}, the library says {pieces}")
        outside = [name for name, _, inside in state["pieces"] if not inside]
        self.expect(not outside, f"{where}: pieces drawn outside their squares: {outside}")
        is_pass = ply > 0 and moves[ply - 1][1].rstrip("!?") == "--"
        self.expect(
            (state["arrow"] != "") == (ply > 0 and not is_pass),
            f"{where}: arrow {state['arrow']!r}",
        )
        self.expect(
            state["current"] == ([ply] if ply > 0 else []),
            f"{where}: current move in the list {state['current']}",
        )
        self.checked_plies += 1
        return state

    def walk(self, driver, what, tags):
        """Every ply forward with ArrowRight, then back with ArrowLeft."""
        moves = driver.execute_script(READ_MOVES)
        self.expect(
            [p for p, _ in moves] == list(range(1, len(moves) + 1)),
            f"{what}: move list plies {[p for p, _ in moves]}",
        )
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.HOME)
        self.check_ply(driver, what, tags, moves, 0)
        for ply in range(1, len(moves) + 1):
            body.send_keys(Keys.ARROW_RIGHT)
            self.check_ply(driver, what, tags, moves, ply)
        body.send_keys(Keys.ARROW_RIGHT)  # past the end: stays
        self.check_ply(driver, what, tags, moves, len(moves))
        for ply in range(len(moves) - 1, -1, -1):
            body.send_keys(Keys.ARROW_LEFT)
            self.check_ply(driver, what, tags, moves, ply)
        body.send_keys(Keys.ARROW_LEFT)  # before the start: stays
        self.check_ply(driver, what, tags, moves, 0)
        return moves

    def open(self, driver, html, anchor=""):
        driver.get("file://" + html + anchor)
        if anchor:
            driver.refresh()  # a new hash on the same file only fires hashchange

    def page_loaded_nothing(self, driver, what):
        resources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name);"
        )
        self.expect(resources == [], f"{what}: the page loaded {resources}")
        severe = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        self.expect(severe == [], f"{what}: browser console errors {severe}")

    def make_page(self, record, *flags):
        html = os.path.join(self.tmp, os.path.basename(record) + "".join(flags) + ".html")
        self.tool("salta-show", "--record", record, "--html", html, *flags)
        return html

    def run(self, driver):
        self.tmp = tempfile.mkdtemp(prefix="salta_viewer_")
        try:
            self.check_all_games(driver, "standard-6x6.sgn")
            self.check_result(driver, "standard-6x6.sgn")
            self.check_all_games(driver, "features.sgn")
            self.check_all_games(driver, "passes-4x4.sgn")
            self.check_all_games(driver, "scored.sgn", "--flip")
            self.check_result(driver, "scored.sgn")
            self.check_buttons_and_keys(driver)
            self.check_hostile_text(driver)
            self.screenshot(driver)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def check_all_games(self, driver, name, *flags):
        record = os.path.join(self.data, "games", "valid", name)
        with open(record, encoding="utf-8-sig") as f:
            all_tags = self.tags(f.read())
        html = self.make_page(record, *flags)
        self.open(driver, html)
        self.page_loaded_nothing(driver, name)
        links = driver.find_elements(By.CSS_SELECTOR, "#games a[data-game]")
        count = max(1, len(links))
        self.expect(count == len(all_tags), f"{name}: {count} games listed, {len(all_tags)} in the file")
        for k in range(count):
            if links:
                links[k].click()
            state = driver.execute_script(READ_STATE)
            self.expect(state["game"] == k, f"{name}: game {k + 1} picked, game {state['game'] + 1} shown")
            flipped = driver.execute_script(
                "return document.querySelector('#boards > .board:not([hidden]) svg')"
                ".getAttribute('data-flip');"
            )
            self.expect(flipped == ("true" if "--flip" in flags else "false"), f"{name}: data-flip {flipped}")
            self.walk(driver, f"{name} game {k + 1}", all_tags[k])

    def check_result(self, driver, name):
        """The result section of each finished game against salta-score."""
        record = os.path.join(self.data, "games", "valid", name)
        html = self.make_page(record)
        self.open(driver, html)
        sections = driver.execute_script(
            "return Array.from(document.querySelectorAll('#infos > .info .result')).map(e =>"
            " ({result: e.dataset.result, score: e.dataset.score || null,"
            "   white: e.dataset.whiteCount || null, black: e.dataset.blackCount || null,"
            "   text: e.textContent}));"
        )
        for k, section in enumerate(sections):
            if section["result"] == "*":
                continue
            score = json.loads(self.tool("salta-score", "--record", record, "--game", str(k + 1), "--json"))
            what = f"{name} game {k + 1}"
            self.expect(section["result"] == score["result"], f"{what}: result {section} vs {score}")
            self.expect(
                section["score"] == (None if score["score"] is None else str(score["score"])),
                f"{what}: score {section['score']} vs {score['score']}",
            )
            for side in ("white", "black"):
                moves = score[side]["moves"]
                self.expect(
                    section[side] == (None if moves is None else str(moves)),
                    f"{what}: {side} count {section[side]} vs {moves}",
                )
            self.expect("Score" in section["text"] and "needs" in section["text"], f"{what}: {section['text']}")

    def check_buttons_and_keys(self, driver):
        record = os.path.join(self.data, "games", "valid", "standard-6x6.sgn")
        self.open(driver, self.make_page(record), "#game-2")
        ply = lambda: driver.execute_script(READ_STATE)["ply"]
        game = lambda: driver.execute_script(READ_STATE)["game"]
        self.expect(game() == 1, f"#game-2 shows game {game() + 1}")
        last = len(driver.execute_script(READ_MOVES))
        driver.find_element(By.ID, "next").click()
        driver.find_element(By.ID, "next").click()
        self.expect(ply() == 2, f"two clicks on next: ply {ply()}")
        driver.find_element(By.ID, "prev").click()
        self.expect(ply() == 1, f"prev: ply {ply()}")
        driver.find_element(By.ID, "last").click()
        self.expect(ply() == last, f"last: ply {ply()} of {last}")
        self.expect(driver.find_element(By.ID, "next").get_attribute("disabled") is not None, "next enabled at the end")
        driver.find_element(By.ID, "first").click()
        self.expect(ply() == 0, f"first: ply {ply()}")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.END)
        self.expect(ply() == last, f"End: ply {ply()}")
        body.send_keys(Keys.HOME)
        self.expect(ply() == 0, f"Home: ply {ply()}")
        driver.find_element(By.CSS_SELECTOR, "#infos > .info:not([hidden]) .move[data-ply='5']").click()
        self.expect(ply() == 5, f"a click on move 5: ply {ply()}")
        # Targets: the side to move's target squares, shown on request.
        shown = lambda: driver.execute_script(
            "return Array.from(document.querySelectorAll('#boards > .board:not([hidden]) .targets'))"
            ".filter(g => g.getAttribute('display') !== 'none').map(g => g.dataset.side);"
        )
        self.expect(shown() == [], f"targets shown before asked: {shown()}")
        driver.find_element(By.ID, "targets").click()
        self.expect(shown() == ["black"], f"targets at ply 5 (Black to move): {shown()}")
        body.send_keys(Keys.ARROW_RIGHT)
        self.expect(shown() == ["white"], f"targets at ply 6 (White to move): {shown()}")

    def check_hostile_text(self, driver):
        record = os.path.join(self.tmp, "hostile.sgn")
        white = '</script><script>window.pwned = 1</script>'
        black = 'A & B <b>bold</b> "quoted" \'single\' <!-- ü'
        with open(record, "w", encoding="utf-8") as f:
            f.write(
                f'[Event "<img src=x onerror=window.pwned=2>"]\n[White "{white.replace(chr(34), chr(92) + chr(34))}"]\n'
                f'[Black "{black.replace(chr(34), chr(92) + chr(34))}"]\n[Board "4x4"]\n\n'
                "{</script><script>window.pwned = 3</script>} 1. c1-d2 {]]> & <x>} b4-a3 *\n"
            )
        self.open(driver, self.make_page(record))
        self.expect(driver.execute_script("return window.pwned === undefined;"), "user text ran as script")
        heading = driver.find_element(By.CSS_SELECTOR, "#infos > .info h2").text
        self.expect(heading == f"{white} \u2013 {black}", f"heading {heading!r}")
        cells = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "table.tags td")]
        self.expect("<img src=x onerror=window.pwned=2>" in cells, f"tags {cells}")
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        comment = driver.find_element(By.ID, "comment").text
        self.expect(comment == "]]> & <x>", f"comment {comment!r}")
        self.walk(driver, "hostile.sgn", {"Board": "4x4"})
        self.page_loaded_nothing(driver, "hostile.sgn")

    def screenshot(self, driver):
        record = os.path.join(self.data, "games", "valid", "standard-6x6.sgn")
        self.open(driver, self.make_page(record, "--targets"), "#game-2")
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(20):
            body.send_keys(Keys.ARROW_RIGHT)
        path = os.path.join(self.out, "viewer.png")
        self.expect(driver.save_screenshot(path), f"screenshot {path} not written")


def find_program(name, *candidates):
    for c in candidates:
        if os.path.exists(c):
            return c
    found = shutil.which(name)
    if not found:
        sys.exit(f"viewer_test.py: {name} not found (./dev.sh test installs chromium and chromium-driver)")
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    chromium = find_program("chromium", "/usr/bin/chromium")
    driver_path = find_program("chromedriver", "/usr/bin/chromedriver")
    profile = tempfile.mkdtemp(prefix="salta_chromium_")
    options = Options()
    options.binary_location = chromium
    for flag in CHROME_FLAGS + [f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    checker = Checker(args)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        checker.run(driver)
    except Failure as e:
        checker.errors.append(str(e))
        print("FAIL: " + str(e), file=sys.stderr)
    except Exception:
        checker.errors.append("exception")
        traceback.print_exc()
    finally:
        if checker.errors:
            driver.save_screenshot(os.path.join(args.out, "failure.png"))
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(f"viewer_test.py: {checker.checked_plies} plies checked, {len(checker.errors)} failures; "
          f"screenshot in {args.out}")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
