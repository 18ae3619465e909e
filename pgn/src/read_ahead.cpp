// Games read on a thread of their own while the caller uses them (pgn/reader.hpp).
#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
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

// The batches between the reading thread and the caller's: free ones to read into, full ones to
// use, in the order of the input.
class Handover {
 public:
  explicit Handover(ReadAhead ahead) : batch_games_(std::max<std::size_t>(ahead.batch_games, 1)) {
    free_.resize(std::max<std::size_t>(ahead.batches, 1));
    for (Batch& b : free_) b.games.resize(batch_games_);
  }

  // The reading thread: batches until the input ends, the reader fails, or stop() is called.
  // A failure of the reader ends the input after the games read before it: their batch is
  // handed over with them, then the error.
  void read(GameReader& reader) {
    try {
      while (std::optional<Batch> batch = next_free()) {
        std::exception_ptr error;
        try {
          while (batch->count < batch_games_ && reader.next(batch->games[batch->count])) ++batch->count;
        } catch (...) {
          error = std::current_exception();
        }
        const bool last = batch->count < batch_games_ || error;
        hand_over(std::move(*batch), last, error);
        if (last) return;
      }
    } catch (...) {  // (no memory for a batch's place in the queue)
      hand_over(std::nullopt, true, std::current_exception());
    }
  }

  // The caller's thread: the next full batch, or nullopt once every batch read was taken.
  std::optional<Batch> take() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !full_.empty() || read_all_; });
    if (full_.empty()) return std::nullopt;
    Batch batch = std::move(full_.front());
    full_.pop_front();
    return batch;
  }

  // A used batch, to be read into again.
  void give_back(Batch batch) {
    {
      std::lock_guard lock(mutex_);
      free_.push_back(std::move(batch));
    }
    changed_.notify_all();
  }

  // The caller failed: the reading thread stops at its next batch.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
  }

  // The reader's failure, if it failed (read once the reading thread has ended).
  std::exception_ptr reader_error() const { return reader_error_; }

 private:
  std::optional<Batch> next_free() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !free_.empty() || stop_; });
    if (stop_) return std::nullopt;
    Batch batch = std::move(free_.back());
    free_.pop_back();
    batch.count = 0;
    return batch;
  }

  void hand_over(std::optional<Batch> batch, bool last, std::exception_ptr error) {
    {
      std::lock_guard lock(mutex_);
      if (batch) full_.push_back(std::move(*batch));
      if (error) reader_error_ = error;
      read_all_ = last;
    }
    changed_.notify_all();
  }

  const std::size_t batch_games_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch> full_;
  std::vector<Batch> free_;
  bool read_all_ = false;  // the reader has handed over its last batch (or failed)
  bool stop_ = false;
  std::exception_ptr reader_error_;
};

}  // namespace

void read_ahead(GameReader& reader, const std::function<void(Game&)>& each, ReadAhead ahead) {
  Handover handover(ahead);
  std::thread reading([&] { handover.read(reader); });
  try {
    while (std::optional<Batch> batch = handover.take()) {
      for (std::size_t i = 0; i < batch->count; ++i) each(batch->games[i]);
      handover.give_back(std::move(*batch));
    }
  } catch (...) {
    handover.stop();
    reading.join();
    throw;
  }
  reading.join();
  // The games read before the failure were all used, as a reader on this thread would have.
  if (const std::exception_ptr error = handover.reader_error()) std::rethrow_exception(error);
}

}  // namespace epdd::pgn
