// An InputBytes read in order as a std::istream (what pgn::GameReader reads), a chunk at a time.
#pragma once

#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "annotate/input_game.hpp"
#include "pgn/diagnostic.hpp"
#include "pgn/game.hpp"

namespace epdd::annotate::detail {

class PartBuffer final : public std::streambuf {
 public:
  explicit PartBuffer(const InputBytes& bytes) : bytes_(bytes) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (at_ >= bytes_.size) return traits_type::eof();
    chunk_ = bytes_.read(at_, kChunk);
    if (chunk_.empty()) return traits_type::eof();
    at_ += chunk_.size();
    setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 16;
  const InputBytes& bytes_;
  std::size_t at_ = 0;
  std::string chunk_;
};

// The stream; `bytes` must outlive it.
class PartStream final : public std::istream {
 public:
  explicit PartStream(const InputBytes& bytes) : std::istream(nullptr), buffer_(bytes) { rdbuf(&buffer_); }

 private:
  PartBuffer buffer_;
};

// The bytes of an InputBytes read forward one at a time, a chunk held (line counting).
class ForwardBytes {
 public:
  explicit ForwardBytes(const InputBytes& bytes) : bytes_(bytes) {}
  // The byte at `offset` (offsets must not decrease); '\0' past the end.
  char at(std::size_t offset) {
    if (offset >= bytes_.size) return '\0';
    if (offset < start_ || offset >= start_ + chunk_.size()) {
      start_ = offset;
      chunk_ = bytes_.read(offset, std::size_t{1} << 16);
      if (chunk_.empty()) return '\0';
    }
    return chunk_[offset - start_];
  }
  std::size_t size() const { return bytes_.size; }

 private:
  const InputBytes& bytes_;
  std::size_t start_ = 0;
  std::string chunk_;
};

class Places;  // scan.cpp: lines and columns of offsets that only grow

// The games of an input classified as a pgn::GameReader over the same bytes gives them, by
// scan_games' rules (input_game.hpp): the scanner takes the reader's Diagnostics (it sets their
// on_add and keeps none), then each game the reader reads, in order. (`known_utf8`: the caller
// knows the encoding already, from scan_games' list or all_utf8(): InputGame::latin1 is not
// computed, and left false.)
class GameScanner {
 public:
  GameScanner(const InputBytes& bytes, pgn::Diagnostics& diags, bool known_utf8 = false);
  ~GameScanner();
  GameScanner(const GameScanner&) = delete;
  GameScanner& operator=(const GameScanner&) = delete;
  // The game the reader has just read, as scan_games lists it.
  InputGame take(const pgn::Game& game);
  // Where the text after the games taken so far starts: the first byte after the last one's end
  // (from the input's start when there is none) that is not white space; the input's size when none.
  std::size_t tail_begin();

 private:
  std::unique_ptr<Places> places_;
  ForwardBytes forward_;
  std::vector<pgn::Diagnostic> errors_;  // the reader's errors since the last game taken
  std::size_t previous_end_ = 0;
  bool first_ = true;
  bool known_utf8_;
};

}  // namespace epdd::annotate::detail
