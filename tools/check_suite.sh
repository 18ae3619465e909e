#!/usr/bin/env bash
# tools/check_suite.sh: check every record of an EPD test suite with Stockfish.
#
#   tools/check_suite.sh [SUITE.epd] [NODES] [ENGINE]
#     SUITE   default examples/tactics.epd (relative to the repository)
#     NODES   node limit per search, default 2000000
#     ENGINE  default /usr/games/stockfish (Debian's Stockfish 15.1)
#
# A tool run on purpose, by hand, when the suite is edited (it is not part of the build or of
# the tests). It needs bash, python3 (standard library only) and the engine; it does not use
# epdd. Settings: Threads=1, Hash=16, `ucinewgame` before every search, `go nodes NODES`.
#
# For every record it
#   - checks that the position is sane: one king each, no pawn on rank 1 or 8, the side not to
#     move not in check, castling rights that match king and rook squares, an en passant square
#     that matches a pawn that has just made a double step;
#   - turns every bm/am move (SAN) into UCI by matching it against the engine's own list of
#     legal moves (`go perft 1`), and checks that the SAN is unambiguous and that its `+`/`#`
#     is right (`d` shows the checkers, `go perft 1` after the move counts the replies);
#   - searches with MultiPV 1 (what a suite run sees) and with MultiPV 2, and prints id, the
#     bm/am/dm text with its UCI form, the engine's bestmove, the scores of PV1 and PV2 and the PV.
#
# A record passes when
#   bm:  both searches play a bm move, and the bm is clearly best: PV2 scores at least 100 cp
#        less than PV1, or PV1 mates and PV2 mates later or not at all;
#   dm N: in addition, PV1 is scored `mate N` (in both searches);
#   am:  neither search plays an am move, and each am move searched alone
#        (`go nodes NODES searchmoves MOVE`) scores at least 150 cp less than the best move.
# The exit status is 0 when every record passes, 1 when one fails, 2 on a usage or engine error.
#
# Run it at the suite's two node limits, e.g.
#   tools/check_suite.sh examples/tactics.epd 50000
#   tools/check_suite.sh examples/tactics.epd 2000000
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
suite="${1:-$here/examples/tactics.epd}"
nodes="${2:-2000000}"
engine="${3:-/usr/games/stockfish}"

if [[ ! -r "$suite" ]]; then echo "check_suite: cannot read suite file: $suite" >&2; exit 2; fi
if [[ ! "$nodes" =~ ^[1-9][0-9]*$ ]]; then echo "check_suite: NODES must be a positive integer: $nodes" >&2; exit 2; fi
if [[ ! -x "$engine" ]]; then echo "check_suite: engine not found or not executable: $engine" >&2; exit 2; fi
python=/usr/bin/python3
[[ -x "$python" ]] || python="$(command -v python3)" || { echo "check_suite: python3 not found" >&2; exit 2; }

exec "$python" - "$suite" "$nodes" "$engine" <<'PYTHON'
import re
import subprocess
import sys

suite_path, nodes, engine_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
BM_MARGIN, AM_MARGIN, MATE = 100, 150, 100000


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        self.name = next((l[8:] for l in self.seen if l.startswith("id name ")), "?")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        self.seen = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("check_suite: the engine quit unexpectedly")
            line = line.rstrip("\n")
            self.seen.append(line)
            if stop(line):
                return self.seen

    def ready(self):
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def position(self, fen, moves=()):
        self.send("position fen " + fen + (" moves " + " ".join(moves) if moves else ""))

    def legal(self, fen, moves=()):
        self.position(fen, moves)
        self.send("go perft 1")
        out = self.until(lambda l: l.startswith("Nodes searched"))
        return [l.split(":")[0] for l in out if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?: ", l)]

    def checkers(self, fen, moves=()):
        self.position(fen, moves)
        self.send("d")
        out = self.until(lambda l: l.startswith("Checkers:"))
        return out[-1][len("Checkers:"):].split()

    def search(self, fen, multipv, searchmoves=None):
        self.send("ucinewgame")
        self.send("setoption name MultiPV value %d" % multipv)
        self.ready()
        self.position(fen)
        self.send("go nodes %d" % nodes + (" searchmoves " + " ".join(searchmoves) if searchmoves else ""))
        out = self.until(lambda l: l.startswith("bestmove"))
        lines = {}
        for l in out:
            m = re.match(r"^info .*\bmultipv (\d+) .*\bscore (cp|mate) (-?\d+)( lowerbound| upperbound)?.*?\bnodes (\d+).*?\bpv (.*)$", l)
            if m:
                lines[int(m.group(1))] = {"kind": m.group(2), "value": int(m.group(3)),
                                         "bound": (m.group(4) or "").strip(), "pv": m.group(6).split(),
                                         "depth": int(re.search(r"\bdepth (\d+)", l).group(1))}
        return out[-1].split()[1], lines

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def norm(s):
    """A score as one comparable number: mate in n is better the smaller n is."""
    if s["kind"] == "cp":
        return s["value"]
    return MATE - s["value"] if s["value"] > 0 else -MATE - s["value"]


def show(s):
    if s is None:
        return "-"
    txt = ("cp %+d" % s["value"]) if s["kind"] == "cp" else ("mate %d" % s["value"])
    return txt + (" (%s)" % s["bound"] if s["bound"] else "")


def board_of(placement):
    board = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return board


def sanity(eng, fields):
    problems = []
    placement, side, castling, ep = fields
    rows = placement.split("/")
    if len(rows) != 8 or any(sum(int(c) if c.isdigit() else 1 for c in row) != 8 for row in rows):
        return ["the placement does not have 8 ranks of 8 squares"]
    if side not in ("w", "b"):
        problems.append("side to move is not w or b")
    board = board_of(placement)
    if list(board.values()).count("K") != 1 or list(board.values()).count("k") != 1:
        problems.append("not exactly one king of each colour")
    if any(p in "Pp" and sq[1] in "18" for sq, p in board.items()):
        problems.append("a pawn on rank 1 or 8")
    for flag, king, rook in (("K", "e1", "h1"), ("Q", "e1", "a1"), ("k", "e8", "h8"), ("q", "e8", "a8")):
        if flag in castling:
            want_k, want_r = ("K", "R") if flag.isupper() else ("k", "r")
            if board.get(king) != want_k or board.get(rook) != want_r:
                problems.append("castling right %s without king on %s and rook on %s" % (flag, king, rook))
    if castling != "-" and not re.fullmatch(r"K?Q?k?q?", castling):
        problems.append("castling field is not in KQkq order")
    if ep != "-":
        f, r = ep[0], ep[1]
        mover, pusher, step = ("P", "p", -1) if side == "w" else ("p", "P", 1)
        if r != ("6" if side == "w" else "3"):
            problems.append("en passant square on the wrong rank")
        else:
            pawn_sq, from_sq = f + str(int(r) + step), f + str(int(r) - step)
            if board.get(pawn_sq) != pusher or ep in board or from_sq in board:
                problems.append("en passant square without a pawn that has just moved two squares")
    if not problems:
        flipped = " ".join([placement, "b" if side == "w" else "w", castling, "-"])
        if eng.checkers(flipped + " 0 1"):
            problems.append("the side not to move is in check")
    return problems


SAN_RE = re.compile(r"^([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([QRBN]))?([+#])?$")


def san_to_uci(eng, fen, board, side, san):
    """Returns (uci, problem) for one SAN move of the record."""
    legal = eng.legal(fen)
    text = re.sub(r"[!?]+$", "", san)
    suffix = text[-1] if text.endswith(("+", "#")) else ""
    core = text.rstrip("+#")
    if core in ("O-O", "O-O-O"):
        rank = "1" if side == "w" else "8"
        cands = [u for u in legal if u == "e" + rank + ("g" if core == "O-O" else "c") + rank
                 and board.get("e" + rank) in "Kk"]
    else:
        m = SAN_RE.match(core)
        if not m:
            return None, "cannot read SAN %r" % san
        piece, ff, fr, _, dest, promo, _ = m.groups()
        piece = piece or "P"
        want = piece if side == "w" else piece.lower()
        cands = [u for u in legal if u[2:4] == dest and board.get(u[:2]) == want
                 and (ff is None or u[0] == ff) and (fr is None or u[1] == fr)
                 and (u[4:] == (promo or "").lower())]
    if len(cands) != 1:
        return None, "SAN %r matches %d legal moves %s" % (san, len(cands), cands)
    uci = cands[0]
    check = bool(eng.checkers(fen, [uci]))
    mate = check and not eng.legal(fen, [uci])
    right = "#" if mate else "+" if check else ""
    if suffix != right:
        return uci, "SAN %r should end in %r" % (san, right or "no check sign")
    return uci, None


def parse_record(line):
    fields = line.split(None, 4)
    if len(fields) < 4:
        return None, None, "fewer than four FEN fields"
    ops, rest = {}, fields[4] if len(fields) > 4 else ""
    for m in re.finditer(r'\s*([A-Za-z][A-Za-z0-9_]*)((?:\s+(?:"[^"]*"|[^;\s"]+))*)\s*;', rest):
        ops[m.group(1)] = [t.strip('"') for t in re.findall(r'"[^"]*"|[^\s"]+', m.group(2))]
    return fields[:4], ops, None


def main():
    eng = Engine(engine_path)
    print("check_suite: %s, %s, Threads=1 Hash=16, go nodes %d" % (suite_path, eng.name, nodes))
    failures, total = [], 0
    with open(suite_path, encoding="utf-8") as fh:
        lines = [(n, l.strip()) for n, l in enumerate(fh, 1)]
    for lineno, line in lines:
        if not line or line.startswith("#"):
            continue
        total += 1
        fields, ops, err = parse_record(line)
        rid = (ops or {}).get("id", ["line %d" % lineno])[0]
        bad = []
        if err:
            failures.append(rid)
            print("\n%s: FAIL: %s" % (rid, err))
            continue
        fen = " ".join(fields) + " 0 1"
        bad += sanity(eng, fields)
        if bad:
            failures.append(rid)
            print("\n%s: FAIL: %s" % (rid, "; ".join(bad)))
            continue
        board = board_of(fields[0])
        want = {}
        for op in ("bm", "am"):
            for san in ops.get(op, []):
                uci, problem = san_to_uci(eng, fen, board, fields[1], san)
                if problem:
                    bad.append(problem)
                if uci:
                    want.setdefault(op, []).append((san, uci))
        bm = [u for _, u in want.get("bm", [])]
        am = [u for _, u in want.get("am", [])]
        dm = int(ops["dm"][0]) if "dm" in ops else None
        if not bm and not am:
            bad.append("neither bm nor am")

        best1, info1 = eng.search(fen, 1)
        best2, info2 = eng.search(fen, 2)
        pv1, pv2 = info2.get(1), info2.get(2)
        expected = "  ".join("%s %s (%s)" % (op, " ".join(s for s, _ in want[op]), " ".join(u for _, u in want[op]))
                             for op in ("bm", "am") if op in want)
        if dm is not None:
            expected += "  dm %d" % dm
        print("\n%s  [%s]" % (rid, (ops.get("c0") or [""])[0]))
        print("  expected : %s" % expected)
        print("  MultiPV 1: bestmove %s  score %s" % (best1, show(info1.get(1))))
        print("  MultiPV 2: bestmove %s  PV1 %s  PV2 %s" % (best2, show(pv1), show(pv2)))
        print("  PV1      : %s" % " ".join((pv1 or {}).get("pv", [])[:12]))
        print("  PV2      : %s" % " ".join((pv2 or {}).get("pv", [])[:12]))

        if bm:
            for label, best in (("MultiPV 1", best1), ("MultiPV 2", best2)):
                if best not in bm:
                    bad.append("%s plays %s, not the bm" % (label, best))
            if pv1 is None or pv2 is None:
                bad.append("no PV2 to compare with (one legal move?)")
            elif pv2["pv"][0] not in bm:
                s1, s2 = norm(pv1), norm(pv2)
                if pv1["kind"] == "mate" and pv1["value"] > 0:
                    if not s1 > s2:
                        bad.append("PV2 mates as fast as PV1")
                elif s1 - s2 < BM_MARGIN:
                    bad.append("margin PV1-PV2 %d cp < %d" % (s1 - s2, BM_MARGIN))
        if dm is not None:
            for label, s in (("MultiPV 1", info1.get(1)), ("MultiPV 2", pv1)):
                if not s or s["kind"] != "mate" or s["value"] != dm:
                    bad.append("%s scores %s, not mate %d" % (label, show(s), dm))
        if am:
            for label, best in (("MultiPV 1", best1), ("MultiPV 2", best2)):
                if best in am:
                    bad.append("%s plays the am move %s" % (label, best))
            best_score = norm(info1[1])
            for san, uci in want["am"]:
                _, info = eng.search(fen, 1, [uci])
                s = info.get(1)
                margin = best_score - norm(s)
                print("  am %-6s: searched alone %s, %s than the best (%s)"
                      % (san, show(s), ("%d cp worse" % margin) if abs(margin) < MATE // 2 else
                         ("%s" % ("worse" if margin > 0 else "not worse")), show(info1[1])))
                if margin < AM_MARGIN:
                    bad.append("am %s only %d cp worse than the best" % (san, margin))
        print("  result   : %s" % ("ok" if not bad else "FAIL: " + "; ".join(bad)))
        if bad:
            failures.append(rid)
    eng.quit()
    print("\n%d records, %d ok, %d failed%s" % (total, total - len(failures), len(failures),
                                              (": " + " ".join(failures)) if failures else ""))
    return 1 if failures else 0


sys.exit(main())
PYTHON
