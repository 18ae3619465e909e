// English descriptive notation. Every square is named from the mover's side (K4 is e4 for
// White and e5 for Black). A move is described by its mover and either its destination or the
// piece it takes; each part has designations of growing precision, and the writer picks the
// least precise pair that matches no other legal move:
//   mover:        N, KN (the knight on the king's wing), N/KB3 (the knight on KB3)
//   pawn mover:   P, BP (the bishop's-file pawn), KBP, P/KB3
//   destination:  B3 (either bishop's file), KB3
//   taken piece:  the same designations as a mover
// Checks are written "ch", mates " mate", en passant " e.p.", promotion "=Q".
#include <algorithm>
#include <utility>

#include "core/notation.hpp"

namespace epdd::core {

namespace {

constexpr const char* kFullFile[8] = {"QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"};
constexpr const char* kShortFile[8] = {"R", "N", "B", "Q", "K", "B", "N", "R"};

int relative_rank_number(Color mover, Square s) { return relative_rank(mover, s) + 1; }

std::string square_text(Color mover, Square s, bool full) {
  return std::string((full ? kFullFile : kShortFile)[file_of(s)]) +
         std::to_string(relative_rank_number(mover, s));
}

// Designation levels of a piece of type pt: 0 is the bare letter, the last names the square.
int designation_levels(PieceType pt) { return pt == PieceType::Pawn ? 4 : 3; }

std::string designation(Color mover, PieceType pt, Square s, int level) {
  const char letter = piece_type_letter(pt);
  const bool wings = pt == PieceType::Knight || pt == PieceType::Bishop || pt == PieceType::Rook;
  if (pt == PieceType::Pawn) {
    if (level == 1) return std::string(kShortFile[file_of(s)]) + letter;
    if (level == 2) return std::string(kFullFile[file_of(s)]) + letter;
  } else if (level == 1 && wings) {
    return std::string(file_of(s) >= 4 ? "K" : "Q") + letter;
  }
  if (level == 0 || (level == 1 && !wings)) return std::string(1, letter);
  return std::string(1, letter) + "/" + square_text(mover, s, true);
}

bool designation_matches(PieceType pt, Square named, Square other, int level) {
  const bool wings = pt == PieceType::Knight || pt == PieceType::Bishop || pt == PieceType::Rook;
  switch (level) {
    case 0: return true;
    case 1:
      if (pt == PieceType::Pawn) return kShortFile[file_of(named)] == kShortFile[file_of(other)];
      if (wings) return (file_of(named) >= 4) == (file_of(other) >= 4);
      return true;
    case 2:
      if (pt == PieceType::Pawn) return file_of(named) == file_of(other);
      return named == other;
    default: return named == other;
  }
}

bool destination_matches(Square named, Square other, int level) {
  if (level >= 1) return named == other;
  return rank_of(named) == rank_of(other) && kShortFile[file_of(named)] == kShortFile[file_of(other)];
}

Square captured_square(Move m, Color mover) {
  if (m.kind() == MoveKind::EnPassant) return square_at(index(m.to()) + (mover == Color::White ? -8 : 8));
  return m.to();
}

}  // namespace

std::string to_descriptive(const Board& board, Move move) {
  if (move.is_null()) return "--";
  std::string suffix;
  if (board.gives_check(move)) suffix = board.is_mate_after(move) ? " mate" : "ch";
  if (move.kind() == MoveKind::Castling)
    return (file_of(move.to()) > file_of(move.from()) ? "O-O" : "O-O-O") + suffix;

  const Color us = board.side_to_move();
  const PieceType mover = type_of(board.moving_piece(move));
  const bool capture = board.is_capture(move);
  const Square target = capture ? captured_square(move, us) : move.to();
  const PieceType taken = capture ? type_of(board.piece_on(target)) : PieceType::None;
  const PieceType promotion = move.kind() == MoveKind::Promotion ? move.promotion() : PieceType::None;

  // Other legal moves that a description could be mistaken for.
  std::vector<Move> rivals;
  for (Move m : board.legal_moves()) {
    if (m == move || m.kind() == MoveKind::Castling) continue;
    if (type_of(board.moving_piece(m)) != mover || board.is_capture(m) != capture) continue;
    if ((m.kind() == MoveKind::Promotion ? m.promotion() : PieceType::None) != promotion) continue;
    if (capture && type_of(board.piece_on(captured_square(m, us))) != taken) continue;
    rivals.push_back(m);
  }

  const int mover_levels = designation_levels(mover);
  const int target_levels = capture ? designation_levels(taken) : 2;
  std::vector<std::pair<int, int>> choices;
  for (int ml = 0; ml < mover_levels; ++ml)
    for (int tl = 0; tl < target_levels; ++tl) choices.emplace_back(ml, tl);
  // Least precise first; on a tie, make the destination or the taken piece precise first.
  std::stable_sort(choices.begin(), choices.end(), [](auto a, auto b) {
    return a.first + a.second < b.first + b.second;
  });
  std::pair<int, int> chosen = choices.back();
  for (const auto& choice : choices) {
    // Plain copies, not structured bindings: clang 14 (the fuzz build) cannot capture those.
    const int ml = choice.first, tl = choice.second;
    const bool clash = std::any_of(rivals.begin(), rivals.end(), [&](Move m) {
      if (!designation_matches(mover, move.from(), m.from(), ml)) return false;
      return capture ? designation_matches(taken, target, captured_square(m, us), tl)
                     : destination_matches(target, m.to(), tl);
    });
    if (!clash) {
      chosen = {ml, tl};
      break;
    }
  }

  std::string out = designation(us, mover, move.from(), chosen.first);
  if (capture) out += "x" + designation(us, taken, target, chosen.second);
  else out += "-" + square_text(us, target, chosen.second >= 1);
  if (promotion != PieceType::None) {
    out += '=';
    out += piece_type_letter(promotion);
  }
  if (move.kind() == MoveKind::EnPassant) out += " e.p.";
  return out + suffix;
}

}  // namespace epdd::core
