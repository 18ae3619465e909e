#include "uci/analysis.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/core.h>

#include "core/fen.hpp"

namespace epdd::uci {

namespace {

// Changes of line 1's first move kept per search (an engine that flips for ever is cut off).
constexpr std::size_t kMaxIterations = 4096;

constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// A move as UCI or, leniently, SAN (workflows hand over moves from PGN and EPD).
Expected<core::Move, std::string> read_move(const core::Board& board, const std::string& text,
                                            core::UciCastling castling) {
  if (auto uci = core::parse_uci(board, text, castling)) return *uci;
  core::SanReadOptions options;
  options.verify_check_marks = false;
  if (auto san = core::parse_san(board, text, options)) return san->move;
  else return unexpected(san.error().message);
}

core::Score score_of(const InfoScore& s) {
  return s.kind == InfoScore::Kind::Mate ? core::Score::from_uci_mate(s.value) : core::Score::centipawns(s.value);
}

}  // namespace

Expected<PreparedPosition, std::string> prepare_position(const AnalysisRequest& request, core::UciCastling castling) {
  core::FenReadOptions options;
  options.fields = core::FenFields::FourOrSix;
  options.chess960 = request.chess960;
  auto board = core::parse_fen(request.fen.empty() ? kStartFen : request.fen, options);
  if (!board) return unexpected("bad FEN: " + core::to_string(board.error()));
  PreparedPosition p{std::move(*board), {}, {}, {}};
  if (!request.fen.empty() || request.chess960) p.root_fen = core::to_fen(p.board);
  for (std::size_t i = 0; i < request.moves.size(); ++i) {
    auto move = read_move(p.board, request.moves[i], castling);
    if (!move) return unexpected(fmt::format("move {} '{}': {}", i + 1, request.moves[i], move.error()));
    p.moves.push_back(core::to_uci(*move, castling));
    p.board.make_move(*move);
  }
  for (const auto& text : request.searchmoves) {
    auto move = read_move(p.board, text, castling);
    if (!move) return unexpected(fmt::format("searchmove '{}': {}", text, move.error()));
    p.searchmoves.push_back(core::to_uci(*move, castling));
  }
  return p;
}

std::string mate_contradiction(const core::Board& start, const PvLine& line, core::UciCastling castling) {
  if (!line.score.is_mate()) return {};
  const auto plies = static_cast<std::size_t>(std::abs(line.score.mate_plies()));
  if (line.pv.size() < plies) return {};
  core::Board b = start.detached();
  for (std::size_t i = 0; i < plies; ++i) {
    auto m = core::parse_uci(b, line.pv[i], castling);
    if (!m) return fmt::format("PV move {} '{}' is illegal", i + 1, line.pv[i]);
    b.make_move(*m);
  }
  if (!b.is_checkmate()) return fmt::format("the PV does not end in mate after {} plies", plies);
  return {};
}

std::vector<std::string> legal_prefix(const core::Board& start, const std::vector<std::string>& pv,
                                      core::UciCastling castling, std::string& cut) {
  cut.clear();
  std::vector<std::string> kept;
  core::Board board = start.detached();
  for (const auto& text : pv) {
    auto move = core::parse_uci(board, text, castling);
    if (!move) {
      cut = fmt::format("PV cut at move {} '{}': {}", kept.size() + 1, text, move.error().message);
      break;
    }
    kept.push_back(core::to_uci(*move, castling));
    board.make_move(*move);
  }
  return kept;
}

PvLine SearchRecord::make_line(const Info& info, int multipv) {
  PvLine line;
  line.multipv = multipv;
  line.depth = info.depth.value_or(0);
  line.seldepth = info.seldepth;
  line.score = score_of(*info.score);
  line.wdl = info.wdl;
  line.nodes = info.nodes.value_or(0);
  line.time_ms = info.time_ms.value_or(0);
  // Kept as printed: checked once, in finish(), not on every one of a search's info lines.
  line.pv = info.pv;
  return line;
}

void SearchRecord::add(const Info& info) {
  ++infos_;
  if (info.nodes) nodes_ = std::max(nodes_, *info.nodes);
  if (info.time_ms) time_ms_ = std::max(time_ms_, *info.time_ms);
  // Only lines with a depth and a score describe an iteration; currmove/hashfull/string
  // lines do not.
  if (!info.score || !info.depth) return;
  const int multipv = info.multipv.value_or(1);
  if (multipv < 1 || multipv > 500) {
    problems_.push_back(fmt::format("info with multipv {} ignored", multipv));
    return;
  }
  if (slots_.size() < static_cast<std::size_t>(multipv)) slots_.resize(static_cast<std::size_t>(multipv));
  Slot& slot = slots_[static_cast<std::size_t>(multipv - 1)];
  // The last exact score of the deepest iteration: a bound is a search still under way.
  if (info.score->bound != Bound::Exact) return;
  // Only changes of the first move are kept: all time to solution needs, and bounded by what the
  // engine changes its mind about rather than by how much it prints.
  if (multipv == 1 && !info.pv.empty() && (iterations_.empty() || iterations_.back().move != info.pv.front()) &&
      iterations_.size() < kMaxIterations) {
    iterations_.push_back(
        {*info.depth, info.nodes.value_or(0), info.time_ms.value_or(0), score_of(*info.score), info.pv.front()});
  }
  if (slot.exact && slot.exact->depth > *info.depth) return;
  slot.exact = make_line(info, multipv);
}

Expected<Analysis, std::string> SearchRecord::finish(const BestMove& given, std::uint64_t wall_ms, bool stopped) {
  Analysis a;
  a.problems = problems_;
  const std::size_t legal = board_.count_legal();
  BestMove best = given;
  // Some engines (Glaurung) say "(none)" when stopped early in a live position; their PV still
  // names the move they would play.
  if (best.move.empty() && legal > 0 && stopped && !slots_.empty() && slots_[0].exact &&
      !slots_[0].exact->pv.empty()) {
    best.move = slots_[0].exact->pv.front();
    best.ponder.clear();
    a.problems.push_back(fmt::format("bestmove '{}' after stop: the PV's first move {} taken", given.written, best.move));
  }
  if (best.move.empty()) {
    if (legal > 0)
      return unexpected(fmt::format("bestmove '{}' (no move) in a position with {} legal moves", best.written, legal));
  } else {
    auto move = core::parse_uci(board_, best.move, castling_);
    if (!move) return unexpected(fmt::format("illegal bestmove '{}': {}", best.move, move.error().message));
    a.bestmove = core::to_uci(*move, castling_);
    if (!best.ponder.empty()) {
      core::Board after = board_.detached();
      after.make_move(*move);
      if (auto ponder = core::parse_uci(after, best.ponder, castling_)) {
        a.ponder = core::to_uci(*ponder, castling_);
      } else {
        a.problems.push_back(fmt::format("illegal ponder move '{}' dropped", best.ponder));
      }
    }
  }
  for (const Slot& slot : slots_) {
    if (!slot.exact) continue;
    PvLine line = *slot.exact;
    line.pv = legal_prefix(board_, line.pv, castling_, line.pv_cut);
    if (!line.pv_cut.empty()) a.problems.push_back(fmt::format("multipv {}: {}", line.multipv, line.pv_cut));
    // A mate score must agree with the PV where the PV reaches the mate.
    if (const std::string why = mate_contradiction(board_, line, castling_); !why.empty())
      a.problems.push_back(fmt::format("multipv {}: score mate {} but {}", line.multipv, line.score.mate_moves(), why));
    a.lines.push_back(std::move(line));
  }
  if (!a.lines.empty()) a.depth = a.lines.front().depth;
  // Only legal first moves; an illegal report between two of one move does not start a new one.
  for (Iteration& it : iterations_) {
    auto move = core::parse_uci(board_, it.move, castling_);
    if (!move) continue;
    it.move = core::to_uci(*move, castling_);
    if (!a.iterations.empty() && a.iterations.back().move == it.move) continue;
    a.iterations.push_back(std::move(it));
  }
  a.nodes = nodes_;
  a.time_ms = time_ms_ ? time_ms_ : wall_ms;
  if (a.lines.empty() && legal > 0 && infos_ > 0) a.problems.push_back("no exact score was reported");
  return a;
}

}  // namespace epdd::uci
