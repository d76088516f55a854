#!/usr/bin/env python3
"""SPSA: joint tuning of the search parameters by node-limited self-play.

usage: tools/spsa.py --engine target/release/pbrain-tianyuan --params PARAMS.json
                     --openings freestyle=FILE [--openings renju=FILE] [--nodes 40000]
                     [--iterations 600] [--lr 0.1] [--seed 7] [--log spsa.log]

The engine must be built with the `tune` feature (`cargo build --release --features tune`):
release builds take the parameters as constants and ignore `TIANYUAN_PARAMS`.

PARAMS.json maps a parameter name of `src/search/params.rs` to
`[start, step, low, high, integer]`, for example
`{"lmr_factor": [1.0, 0.1, 0.5, 1.5, false], "futility": [50, 5, 20, 100, true]}`. A switch
(0 or 1, such as `razor_three`) is tuned as `[0.5, 0.5, 0, 1, true]`: every iteration then
plays it on against off.

Each iteration draws a random sign per parameter, builds two engines through the
`TIANYUAN_PARAMS` environment variable (start + step x sign and start - step x sign, clamped
and rounded), and plays 4 games between them with `pbrain-tianyuan match` (two random
openings, each with both colours, 2 at a time) at `--nodes` nodes a move, the rules of the
`--openings` files taking turns. With r the plus engine's wins minus losses over 2 (-2..2),
every parameter moves by lr x step x r x sign. Each iteration's result and parameters are
appended to the log as one JSON line; average the last few hundred iterations for the result
(docs/strength.md §4).
"""
import argparse
import json
import os
import random
import re
import subprocess
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/pbrain-tianyuan")
    ap.add_argument("--params", required=True, help="JSON file: name -> [start, step, low, high, integer]")
    ap.add_argument("--openings", action="append", required=True, help="RULE=FILE (repeatable)")
    ap.add_argument("--nodes", type=int, default=40000)
    ap.add_argument("--iterations", type=int, default=600)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--log", default="spsa.log")
    a = ap.parse_args()

    spec = json.load(open(a.params))
    engine = os.path.abspath(a.engine)
    rules = []
    for item in a.openings:
        rule, path = item.split("=", 1)
        lines = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
        rules.append((rule, lines))
    theta = {k: float(v[0]) for k, v in spec.items()}
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="spsa-")

    def render(th):
        parts = []
        for k, x in th.items():
            _, _, lo, hi, integer = spec[k]
            x = min(max(x, lo), hi)
            parts.append(f"{k}={int(round(x))}" if integer else f"{k}={round(x, 4)}")
        return ",".join(parts)

    def wrapper(name, params):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(f'#!/bin/sh\nTIANYUAN_PARAMS={params} exec "{engine}" "$@"\n')
        os.chmod(path, 0o755)
        return path

    with open(a.log, "a") as log:
        for it in range(a.iterations):
            rule, openings = rules[it % len(rules)]
            sign = {k: rng.choice((-1, 1)) for k in spec}
            plus = wrapper("plus", render({k: theta[k] + spec[k][1] * sign[k] for k in spec}))
            minus = wrapper("minus", render({k: theta[k] - spec[k][1] * sign[k] for k in spec}))
            op = os.path.join(work, "openings.txt")
            with open(op, "w") as f:
                f.write("\n".join(rng.sample(openings, 2)) + "\n")
            out = subprocess.run(
                [engine, "match", "--engine", plus, "--engine", minus, "--name", "1:plus",
                 "--name", "2:minus", "--rule", rule, "--games", "4", "--tc-turn-ms", "60000",
                 "--tc-game-ms", "0", "--tolerance-ms", "60000", "--engine-option",
                 f"max_node={a.nodes}", "--threads", "1", "--memory-mb", "64", "--openings", op,
                 "--concurrency", "2"],
                capture_output=True, text=True).stdout
            r = 0.0
            for m in re.finditer(r"Finished game \d+ \((\S+) vs (\S+),.*\): (\S+)", out):
                black, white, res = m.groups()
                winner = black if res == "1-0" else white if res == "0-1" else None
                if winner:
                    r += 0.5 if winner == "plus" else -0.5
            for k in spec:
                theta[k] += a.lr * spec[k][1] * r * sign[k]
                theta[k] = min(max(theta[k], spec[k][2]), spec[k][3])
            log.write(json.dumps({"it": it, "rule": rule, "r": r,
                                  "theta": {k: round(v, 3) for k, v in theta.items()}}) + "\n")
            log.flush()


if __name__ == "__main__":
    main()
