// `epdd perft`: checks move generation against known perft counts.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace epdd::cli {

struct PerftOptions {
  // Perft files: one position a line (FEN or EPD's four fields) followed by ";Dn count" items.
  // None and no fen: the built-in suite.
  std::vector<std::string> files;
  std::optional<std::string> fen;  // one position instead of files
  int depth = 0;                   // with fen: the depth to count
  int max_depth = 0;               // with files: check counts up to this depth (0: all)
  unsigned jobs = 1;               // positions counted in parallel
  bool chess960 = false;           // KQkq castling letters mean X-FEN (outermost rooks)
  bool divide = false;             // with fen: the count below each legal move
};

// Exit status: 0 every count matched, 1 a mismatch or a malformed line, 2 a file could not be read.
int run_perft(const PerftOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
