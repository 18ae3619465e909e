// PGC move ordinals. SAN strings sort first by their first character: the piece letter (B K N
// O-O Q R, in that ASCII order) or, for pawn moves, the file the pawn leaves (a-h, after the
// capitals). So the legal moves fall into 14 buckets in ordinal order, and an ordinal needs the
// order of one bucket only: the writer counts the moves of earlier buckets and ranks its move
// within its own; the reader finds the bucket by the counts and selects within it. The core's
// move generator scans the moves group by group in this order (pieces by type, castling, then
// pawns, one group split by file here), only as far as the bucket wanted, and lists only that.
//
// Within a bucket the order is that of the SAN after its first character. Where no two moves of
// the bucket share a target square no SAN is disambiguated, and a small key made from the move
// by bit arithmetic sorts the same way (compact_key). Otherwise (two knights or rooks reaching a
// square) each move gets the rest of its SAN as big-endian bytes padded with zeros: comparing
// the keys compares the strings in ASCII order, a prefix first as '\0' sorts first. Check marks
// are left out: they never decide the order (see pgc_ordered_moves).
#include <algorithm>
#include <bit>

#include "pgc_detail.hpp"

namespace epdd::pgn {

namespace {

using core::Bitboard;
using core::Move;
using core::MoveKind;
using core::PieceType;

constexpr int kBuckets = 14;  // B K N O Q R a b c d e f g h
constexpr int kCastlingBucket = 3;
constexpr int kKingBucket = 1;
constexpr int kPawnBuckets = 6;  // the first pawn file's bucket
// Bucket of a piece type (pawns: 6 + file): B 0, K 1, N 2, (O-O 3), Q 4, R 5.
constexpr int kPieceBucket[6] = {6, 2, 0, 5, 4, 1};
// The core's move group of each piece bucket (pawn buckets share the pawns' group).
constexpr int kGroupOf[6] = {core::index(PieceType::Bishop), core::index(PieceType::King),
                             core::index(PieceType::Knight), core::MoveGroups::kCastling,
                             core::index(PieceType::Queen),  core::index(PieceType::Rook)};
constexpr int kPawnGroup = core::index(PieceType::Pawn);

int bucket_of(const core::Board& board, Move m) {
  if (m.kind() == MoveKind::Castling) return kCastlingBucket;
  const int pt = static_cast<int>(board.piece_on(m.from())) & 7;  // a legal move's mover is a piece
  return pt == 0 ? kPawnBuckets + core::file_of(m.from()) : kPieceBucket[pt];
}

// ---- keys ----

// Ordered as SAN within a bucket where nothing is disambiguated, below 256: castling O-O before
// O-O-O; a piece's moves by capture ('x' sorts after the file letters), target file, target
// rank; a pawn file's by capture (a rank digit sorts before 'x'), for captures the side taken
// towards, then target rank and promotion piece (B N Q R, their letters' order). A pawn
// captures exactly when it changes file, a piece when the target holds one of `them`.
inline unsigned piece_key(Move m, Bitboard them) {
  const auto to = static_cast<unsigned>(core::index(m.to()));
  return static_cast<unsigned>((them >> to) & 1) << 6 | (to & 7) << 3 | to >> 3;
}
inline unsigned pawn_key(Move m) {
  const auto from = static_cast<unsigned>(core::index(m.from())), to = static_cast<unsigned>(core::index(m.to()));
  const unsigned ff = from & 7, tf = to & 7;
  // Promotion piece types are N 1, B 2, R 3, Q 4; their letters sort B N Q R.
  constexpr unsigned kPromotionOrder[6] = {0, 2, 1, 4, 3, 0};
  const unsigned promotion = m.kind() == MoveKind::Promotion ? kPromotionOrder[core::index(m.promotion())] : 0;
  return static_cast<unsigned>(ff != tf) << 7 | static_cast<unsigned>(tf > ff) << 6 | (to >> 3) << 3 | promotion;
}
inline unsigned castling_key(Move m) { return core::file_of(m.to()) < core::file_of(m.from()) ? 1 : 0; }
inline unsigned compact_key(Move m, int bucket, Bitboard them) {
  if (bucket >= kPawnBuckets) return pawn_key(m);
  return bucket == kCastlingBucket ? castling_key(m) : piece_key(m, them);
}

// Targets reached by more than one move of a bucket: only those moves may need disambiguation
// (a bucket of pieces holds one piece type; kings and pawns never need it).
Bitboard shared_targets(const Move* moves, std::size_t g, int bucket) {
  if (bucket == kCastlingBucket || bucket == kKingBucket || bucket >= kPawnBuckets) return 0;
  Bitboard reached = 0, shared = 0;
  for (std::size_t i = 0; i < g; ++i) {
    shared |= reached & core::bb(moves[i].to());
    reached |= core::bb(moves[i].to());
  }
  return shared;
}

// The SAN keys of a piece bucket's moves where some share a target square: the SAN after the
// piece letter (disambiguation, 'x', target square), big-endian in the low 40 bits, padded with
// zeros. Built once per bucket: where each shared target's moves come from.
class SanKeys {
 public:
  SanKeys(const Move* moves, std::size_t g, Bitboard shared, Bitboard them) : shared_(shared), them_(them) {
    for (std::size_t i = 0; i < g; ++i)
      if (shared & core::bb(moves[i].to())) origins_[static_cast<std::size_t>(core::index(moves[i].to()))] = 0;
    for (std::size_t i = 0; i < g; ++i)
      if (shared & core::bb(moves[i].to()))
        origins_[static_cast<std::size_t>(core::index(moves[i].to()))] |= core::bb(moves[i].from());
  }
  std::uint64_t operator()(Move m) const {
    std::uint64_t key = 0;
    int length = 0;
    const auto put = [&](int c) {
      key = key << 8 | static_cast<unsigned>(c);
      ++length;
    };
    const core::Square from = m.from(), to = m.to();
    if (shared_ & core::bb(to)) {  // SAN's file, rank or square of the mover, as needed
      const Bitboard others = origins_[static_cast<std::size_t>(core::index(to))] & ~core::bb(from);
      const bool same_file = (others & core::file_bb(core::file_of(from))) != 0;
      const bool same_rank = (others & core::rank_bb(core::rank_of(from))) != 0;
      if (!same_file || same_rank) put('a' + core::file_of(from));
      if (same_file) put('1' + core::rank_of(from));
    }
    if (them_ & core::bb(to)) put('x');
    put('a' + core::file_of(to));
    put('1' + core::rank_of(to));
    return key << (8 * (5 - length));
  }

 private:
  Bitboard shared_, them_;
  std::array<Bitboard, 64> origins_;  // by target; set for the shared targets only
};

// The keys of a bucket's g moves, into keys[] (compact or SAN, one kind for the whole bucket).
void bucket_keys(const core::Board& board, const Move* moves, std::size_t g, int bucket, std::uint64_t* keys) {
  const Bitboard them = board.pieces(~board.side_to_move());
  if (const Bitboard shared = shared_targets(moves, g, bucket)) {
    const SanKeys san_key(moves, g, shared, them);
    for (std::size_t i = 0; i < g; ++i) keys[i] = san_key(moves[i]);
  } else {
    for (std::size_t i = 0; i < g; ++i) keys[i] = compact_key(moves[i], bucket, them);
  }
}

// The move whose key has exactly `wanted` smaller ones among g distinct keys.
Move select_keyed(const Move* moves, const std::uint64_t* keys, std::size_t g, std::size_t wanted) {
  for (std::size_t i = 0; i < g; ++i) {
    std::size_t smaller = 0;
    for (std::size_t j = 0; j < g; ++j) smaller += keys[j] < keys[i];
    if (smaller == wanted) return moves[i];
  }
  return Move::none();  // not reached
}

// The same for compact keys (distinct, below 256): the keys as bits of a 256-bit set, the
// wanted key found by counting set bits, then its move.
Move select_compact(const Move* moves, std::size_t g, std::size_t wanted, int bucket, Bitboard them) {
  std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;  // registers: or-ing into memory would chain the stores
  std::array<unsigned, core::MoveList::kCapacity> keys;
  for (std::size_t i = 0; i < g; ++i) {
    const unsigned k = keys[i] = compact_key(moves[i], bucket, them);
    const std::uint64_t bit = std::uint64_t{1} << (k & 63);
    s0 |= (k >> 6) == 0 ? bit : 0;
    s1 |= (k >> 6) == 1 ? bit : 0;
    s2 |= (k >> 6) == 2 ? bit : 0;
    s3 |= (k >> 6) == 3 ? bit : 0;
  }
  const std::array<std::uint64_t, 4> set{s0, s1, s2, s3};
  unsigned key = 0;
  for (std::size_t w = 0; w < set.size(); ++w) {
    std::uint64_t bits = set[w];
    const auto n = static_cast<std::size_t>(core::popcount(bits));
    if (wanted >= n) {
      wanted -= n;
      continue;
    }
    for (; wanted > 0; --wanted) bits &= bits - 1;
    key = static_cast<unsigned>(w * 64) + static_cast<unsigned>(std::countr_zero(bits));
    break;
  }
  std::size_t i = 0;
  while (i + 1 < g && keys[i] != key) ++i;
  return moves[i];
}

// The wanted move of a bucket whose moves need SAN keys (some share a target square): rare,
// kept out of line so that the common path's stack frame stays small.
[[gnu::noinline]] Move select_by_san(const core::Board& board, const Move* moves, std::size_t g, int bucket,
                                     std::size_t wanted) {
  std::array<std::uint64_t, core::MoveList::kCapacity> keys;
  bucket_keys(board, moves, g, bucket, keys.data());
  return select_keyed(moves, keys.data(), g, wanted);
}

// How many of a bucket's g moves sort before `move`, one of them.
std::size_t rank_in_bucket(Move move, const Move* moves, std::size_t g, int bucket, Bitboard them) {
  std::size_t below = 0;
  if (const Bitboard shared = shared_targets(moves, g, bucket)) {
    const SanKeys san_key(moves, g, shared, them);
    const std::uint64_t key = san_key(move);
    for (std::size_t j = 0; j < g; ++j) below += san_key(moves[j]) < key;
  } else if (bucket >= kPawnBuckets) {
    const unsigned key = pawn_key(move);
    for (std::size_t j = 0; j < g; ++j) below += pawn_key(moves[j]) < key;
  } else {
    const unsigned key = compact_key(move, bucket, them);
    for (std::size_t j = 0; j < g; ++j) below += compact_key(moves[j], bucket, them) < key;
  }
  return below;
}

}  // namespace

namespace detail {

std::optional<std::uint8_t> ordinal_of(const core::Board& board, core::Move move) {
  if (!move.is_real() || board.piece_on(move.from()) == core::Piece::None) return std::nullopt;
  // The core generates the groups in SAN's order up to the move's own: the earlier ones only
  // counted, the move's listed.
  const int own = bucket_of(board, move);
  core::MoveList list;
  std::size_t below = board.legal_group_in_san_order(own < kPawnBuckets ? kGroupOf[own] : kPawnGroup, list);
  std::array<Move, core::MoveList::kCapacity> scratch;
  const Move* moves = list.begin();
  std::size_t g = list.size();
  if (own >= kPawnBuckets) {  // the pawns' group holds the files' buckets one after another
    const int file = own - kPawnBuckets;
    moves = scratch.data();
    g = 0;
    for (Move m : list) {
      const int f = core::file_of(m.from());
      below += f < file;
      scratch[g] = m;  // kept only when on the file: no branch to mispredict
      g += f == file;
    }
  }
  if (std::find(moves, moves + g, move) == moves + g) return std::nullopt;  // not legal
  if (g > 1) below += rank_in_bucket(move, moves, g, own, board.pieces(~board.side_to_move()));
  if (below > 255) return std::nullopt;
  return static_cast<std::uint8_t>(below);
}

std::optional<core::Move> move_of(const core::Board& board, std::uint8_t ordinal, std::size_t* legal) {
  // The core generates the groups in SAN's order up to the one holding the ordinal.
  core::MoveList list;
  std::size_t first = 0;  // the ordinal of the bucket's first move
  const int group = board.legal_group_at(ordinal, list, first);
  if (group < 0) {
    if (legal) *legal = first;
    return std::nullopt;
  }
  constexpr int kBucketOfGroup[core::MoveGroups::kCount] = {-1, 2, 0, 5, 4, 1, kCastlingBucket};
  int bucket = kBucketOfGroup[group];
  std::array<Move, core::MoveList::kCapacity> scratch;
  const Move* moves = list.begin();
  std::size_t size = list.size();
  if (group == kPawnGroup) {  // the files' buckets one after another
    std::uint64_t files = 0;  // moves per file as the bytes of one register
    for (Move m : list) files += std::uint64_t{1} << (8 * core::file_of(m.from()));
    for (bucket = kPawnBuckets; first + ((files >> (8 * (bucket - kPawnBuckets))) & 0xff) <= ordinal; ++bucket)
      first += (files >> (8 * (bucket - kPawnBuckets))) & 0xff;
    size = 0;
    for (Move m : list) {
      scratch[size] = m;  // kept only when on the file: no branch to mispredict
      size += core::file_of(m.from()) == bucket - kPawnBuckets;
    }
    moves = scratch.data();
  }
  if (size == 1) return moves[0];  // alone in its bucket: no keys needed
  const std::size_t wanted = ordinal - first;
  if (shared_targets(moves, size, bucket)) return select_by_san(board, moves, size, bucket, wanted);
  return select_compact(moves, size, wanted, bucket, board.pieces(~board.side_to_move()));
}

}  // namespace detail

core::MoveList pgc_ordered_moves(const core::Board& board) {
  core::MoveList out;
  const auto add_sorted = [&](const Move* moves, std::size_t g, int bucket) {
    std::array<std::uint64_t, core::MoveList::kCapacity> keys;
    bucket_keys(board, moves, g, bucket, keys.data());
    std::array<std::size_t, core::MoveList::kCapacity> order;
    for (std::size_t i = 0; i < g; ++i) order[i] = i;
    std::sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(g),
              [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
    for (std::size_t i = 0; i < g; ++i) out.push_back(moves[order[i]]);
  };
  for (int bucket = 0; bucket < kPawnBuckets; ++bucket) {
    core::MoveList list;
    board.legal_group_in_san_order(kGroupOf[bucket], list);
    add_sorted(list.begin(), list.size(), bucket);
  }
  core::MoveList pawns;
  board.legal_group_in_san_order(kPawnGroup, pawns);
  for (int file = 0; file < 8; ++file) {
    std::array<Move, core::MoveList::kCapacity> on_file;
    std::size_t g = 0;
    for (Move m : pawns)
      if (core::file_of(m.from()) == file) on_file[g++] = m;
    add_sorted(on_file.data(), g, kPawnBuckets + file);
  }
  return out;
}

std::optional<std::uint8_t> pgc_ordinal(const core::Board& board, core::Move move) {
  return detail::ordinal_of(board, move);
}

std::optional<core::Move> pgc_move(const core::Board& board, std::uint8_t ordinal) {
  return detail::move_of(board, ordinal, nullptr);
}

}  // namespace epdd::pgn
