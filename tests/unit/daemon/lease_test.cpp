// Leases in the store (issue 7): a position is claimed by one owner at a time with all its
// pending items, commits clear leases, expired and released leases are claimed again, cancelled
// jobs are not claimed, a complete job is delivered once; the job spec and request JSON round trip;
// the daemon configuration file.
#include <catch2/catch.hpp>

#include <thread>

#include "daemon/engine_config_file.hpp"
#include "daemon/job_spec.hpp"
#include "store/store.hpp"
#include "daemon/workers.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using epdd::test::open_store;
using namespace epdd::daemon;

namespace {


// A planned job for engine "E" whose items have these keys.
std::int64_t job_with(store::Store& store, const std::string& name, const std::vector<std::string>& keys) {
  const auto job = store.find_or_create_job(store::NewJob{"analyse", name, name, "", "{}", "bytes"});
  std::vector<store::NewItem> items;
  for (std::size_t i = 0; i < keys.size(); ++i) items.push_back(store::NewItem{static_cast<std::int64_t>(i), keys[i], "{\"r\":" + std::to_string(i) + "}"});
  store.add_items(job.id, items, "E");
  return job.id;
}

}  // namespace

TEST_CASE("leases: a position is claimed once, with every pending item that waits for it", "[daemon][lease]") {
  test::TempDir dir;
  auto store = open_store((dir.path() / "s.db").string());
  const auto a = job_with(*store, "a", {"k1", "k2", "k1"});
  const auto b = job_with(*store, "b", {"k2", "k3"});
  CHECK(store->job(a).state == store::JobState::Running);
  CHECK(store->job(a).planned);
  CHECK(store->job_source(a) == "bytes");

  auto c1 = store->claim("one", {"E"}, 60000);
  REQUIRE(c1);
  CHECK(c1->key == "k1");
  CHECK(c1->items == std::vector<std::pair<std::int64_t, std::int64_t>>{{a, 0}, {a, 2}});
  CHECK(c1->request == "{\"r\":0}");
  CHECK(c1->engine == "E");
  auto c2 = store->claim("two", {"E"}, 60000);
  REQUIRE(c2);
  CHECK(c2->key == "k2");
  CHECK(c2->items == std::vector<std::pair<std::int64_t, std::int64_t>>{{a, 1}, {b, 0}});
  auto c3 = store->claim("one", {"E"}, 60000);
  REQUIRE(c3);
  CHECK(c3->key == "k3");
  CHECK_FALSE(store->claim("three", {"E"}, 60000));
  // Other engines' jobs are not ours; only_job narrows.
  CHECK_FALSE(store->claim("three", {"F"}, 60000));

  // A commit clears the lease; a release puts the items back at once.
  store->commit_analysis(a, 0, "k1", "E", "{}");
  store->commit_cached(a, 2, "k1", "{}");
  CHECK(store->release_leases("two", &c2->key) == 2);
  // only_job picks the position from that job; the claim still takes every item waiting for it.
  auto again = store->claim("three", {"E"}, 60000, b);
  REQUIRE(again);
  CHECK(again->key == "k2");
  CHECK(again->items == std::vector<std::pair<std::int64_t, std::int64_t>>{{a, 1}, {b, 0}});
  CHECK(store->lease_owners().size() == 2);
}

TEST_CASE("leases: an expired lease is claimed again, and renewal keeps it", "[daemon][lease]") {
  test::TempDir dir;
  auto store = open_store((dir.path() / "s.db").string());
  job_with(*store, "a", {"k1"});
  // No step depends on how fast the machine is: a lease either lasts a minute or ended before
  // the pause that follows it (a pause lasts at least what it asks).
  REQUIRE(store->claim("one", {"E"}, 50));
  CHECK(store->renew_leases("one", 60000, {"k1"}) == 1);  // owned, so renewed even if its 50 ms are gone
  CHECK_FALSE(store->claim("two", {"E"}, 200));   // a live lease is not claimed
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK_FALSE(store->claim("two", {"E"}, 200));   // past the first 50 ms: the renewal kept it
  CHECK(store->renew_leases("one", 1, {"k1"}) == 1);      // renewed for 1 ms: it ends at once
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto taken = store->claim("two", {"E"}, 200);
  REQUIRE(taken);
  CHECK(taken->key == "k1");
}

TEST_CASE("leases: cancelled jobs are not claimed, and complete jobs are delivered once", "[daemon][lease]") {
  test::TempDir dir;
  auto store = open_store((dir.path() / "s.db").string());
  const auto a = job_with(*store, "a", {"k1"});
  const auto b = job_with(*store, "b", {"k2"});
  CHECK(store->cancel_job(a, "by a test"));
  CHECK_FALSE(store->cancel_job(a, "again"));
  CHECK_THROWS_AS(store->cancel_job(999, "none"), store::StoreError);
  auto c = store->claim("one", {"E"}, 60000);
  REQUIRE(c);
  CHECK(c->key == "k2");
  // The cancelled job is delivered (its spool file filed away), the other once complete.
  auto d1 = store->claim_delivery("one", 60000);
  REQUIRE(d1);
  CHECK(d1->id == a);
  CHECK_FALSE(store->claim_delivery("two", 60000));
  store->mark_delivered(a, store::JobState::Cancelled, "by a test");
  store->commit_analysis(b, 0, "k2", "E", "{}");
  auto d2 = store->claim_delivery("two", 60000);
  REQUIRE(d2);
  CHECK(d2->id == b);
  CHECK(d2->complete());
  store->mark_delivered(b, store::JobState::Finished);
  CHECK_FALSE(store->claim_delivery("one", 60000));
  CHECK(store->job(b).delivered);
  CHECK(store->job(a).message == "by a test");
}

TEST_CASE("leases: owners of this machine that are gone are known", "[daemon][lease]") {
  CHECK_FALSE(owner_is_gone(this_process_owner()));
  const std::string& me = this_process_owner();
  const auto host = me.substr(0, me.find('/'));
  CHECK(owner_is_gone(host + "/999999999/1"));
  CHECK(owner_is_gone(me.substr(0, me.rfind('/')) + "/12345"));  // our pid, another start time
  CHECK_FALSE(owner_is_gone("another-machine/1/1"));
  CHECK_FALSE(owner_is_gone("garbage"));
}

TEST_CASE("job spec and request JSON round trip and name what is wrong", "[daemon][spec]") {
  JobSpec s;
  s.kind = "suite";
  s.input = "wac.epd";
  s.engine = "stockfish";
  s.limits.nodes = 1000;
  s.limits.depth = 7;
  s.multipv = 2;
  s.new_game = uci::NewGame::Keep;
  s.chess960 = true;
  s.report = "/tmp/r.txt";
  s.spool = SpoolOrigin{"/srv/spool", "wac.epd", true};
  auto back = spec_from_json(spec_to_json(s));
  REQUIRE(back);
  CHECK(spec_to_json(*back) == spec_to_json(s));
  CHECK(back->spool == s.spool);
  CHECK(back->limits.nodes == 1000u);
  CHECK_FALSE(back->output);
  CHECK(spec_from_json("{}").error() == "job spec: missing key 'kind'");
  CHECK_THAT(spec_from_json("nope").error(), Catch::StartsWith("job spec: not JSON"));

  // File names are bytes: one that is not UTF-8 comes back as it was (a replaced byte would
  // name another file: the spool could not move its input and wrote outputs under a wrong name).
  s.input = "latin\xe9\xff.epd";
  s.spool = SpoolOrigin{"/srv/sp\xf6\x6fl", "latin\xe9\xff.epd", false};
  s.output = "/srv/out/evil\n[2026-01-01] [info] x.epd";
  back = spec_from_json(spec_to_json(s));
  REQUIRE(back);
  CHECK(back->input == s.input);
  CHECK(back->spool == s.spool);
  CHECK(back->output == s.output);
  CHECK_THAT(spec_from_json(R"({"kind":"analyse","input":{"hex":"6x"}})").error(), Catch::Contains("'input'"));

  uci::AnalysisRequest r;
  r.fen = "8/8/8/8/8/8/8/K6k w - -";
  r.moves = {"a1a2"};
  r.limits.movetime_ms = 50;
  r.searchmoves = {"h1h2"};
  auto rb = request_from_json(request_to_json(r));
  REQUIRE(rb);
  CHECK(request_to_json(*rb) == request_to_json(r));
  CHECK(rb->moves == r.moves);
}

TEST_CASE("job spec and request JSON: a number that is not an integer of the field's range is refused", "[daemon][spec]") {
  // Found by tests/fuzz/jobjson_fuzz: a float past int's range was converted to int (undefined
  // behaviour); a fraction or a negative count was taken silently, as another number.
  const std::string request = R"({"fen":"","chess960":false,"moves":[],"multipv":1,"searchmoves":[],)"
                              R"("new_game":"clear","limits":{"depth":DEPTH}})";
  auto with_depth = [&](const std::string& depth) {
    std::string r = request;
    return r.replace(r.find("DEPTH"), 5, depth);
  };
  REQUIRE(request_from_json(with_depth("12")));
  CHECK(request_from_json(with_depth("12"))->limits.depth == 12);
  for (const std::string bad : {"1.00066666666e+104", "12.5", "2147483648", "true", "\"12\""}) {
    INFO(bad);
    const auto read = request_from_json(with_depth(bad));
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error(), Catch::Contains("'depth'"));
  }
  const std::string spec = R"({"kind":"analyse","input":"a.epd","engine":"sf","limits":{"nodes":NODES},"multipv":1,)"
                           R"("keep_existing":false,"chess960":false,"ce_for_white":false})";
  auto with_nodes = [&](const std::string& nodes) {
    std::string r = spec;
    return r.replace(r.find("NODES"), 5, nodes);
  };
  REQUIRE(spec_from_json(with_nodes("18446744073709551615")));
  for (const std::string bad : {"-1", "1e30", "0.5"}) {
    INFO(bad);
    const auto read = spec_from_json(with_nodes(bad));
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error(), Catch::Contains("'nodes'"));
  }
}

TEST_CASE("daemon configuration: defaults, paths relative to the file, located errors", "[daemon][config]") {
  const std::string engines = "[[engine]]\nname = \"sf\"\ncommand = \"/usr/games/stockfish\"\n";
  auto plain = parse_daemon_config(engines, "/etc/epdd/epdd.toml");
  REQUIRE(plain);
  CHECK(plain->daemon.store == "/etc/epdd/epdd.db");
  CHECK(plain->daemon.lease_ms == 60000);
  CHECK_FALSE(plain->spool);
  CHECK(plain->logging.level == "info");

  auto full = parse_daemon_config(engines +
                                      "[daemon]\nstore = \"/var/lib/epdd/e.db\"\nlease_seconds = 5\n"
                                      "[spool]\ndirectory = \"spool\"\nengine = \"sf\"\nnodes = 100\n"
                                      "[logging]\nlevel = \"debug\"\nfile = \"log/e.log\"\n",
                                  "/srv/e/c.toml");
  REQUIRE(full);
  CHECK(full->daemon.store == "/var/lib/epdd/e.db");
  CHECK(full->daemon.lease_ms == 5000);
  REQUIRE(full->spool);
  CHECK(full->spool->directory == "/srv/e/spool");
  CHECK(full->spool->defaults.limits.nodes == 100u);
  CHECK(full->logging.file == "/srv/e/log/e.log");

  auto typo = parse_daemon_config(engines + "[daemon]\nleas_seconds = 5\n", "c.toml");
  REQUIRE_FALSE(typo);
  CHECK_THAT(typo.error().to_string(), Catch::StartsWith("c.toml:5:1: unknown key 'leas_seconds'"));
  auto stranger = parse_daemon_config(engines + "[spool]\ndirectory = \"s\"\nengine = \"ethereal\"\n", "c.toml");
  REQUIRE_FALSE(stranger);
  CHECK_THAT(stranger.error().message, Catch::Contains("'ethereal' is not an [[engine]]"));
  // The toml fuzz target's finding: an empty directory was taken, and the spool was the daemon's
  // working directory (its inbox/ wherever it happened to start).
  auto nowhere = parse_daemon_config(engines + "[spool]\ndirectory = \"\"\n", "c.toml");
  REQUIRE_FALSE(nowhere);
  CHECK_THAT(nowhere.error().to_string(), Catch::StartsWith("c.toml:5:13: ") && Catch::Contains("directory must not be empty"));

  // A sidecar's limits replace the defaults' limits; other keys are kept.
  JobSpec base = full->spool->defaults;
  auto side = parse_job_settings("kind = \"suite\"\ndepth = 9\n", "x.toml", base);
  REQUIRE(side);
  CHECK(side->kind == "suite");
  CHECK(side->limits.depth == 9);
  CHECK_FALSE(side->limits.nodes);
  CHECK(side->engine == "sf");
  auto bad = parse_job_settings("store = \"elsewhere\"\n", "x.toml", base);
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().to_string(), Catch::StartsWith("x.toml:1:1: unknown key 'store'"));
}

TEST_CASE("daemon configuration: [store] location takes a path or a PostgreSQL URL, kept as it is", "[daemon][config]") {
  const std::string engines = "[[engine]]\nname = \"sf\"\ncommand = \"/usr/games/stockfish\"\n";
  auto url = parse_daemon_config(engines + "[store]\nlocation = \"postgresql://epdd@db.lan/epdd?sslmode=require\"\n",
                                 "/etc/epdd/epdd.toml");
  REQUIRE(url);
  CHECK(url->daemon.store == "postgresql://epdd@db.lan/epdd?sslmode=require");
  auto older = parse_daemon_config(engines + "[daemon]\nstore = \"postgres:///epdd\"\n", "/etc/epdd/epdd.toml");
  REQUIRE(older);
  CHECK(older->daemon.store == "postgres:///epdd");
  auto path = parse_daemon_config(engines + "[store]\nlocation = \"var/e.db\"\n", "/srv/e/c.toml");
  REQUIRE(path);
  CHECK(path->daemon.store == "/srv/e/var/e.db");
  // Said twice, differently: which one is meant is not guessed.
  auto both = parse_daemon_config(engines + "[daemon]\nstore = \"a.db\"\n[store]\nlocation = \"b.db\"\n", "c.toml");
  REQUIRE_FALSE(both);
  CHECK_THAT(both.error().to_string(), Catch::StartsWith("c.toml:7:12: [store] location and [daemon] store"));
  auto typo = parse_daemon_config(engines + "[store]\nurl = \"postgres:///epdd\"\n", "c.toml");
  REQUIRE_FALSE(typo);
  CHECK_THAT(typo.error().to_string(), Catch::StartsWith("c.toml:5:1: unknown key 'url'"));
}

TEST_CASE("the example configuration is valid", "[daemon][config]") {
  auto config = read_daemon_config(EPDD_SOURCE_DIR "/examples/epdd.toml");
  INFO((config ? std::string() : config.error().to_string()));
  REQUIRE(config);
  CHECK(config->engines.size() == 2);
  CHECK(config->spool);
}

TEST_CASE("job spec: keep_keys and counters round trip, and specs written before them still read", "[daemon][spec]") {
  JobSpec s;
  s.kind = "analyse";
  s.input = "mates.epd";
  s.engine = "stockfish";
  s.keep_keys = true;
  s.counters_as_operations = true;
  auto back = spec_from_json(spec_to_json(s));
  REQUIRE(back);
  CHECK(back->keep_keys);
  CHECK(back->counters_as_operations);
  // A store written by the previous version: neither key.
  const std::string old = R"({"kind":"analyse","input":"a.epd","engine":"sf","limits":{"nodes":10},"multipv":1,)"
                          R"("new_game":"clear","keep_existing":false,"chess960":false,"ce_for_white":false})";
  auto read_old = spec_from_json(old);
  REQUIRE(read_old);
  CHECK_FALSE(read_old->keep_keys);
  CHECK_FALSE(read_old->counters_as_operations);
  auto bad = spec_from_json(R"({"kind":"analyse","input":"a.epd","engine":"sf","limits":{},"multipv":1,)"
                            R"("new_game":"clear","keep_existing":false,"chess960":false,"ce_for_white":false,)"
                            R"("counters":"both"})");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("'counters' is 'both', not keep or ops"));
}
