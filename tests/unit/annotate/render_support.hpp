// Helpers of the render tests: hand-made analyses and one call that scans and renders.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "annotate/render.hpp"
#include "pgn/reader.hpp"

namespace epdd::test {

// An analysis whose line 1 has `score` (from the side to move) and `pv` (UCI), at `depth`.
inline uci::Analysis analysis(core::Score score, int depth, std::vector<std::string> pv = {}) {
  uci::Analysis a;
  uci::PvLine line;
  line.score = score;
  line.depth = depth;
  line.pv = std::move(pv);
  a.lines.push_back(line);
  a.depth = depth;
  return a;
}

inline core::Score cp(int v) { return core::Score::centipawns(v); }
inline core::Score mate(int plies) { return core::Score::mate_in_plies(plies); }

// Game `index` (0-based) of `text` as the reader reads it: what a render test builds analyses
// from (annotate keeps no game's moves; it reads them again as it needs them).
inline pgn::Game game_of(const std::string& text, std::size_t index) {
  pgn::Diagnostics diags;
  return pgn::read_games(text, diags).at(index);
}

struct Rendered {
  std::vector<annotate::InputGame> games;
  annotate::AnnotatedFile file;
  std::vector<pgn::Game> read_back;  // the output read again
  std::size_t read_back_errors = 0;
};

// Scans and renders `text`; `of(game)` gives a game's analyses (the game as the reader reads it).
inline Rendered render(const std::string& text, const std::function<annotate::PositionAnalyses(const pgn::Game&)>& of,
                       const annotate::AnnotateOptions& options = {}) {
  Rendered r;
  r.games = annotate::scan_games(text);
  pgn::Diagnostics input_diags;
  const std::vector<pgn::Game> input = pgn::read_games(text, input_diags);
  r.file = annotate::render_file(text, r.games, [&](std::size_t i) { return of(input.at(i)); }, options);
  pgn::Diagnostics diags;
  r.read_back = pgn::read_games(r.file.pgn, diags);
  r.read_back_errors = diags.count(pgn::Severity::Error);
  return r;
}

// The same analyses for every game.
inline std::function<annotate::PositionAnalyses(const pgn::Game&)> always(annotate::PositionAnalyses a) {
  return [a = std::move(a)](const pgn::Game&) { return a; };
}

// The movetext of the first game of `pgn` (after the tags' blank line), newlines as spaces.
inline std::string movetext(const std::string& pgn) {
  const std::size_t start = pgn.find("\n\n");
  std::string m = pgn.substr(start + 2);
  const std::size_t end = m.find("\n\n");
  m = m.substr(0, end);
  for (char& c : m)
    if (c == '\n') c = ' ';
  return m;
}

}  // namespace epdd::test
