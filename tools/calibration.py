#!/usr/bin/env python3
"""Calibration of the static evaluation by side to move, against the results of games.

Reads the games of `match` runs (their `results.json`, or a shard's `shard.txt`, or the
directories holding them), takes every STEP-th position of each game from ply FIRST on (up
to six plies before the end), asks the engine's `analyze --depth 1 --json` for the
position's `static` evaluation, and prints per side to move and stage how many positions,
the expected score the evaluation predicts (`1 / (1 + exp(-static / 200))`) and the score
the side to move got in the game; then a logistic fit of the result on the evaluation per
side to move: the offset (evaluation units) and slope that would calibrate it, and the log
loss as it is and fitted (docs/strength.md §7, "the bias without Rapfi").

In self-play (both engines with the same evaluation) the results are what the evaluation
should predict, so a calibrated evaluation has an offset near 0 and a slope near 1.

usage: tools/calibration.py [--engine target/release/pbrain-tianyuan] [--games 150]
           [--step 4] [--seed 52] RUN [RUN ...]
Exits 2 with one line when a run cannot be read or has no finished game.
"""
import argparse, glob, json, math, os, random, subprocess, sys

STAGES = ((0, 20), (20, 36), (36, 10**6))


def fail(msg):
    print(f"calibration.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_games(paths):
    """Finished games (moves, rule, whether black won) of the runs at `paths`."""
    games = []
    for p in paths:
        files = [p]
        if os.path.isdir(p):
            files = glob.glob(os.path.join(p, "results.json")) + glob.glob(
                os.path.join(p, "shard.txt"))
        if not files:
            fail(f"{p}: no results.json or shard.txt")
        for f in files:
            try:
                text = open(f, encoding="utf-8").read()
            except OSError as e:
                fail(f"{f}: {e.strerror}")
            if f.endswith(".json"):
                try:
                    doc = json.loads(text)
                except ValueError:
                    fail(f"{f}: not JSON")
                rule, records = doc.get("rule", "renju"), doc.get("games", [])
            else:
                rule, records = None, []
                for line in text.splitlines():
                    if line.startswith("# shard "):
                        rule = json.loads(line[8:])["settings"]["rule"]
                    elif line.startswith("{"):
                        records.append(json.loads(line))
            for g in records:
                if g.get("winner") is None or g.get("forfeit") or "moves" not in g:
                    continue
                games.append((g["moves"], rule or "renju", g["winner"] == g["black"]))
    if not games:
        fail("no finished game in the runs given")
    return games


def static_eval(engine, rule, moves):
    """The engine's static evaluation of the position after `moves`, or None (a proven win)."""
    out = subprocess.run(
        [engine, "analyze", "--rule", rule, "--moves", ",".join(moves), "--depth", "1",
         "--threads", "1", "--hash-mb", "1", "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"analyze failed: {out.stderr.strip()}")
    v = json.loads(out.stdout)
    return None if v.get("win_in") is not None else v["static"]


def logistic_fit(rows):
    """Offset a and slope b of P(win) = sigmoid(a + b * static / 200), by Newton's method."""
    a = b = 0.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for s, y in rows:
            p = 1 / (1 + math.exp(-(a + b * s)))
            w = p * (1 - p)
            ga, gb = ga + y - p, gb + (y - p) * s
            haa, hab, hbb = haa + w, hab + w * s, hbb + w * s * s
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        a, b = a + (hbb * ga - hab * gb) / det, b + (haa * gb - hab * ga) / det
    return a, b


def log_loss(rows, a, b):
    total = 0.0
    for s, y in rows:
        p = min(max(1 / (1 + math.exp(-(a + b * s))), 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="match --out directories, results.json or shard.txt")
    ap.add_argument("--engine", default="target/release/pbrain-tianyuan")
    ap.add_argument("--games", type=int, default=150, help="games drawn at random (0: all)")
    ap.add_argument("--step", type=int, default=4, help="every STEP-th position")
    ap.add_argument("--first", type=int, default=8, help="first ply read")
    ap.add_argument("--seed", type=int, default=52)
    a = ap.parse_args()
    if a.step < 1 or a.games < 0 or a.first < 0:
        fail("--step must be at least 1, --games and --first at least 0")
    games = read_games(a.runs)
    random.seed(a.seed)
    if a.games:
        games = random.sample(games, min(a.games, len(games)))
    rows = {True: [], False: []}  # black to move?
    for moves, rule, black_won in games:
        for ply in range(a.first, len(moves) - 6):
            if (ply - a.first) % a.step and (ply - a.first - 1) % a.step:
                continue  # every STEP-th position of each parity
            s = static_eval(a.engine, rule, moves[:ply])
            if s is None or abs(s) >= 3000:
                continue
            black = ply % 2 == 0
            rows[black].append((ply, s, 1.0 if black_won == black else 0.0))
    print("side to move, plies: positions, static predicts, observed")
    for black in (True, False):
        for lo, hi in STAGES:
            r = [x for x in rows[black] if lo <= x[0] < hi]
            if r:
                pred = sum(1 / (1 + math.exp(-x[1] / 200)) for x in r) / len(r)
                got = sum(x[2] for x in r) / len(r)
                print(f"{'black' if black else 'white'}, {lo}-{min(hi, 999)}: {len(r)}, "
                      f"{pred:.3f}, {got:.3f}")
    for black in (True, False):
        r = [(x[1] / 200, x[2]) for x in rows[black]]
        if len(r) < 10:
            continue
        off, slope = logistic_fit(r)
        print(f"{'black' if black else 'white'} to move: {len(r)} positions, offset "
              f"{off * 200:+.0f} units, slope {slope:.2f}, log loss "
              f"{log_loss(r, 0, 1):.3f} as is, {log_loss(r, off, slope):.3f} fitted")


if __name__ == "__main__":
    main()
