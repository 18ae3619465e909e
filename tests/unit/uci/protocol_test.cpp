// The UCI codec against real engine output (Debian 12's Stockfish 15.1, Ethereal 12.00,
// Fairy-Stockfish 11.1, Toga II 3.0 and Glaurung 2.2, captured as the comments say) and against
// the garbage an engine or a broken pipe can produce.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "uci/protocol.hpp"

// The tables below spell each expected message with designated initializers and leave out the
// fields that stay default; GCC 12 warns about exactly that (-Wextra), so not in this file.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace {

using namespace epdd::uci;
using namespace std::string_view_literals;

// ---- captured `uci` output -------------------------------------------------------------------

// `printf 'uci\nquit\n' | /usr/games/stockfish` (Debian 12 package stockfish).
const std::vector<std::string_view> kStockfish151 = {
    "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)",
    "id name Stockfish 15.1",
    "id author the Stockfish developers (see AUTHORS file)",
    "",
    "option name Debug Log File type string default ",
    "option name Threads type spin default 1 min 1 max 1024",
    "option name Hash type spin default 16 min 1 max 33554432",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Slow Mover type spin default 100 min 10 max 1000",
    "option name nodestime type spin default 0 min 0 max 10000",
    "option name UCI_Chess960 type check default false",
    "option name UCI_AnalyseMode type check default false",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    "option name UCI_ShowWDL type check default false",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
    "option name Syzygy50MoveRule type check default true",
    "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    "option name Use NNUE type check default true",
    "option name EvalFile type string default nn-ad9b42354671.nnue",
    "uciok",
};

// `printf 'uci\nquit\n' | /usr/games/ethereal-chess` (Debian 12 package ethereal-chess).
const std::vector<std::string_view> kEthereal12 = {
    "id name Ethereal 12.00",
    "id author Andrew Grant, Alayan & Laldon",
    "option name Hash type spin default 16 min 2 max 65536",
    "option name Threads type spin default 1 min 1 max 2048",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name ContemptDrawPenalty type spin default 12 min -300 max 300",
    "option name ContemptComplexity type spin default 12 min -100 max 100",
    "option name MoveOverhead type spin default 100 min 0 max 10000",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 0 min 0 max 127",
    "option name Ponder type check default false",
    "option name UCI_Chess960 type check default false",
    "uciok",
};

// `printf 'uci\nquit\n' | /usr/games/fairy-stockfish` (Debian 12 package fairy-stockfish).
const std::vector<std::string_view> kFairyStockfish111 = {
    "Fairy-Stockfish 11.1 LB 64 by Fabian Fichter",
    "id name Fairy-Stockfish 11.1 LB 64",
    "id author Fabian Fichter",
    "",
    "option name Protocol type combo default uci var uci var usi var ucci var xboard",
    "option name Debug Log File type string default ",
    "option name Contempt type spin default 24 min -100 max 100",
    "option name Analysis Contempt type combo default Both var Both var Off var White var Black",
    "option name Threads type spin default 1 min 1 max 512",
    "option name Hash type spin default 16 min 1 max 131072",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name Skill Level type spin default 20 min -20 max 20",
    "option name Move Overhead type spin default 30 min 0 max 5000",
    "option name Minimum Thinking Time type spin default 20 min 0 max 5000",
    "option name Slow Mover type spin default 84 min 10 max 1000",
    "option name nodestime type spin default 0 min 0 max 10000",
    "option name UCI_Chess960 type check default false",
    "option name UCI_Variant type combo default chess var 3check var 5check var ai-wok var "
    "almost var amazon var antichess var asean var breakthrough var bughouse var cambodian "
    "var capablanca var capahouse var caparandom var centaur var chancellor var chess var "
    "chessgi var chigorin var clobber var clobber10 var codrus var courier var crazyhouse "
    "var dobutsu var embassy var euroshogi var extinction var fairy var fischerandom var "
    "gardner var giveaway var gorogoro var gothic var grand var hoppelpoppel var horde var "
    "janggi var janggicasual var janggimodern var janggitraditional var janus var jesonmor "
    "var judkins var karouk var kinglet var kingofthehill var knightmate var koedem var "
    "kyotoshogi var loop var losalamos var losers var makpong var makruk var manchu var "
    "micro var mini var minishogi var minixiangqi var modern var newzealand var nocastle var "
    "normal var placement var pocketknight var racingkings var seirawan var shako var shatar "
    "var shatranj var shogi var shouse var sittuyin var suicide var supply var threekings "
    "var xiangqi",
    "option name UCI_AnalyseMode type check default false",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    "option name SyzygyPath type string default <empty>",
    "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
    "option name Syzygy50MoveRule type check default true",
    "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    "option name TsumeMode type check default false",
    "option name VariantPath type string default <empty>",
    "uciok",
};

// `printf 'uci\nquit\n' | /usr/games/toga2` (Debian 12 package toga2).
const std::vector<std::string_view> kToga2 = {
    "Toga II 3.0 UCI based on Fruit 2.1 by Thomas Gaksch, Fabien Letouzey and Jerry Donald. "
    "Settings by Dieter Eberle",
    "Code was based on Toga II 1.4.1SE by Thomas Gaksch and Chris Formula, with bugfixes by "
    "Michel van den Bergh",
    "EgbbProbe not Loaded!",
    "id name Toga II 3.0",
    "id author Thomas Gaksch and Fabien Letouzey",
    "option name Hash type spin default 128 min 4 max 1024",
    "option name Search Time type spin default 0 min 0 max 3600",
    "option name Search Depth type spin default 0 min 0 max 20",
    "option name Ponder type check default false",
    "option name OwnBook type check default true",
    "option name BookFile type string default performance.bin",
    "option name Bitbases Path type string default /usr/share/egbb/",
    "option name Bitbases Cache Size type spin default 16 min 16 max 1024",
    "option name MultiPV type spin default 1 min 1 max 10",
    "option name NullMove Pruning type combo default Always var Always var Fail High var Never",
    "option name NullMove Reduction type spin default 3 min 1 max 4",
    "option name Verification Search type combo default Always var Always var Endgame var Never",
    "option name Verification Reduction type spin default 5 min 1 max 6",
    "option name History Pruning type check default true",
    "option name History Threshold type spin default 70 min 0 max 100",
    "option name Futility Pruning type check default true",
    "option name Futility Margin type spin default 100 min 0 max 500",
    "option name Extended Futility Margin type spin default 200 min 0 max 900",
    "option name Delta Pruning type check default true",
    "option name Delta Margin type spin default 50 min 0 max 500",
    "option name Quiescence Check Plies type spin default 1 min 0 max 2",
    "option name Material type spin default 100 min 0 max 400",
    "option name Piece Activity type spin default 100 min 0 max 400",
    "option name Piece Square Activity type spin default 100 min 0 max 400",
    "option name King Safety type spin default 100 min 0 max 400",
    "option name Pawn Structure type spin default 100 min 0 max 400",
    "option name Passed Pawns type spin default 100 min 0 max 400",
    "option name Toga Lazy Eval type check default true",
    "option name Toga Lazy Eval Margin type spin default 200 min 0 max 900",
    "option name Toga Lazy Eval Mobility Margin type spin default 125 min 0 max 900",
    "option name Toga King Pawn Endgame Bonus type spin default 30 min 0 max 100",
    "option name Toga Rook Pawn Endgame Penalty type spin default 10 min 0 max 100",
    "option name Number of Threads type spin default 1 min 1 max 16",
    "uciok",
};

// `printf 'uci\nquit\n' | /usr/games/glaurung` (Debian 12 package glaurung).
const std::vector<std::string_view> kGlaurung22 = {
    "Glaurung 2.2.  Copyright (C) 2004-2008 Tord Romstad.",
    "id name Glaurung 2.2",
    "id author Tord Romstad",
    "option name Use Search Log type check default false",
    "option name Search Log Filename type string default SearchLog.txt",
    "option name Book File type string default book.bin",
    "option name Mobility (Middle Game) type spin default 100 min 0 max 200",
    "option name Mobility (Endgame) type spin default 100 min 0 max 200",
    "option name Pawn Structure (Middle Game) type spin default 100 min 0 max 200",
    "option name Pawn Structure (Endgame) type spin default 100 min 0 max 200",
    "option name Passed Pawns (Middle Game) type spin default 100 min 0 max 200",
    "option name Passed Pawns (Endgame) type spin default 100 min 0 max 200",
    "option name Space type spin default 100 min 0 max 200",
    "option name Aggressiveness type spin default 100 min 0 max 200",
    "option name Cowardice type spin default 100 min 0 max 200",
    "option name King Safety Curve type combo default Quadratic var Quadratic var Linear",
    "option name King Safety Coefficient type spin default 40 min 1 max 100",
    "option name King Safety X Intercept type spin default 0 min 0 max 20",
    "option name King Safety Max Slope type spin default 30 min 10 max 100",
    "option name King Safety Max Value type spin default 500 min 100 max 1000",
    "option name Queen Contact Check Bonus type spin default 3 min 0 max 8",
    "option name Queen Check Bonus type spin default 2 min 0 max 4",
    "option name Rook Check Bonus type spin default 1 min 0 max 4",
    "option name Bishop Check Bonus type spin default 1 min 0 max 4",
    "option name Knight Check Bonus type spin default 1 min 0 max 4",
    "option name Discovered Check Bonus type spin default 3 min 0 max 8",
    "option name Mate Threat Bonus type spin default 3 min 0 max 8",
    "option name Check Extension (PV nodes) type spin default 2 min 0 max 2",
    "option name Check Extension (non-PV nodes) type spin default 1 min 0 max 2",
    "option name Single Reply Extension (PV nodes) type spin default 2 min 0 max 2",
    "option name Single Reply Extension (non-PV nodes) type spin default 2 min 0 max 2",
    "option name Mate Threat Extension (PV nodes) type spin default 0 min 0 max 2",
    "option name Mate Threat Extension (non-PV nodes) type spin default 0 min 0 max 2",
    "option name Pawn Push to 7th Extension (PV nodes) type spin default 1 min 0 max 2",
    "option name Pawn Push to 7th Extension (non-PV nodes) type spin default 1 min 0 max 2",
    "option name Passed Pawn Extension (PV nodes) type spin default 1 min 0 max 2",
    "option name Passed Pawn Extension (non-PV nodes) type spin default 0 min 0 max 2",
    "option name Pawn Endgame Extension (PV nodes) type spin default 2 min 0 max 2",
    "option name Pawn Endgame Extension (non-PV nodes) type spin default 2 min 0 max 2",
    "option name Full Depth Moves (PV nodes) type spin default 14 min 1 max 100",
    "option name Full Depth Moves (non-PV nodes) type spin default 3 min 1 max 100",
    "option name Threat Depth type spin default 5 min 0 max 100",
    "option name Selective Plies type spin default 7 min 0 max 10",
    "option name Futility Pruning (Main Search) type check default true",
    "option name Futility Pruning (Quiescence Search) type check default true",
    "option name Futility Margin 0 type spin default 50 min 0 max 1000",
    "option name Futility Margin 1 type spin default 100 min 0 max 1000",
    "option name Futility Margin 2 type spin default 200 min 0 max 1000",
    "option name Maximum Razoring Depth type spin default 3 min 0 max 4",
    "option name Razoring Margin type spin default 300 min 150 max 600",
    "option name Randomness type spin default 0 min 0 max 10",
    "option name Minimum Split Depth type spin default 4 min 4 max 7",
    "option name Maximum Number of Threads per Split Point type spin default 5 min 4 max 8",
    "option name Threads type spin default 2 min 1 max 8",
    "option name Hash type spin default 32 min 4 max 4096",
    "option name Clear Hash type button",
    "option name Ponder type check default true",
    "option name OwnBook type check default true",
    "option name MultiPV type spin default 1 min 1 max 500",
    "option name UCI_ShowCurrLine type check default false",
    "option name UCI_Chess960 type check default false",
    "uciok",
};

struct Engine {
  std::string_view name;
  const std::vector<std::string_view>* lines;
  std::size_t options;  // how many `option` lines the capture holds
};

const std::vector<Engine> kEngines = {
    {"Stockfish 15.1", &kStockfish151, 21},  {"Ethereal 12.00", &kEthereal12, 10},
    {"Fairy-Stockfish 11.1", &kFairyStockfish111, 25}, {"Toga II 3.0", &kToga2, 33},
    {"Glaurung 2.2", &kGlaurung22, 58},
};

// `info` lines the same engines printed while searching (go depth / movetime, MultiPV 2,
// UCI_ShowWDL, UCI_ShowCurrLine). Ethereal ends each line with a space.
const std::vector<std::string_view> kRealInfoLines = {
    "info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
    "info depth 1 seldepth 1 multipv 1 score cp -23 wdl 3 969 28 nodes 41 nps 20500 hashfull 0 "
    "tbhits 0 time 2 pv c7c5",
    "info depth 6 seldepth 4 multipv 2 score cp -50 wdl 1 899 100 nodes 1670 nps 417500 "
    "hashfull 0 tbhits 0 time 4 pv b8c6 d2d4 e7e5",
    "info depth 0 score cp 0",
    "info depth 1 seldepth 1 multipv 1 score mate 1 nodes 20 nps 20000 hashfull 0 tbhits 0 time "
    "1 pv a1a8",
    "info depth 25 currmove e2e4 currmovenumber 2",
    "info depth 1 seldepth 1 multipv 1 score cp 6 time 0 nodes 5 nps 5000 tbhits 0 hashfull 0 pv "
    "g8f6 ",
    "info depth 18 seldepth 30 multipv 1 score cp 66 lowerbound time 2724 nodes 4394439 nps "
    "1612000 tbhits 0 hashfull 625 pv b5a4 ",
    "info string set MultiPV to 2",
    "info depth 6 seldepth 6 multipv 2 score cp -23 nodes 3015 nps 376875 tbhits 0 time 8 pv "
    "b8c6 e4e5 e7e6 d2d4 d7d5 c2c3",
    "info multipv 1 depth 5 seldepth 12 score cp -17 upperbound time 4 nodes 4660 pv g8f6 e4e5 "
    "f6e4 b1c3 d7d5 c3e4",
    "info depth 3 seldepth 11 time 2 nodes 1350 nps 0",
    "info depth 4",
    "info time 11 nodes 16414 nps 0 cpuload 860",
    "info hashfull 1",
    "info currmove d2d4 currmovenumber 2",
    "info multipv 1 score cp -58 depth 2 time 3 nodes 83 nps 27666 pv b8c6 d2d4 ",
    "info nodes 13034 nps 1448222 time 9 hashfull 0",
    "info currline 1 e2e4 d7d6 b1c3 b8c6 d2d4 g8f6 g1f3 a7a5 f1d3 d6d5 e4d5 c6b4 0000 b4d3 d1d3 "
    "f6d5 c3d5",
};

// The message as a T, by value: the tables call it on a temporary.
template <class T>
T as(const EngineMessage& message) {
  REQUIRE(std::holds_alternative<T>(message));
  return std::get<T>(message);
}

void require_same(const OptionLine& got, const OptionLine& want) {
  CHECK(got.name == want.name);
  CHECK(to_string(got.type) == std::string(to_string(want.type)));
  CHECK(got.default_value == want.default_value);
  CHECK(got.min == want.min);
  CHECK(got.max == want.max);
  CHECK(got.vars == want.vars);
}

void require_same(const Info& got, const Info& want) {
  CHECK(got.depth == want.depth);
  CHECK(got.seldepth == want.seldepth);
  CHECK(got.multipv == want.multipv);
  REQUIRE(got.score.has_value() == want.score.has_value());
  if (want.score) {
    CHECK(got.score->kind == want.score->kind);
    CHECK(got.score->value == want.score->value);
    CHECK(to_string(got.score->bound) == std::string(to_string(want.score->bound)));
  }
  REQUIRE(got.wdl.has_value() == want.wdl.has_value());
  if (want.wdl) {
    CHECK(got.wdl->win == want.wdl->win);
    CHECK(got.wdl->draw == want.wdl->draw);
    CHECK(got.wdl->loss == want.wdl->loss);
  }
  CHECK(got.nodes == want.nodes);
  CHECK(got.nps == want.nps);
  CHECK(got.time_ms == want.time_ms);
  CHECK(got.hashfull == want.hashfull);
  CHECK(got.tbhits == want.tbhits);
  CHECK(got.currmove == want.currmove);
  CHECK(got.currmovenumber == want.currmovenumber);
  CHECK(got.cpuload == want.cpuload);
  CHECK(got.pv == want.pv);
  CHECK(got.refutation == want.refutation);
  CHECK(got.currline == want.currline);
  CHECK(got.string == want.string);
  CHECK(got.unknown == want.unknown);
  CHECK(got.malformed == want.malformed);
}

InfoScore cp(int value, Bound bound = Bound::Exact) { return {InfoScore::Kind::Centipawns, value, bound}; }
InfoScore mate(int value, Bound bound = Bound::Exact) { return {InfoScore::Kind::Mate, value, bound}; }

using Moves = std::vector<std::string>;

}  // namespace

// ---- whole engines -------------------------------------------------------------------------

TEST_CASE("protocol: every line of real engines' uci output parses to its kind", "[uci]") {
  const Engine engine = GENERATE(from_range(kEngines));
  CAPTURE(engine.name);
  std::size_t options = 0, ids = 0, uciok = 0;
  for (const std::string_view line : *engine.lines) {
    CAPTURE(line);
    const EngineMessage message = parse_engine_line(line);
    if (line.rfind("option ", 0) == 0) {
      const auto option = as<OptionLine>(message);
      CHECK_FALSE(option.name.empty());
      // The name is the text between "name " and " type ", as the engine wrote it.
      const std::size_t type_at = line.find(" type ");
      CHECK(option.name == line.substr(12, type_at - 12));
      if (option.type == OptionType::Spin) {
        CHECK(option.min.has_value());
        CHECK(option.max.has_value());
        CHECK(option.default_value.has_value());
      }
      if (option.type == OptionType::Combo) {
        REQUIRE(option.default_value.has_value());
        CHECK(std::find(option.vars.begin(), option.vars.end(), *option.default_value) != option.vars.end());
      }
      ++options;
    } else if (line.rfind("id ", 0) == 0) {
      CHECK_FALSE(as<IdLine>(message).value.empty());
      ++ids;
    } else if (line == "uciok") {
      as<UciOk>(message);
      ++uciok;
    } else {
      CHECK(as<OtherLine>(message).text == line);
    }
  }
  CHECK(options == engine.options);
  CHECK(ids == 2);
  CHECK(uciok == 1);
}

TEST_CASE("protocol: real option lines keep names, defaults and vars as the engine wrote them", "[uci]") {
  struct Case {
    std::string_view line;
    OptionLine want;
  };
  const Case c = GENERATE(values<Case>({
      {"option name Debug Log File type string default ",
       {.name = "Debug Log File", .type = OptionType::String, .default_value = ""}},
      {"option name Threads type spin default 1 min 1 max 1024",
       {.name = "Threads", .type = OptionType::Spin, .default_value = "1", .min = 1, .max = 1024}},
      {"option name Hash type spin default 16 min 1 max 33554432",
       {.name = "Hash", .type = OptionType::Spin, .default_value = "16", .min = 1, .max = 33554432}},
      {"option name Clear Hash type button", {.name = "Clear Hash", .type = OptionType::Button}},
      {"option name Ponder type check default false",
       {.name = "Ponder", .type = OptionType::Check, .default_value = "false"}},
      {"option name Skill Level type spin default 20 min 0 max 20",
       {.name = "Skill Level", .type = OptionType::Spin, .default_value = "20", .min = 0, .max = 20}},
      {"option name UCI_LimitStrength type check default false",
       {.name = "UCI_LimitStrength", .type = OptionType::Check, .default_value = "false"}},
      {"option name SyzygyPath type string default <empty>",
       {.name = "SyzygyPath", .type = OptionType::String, .default_value = "<empty>"}},
      {"option name EvalFile type string default nn-ad9b42354671.nnue",
       {.name = "EvalFile", .type = OptionType::String, .default_value = "nn-ad9b42354671.nnue"}},
      {"option name ContemptDrawPenalty type spin default 12 min -300 max 300",
       {.name = "ContemptDrawPenalty", .type = OptionType::Spin, .default_value = "12", .min = -300, .max = 300}},
      {"option name Skill Level type spin default 20 min -20 max 20",
       {.name = "Skill Level", .type = OptionType::Spin, .default_value = "20", .min = -20, .max = 20}},
      {"option name Analysis Contempt type combo default Both var Both var Off var White var Black",
       {.name = "Analysis Contempt",
        .type = OptionType::Combo,
        .default_value = "Both",
        .vars = {"Both", "Off", "White", "Black"}}},
      {"option name NullMove Pruning type combo default Always var Always var Fail High var Never",
       {.name = "NullMove Pruning",
        .type = OptionType::Combo,
        .default_value = "Always",
        .vars = {"Always", "Fail High", "Never"}}},
      {"option name Bitbases Path type string default /usr/share/egbb/",
       {.name = "Bitbases Path", .type = OptionType::String, .default_value = "/usr/share/egbb/"}},
      {"option name Mobility (Middle Game) type spin default 100 min 0 max 200",
       {.name = "Mobility (Middle Game)", .type = OptionType::Spin, .default_value = "100", .min = 0, .max = 200}},
      {"option name Check Extension (non-PV nodes) type spin default 1 min 0 max 2",
       {.name = "Check Extension (non-PV nodes)",
        .type = OptionType::Spin,
        .default_value = "1",
        .min = 0,
        .max = 2}},
      {"option name King Safety Curve type combo default Quadratic var Quadratic var Linear",
       {.name = "King Safety Curve",
        .type = OptionType::Combo,
        .default_value = "Quadratic",
        .vars = {"Quadratic", "Linear"}}},
  }));
  CAPTURE(c.line);
  require_same(as<OptionLine>(parse_engine_line(c.line)), c.want);
}

TEST_CASE("protocol: Fairy-Stockfish's UCI_Variant combo keeps all its vars in order", "[uci]") {
  const OptionLine* variant = nullptr;
  std::vector<OptionLine> options;
  for (const std::string_view line : kFairyStockfish111) {
    const EngineMessage m = parse_engine_line(line);
    if (const auto* o = std::get_if<OptionLine>(&m)) options.push_back(*o);
  }
  for (const auto& o : options)
    if (o.name == "UCI_Variant") variant = &o;
  REQUIRE(variant != nullptr);
  CHECK(variant->type == OptionType::Combo);
  CHECK(variant->default_value == "chess");
  REQUIRE(variant->vars.size() == 77);
  CHECK(variant->vars.front() == "3check");
  CHECK(variant->vars.back() == "xiangqi");
}

// ---- option grammar ------------------------------------------------------------------------

TEST_CASE("protocol: option lines: spacing, order and odd values", "[uci]") {
  struct Case {
    std::string_view line;
    OptionLine want;
  };
  const Case c = GENERATE(values<Case>({
      // Ethereal-style trailing spaces, tabs, runs of spaces and a Windows line end.
      {"option name Hash type spin default 16 min 2 max 65536   ",
       {.name = "Hash", .type = OptionType::Spin, .default_value = "16", .min = 2, .max = 65536}},
      {"option\tname  Clear   Hash\ttype button\r", {.name = "Clear   Hash", .type = OptionType::Button}},
      {"option name Threads type spin default 1 min 1 max 1024\r",
       {.name = "Threads", .type = OptionType::Spin, .default_value = "1", .min = 1, .max = 1024}},
      // The UCI text's own examples.
      {"option name Style type combo default Normal var Solid var Normal var Risky",
       {.name = "Style", .type = OptionType::Combo, .default_value = "Normal", .vars = {"Solid", "Normal", "Risky"}}},
      {"option name NalimovPath type string default c:\\",
       {.name = "NalimovPath", .type = OptionType::String, .default_value = "c:\\"}},
      // Multi-word combo default and vars; the default may come after the vars.
      {"option name Play Style type combo var Very Solid var Very  Risky default Very Solid",
       {.name = "Play Style",
        .type = OptionType::Combo,
        .default_value = "Very Solid",
        .vars = {"Very Solid", "Very  Risky"}}},
      // A spin in another order, and one whose bounds are not numbers (left absent).
      {"option name Contempt type spin min -100 max 100 default 0",
       {.name = "Contempt", .type = OptionType::Spin, .default_value = "0", .min = -100, .max = 100}},
      {"option name Contempt type spin default 0 min low max",
       {.name = "Contempt", .type = OptionType::Spin, .default_value = "0"}},
      // A `default` with nothing after it is an empty string; without `default` there is none.
      {"option name Debug Log File type string default", {.name = "Debug Log File", .type = OptionType::String, .default_value = ""}},
      {"option name Book type string", {.name = "Book", .type = OptionType::String}},
      {"option name Ponder type check default", {.name = "Ponder", .type = OptionType::Check, .default_value = ""}},
      // A string default is free text up to the end, keywords and inner spaces included.
      {"option name Log type string default /tmp/min  max/var x",
       {.name = "Log", .type = OptionType::String, .default_value = "/tmp/min  max/var x"}},
      // An empty var is kept (the engine declared it).
      {"option name Mode type combo default a var var a",
       {.name = "Mode", .type = OptionType::Combo, .default_value = "a", .vars = {"", "a"}}},
  }));
  CAPTURE(c.line);
  require_same(as<OptionLine>(parse_engine_line(c.line)), c.want);
}

TEST_CASE("protocol: option lines without a name or a known type are other lines", "[uci]") {
  const std::string_view line = GENERATE(values<std::string_view>({
      "option",
      "option name",
      "option name ",
      "option name Hash",
      "option name Hash type",
      "option name Hash type float default 1.5",
      "option name Hash type Spin default 16",
      "option name type spin default 1",
      "option Hash type spin default 16",
      "option type spin name Hash",
  }));
  CAPTURE(line);
  CHECK(as<OtherLine>(parse_engine_line(line)).text == line);
}

// ---- id, uciok, readyok ----------------------------------------------------------------------

TEST_CASE("protocol: id lines keep the value's inner spaces and trim its ends", "[uci]") {
  struct Case {
    std::string_view line, key, value;
  };
  const Case c = GENERATE(values<Case>({
      {"id name Stockfish 15.1", "name", "Stockfish 15.1"},
      {"id author the Stockfish developers (see AUTHORS file)", "author",
       "the Stockfish developers (see AUTHORS file)"},
      {"id author Andrew Grant, Alayan & Laldon", "author", "Andrew Grant, Alayan & Laldon"},
      {"id name Fairy-Stockfish 11.1 LB 64", "name", "Fairy-Stockfish 11.1 LB 64"},
      {"id  name \t Glaurung  2.2 \r", "name", "Glaurung  2.2"},
      {"id name", "name", ""},
      {"id email someone@example.org", "email", "someone@example.org"},
  }));
  CAPTURE(c.line);
  const auto id = as<IdLine>(parse_engine_line(c.line));
  CHECK(id.key == c.key);
  CHECK(id.value == c.value);
}

TEST_CASE("protocol: uciok and readyok with line noise", "[uci]") {
  const std::string_view ok = GENERATE(values<std::string_view>({"uciok", "uciok\r", "  uciok  ", "\tuciok"}));
  CAPTURE(ok);
  as<UciOk>(parse_engine_line(ok));
  const std::string_view ready = GENERATE(values<std::string_view>({"readyok", "readyok\r", "readyok "}));
  CAPTURE(ready);
  as<ReadyOk>(parse_engine_line(ready));
}

// ---- bestmove --------------------------------------------------------------------------------

TEST_CASE("protocol: bestmove lines, with and without a move", "[uci]") {
  struct Case {
    std::string_view line, move, ponder, written;
  };
  const Case c = GENERATE(values<Case>({
      {"bestmove e2e4 ponder e7e5", "e2e4", "e7e5", "e2e4"},
      {"bestmove d7d5 ponder e4d5", "d7d5", "e4d5", "d7d5"},  // Stockfish
      {"bestmove g8f6 ponder a2a3", "g8f6", "a2a3", "g8f6"},  // Ethereal
      {"bestmove e7e8q", "e7e8q", "", "e7e8q"},
      {"bestmove e7e8q\r", "e7e8q", "", "e7e8q"},
      {"bestmove  e2e4\t ponder\te7e5 ", "e2e4", "e7e5", "e2e4"},
      {"bestmove e2e4 ponder", "e2e4", "", "e2e4"},
      {"bestmove e2e4 ponder (none)", "e2e4", "", "e2e4"},
      {"bestmove (none)", "", "", "(none)"},  // Stockfish and Glaurung: no legal move
      {"bestmove 0000", "", "", "0000"},
      {"bestmove a1a1 ", "", "", "a1a1"},                // Ethereal, trailing space kept by it
      {"bestmove a1a1 ponder b1c3", "", "", "a1a1"},  // Toga: a stale ponder after no move
  }));
  CAPTURE(c.line);
  const auto best = as<BestMove>(parse_engine_line(c.line));
  CHECK(best.move == c.move);
  CHECK(best.ponder == c.ponder);
  CHECK(best.written == c.written);
}

TEST_CASE("protocol: bestmove without a move token is an other line", "[uci]") {
  const std::string_view line = GENERATE(values<std::string_view>({"bestmove", "bestmove ", "bestmove\r", " bestmove\t"}));
  CAPTURE(line);
  CHECK(as<OtherLine>(parse_engine_line(line)).text == std::string_view(line).substr(0, line.find('\r')));
}

// ---- info ------------------------------------------------------------------------------------

TEST_CASE("protocol: real info lines parse without unknown tokens or malformed fields", "[uci]") {
  const std::string_view line = GENERATE(from_range(kRealInfoLines));
  CAPTURE(line);
  const auto info = as<Info>(parse_engine_line(line));
  CHECK_FALSE(info.malformed);
  CHECK(info.unknown.empty());
}

TEST_CASE("protocol: info lines fill every field", "[uci]") {
  struct Case {
    std::string_view line;
    Info want;
  };
  const Case c = GENERATE(values<Case>({
      {"info depth 1 seldepth 1 multipv 1 score cp -23 wdl 3 969 28 nodes 41 nps 20500 hashfull 0 "
       "tbhits 0 time 2 pv c7c5",
       {.depth = 1,
        .seldepth = 1,
        .multipv = 1,
        .score = cp(-23),
        .wdl = Wdl{3, 969, 28},
        .nodes = 41,
        .nps = 20500,
        .time_ms = 2,
        .hashfull = 0,
        .tbhits = 0,
        .pv = {"c7c5"}}},
      {"info depth 1 seldepth 1 multipv 1 score mate 1 nodes 20 nps 20000 hashfull 0 tbhits 0 "
       "time 1 pv a1a8",
       {.depth = 1,
        .seldepth = 1,
        .multipv = 1,
        .score = mate(1),
        .nodes = 20,
        .nps = 20000,
        .time_ms = 1,
        .hashfull = 0,
        .tbhits = 0,
        .pv = {"a1a8"}}},
      {"info score mate -3 pv h8g8 f7g7", {.score = mate(-3), .pv = {"h8g8", "f7g7"}}},
      {"info score mate 0", {.score = mate(0)}},
      // Ethereal: trailing space after the pv; a lowerbound after the score value.
      {"info depth 18 seldepth 30 multipv 1 score cp 66 lowerbound time 2724 nodes 4394439 nps "
       "1612000 tbhits 0 hashfull 625 pv b5a4 ",
       {.depth = 18,
        .seldepth = 30,
        .multipv = 1,
        .score = cp(66, Bound::Lower),
        .nodes = 4394439,
        .nps = 1612000,
        .time_ms = 2724,
        .hashfull = 625,
        .tbhits = 0,
        .pv = {"b5a4"}}},
      // Toga: multipv first, an upperbound, cpuload.
      {"info multipv 1 depth 5 seldepth 12 score cp -17 upperbound time 4 nodes 4660 pv g8f6 e4e5",
       {.depth = 5,
        .seldepth = 12,
        .multipv = 1,
        .score = cp(-17, Bound::Upper),
        .nodes = 4660,
        .time_ms = 4,
        .pv = {"g8f6", "e4e5"}}},
      {"info time 11 nodes 16414 nps 0 cpuload 860", {.nodes = 16414, .nps = 0, .time_ms = 11, .cpuload = 860}},
      {"info depth 25 currmove e2e4 currmovenumber 2", {.depth = 25, .currmove = "e2e4", .currmovenumber = 2}},
      // Glaurung: currline with a cpu number and a null move inside, kept as given.
      {"info currline 1 e2e4 d7d6 0000 b4d3", {.currline = {"1", "e2e4", "d7d6", "0000", "b4d3"}}},
      {"info currline e2e4 e7e5 depth 3", {.depth = 3, .currline = {"e2e4", "e7e5"}}},
      {"info refutation d1h5 g6h5", {.refutation = {"d1h5", "g6h5"}}},
      {"info refutation d1h5 g6h5 pv e2e4", {.pv = {"e2e4"}, .refutation = {"d1h5", "g6h5"}}},
      // A move list ends at the next keyword; a keyword may come right after "pv".
      {"info pv e2e4 e7e5 nodes 10 score cp 5", {.score = cp(5), .nodes = 10, .pv = {"e2e4", "e7e5"}}},
      {"info pv depth 3", {.depth = 3}},
      {"info pv", {}},
      {"info wdl 1000 0 0", {.wdl = Wdl{1000, 0, 0}}},
      {"info tbhits 18446744073709551615", {.tbhits = 18446744073709551615ULL}},
      // `string` takes the rest verbatim: keywords and inner spacing, but not the line's ends.
      {"info string NNUE evaluation using nn-ad9b42354671.nnue enabled",
       {.string = "NNUE evaluation using nn-ad9b42354671.nnue enabled"}},
      {"info depth 3 string depth  4 pv\te2e4 \r", {.depth = 3, .string = "depth  4 pv\te2e4"}},
      {"info string", {.string = ""}},
      {"info string   ", {.string = ""}},
      {"info", {}},
      {"info\r", {}},
      // Unknown tokens are collected in order; sbhits ends a move list and is kept as unknown.
      {"info ebf 1.8 depth 2 hashfull 4 bogus", {.depth = 2, .hashfull = 4, .unknown = {"ebf", "1.8", "bogus"}}},
      {"info pv e2e4 sbhits 3", {.pv = {"e2e4"}, .unknown = {"sbhits", "3"}}},
      {"info lowerbound depth 1", {.depth = 1, .unknown = {"lowerbound"}}},
  }));
  CAPTURE(c.line);
  require_same(as<Info>(parse_engine_line(c.line)), c.want);
}

TEST_CASE("protocol: info fields with a missing or bad value mark the line malformed and go on", "[uci]") {
  struct Case {
    std::string_view line;
    Info want;
  };
  const Case c = GENERATE(values<Case>({
      {"info depth", {.malformed = true}},
      {"info depth \r", {.malformed = true}},
      {"info score", {.malformed = true}},
      {"info score cp", {.malformed = true}},
      {"info score mate", {.malformed = true}},
      {"info score cp x depth 4", {.depth = 4, .unknown = {"x"}, .malformed = true}},
      {"info score pawns 1 depth 4", {.depth = 4, .unknown = {"pawns", "1"}, .malformed = true}},
      {"info score cp 1.5", {.unknown = {"1.5"}, .malformed = true}},
      {"info depth seldepth 7", {.seldepth = 7, .malformed = true}},
      {"info depth x nodes 5", {.nodes = 5, .unknown = {"x"}, .malformed = true}},
      {"info depth 12abc", {.unknown = {"12abc"}, .malformed = true}},
      {"info nodes -5", {.unknown = {"-5"}, .malformed = true}},
      {"info nodes 18446744073709551616", {.unknown = {"18446744073709551616"}, .malformed = true}},
      {"info depth 99999999999", {.unknown = {"99999999999"}, .malformed = true}},
      {"info wdl 1 2", {.malformed = true}},
      {"info wdl 1 2 nodes 3", {.nodes = 3, .malformed = true}},
      {"info currmove", {.malformed = true}},
      {"info currmove depth 3", {.depth = 3, .malformed = true}},
      {"info currmovenumber x", {.unknown = {"x"}, .malformed = true}},
      {"info multipv +1", {.unknown = {"+1"}, .malformed = true}},
  }));
  CAPTURE(c.line);
  require_same(as<Info>(parse_engine_line(c.line)), c.want);
}

// ---- everything else -------------------------------------------------------------------------

TEST_CASE("protocol: banners, blanks and garbage are other lines with their text", "[uci]") {
  const std::string_view line = GENERATE(values<std::string_view>({
      "",
      " ",
      "   \t  ",
      "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)",
      "Glaurung 2.2.  Copyright (C) 2004-2008 Tord Romstad.",
      "EgbbProbe not Loaded!",
      "No such option: UCI_ShowWDL",
      "copyprotection ok",
      "copyprotection checking",
      "registration checking",
      "registration error",
      "Info depth 3",
      "infodepth 3",
      "bestmovee2e4",
      "uciokay",
      "ids name x",
      "id",
      "\xff\xfe\x01\x02 \x80info",
      "\x1b[31mred\x1b[0m",
      std::string_view("nul\0byte", 8),
  }));
  CAPTURE(line);
  CHECK(as<OtherLine>(parse_engine_line(line)).text == line);
}

TEST_CASE("protocol: a trailing carriage return is not part of an other line", "[uci]") {
  CHECK(as<OtherLine>(parse_engine_line("copyprotection ok\r")).text == "copyprotection ok");
  CHECK(as<OtherLine>(parse_engine_line("\r")).text.empty());
}

TEST_CASE("protocol: no prefix or byte flip of a real line makes the codec throw", "[uci]") {
  std::vector<std::string_view> lines = kRealInfoLines;
  for (const auto& engine : kEngines) lines.insert(lines.end(), engine.lines->begin(), engine.lines->end());
  for (const std::string_view line : lines) {
    CAPTURE(line);
    for (std::size_t n = 0; n <= line.size(); ++n) REQUIRE_NOTHROW(parse_engine_line(line.substr(0, n)));
    std::string flipped(line);
    for (std::size_t i = 0; i < flipped.size(); ++i) {
      flipped[i] = static_cast<char>(flipped[i] ^ 0x80);
      REQUIRE_NOTHROW(parse_engine_line(flipped));
      flipped[i] = line[i];
    }
  }
}

TEST_CASE("protocol: to_string names option types and bounds as the protocol does", "[uci]") {
  CHECK(to_string(OptionType::Check) == "check"sv);
  CHECK(to_string(OptionType::Spin) == "spin"sv);
  CHECK(to_string(OptionType::Combo) == "combo"sv);
  CHECK(to_string(OptionType::Button) == "button"sv);
  CHECK(to_string(OptionType::String) == "string"sv);
  CHECK(to_string(Bound::Exact) == "exact"sv);
  CHECK(to_string(Bound::Lower) == "lowerbound"sv);
  CHECK(to_string(Bound::Upper) == "upperbound"sv);
  // Every type name parses back.
  const OptionType type =
      GENERATE(OptionType::Check, OptionType::Spin, OptionType::Combo, OptionType::Button, OptionType::String);
  const std::string line = std::string("option name X type ") + to_string(type);
  CHECK(as<OptionLine>(parse_engine_line(line)).type == type);
}

// ---- GUI -> engine ---------------------------------------------------------------------------

TEST_CASE("protocol: position commands", "[uci]") {
  struct Case {
    std::string_view fen;
    std::vector<std::string> moves;
    std::string_view want;
  };
  const Case c = GENERATE(values<Case>({
      {"", {}, "position startpos"},
      {"", {"e2e4"}, "position startpos moves e2e4"},
      {"", {"e2e4", "e7e5", "g1f3"}, "position startpos moves e2e4 e7e5 g1f3"},
      {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", {}, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
       {"e7e5", "e1g1"},
       "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves e7e5 e1g1"},
  }));
  CHECK(position_command(c.fen, c.moves) == c.want);
}

TEST_CASE("protocol: go commands put limits in a fixed order and searchmoves last", "[uci]") {
  struct Case {
    GoLimits limits;
    std::string_view want;
  };
  const Case c = GENERATE(values<Case>({
      {{}, "go infinite"},
      {{.infinite = true}, "go infinite"},
      {{.depth = 20}, "go depth 20"},
      {{.nodes = 100000}, "go nodes 100000"},
      {{.movetime_ms = 2500}, "go movetime 2500"},
      {{.mate = 3}, "go mate 3"},
      {{.depth = 20, .nodes = 100000, .movetime_ms = 1000, .mate = 5}, "go depth 20 nodes 100000 movetime 1000 mate 5"},
      {{.depth = 20, .nodes = 100000, .searchmoves = {"e2e4", "d2d4"}}, "go depth 20 nodes 100000 searchmoves e2e4 d2d4"},
      {{.searchmoves = {"e2e4"}}, "go infinite searchmoves e2e4"},
      {{.infinite = true, .searchmoves = {"g1f3", "c2c4"}}, "go infinite searchmoves g1f3 c2c4"},
      // infinite wins over limits: the session stops the search itself.
      {{.depth = 5, .infinite = true}, "go infinite"},
      {{.nodes = 18446744073709551615ULL}, "go nodes 18446744073709551615"},
  }));
  CHECK(go_command(c.limits) == c.want);
}

TEST_CASE("protocol: setoption commands", "[uci]") {
  struct Case {
    std::string_view name;
    std::optional<std::string_view> value;
    std::string_view want;
  };
  const Case c = GENERATE(values<Case>({
      {"Hash", "64", "setoption name Hash value 64"},
      {"Threads", "1", "setoption name Threads value 1"},
      {"Clear Hash", std::nullopt, "setoption name Clear Hash"},
      {"UCI_LimitStrength", "true", "setoption name UCI_LimitStrength value true"},
      {"SyzygyPath", "/data/syzygy:/more tb", "setoption name SyzygyPath value /data/syzygy:/more tb"},
      {"NullMove Pruning", "Fail High", "setoption name NullMove Pruning value Fail High"},
      {"Debug Log File", "", "setoption name Debug Log File value "},
  }));
  CHECK(setoption_command(c.name, c.value) == c.want);
}

// ---- writing engine lines ------------------------------------------------------------------

namespace {

// The round trip engine_line promises: read, write, read again gives an equal message (an
// info line's `malformed` aside), and the line written is well formed.
void check_round_trip(std::string_view line) {
  INFO("line: [" << line << "]");
  EngineMessage first = parse_engine_line(line);
  const std::string written = engine_line(first);
  INFO("written: [" << written << "]");
  const EngineMessage again = parse_engine_line(written);
  if (auto* info = std::get_if<Info>(&first)) {
    REQUIRE(std::holds_alternative<Info>(again));
    CHECK_FALSE(std::get<Info>(again).malformed);
    info->malformed = false;
  }
  CHECK(again == first);
}

}  // namespace

TEST_CASE("protocol: engine_line writes the lines real engines print as they print them", "[uci]") {
  // Canonical lines come back byte for byte (the codec's field order is the engines' order).
  for (const std::string_view line : {
           "id name Stockfish 15.1"sv,
           "option name Hash type spin default 16 min 1 max 33554432"sv,
           "option name Clear Hash type button"sv,
           "option name UCI_Variant type combo default chess var chess var shogi"sv,
           "option name SyzygyPath type string default <empty>"sv,
           "uciok"sv,
           "readyok"sv,
           "bestmove e2e4 ponder e7e5"sv,
           "bestmove (none)"sv,
           "info depth 12 seldepth 18 multipv 1 score cp 31 lowerbound wdl 60 920 20 nodes 81234 nps 912000 "
           "time 89 hashfull 12 tbhits 0 pv e2e4 e7e5 g1f3"sv,
           "info depth 8 currmove e2e4 currmovenumber 1"sv,
           "info string NNUE evaluation using nn-ad9b42354671.nnue enabled"sv,
           "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)"sv,
       }) {
    CHECK(engine_line(parse_engine_line(line)) == line);
  }
}

TEST_CASE("protocol: engine_line then parse_engine_line gives the message of every real line", "[uci]") {
  for (const auto& lines : {kStockfish151, kEthereal12, kFairyStockfish111, kToga2, kGlaurung22, kRealInfoLines})
    for (const std::string_view line : lines) check_round_trip(line);
}

TEST_CASE("protocol: engine_line keeps what a reader could lose", "[uci]") {
  for (const std::string_view line : {
           // Unknown tokens, also ones a move list or a string would swallow when written late.
           "info depth 5 sbhits 3 pv e2e4 e7e5"sv,
           "info lowerbound depth 5 score cp 3 upperbound"sv,
           "info depth x nodes 5 string the rest   with  spaces"sv,
           "info string"sv,
           "info pv"sv,
           "info score mate -3 wdl 0 0 1000 currline e2e4 refutation d2d4 e7e5 pv"sv,
           // A string option's default runs to the end: vars written before it.
           "option name Path type string var a b var c default x var y"sv,
           "option name Odd type spin default min 3 max x var"sv,
           "option name A type combo var default var  var b default d e min 1"sv,
           "id name"sv,
           "bestmove a1a1 ponder e2e4"sv,
           "bestmove e2e4 ponder 0000"sv,
           // A carriage return kept inside the line (one more than the reader drops).
           "info string x\r\r"sv,
           "bestmove e2e4\r\r"sv,
           "other\r\r"sv,
       }) {
    check_round_trip(line);
  }
}
