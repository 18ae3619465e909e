// An InputBytes read in order as a std::istream (what pgn::GameReader reads), a chunk at a time.
#pragma once

#include <istream>
#include <streambuf>
#include <string>

#include "annotate/input_game.hpp"

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

}  // namespace epdd::annotate::detail
