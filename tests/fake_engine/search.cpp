#include "search.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace epdd::fake_engine {

namespace {

using core::Board;
using core::Move;
using core::UciCastling;

// Pawn, knight, bishop, rook, queen, king: the classical values, in centipawns.
constexpr std::array<int, 6> kValue{100, 300, 300, 500, 900, 0};

// Deep enough for any test, small enough that a typo ("go depth 99999999") prints a bounded
// amount.
constexpr int kMaxDepth = 1000;

struct Candidate {
  Move move;
  std::string uci;
  bool mates = false;
  int captured = 0;  // value of the piece taken, 0 for a quiet move
};

// The fake search's order: mates in one, then captures by value taken, then UCI text. Sorting
// by text last keeps the order independent of move generation order.
std::vector<Candidate> rank(const Board& board, std::span<const Move> moves, UciCastling castling) {
  std::vector<Candidate> ranked;
  ranked.reserve(moves.size());
  for (const Move m : moves) {
    Candidate c{m, core::to_uci(m, castling), board.is_mate_after(m), 0};
    if (board.is_capture(m))
      c.captured = m.kind() == core::MoveKind::EnPassant
                       ? kValue[0]
                       : kValue[static_cast<std::size_t>(core::index(core::type_of(board.piece_on(m.to()))))];
    ranked.push_back(std::move(c));
  }
  std::sort(ranked.begin(), ranked.end(), [](const Candidate& a, const Candidate& b) {
    if (a.mates != b.mates) return a.mates;
    if (a.captured != b.captured) return a.captured > b.captured;
    return a.uci < b.uci;
  });
  return ranked;
}

// Every legal move, in the fake search's order.
std::vector<Candidate> rank_legal(const Board& board, UciCastling castling) {
  const core::MoveList legal = board.legal_moves();
  return rank(board, std::span<const Move>(legal.begin(), legal.end()), castling);
}

// The first-ranked reply to the legal move m, or "" when m leaves no legal move.
std::string best_reply(const Board& board, Move m, UciCastling castling) {
  Board after = board.detached();
  after.make_move(m);
  const auto replies = rank_legal(after, castling);
  return replies.empty() ? std::string() : replies.front().uci;
}

// Material from the side to move's point of view, in centipawns.
int material(const Board& board) {
  const core::Color us = board.side_to_move();
  int sum = 0;
  for (int pt = 0; pt < 5; ++pt) {
    const auto type = static_cast<core::PieceType>(pt);
    sum += kValue[static_cast<std::size_t>(pt)] *
           (core::popcount(board.pieces(us, type)) - core::popcount(board.pieces(~us, type)));
  }
  return sum;
}

// D: the script's depth, else go depth, else 2N-1 for mate N, else from nodes, else 5.
int search_depth(const GoLimits& limits, const ScriptEntry* script) {
  if (script && script->depth) return std::clamp(*script->depth, 1, kMaxDepth);
  if (limits.depth) return std::clamp(*limits.depth, 1, kMaxDepth);
  if (limits.mate) return std::clamp(2 * *limits.mate - 1, 1, kMaxDepth);
  if (limits.nodes) return static_cast<int>(std::clamp<std::int64_t>(*limits.nodes / 2000 + 1, 1, 5));
  return 5;
}

// Replaces the pv's second move (or adds one) by a move that is illegal after the first.
void make_second_illegal(std::vector<std::string>& pv, const Board& board, UciCastling castling) {
  Board after = board.detached();
  if (const auto first = core::parse_uci(board, pv.front(), castling)) after.make_move(*first);
  std::string bad = illegal_move(after);
  if (pv.size() < 2)
    pv.push_back(std::move(bad));
  else
    pv[1] = std::move(bad);
}

// The words with single spaces.
std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) {
    if (!text.empty()) text += ' ';
    text += w;
  }
  return text;
}

// A pv that starts with `first` (as given, legal or not), followed by its best reply when it is
// legal and has one.
std::vector<std::string> line_from(const Board& board, const std::string& first, UciCastling castling) {
  std::vector<std::string> pv{first};
  if (const auto m = core::parse_uci(board, first, castling))
    if (std::string reply = best_reply(board, *m, castling); !reply.empty()) pv.push_back(std::move(reply));
  return pv;
}

// Depths 1..depth, each with one line per multipv candidate; the script replaces line 1's
// score and pv, and those of the other lines it names.
void add_iterations(SearchOutput& out, const Board& board, const std::vector<Candidate>& ranked,
                    int depth, const SearchSettings& settings, const ScriptEntry* script) {
  const std::size_t lines =
      std::min(static_cast<std::size_t>(std::max(settings.multipv, 1)), ranked.size());
  const int balance = material(board);
  std::vector<std::string> scores;
  std::vector<std::string> pvs;
  for (std::size_t k = 0; k < lines; ++k) {
    const Candidate& c = ranked[k];
    std::string score = c.mates ? "mate 1" : "cp " + std::to_string(balance - 7 * static_cast<int>(k));
    std::vector<std::string> pv{c.uci};
    if (!c.mates)
      if (std::string reply = best_reply(board, c.move, settings.castling); !reply.empty())
        pv.push_back(std::move(reply));
    if (k == 0 && script) {
      if (script->score) score = *script->score;
      if (!script->pv.empty()) {
        pv = script->pv;
      } else if (script->bestmove) {
        // A real engine's first pv move is its bestmove: keep them agreeing where we can.
        if (core::parse_uci(board, *script->bestmove, settings.castling))
          pv = line_from(board, *script->bestmove, settings.castling);
      }
    }
    if (k > 0 && script)
      for (const ScriptEntry::OtherLine& other : script->other_lines)
        if (other.multipv == static_cast<int>(k) + 1) {
          score = other.score;
          pv = line_from(board, other.move, settings.castling);
        }
    if (settings.illegal_pv) make_second_illegal(pv, board, settings.castling);
    scores.push_back(std::move(score));
    pvs.push_back(join(pv));
  }
  const auto line1_at = [&](int d) {
    const auto& moves = script->firstmoves;
    return join(line_from(board, moves[std::min(static_cast<std::size_t>(d), moves.size()) - 1], settings.castling));
  };
  for (int d = 1; d <= depth; ++d) {
    if (script && !script->firstmoves.empty() && lines > 0) pvs[0] = line1_at(d);
    for (std::size_t k = 0; k < lines; ++k) {
      const std::string ds = std::to_string(d);
      out.info.push_back("info depth " + ds + " seldepth " + std::to_string(d + 2) + " multipv " +
                         std::to_string(k + 1) + " score " + scores[k] + " nodes " +
                         std::to_string(static_cast<std::int64_t>(d) * 1000 + static_cast<std::int64_t>(k) + 1) +
                         " nps 1000000 time " + ds + " pv " + pvs[k]);
    }
  }
}

// The script's bestmove, pv and ponder take the place of the searched ones.
void apply_script_moves(SearchOutput& out, const Board& board, UciCastling castling,
                        const ScriptEntry& script) {
  if (!script.firstmoves.empty() && !script.bestmove && script.pv.empty()) {
    // The move of the deepest iteration printed (the last of the list for deep searches).
    auto it = std::find_if(out.info.rbegin(), out.info.rend(),
                           [](const std::string& l) { return l.find(" multipv 1 ") != std::string::npos; });
    const std::string last = it == out.info.rend() ? std::string() : *it;
    if (const auto pv = last.rfind(" pv "); pv != std::string::npos) {
      std::string rest = last.substr(pv + 4);
      out.bestmove = rest.substr(0, rest.find(' '));
      out.ponder = rest.find(' ') == std::string::npos ? std::string() : rest.substr(rest.find(' ') + 1);
    }
    return;
  }
  if (script.bestmove) {
    out.bestmove = *script.bestmove;
    out.ponder.clear();
    if (script.pv.size() >= 2 && script.pv[0] == out.bestmove)
      out.ponder = script.pv[1];
    else if (const auto best = core::parse_uci(board, out.bestmove, castling))
      out.ponder = best_reply(board, *best, castling);
  } else if (!script.pv.empty()) {
    out.bestmove = script.pv[0];
    out.ponder = script.pv.size() >= 2 ? script.pv[1] : std::string();
  }
  if (script.ponder) out.ponder = *script.ponder;
}

// A number after a go keyword; nullopt (and nothing consumed) when the next word is not one.
std::optional<std::int64_t> next_number(std::span<const std::string_view> words, std::size_t& i) {
  if (i + 1 >= words.size()) return std::nullopt;
  const std::string_view w = words[i + 1];
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
  if (ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
  ++i;
  return value;
}

// value as an int, at least lo, big values cut to INT_MAX instead of wrapping.
int clamp_int(std::int64_t value, int lo) {
  return static_cast<int>(std::clamp<std::int64_t>(value, lo, std::numeric_limits<int>::max()));
}

}  // namespace

GoLimits parse_go(std::span<const std::string_view> words) {
  GoLimits limits;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (w == "infinite") {
      limits.infinite = true;
    } else if (w == "ponder") {
      limits.ponder = true;
    } else if (w == "searchmoves") {
      while (++i < words.size()) limits.searchmoves.emplace_back(words[i]);
    } else if (w == "depth") {
      if (const auto n = next_number(words, i)) limits.depth = clamp_int(*n, 0);
    } else if (w == "nodes") {
      if (const auto n = next_number(words, i)) limits.nodes = std::max<std::int64_t>(*n, 0);
    } else if (w == "movetime") {
      if (const auto n = next_number(words, i)) limits.movetime = clamp_int(*n, 0);
    } else if (w == "mate") {
      if (const auto n = next_number(words, i)) limits.mate = std::min(clamp_int(*n, 1), kMaxDepth);
    } else {
      next_number(words, i);  // wtime, btime, winc, binc, movestogo: read, not used
    }
  }
  return limits;
}

SearchOutput fake_search(const Board& board, const GoLimits& limits, const SearchSettings& settings,
                         const ScriptEntry* script) {
  const core::MoveList legal = board.legal_moves();
  std::vector<Move> allowed;
  if (limits.searchmoves.empty()) {
    allowed.assign(legal.begin(), legal.end());
  } else {
    // Illegal and repeated searchmoves are dropped; none left is "no legal move", as in Stockfish.
    for (const std::string& text : limits.searchmoves)
      if (const auto m = core::parse_uci(board, text, settings.castling))
        if (std::find(allowed.begin(), allowed.end(), *m) == allowed.end()) allowed.push_back(*m);
  }
  const auto ranked = rank(board, allowed, settings.castling);

  SearchOutput out;
  if (ranked.empty()) {
    out.info.emplace_back(board.in_check() ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
    out.bestmove = "(none)";
  } else {
    const bool short_stop = settings.stop_short_nodes && limits.nodes && *settings.stop_short_nodes < *limits.nodes;
    // The nodes of each info line: --stop-short's count; or, for a go nodes limit that the
    // usual counts (1,000 a depth) would fall far short of, the limit in equal parts a depth, as
    // an engine that keeps to the limit reports it (so that epdd does not take the fake engine
    // for one that stops short: a tenth of the limit).
    const int depth = short_stop ? 1 : search_depth(limits, script);
    std::optional<std::int64_t> per_depth;
    if (!short_stop && limits.nodes && (static_cast<std::int64_t>(depth) * 1000 + 1) * 10 <= *limits.nodes)
      per_depth = *limits.nodes / depth;
    add_iterations(out, board, ranked, depth, settings, script);
    if (short_stop || per_depth)
      for (std::string& line : out.info) {
        const std::size_t at = line.find(" nodes ");
        const std::size_t end = line.find(' ', at + 7);
        const std::int64_t d = std::stoll(line.substr(line.find("depth ") + 6));
        line.replace(at + 7, end - at - 7, std::to_string(short_stop ? *settings.stop_short_nodes : d * *per_depth));
      }
    out.bestmove = ranked.front().uci;
    if (!ranked.front().mates) out.ponder = best_reply(board, ranked.front().move, settings.castling);
  }
  if (script) apply_script_moves(out, board, settings.castling, *script);
  if (settings.illegal_bestmove) {
    out.bestmove = illegal_move(board);
    out.ponder.clear();
  }
  return out;
}

std::string first_candidate(const Board& board, UciCastling castling) {
  const auto ranked = rank_legal(board, castling);
  return ranked.empty() ? std::string() : ranked.front().uci;
}

std::string unfinished_iteration(std::string_view last) {
  // "info depth D seldepth S multipv K score cp X nodes N ..." as add_iterations writes it.
  const auto number_after = [&](std::string_view key) -> std::int64_t {
    const auto at = last.find(key);
    if (at == std::string_view::npos) return 0;
    std::int64_t value = 0;
    const std::string_view rest = last.substr(at + key.size());
    std::from_chars(rest.data(), rest.data() + rest.size(), value);
    return value;
  };
  const std::int64_t depth = number_after("info depth ") + 1;
  const std::int64_t nodes = number_after(" nodes ") + 1000;
  std::string text = "info depth " + std::to_string(depth) + " seldepth " + std::to_string(depth + 2) +
                     " multipv 1 score cp -999 upperbound nodes " + std::to_string(nodes) + " time " +
                     std::to_string(depth);
  if (const auto pv = last.find(" pv "); pv != std::string_view::npos) text += std::string(last.substr(pv));
  return text;
}

std::string flood_line(std::uint64_t k, std::string_view move) {
  const std::string ks = std::to_string(k);
  // Lines come about 1 ms apart, so "time" is roughly right.
  std::string text = "info depth 1 nodes " + ks + " time " + ks + " nps 1000000 score cp 0";
  if (!move.empty()) {
    text += " pv ";
    text += move;
  }
  return text;
}

std::string illegal_move(const Board& board) {
  std::string text;
  for (int i = 0; i < 64 && text.size() < 4; ++i)
    if (board.piece_on(core::square_at(i)) == core::Piece::None) text += core::square_name(core::square_at(i));
  return text;  // a position has at most 32 pieces, so two empty squares always exist
}

}  // namespace epdd::fake_engine
