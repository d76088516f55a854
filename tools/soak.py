#!/usr/bin/env python3
"""Soak: many fast games under `pbrain-tianyuan match` and c-gomoku-cli; report every forfeit,
stray output and the peak resident memory against max_memory.

usage: tools/soak.py [--engine target/release/pbrain-tianyuan] [--games 1000]
                     [--cli PATH/c-gomoku-cli] [--opponent CMD[@RULES]]... [--no-self]
                     [--threads 1,2] [--rules freestyle,standard,renju,caro] [--sizes 15,20]
                     [--turn-ms 200] [--game-ms 2000] [--memory-mb 350] [--tolerance-ms 0]
                     [--cli-tolerance 1] [--seed 1] [--out DIR]

The games are spread evenly (at least 2, an even number, per configuration) over every
configuration: manager (our `match`; c-gomoku-cli with --cli, which plays rules 0, 1 and 4 only)
x opponent (the engine itself unless --no-self; each --opponent, on the rules after `@`, default
freestyle,standard,renju) x thread count x rule x board size. Every game starts from a random
opening of 3 or 4 stones near the centre (the same openings, each played twice with colours
swapped). Our engine is the first engine; in self-play both are ours.

What is reported, per configuration and in total, for our engine:
- forfeits of any kind: time, illegal move, unparsable reply, crash, no OK to START, and a renju
  foul (a forbidden move is a legal loss, but an engine that knows the rule never plays one);
- stray output: anything on stderr, and any stdout line that is not `OK`, `MESSAGE`/`DEBUG`,
  a move or the `ABOUT` answer (from the game logs of `match --out` and c-gomoku-cli `-log`);
- late moves (our match only, from results.json): a move of ours that took longer than
  min(turn limit, game time left), which is a time forfeit with no tolerance at all;
- the longest move and the least game time left (our match only);
- the peak resident memory (VmHWM, via wait4 on each engine process) against max_memory.
Opponents' forfeits are listed too but do not fail the soak. Exit status 0 when our engine had
no forfeit, no late move, no stray line and stayed under max_memory in every game; 1
otherwise.

Our match forfeits a reply later than min(turn limit, game time left) + --tolerance-ms (default
1000, as Gomocup; other engines may need it for their first move), and the soak also fails on any
late move of ours. c-gomoku-cli scores a time loss when the game clock goes negative, or when the
turn limit + min(tolerance/2, 1 s) passes (--cli-tolerance, seconds).

Examples:
  tools/soak.py --games 16                      # our match, self-play, every configuration once
  tools/soak.py --games 1000 --cli /path/c-gomoku-cli \\
      --opponent /path/pbrain-rapfi@freestyle,standard,renju --out /tmp/soak
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile, time

RULE_NUMBERS = {"freestyle": 0, "standard": 1, "renju": 4, "caro": 8}
CLI_RULES = {"freestyle", "standard", "renju"}
MOVE = re.compile(r"^\s*-?\d+\s*,\s*-?\d+\s*$")
FORFEITS = ("time", "illegal", "garbage", "crash", "start", "foul")


def wrap_main(argv):
    """`soak.py --wrap DIR TAG -- CMD...`: run CMD with this process's stdin/stdout/stderr in
    its directory and keep its peak resident set (VmHWM) in DIR/TAG-PID: polled every 20 ms
    (the manager may kill this wrapper at the end), and exact from wait4 when CMD exits."""
    memdir, tag = argv[0], argv[1]
    cmd = argv[3:]
    child = subprocess.Popen(cmd, cwd=os.path.dirname(os.path.abspath(cmd[0])) or None)
    # Keep no copy of the pipes: the manager sees end of output when the engine exits.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(devnull, fd)
    path = os.path.join(memdir, f"{tag}-{child.pid}")
    peak = -1

    def record(kib):
        nonlocal peak
        if kib > peak:
            peak = kib
            with open(path + ".tmp", "w") as f:
                f.write(f"{kib}\n")
            os.replace(path + ".tmp", path)

    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            record(usage.ru_maxrss)
            return 0
        try:
            for line in open(f"/proc/{child.pid}/status"):
                if line.startswith("VmHWM:"):
                    record(int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.02)


def become_subreaper():
    """Linux: engines orphaned when a manager kills their wrapper become our children (and are
    reaped by `reap`) instead of zombies under an init that may not reap them."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except Exception:
        pass


def reap(timeout=5.0):
    """Waits (up to `timeout` seconds) for orphaned engines to exit and reaps them (called
    between runs, when no manager is running, so every child left is such an orphan)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def wrapped(memdir, tag, cmd):
    """A command line (words) that runs `cmd` under the memory wrapper."""
    return [sys.executable, os.path.abspath(__file__), "--wrap", memdir, tag, "--"] + cmd


def point_names(size, x, y):
    """(our notation, c-gomoku-cli pos notation) of protocol point x,y."""
    col = chr(ord("a") + x)
    return f"{col}{size - y}", f"{col}{y + 1}"


def make_openings(size, count, rng):
    """`count` distinct random openings of 3 or 4 stones within 3 points of the centre."""
    c = size // 2
    seen, out = set(), []
    while len(out) < count:
        n = rng.choice((3, 4))
        pts = []
        while len(pts) < n:
            p = (c + rng.randint(-3, 3), c + rng.randint(-3, 3))
            if p not in pts:
                pts.append(p)
        key = tuple(pts)
        if key in seen:
            continue
        seen.add(key)
        out.append(pts)
    return out


def classify_line(text):
    """Whether an engine's stdout line is expected protocol output."""
    t = text.strip()
    word = t.split(" ")[0].upper() if t else ""
    return t == "OK" or word in ("MESSAGE", "DEBUG") or MOVE.match(t) or "name=" in t


def read_memory(memdir):
    """{tag: [peak KiB of each process]} from a wrapper directory."""
    peaks = {}
    for name in sorted(os.listdir(memdir)) if os.path.isdir(memdir) else []:
        if name.endswith(".tmp"):
            continue
        tag = name.rsplit("-", 1)[0]
        peaks.setdefault(tag, []).append(int(open(os.path.join(memdir, name)).read()))
    return peaks


class Tally:
    def __init__(self):
        self.games = 0
        self.wld = [0, 0, 0]
        self.ours = {k: 0 for k in FORFEITS}
        self.theirs = {k: 0 for k in FORFEITS}
        self.stray = []
        self.late = []
        self.max_move_ms = 0
        self.min_left_ms = None
        self.peak_kib = 0
        self.opp_peak_kib = 0
        self.processes = 0
        self.notes = []

    def add(self, o):
        self.games += o.games
        self.wld = [a + b for a, b in zip(self.wld, o.wld)]
        for k in FORFEITS:
            self.ours[k] += o.ours[k]
            self.theirs[k] += o.theirs[k]
        self.stray += o.stray
        self.late += o.late
        self.max_move_ms = max(self.max_move_ms, o.max_move_ms)
        if o.min_left_ms is not None:
            self.min_left_ms = o.min_left_ms if self.min_left_ms is None else min(self.min_left_ms, o.min_left_ms)
        self.peak_kib = max(self.peak_kib, o.peak_kib)
        self.opp_peak_kib = max(self.opp_peak_kib, o.opp_peak_kib)
        self.processes += o.processes
        self.notes += o.notes

    def failed(self, limit_kib):
        return sum(self.ours.values()) > 0 or self.stray or self.late \
            or (limit_kib and self.peak_kib > limit_kib) or self.processes == 0

    def line(self, limit_kib):
        f = lambda d: " ".join(f"{k} {v}" for k, v in d.items() if v) or "0"
        left = "-" if self.min_left_ms is None else f"{self.min_left_ms}"
        move = "-" if not self.max_move_ms else f"{self.max_move_ms}"
        return (f"{self.games:4d} games  W-L-D {self.wld[0]}-{self.wld[1]}-{self.wld[2]}  "
                f"forfeits ours: {f(self.ours)}, theirs: {f(self.theirs)}  stray {len(self.stray)}  "
                f"late {len(self.late)}  max move {move} ms, min left {left} ms  "
                f"peak {self.peak_kib // 1024} MiB of {limit_kib // 1024 if limit_kib else '-'} MiB "
                f"({self.processes} processes)")


def forfeit_kind(termination_kind):
    return {"timeout": "time", "illegal_move": "illegal", "garbage": "garbage", "crash": "crash",
            "start_failed": "start", "foul": "foul"}.get(termination_kind)


def run_match(a, cfg, d, openings_file, memfile):
    ours = [os.path.abspath(a.engine)]
    e1 = wrapped(memfile, "ours", ours)
    e2 = wrapped(memfile, "ours" if cfg["opp"] == "self" else "opp",
                 ours if cfg["opp"] == "self" else cfg["opp_cmd"])
    q = lambda words: " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    cmd = [os.path.abspath(a.engine), "match", "--engine", q(e1), "--engine", q(e2),
           "--name", "1:tianyuan", "--name", "2:" + ("tianyuan2" if cfg["opp"] == "self" else "opponent"),
           "--rule", cfg["rule"], "--size", str(cfg["size"]), "--games", str(cfg["games"]),
           "--tc-turn-ms", str(a.turn_ms), "--tc-game-ms", str(a.game_ms),
           "--tolerance-ms", str(a.tolerance_ms), "--threads", str(cfg["threads"]),
           "--memory-mb", str(a.memory_mb), "--openings", openings_file, "--out", d]
    r = subprocess.run(cmd, capture_output=True, text=True)
    open(os.path.join(d, "stdout.txt"), "w").write(r.stdout + r.stderr)
    t = Tally()
    self_play = cfg["opp"] == "self"
    res_path = os.path.join(d, "results.json")
    if r.returncode != 0 or not os.path.exists(res_path):
        t.notes.append(f"match failed ({r.returncode}): {(r.stderr or r.stdout).strip()[-300:]}")
        t.ours["crash"] += 1
        return t
    res = json.load(open(res_path))
    for g in res["games"]:
        t.games += 1
        seats = [g["black"], g["white"]]
        winner = g["winner"]
        if winner is None:
            t.wld[2] += 1
        elif winner == 0 or self_play:
            t.wld[0] += 1
        else:
            t.wld[1] += 1
        kind = forfeit_kind(g["termination"]["kind"])
        if kind and winner is not None:
            loser = 1 - winner if winner in (0, 1) else None
            if loser == 0 or self_play:
                t.ours[kind] += 1
                t.notes.append(f"game {g['number']}: {g['termination']}")
            else:
                t.theirs[kind] += 1
        # Move times and game time left, per seat (black moves first; opening stones have
        # time 0).
        left = [a.game_ms, a.game_ms]
        for i, ms in enumerate(g["times_ms"]):
            seat = i % 2
            if seats[seat] == 0 or self_play:
                t.max_move_ms = max(t.max_move_ms, ms)
                if ms > min(a.turn_ms, left[seat]):
                    t.late.append(f"game {g['number']} move {i + 1}: {ms} ms with "
                                  f"{min(a.turn_ms, left[seat])} ms allowed")
                left[seat] -= ms
                t.min_left_ms = left[seat] if t.min_left_ms is None else min(t.min_left_ms, left[seat])
        # Stray output in the transcript.
        log = os.path.join(d, f"game-{g['number']:04d}.log")
        if os.path.exists(log):
            for raw in open(log, errors="replace").read().splitlines()[1:]:
                parts = raw.split(None, 3)
                if len(parts) < 3:
                    continue
                seat = 0 if parts[1] == "B" else 1
                if not (seats[seat] == 0 or self_play):
                    continue
                text = parts[3] if len(parts) > 3 else ""
                if parts[2] == "!" or (parts[2] == "<" and not classify_line(text)) \
                        or (parts[2] == "#" and "unrequested" in text):
                    t.stray.append(f"{log}: {raw.strip()}")
    return t


def run_cli(a, cfg, d, pos_file, memfile):
    ours = [os.path.abspath(a.engine)]
    opp = ours if cfg["opp"] == "self" else cfg["opp_cmd"]
    esc = lambda words: " ".join(w.replace("\\", "\\\\").replace(" ", "\\ ") for w in words)
    n1, n2 = "tianyuan", "tianyuan2" if cfg["opp"] == "self" else "opponent"
    cmd = [os.path.abspath(a.cli), "-each", f"tc={a.game_ms / 1000:g}/{a.turn_ms / 1000:g}",
           f"maxmemory={a.memory_mb << 20}", f"thread={cfg['threads']}", f"tolerance={a.cli_tolerance:g}",
           "-engine", f"name={n1}", "cmd=" + esc(wrapped(memfile, "ours", ours)),
           "-engine", f"name={n2}", "cmd=" + esc(wrapped(memfile, "ours" if cfg["opp"] == "self" else "opp", opp)),
           "-rule", str(RULE_NUMBERS[cfg["rule"]]), "-boardsize", str(cfg["size"]),
           "-games", str(cfg["games"]), "-repeat", "-drawafter", str(cfg["size"] ** 2),
           "-openings", f"file={pos_file}", "type=pos", "order=sequential",
           "-sgf", os.path.join(d, "games.sgf"), "-log"]
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True)
    open(os.path.join(d, "stdout.txt"), "w").write(r.stdout + "\n--- stderr ---\n" + r.stderr)
    t = Tally()
    ours_names = {n1, n2} if cfg["opp"] == "self" else {n1}
    for line in r.stdout.splitlines():
        m = re.match(r"\[\d+\] Finished game \d+ \((\S+) vs (\S+)\): (\S+) \{(.*)\}", line)
        if not m:
            continue
        black, white, result, why = m.groups()
        t.games += 1
        winner = black if result == "1-0" else white if result == "0-1" else None
        loser = white if result == "1-0" else black if result == "0-1" else None
        if winner is None:
            t.wld[2] += 1
        elif winner == n1 or cfg["opp"] == "self":
            t.wld[0] += 1
        else:
            t.wld[1] += 1
        low = why.lower()
        kind = ("time" if "time" in low else "illegal" if "illegal" in low else "crash" if "crash" in low
                else "foul" if "forbidden" in low else None)
        if kind:
            if loser in ours_names:
                t.ours[kind] += 1
                t.notes.append(line.strip())
            else:
                t.theirs[kind] += 1
    if r.returncode != 0:
        t.notes.append(f"c-gomoku-cli exit status {r.returncode}: {r.stderr.strip()[-300:]}")
    for line in r.stderr.splitlines():
        if any(n in line for n in ours_names):
            t.stray.append(f"c-gomoku-cli stderr: {line.strip()}")
    for log in sorted(os.listdir(d)):
        if not (log.startswith("c-gomoku-cli") and log.endswith(".log")):
            continue
        for raw in open(os.path.join(d, log), errors="replace").read().splitlines():
            m = re.match(r"(\S+) -> (.*)$", raw)
            if m and m.group(1) in ours_names and not classify_line(m.group(2)):
                t.stray.append(f"{log}: {raw.strip()}")
    return t


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--wrap":
        return wrap_main(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--engine", default="target/release/pbrain-tianyuan")
    ap.add_argument("--games", type=int, default=1000, help="total games (spread over the configurations)")
    ap.add_argument("--cli", help="c-gomoku-cli executable (also play under it)")
    ap.add_argument("--opponent", action="append", default=[], help="CMD[@RULES] of another engine")
    ap.add_argument("--no-self", action="store_true", help="no games of the engine against itself")
    ap.add_argument("--only", choices=["match", "cli"], help="one manager only")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rules", default="freestyle,standard,renju,caro")
    ap.add_argument("--sizes", default="15,20")
    ap.add_argument("--turn-ms", type=int, default=200)
    ap.add_argument("--game-ms", type=int, default=2000)
    ap.add_argument("--memory-mb", type=int, default=350)
    ap.add_argument("--tolerance-ms", type=int, default=1000,
                    help="our match's time tolerance (Gomocup's 1000 ms; our engine is also held to 0)")
    ap.add_argument("--cli-tolerance", type=float, default=1.0, help="c-gomoku-cli tolerance, seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="directory for records (default: a new temporary one)")
    a = ap.parse_args()
    become_subreaper()
    if not os.path.exists(a.engine):
        sys.exit(f"soak: no engine at {a.engine} (cargo build --release)")
    managers = [m for m in (["match"] + (["cli"] if a.cli else [])) if a.only in (None, m)]
    opponents = ([] if a.no_self else [("self", None, None)])
    for spec in a.opponent:
        cmd, _, rules = spec.partition("@")
        words = cmd.split()
        words[0] = os.path.abspath(words[0])
        opponents.append((os.path.basename(words[0]), words, set((rules or "freestyle,standard,renju").split(","))))
    configs = []
    for mgr in managers:
        for name, cmd, rules in opponents:
            for th in [int(x) for x in a.threads.split(",")]:
                for rule in a.rules.split(","):
                    if rule not in RULE_NUMBERS:
                        sys.exit(f"soak: unknown rule {rule}")
                    if (mgr == "cli" and rule not in CLI_RULES) or (rules and rule not in rules):
                        continue
                    for size in [int(x) for x in a.sizes.split(",")]:
                        configs.append(dict(mgr=mgr, opp=name, opp_cmd=cmd, threads=th, rule=rule, size=size))
    if not configs:
        sys.exit("soak: no configuration to play")
    per = max(2, -(-a.games // len(configs)))
    per += per % 2
    out = a.out or tempfile.mkdtemp(prefix="soak-")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(a.seed)
    opening_files = {}
    for size in sorted({c["size"] for c in configs}):
        ops = make_openings(size, per // 2, rng)
        ours_f, pos_f = os.path.join(out, f"openings{size}.txt"), os.path.join(out, f"openings{size}.pos")
        with open(ours_f, "w") as f1, open(pos_f, "w") as f2:
            for pts in ops:
                names = [point_names(size, x, y) for x, y in pts]
                f1.write(",".join(n[0] for n in names) + "\n")
                f2.write("".join(n[1] for n in names) + "\n")
        opening_files[size] = (ours_f, pos_f)
    limit_kib = (a.memory_mb << 20) // 1024 if a.memory_mb else 0
    print(f"soak: {len(configs)} configurations x {per} games = {len(configs) * per} games; "
          f"tc {a.turn_ms} ms per move, {a.game_ms} ms per game; max_memory {a.memory_mb} MiB; records in {out}",
          flush=True)
    total = Tally()
    started = time.monotonic()
    for i, c in enumerate(configs):
        c["games"] = per
        label = f"{c['mgr']:5s} vs {c['opp']:12s} t{c['threads']} {c['rule']:9s} {c['size']}"
        d = os.path.join(out, f"{i + 1:02d}-{c['mgr']}-{c['opp']}-t{c['threads']}-{c['rule']}-{c['size']}")
        os.makedirs(d, exist_ok=True)
        memfile = os.path.join(d, "memory")
        os.makedirs(memfile, exist_ok=True)
        ours_f, pos_f = opening_files[c["size"]]
        t = (run_match if c["mgr"] == "match" else run_cli)(a, c, d, ours_f if c["mgr"] == "match" else pos_f, memfile)
        reap()
        peaks = read_memory(memfile)
        t.peak_kib = max(peaks.get("ours", [0]))
        t.opp_peak_kib = max(peaks.get("opp", [0]))
        t.processes = len(peaks.get("ours", []))
        total.add(t)
        status = "FAIL" if t.failed(limit_kib) else "ok"
        print(f"{label}: {t.line(limit_kib)}  {status}", flush=True)
        for n in t.notes[:5] + t.stray[:5] + t.late[:5]:
            print(f"    {n}")
    print(f"total ({time.monotonic() - started:.0f} s): {total.line(limit_kib)}")
    bad = total.failed(limit_kib)
    print("soak: " + ("FAILED" if bad else
                      "passed: no forfeit, no late move, no stray output, memory under max_memory"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
