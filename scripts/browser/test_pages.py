"""The pages in a real browser (SPEC section 11): headless Chromium, driven
through chromedriver (webdriver.py), opens the game page of `kifu show
--html` and the database browser of `kifu serve`, clicks and presses keys,
and reads what a person sees: the board, the move list, the counts, the
graph, the lists of games. Every page is checked for console errors.

Run by scripts/ci-browser.sh (KIFU: the kifu binary, KIFU_CORPUS: the
corpus, KIFU_SHOTS: where to save the screenshots README.md and docs/serve.md show).
"""

import json
import os
import random
import re
import subprocess
import sys
import time
import unittest
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(__file__))
from webdriver import Driver  # noqa: E402

KIFU = os.environ.get("KIFU", "target/release/kifu")
CORPUS = os.environ.get("KIFU_CORPUS", "../shared/corpus")
WORK = os.environ.get("KIFU_BROWSER_WORK", "target/browser")
SHOTS = os.environ.get("KIFU_SHOTS")
WTHOR = os.path.join(CORPUS, "wthor")

os.makedirs(WORK, exist_ok=True)
driver = None


def setUpModule():
    global driver
    driver = Driver()


def tearDownModule():
    if driver:
        driver.quit()


def kifu(*args, ok=(0, 1)):
    run = subprocess.run([KIFU, *args], capture_output=True, text=True)
    if run.returncode not in ok:
        raise AssertionError(f"kifu {' '.join(args)}: exit {run.returncode}: {run.stderr}")
    return run


def no_console_errors(test, where):
    entries = driver.console()
    bad = [e for e in entries if e.get("level") == "SEVERE"]
    test.assertEqual(bad, [], f"console errors on {where}")


# A naive engine, square by square in the 8 directions, to make random
# games (a third implementation beside kifu's and the page's).
DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def flips(cells, square, color):
    if cells[square] != ".":
        return []
    them = "O" if color == "X" else "X"
    r0, c0 = divmod(square, 8)
    out = []
    for dr, dc in DIRS:
        line, r, c = [], r0 + dr, c0 + dc
        while 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == them:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and cells[r * 8 + c] == color:
            out += line
    return out


def name(square):
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def random_game(rng):
    cells = ["."] * 64
    cells[27], cells[28], cells[35], cells[36] = "O", "X", "X", "O"
    color, tokens = "X", []
    stop = rng.random() < 0.3 and rng.randrange(5, 60)
    explicit = rng.random() < 0.3
    while True:
        legal = [s for s in range(64) if flips(cells, s, color)]
        if not legal:
            other = "O" if color == "X" else "X"
            if not any(flips(cells, s, other) for s in range(64)):
                break
            if explicit:
                tokens.append("--")
            color = other
            continue
        if stop and len(tokens) >= stop:
            break
        square = rng.choice(legal)
        for f in flips(cells, square, color):
            cells[f] = color
        cells[square] = color
        tokens.append(name(square))
        color = "O" if color == "X" else "X"
    if rng.random() < 0.1 and tokens:
        # An illegal move: a square already taken.
        taken = [s for s in range(64) if cells[s] != "."]
        tokens.append(name(rng.choice(taken)))
        tokens.append("c4")
    return "".join(tokens)


# Steps a viewer through every move of its game by its own key handler and
# reads the board (each square's disc), the counts, the move list's current
# move and the graph's cursor after each step.
READ_GAME = """
const root = document.getElementById('app');
const read = () => ({
  cells: [...root.querySelectorAll('.square')].map((s) => s.dataset.cell).join(''),
  black: Number(root.querySelector('.counts').dataset.black),
  white: Number(root.querySelector('.counts').dataset.white),
  current: root.querySelector('.moves .current .number')?.textContent || 'start',
  graph: root.querySelector('svg.graph').dataset.move,
  status: root.querySelector('.status').textContent,
});
const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
key('Home');
const out = [read()];
for (let i = 0; i < 200; i++) {
  const before = root.querySelector('svg.graph').dataset.move;
  key('ArrowRight');
  if (root.querySelector('svg.graph').dataset.move === before) break;
  out.push(read());
}
return out;
"""


def bits(value):
    return {s for s in range(64) if value >> s & 1}


class GamePage(unittest.TestCase):
    def wait_url(self, part):
        driver.wait(lambda: part in driver.url, f"{part} in the URL")

    def test_replay_in_the_page_agrees_with_kifu_on_random_games(self):
        rng = random.Random(28)
        games = [random_game(rng) for _ in range(120)]
        source = os.path.join(WORK, "random.txt")
        with open(source, "w") as f:
            f.write("\n".join(games) + "\n")
        page = os.path.join(WORK, "random.html")
        kifu("show", source, "--html", page)
        rows = kifu("positions", source, "--to", "csv", "--all-games").stdout.splitlines()
        header = rows[0].split(",")
        positions = {}
        for line in rows[1:]:
            row = dict(zip(header, line.split(",")))
            positions.setdefault(int(row["game"]), []).append(row)
        objects = [json.loads(l) for l in kifu("convert", source, "--to", "jsonl").stdout.splitlines()]
        driver.get("file://" + os.path.abspath(page) + "#game=1&move=0")
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the page")
        checked = 0
        for number, game in enumerate(objects, start=1):
            if number > 1:
                # The next game by the page's own key (setting the fragment
                # a hundred times over would meet the browser's throttle
                # on navigations).
                driver.script("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true }));")
            driver.wait(lambda: driver.find(".game-title").text.startswith(f"Game {number}:"), f"game {number}")
            seen = driver.script(READ_GAME)
            legal = game["error_move"] - 1 if game["error_move"] else len([p for p in game.get("plies", []) if not p.get("implicit")])
            self.assertEqual(len(seen) - 1, legal, f"game {number}: moves the page plays")
            # Every position where a disc is placed, as kifu writes it.
            token = 0
            for ply, p in enumerate(game.get("plies", [])):
                if p.get("implicit"):
                    continue
                if token >= legal:
                    break
                row = next((r for r in positions.get(number, []) if int(r["ply"]) == ply), None)
                if row is not None:
                    cells = seen[token]["cells"]
                    mine = "X" if row["side"] == "black" else "O"
                    theirs = "O" if mine == "X" else "X"
                    self.assertEqual({i for i, c in enumerate(cells) if c == mine}, bits(int(row["player"])), f"game {number} ply {ply}")
                    self.assertEqual({i for i, c in enumerate(cells) if c == theirs}, bits(int(row["opponent"])), f"game {number} ply {ply}")
                    self.assertEqual(row["move"], p["move"])
                    checked += 1
                token += 1
            last = seen[-1]
            if game["status"] != "invalid":
                board = game["final_board"]
                self.assertEqual(last["cells"], board, f"game {number}: final board")
                self.assertEqual((last["black"], last["white"]), (game["black_discs"], game["white_discs"]))
            else:
                self.assertIn("breaks the rules", last["status"], f"game {number}")
            for k, state in enumerate(seen):
                self.assertEqual(state["graph"], str(k))
                self.assertEqual(state["current"], "start" if k == 0 else f"{k}.")
        self.assertGreater(checked, 3000)
        no_console_errors(self, "the random games' page")

    def test_stepping_by_buttons_keys_clicks_and_the_fragment(self):
        source = os.path.join(WTHOR, "WTH_2004.wtb")
        page = os.path.join(WORK, "tastet.html")
        kifu("show", source, "--player", "tastet", "--html", page)
        objects = [json.loads(l) for l in kifu("convert", source, "--player", "tastet", "--to", "jsonl").stdout.splitlines()]
        driver.get("file://" + os.path.abspath(page) + "#game=3&move=25")
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the page")
        status = driver.find(".status").text
        self.assertTrue(status.startswith("Move 25: "), status)
        self.assertEqual(driver.find(".moves .current .number").text, "25.")
        self.assertEqual(driver.find("svg.graph").attribute("data-move"), "25")
        self.assertIn(objects[2]["black_player"], driver.find(".game-title").text)
        # The counts are the board's discs.
        cells = [s.attribute("data-cell") for s in driver.find_all(".square")]
        counts = driver.find(".counts")
        self.assertEqual(int(counts.attribute("data-black")), cells.count("X"))
        self.assertEqual(int(counts.attribute("data-white")), cells.count("O"))
        self.assertEqual(cells.count("X") + cells.count("O"), 4 + 25)
        # The last move is marked, and it is the 25th square of the record.
        last = driver.find(".square.last").attribute("data-square")
        self.assertEqual(last, objects[2]["moves"][48:50])
        # Keys: the fragment follows.
        driver.script("document.activeElement && document.activeElement.blur()")
        driver.keys("ArrowRight")
        self.wait_url("move=26")
        driver.keys("ArrowLeft", "ArrowLeft")
        self.wait_url("move=24")
        driver.keys("End")
        self.assertTrue(driver.find(".status").text.endswith(f"Game over: {'Black' if objects[2]['black_score'] > objects[2]['white_score'] else 'White'} wins {max(objects[2]['black_score'], objects[2]['white_score'])}–{min(objects[2]['black_score'], objects[2]['white_score'])}.") or "Draw" in driver.find(".status").text)
        driver.keys("Home")
        self.wait_url("move=0")
        self.assertEqual(driver.find(".status").text, "Start position. Black to move.")
        # Buttons.
        driver.find("button[aria-label^='Forward']").click()
        driver.find("button[aria-label^='Forward']").click()
        self.wait_url("move=2")
        # A click on a move of the list, on the graph, on the next square.
        driver.find_all(".moves .move")[40].click()
        self.wait_url("move=40")
        next_square = objects[2]["moves"][80:82]
        driver.find(f".square[data-square='{next_square}']").click()
        self.wait_url("move=41")
        driver.script("const g = document.querySelector('svg.graph'); const b = g.getBoundingClientRect();"
                      "g.dispatchEvent(new MouseEvent('click', {clientX: b.left + 24 * b.width / 600, clientY: b.top + 10, bubbles: true}));")
        self.wait_url("move=0")
        # Another game: Page Down, and a row of the list.
        driver.script("document.activeElement && document.activeElement.blur()")
        driver.keys("PageDown")
        self.wait_url("game=4&")
        rows = driver.find_all("table.games tbody tr")
        self.assertEqual(len(rows), min(200, len(objects)))
        rows[9].click()
        self.wait_url("game=10&")
        self.assertIn(objects[9]["white_player"], driver.find(".game-title").text)
        # The search box narrows the list.
        search = driver.find(".search input")
        search.send_keys(objects[9]["white_player"].split()[0])
        shown = [r.find_all("td")[2].text for r in driver.find_all("table.games tbody tr")]
        wanted = objects[9]["white_player"].split()[0].lower()
        self.assertTrue(shown and all(wanted in (r.find_all("td")[1].text + r.find_all("td")[2].text).lower() for r in driver.find_all("table.games tbody tr")))
        # A fragment typed in opens that game at that move.
        driver.script("location.hash = '#game=7&move=12';")
        driver.wait(lambda: driver.find(".status").text.startswith("Move 12: ") and "Game 7:" in driver.find(".game-title").text, "the fragment")
        self.assertIn("Game 7:", driver.find(".game-title").text)
        # Screen readers: the squares, the moves and the graph are named;
        # the status is announced.
        self.assertRegex(driver.find(".square[data-square='d4']").attribute("aria-label"), r"^d4: (black|white)")
        self.assertEqual(driver.find(".status").attribute("aria-live"), "polite")
        self.assertTrue(driver.find("svg.graph").attribute("aria-label").startswith("Graph of the disc difference"))
        self.assertTrue(driver.find_all(".moves .move")[1].attribute("aria-label").startswith("move 1, Black f5"))
        no_console_errors(self, "the game page")
        if SHOTS:
            driver.find(".search input").clear()
            driver.script("document.querySelector('.search input').dispatchEvent(new Event('input'))")
            driver.script("location.hash = '#game=7&move=38';")
            time.sleep(0.2)
            driver.screenshot(os.path.join(SHOTS, "game-page.png"))

    def test_an_analysis_marks_values_and_mistakes(self):
        page = os.path.join(WORK, "analysed.html")
        kifu("show", "fixtures/transcripts/example.txt", "--html", page, "--analyze", "14", "--depth", "0", "--hash", "32")
        driver.get("file://" + os.path.abspath(page) + "#game=2&move=50")
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the page")
        value = driver.find(".value").text
        self.assertRegex(value, r"^Exact value: ([+−]\d+|0) for Black with perfect play\.")
        mistakes = driver.find_all(".moves li.mistake")
        dots = driver.find_all("circle.mistake-dot")
        self.assertEqual(len(mistakes), len(dots))
        self.assertGreater(len(mistakes), 0)
        self.assertIn("a mistake: loses", mistakes[0].find_all("button")[0].attribute("aria-label"))
        self.assertTrue(driver.find(".analysis").text.startswith("Exact analysis from move "))
        no_console_errors(self, "the analysed page")
        if SHOTS:
            driver.screenshot(os.path.join(SHOTS, "game-page-analysis.png"))

    def test_a_whole_game_analysis_draws_estimates_and_exact_values_apart(self):
        page = os.path.join(WORK, "judged.html")
        kifu("show", "fixtures/transcripts/example.txt", "--html", page,
             "--analyze", "14", "--depth", "4", "--hash", "32")
        with open(page) as f:
            data = json.loads(f.read().split('id="kifu-data">')[1].split("</script>")[0])
        # A complete game judged from move 1 that reaches the exact part,
        # with mistakes in both parts.
        def parts(a):
            return [m for m in a["m"] if m[4] > 0], [m for m in a["m"] if m[4] == 0]
        number, analysis = next((i, g["a"]) for i, g in enumerate(data["games"], start=1)
                                if g["s"] == "c" and all(parts(g["a"])))
        estimated, exact = parts(analysis)
        self.assertEqual(analysis["d"], 4)
        self.assertEqual([m[4] for m in estimated], [4] * len(estimated))
        driver.get("file://" + os.path.abspath(page) + f"#game={number}&move=10")
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the page")
        driver.wait(lambda: driver.find(".game-title").text.startswith(f"Game {number}:"), f"game {number}")

        def points(css):
            return len(re.findall(r"[ML]", driver.find(css).attribute("d")))

        # One point a position: the estimates up to the first exact
        # position (where the lines meet), the exact values from it to the
        # end (the game has no pass, so a token is a position).
        self.assertEqual([m[0] for m in analysis["m"]], list(range(len(analysis["m"]))))
        self.assertEqual(points("svg.graph path.estimate-line"), len(estimated) + 1)
        self.assertEqual(points("svg.graph path.value-line"), len(exact) + 1)
        # Mistakes: hollow dots for the estimated ones (from the page's
        # threshold up), filled for the exact ones, as in the move list.
        guessed = [m for m in estimated if m[1] - m[2] >= analysis["t"]]
        solved = [m for m in exact if m[1] > m[2]]
        self.assertGreater(len(guessed), 0)
        self.assertGreater(len(solved), 0)
        self.assertEqual(len(driver.find_all("circle.mistake-dot.estimate")), len(guessed))
        self.assertEqual(len(driver.find_all("circle.mistake-dot:not(.estimate)")), len(solved))
        self.assertEqual(len(driver.find_all(".moves li.mistake.estimate")), len(guessed))
        self.assertEqual(len(driver.find_all(".moves li.mistake:not(.estimate)")), len(solved))
        first = driver.find_all(".moves li.mistake.estimate")[0]
        self.assertIn("a mistake by a 4-move search's estimate: loses about", first.find_all("button")[0].attribute("aria-label"))
        self.assertTrue(first.find_all(".loss")[0].text.startswith("~−"))
        # Before the exact part a position's value is an estimate, marked.
        self.assertRegex(driver.find(".value").text, r"^Estimate: ~([+−]\d+|0) for Black by a 4-move search\.")
        self.assertIn("search's estimates of", driver.find("svg.graph").attribute("aria-label"))
        last = estimated[-1][0] + 1
        self.assertTrue(driver.find(".analysis").text.startswith(
            f"Estimates by a 4-move search to move {last}, exact from move {last + 1} (14 empties). "), driver.find(".analysis").text)
        driver.script(f"location.hash = '#game={number}&move={last + 2}';")
        driver.wait(lambda: driver.find(".status").text.startswith(f"Move {last + 2}: "), "the exact part")
        self.assertRegex(driver.find(".value").text, r"^Exact value: ([+−]\d+|0) for Black with perfect play\.")
        no_console_errors(self, "the page judged from move 1")

    def test_a_page_of_10000_games_opens_quickly_and_fits_a_phone(self):
        files = sorted(os.path.join(WTHOR, f) for f in os.listdir(WTHOR) if f.startswith("WTH_"))
        page = os.path.join(WORK, "big.html")
        # The last years' files: over 10,000 games.
        kifu("show", *files[-5:], "--html", page)
        with open(page) as f:
            data = f.read()
        games = len(json.loads(data.split('id="kifu-data">')[1].split("</script>")[0])["games"])
        size = os.path.getsize(page)
        self.assertGreaterEqual(games, 10000)
        driver.set_size(1280, 1000)
        times = []
        for _ in range(3):
            driver.get("about:blank")
            started = time.time()
            driver.get("file://" + os.path.abspath(page))
            driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the big page")
            times.append(time.time() - started)
        ready = int(driver.find("#app").attribute("data-ready"))
        print(f"\ngame page: {games} games, {size / 1e6:.2f} MB, opened in {min(times):.2f}-{max(times):.2f} s "
              f"(first game shown {ready} ms after navigation)", file=sys.stderr)
        self.assertLess(min(times), 3.0)
        driver.find(".search input").send_keys("2025")
        self.assertIn("games match", driver.find(".more").text)
        # A phone: nothing wider than the screen, the board fits.
        driver.set_size(390, 844)
        driver.get("file://" + os.path.abspath(page) + "#game=1&move=30")
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the page")
        width = driver.script("return [document.documentElement.scrollWidth, window.innerWidth, document.querySelector('.board').getBoundingClientRect().right]")
        # Headless Chromium's narrowest window is about 500 pixels: under
        # 640 the page is laid out as on a phone.
        self.assertLess(width[1], 640)
        self.assertLessEqual(width[0], width[1], "no sideways scrolling")
        self.assertLessEqual(width[2], width[1])
        if SHOTS:
            driver.screenshot(os.path.join(SHOTS, "game-page-phone.png"))
        driver.set_size(1280, 1000)
        no_console_errors(self, "the 10,000-game page")


class Browser(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        files = sorted(os.path.join(WTHOR, f) for f in os.listdir(WTHOR) if f.startswith("WTH_"))
        cls.server = subprocess.Popen([KIFU, "serve", *files, "--port", "0", "--quiet"],
                                      stderr=subprocess.PIPE, text=True)
        for line in cls.server.stderr:
            found = re.search(r"serving (http://[0-9.:]+)/", line)
            if found:
                cls.base = found.group(1)
                break
        else:
            raise AssertionError("kifu serve did not start")

    @classmethod
    def tearDownClass(cls):
        cls.server.send_signal(2)
        cls.server.wait(timeout=30)

    def api(self, path):
        with urllib.request.urlopen(self.base + path) as r:
            return json.load(r)

    def wait_loaded(self, query):
        return driver.wait(lambda: driver.find("#app").attribute("data-query") == query, f"the answer to {query}")

    def board_notes(self):
        return {b.attribute("data-square"): b.find_all(".note span")[0].text
                for b in driver.find_all(".square.noted")}

    def test_browsing_by_position(self):
        driver.set_size(1280, 1100)
        driver.get(self.base + "/?moves=f5d6c3d3c4")
        self.wait_loaded("moves=f5d6c3d3c4")
        answer = self.api("/api/explore?moves=f5d6c3d3c4")
        notes = self.board_notes()
        # Each next move's games on its square (as the page shortens them).
        self.assertEqual(set(notes), {r["move"] for r in answer["moves"]})
        f4 = driver.find(".square[data-square='f4']")
        self.assertIn(f"{answer['moves'][0]['games']} games", f4.attribute("aria-label"))
        self.assertIn(f"{answer['games']} games reached this position", driver.find(".status").text)
        rows = driver.find_all("table.next-moves tbody tr")
        self.assertEqual([r.find_all("td")[1].text for r in rows], [str(r["games"]) for r in answer["moves"]])
        # A click on a square goes on.
        f4.click()
        self.wait_loaded("moves=f5d6c3d3c4f4")
        self.assertTrue(driver.url.endswith("?moves=f5d6c3d3c4f4"))
        self.assertEqual(driver.find(".square.last").attribute("data-square"), "f4")
        # A click on a row of the table too.
        driver.find_all("table.next-moves button.play-move")[0].click()
        first = self.api("/api/explore?moves=f5d6c3d3c4f4")["moves"][0]["move"]
        self.wait_loaded(f"moves=f5d6c3d3c4f4{first}")
        # The browser's back and forward, and the page's.
        driver.back()
        self.wait_loaded("moves=f5d6c3d3c4f4")
        driver.forward()
        self.wait_loaded(f"moves=f5d6c3d3c4f4{first}")
        driver.find("button[aria-label='Back one move']").click()
        self.wait_loaded("moves=f5d6c3d3c4f4")
        driver.find("button[aria-label='Forward again']").click()
        self.wait_loaded(f"moves=f5d6c3d3c4f4{first}")
        # A position typed in: moves, then a board.
        entry = driver.find("form.entry input")
        entry.send_keys("1. F5 2. f6 3. e6 4. f4")
        driver.find("form.entry button").click()
        self.wait_loaded("moves=f5f6e6f4")
        board = self.api("/api/explore?moves=f5d6")["position"]
        entry = driver.find("form.entry input")
        entry.clear()
        entry.send_keys(board)
        driver.find("form.entry button").click()
        self.wait_loaded("board=" + urllib.parse.quote_plus(board))
        self.assertEqual(self.board_notes().keys(), {r["move"] for r in self.api("/api/explore?moves=f5d6")["moves"]})
        # A bad position is said, not drawn.
        entry = driver.find("form.entry input")
        entry.clear()
        entry.send_keys("f5 f5")
        driver.find("form.entry button").click()
        driver.wait(lambda: "square occupied" in driver.find(".error").text, "the error")
        no_console_errors_but_failed_requests(self)
        if SHOTS:
            driver.get(self.base + "/?moves=f5d6c3d3c4")
            self.wait_loaded("moves=f5d6c3d3c4")
            driver.screenshot(os.path.join(SHOTS, "browser.png"))

    def test_filters_pages_of_games_and_a_game_in_the_viewer(self):
        driver.set_size(1280, 1100)
        driver.get(self.base + "/?moves=f5d6c3")
        self.wait_loaded("moves=f5d6c3")
        driver.find("form.filters input[name='player']").send_keys("tastet")
        driver.find("form.filters input[name='year']").send_keys("2000..2025")
        driver.find("form.filters button[type='submit']").click()
        self.wait_loaded("moves=f5d6c3&player=tastet&year=2000..2025")
        page = self.api("/api/games?moves=f5d6c3&player=tastet&year=2000..2025&limit=100")
        self.assertEqual(driver.find(".answers h2:nth-of-type(2)").text, f"Games ({page['total']})")
        rows = driver.find_all("table.games tbody tr")
        self.assertEqual(len(rows), min(50, page["total"]))
        self.assertEqual(rows[0].find_all("td")[1].text, page["games"][0]["black"] or "–")
        driver.find(".pager button:last-child").click()
        self.wait_loaded("moves=f5d6c3&player=tastet&year=2000..2025")
        driver.wait(lambda: driver.find(".pager .page").text.startswith("51–"), "the second page")
        rows = driver.find_all("table.games tbody tr")
        self.assertEqual(rows[0].find_all("td")[1].text, page["games"][50]["black"] or "–")
        # One click opens a game in the viewer, where it reached the position.
        game = page["games"][50]
        rows[0].find_all("button.open")[0].click()
        driver.wait(lambda: driver.find("#app").attribute("data-ready"), "the viewer")
        self.assertIn("/view#", driver.url)
        self.assertIn(game["white"], driver.find(".game-title").text)
        status = driver.find(".status").text
        self.assertTrue(status.startswith("Move 3: "), status)
        driver.script("document.activeElement && document.activeElement.blur()")
        driver.keys("End")
        self.assertIn("Game over", driver.find(".status").text)
        no_console_errors(self, "the viewer")
        driver.back()
        self.wait_loaded("moves=f5d6c3&player=tastet&year=2000..2025")


def no_console_errors_but_failed_requests(test):
    """The console, where a 400 the page asked for (a bad position) is
    logged by the browser itself as a failed request, not by the page."""
    entries = driver.console()
    bad = [e for e in entries if e.get("level") == "SEVERE" and "status of 400" not in e.get("message", "")]
    test.assertEqual(bad, [], "console errors")


if __name__ == "__main__":
    unittest.main(verbosity=2)
