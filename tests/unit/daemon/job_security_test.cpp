// Issue 18 point 5 (a store shared by many hosts): a job spec says the host it was submitted on,
// whose daemons alone write its files; a spec with a key this epdd does not know (such as
// "command") is refused when read, and an engine that is a program path is refused to run; the
// input files its settings name are read when the job is made, to be kept in the
// store, so no daemon opens a path from a job.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/job_kind.hpp"
#include "daemon/job_spec.hpp"
#include "daemon/jobs.hpp"
#include "test_support.hpp"

using namespace epdd;
using namespace epdd::daemon;

namespace {

// A spec of a kind, input and engine, as submit makes it.
JobSpec spec_of(const std::string& kind, const std::string& engine = "stockfish") {
  JobSpec s;
  s.kind = kind;
  s.input = "/data/in." + std::string(kind == "annotate" ? "pgn" : "epd");
  s.engine = engine;
  s.limits.nodes = 1000;
  return s;
}

// The JSON of a spec with one more key, as something other than epdd could write it in the store.
std::string with_key(const JobSpec& spec, const std::string& key, const std::string& value_json) {
  std::string json = spec_to_json(spec);
  json.pop_back();  // the closing brace
  return json + ",\"" + key + "\":" + value_json + "}";
}

}  // namespace

TEST_CASE("job spec: the submitting host round trips, and a spec written before it has none", "[daemon][spec][security]") {
  JobSpec s = spec_of("analyse");
  s.host = "host-a";
  s.output = "/home/a/out.epd";
  const std::string json = spec_to_json(s);
  CHECK_THAT(json, Catch::Contains("\"host\":\"host-a\""));
  auto back = spec_from_json(json);
  REQUIRE(back);
  CHECK(back->host == "host-a");
  CHECK(spec_to_json(*back) == json);
  const std::string old = R"({"kind":"analyse","input":"a.epd","engine":"sf","limits":{"nodes":10},"multipv":1,)"
                          R"("keep_existing":false,"chess960":false,"output":"/x/out.epd"})";
  auto read_old = spec_from_json(old);
  REQUIRE(read_old);
  CHECK(read_old->host.empty());
  CHECK_THAT(spec_to_json(spec_of("analyse")), !Catch::Contains("\"host\""));
}

TEST_CASE("job spec: a program path or a key epdd does not know is refused when read", "[daemon][spec][security]") {
  const JobSpec s = spec_of("suite");
  REQUIRE(spec_from_json(spec_to_json(s)));
  for (const char* key : {"command", "program", "engine_path", "path", "args"}) {
    auto read = spec_from_json(with_key(s, key, "\"/bin/sh\""));
    REQUIRE_FALSE(read);
    CHECK(read.error() == fmt::format("job spec: '{}' is not a key of a job spec (a job names an engine of the "
                                      "daemon's configuration, nothing else)",
                                      key));
  }
  // In the spool origin too.
  JobSpec spooled = s;
  spooled.spool = SpoolOrigin{"/srv/spool", "a.epd", false};
  std::string json = spec_to_json(spooled);
  const auto at = json.find("\"sidecar\"");
  REQUIRE(at != std::string::npos);
  json.insert(at, "\"command\":\"rm -rf /\",");
  auto spool_read = spec_from_json(json);
  REQUIRE_FALSE(spool_read);
  CHECK_THAT(spool_read.error(), Catch::Contains("'command' is not a key"));
  // The engine is a name of the configuration, never a program: serve fails a job whose engine
  // is a path (a spec that is read still reads: `epdd results` of an older one-shot job, which
  // named its program, renders it).
  // (The name as messages show it: a backslash escaped.)
  for (const auto& [engine, shown] : {std::pair{"/usr/games/stockfish", "/usr/games/stockfish"}, std::pair{"./sf", "./sf"},
                                      std::pair{"bin/sf", "bin/sf"}, std::pair{"C:\\sf.exe", "C:\\\\sf.exe"}}) {
    INFO(engine);
    CHECK(spec_from_json(spec_to_json(spec_of("suite", engine))));
    const auto why = engine_name_problem(engine);
    REQUIRE(why);
    CHECK(*why == "'engine' is '" + std::string(shown) +
                      "': a job names an engine of the daemon's configuration, not a program");
  }
  CHECK_FALSE(engine_name_problem("Stockfish 15.1 (nnue)"));
  CHECK_FALSE(engine_name_problem(""));  // the daemon's first engine
}

TEST_CASE("job spec: the delivery host is the submitting host when the job writes files, else anyone",
          "[daemon][spec][security]") {
  JobSpec s = spec_of("analyse");
  s.host = "host-a";
  CHECK(delivery_host(s).empty());  // no file to write: any daemon delivers it
  s.output = "/home/a/out.epd";
  CHECK(delivery_host(s) == "host-a");
  JobSpec report = spec_of("suite");
  report.host = "host-a";
  report.json = "/home/a/r.json";
  CHECK(delivery_host(report) == "host-a");
  JobSpec book = spec_of("book");
  book.host = "host-a";
  CHECK(delivery_host(book).empty());
  book.options["pgn"] = "/home/a/book.pgn";  // one of the kind's own outputs
  CHECK(delivery_host(book) == "host-a");
  JobSpec spooled = spec_of("analyse");
  spooled.host = "host-a";
  spooled.spool = SpoolOrigin{"/srv/spool", "a.epd", false};  // moves files in the spool
  CHECK(delivery_host(spooled) == "host-a");
}

TEST_CASE("job spec: the input files a job's settings name are read when it is made, by option",
          "[daemon][spec][security]") {
  test::TempDir dir;
  const std::string book = (dir.path() / "book.bin").string();
  const std::string bytes("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f", 16);
  std::ofstream(book, std::ios::binary) << bytes;
  JobSpec annotate = spec_of("annotate");
  annotate.options["book"] = book;
  annotate.options["judge"] = "cp:50,100,300";
  auto files = read_input_files(annotate);
  REQUIRE(files);
  REQUIRE(files->size() == 1);
  CHECK(files->at(0).first == "book");
  CHECK(files->at(0).second == bytes);
  CHECK(read_input_files(spec_of("suite"))->empty());
  // Outputs are not inputs: a book job's --pgn is not read (the file need not exist).
  JobSpec book_job = spec_of("book");
  book_job.options["pgn"] = (dir.path() / "missing.pgn").string();
  CHECK(read_input_files(book_job)->empty());
  // A file that cannot be read is refused with its option and its name.
  annotate.options["book"] = (dir.path() / "gone.bin").string();
  auto missing = read_input_files(annotate);
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error(), Catch::StartsWith("--book: ") && Catch::Contains("gone.bin"));
  // Every Path option of every kind is an output, a file kept in the store, or read into the
  // job's input (book's --import, in its bundle): none is left for a daemon to open.
  for (const JobKind* kind : job_kinds())
    for (const KindOption& option : kind->options()) {
      if (option.type != KindOption::Type::Path) continue;
      const auto outputs = kind->more_outputs();
      const bool output = std::any_of(outputs.begin(), outputs.end(),
                                      [&](const KindOutput& o) { return o.option_key == option.key; });
      const auto kept = kind->stored_inputs();
      const bool stored = std::find(kept.begin(), kept.end(), option.key) != kept.end();
      const bool bundled = kind->name() == "book" && option.key == "import";
      INFO(std::string(kind->name()) + " " + std::string(option.key));
      CHECK(output + stored + bundled == 1);
    }
}
