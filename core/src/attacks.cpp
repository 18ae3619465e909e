#include "core/attacks.hpp"

#include <algorithm>
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

// Magic multipliers found by detail::find_magics (tools/find_magics prints them): searching at
// every start would cost 0.2 s, so they are constants. init_magics checks each one.
constexpr Bitboard kRookMagics[64] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000A00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard kBishopMagics[64] = {
    0x10102002004A1420ULL, 0x8020040400584008ULL, 0x10510800811201C8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200A02020ULL,
    0x1500241990010E00ULL, 0x8001200182020A40ULL, 0x40004101030B0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020A00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006E080100C3040ULL, 0x0501044A11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422C012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xA010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802A02020000B098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488A00ULL,
    0x2000081104004040ULL, 0x4C8E029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008A0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4A1500401041004AULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800B62048ULL, 0x0000810400C44420ULL, 0x00080400440C0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810D00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};

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

Bitboard edges_for(Square s) {
  // Edges matter only when the piece is not on them.
  return ((rank_bb(0) | rank_bb(7)) & ~rank_bb(rank_of(s))) |
         ((file_bb(0) | file_bb(7)) & ~file_bb(file_of(s)));
}

// Every subset of mask with its reference attacks (Carry-Rippler enumeration).
int enumerate_subsets(const int (&steps)[4][2], Square s, Bitboard mask, std::vector<Bitboard>& occupancy,
                      std::vector<Bitboard>& reference) {
  int size = 0;
  Bitboard subset = 0;
  do {
    occupancy[size] = subset;
    reference[size] = ray_attacks(steps, s, subset);
    ++size;
    subset = (subset - mask) & mask;
  } while (subset);
  return size;
}

void init_magics(const int (&steps)[4][2], const Bitboard (&numbers)[64], detail::Magic* magics,
                 Bitboard* table) {
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<char> filled(4096);
  Bitboard* next_table = table;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    detail::Magic& m = magics[i];
    m.mask = ray_attacks(steps, s, 0) & ~edges_for(s);
    m.shift = 64 - popcount(m.mask);
    m.magic = numbers[i];
    m.table = next_table;
    const int size = enumerate_subsets(steps, s, m.mask, occupancy, reference);
    std::fill(filled.begin(), filled.begin() + size, 0);
    for (int k = 0; k < size; ++k) {
      const unsigned idx = m.index(occupancy[k]);
      // A wrong constant would alias two different attack sets: a build defect, not input.
      if (filled[idx] && next_table[idx] != reference[k]) std::abort();
      filled[idx] = 1;
      next_table[idx] = reference[k];
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
  init_magics(kRookSteps, kRookMagics, detail::rook_magics, rook_table);
  init_magics(kBishopSteps, kBishopMagics, detail::bishop_magics, bishop_table);
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

std::array<Bitboard, 64> detail::find_magics(bool rook) {
  const auto& steps = rook ? kRookSteps : kBishopSteps;
  Prng prng(0x9E3779B97F4A7C15ULL);
  std::vector<Bitboard> occupancy(4096), reference(4096), used(4096);
  std::vector<int> epoch(4096, 0);
  std::array<Bitboard, 64> found{};
  int attempt = 0;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    Magic m{};
    m.mask = ray_attacks(steps, s, 0) & ~edges_for(s);
    m.shift = 64 - popcount(m.mask);
    const int size = enumerate_subsets(steps, s, m.mask, occupancy, reference);
    for (;;) {
      do m.magic = prng.sparse();
      while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      int k = 0;
      for (; k < size; ++k) {
        const unsigned idx = m.index(occupancy[k]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          used[idx] = reference[k];
        } else if (used[idx] != reference[k]) {
          break;
        }
      }
      if (k == size) break;
    }
    found[i] = m.magic;
  }
  return found;
}

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
