#include "suites/matetrack.hpp"

#include <cstdlib>
#include <utility>

#include <fmt/core.h>

#include "core/notation.hpp"

namespace epdd::suites {

namespace {

// Names are stable: the JSON report carries them.
constexpr std::pair<MateOutcome, const char*> kOutcomes[] = {
    {MateOutcome::NoMate, "none"},     {MateOutcome::Best, "best"},   {MateOutcome::Longer, "longer"},
    {MateOutcome::Better, "better"},   {MateOutcome::Wrong, "wrong"},
};
constexpr std::pair<PvStatus, const char*> kPvStatuses[] = {
    {PvStatus::Ok, "ok"},     {PvStatus::Short, "short"}, {PvStatus::Long, "long"},
    {PvStatus::Wrong, "wrong"}, {PvStatus::Draw, "draw"}, {PvStatus::Illegal, "illegal"},
};

template <typename E, std::size_t N>
const char* name_in(const std::pair<E, const char*> (&table)[N], E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

template <typename E, std::size_t N>
std::optional<E> value_in(const std::pair<E, const char*> (&table)[N], std::string_view text) {
  for (const auto& [v, name] : table)
    if (text == name) return v;
  return std::nullopt;
}

// python-chess's can_claim_draw, which matecheck.py asks before each move of the losing side:
// the fifty-move rule or threefold repetition, now or after one of the legal moves.
bool draw_claimable(core::Board& b) {
  const auto claim = [&b] { return b.repetition_count() >= 3 || (b.halfmove_clock() >= 100 && b.count_legal() > 0); };
  if (claim()) return true;
  for (core::Move m : b.legal_moves()) {
    b.make_move(m);
    const bool after = claim();
    b.unmake_move();
    if (after) return true;
  }
  return false;
}

std::string plies(std::size_t n) { return fmt::format("{} {}", n, n == 1 ? "ply" : "plies"); }

// "a mate in 2", "mated in 1".
std::string claim_text(int mate_moves) {
  return mate_moves > 0 ? fmt::format("a mate in {}", mate_moves) : fmt::format("mated in {}", -mate_moves);
}

}  // namespace

const char* to_string(MateOutcome outcome) { return name_in(kOutcomes, outcome); }
std::optional<MateOutcome> mate_outcome_from(std::string_view text) { return value_in(kOutcomes, text); }
const char* to_string(PvStatus status) { return name_in(kPvStatuses, status); }
std::optional<PvStatus> pv_status_from(std::string_view text) { return value_in(kPvStatuses, text); }

std::string mate_text(int moves) { return fmt::format("#{}", moves); }

PvCheck check_mate_pv(const core::Board& board, int mate_moves, const std::vector<std::string>& pv,
                      const std::string& cut) {
  const auto castling = core::uci_castling_for(board);
  // The mated side moves at odd plies (0-based) of a mate for the side to move, at even ones
  // of a mate against it.
  const std::size_t losing = mate_moves > 0 ? 1 : 0;
  core::Board b = board.detached();
  const auto draw_before = [&](std::size_t ply) -> std::optional<PvCheck> {
    if (ply % 2 != losing || !draw_claimable(b)) return std::nullopt;
    return PvCheck{PvStatus::Draw, fmt::format("the losing side could claim a draw before ply {}", ply + 1)};
  };
  for (std::size_t ply = 0; ply < pv.size(); ++ply) {
    if (auto draw = draw_before(ply)) return *draw;
    const auto m = core::parse_uci(b, pv[ply], castling);
    if (!m) return {PvStatus::Illegal, fmt::format("PV move {} '{}' is illegal", ply + 1, pv[ply])};
    b.make_move(*m);
  }
  if (!cut.empty()) {
    if (auto draw = draw_before(pv.size())) return *draw;
    return {PvStatus::Illegal, cut};
  }
  const auto needed = static_cast<std::size_t>(mate_moves > 0 ? 2 * mate_moves - 1 : -2 * mate_moves);
  const std::string length = plies(pv.size()), claim = claim_text(mate_moves);
  if (pv.size() < needed) return {PvStatus::Short, fmt::format("the PV stops after {}, {} takes {}", length, claim, needed)};
  if (pv.size() > needed) return {PvStatus::Long, fmt::format("the PV goes on for {}, {} takes {}", length, claim, needed)};
  if (!b.is_checkmate()) return {PvStatus::Wrong, fmt::format("no checkmate at the end of the PV ({})", length)};
  return {};
}

MateResult score_mate_key(int key, const core::Board& board, const uci::Analysis& analysis) {
  MateResult r;
  r.key = key;
  if (analysis.lines.empty()) return r;
  const uci::PvLine& line = analysis.lines.front();
  // "mate 0" in a live position says nothing (matecheck.py skips it too).
  if (!line.score.is_mate() || line.score.mate_plies() == 0) return r;
  const int found = line.score.mate_moves();
  r.found = found;
  if ((found > 0) != (key > 0)) {
    r.outcome = MateOutcome::Wrong;
    return r;
  }
  r.outcome = std::abs(found) == std::abs(key) ? MateOutcome::Best
              : std::abs(found) < std::abs(key) ? MateOutcome::Better
                                                : MateOutcome::Longer;
  PvCheck pv = check_mate_pv(board, found, line.pv, line.pv_cut);
  r.pv = pv.status;
  r.pv_note = std::move(pv.note);
  return r;
}

void MateCounts::add(const MateResult& r) {
  ++records;
  found += r.found_mate() ? 1 : 0;
  best += r.outcome == MateOutcome::Best ? 1 : 0;
  better += r.outcome == MateOutcome::Better ? 1 : 0;
  wrong += r.outcome == MateOutcome::Wrong ? 1 : 0;
  no_mate += r.outcome == MateOutcome::NoMate ? 1 : 0;
  bad_pv += r.bad_pv() ? 1 : 0;
}

}  // namespace epdd::suites
