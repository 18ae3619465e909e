// render_file over real PGN from ../shared/data with synthetic analyses (material counts): every
// comment text, NAG and variation of the input is still there, the main lines are equal, the
// evals are in python-chess's form, the NAGs are the oracle's, and pgn-extract reads the output.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "annotate/render.hpp"
#include "annotate_oracle.hpp"
#include "core/notation.hpp"
#include "render_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

// Material from the side to move's point of view, in centipawns.
int material(const core::Board& b) {
  constexpr std::array<int, 5> kValue = {100, 300, 300, 500, 900};
  int score = 0;
  for (int t = 0; t < 5; ++t) {
    const auto pt = static_cast<core::PieceType>(t);
    score += kValue[static_cast<std::size_t>(t)] *
             (core::popcount(b.pieces(b.side_to_move(), pt)) - core::popcount(b.pieces(~b.side_to_move(), pt)));
  }
  return score;
}

// An analysis of every position the game needs: material as the score, the first legal moves
// as the line (three plies).
annotate::PositionAnalyses material_analyses(const pgn::Game& g, const annotate::AnnotateOptions& o) {
  const std::vector<core::Move> moves = g.mainline();
  annotate::PositionAnalyses out(moves.size() + 1);
  core::Board board = g.start;
  std::size_t made = 0;
  for (std::size_t ply : annotate::plies_to_analyse(g, o)) {
    for (; made < ply; ++made) board.make_move(moves[made]);
    core::Board line = board;
    std::vector<std::string> pv;
    for (int i = 0; i < 3 && line.count_legal() > 0; ++i) {
      const core::Move m = line.legal_moves()[0];
      pv.push_back(core::to_uci(m, core::uci_castling_for(line)));
      line.make_move(m);
    }
    out[ply] = test::analysis(core::Score::centipawns(material(board)), 10, pv);
  }
  return out;
}

// A comment without its [%eval] commands, white space made single, trimmed.
std::string without_eval(const std::string& c) {
  std::string s = std::regex_replace(c, test::oracle::eval_regex(), "");
  std::string out;
  for (char ch : s) {
    if (ch == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += ch;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::vector<std::string> comments_without_eval(const std::vector<std::string>& comments) {
  std::vector<std::string> out;
  for (const std::string& c : comments)
    if (std::string s = without_eval(c); !s.empty()) out.push_back(s);
  return out;
}

bool ours(const pgn::Annotation& a) {
  if (a.kind != pgn::Annotation::Kind::Comment) return false;
  // Compiled once: std::regex's compiler was most of this file's time under the sanitizers.
  static const std::regex judgement(R"(^\((-?\d+\.\d\d|Mate in \d+) → (-?\d+\.\d\d|Mate in \d+)\) )"
                                    R"((Inaccuracy|Mistake|Blunder|Checkmate is now unavoidable|Lost forced checkmate sequence)\.)"
                                    R"(( \S+ was best\.)?$)");
  return a.comment == "only move" || std::regex_match(a.comment, judgement);
}

// What follows a move with evals stripped from comments and empty comments dropped.
std::vector<pgn::Annotation> normalized(const std::vector<pgn::Annotation>& after) {
  std::vector<pgn::Annotation> out;
  for (pgn::Annotation a : after) {
    if (a.kind == pgn::Annotation::Kind::Comment) {
      a.comment = without_eval(a.comment);
      if (a.comment.empty()) continue;
    }
    out.push_back(std::move(a));
  }
  return out;
}

// The output's main line minus what annotate adds (evals, its comments, NAGs, variations after
// the input's) equals the input's: "" when it does, else where it does not.
std::string compare(const pgn::Game& in, const pgn::Game& out) {
  if (in.mainline() != out.mainline()) return "main lines differ";
  if (comments_without_eval(in.main.comments_before) != comments_without_eval(out.main.comments_before))
    return "comments before the first move differ";
  for (std::size_t i = 0; i < in.main.moves.size(); ++i) {
    const auto a = normalized(in.main.moves[i].after);
    auto b = normalized(out.main.moves[i].after);
    std::erase_if(b, ours);
    // `a` must be a subsequence of `b`; what `b` has beyond it: NAGs, and variations at the end.
    std::size_t j = 0;
    for (const pgn::Annotation& x : b) {
      if (j < a.size() && x == a[j]) ++j;
      else if (x.kind == pgn::Annotation::Kind::Comment) return "ply " + std::to_string(i + 1) + ": a comment was added: " + x.comment;
    }
    if (j != a.size()) return "ply " + std::to_string(i + 1) + ": an annotation of the input is missing";
  }
  if (in.result != out.result) return "results differ";
  return "";
}

// pgn-extract's complaints about a file (it exits 0 either way: its stderr is the verdict);
// nullopt when it is not installed.
std::optional<std::string> pgn_extract_errors(const std::string& text) {
  std::string exe;
  for (const char* p : {"/usr/bin/pgn-extract", "/usr/games/pgn-extract"})
    if (std::filesystem::exists(p)) exe = p;
  if (exe.empty()) return std::nullopt;
  test::TempDir dir;
  const auto file = dir.path() / "out.pgn";
  std::ofstream(file, std::ios::binary) << text;
  const std::string command = exe + " -s -o /dev/null " + file.string() + " 2>&1";
  std::string output;
  if (FILE* p = popen(command.c_str(), "r")) {
    std::array<char, 4096> buffer;
    while (std::size_t n = fread(buffer.data(), 1, buffer.size(), p)) output.append(buffer.data(), n);
    pclose(p);
  }
  return output;
}

// pgn-extract's complaint sentences: without the lines that say where, or name the game by its
// tags (export fills in "?" for an absent roster tag), which differ between input and output.
std::vector<std::string> verdict(const std::string& complaints) {
  std::vector<std::string> out;
  std::istringstream in(complaints);
  for (std::string line; std::getline(in, line);)
    if (line.find("Line number:") == std::string::npos && (line.ends_with('.') || line.starts_with("Warning")))
      out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("Real files annotated keep everything they had and read back clean", "[annotate][render][files]") {
  const std::string name = GENERATE(as<std::string>{}, "pgn/heavily-annotated.pgn", "pgn/lichess-eval-clk.pgn",
                                    "pgn/tcec-engine-comments.pgn", "pgn/chess960-cutechess.pgn",
                                    "pgn/kasparov-deep-blue-1997.pgn", "pgn/edge-cases/fischer.pgn",
                                    "pgn/edge-cases/najdorf.pgn", "pgn/edge-cases/nested-comment.pgn",
                                    "pgn/edge-cases/petrosian.pgn", "pgn/edge-cases/test-allownullmoves.pgn",
                                    "pgn/edge-cases/test-checkmate.pgn", "pgn/edge-cases/test-e.pgn",
                                    "pgn/edge-cases/test-fifty.pgn", "pgn/edge-cases/test-fixresulttags-in.pgn",
                                    "pgn/edge-cases/test-fuzzydepth.pgn", "pgn/edge-cases/test-long-line.pgn",
                                    "pgn/edge-cases/test-nagcomments.pgn", "pgn/edge-cases/test-nobadresults.pgn",
                                    "pgn/edge-cases/test-nomovenumbers.pgn", "pgn/edge-cases/test-promotion-in.pgn",
                                    "pgn/edge-cases/test-repetition.pgn", "pgn/edge-cases/test-setup-in.pgn",
                                    "pgn/edge-cases/test-splitvariants.pgn", "pgn/edge-cases/test-stalemate.pgn");
  INFO(name);
  const std::string text = test::read_file(test::shared_data(name));
  annotate::AnnotateOptions o;
  o.annotator = "epdd test";
  o.position_nags = true;
  const auto r = test::render(text, [&](const pgn::Game& g) { return material_analyses(g, o); }, o);
  pgn::Diagnostics diags;
  const auto input = pgn::read_games(text, diags);
  REQUIRE(r.read_back.size() == input.size());
  std::size_t annotated = 0, kept = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    INFO("game " << i + 1 << " line " << input[i].line);
    if (!r.games[i].readable) {
      ++kept;
      const std::string bytes = text.substr(r.games[i].begin, r.games[i].end - r.games[i].begin);
      CHECK(r.file.pgn.find(bytes) != std::string::npos);
      continue;
    }
    ++annotated;
    CHECK(compare(input[i], r.read_back[i]) == "");
    // The oracle's NAGs where our NAG is the only assessment (the input had none there).
    const auto expected = test::oracle::expected_nags(r.read_back[i], {});
    const auto written = test::oracle::written_nags(r.read_back[i]);
    const auto before = test::oracle::written_nags(input[i]);
    for (std::size_t p = 0; p < written.size(); ++p)
      if (before[p] == 0 && expected[p] && !input[i].main.moves[p].move.is_null()) CHECK(written[p] == *expected[p]);
  }
  CHECK(r.file.kept.size() == kept);
  CHECK(annotated + kept == input.size());
  const bool has_null = std::any_of(input.begin(), input.end(), [](const pgn::Game& g) {
    return std::any_of(g.main.moves.begin(), g.main.moves.end(), [](const pgn::MoveNode& n) { return n.move.is_null(); });
  });
  // A game written back verbatim has the errors it had: the readers' verdicts are for files
  // where every game was annotated (all but nested-comment.pgn, whose one game is kept).
  if (kept > 0) return;
  CHECK(r.read_back_errors == 0);
  if (!has_null) CHECK(test::oracle::eval_form_problems(r.file.pgn) == std::vector<std::string>{});
  // pgn-extract says nothing about the output that it does not say about the input (a null
  // move in a main line, a result that contradicts the final position are the input's own).
  if (const auto complaints = pgn_extract_errors(r.file.pgn)) CHECK(verdict(*complaints) == verdict(*pgn_extract_errors(text)));
  else WARN("pgn-extract is not installed: its check was skipped");
}

// A file of many games is read a part at a time, never whole: by scan_games and by render_file.
// The games found read as the reader over the whole text in memory reads them (the oracle).
TEST_CASE("scan_games and render_file read the input in parts of at most 64 KB", "[annotate][render]") {
  const auto name = GENERATE(as<std::string>{}, "pgn/twic0920.pgn", "pgn/tcec-engine-comments.pgn",
                             "pgn/edge-cases/test-long-line.pgn");
  INFO(name);
  const std::string text = test::read_file(test::shared_data(name));
  std::size_t largest = 0, reads = 0;
  const annotate::InputBytes parts{text.size(), [&](std::size_t offset, std::size_t length) {
                                     ++reads;
                                     REQUIRE(offset <= text.size());
                                     const std::string part = text.substr(offset, length);
                                     largest = std::max(largest, part.size());
                                     return part;
                                   }};
  const auto games = annotate::scan_games(parts);
  pgn::Diagnostics diags;
  const auto input = pgn::read_games(text, diags);
  REQUIRE(games.size() == input.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    INFO("game " << i + 1);
    CHECK(games[i].number == input[i].number);
    CHECK(games[i].line == input[i].line);
    CHECK(games[i].end == std::max(input[i].byte_end, games[i].begin));
    if (games[i].readable) CHECK(games[i].plies == input[i].main.moves.size());
  }
  std::size_t written = 0;
  const auto file = annotate::render_file(parts, games, [](std::size_t) { return annotate::PositionAnalyses{}; }, {},
                                          [&](std::string_view part) { written += part.size(); });
  CHECK(file.pgn.empty());
  CHECK(written > 0);
  CHECK(reads > 2);
  CHECK(largest <= std::size_t{1} << 16);
}
