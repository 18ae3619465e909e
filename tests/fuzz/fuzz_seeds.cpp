// fuzz_seeds OUTDIR FILE...: splits shared data (read in place) into small seed files, one
// folder per fuzz target: every EPD line a seed of epd (and its position of fen), every PGN
// game a seed of pgn and, written by epdd's own writers, of pgc and chesslive; each fixed
// position's legal moves (SAN, LAN, UCI) seeds of san. At most kPerFile seeds per file and
// target, so that a 30-second run still gets through its corpus.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"
#include "san_positions.hpp"

using namespace epdd;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kPerFile = 200;

struct Out {
  fs::path dir;
  std::size_t count = 0;
  void write(const std::string& target, std::string_view bytes) {
    const fs::path folder = dir / target;
    fs::create_directories(folder);
    std::ofstream(folder / (std::to_string(++count)), std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  }
};

void split_epd(Out& out, std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = 0; pos < text.size() && n < kPerFile; ++n) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    out.write("epd", line);
    // The four position fields, and as a FEN with clocks.
    std::size_t cut = 0;
    for (int field = 0; field < 4 && cut != std::string_view::npos; ++field) cut = line.find(' ', cut + 1);
    const std::string_view four = line.substr(0, cut);
    out.write("fen", four);
    out.write("fen", std::string(four) + " 0 1");
    pos = end + 1;
  }
}

void split_pgn(Out& out, std::string_view text) {
  pgn::Diagnostics diags;
  diags.keep_per_kind(0);
  pgn::GameReader reader(text, diags);
  pgn::Game game;
  std::size_t begin = 0;
  for (std::size_t n = 0; n < kPerFile && reader.next(game); ++n) {
    out.write("pgn", text.substr(begin, game.byte_end - begin));
    begin = game.byte_end;
    std::string pgc;
    if (pgn::append_pgc(pgc, game, {.lossy = true})) out.write("pgc", pgc);
    if (const auto clm = pgn::write_chesslive(game, {.santags = true, .lossy = true})) out.write("chesslive", *clm);
  }
}

void san_seeds(Out& out) {
  for (std::size_t i = 0; i < fuzz::kSanPositions.size(); ++i) {
    const auto board = core::parse_fen(fuzz::kSanPositions[i].fen, {.chess960 = fuzz::kSanPositions[i].chess960});
    if (!board) continue;
    const std::string pick(1, static_cast<char>(i));
    for (const core::Move m : board->legal_moves()) {
      out.write("san", pick + core::to_san(*board, m));
      out.write("san", pick + core::to_lan(*board, m));
      out.write("san", pick + core::to_uci(m, core::uci_castling_for(*board)));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_seeds OUTDIR FILE...\n");
    return 2;
  }
  Out out{argv[1]};
  san_seeds(out);
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_seeds: cannot read %s\n", argv[i]);
      return 1;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (fs::path(argv[i]).extension() == ".pgn") split_pgn(out, text);
    else split_epd(out, text);
  }
  std::printf("fuzz_seeds: %zu seed files in %s\n", out.count, argv[1]);
  return 0;
}
