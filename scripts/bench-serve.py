#!/usr/bin/env python3
"""The database browser's speed (SPEC section 11): start-up time and memory
of `kifu serve`, and the latency of position lookups (/api/explore and a
page of /api/games) with 1 client and with 8 at once.

Usage: scripts/bench-serve.py KIFU FILE... [--lookups N] [-- SERVE-FLAG...]

Flags after `--` go to `kifu serve` (for instance `--index FILE`, an
index saved by `kifu serve FILE... --save-index FILE`).

The positions asked are the openings players reach: a prefix of 0 to 24
moves of a game of the files, drawn with a fixed seed from the games the
server lists, so that each lookup has games to count. Each client sends
its lookups one after another; the figures are over every lookup of the
run. Only 127.0.0.1 is asked.
"""

import json
import random
import re
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def rss_mib(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1 :]
    lookups = 200
    if "--lookups" in args:
        i = args.index("--lookups")
        lookups = int(args[i + 1])
        del args[i : i + 2]
    kifu, files = args[0], args[1:]
    started = time.time()
    server = subprocess.Popen([kifu, "serve", *files, *extra, "--port", "0", "--quiet"],
                              stderr=subprocess.PIPE, text=True)
    base = None
    for line in server.stderr:
        found = re.search(r"serving (http://[0-9.:]+)/", line)
        if found:
            base = found.group(1)
            break
    startup = time.time() - started
    try:
        rss, peak = rss_mib(server.pid)
        info = json.load(urllib.request.urlopen(base + "/api/info"))
        print(f"{info['games']} games from {len(files)} file(s): started in {startup:.2f} s, "
              f"RSS {rss:.0f} MiB (peak {peak:.0f} MiB while loading)")
        rng = random.Random(11)
        listed = json.load(urllib.request.urlopen(base + "/api/games?limit=1000"))["games"]
        queries = []
        for _ in range(lookups):
            g = rng.choice(listed)
            game = json.load(urllib.request.urlopen(
                base + "/api/game?" + urllib.parse.urlencode({"source": g["source"], "index": g["index"]})))
            moves = game["moves"][: 2 * rng.randrange(0, 25)]
            queries.append(urllib.parse.urlencode({"moves": moves}))

        def lookup(query, times):
            for route in ("/api/explore?", "/api/games?limit=50&"):
                t = time.perf_counter()
                urllib.request.urlopen(base + route + query).read()
                times.setdefault(route, []).append((time.perf_counter() - t) * 1000)

        for clients in (1, 8):
            times = {}
            per = [queries[i::clients] for i in range(clients)]
            threads = [threading.Thread(target=lambda qs=qs: [lookup(q, times) for q in qs]) for qs in per]
            t0 = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - t0
            for route, ms in times.items():
                name = route.split("?")[0]
                print(f"{clients} client(s), {name}: {len(ms)} lookups in {wall:.1f} s (both routes): "
                      f"p50 {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms, max {max(ms):.0f} ms")
        rss, peak = rss_mib(server.pid)
        print(f"after the lookups: RSS {rss:.0f} MiB, peak {peak:.0f} MiB")
    finally:
        server.send_signal(2)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
