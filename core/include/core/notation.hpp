// Move text: SAN written exactly as the PGN standard says and read leniently like real files
// write it; LAN, UCI and English descriptive notation; the standard's locale piece letters.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"

namespace epdd::core {

// Piece letters of one language, indexed by PieceType (pawn, knight, bishop, rook, queen,
// king), from the PGN standard's table of alternative piece letters.
struct PieceLetters {
  std::string_view language;
  std::array<char, 6> letters;
  char letter(PieceType pt) const { return letters[index(pt)]; }
};

const PieceLetters& english_letters();
// Czech, Danish, Dutch, English, Estonian, Finnish, French, German, Hungarian, Icelandic,
// Italian, Norwegian, Polish, Portuguese, Romanian, Spanish, Swedish.
std::span<const PieceLetters> locale_letters();
// The letters of a language by name, case-insensitive ("german"); nullptr if unknown.
const PieceLetters* find_locale(std::string_view language);

// ---- writing ----

// Standard Algebraic Notation of a legal move, with check (+) or mate (#) marks. The null move
// is written "--" (the common PGN extension).
std::string to_san(const Board& board, Move move, const PieceLetters& letters = english_letters());
// Long algebraic: piece letter (none for pawns), from square, '-' or 'x', to square, "=Q",
// check marks; castling as O-O / O-O-O.
std::string to_lan(const Board& board, Move move, const PieceLetters& letters = english_letters());

// How castling is sent to an engine: the standard king move (e1g1), or king takes own rook
// (e1h1), which engines expect with UCI_Chess960 on.
enum class UciCastling : std::uint8_t { Standard, KingTakesRook };

// The castling form for a position: king takes rook in Chess960, the standard king move otherwise.
inline UciCastling uci_castling_for(const Board& board) {
  return board.chess960() ? UciCastling::KingTakesRook : UciCastling::Standard;
}

// UCI long algebraic ("e2e4", "e7e8q", "0000" for the null move).
std::string to_uci(Move move, UciCastling castling = UciCastling::Standard);

// English descriptive notation from the mover's side ("P-K4", "N-KB3", "BxN", "PxP e.p.",
// "O-O", "ch", "mate"). The shortest designation that names exactly this move among the legal
// moves is used: "N-B3" only if no knight can reach the other B3.
std::string to_descriptive(const Board& board, Move move);

// ---- reading ----

// What a lenient reader accepted that canonical SAN would not have. Bit flags.
enum class Leniency : std::uint32_t {
  None = 0,
  ZeroCastling = 1u << 0,           // 0-0 or 0-0-0 with digit zero
  MissingCapture = 1u << 1,         // a capture written without 'x'
  SuperfluousCapture = 1u << 2,     // 'x' on a move that captures nothing
  MissingCheck = 1u << 3,           // no '+' or '#' on a move that checks
  SuperfluousCheck = 1u << 4,       // '+' or '#' on a move that does not check
  WrongCheckKind = 1u << 5,         // '+' on a mate, '#' on a check that is not mate
  PromotionForm = 1u << 6,          // promotion without '=' (e8Q), or as e8(Q) or e8/Q
  LowercasePromotion = 1u << 7,     // e8=q
  LongAlgebraic = 1u << 8,          // from square given: Ng1-f3, e2-e4, e2xe4, Ng1f3
  Uci = 1u << 9,                    // e2e4, e7e8q, e1g1, e1h1
  PawnLetter = 1u << 10,            // Pe4
  NonstandardDisambiguation = 1u << 11,  // Nbd2 where Nd2 suffices, N1d2 where Nbd2 is standard
  EnPassantSuffix = 1u << 12,       // exd6 e.p.
  PawnCaptureWithoutFile = 1u << 13,  // xd5 for exd5
  NullMove = 1u << 14,              // --, Z0, 0000 (an extension, accepted when allowed)
  DoubleCheckMark = 1u << 15,       // ++ for check or mate
};

constexpr Leniency operator|(Leniency a, Leniency b) {
  return static_cast<Leniency>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
constexpr Leniency& operator|=(Leniency& a, Leniency b) { return a = a | b; }
constexpr bool has(Leniency set, Leniency flag) {
  return (static_cast<std::uint32_t>(set) & static_cast<std::uint32_t>(flag)) != 0;
}
// "0-0 for O-O, capture without 'x'": every flag in words, comma-separated.
std::string describe(Leniency set);

struct ParsedMove {
  Move move = Move::none();
  // The suffix annotation split off the move ("!", "?", "!!", "!?", "?!", "??"), or empty.
  std::string_view annotation;
  Leniency leniency = Leniency::None;
};

enum class MoveErrorKind : std::uint8_t {
  Syntax,     // not move text at all
  Illegal,    // move text, but no legal move fits
  Ambiguous,  // several legal moves fit
};

struct MoveError {
  MoveErrorKind kind = MoveErrorKind::Syntax;
  std::string message;                  // says why, in a sentence
  std::vector<std::string> candidates;  // the moves that were close (SAN), if any
};

struct SanReadOptions {
  const PieceLetters* letters = &english_letters();
  // Check '+'/'#' against the position and report mismatches as leniencies. Costs a mate test
  // on checking moves; bulk readers that only need the move may turn it off.
  bool verify_check_marks = true;
  // Accept "--", "Z0" and "0000" as the null move (only when the side to move is not in check).
  bool allow_null = false;
};

// Reads one move in SAN, leniently: also 0-0, missing or superfluous x/+/#, suffix annotations
// (split off), promotions as e8Q, e8=q, e8(Q), long algebraic and UCI. An illegal or ambiguous
// move is an error that says why and lists the candidates.
Expected<ParsedMove, MoveError> parse_san(const Board& board, std::string_view text,
                                          const SanReadOptions& options = {});

// Reads a UCI move ("e2e4", "e7e8q"); castling is accepted in both forms (e1g1 and e1h1) where
// that is unambiguous, with `castling` deciding the Chess960 case where a king step could be
// either a plain king move or castling.
Expected<Move, MoveError> parse_uci(const Board& board, std::string_view text,
                                    UciCastling castling = UciCastling::Standard);

}  // namespace epdd::core
