// Analysis results as JSON: every field round-trips, the text is compact with a fixed key
// order, and malformed input is an error message naming the key, never an exception.
#include <string>
#include <vector>

#include "store/analysis_json.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

uci::Analysis rich_analysis() {
  uci::Analysis a;
  a.engine = "Stockfish 15.1 \"quoted\" \xc3\xa9";  // quotes and UTF-8 survive
  uci::PvLine first;
  first.multipv = 1;
  first.depth = 24;
  first.seldepth = 37;
  first.score = core::Score::mate_in_plies(5);
  first.wdl = uci::Wdl{1000, 0, 0};
  first.nodes = 18446744073709551615ull;  // the largest uint64 must survive
  first.time_ms = 1234;
  first.pv = {"h5f7", "e8d7", "c4e6"};
  uci::PvLine second;
  second.multipv = 2;
  second.depth = 23;
  second.score = core::Score::centipawns(-35);
  second.nodes = 0;
  second.pv = {"g1f3"};
  second.pv_cut = "illegal move 'e1e9' after g1f3";
  uci::PvLine third;
  third.multipv = 3;
  third.depth = 22;
  third.seldepth = 0;
  third.score = core::Score::mate_in_plies(-4);
  third.wdl = uci::Wdl{0, 12, 988};
  a.lines = {first, second, third};
  a.iterations = {{1, 20, 0, core::Score::centipawns(12), "e2e4"},
                  {9, 45000, 31, core::Score::mate_in_plies(-2), "d2d4"},
                  {24, 18446744073709551615ull, 1234, core::Score::mate_in_plies(5), "h5f7"}};
  a.bestmove = "h5f7";
  a.ponder = "e8d7";
  a.depth = 24;
  a.nodes = 987654321;
  a.time_ms = 1300;
  a.status = core::GameStatus::Checkmate;
  a.stopped = true;
  a.problems = {"info line with 'depth' but no value", "bestmove e2e4 was not line 1's first move"};
  return a;
}

void check_same(const uci::PvLine& a, const uci::PvLine& b) {
  CHECK(a.multipv == b.multipv);
  CHECK(a.depth == b.depth);
  CHECK(a.seldepth == b.seldepth);
  CHECK(a.score == b.score);
  CHECK(a.wdl.has_value() == b.wdl.has_value());
  if (a.wdl && b.wdl) {
    CHECK(a.wdl->win == b.wdl->win);
    CHECK(a.wdl->draw == b.wdl->draw);
    CHECK(a.wdl->loss == b.wdl->loss);
  }
  CHECK(a.nodes == b.nodes);
  CHECK(a.time_ms == b.time_ms);
  CHECK(a.pv == b.pv);
  CHECK(a.pv_cut == b.pv_cut);
}

void check_same(const uci::Analysis& a, const uci::Analysis& b) {
  CHECK(a.engine == b.engine);
  REQUIRE(a.lines.size() == b.lines.size());
  for (std::size_t i = 0; i < a.lines.size(); ++i) check_same(a.lines[i], b.lines[i]);
  REQUIRE(a.iterations.size() == b.iterations.size());
  for (std::size_t i = 0; i < a.iterations.size(); ++i) {
    CHECK(a.iterations[i].depth == b.iterations[i].depth);
    CHECK(a.iterations[i].nodes == b.iterations[i].nodes);
    CHECK(a.iterations[i].time_ms == b.iterations[i].time_ms);
    CHECK(a.iterations[i].score == b.iterations[i].score);
    CHECK(a.iterations[i].move == b.iterations[i].move);
  }
  CHECK(a.bestmove == b.bestmove);
  CHECK(a.ponder == b.ponder);
  CHECK(a.depth == b.depth);
  CHECK(a.nodes == b.nodes);
  CHECK(a.time_ms == b.time_ms);
  CHECK(a.status == b.status);
  CHECK(a.stopped == b.stopped);
  CHECK(a.problems == b.problems);
}

std::string error_of(const std::string& json) {
  const auto parsed = store::analysis_from_json(json);
  REQUIRE_FALSE(parsed.has_value());
  return parsed.error();
}

}  // namespace

TEST_CASE("analysis JSON: a rich analysis round-trips field by field", "[daemon][analysis_json]") {
  const uci::Analysis a = rich_analysis();
  const std::string json = store::analysis_to_json(a);
  CHECK(json.find('\n') == std::string::npos);
  CHECK(json.find(": ") == std::string::npos);  // compact
  const auto back = store::analysis_from_json(json);
  INFO(json << "\n" << (back ? std::string() : back.error()));
  REQUIRE(back.has_value());
  check_same(a, *back);
  CHECK(store::analysis_to_json(*back) == json);  // stable: the same text again
}

TEST_CASE("analysis JSON: the exact text of a small analysis, keys in the documented order",
          "[daemon][analysis_json]") {
  uci::Analysis a;
  a.engine = "E";
  uci::PvLine line;
  line.depth = 1;
  line.score = core::Score::centipawns(25);
  line.nodes = 20;
  line.time_ms = 1;
  line.pv = {"e2e4"};
  a.lines = {line};
  a.bestmove = "e2e4";
  a.depth = 1;
  a.nodes = 20;
  a.time_ms = 1;
  CHECK(store::analysis_to_json(a) ==
        R"({"engine":"E","lines":[{"multipv":1,"depth":1,"score":{"cp":25},"nodes":20,"time_ms":1,"pv":["e2e4"],)"
        R"("pv_cut":""}],"iterations":[],"bestmove":"e2e4","ponder":"","depth":1,"nodes":20,"time_ms":1,)"
        R"("status":"ongoing","stopped":false,"problems":[]})");
}

TEST_CASE("analysis JSON: every game status and an empty analysis round-trip", "[daemon][analysis_json]") {
  const auto status = GENERATE(core::GameStatus::Ongoing, core::GameStatus::Checkmate, core::GameStatus::Stalemate,
                               core::GameStatus::InsufficientMaterial, core::GameStatus::FiftyMoveClaimable,
                               core::GameStatus::ThreefoldClaimable, core::GameStatus::SeventyFiveMoves,
                               core::GameStatus::FivefoldRepetition);
  uci::Analysis a;
  a.status = status;
  const auto back = store::analysis_from_json(store::analysis_to_json(a));
  REQUIRE(back.has_value());
  check_same(a, *back);
}

TEST_CASE("analysis JSON: bytes that are not UTF-8 are replaced, not thrown", "[daemon][analysis_json]") {
  uci::Analysis a;
  a.engine = "bad \xff byte";
  a.problems = {"\xc3"};
  std::string json;
  REQUIRE_NOTHROW(json = store::analysis_to_json(a));
  const auto back = store::analysis_from_json(json);
  REQUIRE(back.has_value());
  CHECK(back->engine == "bad \xef\xbf\xbd byte");
  CHECK(back->problems == std::vector<std::string>{"\xef\xbf\xbd"});
}

TEST_CASE("analysis JSON: malformed input is a message naming what is wrong", "[daemon][analysis_json]") {
  const std::string good = store::analysis_to_json(rich_analysis());
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  struct Case {
    std::string json;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", "analysis JSON: parse error"},
      {"{\"engine\":", "analysis JSON: parse error"},
      {good + "x", "analysis JSON: parse error"},
      {"[1,2]", "analysis JSON: must be an object, not array"},
      // A number past a double's range (found by tests/fuzz/jobjson_fuzz: nlohmann throws
      // out_of_range from parse, not parse_error).
      {"1e616", "analysis JSON: number overflow parsing '1e616'"},
      {replaced("\"time_ms\":1300", "\"time_ms\":-1e999"), "analysis JSON: number overflow parsing '-1e999'"},
      {"{}", "analysis JSON: engine: missing"},
      {replaced("\"bestmove\":\"h5f7\",", ""), "analysis JSON: bestmove: missing"},
      {replaced("\"engine\":\"Stockfish", "\"engine\":7,\"x\":\"Stockfish"), "analysis JSON: engine: must be a string, not 7"},
      {replaced("\"depth\":24,\"seldepth\":37", "\"depth\":24.0,\"seldepth\":37"),
       "analysis JSON: lines[0].depth: must be an integer from -2147483648 to 2147483647, not 24.0"},
      {replaced("\"multipv\":2", "\"multipv\":2147483648"), "analysis JSON: lines[1].multipv: must be an integer"},
      {replaced("\"time_ms\":1300", "\"time_ms\":-1"), "analysis JSON: time_ms: must be an integer from 0 to"},
      {replaced("{\"mate_plies\":5}", "{\"mate_plies\":5,\"cp\":3}"),
       "analysis JSON: lines[0].score: must hold exactly one of \"cp\" and \"mate_plies\""},
      {replaced("{\"cp\":-35}", "{\"centipawns\":-35}"), "analysis JSON: lines[1].score: must hold exactly one of"},
      {replaced("\"draw\":12", "\"draws\":12"), "analysis JSON: lines[2].wdl.draw: missing"},
      {replaced("\"pv\":[\"g1f3\"]", "\"pv\":[\"g1f3\",null]"), "analysis JSON: lines[1].pv[1]: must be a string, not null"},
      {replaced("\"lines\":[", "\"lines\":[3,"), "analysis JSON: lines[0]: must be an object"},
      {replaced("\"move\":\"d2d4\"", "\"move\":[]"), "analysis JSON: iterations[1].move: must be a string, not an array"},
      {replaced("\"checkmate\"", "\"mate\""), "analysis JSON: status: unknown game status \"mate\""},
      {replaced("\"stopped\":true", "\"stopped\":1"), "analysis JSON: stopped: must be true or false, not 1"},
      {replaced("\"problems\":[", "\"problems\":{},\"x\":["), "analysis JSON: problems: must be an array, not an object"},
  };
  for (const Case& c : cases) {
    INFO(c.json);
    std::string message;
    REQUIRE_NOTHROW(message = error_of(c.json));
    CHECK_THAT(message, Catch::StartsWith(c.message));
  }
}

TEST_CASE("analysis JSON: absent or null seldepth and wdl read as none, unknown keys are ignored",
          "[daemon][analysis_json]") {
  uci::Analysis a;
  a.lines.resize(1);
  std::string json = store::analysis_to_json(a);
  const std::string from = "\"score\":{\"cp\":0}";
  json.replace(json.find(from), from.size(), from + ",\"seldepth\":null,\"wdl\":null,\"hashfull\":500");
  const auto back = store::analysis_from_json(json);
  INFO(json);
  REQUIRE(back.has_value());
  CHECK_FALSE(back->lines.at(0).seldepth.has_value());
  CHECK_FALSE(back->lines.at(0).wdl.has_value());
}
