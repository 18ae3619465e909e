// pgn::read_ahead: the games a reader reads, read on a thread ahead of their use, are the games
// the reader reads on the caller's thread, in order, with the same diagnostics; failures on
// either side reach the caller, and nothing hangs.
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <streambuf>

#include "pgn_test_support.hpp"

using namespace epdd;

namespace {

// What a game is, for comparing: its number and line, and its whole export (tags, comments,
// NAGs, variations).
std::string fingerprint(const pgn::Game& g) {
  return std::to_string(g.number) + "@" + std::to_string(g.line) + "\n" + pgn::export_game(g);
}

std::vector<std::string> read_in_turn(std::string_view text, pgn::Diagnostics& diags) {
  std::vector<std::string> out;
  pgn::GameReader reader(text, diags);
  for (pgn::Game g; reader.next(g);) out.push_back(fingerprint(g));
  return out;
}

// A stream that fails (its buffer throws) after `limit` bytes: a read error in the middle of a file.
class FailingBuffer : public std::streambuf {
 public:
  FailingBuffer(std::string text, std::size_t limit) : text_(std::move(text)), limit_(limit) {}

 protected:
  int_type underflow() override {
    if (at_ >= text_.size()) return traits_type::eof();
    if (at_ >= limit_) throw std::runtime_error("the disk went away");
    const std::size_t n = std::min<std::size_t>({4096, text_.size() - at_, limit_ - at_});
    setg(text_.data() + at_, text_.data() + at_, text_.data() + at_ + n);
    at_ += n;
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::string text_;
  std::size_t limit_;
  std::size_t at_ = 0;
};

}  // namespace

TEST_CASE("read_ahead gives every game of a real file in order, as one reader does", "[pgn][read_ahead]") {
  // twic0920 (1,4xx games) and tcec's engine comments: more batches than are in flight, so the
  // batches are read into again; the last batch is partly full.
  for (const char* name : {"twic0920.pgn", "tcec-engine-comments.pgn", "heavily-annotated.pgn"}) {
    INFO(name);
    const std::string text = test::shared_file(name);
    pgn::Diagnostics alone_diags;
    const std::vector<std::string> alone = read_in_turn(text, alone_diags);
    REQUIRE(!alone.empty());

    pgn::Diagnostics diags;
    std::size_t heard = 0;
    diags.on_add([&heard](const pgn::Diagnostic&) { ++heard; });
    pgn::GameReader reader(text, diags);
    std::vector<std::string> ahead;
    pgn::read_ahead(reader, [&ahead](pgn::Game& g) { ahead.push_back(fingerprint(g)); });
    CHECK(ahead.size() == alone.size());
    CHECK(ahead == alone);
    CHECK(heard == alone_diags.size());
    CHECK(test::messages(diags) == test::messages(alone_diags));
  }
}

TEST_CASE("read_ahead keeps the order when every batch is read before the first is used", "[pgn][read_ahead]") {
  // Every game ends in an illegal move, a diagnostic the listener hears on the reading thread as
  // the game is read. The first use waits until the reader has reached game 4, so that batches
  // of one game, four in flight, are all full at once.
  std::string text;
  const char* lines[] = {"1. e4 {game #} e5 2. Qxh8", "1. d4 {game #} d5 2. Qxh8", "1. c4 {game #} e5 2. Bxf7",
                         "1. Nf3 {game #} d5 2. Nxd5", "1. e4 {game #} c5 2. Rxa7"};
  for (int i = 0; i < 40; ++i) {
    std::string line = lines[i % 5];
    line.replace(line.find('#'), 1, std::to_string(i + 1));
    text += line + " *\n\n";
  }
  pgn::Diagnostics diags;
  std::mutex mutex;
  std::condition_variable heard_more;
  std::size_t heard_game = 0;
  diags.on_add([&](const pgn::Diagnostic& d) {
    {
      std::lock_guard lock(mutex);
      heard_game = std::max(heard_game, d.game);
    }
    heard_more.notify_all();
  });
  pgn::GameReader reader(text, diags);
  std::vector<std::size_t> numbers;
  pgn::read_ahead(
      reader,
      [&](pgn::Game& g) {
        if (numbers.empty()) {
          std::unique_lock lock(mutex);
          heard_more.wait(lock, [&] { return heard_game >= 4; });
        }
        numbers.push_back(g.number);
        CHECK(pgn::export_game(g).find("{game " + std::to_string(g.number) + "}") != std::string::npos);
      },
      pgn::ReadAhead{1, 4});
  REQUIRE(numbers.size() == 40);
  for (std::size_t i = 0; i < numbers.size(); ++i) CHECK(numbers[i] == i + 1);
}

TEST_CASE("read_ahead on an empty input calls nothing", "[pgn][read_ahead]") {
  pgn::Diagnostics diags;
  pgn::GameReader reader(std::string_view(), diags);
  int calls = 0;
  pgn::read_ahead(reader, [&calls](pgn::Game&) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("read_ahead: a failure of the caller's stops the reader and reaches the caller", "[pgn][read_ahead]") {
  const std::string text = test::shared_file("twic0920.pgn");
  for (std::size_t fail_at : {0u, 1u, 63u, 64u, 300u}) {
    INFO("fails at game " << fail_at);
    pgn::Diagnostics diags;
    pgn::GameReader reader(text, diags);
    std::size_t used = 0;
    CHECK_THROWS_WITH(pgn::read_ahead(reader,
                                      [&](pgn::Game&) {
                                        if (used == fail_at) throw std::runtime_error("the build failed");
                                        ++used;
                                      }),
                      "the build failed");
    CHECK(used == fail_at);
  }
}

TEST_CASE("read_ahead: a read error reaches the caller after every game read before it", "[pgn][read_ahead]") {
  // Failures at several places, so that the reader fails in the middle of a batch too (a third of
  // twic0920 happens to end a batch of 64 exactly), and with small batches.
  const std::string text = test::shared_file("twic0920.pgn");
  for (const std::size_t limit : {text.size() / 3, text.size() / 3 + 20000, text.size() / 2 + 777}) {
    for (const pgn::ReadAhead ahead : {pgn::ReadAhead{}, pgn::ReadAhead{7, 2}}) {
      INFO("fails after byte " << limit << ", batches of " << ahead.batch_games);
      auto read_failing = [&](bool on_another_thread) {
        FailingBuffer buffer(text, limit);
        std::istream in(&buffer);
        in.exceptions(std::ios::badbit);
        pgn::Diagnostics diags;
        std::vector<std::string> games;
        std::string error;
        try {
          pgn::GameReader reader(in, diags);
          if (on_another_thread) {
            pgn::read_ahead(
                reader, [&games](pgn::Game& g) { games.push_back(fingerprint(g)); }, ahead);
          } else {
            for (pgn::Game g; reader.next(g);) games.push_back(fingerprint(g));
          }
        } catch (const std::exception& e) {
          error = e.what();
        }
        return std::make_pair(games, error);
      };
      const auto [alone, alone_error] = read_failing(false);
      const auto [ahead_games, ahead_error] = read_failing(true);
      CHECK(alone_error == "the disk went away");
      CHECK(ahead_error == alone_error);
      CHECK(alone.size() > 100);
      CHECK(ahead_games.size() == alone.size());
      CHECK(ahead_games == alone);
    }
  }
}
