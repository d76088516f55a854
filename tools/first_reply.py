#!/usr/bin/env python3
"""Print how long the protocol engine takes to answer the first move of a game.

Sends `START`, an `INFO` block (turn time, memory, threads, hash size) and a `BOARD` with one
stone in a single write, as the Gomocup referee and c-gomoku-cli do, and prints the time from
that write to the reply (the engine's move line). Under the Gomocup rules start-up work is on
the first move's clock, so the reply must come within `timeout_turn`.

usage: tools/first_reply.py [--engine target/release/pbrain-tianyuan] [--turn 200] [--runs 3]
Each row: max_memory, hash_size, thread_num, then the reply times of the runs in ms.
"""
import argparse, os, subprocess, time

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--engine", default="target/release/pbrain-tianyuan")
ap.add_argument("--turn", type=int, default=200, help="timeout_turn in ms")
ap.add_argument("--runs", type=int, default=3, help="runs per configuration")
ap.add_argument("--size", type=int, default=15)
a = ap.parse_args()

# (max_memory bytes or None, hash_size KiB or None, thread_num)
CASES = [(0, None, 1), (0, None, 2), (367001600, None, 1), (367001600, None, 2),
         (1073741824, None, 1), (1073741824, None, 2), (None, 262144, 2), (1073741824, 786432, 2)]


def first_reply(max_memory, hash_kib, threads):
    p = subprocess.Popen([os.path.abspath(a.engine)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, bufsize=1)
    lines = [f"START {a.size}", f"INFO timeout_turn {a.turn}", "INFO timeout_match 100000",
             "INFO time_left 100000"]
    if max_memory is not None:
        lines.append(f"INFO max_memory {max_memory}")
    if hash_kib is not None:
        lines.append(f"INFO hash_size {hash_kib}")
    lines += [f"INFO thread_num {threads}", "INFO rule 0", "BOARD", "7,7,2", "DONE"]
    t0 = time.monotonic()
    p.stdin.write("\n".join(lines) + "\n")
    p.stdin.flush()
    ms = None
    while True:
        line = p.stdout.readline()
        if not line:
            break
        line = line.strip()
        if line == "OK" or line.startswith(("MESSAGE", "DEBUG")):
            continue
        ms = (time.monotonic() - t0) * 1000
        break
    p.stdin.write("END\n")
    p.stdin.flush()
    p.wait(timeout=10)
    return ms


print(f"timeout_turn {a.turn} ms; first reply in ms ({a.runs} runs each)")
for mm, hk, th in CASES:
    times = [first_reply(mm, hk, th) for _ in range(a.runs)]
    shown = " ".join("none" if t is None else f"{t:.0f}" for t in times)
    print(f"max_memory {str(mm):>10}  hash_size {str(hk):>6}  thread_num {th}:  {shown}")
