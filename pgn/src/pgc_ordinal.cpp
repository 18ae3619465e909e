// PGC move ordinals. SAN strings sort first by their first character: the piece letter (B K N
// O-O Q R, in that ASCII order) or, for pawn moves, the file the pawn leaves (a-h, after the
// capitals). So the legal moves fall into 14 buckets in ordinal order, and an ordinal needs the
// full order of one bucket only. Within it each move gets a 64-bit key holding its SAN (check
// marks left out) as big-endian bytes padded with zeros: comparing keys compares the strings
// in ASCII order (a string that is a prefix of another sorts first, as '\0' does).
#include <algorithm>

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
unsigned compact_key(const core::Board& board, Move m) {
  const core::Square to = m.to();
  if (m.kind() == MoveKind::Castling) return core::file_of(to) < core::file_of(m.from()) ? 1 : 0;
  const unsigned capture = board.piece_on(to) != core::Piece::None || m.kind() == MoveKind::EnPassant;
  const auto tf = static_cast<unsigned>(core::file_of(to)), tr = static_cast<unsigned>(core::rank_of(to));
  if ((static_cast<int>(board.piece_on(m.from())) & 7) != 0) return capture << 6 | tf << 3 | tr;
  const unsigned right = capture && core::file_of(to) > core::file_of(m.from());
  // Promotion piece types are N 1, B 2, R 3, Q 4; their letters sort B N Q R.
  constexpr unsigned kPromotionOrder[6] = {0, 2, 1, 4, 3, 0};
  const unsigned promotion = m.kind() == MoveKind::Promotion ? kPromotionOrder[core::index(m.promotion())] : 0;
  return capture << 7 | right << 6 | tr << 3 | promotion;
}

// Keys for the g moves of one bucket (in out[].move): compact ones where no move needs
// disambiguation, else each move's SAN.
void key_group(const core::Board& board, detail::KeyedMove* out, std::size_t g, int bucket) {
  // Targets reached by more than one move of the bucket: only those moves may need
  // disambiguation (a bucket of pieces holds one piece type; kings and pawns never need it).
  core::Bitboard reached = 0, shared = 0;
  if (bucket != kCastlingBucket && bucket != kPieceBucket[core::index(PieceType::King)] && bucket < 6)
    for (std::size_t i = 0; i < g; ++i) {
      shared |= reached & core::bb(out[i].move.to());
      reached |= core::bb(out[i].move.to());
    }
  if (!shared) {
    for (std::size_t i = 0; i < g; ++i) out[i].key = compact_key(board, out[i].move);
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


// The number of legal moves in each bucket, counted without generating them.
using BucketSizes = std::array<std::size_t, kBuckets>;
BucketSizes bucket_sizes(const core::Board& board) {
  const core::LegalMoveCounts c = board.count_legal_by_mover();
  const auto piece = [&](PieceType pt) { return c.piece[static_cast<std::size_t>(core::index(pt))]; };
  BucketSizes sizes{piece(PieceType::Bishop), piece(PieceType::King), piece(PieceType::Knight), c.castling,
                    piece(PieceType::Queen), piece(PieceType::Rook)};
  for (std::size_t f = 0; f < 8; ++f) sizes[6 + f] = c.pawn_file[f];
  return sizes;
}

// The legal moves of one bucket into out[] (their number returned); `at` gets the index of
// `wanted` among them when it is one.
std::size_t bucket_moves(const core::Board& board, int bucket, detail::KeyedMove* out, Move wanted, std::size_t& at) {
  const core::Color us = board.side_to_move();
  core::Bitboard origins = 0;
  if (bucket >= 6) {
    origins = board.pieces(us, PieceType::Pawn) & core::file_bb(bucket - 6);
  } else {
    constexpr PieceType kPieceOf[6] = {PieceType::Bishop, PieceType::King, PieceType::Knight,
                                       PieceType::King,   PieceType::Queen, PieceType::Rook};
    origins = board.pieces(us, kPieceOf[bucket]);
  }
  core::MoveList list;
  board.generate_legal_from(list, origins);
  // The king's square brings castling (bucket O) and the king's steps (bucket K) alike.
  const bool castling = bucket == kCastlingBucket;
  std::size_t g = 0;
  for (Move m : list) {
    if ((m.kind() == MoveKind::Castling) != castling) continue;
    if (m == wanted) at = g;
    out[g++] = {0, m};
  }
  return g;
}

}  // namespace

namespace detail {

std::optional<std::uint8_t> ordinal_of(const core::Board& board, core::Move move) {
  if (!move.is_real() || board.piece_on(move.from()) == core::Piece::None) return std::nullopt;
  // The moves of earlier buckets are counted, not generated; those of the move's own bucket
  // are generated and keyed (alone in its bucket, a move needs no key).
  const int own = bucket_of(board, move);
  const BucketSizes sizes = bucket_sizes(board);
  std::size_t below = 0;
  for (int b = 0; b < own; ++b) below += sizes[static_cast<std::size_t>(b)];
  std::array<KeyedMove, core::MoveList::kCapacity> group;
  std::size_t at = core::MoveList::kCapacity;
  const std::size_t g = bucket_moves(board, own, group.data(), move, at);
  if (at == core::MoveList::kCapacity) return std::nullopt;  // not legal
  if (g > 1) {
    key_group(board, group.data(), g, own);
    for (std::size_t j = 0; j < g; ++j) below += group[j].key < group[at].key;
  }
  if (below > 255) return std::nullopt;
  return static_cast<std::uint8_t>(below);
}

std::optional<core::Move> move_of(const core::Board& board, std::uint8_t ordinal, std::size_t* legal) {
  const BucketSizes sizes = bucket_sizes(board);
  std::size_t first = 0;  // the ordinal of the bucket's first move
  int bucket = 0;
  for (; bucket < kBuckets && first + sizes[static_cast<std::size_t>(bucket)] <= ordinal; ++bucket)
    first += sizes[static_cast<std::size_t>(bucket)];
  if (bucket == kBuckets) {
    if (legal) *legal = first;
    return std::nullopt;
  }
  std::array<KeyedMove, core::MoveList::kCapacity> group;
  std::size_t unused = 0;
  const std::size_t size = bucket_moves(board, bucket, group.data(), core::Move::none(), unused);
  if (legal) {
    *legal = first;
    for (int b = bucket; b < kBuckets; ++b) *legal += sizes[static_cast<std::size_t>(b)];
  }
  if (size == 1) return group[0].move;  // alone in its bucket: no keys needed
  key_group(board, group.data(), size, bucket);
  // The move with exactly `wanted` smaller keys (keys are distinct: SAN tells moves apart).
  const std::size_t wanted = ordinal - first;
  for (std::size_t i = 0; i < size; ++i) {
    std::size_t smaller = 0;
    for (std::size_t j = 0; j < size; ++j) smaller += group[j].key < group[i].key;
    if (smaller == wanted) return group[i].move;
  }
  return std::nullopt;  // not reached
}

}  // namespace detail

core::MoveList pgc_ordered_moves(const core::Board& board) {
  const core::MoveList list = board.legal_moves();
  core::MoveList out;
  for (int bucket = 0; bucket < kBuckets; ++bucket) {
    std::array<detail::KeyedMove, core::MoveList::kCapacity> group;
    std::size_t g = 0;
    for (Move m : list)
      if (bucket_of(board, m) == bucket) group[g++] = {0, m};
    key_group(board, group.data(), g, bucket);
    sort_group(group.data(), g);
    for (std::size_t i = 0; i < g; ++i) out.push_back(group[i].move);
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
