// Lenient reading of move text. The text is taken apart from the end (annotation, check
// marks, promotion, destination) and then from the front (piece letter, from file/rank), and
// the legal moves that fit are found from the destination backwards, not by generating all.
#include <array>
#include <optional>
#include <span>

#include "core/attacks.hpp"
#include "core/notation.hpp"
#include "notation_detail.hpp"
#include "core/text.hpp"

namespace epdd::core {

namespace {

const char* const kPieceNames[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};

std::string color_word(Color c) { return c == Color::White ? "white" : "black"; }
std::string side_name(Color c) { return c == Color::White ? "White" : "Black"; }

unexpected<MoveError> fail(MoveErrorKind kind, std::string message,
                           std::vector<std::string> candidates = {}) {
  return unexpected(MoveError{kind, std::move(message), std::move(candidates)});
}

bool is_file(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank(char c) { return c >= '1' && c <= '8'; }

// The parts of a move text after it has been taken apart.
struct MoveText {
  PieceType piece = PieceType::Pawn;
  bool piece_letter = false;
  int from_file = -1;
  int from_rank = -1;
  bool capture_mark = false;
  bool dash = false;
  Square to = Square::None;
  std::optional<PieceType> promotion;
};

enum class CheckMark : std::uint8_t { None, Check, Mate };

// Piece type of a letter in the given language, or nullopt.
std::optional<PieceType> piece_of_letter(const PieceLetters& letters, char c) {
  for (int i = 0; i < 6; ++i)
    if (letters.letters[i] == c) return static_cast<PieceType>(i);
  return std::nullopt;
}

// Promotion piece letter: the language's upper-case letter or its lower-case form.
std::optional<PieceType> promotion_of_letter(const PieceLetters& letters, char c, bool& lower) {
  lower = c >= 'a' && c <= 'z';
  const char upper = lower ? static_cast<char>(c - 'a' + 'A') : c;
  const auto pt = piece_of_letter(letters, upper);
  if (!pt || *pt == PieceType::Pawn || *pt == PieceType::King) return std::nullopt;
  return pt;
}

std::string san_list(const Board& board, const std::vector<Move>& moves) {
  std::string out;
  for (Move m : moves) {
    if (!out.empty()) out += ", ";
    out += to_san(board, m);
  }
  return out;
}

std::vector<std::string> san_strings(const Board& board, const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(to_san(board, m));
  return out;
}

Expected<ParsedMove, MoveError> parse_castling(const Board& board, std::string_view core,
                                               ParsedMove result) {
  const bool king_side = core.size() == 3;
  const CastlingSide side = king_side ? CastlingSide::King : CastlingSide::Queen;
  const Color us = board.side_to_move();
  const char* name = king_side ? "O-O" : "O-O-O";
  for (Move m : board.legal_moves())
    if (m.kind() == MoveKind::Castling && (file_of(m.to()) > file_of(m.from())) == king_side) {
      result.move = m;
      return result;
    }
  const Square rook = board.castling_rook(us, side);
  if (rook == Square::None)
    return fail(MoveErrorKind::Illegal, std::string(name) + " is illegal: " + side_name(us) +
                                            " has no " + (king_side ? "king" : "queen") +
                                            "-side castling right");
  if (board.in_check())
    return fail(MoveErrorKind::Illegal, std::string(name) + " is illegal: " + side_name(us) +
                                            " is in check");
  const Square king = board.king_square(us);
  const int back = rank_of(king);
  const Square king_to = make_square(king_side ? 6 : 2, back);
  const Square rook_to = make_square(king_side ? 5 : 3, back);
  const Bitboard path = (attacks::between(king, king_to) | attacks::between(rook, rook_to)) &
                        ~bb(king) & ~bb(rook);
  if (const Bitboard blocked = path & board.occupied())
    return fail(MoveErrorKind::Illegal, std::string(name) + " is illegal: " +
                                            square_name(lsb(blocked)) + " is occupied");
  return fail(MoveErrorKind::Illegal, std::string(name) + " is illegal: the king would pass " +
                                          "through or land on an attacked square");
}

// Strips the suffix annotation, "e.p." and check marks off the end of `t`.
std::string_view strip_suffixes(std::string_view t, ParsedMove& result, CheckMark& mark,
                                bool& double_mark, bool& ep_suffix) {
  auto strip_annotation = [&] {
    std::size_t n = 0;
    while (n < 2 && n < t.size() && (t[t.size() - 1 - n] == '!' || t[t.size() - 1 - n] == '?')) ++n;
    if (n) {
      result.annotation = t.substr(t.size() - n);
      t.remove_suffix(n);
    }
  };
  strip_annotation();
  if (t.size() > 2 && t.substr(t.size() - 2) == "++") {
    mark = CheckMark::Check;
    double_mark = true;
    t.remove_suffix(2);
  } else if (!t.empty() && (t.back() == '+' || t.back() == '#')) {
    mark = t.back() == '#' ? CheckMark::Mate : CheckMark::Check;
    t.remove_suffix(1);
  }
  for (std::string_view ep : {std::string_view("e.p."), std::string_view("ep")}) {
    if (t.size() > ep.size() + 2 && t.substr(t.size() - ep.size()) == ep &&
        is_rank(t[t.size() - ep.size() - 1])) {
      ep_suffix = true;
      t.remove_suffix(ep.size());
      break;
    }
  }
  // "Nf3!+" puts the annotation before the check mark.
  if (result.annotation.empty()) strip_annotation();
  return t;
}

// Takes the move text apart; returns an error message for text that is not a move.
std::optional<std::string> split_move_text(std::string_view t, const PieceLetters& letters,
                                           MoveText& mt, Leniency& leniency) {
  // Promotion at the end: =Q, Q, =q, q, (Q), /Q.
  if (t.size() >= 3) {
    std::size_t n = 0;
    char letter = 0;
    if (t.size() >= 5 && t[t.size() - 3] == '(' && t.back() == ')') {
      letter = t[t.size() - 2];
      n = 3;
    } else if (t.size() >= 4 && (t[t.size() - 2] == '=' || t[t.size() - 2] == '/')) {
      letter = t.back();
      n = 2;
    } else if (is_rank(t[t.size() - 2]) && !is_rank(t.back())) {
      letter = t.back();
      n = 1;
    }
    if (n) {
      bool lower = false;
      const auto pt = promotion_of_letter(letters, letter, lower);
      if (!pt) return quoted_escaped(std::string(1, letter)) + " is not a promotion piece";
      mt.promotion = pt;
      if (lower) leniency |= Leniency::LowercasePromotion;
      if (!(n == 2 && t[t.size() - 2] == '=')) leniency |= Leniency::PromotionForm;
      t.remove_suffix(n);
    }
  }
  if (t.size() < 2 || !is_file(t[t.size() - 2]) || !is_rank(t.back()))
    return std::string("no destination square at the end");
  mt.to = make_square(t[t.size() - 2] - 'a', t.back() - '1');
  t.remove_suffix(2);
  if (!t.empty() && (t.back() == 'x' || t.back() == '-')) {
    (t.back() == 'x' ? mt.capture_mark : mt.dash) = true;
    t.remove_suffix(1);
  }
  if (!t.empty()) {
    if (const auto pt = piece_of_letter(letters, t.front()); pt && t.front() >= 'A' && t.front() <= 'Z') {
      mt.piece = *pt;
      mt.piece_letter = true;
      if (*pt == PieceType::Pawn) leniency |= Leniency::PawnLetter;
      t.remove_prefix(1);
    }
  }
  if (!t.empty() && is_file(t.front())) {
    mt.from_file = t.front() - 'a';
    t.remove_prefix(1);
  }
  if (!t.empty() && is_rank(t.front())) {
    mt.from_rank = t.front() - '1';
    t.remove_prefix(1);
  }
  if (!t.empty()) return quoted_escaped(t) + " is not a piece letter or a from square";
  if (mt.dash && (mt.from_file < 0 || mt.from_rank < 0))
    return std::string("'-' only follows a complete from square (Ng1-f3, e2-e4)");
  return std::nullopt;
}

// Why no legal move fits, for the error message.
std::string explain_no_move(const Board& board, const MoveText& mt, Bitboard geometric) {
  const Color us = board.side_to_move();
  const std::string piece = color_word(us) + " " + kPieceNames[index(mt.piece)];
  if (!board.pieces(us, mt.piece)) return side_name(us) + " has no " + kPieceNames[index(mt.piece)];
  const Piece there = board.piece_on(mt.to);
  if (there != Piece::None && color_of(there) == us)
    return square_name(mt.to) + " is occupied by a " + color_word(us) + " " +
           kPieceNames[index(type_of(there))];
  if (!geometric) return "no " + piece + " can move to " + square_name(mt.to);
  if (board.in_check()) return side_name(us) + " is in check and this does not answer it";
  if (mt.piece == PieceType::King) return "the king would be in check on " + square_name(mt.to);
  return "the " + std::string(kPieceNames[index(mt.piece)]) + " on " + square_name(lsb(geometric)) +
         " is pinned to its king";
}

}  // namespace

namespace {

// Resolves piece moves, pawn moves, long algebraic and UCI text to the one legal move they name.
Expected<ParsedMove, MoveError> resolve(const Board& board, std::string_view text, std::string_view core,
                                        const SanReadOptions& options, ParsedMove result) {
  MoveText mt;
  const PieceLetters& letters = options.letters ? *options.letters : english_letters();
  if (const auto problem = split_move_text(core, letters, mt, result.leniency))
    return fail(MoveErrorKind::Syntax, quoted_escaped(text) + " is not a move: " + *problem);
  const bool long_form = mt.from_file >= 0 && mt.from_rank >= 0;
  const bool uci_shape = long_form && !mt.piece_letter && !mt.dash && !mt.capture_mark &&
                         (!mt.promotion || has(result.leniency, Leniency::LowercasePromotion));
  if (uci_shape) {
    // UCI text: its promotion letter is lower case by definition, and its castling forms
    // (e1g1, e1h1) are the UCI reader's business.
    result.leniency = static_cast<Leniency>(static_cast<std::uint32_t>(result.leniency) &
                                            ~static_cast<std::uint32_t>(Leniency::LowercasePromotion | Leniency::PromotionForm));
    result.leniency |= Leniency::Uci;
    const Piece p = board.piece_on(make_square(mt.from_file, mt.from_rank));
    if (type_of(p) == PieceType::King && color_of(p) == board.side_to_move()) {
      auto move = parse_uci(board, core);
      if (!move) return unexpected(move.error());
      result.move = *move;
      return result;
    }
  }
  // In long and UCI forms the from square names the piece when no letter does.
  if (long_form && !mt.piece_letter) {
    const Piece p = board.piece_on(make_square(mt.from_file, mt.from_rank));
    if (p != Piece::None) mt.piece = type_of(p);
  }

  Bitboard geometric = detail::origins(board, mt.piece, mt.to);
  if (mt.piece == PieceType::Pawn && mt.from_file < 0 && mt.from_rank < 0) {
    const Bitboard pushes = geometric & file_bb(file_of(mt.to));
    if (mt.capture_mark && !pushes) result.leniency |= Leniency::PawnCaptureWithoutFile;
    else geometric = pushes;  // "d5" never means a capture
  }
  if (mt.from_file >= 0) geometric &= file_bb(mt.from_file);
  if (mt.from_rank >= 0) geometric &= rank_bb(mt.from_rank);
  // At most ten pieces of a kind can reach a square: no allocation for the candidates.
  std::array<Move, 16> fit_buffer;
  std::size_t fit_count = 0;
  for (Bitboard b = geometric; b && fit_count < fit_buffer.size();) {
    const Move m = detail::make_move_to(board, pop_lsb(b), mt.to, mt.promotion.value_or(PieceType::Queen));
    if (board.keeps_king_safe(m)) fit_buffer[fit_count++] = m;
  }
  const std::span<const Move> fits(fit_buffer.data(), fit_count);
  if (fits.empty()) {
    std::vector<Move> same_piece;
    for (Move m : board.legal_moves())
      if (m.kind() != MoveKind::Castling && type_of(board.moving_piece(m)) == mt.piece) same_piece.push_back(m);
    std::string msg = quoted_escaped(text) + " is illegal: " + explain_no_move(board, mt, geometric);
    if (!same_piece.empty())
      msg += " (legal " + std::string(kPieceNames[index(mt.piece)]) + " moves: " + san_list(board, same_piece) + ")";
    return fail(MoveErrorKind::Illegal, msg, san_strings(board, same_piece));
  }
  if (fits.size() > 1)
    return fail(MoveErrorKind::Ambiguous, quoted_escaped(text) + " is ambiguous: " + san_list(board, {fits.begin(), fits.end()}) + " all fit",
                san_strings(board, {fits.begin(), fits.end()}));

  const Move m = fits.front();
  if (m.kind() == MoveKind::Promotion && !mt.promotion)
    return fail(MoveErrorKind::Illegal,
                quoted_escaped(text) + " reaches the last rank but names no promotion piece (=Q, =R, =B or =N)");
  if (m.kind() != MoveKind::Promotion && mt.promotion)
    return fail(MoveErrorKind::Illegal, quoted_escaped(text) + " names a promotion piece but the move does not promote");
  result.move = m;
  const bool capture = board.is_capture(m);
  if (capture && !mt.capture_mark && !uci_shape) result.leniency |= Leniency::MissingCapture;
  if (!capture && mt.capture_mark) result.leniency |= Leniency::SuperfluousCapture;
  // Long algebraic, unless it is the standard's own full-square disambiguation (Ng2e3 where
  // file and rank alone both leave another knight).
  if (long_form && !uci_shape &&
      (mt.dash || !mt.piece_letter || detail::disambiguation(board, m) != square_name(m.from())))
    result.leniency |= Leniency::LongAlgebraic;
  const bool disambiguated = (mt.from_file >= 0 && !(mt.piece == PieceType::Pawn && capture)) || mt.from_rank >= 0;
  if (!long_form && disambiguated) {
    // Disambiguation other than the standard's: more than needed, or a rank where the file does.
    // (Without any, a unique fit needs none.)
    std::string given;
    if (mt.from_file >= 0 && !(mt.piece == PieceType::Pawn && capture)) given += kFileChars[mt.from_file];
    if (mt.from_rank >= 0) given += static_cast<char>('1' + mt.from_rank);
    if (given != detail::disambiguation(board, m)) result.leniency |= Leniency::NonstandardDisambiguation;
  }
  return result;
}

}  // namespace

Expected<ParsedMove, MoveError> parse_san(const Board& board, std::string_view text,
                                          const SanReadOptions& options) {
  ParsedMove result;
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  if (text.empty()) return fail(MoveErrorKind::Syntax, "empty move");

  CheckMark mark = CheckMark::None;
  bool double_mark = false;
  bool ep_suffix = false;
  // Most moves end in a rank digit: nothing to strip.
  const char last = text.back();
  const std::string_view core =
      (last >= '1' && last <= '8') ? text : strip_suffixes(text, result, mark, double_mark, ep_suffix);
  if (double_mark) result.leniency |= Leniency::DoubleCheckMark;
  if (ep_suffix) result.leniency |= Leniency::EnPassantSuffix;
  const char first = core.empty() ? '\0' : core.front();
  const bool special = first == '-' || first == 'Z' || first == '0' || first == 'O';

  if (special && (core == "--" || core == "Z0" || core == "0000")) {
    if (!options.allow_null) return fail(MoveErrorKind::Syntax, quoted_escaped(core) + " is a null move, not allowed here");
    if (board.in_check())
      return fail(MoveErrorKind::Illegal, "null move while " + side_name(board.side_to_move()) + " is in check");
    result.move = Move::null();
    result.leniency |= Leniency::NullMove;
    return result;
  }

  // Built in place and returned by the one return below (named return value): copying the
  // result through a temporary cost a store-forwarding stall per move in bulk PGN reading.
  const bool castling = special && (core == "O-O" || core == "O-O-O" || core == "0-0" || core == "0-0-0");
  if (castling && core[0] == '0') result.leniency |= Leniency::ZeroCastling;
  Expected<ParsedMove, MoveError> parsed =
      castling ? parse_castling(board, core, result) : resolve(board, text, core, options, result);
  if (parsed && options.verify_check_marks) {
    const Move m = parsed->move;
    if (board.gives_check(m)) {
      const bool mate = board.is_mate_after(m);
      if (mark == CheckMark::None) parsed->leniency |= Leniency::MissingCheck;
      else if ((mark == CheckMark::Mate) != mate && !(double_mark && mate)) parsed->leniency |= Leniency::WrongCheckKind;
    } else if (mark != CheckMark::None) {
      parsed->leniency |= Leniency::SuperfluousCheck;
    }
  }
  return parsed;
}

Expected<Move, MoveError> parse_uci(const Board& board, std::string_view text, UciCastling castling) {
  const bool shape = (text.size() == 4 || text.size() == 5) && is_file(text[0]) && is_rank(text[1]) &&
                     is_file(text[2]) && is_rank(text[3]) &&
                     (text.size() == 4 || std::string_view("qrbn").find(text[4]) != std::string_view::npos);
  if (!shape)
    return fail(MoveErrorKind::Syntax, quoted_escaped(text) +
                                           " is not a UCI move (from square, to square, and q, r, b or n "
                                           "for a promotion)");
  const Square from = make_square(text[0] - 'a', text[1] - '1');
  const Square to = make_square(text[2] - 'a', text[3] - '1');
  const MoveList legal = board.legal_moves();
  Move plain = Move::none();
  Move castle = Move::none();
  for (Move m : legal) {
    if (m.from() != from) continue;
    if (m.kind() == MoveKind::Castling) {
      // King onto its own rook (Chess960 form) or onto its castling square (standard form).
      if (m.to() == to || board.castling_king_target(m) == to) castle = m;
    } else if (m.to() == to) {
      const bool promo = m.kind() == MoveKind::Promotion;
      if (promo != (text.size() == 5)) continue;
      if (promo && piece_type_letter(m.promotion()) != text[4] - 'a' + 'A') continue;
      plain = m;
    }
  }
  if (!castle.is_none() && (plain.is_none() || castle.to() == to || castling == UciCastling::Standard))
    return castle;
  if (!plain.is_none()) return plain;
  std::vector<std::string> candidates;
  for (Move m : legal)
    if (m.from() == from) candidates.push_back(to_uci(m, castling));
  std::string msg = quoted_escaped(text) + " is not a legal move here";
  const Piece p = board.piece_on(from);
  if (p == Piece::None) msg += ": " + square_name(from) + " is empty";
  else if (color_of(p) != board.side_to_move()) msg += ": it is " + side_name(board.side_to_move()) + "'s move";
  else if (type_of(p) == PieceType::Pawn && relative_rank(color_of(p), to) == 7 && text.size() == 4)
    msg += ": a promotion needs its piece (q, r, b or n)";
  if (!candidates.empty()) {
    msg += " (legal moves from " + square_name(from) + ":";
    for (const auto& c : candidates) msg += " " + c;
    msg += ")";
  }
  return fail(MoveErrorKind::Illegal, msg, candidates);
}

}  // namespace epdd::core
