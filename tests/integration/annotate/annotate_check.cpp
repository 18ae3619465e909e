// annotate_check OUT.pgn IN.pgn [--judge lichess|cp:I,M,B] [--from-ply N] [--side white|black]
//                [--player NAME] [--only-moves] [--replace-nags] [--fake-engine]
//
// An independent check of `epdd annotate`'s output (issue 16, points 1 and 2). It uses epdd's PGN
// reader (the thing under test is the annotator, not the reader) and NOTHING of annotate/: the
// [%eval] form is matched by python-chess's own pattern, and each move's NAG is recomputed here
// from the written evaluations by lichess's rule (lila Advice) or the cp: rule, written anew.
//   1. OUT reads without errors, except games that IN could not read either (written back as
//      they were); same number of games.
//   2. Each readable game: the main line equals IN's; every tag of IN is there (Annotator may
//      grow); every comment text, NAG and variation of IN is still at its node, in order.
//   3. The root and every main-line node from the first analysed one carry exactly one [%eval]
//      of python-chess's form.
//   4. The judgement NAG of each move equals the rule's, recomputed from those evaluations;
//      a human's $1-$6 stays (without --replace-nags) and then no NAG is added. As on lichess, the
//      move that gives checkmate is not judged, and neither is the engine's own first move: with
//      --fake-engine that move is known here (tests/fake_engine/README.md's ranking, written
//      anew: mates in one, then captures by the value taken, then UCI text); without it, a move
//      the rule would mark that has no mark and no variation is taken as the engine's own, and
//      counted (printed at the end: a reader can judge whether that many is plausible).
// Prints every failure; exit status 0 when there is none, 1 otherwise, 2 on bad arguments.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "annotate_oracle.hpp"
#include "core/notation.hpp"
#include "pgn/reader.hpp"

namespace {

using epdd::pgn::Annotation;
using epdd::pgn::Game;

struct Options {
  std::string out, in;
  bool lichess = true;
  int cp[3] = {0, 0, 0};
  int from_ply = 1;
  int side = -1;  // -1 both, 0 white, 1 black
  std::string player;
  bool only_moves = false, replace_nags = false;
  bool fake_engine = false;
};

int excused = 0;  // moves taken as the engine's own first move (without --fake-engine)

// The fake engine's first move in `board` (its README: mates in one first, then captures by the
// value of the piece taken, P 100 N 300 B 300 R 500 Q 900, en passant a pawn, then UCI text).
epdd::core::Move fake_engine_best(const epdd::core::Board& board) {
  using namespace epdd::core;
  static constexpr int kValue[] = {100, 300, 300, 500, 900, 0};
  std::optional<Move> best;
  std::tuple<bool, int, std::string> best_key;
  const UciCastling castling = uci_castling_for(board);
  for (const Move m : board.legal_moves()) {
    int taken = 0;
    if (m.kind() == MoveKind::EnPassant) taken = 100;
    else if (board.is_capture(m)) taken = kValue[static_cast<std::size_t>(index(type_of(board.piece_on(m.to()))))];
    std::tuple<bool, int, std::string> key{!board.is_mate_after(m), -taken, to_uci(m, castling)};
    if (!best || key < best_key) {
      best = m;
      best_key = std::move(key);
    }
  }
  return best.value_or(Move::null());
}

int failures = 0;
void failure(const std::string& what) {
  if (++failures <= 40) std::cout << "FAIL: " << what << "\n";
}

// A written evaluation, from White's point of view: centipawns, or the side that mates.
struct Eval {
  bool mate = false;
  int cp = 0;          // centipawns (White's view)
  int mate_moves = 0;  // as written: #3 -> 3, #-3 -> -3, #0 / #-0 -> 0
  bool minus = false;  // "#-0"
};

// python-chess chess/pgn.py EVAL_REGEX, with the closing bracket it is matched with (one copy, in
// annotate_oracle.hpp, for this checker and the unit tests).
const std::regex& kEval = epdd::test::oracle::eval_regex();
const std::regex kAnyEval(R"(\[%eval\b)");

// The evaluations of a node's comments: every [%eval must match the pattern, and one only.
std::optional<Eval> eval_of(const std::vector<std::string>& comments, const std::string& where) {
  std::optional<Eval> found;
  int commands = 0, matched = 0;
  for (const auto& c : comments) {
    commands += static_cast<int>(std::distance(std::sregex_iterator(c.begin(), c.end(), kAnyEval), std::sregex_iterator()));
    for (auto it = std::sregex_iterator(c.begin(), c.end(), kEval); it != std::sregex_iterator(); ++it) {
      ++matched;
      const auto& m = *it;
      Eval e;
      if (m[1].matched) {
        e.mate = true;
        e.mate_moves = std::stoi(m[1].str());
        e.minus = m[1].str()[0] == '-';
      } else {
        // Two decimals at most: pawns * 100 is a whole number of centipawns.
        e.cp = static_cast<int>(std::lround(std::stod(m[2].str()) * 100));
      }
      found = e;
    }
  }
  if (commands != matched) failure(where + ": an [%eval] not in python-chess's form");
  if (matched > 1) failure(where + ": " + std::to_string(matched) + " [%eval] commands");
  return found;
}

std::vector<std::string> comments_after(const std::vector<Annotation>& after) {
  std::vector<std::string> out;
  for (const auto& a : after)
    if (a.kind == Annotation::Kind::Comment) out.push_back(a.comment);
  return out;
}

std::vector<int> nags_of(const std::vector<Annotation>& after) {
  std::vector<int> out;
  for (const auto& a : after)
    if (a.kind == Annotation::Kind::Nag) out.push_back(a.nag);
  return out;
}

// The mover's view of an evaluation. `mover_to_move`: the evaluation is of the position with the
// mover to move (before the move), else with the opponent to move (after it).
struct View {
  bool mate;
  int value;  // centipawns, or +1 the mover mates / -1 the mover is mated
};
View mover_view(const Eval& e, bool mover_is_white, bool mover_to_move) {
  if (e.mate) {
    bool white_mates;
    if (e.mate_moves != 0) white_mates = e.mate_moves > 0;
    else white_mates = !(mover_to_move ? mover_is_white : !mover_is_white);  // #0: the side to move is mated
    return {true, white_mates == mover_is_white ? 1 : -1};
  }
  return {false, mover_is_white ? e.cp : -e.cp};
}

double wc(int cp) { return 2.0 / (1.0 + std::exp(-0.00368208 * cp)) - 1.0; }

// lila Advice: cp -> cp by winning chances; the mate sequences; everything else not judged.
int lichess_nag(View b, View a) {
  if (!b.mate && !a.mate) {
    const double drop = wc(b.value) - wc(a.value);
    return drop >= 0.3 ? 4 : drop >= 0.2 ? 2 : drop >= 0.1 ? 6 : 0;
  }
  if (!b.mate && a.mate && a.value < 0) return b.value < -999 ? 6 : b.value < -700 ? 2 : 4;
  if (b.mate && b.value > 0 && !a.mate) return a.value > 999 ? 6 : a.value > 700 ? 2 : 4;
  if (b.mate && b.value > 0 && a.mate && a.value < 0) return 4;
  return 0;
}

int capped(View v) { return v.mate ? (v.value > 0 ? 1000 : -1000) : std::clamp(v.value, -1000, 1000); }

int cp_nag(const Options& o, View b, View a) {
  const int loss = std::max(0, capped(b) - capped(a));
  return loss >= o.cp[2] ? 4 : loss >= o.cp[1] ? 2 : loss >= o.cp[0] ? 6 : 0;
}

bool is_assessment(int nag) { return nag >= 1 && nag <= 6; }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Every annotation of IN's node is in OUT's, in the same order (OUT may have more between).
void contains_in_order(const std::vector<Annotation>& in, const std::vector<Annotation>& out, bool replace_nags,
                       const std::string& where) {
  std::size_t j = 0;
  for (const auto& a : in) {
    if (replace_nags && a.kind == Annotation::Kind::Nag && is_assessment(a.nag)) continue;
    bool found = false;
    for (; j < out.size() && !found; ++j) {
      const auto& b = out[j];
      if (a.kind != b.kind) continue;
      if (a.kind == Annotation::Kind::Nag) found = a.nag == b.nag;
      else if (a.kind == Annotation::Kind::Variation) found = a.variation == b.variation;
      else {
        // The comment's own text, with an [%eval] of ours taken out, is still there.
        const std::string text = std::regex_replace(a.comment, kEval, "");
        std::string mine = std::regex_replace(b.comment, kEval, "");
        found = mine.find(text.substr(text.find_first_not_of(' ') == std::string::npos ? text.size()
                                                                                        : text.find_first_not_of(' '))) !=
                std::string::npos;
      }
    }
    if (!found) failure(where + ": an annotation of the input is missing or out of order");
  }
}

void check_game(const Options& o, const Game& in, const Game& out) {
  const std::string name = "game " + std::to_string(in.number) + " (line " + std::to_string(out.line) + ")";
  if (in.mainline() != out.mainline()) return failure(name + ": the main line differs from the input's");
  for (const auto& t : in.tags)
    if (t.name != "Annotator" && out.tag(t.name) != std::optional<std::string_view>(t.value))
      failure(name + ": tag " + t.name + " is not kept");
  if (in.main.comments_before.size() > out.main.comments_before.size())
    failure(name + ": comments before the first move are missing");
  // The evaluations, position by position (0: the start position).
  const auto& moves = out.main.moves;
  std::vector<std::optional<Eval>> evals;
  evals.push_back(eval_of(out.main.comments_before, name + " start position"));
  for (std::size_t p = 0; p < moves.size(); ++p)
    evals.push_back(eval_of(comments_after(moves[p].after), name + " ply " + std::to_string(p + 1)));
  const std::size_t first = static_cast<std::size_t>(std::max(0, o.from_ply - 1));
  // A null move in the main line cannot be sent to an engine (UCI has none): the positions from
  // it on have no evaluation.
  std::size_t last = evals.size();
  for (std::size_t p = 0; p < moves.size(); ++p)
    if (moves[p].move == epdd::core::Move::null()) {
      last = p + 1;
      break;
    }
  for (std::size_t p = first; p < last; ++p)
    if (!evals[p]) failure(name + ": no [%eval] at ply " + std::to_string(p));
  const bool white_first = in.start.side_to_move() == epdd::core::Color::White;
  const std::string white = lower(std::string(in.tag("White").value_or(""))),
                    black = lower(std::string(in.tag("Black").value_or("")));
  epdd::core::Board board = out.start;
  for (std::size_t p = 1; p <= moves.size(); ++p) {
    const std::string where = name + " ply " + std::to_string(p);
    const auto& in_after = in.main.moves[p - 1].after;
    const auto& out_after = moves[p - 1].after;
    contains_in_order(in_after, out_after, o.replace_nags, where);
    const bool mover_white = ((p - 1) % 2 == 0) == white_first;
    const std::string mover = mover_white ? white : black;
    const epdd::core::Board before = board;
    if (moves[p - 1].move.is_null()) board.make_null_move();
    else board.make_move(moves[p - 1].move);
    const bool gives_mate = board.count_legal() == 0 && board.in_check();
    const bool judged = static_cast<int>(p) >= o.from_ply && evals[p - 1] && evals[p] && !gives_mate &&
                        (o.side < 0 || (o.side == 0) == mover_white) && (o.player.empty() || lower(o.player) == mover);
    int expected = 0;
    if (judged) {
      const View b = mover_view(*evals[p - 1], mover_white, true), a = mover_view(*evals[p], mover_white, false);
      expected = o.lichess ? lichess_nag(b, a) : cp_nag(o, b, a);
    }
    if (expected && o.fake_engine && fake_engine_best(before) == moves[p - 1].move) expected = 0;
    if (expected && !o.fake_engine) {
      const auto count_kind = [](const std::vector<Annotation>& after, Annotation::Kind kind) {
        return std::count_if(after.begin(), after.end(), [&](const Annotation& a) { return a.kind == kind; });
      };
      const auto out_nags = nags_of(out_after), in_nags = nags_of(in_after);
      const bool nag_added = std::count_if(out_nags.begin(), out_nags.end(), is_assessment) >
                             std::count_if(in_nags.begin(), in_nags.end(), is_assessment);
      if (!nag_added && count_kind(out_after, Annotation::Kind::Variation) == count_kind(in_after, Annotation::Kind::Variation)) {
        expected = 0;
        ++excused;
      }
    }
    const auto in_nags = nags_of(in_after), out_nags = nags_of(out_after);
    const bool human = std::any_of(in_nags.begin(), in_nags.end(), is_assessment);
    std::vector<int> theirs, ours;
    for (int n : in_nags)
      if (is_assessment(n) && !o.replace_nags) theirs.push_back(n);
    for (int n : out_nags)
      if (is_assessment(n)) ours.push_back(n);
    std::vector<int> want = theirs;
    if (expected && (!human || o.replace_nags)) want.push_back(expected);
    // --only-moves may add $1 where no judgement NAG is due (its MultiPV line is not written).
    if (o.only_moves && !expected && (!human || o.replace_nags)) std::erase(ours, 1);
    std::sort(want.begin(), want.end());
    std::sort(ours.begin(), ours.end());
    if (want != ours) {
      std::ostringstream s;
      s << where << ": move-assessment NAGs";
      for (int n : ours) s << " $" << n;
      s << ", the rule says";
      for (int n : want) s << " $" << n;
      failure(s.str());
    }
  }
}

struct Read {
  std::vector<Game> games;
  std::vector<bool> errors;  // per game: the reader met an error in it
};

Read read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    std::cout << "FAIL: cannot read " << path << "\n";
    std::exit(1);
  }
  std::stringstream bytes;
  bytes << f.rdbuf();
  const std::string text = bytes.str();
  epdd::pgn::Diagnostics diags;
  Read r;
  r.games = epdd::pgn::read_games(text, diags);
  r.errors.assign(r.games.size(), false);
  for (const auto& d : diags.items())
    if (d.severity == epdd::pgn::Severity::Error && d.game >= 1 && d.game <= r.games.size()) r.errors[d.game - 1] = true;
  return r;
}

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto value = [&]() -> std::string { return i + 1 < args.size() ? args[++i] : ""; };
    if (args[i] == "--judge") {
      const std::string v = value();
      if (v != "lichess") {
        o.lichess = false;
        if (std::sscanf(v.c_str(), "cp:%d,%d,%d", &o.cp[0], &o.cp[1], &o.cp[2]) != 3) return std::nullopt;
      }
    } else if (args[i] == "--from-ply") {
      o.from_ply = std::stoi(value());
    } else if (args[i] == "--side") {
      o.side = value() == "white" ? 0 : 1;
    } else if (args[i] == "--player") {
      o.player = value();
    } else if (args[i] == "--only-moves") {
      o.only_moves = true;
    } else if (args[i] == "--replace-nags") {
      o.replace_nags = true;
    } else if (args[i] == "--fake-engine") {
      o.fake_engine = true;
    } else {
      files.push_back(args[i]);
    }
  }
  if (files.size() != 2) return std::nullopt;
  o.out = files[0];
  o.in = files[1];
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const auto o = parse(argc, argv);
  if (!o) {
    std::cerr << "usage: annotate_check OUT.pgn IN.pgn [--judge lichess|cp:I,M,B] [--from-ply N] [--side white|black]"
                 " [--player NAME] [--only-moves] [--replace-nags]\n";
    return 2;
  }
  const Read in = read_file(o->in), out = read_file(o->out);
  if (in.games.size() != out.games.size())
    failure("the output has " + std::to_string(out.games.size()) + " games, the input " + std::to_string(in.games.size()));
  std::size_t checked = 0, kept = 0;
  for (std::size_t g = 0; g < std::min(in.games.size(), out.games.size()); ++g) {
    if (in.errors[g]) {
      ++kept;  // written back as it was: the reader meets the same error
      continue;
    }
    if (out.errors[g]) failure("game " + std::to_string(g + 1) + ": the output does not read without errors");
    check_game(*o, in.games[g], out.games[g]);
    ++checked;
  }
  std::cout << (failures ? "FAILED: " : "ok: ") << checked << " games checked, " << kept
            << " unreadable ones left as they were, " << failures << " failures";
  if (excused > 0) std::cout << ", " << excused << " unmarked moves taken as the engine's own first move";
  std::cout << "\n";
  return failures ? 1 : 0;
}
