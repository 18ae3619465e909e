// Legal move generation. Moves are generated legal, not filtered: a check mask limits
// non-king moves to blocking or capturing a single checker, pinned pieces move only along their
// pin line, king moves are tested against attacks with the king lifted off the board, and en
// passant is tested by playing it on a scratch occupancy (it can uncover a rank attack).
#include <algorithm>
#include <array>

#include "core/attacks.hpp"
#include "core/board.hpp"

namespace epdd::core {

namespace {

using namespace attacks;

template <Color Us>
constexpr int kUp = Us == Color::White ? 8 : -8;
template <Color Us>
constexpr int kUpLeft = Us == Color::White ? 7 : -9;  // towards the a-file
template <Color Us>
constexpr int kUpRight = Us == Color::White ? 9 : -7;  // towards the h-file
template <Color Us>
constexpr Bitboard kRelRank3 = Us == Color::White ? rank_bb(2) : rank_bb(5);
template <Color Us>
constexpr Bitboard kRelRank8 = Us == Color::White ? rank_bb(7) : rank_bb(0);

// The rank and file through s, and its two diagonals (s itself included): where a slider must
// stand to attack s on an empty board.
constexpr Bitboard rook_lines(Square s) { return rank_bb(rank_of(s)) | file_bb(file_of(s)); }
constexpr std::array<Bitboard, 15> kDiagonals = [] {  // by rank - file + 7
  std::array<Bitboard, 15> d{};
  for (int sq = 0; sq < 64; ++sq) d[static_cast<std::size_t>((sq >> 3) - (sq & 7) + 7)] |= Bitboard{1} << sq;
  return d;
}();
constexpr std::array<Bitboard, 15> kAntiDiagonals = [] {  // by rank + file
  std::array<Bitboard, 15> d{};
  for (int sq = 0; sq < 64; ++sq) d[static_cast<std::size_t>((sq >> 3) + (sq & 7))] |= Bitboard{1} << sq;
  return d;
}();
constexpr Bitboard bishop_lines(Square s) {
  return kDiagonals[static_cast<std::size_t>(rank_of(s) - file_of(s) + 7)] |
         kAntiDiagonals[static_cast<std::size_t>(rank_of(s) + file_of(s))];
}

void add_promotions(MoveList& list, Square from, Square to) {
  list.push_back(Move(from, to, MoveKind::Promotion, PieceType::Queen));
  list.push_back(Move(from, to, MoveKind::Promotion, PieceType::Rook));
  list.push_back(Move(from, to, MoveKind::Promotion, PieceType::Bishop));
  list.push_back(Move(from, to, MoveKind::Promotion, PieceType::Knight));
}

// Adds pawn moves ending in `targets`, each coming from `to - delta`.
template <int Delta>
void add_pawn_moves(MoveList& list, Bitboard targets, Bitboard promotion_rank) {
  for (Bitboard b = targets & ~promotion_rank; b;) {
    const Square to = pop_lsb(b);
    list.push_back(Move(square_at(index(to) - Delta), to));
  }
  for (Bitboard b = targets & promotion_rank; b;) {
    const Square to = pop_lsb(b);
    add_promotions(list, square_at(index(to) - Delta), to);
  }
}

void add_moves(MoveList& list, Square from, Bitboard targets) {
  while (targets) list.push_back(Move(from, pop_lsb(targets)));
}

}  // namespace

Bitboard Board::pinned(Color c) const {
  const Square ksq = king_square(c);
  const Bitboard them = pieces(~c);
  Bitboard snipers = (rook_lines(ksq) & them & (pieces(PieceType::Rook) | pieces(PieceType::Queen))) |
                     (bishop_lines(ksq) & them & (pieces(PieceType::Bishop) | pieces(PieceType::Queen)));
  const Bitboard occ = occupied();
  Bitboard result = 0;
  while (snipers) {
    const Square s = pop_lsb(snipers);
    const Bitboard blockers = between(ksq, s) & ~bb(s) & occ;
    if (blockers && !more_than_one(blockers)) result |= blockers & pieces(c);
  }
  return result;
}

// The generator hands the moves to a sink: piece(type, from, targets) for one piece's moves,
// pawns<Delta>(targets, promotion rank) for pawn moves set-wise (each from target - Delta),
// pawn(from, targets, promotion rank) for one pawn's, en_passant(from, ep), castling(king,
// rook). A sink with kSanOrder gets them group by group in SAN's letter order: group(g) before
// each group (false stops the generation) and relist() after it (true: the same group again).
template <Color Us, class Sink>
void Board::generate(Sink& sink) const {
  constexpr Color Them = ~Us;
  const Bitboard us = pieces(Us);
  const Bitboard them = pieces(Them);
  const Bitboard occ = us | them;
  const Square ksq = king_square(Us);
  const Bitboard checkers = st().checkers;
  // In double check only the king moves; otherwise non-king moves must capture or block a
  // single checker.
  const bool double_check = more_than_one(checkers);
  const Bitboard target = double_check ? 0 : checkers ? between(ksq, lsb(checkers)) : ~us;
  const Bitboard pins = double_check ? 0 : pinned(Us);

  // King moves: the king is lifted off the board so that it cannot hide behind itself.
  auto king = [&] {
    const Bitboard occ_without_king = occ ^ bb(ksq);
    Bitboard safe = 0;
    for (Bitboard t = king_attacks(ksq) & ~us; t;) {
      const Square to = pop_lsb(t);
      if (!(attackers_to(to, occ_without_king) & them)) safe |= bb(to);
    }
    sink.piece(PieceType::King, ksq, safe);
  };
  auto knights = [&] {
    for (Bitboard b = double_check ? 0 : pieces(Us, PieceType::Knight) & ~pins; b;) {
      const Square from = pop_lsb(b);
      sink.piece(PieceType::Knight, from, knight_attacks(from) & target);
    }
  };
  // Sliders: a pinned one moves only along its pin line.
  auto sliders = [&](Bitboard of, Bitboard (*slider_attacks)(Square, Bitboard)) {
    for (Bitboard b = double_check ? 0 : of; b;) {
      const Square from = pop_lsb(b);
      Bitboard t = slider_attacks(from, occ) & target;
      if (pins & bb(from)) t &= line(ksq, from);
      sink.piece(type_of(piece_on(from)), from, t);
    }
  };
  // Pawns: set-wise for the free ones, one by one for the few that are pinned.
  auto pawn_moves = [&] {
    const Bitboard pawns = double_check ? 0 : pieces(Us, PieceType::Pawn);
    const Bitboard free_pawns = pawns & ~pins;
    const Bitboard empty = ~occ;
    const Bitboard push1 = shift<kUp<Us>>(free_pawns) & empty;
    const Bitboard push2 = shift<kUp<Us>>(push1 & kRelRank3<Us>) & empty;
    sink.template pawns<kUp<Us>>(push1 & target, kRelRank8<Us>);
    sink.template pawns<2 * kUp<Us>>(push2 & target, 0);
    sink.template pawns<kUpLeft<Us>>(shift<kUpLeft<Us>>(free_pawns) & them & target, kRelRank8<Us>);
    sink.template pawns<kUpRight<Us>>(shift<kUpRight<Us>>(free_pawns) & them & target, kRelRank8<Us>);
    for (Bitboard b = pawns & pins; b;) {
      const Square from = pop_lsb(b);
      const Bitboard pin_line = line(ksq, from);
      const Bitboard one = shift<kUp<Us>>(bb(from)) & empty;
      const Bitboard two = shift<kUp<Us>>(one & kRelRank3<Us>) & empty;
      sink.pawn(from, (one | two | (pawn_attacks(Us, from) & them)) & target & pin_line, kRelRank8<Us>);
    }
    const Square ep = st().ep;
    if (ep != Square::None) {
      for (Bitboard b = pawn_attacks(Them, ep) & pawns; b;) {
        const Square from = pop_lsb(b);
        if (ep_capture_legal(from)) sink.en_passant(from, ep);
      }
    }
  };
  // Castling: never out of check; the path must be empty but for king and rook, and no square
  // the king stands on or crosses may be attacked. The castling rook is lifted too, since in
  // Chess960 it may stand between an attacker and the king's path.
  auto castling = [&] {
    if (checkers) return;
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) {
      const int bit = index(Us) * 2 + static_cast<int>(side);
      if (!((st().castling >> bit) & 1)) continue;
      const Square rook = castling_rooks_[bit];
      if (occ & castle_empty_[bit]) continue;
      const Bitboard lifted = occ ^ bb(ksq) ^ bb(rook);
      bool safe = true;
      // The king's own square too: with the rook lifted it may be exposed along the back rank.
      for (Bitboard path = castle_king_path_[bit]; path && safe;)
        safe = !(attackers_to(pop_lsb(path), lifted) & them);
      if (safe) sink.castling(ksq, rook);
    }
  };

  if constexpr (Sink::kSanOrder) {
    // Group by group in the order of SAN's first characters, while the sink wants more; a
    // group the sink only counted is generated again when it turns out to be the one wanted.
    const auto run = [&](int g, const auto& generate_group) {
      if (!sink.group(g)) return;
      generate_group();
      if (sink.relist()) generate_group();
    };
    run(index(PieceType::Bishop), [&] { sliders(pieces(Us, PieceType::Bishop), bishop_attacks); });
    run(index(PieceType::King), king);
    run(index(PieceType::Knight), knights);
    run(MoveGroups::kCastling, castling);
    run(index(PieceType::Queen), [&] { sliders(pieces(Us, PieceType::Queen), queen_attacks); });
    run(index(PieceType::Rook), [&] { sliders(pieces(Us, PieceType::Rook), rook_attacks); });
    run(index(PieceType::Pawn), pawn_moves);
    sink.group(MoveGroups::kCount);  // the end
  } else {
    // Into a list a queen comes twice, with its diagonal and then its straight moves.
    king();
    knights();
    sliders(pieces(Us, PieceType::Bishop) | pieces(Us, PieceType::Queen), bishop_attacks);
    sliders(pieces(Us, PieceType::Rook) | pieces(Us, PieceType::Queen), rook_attacks);
    pawn_moves();
    castling();
  }
}

namespace {

// Takes the generator's moves into a list.
class ListSink {
 public:
  static constexpr bool kSanOrder = false;  // moves in the generator's fastest order
  explicit ListSink(MoveList& list) : list_(list) {}
  void piece(PieceType, Square from, Bitboard targets) { add_moves(list_, from, targets); }
  template <int Delta>
  void pawns(Bitboard targets, Bitboard promotion_rank) {
    add_pawn_moves<Delta>(list_, targets, promotion_rank);
  }
  void pawn(Square from, Bitboard targets, Bitboard promotion_rank) {
    for (Bitboard x = targets; x;) {
      const Square to = pop_lsb(x);
      if (bb(to) & promotion_rank) add_promotions(list_, from, to);
      else list_.push_back(Move(from, to));
    }
  }
  void en_passant(Square from, Square ep) { list_.push_back(Move(from, ep, MoveKind::EnPassant)); }
  void castling(Square king, Square rook) { list_.push_back(Move(king, rook, MoveKind::Castling)); }

 private:
  MoveList& list_;
};

// The number of squares in a set, inline: std::popcount is a library call unless the build
// targets a CPU with POPCNT, and counting moves calls it once per piece.
constexpr unsigned count_squares(Bitboard b) {
  b -= (b >> 1) & 0x5555555555555555ULL;
  b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<unsigned>((b * 0x0101010101010101ULL) >> 56);
}

// Takes the generator's moves group by group in SAN order (see Board::legal_group_at),
// counting the groups it passes over and listing the one it stops at: the group holding the
// move of a given index (counted first, then generated again to be listed), or a given group.
// The generator stops once that group is complete.
class ScanSink {
 public:
  static constexpr bool kSanOrder = true;
  // Stops at the group holding the move of `index` (wanted_group -1) or at `wanted_group`.
  ScanSink(MoveList& list, std::size_t index, int wanted_group)
      : list_(list), index_(index), wanted_(wanted_group) {}
  // Starts group g (MoveGroups::kCount: the end); false once the wanted group is complete.
  bool group(int g) {
    if (found_ >= 0) return false;
    const std::size_t size = list_.size() + counted_;
    if (current_ >= 0 && (wanted_ < 0 ? before_ + size > index_ : current_ == wanted_)) {
      found_ = current_;
      return false;
    }
    before_ += size;
    list_.clear();
    counted_ = 0;
    current_ = g;
    listing_ = g == wanted_;
    return true;
  }
  // After a group was generated: true when it was only counted but holds the wanted index,
  // and so must be generated again to be listed.
  bool relist() {
    if (listing_ || wanted_ >= 0 || before_ + counted_ <= index_) return false;
    counted_ = 0;
    listing_ = true;
    return true;
  }
  int found() const { return found_; }
  std::size_t before() const { return before_; }

  void piece(PieceType, Square from, Bitboard targets) {
    if (listing_) add_moves(list_, from, targets);
    else counted_ += count_squares(targets);
  }
  template <int Delta>
  void pawns(Bitboard targets, Bitboard promotion_rank) {
    if (listing_) add_pawn_moves<Delta>(list_, targets, promotion_rank);
    else counted_ += count_squares(targets & ~promotion_rank) + 4 * count_squares(targets & promotion_rank);
  }
  void pawn(Square from, Bitboard targets, Bitboard promotion_rank) {
    if (listing_) ListSink(list_).pawn(from, targets, promotion_rank);
    else counted_ += count_squares(targets & ~promotion_rank) + 4 * count_squares(targets & promotion_rank);
  }
  void en_passant(Square from, Square ep) { add_one(Move(from, ep, MoveKind::EnPassant)); }
  void castling(Square king, Square rook) { add_one(Move(king, rook, MoveKind::Castling)); }

 private:
  void add_one(Move m) {
    if (listing_) list_.push_back(m);
    else ++counted_;
  }
  MoveList& list_;
  std::size_t index_;
  int wanted_;
  int current_ = -1, found_ = -1;
  bool listing_ = false;
  std::size_t before_ = 0, counted_ = 0;
};

}  // namespace

void Board::generate_legal(MoveList& list) const {
  ListSink sink(list);
  if (side_ == Color::White) generate<Color::White>(sink);
  else generate<Color::Black>(sink);
}

int Board::legal_group_at(std::size_t index, MoveList& list, std::size_t& before) const {
  ScanSink sink(list, index, -1);
  if (side_ == Color::White) generate<Color::White>(sink);
  else generate<Color::Black>(sink);
  before = sink.before();
  return sink.found();
}

std::size_t Board::legal_group_in_san_order(int group, MoveList& list) const {
  ScanSink sink(list, 0, group);
  if (side_ == Color::White) generate<Color::White>(sink);
  else generate<Color::Black>(sink);
  return sink.before();
}

MoveList Board::legal_moves() const {
  MoveList list;
  generate_legal(list);
  return list;
}

std::size_t Board::count_legal() const { return legal_moves().size(); }

bool Board::is_legal(Move m) const {
  if (!m.is_real()) return false;
  const Piece p = piece_on(m.from());
  if (p == Piece::None || color_of(p) != side_) return false;
  return legal_moves().contains(m);
}

bool Board::keeps_king_safe(Move m) const {
  const Color us = side_;
  const Bitboard them = pieces(~us);
  const Square from = m.from();
  const Square to = m.to();
  if (m.kind() == MoveKind::EnPassant) return ep_capture_legal(from);
  const Bitboard occ = (occupied() ^ bb(from)) | bb(to);
  if (type_of(piece_on(from)) == PieceType::King) return !(attackers_to(to, occ) & them);
  const Square king = king_square(us);
  // Out of check, only leaving a square on a line through the king can expose it.
  if (!in_check() && !line(king, from)) return true;
  // A piece captured on `to` no longer attacks.
  return !(attackers_to(king, occ) & them & ~bb(to));
}

bool Board::is_capture(Move m) const {
  if (m.kind() == MoveKind::EnPassant) return true;
  if (m.kind() == MoveKind::Castling) return false;
  return piece_on(m.to()) != Piece::None;
}

bool Board::gives_check(Move m) const {
  // Before the move no piece of ours attacks their king (the position is legal), so only the
  // moved piece itself or a slider it uncovers can give check.
  const Color us = side_;
  const Square their_king = king_square(~us);
  const Square from = m.from();
  Square to = m.to();
  Bitboard occ = occupied() ^ bb(from);
  Bitboard rq = (pieces(us, PieceType::Rook) | pieces(us, PieceType::Queen)) & ~bb(from);
  Bitboard bq = (pieces(us, PieceType::Bishop) | pieces(us, PieceType::Queen)) & ~bb(from);
  PieceType moved = type_of(piece_on(from));
  if (m.kind() == MoveKind::Castling) {
    const CastlingSide side = file_of(to) > file_of(from) ? CastlingSide::King : CastlingSide::Queen;
    const Square rook_to = make_square(side == CastlingSide::King ? 5 : 3, rank_of(from));
    occ = (occ ^ bb(to)) | bb(rook_to) | bb(castling_king_target(m));
    rq = (rq & ~bb(to)) | bb(rook_to);
    moved = PieceType::King;
    to = castling_king_target(m);
  } else {
    if (m.kind() == MoveKind::EnPassant)
      occ ^= bb(square_at(index(to) + (us == Color::White ? -8 : 8)));
    if (m.kind() == MoveKind::Promotion) moved = m.promotion();
    occ |= bb(to);
    if (moved == PieceType::Rook || moved == PieceType::Queen) rq |= bb(to);
    if (moved == PieceType::Bishop || moved == PieceType::Queen) bq |= bb(to);
  }
  if ((rook_attacks(their_king, occ) & rq) || (bishop_attacks(their_king, occ) & bq)) return true;
  if (moved == PieceType::Knight) return (knight_attacks(to) & bb(their_king)) != 0;
  if (moved == PieceType::Pawn) return (pawn_attacks(us, to) & bb(their_king)) != 0;
  return false;
}

bool Board::is_mate_after(Move m) const {
  if (!gives_check(m)) return false;
  Board scratch = detached();
  scratch.make_move(m);
  return scratch.count_legal() == 0;
}

Board Board::detached() const {
  Board copy{EmptyTag{}};
  copy.squares_ = squares_;
  copy.by_color_ = by_color_;
  copy.by_type_ = by_type_;
  copy.side_ = side_;
  copy.fullmove_ = fullmove_;
  copy.chess960_ = chess960_;
  copy.castling_rooks_ = castling_rooks_;
  copy.castle_mask_ = castle_mask_;
  copy.castle_empty_ = castle_empty_;
  copy.castle_king_path_ = castle_king_path_;
  copy.states_.reserve(4);
  copy.states_.push_back(st());
  return copy;
}

std::uint64_t Board::perft(int depth) {
  if (depth <= 0) return 1;
  const MoveList moves = legal_moves();
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (Move m : moves) {
    make_move(m);
    nodes += perft(depth - 1);
    unmake_move();
  }
  return nodes;
}

}  // namespace epdd::core
