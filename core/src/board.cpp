#include "core/board.hpp"

#include <algorithm>
#include <cassert>

#include "core/attacks.hpp"
#include "zobrist_tables.hpp"

namespace epdd::core {

namespace {

using detail::kPolyglotRandom;

// Polyglot numbers pieces black pawn 0, white pawn 1, black knight 2, ..., white king 11; this
// table holds each piece's 64 keys at the piece's own index, so make_move looks up directly.
struct PieceKeys {
  std::uint64_t keys[16][64] = {};
  PieceKeys() {
    for (Color c : {Color::White, Color::Black})
      for (int pt = 0; pt < 6; ++pt) {
        const Piece p = make_piece(c, static_cast<PieceType>(pt));
        const int kind = 2 * pt + (c == Color::White ? 1 : 0);
        for (int s = 0; s < 64; ++s) keys[index(p)][s] = kPolyglotRandom[64 * kind + s];
      }
  }
};
const PieceKeys kPieceKeys;

std::uint64_t piece_key(Piece p, Square s) { return kPieceKeys.keys[index(p)][index(s)]; }

std::uint64_t castle_key(int bit) {
  return kPolyglotRandom[detail::kPolyglotCastleOffset + bit];
}
const std::uint64_t kTurnKey = kPolyglotRandom[detail::kPolyglotTurnOffset];

constexpr int castle_bit(Color c, CastlingSide side) { return index(c) * 2 + static_cast<int>(side); }

Square castle_king_to(Color c, CastlingSide side) {
  return make_square(side == CastlingSide::King ? 6 : 2, c == Color::White ? 0 : 7);
}
Square castle_rook_to(Color c, CastlingSide side) {
  return make_square(side == CastlingSide::King ? 5 : 3, c == Color::White ? 0 : 7);
}

const char* color_name(Color c) { return c == Color::White ? "White" : "Black"; }

std::string describe_setup_piece(Piece p) {
  static const char* const kNames[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
  return std::string(color_of(p) == Color::White ? "white " : "black ") + kNames[index(type_of(p))];
}

}  // namespace

const char* to_string(GameStatus s) {
  switch (s) {
    case GameStatus::Ongoing: return "ongoing";
    case GameStatus::Checkmate: return "checkmate";
    case GameStatus::Stalemate: return "stalemate";
    case GameStatus::InsufficientMaterial: return "insufficient material";
    case GameStatus::FiftyMoveClaimable: return "fifty-move rule (claimable)";
    case GameStatus::ThreefoldClaimable: return "threefold repetition (claimable)";
    case GameStatus::SeventyFiveMoves: return "seventy-five-move rule";
    case GameStatus::FivefoldRepetition: return "fivefold repetition";
  }
  return "?";
}

Board::Board() {
  Setup s;
  const PieceType back[8] = {PieceType::Rook, PieceType::Knight, PieceType::Bishop,
                             PieceType::Queen, PieceType::King, PieceType::Bishop,
                             PieceType::Knight, PieceType::Rook};
  for (int f = 0; f < 8; ++f) {
    s.squares[index(make_square(f, 0))] = make_piece(Color::White, back[f]);
    s.squares[index(make_square(f, 1))] = Piece::WhitePawn;
    s.squares[index(make_square(f, 6))] = Piece::BlackPawn;
    s.squares[index(make_square(f, 7))] = make_piece(Color::Black, back[f]);
  }
  s.castling_rook(Color::White, CastlingSide::King) = Square::H1;
  s.castling_rook(Color::White, CastlingSide::Queen) = Square::A1;
  s.castling_rook(Color::Black, CastlingSide::King) = Square::H8;
  s.castling_rook(Color::Black, CastlingSide::Queen) = Square::A8;
  *this = from_setup(s);
}

namespace {

SetupError fail(SetupProblem p, std::string msg) { return SetupError{p, std::move(msg)}; }

Square find_king(const Setup& s, Color c) {
  for (int i = 0; i < 64; ++i)
    if (s.squares[i] == make_piece(c, PieceType::King)) return square_at(i);
  return Square::None;
}

}  // namespace

SetupError Board::validate(const Setup& s) {
  SetupError e = validate_pieces(s);
  if (e.problem != SetupProblem::None) return e;
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) {
      e = validate_castling_right(s, c, side);
      if (e.problem != SetupProblem::None) return e;
    }
  return validate_ep_square(s);
}

SetupError Board::validate_pieces(const Setup& s) {
  std::array<std::array<int, 6>, 2> count{};
  std::array<Square, 2> king{Square::None, Square::None};
  for (int i = 0; i < 64; ++i) {
    const Piece p = s.squares[i];
    if (p == Piece::None) continue;
    if (type_of(p) == PieceType::Pawn && (rank_of(square_at(i)) == 0 || rank_of(square_at(i)) == 7))
      return fail(SetupProblem::PawnOnBackRank,
                  describe_setup_piece(p) + " on " + square_name(square_at(i)) +
                      " (pawns cannot stand on the first or eighth rank)");
    ++count[index(color_of(p))][index(type_of(p))];
    if (type_of(p) == PieceType::King) king[index(color_of(p))] = square_at(i);
  }
  for (Color c : {Color::White, Color::Black}) {
    const auto& n = count[index(c)];
    if (n[index(PieceType::King)] != 1)
      return fail(SetupProblem::KingCount, std::string(color_name(c)) + " has " +
                                               std::to_string(n[index(PieceType::King)]) +
                                               " kings (exactly one is needed)");
    int total = 0;
    for (int v : n) total += v;
    if (total > 16)
      return fail(SetupProblem::TooManyPieces,
                  std::string(color_name(c)) + " has " + std::to_string(total) + " pieces (at most 16)");
    const int pawns = n[index(PieceType::Pawn)];
    if (pawns > 8)
      return fail(SetupProblem::TooManyPieces,
                  std::string(color_name(c)) + " has " + std::to_string(pawns) + " pawns (at most 8)");
    const int promoted = std::max(0, n[index(PieceType::Queen)] - 1) +
                         std::max(0, n[index(PieceType::Rook)] - 2) +
                         std::max(0, n[index(PieceType::Bishop)] - 2) +
                         std::max(0, n[index(PieceType::Knight)] - 2);
    if (promoted > 8 - pawns)
      return fail(SetupProblem::TooManyPieces,
                  std::string(color_name(c)) + " has " + std::to_string(promoted) +
                      " promoted pieces but only " + std::to_string(8 - pawns) +
                      " pawns could have promoted");
  }

  Board b{EmptyTag{}};  // only the pieces, enough for attack queries
  for (int i = 0; i < 64; ++i)
    if (s.squares[i] != Piece::None) b.put_piece(s.squares[i], square_at(i));
  const Color us = s.side_to_move;
  const Color them = ~us;
  if (b.attackers_to(king[index(them)], b.occupied()) & b.pieces(us))
    return fail(SetupProblem::OppositeKingInCheck,
                std::string(color_name(them)) + " is not to move but its king on " +
                    square_name(king[index(them)]) + " is in check");
  const Bitboard checkers = b.attackers_to(king[index(us)], b.occupied()) & b.pieces(them);
  if (popcount(checkers) > 2)
    return fail(SetupProblem::TooManyCheckers, std::to_string(popcount(checkers)) +
                                                   " pieces give check (no move gives more than two)");
  if (popcount(checkers) == 2) {
    const PieceType a = type_of(b.piece_on(lsb(checkers)));
    const PieceType c = type_of(b.piece_on(msb(checkers)));
    if (a == c && (a == PieceType::Pawn || a == PieceType::Knight))
      return fail(SetupProblem::TooManyCheckers,
                  "two checks by the same kind of leaper cannot arise from one move");
  }
  return {};
}

SetupError Board::validate_castling_right(const Setup& s, Color c, CastlingSide side) {
  const Square r = s.castling_rook(c, side);
  if (r == Square::None) return {};
  const int back = c == Color::White ? 0 : 7;
  const char* side_name = side == CastlingSide::King ? "king-side" : "queen-side";
  const std::string what = std::string(color_name(c)) + " " + side_name + " castling right";
  const Square k = find_king(s, c);
  if (rank_of(k) != back)
    return fail(SetupProblem::CastlingRight,
                what + " but the king is on " + square_name(k) + ", not on its first rank");
  // Outside Chess960 the squares are fixed; saying so first explains a Chess960 position read
  // as standard chess better than "no rook on h1" would.
  if (!s.chess960 && (file_of(k) != 4 || file_of(r) != (side == CastlingSide::King ? 7 : 0)))
    return fail(SetupProblem::CastlingRight,
                what + " needs the king on e" + std::to_string(back + 1) + " and the rook on " +
                    (side == CastlingSide::King ? "h" : "a") + std::to_string(back + 1) +
                    " (outside Chess960)");
  if (rank_of(r) != back || s.squares[index(r)] != make_piece(c, PieceType::Rook))
    return fail(SetupProblem::CastlingRight, what + " but there is no " +
                                                 (c == Color::White ? "white" : "black") +
                                                 " rook on " + square_name(r));
  if ((side == CastlingSide::King) != (file_of(r) > file_of(k)))
    return fail(SetupProblem::CastlingRight,
                what + " but the rook on " + square_name(r) + " is on the wrong side of the king");
  return {};
}

SetupError Board::validate_ep_square(const Setup& s) {
  if (s.ep_square == Square::None) return {};
  const Color us = s.side_to_move;
  const Color them = ~us;
  const Square ep = s.ep_square;
  const int ep_rank = us == Color::White ? 5 : 2;
  const std::string what = "en passant square " + square_name(ep);
  if (rank_of(ep) != ep_rank)
    return fail(SetupProblem::EnPassantSquare, what + " must be on rank " +
                                                   std::to_string(ep_rank + 1) + " when " +
                                                   color_name(us) + " is to move");
  const int forward = us == Color::White ? -8 : 8;  // from ep towards the pawn that advanced
  const Square pawn_sq = square_at(index(ep) + forward);
  const Square origin = square_at(index(ep) - forward);
  if (s.squares[index(pawn_sq)] != make_piece(them, PieceType::Pawn))
    return fail(SetupProblem::EnPassantSquare,
                what + " but no " + (them == Color::White ? "white" : "black") + " pawn on " +
                    square_name(pawn_sq) + " that just advanced two squares");
  if (s.squares[index(ep)] != Piece::None || s.squares[index(origin)] != Piece::None)
    return fail(SetupProblem::EnPassantSquare,
                what + " but " + square_name(ep) + " or " + square_name(origin) +
                    " is occupied, so no pawn can just have passed");
  return {};
}

Board Board::from_setup(const Setup& s) {
  assert(validate(s).problem == SetupProblem::None);
  Board b{EmptyTag{}};
  // The pieces by piece, without a branch a square (None, 15, fills a slot nobody reads): a
  // book's outputs make a board from every position's key, millions of them.
  std::array<Bitboard, 16> by_piece{};
  for (int i = 0; i < 64; ++i) {
    b.squares_[static_cast<std::size_t>(i)] = s.squares[static_cast<std::size_t>(i)];
    by_piece[static_cast<std::uint8_t>(s.squares[static_cast<std::size_t>(i)])] |= Bitboard{1} << i;
  }
  for (int t = 0; t < 6; ++t) {
    b.by_type_[static_cast<std::size_t>(t)] = by_piece[static_cast<std::size_t>(t)] | by_piece[static_cast<std::size_t>(t + 8)];
    b.by_color_[0] |= by_piece[static_cast<std::size_t>(t)];
    b.by_color_[1] |= by_piece[static_cast<std::size_t>(t + 8)];
  }
  b.side_ = s.side_to_move;
  b.fullmove_ = s.fullmove_number;
  b.chess960_ = s.chess960;
  b.castling_rooks_ = s.castling_rooks;
  b.init_castling_masks();

  State st{};
  st.move = Move::none();
  st.captured = Piece::None;
  st.castling = 0;
  for (int bit = 0; bit < 4; ++bit)
    if (s.castling_rooks[bit] != Square::None) st.castling |= static_cast<std::uint8_t>(1 << bit);
  st.ep = s.ep_square;
  st.halfmove = static_cast<std::uint16_t>(std::clamp(s.halfmove_clock, 0, 0xFFFF));
  st.plies_from_null = 0;
  // No reserve: a board read from an EPD line never moves, and games grow the history as
  // they go (a reserve of 64 made every checked EPD record cost 2.5 KB).
  b.states_.push_back(st);
  State& top = b.states_.back();
  top.key = b.compute_key();
  top.checkers = b.attackers_to(b.king_square(b.side_), b.occupied()) & b.pieces(~b.side_);
  top.rep_key = top.key ^ b.ep_component(true);
  return b;
}

Setup Board::to_setup() const {
  Setup s;
  s.squares = squares_;
  s.side_to_move = side_;
  for (int bit = 0; bit < 4; ++bit)
    s.castling_rooks[bit] = (st().castling >> bit) & 1 ? castling_rooks_[bit] : Square::None;
  s.ep_square = st().ep;
  s.halfmove_clock = st().halfmove;
  s.fullmove_number = fullmove_;
  s.chess960 = chess960_;
  return s;
}

Square Board::castling_rook(Color c, CastlingSide side) const {
  const int bit = castle_bit(c, side);
  return (st().castling >> bit) & 1 ? castling_rooks_[bit] : Square::None;
}

void Board::init_castling_masks() {
  castle_mask_.fill(0);
  castle_empty_.fill(0);
  castle_king_path_.fill(0);
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) {
      const int bit = castle_bit(c, side);
      const Square rook = castling_rooks_[bit];
      if (rook == Square::None) continue;
      const Square king = king_square(c);
      const Square king_to = castle_king_to(c, side);
      const Square rook_to = castle_rook_to(c, side);
      castle_mask_[index(king)] |= static_cast<std::uint8_t>(1 << bit);
      castle_mask_[index(rook)] |= static_cast<std::uint8_t>(1 << bit);
      // between(a, b) holds the squares strictly between plus b itself.
      castle_empty_[bit] =
          (attacks::between(king, king_to) | attacks::between(rook, rook_to)) & ~bb(king) & ~bb(rook);
      castle_king_path_[bit] = attacks::between(king, king_to) | bb(king);
    }
}

std::uint64_t Board::compute_key() const {
  std::uint64_t key = 0;
  for (Bitboard b = occupied(); b;) {
    const Square s = pop_lsb(b);
    key ^= piece_key(squares_[index(s)], s);
  }
  for (int bit = 0; bit < 4; ++bit)
    if ((st().castling >> bit) & 1) key ^= castle_key(bit);
  if (side_ == Color::White) key ^= kTurnKey;
  return key;
}

std::uint64_t Board::ep_component(bool require_legal) const {
  const Square ep = st().ep;
  if (ep == Square::None) return 0;
  // Our pawns that could take on ep are the squares a pawn of theirs on ep would attack.
  Bitboard takers = attacks::pawn_attacks(~side_, ep) & pieces(side_, PieceType::Pawn);
  if (require_legal) {
    Bitboard legal = 0;
    for (Bitboard t = takers; t;) {
      const Square from = pop_lsb(t);
      if (ep_capture_legal(from)) legal |= bb(from);
    }
    takers = legal;
  }
  return takers ? kPolyglotRandom[detail::kPolyglotEnPassantOffset + file_of(ep)] : 0;
}

bool Board::ep_capture_legal(Square from) const {
  const Color us = side_;
  const Color them = ~us;
  const Square ep = st().ep;
  const Square captured = square_at(index(ep) + (us == Color::White ? -8 : 8));
  const Bitboard occ = (occupied() ^ bb(from) ^ bb(captured)) | bb(ep);
  const Square ksq = king_square(us);
  const Bitboard rq = pieces(them, PieceType::Rook) | pieces(them, PieceType::Queen);
  const Bitboard bq = pieces(them, PieceType::Bishop) | pieces(them, PieceType::Queen);
  return !(attacks::rook_attacks(ksq, occ) & rq) && !(attacks::bishop_attacks(ksq, occ) & bq) &&
         !(attacks::knight_attacks(ksq) & pieces(them, PieceType::Knight)) &&
         !(attacks::pawn_attacks(us, ksq) & pieces(them, PieceType::Pawn) & ~bb(captured));
}

std::uint64_t Board::polyglot_key() const { return st().key ^ ep_component(false); }

Bitboard Board::attackers_to(Square s, Bitboard occ) const {
  return (attacks::pawn_attacks(Color::Black, s) & pieces(Color::White, PieceType::Pawn)) |
         (attacks::pawn_attacks(Color::White, s) & pieces(Color::Black, PieceType::Pawn)) |
         (attacks::knight_attacks(s) & pieces(PieceType::Knight)) |
         (attacks::rook_attacks(s, occ) & (pieces(PieceType::Rook) | pieces(PieceType::Queen))) |
         (attacks::bishop_attacks(s, occ) & (pieces(PieceType::Bishop) | pieces(PieceType::Queen))) |
         (attacks::king_attacks(s) & pieces(PieceType::King));
}

void Board::put_piece(Piece p, Square s) {
  squares_[index(s)] = p;
  by_color_[index(color_of(p))] |= bb(s);
  by_type_[index(type_of(p))] |= bb(s);
}

void Board::remove_piece(Square s) {
  const Piece p = squares_[index(s)];
  by_color_[index(color_of(p))] ^= bb(s);
  by_type_[index(type_of(p))] ^= bb(s);
  squares_[index(s)] = Piece::None;
}

void Board::move_piece(Square from, Square to) {
  const Piece p = squares_[index(from)];
  const Bitboard both = bb(from) | bb(to);
  by_color_[index(color_of(p))] ^= both;
  by_type_[index(type_of(p))] ^= both;
  squares_[index(from)] = Piece::None;
  squares_[index(to)] = p;
}

Square Board::castling_king_target(Move m) const {
  const CastlingSide side = file_of(m.to()) > file_of(m.from()) ? CastlingSide::King : CastlingSide::Queen;
  return castle_king_to(side_, side);
}

void Board::make_move(Move m) {
  const State& prev = st();
  State next = prev;
  next.move = m;
  next.captured = Piece::None;
  next.ep = Square::None;
  next.halfmove = static_cast<std::uint16_t>(prev.halfmove + 1);
  next.plies_from_null = static_cast<std::uint16_t>(prev.plies_from_null + 1);
  std::uint64_t key = prev.key ^ kTurnKey;

  const Color us = side_;
  const Square from = m.from();
  const Square to = m.to();
  const Piece piece = squares_[index(from)];

  if (m.kind() == MoveKind::Castling) {
    const CastlingSide side = file_of(to) > file_of(from) ? CastlingSide::King : CastlingSide::Queen;
    const Piece rook = squares_[index(to)];
    const Square king_to = castle_king_to(us, side);
    const Square rook_to = castle_rook_to(us, side);
    remove_piece(from);
    remove_piece(to);
    put_piece(piece, king_to);
    put_piece(rook, rook_to);
    key ^= piece_key(piece, from) ^ piece_key(piece, king_to) ^ piece_key(rook, to) ^
           piece_key(rook, rook_to);
  } else {
    Square capture_sq = to;
    if (m.kind() == MoveKind::EnPassant) capture_sq = square_at(index(to) + (us == Color::White ? -8 : 8));
    const Piece captured = squares_[index(capture_sq)];
    if (captured != Piece::None) {
      remove_piece(capture_sq);
      key ^= piece_key(captured, capture_sq);
      next.captured = captured;
      next.halfmove = 0;
    }
    move_piece(from, to);
    key ^= piece_key(piece, from) ^ piece_key(piece, to);
    if (type_of(piece) == PieceType::Pawn) {
      next.halfmove = 0;
      if ((index(to) ^ index(from)) == 16) next.ep = square_at((index(from) + index(to)) / 2);
      if (m.kind() == MoveKind::Promotion) {
        const Piece promoted = make_piece(us, m.promotion());
        remove_piece(to);
        put_piece(promoted, to);
        key ^= piece_key(piece, to) ^ piece_key(promoted, to);
      }
    }
  }

  const std::uint8_t lost = prev.castling & (castle_mask_[index(from)] | castle_mask_[index(to)]);
  if (lost) {
    next.castling = static_cast<std::uint8_t>(prev.castling & ~lost);
    for (int bit = 0; bit < 4; ++bit)
      if ((lost >> bit) & 1) key ^= castle_key(bit);
  }

  if (us == Color::Black) ++fullmove_;
  side_ = ~us;
  next.key = key;
  next.checkers = checkers_after(m);
  states_.push_back(next);
  State& top = states_.back();
  top.rep_key = key;
  // Only after a double push can en passant matter, and only with a pawn beside it.
  if (top.ep != Square::None) top.rep_key ^= ep_component(true);
}

Bitboard Board::checkers_after(Move m) const {
  // Called with the move made and side_ already the opponent. Only the piece that moved (the
  // rook too, when castling) can check directly; a slider can only be uncovered behind a square
  // that was left, and only if that square lies on a line through the king. Most moves leave
  // no such square, and then no slider attack needs computing.
  const Color us = ~side_;
  const Square king = king_square(side_);
  const Bitboard occ = occupied();
  const Square from = m.from();
  Bitboard checkers = 0;
  Bitboard left = bb(from);
  if (m.kind() == MoveKind::Castling) {
    const Square rook_to = make_square(file_of(m.to()) > file_of(from) ? 5 : 3, rank_of(from));
    left |= bb(m.to());
    if (attacks::rook_attacks(rook_to, occ) & bb(king)) checkers |= bb(rook_to);
  } else {
    const Square to = m.to();
    switch (type_of(piece_on(to))) {
      case PieceType::Pawn: checkers |= attacks::pawn_attacks(us, to) & bb(king) ? bb(to) : 0; break;
      case PieceType::Knight: checkers |= attacks::knight_attacks(to) & bb(king) ? bb(to) : 0; break;
      case PieceType::King:
      case PieceType::None: break;
      case PieceType::Bishop: checkers |= attacks::bishop_attacks(to, occ) & bb(king) ? bb(to) : 0; break;
      case PieceType::Rook: checkers |= attacks::rook_attacks(to, occ) & bb(king) ? bb(to) : 0; break;
      case PieceType::Queen: checkers |= attacks::queen_attacks(to, occ) & bb(king) ? bb(to) : 0; break;
    }
    if (m.kind() == MoveKind::EnPassant) left |= bb(square_at(index(to) + (us == Color::White ? -8 : 8)));
  }
  bool uncovered = false;
  for (Bitboard b = left; b;) uncovered |= attacks::line(king, pop_lsb(b)) != 0;
  if (uncovered)
    checkers |= ((attacks::rook_attacks(king, occ) & (pieces(us, PieceType::Rook) | pieces(us, PieceType::Queen))) |
                 (attacks::bishop_attacks(king, occ) & (pieces(us, PieceType::Bishop) | pieces(us, PieceType::Queen))));
  return checkers;
}

void Board::unmake_move() {
  assert(states_.size() > 1);
  const State& cur = st();
  const Move m = cur.move;
  side_ = ~side_;
  const Color us = side_;
  if (us == Color::Black) --fullmove_;
  if (!m.is_null()) {
    const Square from = m.from();
    const Square to = m.to();
    if (m.kind() == MoveKind::Castling) {
      const CastlingSide side = file_of(to) > file_of(from) ? CastlingSide::King : CastlingSide::Queen;
      const Square king_to = castle_king_to(us, side);
      const Square rook_to = castle_rook_to(us, side);
      const Piece king = squares_[index(king_to)];
      const Piece rook = squares_[index(rook_to)];
      remove_piece(king_to);
      remove_piece(rook_to);
      put_piece(king, from);
      put_piece(rook, to);
    } else {
      if (m.kind() == MoveKind::Promotion) {
        remove_piece(to);
        put_piece(make_piece(us, PieceType::Pawn), to);
      }
      move_piece(to, from);
      if (cur.captured != Piece::None) {
        const Square capture_sq = m.kind() == MoveKind::EnPassant
                                      ? square_at(index(to) + (us == Color::White ? -8 : 8))
                                      : to;
        put_piece(cur.captured, capture_sq);
      }
    }
  }
  states_.pop_back();
}

void Board::make_null_move() {
  assert(!in_check());
  State next = st();
  next.move = Move::null();
  next.captured = Piece::None;
  next.ep = Square::None;
  next.halfmove = static_cast<std::uint16_t>(next.halfmove + 1);
  next.plies_from_null = 0;
  next.key ^= kTurnKey;
  next.rep_key = next.key;
  next.checkers = 0;  // the side that passes was not in check, so it gives no check either
  if (side_ == Color::Black) ++fullmove_;
  side_ = ~side_;
  states_.push_back(next);
}

std::vector<Move> Board::move_history() const {
  std::vector<Move> moves;
  moves.reserve(states_.size() - 1);
  for (std::size_t i = 1; i < states_.size(); ++i) moves.push_back(states_[i].move);
  return moves;
}

bool Board::has_insufficient_material(Color c) const {
  const Bitboard mine = pieces(c);
  const Bitboard theirs = pieces(~c);
  if (mine & (pieces(PieceType::Pawn) | pieces(PieceType::Rook) | pieces(PieceType::Queen)))
    return false;
  if (mine & pieces(PieceType::Knight))
    return popcount(mine) <= 2 &&
           !(theirs & ~pieces(PieceType::King) & ~pieces(PieceType::Queen));
  if (mine & pieces(PieceType::Bishop)) {
    const Bitboard bishops = pieces(PieceType::Bishop);
    const bool one_colour = !(bishops & kDarkSquares) || !(bishops & kLightSquares);
    return one_colour && !pieces(PieceType::Pawn) && !pieces(PieceType::Knight);
  }
  return true;
}

bool Board::is_insufficient_material() const {
  return has_insufficient_material(Color::White) && has_insufficient_material(Color::Black);
}

int Board::repetition_count() const {
  const State& cur = st();
  const std::size_t window = std::min<std::size_t>({cur.halfmove, cur.plies_from_null, states_.size() - 1});
  int count = 1;
  for (std::size_t back = 2; back <= window; back += 2)
    if (states_[states_.size() - 1 - back].rep_key == cur.rep_key) ++count;
  return count;
}

GameStatus Board::status() const {
  if (count_legal() == 0) return in_check() ? GameStatus::Checkmate : GameStatus::Stalemate;
  if (is_insufficient_material()) return GameStatus::InsufficientMaterial;
  const int repetitions = repetition_count();
  if (repetitions >= 5) return GameStatus::FivefoldRepetition;
  if (halfmove_clock() >= 150) return GameStatus::SeventyFiveMoves;
  if (repetitions >= 3) return GameStatus::ThreefoldClaimable;
  if (halfmove_clock() >= 100) return GameStatus::FiftyMoveClaimable;
  return GameStatus::Ongoing;
}

bool operator==(const Board& a, const Board& b) {
  return a.squares_ == b.squares_ && a.side_ == b.side_ && a.fullmove_ == b.fullmove_ &&
         a.to_setup().castling_rooks == b.to_setup().castling_rooks && a.st().ep == b.st().ep &&
         a.st().halfmove == b.st().halfmove;
}

}  // namespace epdd::core
