#!/usr/bin/env python3
"""Search the same positions with Tianyuan and another pbrain engine; compare depth and speed.

usage: yardstick.py --ours target/release/pbrain-tianyuan --peer PATH/pbrain-rapfi
                    [--positions tools/yardstick_positions.txt] [--time-ms 1000]
                    [--memory 67108864] [--only N]

Each engine gets every position as a fresh game over the Piskvork protocol, one thread, a
turn limit of --time-ms with an ample match clock, and `INFO show_detail 2`, so that both
print an `INFO DEPTH` / `INFO TOTALNODES` / `INFO TOTALTIME` block after every completed
iteration (docs/protocol.md §6.3; Rapfi prints the same block). For each position and engine
the script takes the last completed iteration: its depth (the engine's nominal depth), its
node count and its time, and prints them with nodes per second. Tianyuan's nodes are its
main-search nodes (one per alpha-beta or quiescence node); its threat-solver (VCF/VCT) nodes
are read from its `MESSAGE ... vcf N` line and printed apart (docs/strength.md §5). The last
lines give the median depth difference and the median ratio of nodes per second, over all
positions searched by both and over the undecided ones: a position where either engine's last
report is a forced win or loss (`ev +M7`, `Eval -M16`) is marked `decided`, since an engine
that has proved the result may stop early (we do) or keep iterating through the proof (Rapfi
does), and its depth then says little about the search.

Positions file: one position per line, `RULE SIZE x,y x,y ...` (Gomocup rule number, board
side, the stones in move order from black, protocol coordinates); `#` starts a comment.
"""
import argparse
import statistics
import subprocess
import sys
import threading
import queue
import re


def read_positions(path):
    out = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        f = line.split()
        moves = [tuple(int(v) for v in m.split(",")) for m in f[2:]]
        out.append((int(f[0]), int(f[1]), moves))
    return out


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\r\n"))
        self.q.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, pred, timeout):
        lines = []
        while True:
            line = self.q.get(timeout=timeout)
            if line is None:
                raise RuntimeError("engine exited")
            lines.append(line)
            if pred(line):
                return lines

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


MOVE = re.compile(r"^\s*-?\d+\s*,\s*-?\d+\s*$")


def search(cmd, rule, size, moves, time_ms, memory):
    e = Engine(cmd)
    try:
        e.send(f"START {size}")
        e.until(lambda l: l.strip() == "OK" or l.startswith("ERROR"), 30)
        for k, v in [("rule", rule), ("timeout_turn", time_ms), ("timeout_match", 10_000_000),
                     ("time_left", 10_000_000), ("max_memory", memory), ("thread_num", 1),
                     ("show_detail", 2)]:
            e.send(f"INFO {k} {v}")
        e.send("BOARD")
        me = len(moves) % 2  # 0: black to move
        for i, (x, y) in enumerate(moves):
            e.send(f"{x},{y},{1 if i % 2 == me else 2}")
        e.send("DONE")
        lines = e.until(lambda l: MOVE.match(l) is not None, time_ms / 1000 + 30)
    finally:
        e.close()
    depth = nodes = t = None
    vcf = 0
    mate = False
    for l in lines:
        if l.startswith("MESSAGE"):
            m = re.search(r"\b(?:ev|Eval) ([+-]?M\d+|[+-]?\d+)", l)
            if m:
                mate = "M" in m.group(1)
        f = l.split()
        if len(f) == 3 and f[0] == "INFO":
            if f[1] == "DEPTH":
                depth = int(f[2])
            elif f[1] == "TOTALNODES":
                nodes = int(f[2])
            elif f[1] == "TOTALTIME":
                t = int(f[2])
        m = re.search(r"\bvcf (\d+)\b", l)
        if l.startswith("MESSAGE") and m:
            vcf = int(m.group(1))
    return depth, nodes, t, vcf, lines[-1].strip(), mate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--peer", required=True)
    ap.add_argument("--positions", default="tools/yardstick_positions.txt")
    ap.add_argument("--time-ms", type=int, default=1000)
    ap.add_argument("--memory", type=int, default=64 << 20)
    ap.add_argument("--only", type=int, default=0, help="first N positions only")
    a = ap.parse_args()
    pos = read_positions(a.positions)
    if a.only:
        pos = pos[: a.only]
    print(f"{'#':>3} {'stones':>6} | {'ours d':>6} {'nodes':>9} {'vcf':>8} {'ms':>5} {'nps':>8} | "
          f"{'peer d':>6} {'nodes':>9} {'ms':>5} {'nps':>8} | {'moves'}")
    dd, ratio, dd_open, ratio_open = [], [], [], []
    for i, (rule, size, moves) in enumerate(pos):
        o = search(a.ours, rule, size, moves, a.time_ms, a.memory)
        p = search(a.peer, rule, size, moves, a.time_ms, a.memory)
        if None in o[:3] or None in p[:3]:
            print(f"{i:>3} {len(moves):>6} | no completed iteration: ours {o[4]} peer {p[4]}")
            continue
        onps = o[1] * 1000 // max(o[2], 1)
        pnps = p[1] * 1000 // max(p[2], 1)
        dd.append(o[0] - p[0])
        ratio.append(onps / max(pnps, 1))
        decided = o[5] or p[5]
        if not decided:
            dd_open.append(o[0] - p[0])
            ratio_open.append(onps / max(pnps, 1))
        print(f"{i:>3} {len(moves):>6} | {o[0]:>6} {o[1]:>9} {o[3]:>8} {o[2]:>5} {onps:>8} | "
              f"{p[0]:>6} {p[1]:>9} {p[2]:>5} {pnps:>8} | {o[4]} / {p[4]}"
              f"{' decided' if decided else ''}", flush=True)
    if dd:
        print(f"positions {len(dd)}: median depth ours - peer {statistics.median(dd):+}, "
              f"median nps ratio ours / peer {statistics.median(ratio):.2f}")
    if dd_open:
        print(f"undecided positions {len(dd_open)}: median depth ours - peer "
              f"{statistics.median(dd_open):+}, median nps ratio ours / peer "
              f"{statistics.median(ratio_open):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
