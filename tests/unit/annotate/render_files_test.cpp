// render_file over real PGN from ../shared/data with synthetic analyses (material counts): every
// comment text, NAG and variation of the input is still there, the main lines are equal, the
// evals are in python-chess's form, the NAGs are the oracle's, and pgn-extract reads the output.
#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "annotate/render.hpp"
#include "annotate/summary_report.hpp"
#include "annotate_oracle.hpp"
#include "core/notation.hpp"
#include "render_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

// The shared PGN files (../shared/data) the render tests read.
const std::vector<std::string> kSharedFiles = {
    "pgn/heavily-annotated.pgn", "pgn/lichess-eval-clk.pgn", "pgn/tcec-engine-comments.pgn",
    "pgn/chess960-cutechess.pgn", "pgn/kasparov-deep-blue-1997.pgn", "pgn/edge-cases/fischer.pgn",
    "pgn/edge-cases/najdorf.pgn", "pgn/edge-cases/nested-comment.pgn", "pgn/edge-cases/petrosian.pgn",
    "pgn/edge-cases/test-allownullmoves.pgn", "pgn/edge-cases/test-checkmate.pgn", "pgn/edge-cases/test-e.pgn",
    "pgn/edge-cases/test-fifty.pgn", "pgn/edge-cases/test-fixresulttags-in.pgn",
    "pgn/edge-cases/test-fuzzydepth.pgn", "pgn/edge-cases/test-long-line.pgn",
    "pgn/edge-cases/test-nagcomments.pgn", "pgn/edge-cases/test-nobadresults.pgn",
    "pgn/edge-cases/test-nomovenumbers.pgn", "pgn/edge-cases/test-promotion-in.pgn",
    "pgn/edge-cases/test-repetition.pgn", "pgn/edge-cases/test-setup-in.pgn",
    "pgn/edge-cases/test-splitvariants.pgn", "pgn/edge-cases/test-stalemate.pgn",
};

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
  const std::string name = GENERATE(from_range(kSharedFiles));
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

namespace {

// What a render gave: the text, and the summaries as the JSON shows them.
struct Pass {
  std::string pgn, json;
  annotate::AnnotatedFile file;
};

Pass summarized(annotate::AnnotatedFile file, std::string pgn, std::vector<annotate::GameSummary> games) {
  file.games = std::move(games);
  Pass p{std::move(pgn), annotate::summary_json(file, "e", "l"), std::move(file)};
  return p;
}

// `text` judged from its own evaluations: by render_file after scan_games (the job's way), and by
// render_stream (a one-shot run's), read in parts of at most 64 KB; `kept` gets the lines
// render_stream said were kept, as it said them.
std::pair<Pass, Pass> both_ways(const std::string& text, const annotate::AnnotateOptions& o, std::vector<std::size_t>& kept,
                                std::size_t& largest) {
  std::vector<annotate::GameSummary> by_file, by_stream;
  const auto games = annotate::scan_games(text);
  auto file = annotate::render_file(text, games, [](std::size_t) { return annotate::PositionAnalyses{}; }, o, nullptr,
                                    [&](const annotate::GameSummary& g) { by_file.push_back(g); });
  const std::string file_pgn = file.pgn;
  const annotate::InputBytes parts{text.size(), [&](std::size_t offset, std::size_t length) {
                                     const std::string part = text.substr(std::min(offset, text.size()), length);
                                     largest = std::max(largest, part.size());
                                     return part;
                                   }};
  std::string streamed;
  auto stream = annotate::render_stream(
      parts, o, [&](std::string_view part) { streamed += part; },
      [&](const annotate::GameSummary& g) { by_stream.push_back(g); },
      [&](const annotate::InputGame& g) { kept.push_back(g.line); });
  return {summarized(std::move(file), file_pgn, std::move(by_file)),
          summarized(std::move(stream), std::move(streamed), std::move(by_stream))};
}

void check_same(const Pass& scanned, const Pass& streamed) {
  CHECK(streamed.pgn == scanned.pgn);
  CHECK(streamed.json == scanned.json);
  CHECK(streamed.file.kept == scanned.file.kept);
  CHECK(streamed.file.notes == scanned.file.notes);
  CHECK(streamed.file.evals_from_input == scanned.file.evals_from_input);
}

}  // namespace

// --evals-from-input only in a one-shot run renders without a scan before it (render_stream):
// it must write what the job's way writes (scan_games, then render_file), byte for byte, with the
// same summaries, games kept and notes. The inputs: each shared file annotated first (an
// [%eval] on every position, judgements and lines), then judged from those evaluations.
TEST_CASE("render_stream writes what render_file writes after scan_games", "[annotate][render][files]") {
  // Every shared file, and the large one, twic0920.pgn (its thousands of games read in parts).
  const std::string name = GENERATE(from_range(kSharedFiles), values<std::string>({"pgn/twic0920.pgn"}));
  INFO(name);
  const std::string input = test::read_file(test::shared_data(name));
  annotate::AnnotateOptions searched;
  searched.annotator = "epdd test";
  const std::string text =
      test::render(input, [&](const pgn::Game& g) { return material_analyses(g, searched); }, searched).file.pgn;
  annotate::AnnotateOptions o;
  o.annotator = "epdd, the input's evaluations";
  o.evals_from_input = annotate::AnnotateOptions::InputEvals::Only;
  o.position_nags = true;
  o.accuracy_tags = true;
  for (const std::string& source : {input, text}) {
    std::vector<std::size_t> kept;
    std::size_t largest = 0;
    const auto [scanned, streamed] = both_ways(source, o, kept, largest);
    check_same(scanned, streamed);
    std::vector<std::size_t> kept_lines;
    for (const auto& [line, why] : scanned.file.kept) kept_lines.push_back(line);
    CHECK(kept == kept_lines);
    CHECK(largest <= std::size_t{1} << 16);
  }
}

TEST_CASE("render_stream: games kept, a byte-order mark, text after the last game, a Latin-1 game", "[annotate][render]") {
  const std::string judged = "[White \"A\"]\n[Black \"B\"]\n\n{[%eval 0.20]} 1. e4 {[%eval 0.20]} e5 {[%eval 3.00]} 2. Nf3 {[%eval 3.00]} *\n\n";
  const std::string broken = "[White \"C\"]\n[Black \"D\"]\n\n1. e4 e5 2. Ke3 *\n\n";
  const std::string latin1 = "[White \"M\xFCller\"]\n[Black \"E\"]\n\n1. d4 {[%eval 0.10]} d5 {[%eval 2.50]} *\n\n";
  annotate::AnnotateOptions o;
  o.evals_from_input = annotate::AnnotateOptions::InputEvals::Only;
  for (const std::string& text : {"\xEF\xBB\xBF" + judged + broken + judged + "{ a comment after the last game",
                                  judged + broken + latin1, judged + judged}) {
    INFO(text);
    std::vector<std::size_t> kept;
    std::size_t largest = 0;
    const auto [scanned, streamed] = both_ways(text, o, kept, largest);
    check_same(scanned, streamed);
    const bool has_latin1 = text.find('\xFC') != std::string::npos;
    CHECK(kept == (text.find("Ke3") != std::string::npos ? std::vector<std::size_t>{6} : std::vector<std::size_t>{}));
    // One encoding for the output: a Latin-1 game anywhere makes every game's words ASCII.
    CHECK((streamed.pgn.find("->") != std::string::npos) == has_latin1);
    CHECK((streamed.pgn.find("\xE2\x86\x92") != std::string::npos) == !has_latin1);
  }
}

TEST_CASE("all_utf8 reads a character cut by a chunk's end whole", "[annotate][render]") {
  const auto parts = [](const std::string& text) {
    return annotate::InputBytes{text.size(), [&text](std::size_t offset, std::size_t length) {
                                  return text.substr(std::min(offset, text.size()), std::min<std::size_t>(length, 1 << 16));
                                }};
  };
  const std::string ascii((std::size_t{1} << 16) - 1, 'a');
  std::string two = ascii + "\xC3\xBC" + "b";                 // ü across the first chunk's end
  std::string three = ascii + "a" + std::string(65534, 'a') + "\xE2\x86\x92";  // → across the second's
  CHECK(annotate::all_utf8(parts(two)));
  CHECK(annotate::all_utf8(parts(three)));
  std::string cut = ascii + "\xE2\x86";                       // a character cut by the file's end
  std::string lone = ascii + "\xFC" + "b";                    // Latin-1's ü
  std::string late = std::string(200000, 'a') + "\xFC";
  CHECK_FALSE(annotate::all_utf8(parts(cut)));
  CHECK_FALSE(annotate::all_utf8(parts(lone)));
  CHECK_FALSE(annotate::all_utf8(parts(late)));
  const std::string empty;
  CHECK(annotate::all_utf8(parts(empty)));
}
