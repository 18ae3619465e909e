// fuzz_seeds OUTDIR FILE...: splits shared data (read in place) into small seed files, one
// folder per fuzz target: every EPD line a seed of epd (and its position of fen), every PGN
// game a seed of pgn and, written by epdd's own writers, of pgc and chesslive; each fixed
// position's legal moves (SAN, LAN, UCI) seeds of san. A *.toml file (examples/epdd.toml) is a
// seed of toml, its [spool] job keys one of sidecar; every raw string R"(...)" of a *.cpp file
// (the TOML of the configuration tests) a seed of toml. Job JSON for jobjson is written by
// epdd's own writers (spec_to_json, request_to_json, analysis_to_json) from a few jobs made
// here. At most kPerFile seeds per file and target, so that a 30-second run still gets through
// its corpus. (tools/fuzz.sh captures the uci seeds from real engines.)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "daemon/job_spec.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"
#include "san_positions.hpp"
#include "store/analysis_json.hpp"

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

// The whole file a seed of toml; its [spool] table's job keys (not where the spool is) a
// sidecar.
void split_toml(Out& out, std::string_view text) {
  out.write("toml", text);
  std::string sidecar;
  bool in_spool = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    if (line.starts_with('[')) in_spool = line.starts_with("[spool]");
    else if (in_spool && !line.starts_with("directory") && !line.starts_with("settle_seconds"))
      (sidecar += line) += '\n';
    pos = end + 1;
  }
  if (!sidecar.empty()) out.write("sidecar", sidecar);
}

// Every raw string literal R"(...)" of a C++ source: the TOML documents of the tests.
void split_raw_strings(Out& out, std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = text.find("R\"("); pos != std::string_view::npos && n < kPerFile; ++n) {
    const std::size_t end = text.find(")\"", pos + 3);
    if (end == std::string_view::npos) break;
    out.write("toml", text.substr(pos + 3, end - pos - 3));
    pos = text.find("R\"(", end);
  }
}

// Job JSON as the store keeps it, written by epdd's writers.
void json_seeds(Out& out) {
  daemon::JobSpec analyse;
  analyse.input = "suites/wac.epd";
  analyse.engine = "stockfish";
  analyse.limits.movetime_ms = 1000;
  out.write("jobjson", daemon::spec_to_json(analyse));
  daemon::JobSpec suite = analyse;
  suite.kind = "suite";
  suite.limits = {.depth = 20, .nodes = 100000, .movetime_ms = 1000, .mate = 3, .stop_after_ms = 500};
  suite.multipv = 3;
  suite.new_game = uci::NewGame::Keep;
  suite.keep_existing = suite.chess960 = suite.ce_for_white = suite.keep_keys = suite.counters_as_operations = true;
  suite.output = "/abs/out.epd";
  suite.report = "/abs/out.txt";
  suite.json = "/abs/out.json";
  suite.spool = daemon::SpoolOrigin{"/abs/spool", "wac.epd", true};
  suite.host = "box-a";
  out.write("jobjson", daemon::spec_to_json(suite));
  daemon::JobSpec annotate = analyse;
  annotate.kind = "annotate";
  annotate.input = "games.pgn";
  annotate.more_inputs = {"b.bin", "c.epd"};
  annotate.options = {{"judge", "lichess"}, {"from_ply", "1"}, {"side", "white"}};
  out.write("jobjson", daemon::spec_to_json(annotate));

  uci::AnalysisRequest request;
  request.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  request.moves = {"e7e5", "g1f3"};
  request.limits.nodes = 100000;
  request.multipv = 2;
  request.searchmoves = {"b8c6"};
  out.write("jobjson", daemon::request_to_json(request));
  request.chess960 = true;
  request.new_game = uci::NewGame::Keep;
  request.limits = {.depth = 12, .stop_after_ms = 300};
  out.write("jobjson", daemon::request_to_json(request));

  uci::Analysis analysis;
  analysis.engine = "Stockfish 15.1";
  analysis.bestmove = "e2e4";
  analysis.ponder = "e7e5";
  analysis.depth = 12;
  analysis.nodes = 81234;
  analysis.time_ms = 89;
  analysis.lines.push_back({.multipv = 1, .depth = 12, .seldepth = 18, .score = core::Score::centipawns(31),
                            .wdl = uci::Wdl{60, 920, 20}, .nodes = 81234, .time_ms = 89, .pv = {"e2e4", "e7e5"}});
  analysis.lines.push_back({.multipv = 2, .depth = 12, .score = core::Score::from_uci_mate(3), .nodes = 81234,
                            .time_ms = 89, .pv = {"d2d4"}, .pv_cut = "illegal move x9"});
  analysis.iterations.push_back({.depth = 1, .nodes = 20, .time_ms = 1, .score = core::Score::centipawns(5), .move = "d2d4"});
  analysis.iterations.push_back({.depth = 7, .nodes = 900, .time_ms = 9, .score = core::Score::centipawns(31), .move = "e2e4"});
  analysis.stopped = true;
  analysis.limit_stop = "engine ignores go nodes";
  analysis.problems = {"a problem"};
  out.write("jobjson", store::analysis_to_json(analysis));
  out.write("jobjson", store::analysis_to_json(uci::Analysis{}));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: fuzz_seeds OUTDIR FILE...\n");
    return 2;
  }
  Out out{argv[1]};
  san_seeds(out);
  json_seeds(out);
  for (int i = 2; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "fuzz_seeds: cannot read %s\n", argv[i]);
      return 1;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path extension = fs::path(argv[i]).extension();
    if (extension == ".pgn") split_pgn(out, text);
    else if (extension == ".toml") split_toml(out, text);
    else if (extension == ".cpp") split_raw_strings(out, text);
    else split_epd(out, text);
  }
  std::printf("fuzz_seeds: %zu seed files in %s\n", out.count, argv[1]);
  return 0;
}
