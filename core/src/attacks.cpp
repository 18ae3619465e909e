#include "core/attacks.hpp"

#include <cstdlib>
#include <vector>

namespace epdd::core::attacks {

namespace detail {
Magic rook_magics[64];
Magic bishop_magics[64];
Bitboard knight[64];
Bitboard king[64];
Bitboard pawn[2][64];
Bitboard line[64][64];
Bitboard between[64][64];
}  // namespace detail

namespace {

// Fancy magic tables: 102,400 rook and 5,248 bishop entries.
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

constexpr int kRookSteps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopSteps[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// Slow reference: rays walked square by square. Used only to fill the tables.
Bitboard ray_attacks(const int (&steps)[4][2], Square s, Bitboard occupied) {
  Bitboard result = 0;
  for (const auto& step : steps) {
    int f = file_of(s) + step[0];
    int r = rank_of(s) + step[1];
    while (on_board(f, r)) {
      const Bitboard b = bb(make_square(f, r));
      result |= b;
      if (occupied & b) break;
      f += step[0];
      r += step[1];
    }
  }
  return result;
}

Bitboard leaper_attacks(Square s, std::initializer_list<std::pair<int, int>> deltas) {
  Bitboard result = 0;
  for (auto [df, dr] : deltas) {
    const int f = file_of(s) + df;
    const int r = rank_of(s) + dr;
    if (on_board(f, r)) result |= bb(make_square(f, r));
  }
  return result;
}

// xorshift64*: a fixed seed makes the magics, and so the tables, the same on every run.
class Prng {
 public:
  explicit Prng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ULL;
  }
  // Few bits set: good magic candidates.
  std::uint64_t sparse() { return next() & next() & next(); }

 private:
  std::uint64_t s_;
};

void init_magics(const int (&steps)[4][2], detail::Magic* magics, Bitboard* table) {
  Prng prng(0x9E3779B97F4A7C15ULL);
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  Bitboard* next_table = table;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    // Edges matter only when the piece is not on them.
    const Bitboard edges = ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(s))) |
                           ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
    detail::Magic& m = magics[i];
    m.mask = ray_attacks(steps, s, 0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.table = next_table;
    // Carry-Rippler enumeration of every subset of the mask.
    int size = 0;
    Bitboard subset = 0;
    do {
      occupancy[size] = subset;
      reference[size] = ray_attacks(steps, s, subset);
      ++size;
      subset = (subset - m.mask) & m.mask;
    } while (subset);
    for (;;) {
      do m.magic = prng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      int k = 0;
      for (; k < size; ++k) {
        const unsigned idx = m.index(occupancy[k]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          next_table[idx] = reference[k];
        } else if (next_table[idx] != reference[k]) {
          break;
        }
      }
      if (k == size) break;
    }
    next_table += size;
  }
}

void init_tables() {
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    detail::knight[i] =
        leaper_attacks(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
    detail::king[i] =
        leaper_attacks(s, {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}});
    detail::pawn[0][i] = leaper_attacks(s, {{-1, 1}, {1, 1}});
    detail::pawn[1][i] = leaper_attacks(s, {{-1, -1}, {1, -1}});
  }
  init_magics(kRookSteps, detail::rook_magics, rook_table);
  init_magics(kBishopSteps, detail::bishop_magics, bishop_table);
  for (int a = 0; a < 64; ++a) {
    const Square sa = square_at(a);
    for (int b = 0; b < 64; ++b) {
      const Square sb = square_at(b);
      detail::between[a][b] = bb(sb);
      detail::line[a][b] = 0;
      if (a == b) continue;
      for (const auto* steps : {&kRookSteps, &kBishopSteps}) {
        if (ray_attacks(*steps, sa, 0) & bb(sb)) {
          detail::line[a][b] =
              (ray_attacks(*steps, sa, 0) & ray_attacks(*steps, sb, 0)) | bb(sa) | bb(sb);
          detail::between[a][b] |=
              ray_attacks(*steps, sa, bb(sb)) & ray_attacks(*steps, sb, bb(sa));
        }
      }
    }
  }
}

// Runs before main. Nothing in epdd uses a Board during static initialisation.
[[maybe_unused]] const bool initialised = (init_tables(), true);

}  // namespace

Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occupied);
    case PieceType::Rook: return rook_attacks(s, occupied);
    case PieceType::Queen: return queen_attacks(s, occupied);
    case PieceType::King: return king_attacks(s);
    default: std::abort();
  }
}

}  // namespace epdd::core::attacks
