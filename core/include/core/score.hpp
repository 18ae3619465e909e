// Score: centipawns, or mate in a number of plies, always from the side to move; converted to
// and from the EPD `ce` encoding and UCI's "score mate N".
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "core/expected.hpp"
#include "core/types.hpp"

namespace epdd::core {

class Score {
 public:
  enum class Kind : std::uint8_t { Centipawns, Mate };

  // EPD `ce` (pgn-standard.txt, opcode "ce"): -32767..32766 from the side to move. Above 32000
  // the side to move mates in 32767 - ce plies; below -32000 it is mated in 32767 + ce plies.
  // -32767 is also the standard's mark of an illegal position (mated now reads the same).
  static constexpr int kCeMate = 32767;
  static constexpr int kCeMax = 32766;
  static constexpr int kCeMateThreshold = 32000;
  // Centipawn scores are clamped to this when written as `ce`, so they never read as mates.
  static constexpr int kMaxCentipawns = kCeMateThreshold;
  // Longest mate the encoding can hold: 32767 - 32001.
  static constexpr int kMaxMatePlies = kCeMate - kCeMateThreshold - 1;

  static constexpr Score centipawns(int cp) { return Score(Kind::Centipawns, cp); }
  // plies > 0: the side to move mates in that many plies (odd); plies < 0: the side to move
  // is mated in -plies plies (even); 0: the side to move is checkmated now.
  static constexpr Score mate_in_plies(int plies) { return Score(Kind::Mate, plies); }
  // UCI "score mate N": N > 0 mates in N moves (2N - 1 plies), N < 0 is mated in -N moves
  // (2|N| plies), N = 0 is checkmated.
  static constexpr Score from_uci_mate(int moves) {
    return mate_in_plies(moves > 0 ? 2 * moves - 1 : 2 * moves);
  }
  // Reads a `ce` operand value; outside -32767..32766 is an error.
  static Expected<Score, std::string> from_ce(long long ce);

  constexpr Kind kind() const { return kind_; }
  constexpr bool is_mate() const { return kind_ == Kind::Mate; }
  // Centipawns (only for Kind::Centipawns).
  constexpr int cp() const { return value_; }
  // Signed plies to mate (only for Kind::Mate), as in mate_in_plies.
  constexpr int mate_plies() const { return value_; }
  // Full moves to mate as UCI and the EPD `dm` opcode count them: positive when the side to
  // move mates, negative when it is mated.
  constexpr int mate_moves() const { return value_ > 0 ? (value_ + 1) / 2 : value_ / 2; }

  // The same evaluation seen from the other side. For a mate the plies are only negated: the
  // other side is not to move, so mate_moves() of the result does not count its moves (mate in
  // 5 plies negated reads as mated in 2 moves, not 3); count moves before turning a mate.
  // (There was a from_white() built on this; it miscounted mates for Black to move and is gone.)
  constexpr Score negated() const { return Score(kind_, -value_); }

  // EPD `ce` value.
  int to_ce() const;
  // "+0.25", "-1.50", "0.00"; mates "#3" or "#-2" (in moves), "#-0" for the side to move
  // checkmated: the side to move's view.
  std::string to_pawns_string() const;
  // The same as White sees it, this being the view of `side_to_move`: "+0.25", "-1.50", "0.00";
  // "#3" White mates in 3, "#-2" Black mates in 2, "#-0" White checkmated, "#0" Black checkmated
  // (lichess's marks for mates, as epdd's [%eval] comments write them; [%eval] writes no "+").
  std::string to_white_pawns_string(Color side_to_move) const;
  // "cp 25" or "mate -2": the UCI form.
  std::string to_uci_string() const;

  // Better for the side to move compares greater: a faster mate beats a slower one, any mate
  // beats any centipawn score, being mated later beats being mated sooner.
  std::strong_ordering operator<=>(const Score& other) const { return rank() <=> other.rank(); }
  constexpr bool operator==(const Score& other) const = default;

 private:
  constexpr Score(Kind kind, int value) : kind_(kind), value_(value) {}
  long long rank() const;

  Kind kind_;
  int value_;
};

}  // namespace epdd::core
