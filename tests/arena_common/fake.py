#!/usr/bin/env python3
import sys, time
mode = sys.argv[1] if len(sys.argv) > 1 else "sane"
if mode == "dead":
    sys.exit(1)
size = 15
board = {}
me_black = None
requests = 0

def out(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()

def near_centre():
    c = size // 2
    best = None
    for y in range(size):
        for x in range(size):
            if (x, y) in board:
                continue
            k = (max(abs(x - c), abs(y - c)), (x - c) ** 2 + (y - c) ** 2, y, x)
            if best is None or k < best[0]:
                best = (k, (x, y))
    return best[1]

def first_free(points):
    for p in points:
        if p not in board:
            return p
    return near_centre()

FOUL6 = [(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (3, 0)]
FOUL44 = [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3), (0, 0)]

def choose():
    global requests
    requests += 1
    if mode == "timeout":
        return None
    if mode == "crash" and requests >= 3:
        sys.exit(3)
    if mode == "garbage" and requests >= 2:
        return "hello there"
    if mode == "occupied" and board:
        return sorted(board)[0]
    if mode == "foul6" and me_black:
        return first_free(FOUL6)
    if mode == "foul44" and me_black:
        return first_free(FOUL44)
    if mode == "pairwin":
        if (0, 0) in board:
            return "not a move on this opening"
        return first_free([(x, size - 1) for x in range(size)])
    if mode == "rowwin":
        if not me_black:
            return "this is not a move"
        return first_free([(x, size - 1) for x in range(size)])
    if mode == "slow3" and requests <= 3:
        time.sleep(0.4)
    if mode == "caroblack" and me_black:
        return first_free([(x, size - 1) for x in range(1, 6)])
    if mode == "caroblock" and not me_black:
        return first_free([(0, size - 1), (6, size - 1)])
    if mode == "eval":
        # A score from the stones (ours count plus, the opponent's minus) for `label`.
        score = sum((x * 7 + y * 3) * (1 if f == 1 else -1) for (x, y), f in board.items())
        out("MESSAGE depth 1 ev %d n 1" % (score % 400 - 200))
        return near_centre()
    if mode == "filler":
        want = 0 if me_black else 1
        cells = [(x, y) for y in range(size) for x in range(size) if ((x + 2 * y) % 4 >= 2) == (want == 1)]
        return first_free(cells)
    out("MESSAGE thinking about move %d" % requests)
    out("DEBUG nothing to see")
    return near_centre()

def answer():
    r = choose()
    if r is None:
        return
    if isinstance(r, str):
        out(r)
        return
    board[r] = 1
    out("%d,%d" % r)

for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word = line.split()[0].upper()
    if word in ("START", "RECTSTART"):
        size = int(line.split()[1].split(",")[0])
        board = {}
        me_black = None
        requests = 0
        out("OK")
    elif word == "ABOUT":
        out('name="fake-%s", version="1.0", author="tests"' % mode)
    elif word == "BEGIN":
        me_black = True
        answer()
    elif word == "TURN":
        x, y = [int(t) for t in line.split(None, 1)[1].split(",")]
        if me_black is None:
            me_black = False
        board[(x, y)] = 2
        answer()
    elif word == "BOARD":
        board = {}
        mine = theirs = 0
        for body in sys.stdin:
            body = body.strip()
            if body.upper() == "DONE":
                break
            x, y, f = [int(t) for t in body.split(",")]
            board[(x, y)] = int(f)
            if f == 1:
                mine += 1
            else:
                theirs += 1
        me_black = mine == theirs
        answer()
    elif word == "END":
        sys.exit(0)
