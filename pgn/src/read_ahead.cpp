// Games read on a thread of their own while the caller uses them (pgn/reader.hpp).
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "pgn/reader.hpp"

namespace epdd::pgn {

namespace {

// Games pass between the threads in batches, and the batches' games are used again: a game's
// moves, tags and variations keep their memory from one game to the next, as with one reader.
struct Batch {
  std::vector<Game> games;
  std::size_t count = 0;
};

}  // namespace

void read_ahead(GameReader& reader, const std::function<void(Game&)>& each, ReadAhead ahead) {
  const std::size_t batch_games = std::max<std::size_t>(ahead.batch_games, 1);
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Batch> full;   // read, in the order of the input
  std::vector<Batch> free;  // used, to be read into again
  free.resize(std::max<std::size_t>(ahead.batches, 1));
  for (Batch& b : free) b.games.resize(batch_games);
  bool read_all = false;  // the reader has pushed its last batch (or failed)
  bool stop = false;      // the caller has failed: the reader is to stop
  std::exception_ptr reader_error;

  // Reads batches until the input ends, fails, or the caller stops it.
  const auto read_batches = [&] {
    while (true) {
      Batch batch;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return !free.empty() || stop; });
        if (stop) return;
        batch = std::move(free.back());
        free.pop_back();
      }
      batch.count = 0;
      // A failure of the reader ends the input after the games read before it: the batch is
      // handed over with them, then the error.
      std::exception_ptr error;
      try {
        while (batch.count < batch_games && reader.next(batch.games[batch.count])) ++batch.count;
      } catch (...) {
        error = std::current_exception();
      }
      const bool last = batch.count < batch_games || error;
      {
        std::lock_guard lock(mutex);
        full.push_back(std::move(batch));
        reader_error = error;
        read_all = last;
      }
      changed.notify_all();
      if (last) return;
    }
  };
  std::thread reading([&] {
    try {
      read_batches();
    } catch (...) {  // (no memory for a batch's place in the queue)
      {
        std::lock_guard lock(mutex);
        reader_error = std::current_exception();
        read_all = true;
      }
      changed.notify_all();
    }
  });

  try {
    while (true) {
      Batch batch;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return !full.empty() || read_all; });
        if (full.empty()) break;
        batch = std::move(full.front());
        full.pop_front();
      }
      for (std::size_t i = 0; i < batch.count; ++i) each(batch.games[i]);
      {
        std::lock_guard lock(mutex);
        free.push_back(std::move(batch));
      }
      changed.notify_all();
    }
  } catch (...) {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    changed.notify_all();
    reading.join();
    throw;
  }
  reading.join();
  // The games read before the failure were all used, as a reader on this thread would have.
  if (reader_error) std::rethrow_exception(reader_error);
}

}  // namespace epdd::pgn
