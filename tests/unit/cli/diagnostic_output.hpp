// For tests of commands that print many diagnostics: an output that keeps none of the text
// (only counts, so that the test itself stays small), and the process's peak memory.
#pragma once

#include <sys/resource.h>

#include <cstdio>
#include <map>
#include <streambuf>
#include <string>
#include <string_view>

namespace epdd::test {

// The process's peak resident size so far, in KB.
inline long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// A stream buffer that reads the `FILE:LINE:COLUMN: severity: ... [kind]` lines written to it
// and keeps only counts: how many such lines, how many of each `[kind]`, and whether their
// places ever went back in the file.
class DiagnosticLines : public std::streambuf {
 public:
  explicit DiagnosticLines(std::string file) : prefix_(std::move(file) + ":") {}
  void feed(std::string_view text) {
    for (char c : text) put(c);
  }
  std::size_t lines() const { return lines_; }
  std::size_t count(const std::string& kind) const {
    const auto it = kinds_.find(kind);
    return it == kinds_.end() ? 0 : it->second;
  }
  bool in_file_order() const { return in_order_; }

 protected:
  int overflow(int c) override {
    if (c != EOF) put(static_cast<char>(c));
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    feed({s, static_cast<std::size_t>(n)});
    return n;
  }

 private:
  void put(char c) {
    if (c != '\n') {
      line_ += c;
      return;
    }
    unsigned long line = 0, column = 0;
    if (line_.compare(0, prefix_.size(), prefix_) == 0 &&
        std::sscanf(line_.c_str() + prefix_.size(), "%lu:%lu:", &line, &column) == 2) {
      ++lines_;
      if (line < last_line_ || (line == last_line_ && column < last_column_)) in_order_ = false;
      last_line_ = line;
      last_column_ = column;
      if (const auto open = line_.rfind('['); open != std::string::npos) ++kinds_[line_.substr(open)];
    }
    line_.clear();
  }

  std::string prefix_;
  std::string line_;
  std::size_t lines_ = 0;
  std::map<std::string, std::size_t> kinds_;
  unsigned long last_line_ = 0, last_column_ = 0;
  bool in_order_ = true;
};

}  // namespace epdd::test
