// PGC move ordinals. SAN strings sort first by their first character: the piece letter (B K N
// O-O Q R, in that ASCII order) or, for pawn moves, the file the pawn leaves (a-h, after the
// capitals). So the legal moves fall into 14 buckets in ordinal order, and an ordinal needs the
// full order of one bucket only. Within it each move gets a 64-bit key holding its SAN (check
// marks left out) as big-endian bytes padded with zeros: comparing keys compares the strings
// in ASCII order (a string that is a prefix of another sorts first, as '\0' does).
#include <algorithm>
#include <bit>

#include "pgc_detail.hpp"

namespace epdd::pgn {

namespace {

using core::Move;
using core::MoveKind;
using core::PieceType;

constexpr char kLetters[] = "PNBRQK";
constexpr int kBuckets = 14;  // B K N O Q R a b c d e f g h
constexpr int kCastlingBucket = 3;
// Bucket of a piece type (pawns: 6 + file): B 0, K 1, N 2, (O-O 3), Q 4, R 5.
constexpr int kPieceBucket[6] = {6, 2, 0, 5, 4, 1};

class KeyBuilder {
 public:
  void put(char c) {
    key_ |= static_cast<std::uint64_t>(static_cast<unsigned char>(c)) << shift_;
    shift_ -= 8;
  }
  void square(core::Square s) {
    put(static_cast<char>('a' + core::file_of(s)));
    put(static_cast<char>('1' + core::rank_of(s)));
  }
  std::uint64_t key() const { return key_; }

 private:
  std::uint64_t key_ = 0;
  int shift_ = 56;
};

// SAN's file, rank or square of the moving piece where another of the same type (`peers`: the
// moves of its bucket) can also move to its target.
void disambiguate(KeyBuilder& k, Move m, const detail::KeyedMove* peers, std::size_t count) {
  bool other = false, same_file = false, same_rank = false;
  for (std::size_t j = 0; j < count; ++j) {
    const Move o = peers[j].move;
    if (o == m || o.to() != m.to()) continue;
    other = true;
    same_file |= core::file_of(o.from()) == core::file_of(m.from());
    same_rank |= core::rank_of(o.from()) == core::rank_of(m.from());
  }
  if (other && !same_file) {
    k.put(static_cast<char>('a' + core::file_of(m.from())));
  } else if (other && !same_rank) {
    k.put(static_cast<char>('1' + core::rank_of(m.from())));
  } else if (other) {
    k.square(m.from());
  }
}

// `peers` (count of them) are the moves of m's bucket when m may need disambiguation, else
// nullptr.
// The two characters of a square's name, as the low 16 bits.
constexpr std::uint64_t square_chars(core::Square s) {
  return static_cast<std::uint64_t>(('a' + core::file_of(s)) << 8 | ('1' + core::rank_of(s)));
}
constexpr std::uint64_t chr(char c, int at) {  // character c at position `at` of the key
  return static_cast<std::uint64_t>(static_cast<unsigned char>(c)) << (56 - 8 * at);
}

// The key of a move that needs no disambiguation (`peers` nullptr) or of one that may (`peers`,
// count of them: the moves of its bucket). The common cases are composed in place.
std::uint64_t san_key(const core::Board& board, Move m, const detail::KeyedMove* peers, std::size_t count) {
  if (m.kind() == MoveKind::Castling) {
    const bool queen_side = core::file_of(m.to()) < core::file_of(m.from());
    return chr('O', 0) | chr('-', 1) | chr('O', 2) | (queen_side ? chr('-', 3) | chr('O', 4) : 0);
  }
  const auto pt = static_cast<int>(board.piece_on(m.from())) & 7;
  const bool capture = board.piece_on(m.to()) != core::Piece::None || m.kind() == MoveKind::EnPassant;
  const std::uint64_t to = square_chars(m.to());
  if (pt == 0) {  // pawn
    const std::uint64_t promotion =
        m.kind() == MoveKind::Promotion ? (static_cast<std::uint64_t>('=') << 8 | static_cast<unsigned char>(kLetters[core::index(m.promotion())])) : 0;
    if (!capture) return to << 48 | promotion << 32;
    return chr(static_cast<char>('a' + core::file_of(m.from())), 0) | chr('x', 1) | to << 32 | promotion << 16;
  }
  if (!peers) return chr(kLetters[pt], 0) | (capture ? chr('x', 1) | to << 32 : to << 40);
  KeyBuilder k;
  k.put(kLetters[pt]);
  disambiguate(k, m, peers, count);
  if (capture) k.put('x');
  k.square(m.to());
  return k.key();
}

// Indexed by piece type (a legal move's mover is a piece: bits 0-2 of its code) and file.
constexpr std::array<std::uint8_t, 64> kBucketOf = [] {
  std::array<std::uint8_t, 64> t{};
  for (int pt = 0; pt < 6; ++pt)
    for (int file = 0; file < 8; ++file)
      t[static_cast<std::size_t>(pt * 8 + file)] = static_cast<std::uint8_t>(pt == 0 ? 6 + file : kPieceBucket[pt]);
  return t;
}();

int bucket_of(const core::Board& board, Move m) {
  const int pt = static_cast<int>(board.piece_on(m.from())) & 7;
  const int b = kBucketOf[static_cast<std::size_t>(pt * 8 + core::file_of(m.from()))];
  return m.kind() == MoveKind::Castling ? kCastlingBucket : b;
}

// A key for the moves of a bucket where no two moves share a target square, ordered as their
// SAN within the bucket (below 256): castling O-O before O-O-O; a piece's moves by capture ('x'
// sorts after the file letters), target file, target rank; a pawn file's by capture (a rank
// digit sorts before 'x'), for captures the side taken towards, then target rank and promotion
// piece (B N Q R, their letters' order). Pawn moves of one file never need disambiguation.
// Bit arithmetic only: a pawn captures exactly when it changes file, a piece when the target
// holds one of `them`.
unsigned compact_key(Move m, int bucket, core::Bitboard them) {
  const auto from = static_cast<unsigned>(core::index(m.from())), to = static_cast<unsigned>(core::index(m.to()));
  const unsigned tf = to & 7, tr = to >> 3;
  if (bucket < 6) {
    if (bucket == kCastlingBucket) return tf < (from & 7) ? 1 : 0;
    const auto capture = static_cast<unsigned>((them >> to) & 1);
    return capture << 6 | tf << 3 | tr;
  }
  const unsigned ff = from & 7;
  const unsigned capture = ff != tf, right = tf > ff;
  // Promotion piece types are N 1, B 2, R 3, Q 4; their letters sort B N Q R.
  constexpr unsigned kPromotionOrder[6] = {0, 2, 1, 4, 3, 0};
  const unsigned promotion = m.kind() == MoveKind::Promotion ? kPromotionOrder[core::index(m.promotion())] : 0;
  return capture << 7 | right << 6 | tr << 3 | promotion;
}

// Targets reached by more than one move of a bucket: only those moves may need disambiguation
// (a bucket of pieces holds one piece type; kings and pawns never need it).
core::Bitboard shared_targets(const Move* moves, std::size_t g, int bucket) {
  core::Bitboard reached = 0, shared = 0;
  if (bucket == kCastlingBucket || bucket == kPieceBucket[core::index(PieceType::King)] || bucket >= 6) return 0;
  for (std::size_t i = 0; i < g; ++i) {
    shared |= reached & core::bb(moves[i].to());
    reached |= core::bb(moves[i].to());
  }
  return shared;
}

// Keys for the g moves of one bucket (in out[].move): compact ones where no move needs
// disambiguation (`shared` empty), else each move's SAN.
void key_group(const core::Board& board, detail::KeyedMove* out, std::size_t g, int bucket, core::Bitboard shared) {
  if (!shared) {
    const core::Bitboard them = board.pieces(~board.side_to_move());
    for (std::size_t i = 0; i < g; ++i) out[i].key = compact_key(out[i].move, bucket, them);
    return;
  }
  for (std::size_t i = 0; i < g; ++i) {
    const bool peers = (shared & core::bb(out[i].move.to())) != 0;
    out[i].key = san_key(board, out[i].move, peers ? out : nullptr, g);
  }
}

// Insertion sort by key: a bucket holds the moves of one piece type or one pawn file, a few
// as a rule (pgc_ordered_moves alone sorts whole buckets).
void sort_group(detail::KeyedMove* out, std::size_t g) {
  for (std::size_t i = 1; i < g; ++i) {
    const detail::KeyedMove x = out[i];
    std::size_t j = i;
    for (; j > 0 && out[j - 1].key > x.key; --j) out[j] = out[j - 1];
    out[j] = x;
  }
}


// The core's move group of each piece bucket (pawn buckets share the pawns' group).
constexpr int kGroupOf[6] = {core::index(PieceType::Bishop), core::index(PieceType::King),
                             core::index(PieceType::Knight), core::MoveGroups::kCastling,
                             core::index(PieceType::Queen),  core::index(PieceType::Rook)};

// The number of moves of each bucket. The pawn files' counts are bytes of one register (no
// file has 256 moves): counting in memory would make each move wait for the previous one's store.
struct BucketSizes {
  explicit BucketSizes(const core::MoveGroups& groups) {
    for (std::size_t b = 0; b < 6; ++b) pieces[b] = groups.size(kGroupOf[b]);
    const core::PieceType pawn = PieceType::Pawn;
    for (const Move* m = groups.begin(core::index(pawn)); m != groups.end(core::index(pawn)); ++m)
      pawn_files += std::uint64_t{1} << (8 * core::file_of(m->from()));
  }
  std::size_t operator[](int bucket) const {
    return bucket < 6 ? pieces[static_cast<std::size_t>(bucket)] : (pawn_files >> (8 * (bucket - 6))) & 0xff;
  }
  std::array<std::size_t, 6> pieces{};
  std::uint64_t pawn_files = 0;
};

// The moves of a bucket: a piece bucket's where the groups hold them, a pawn file's gathered
// into `scratch`. Returns the first and sets g to their number.
const Move* bucket_moves(const core::MoveGroups& groups, int bucket, Move* scratch, std::size_t& g) {
  if (bucket < 6) {
    g = groups.size(kGroupOf[bucket]);
    return groups.begin(kGroupOf[bucket]);
  }
  g = 0;
  const int pawn = core::index(PieceType::Pawn);
  for (const Move* m = groups.begin(pawn); m != groups.end(pawn); ++m)
    if (core::file_of(m->from()) == bucket - 6) scratch[g++] = *m;
  return scratch;
}

// The g moves with keys (see key_group) into out[].
void keyed_moves(const core::Board& board, const Move* moves, std::size_t g, int bucket, core::Bitboard shared,
                 detail::KeyedMove* out) {
  for (std::size_t i = 0; i < g; ++i) out[i] = {0, moves[i]};
  key_group(board, out, g, bucket, shared);
}

// The move with exactly `wanted` smaller keys among the g moves of a keyed group (keys are
// distinct: SAN tells moves apart).
Move select_keyed(const detail::KeyedMove* group, std::size_t g, std::size_t wanted) {
  for (std::size_t i = 0; i < g; ++i) {
    std::size_t smaller = 0;
    for (std::size_t j = 0; j < g; ++j) smaller += group[j].key < group[i].key;
    if (smaller == wanted) return group[i].move;
  }
  return Move::none();  // not reached
}

// The same for a bucket whose moves need no disambiguation: the compact keys (distinct, below
// 256) as bits of a 256-bit set, the move found by counting set bits.
Move select_compact(const Move* moves, std::size_t g, std::size_t wanted, int bucket, core::Bitboard them) {
  std::array<std::uint64_t, 4> keys{};
  std::array<Move, 256> by_key;
  for (std::size_t i = 0; i < g; ++i) {
    const unsigned k = compact_key(moves[i], bucket, them);
    keys[k >> 6] |= std::uint64_t{1} << (k & 63);
    by_key[k] = moves[i];
  }
  for (std::size_t w = 0; w < keys.size(); ++w) {
    std::uint64_t bits = keys[w];
    const auto n = static_cast<std::size_t>(core::popcount(bits));
    if (wanted >= n) {
      wanted -= n;
      continue;
    }
    for (; wanted > 0; --wanted) bits &= bits - 1;
    return by_key[w * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
  }
  return Move::none();  // not reached
}

}  // namespace

namespace detail {

std::optional<std::uint8_t> ordinal_of(const core::Board& board, core::Move move) {
  if (!move.is_real() || board.piece_on(move.from()) == core::Piece::None) return std::nullopt;
  // The moves of earlier buckets are counted; those of the move's own bucket are keyed (alone
  // in its bucket, a move needs no key).
  core::MoveGroups groups;
  board.generate_legal(groups);
  const int own = bucket_of(board, move);
  const BucketSizes sizes(groups);
  std::size_t below = 0;
  for (int b = 0; b < own; ++b) below += sizes[b];
  std::array<Move, core::MoveList::kCapacity> scratch;
  std::size_t g = 0;
  const Move* moves = bucket_moves(groups, own, scratch.data(), g);
  std::size_t at = 0;
  while (at < g && moves[at] != move) ++at;
  if (at == g) return std::nullopt;  // not legal
  if (g > 1) {
    if (const core::Bitboard shared = shared_targets(moves, g, own)) {
      std::array<KeyedMove, core::MoveList::kCapacity> keyed;
      keyed_moves(board, moves, g, own, shared, keyed.data());
      for (std::size_t j = 0; j < g; ++j) below += keyed[j].key < keyed[at].key;
    } else {
      const core::Bitboard them = board.pieces(~board.side_to_move());
      const unsigned key = compact_key(move, own, them);
      for (std::size_t j = 0; j < g; ++j) below += compact_key(moves[j], own, them) < key;
    }
  }
  if (below > 255) return std::nullopt;
  return static_cast<std::uint8_t>(below);
}

std::optional<core::Move> move_of(const core::Board& board, std::uint8_t ordinal, std::size_t* legal) {
  core::MoveGroups groups;
  board.generate_legal(groups);
  if (legal) *legal = groups.total();
  if (ordinal >= groups.total()) return std::nullopt;
  const BucketSizes sizes(groups);
  std::size_t first = 0;  // the ordinal of the bucket's first move
  int bucket = 0;
  for (; first + sizes[bucket] <= ordinal; ++bucket) first += sizes[bucket];
  std::array<Move, core::MoveList::kCapacity> scratch;
  std::size_t size = 0;
  const Move* moves = bucket_moves(groups, bucket, scratch.data(), size);
  if (size == 1) return moves[0];  // alone in its bucket: no keys needed
  const std::size_t wanted = ordinal - first;
  const core::Bitboard shared = shared_targets(moves, size, bucket);
  if (!shared) return select_compact(moves, size, wanted, bucket, board.pieces(~board.side_to_move()));
  std::array<KeyedMove, core::MoveList::kCapacity> keyed;
  keyed_moves(board, moves, size, bucket, shared, keyed.data());
  return select_keyed(keyed.data(), size, wanted);
}

}  // namespace detail

core::MoveList pgc_ordered_moves(const core::Board& board) {
  core::MoveGroups groups;
  board.generate_legal(groups);
  core::MoveList out;
  for (int bucket = 0; bucket < kBuckets; ++bucket) {
    std::array<Move, core::MoveList::kCapacity> scratch;
    std::size_t g = 0;
    const Move* moves = bucket_moves(groups, bucket, scratch.data(), g);
    std::array<detail::KeyedMove, core::MoveList::kCapacity> keyed;
    keyed_moves(board, moves, g, bucket, shared_targets(moves, g, bucket), keyed.data());
    sort_group(keyed.data(), g);
    for (std::size_t i = 0; i < g; ++i) out.push_back(keyed[i].move);
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
