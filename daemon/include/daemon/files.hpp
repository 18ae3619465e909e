// Whole-file reading and atomic writing for the commands.
#pragma once

#include <initializer_list>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace epdd::daemon {

// "-" as a path is standard input (where a command reads) or standard output (where it writes),
// the habit of the Unix tools: every function here takes it so. Messages name it "-", like a file
// ("-:12:3: error: ..."), so that a diagnostic's place reads the same from a pipe.
inline constexpr std::string_view kStdio = "-";
inline bool is_stdio(std::string_view path) { return path == kStdio; }

// Whether one of `outputs` (nullopt: not given) is standard output: a text report printed
// beside them then goes to standard error, so that standard output holds that output alone.
inline bool any_on_stdout(const std::vector<std::optional<std::string>>& outputs) {
  for (const auto& path : outputs)
    if (path && is_stdio(*path)) return true;
  return false;
}

// An error message, before any work, when more than one input or more than one output is "-":
// standard input can be read once, and two outputs on standard output would be one unreadable
// stream. Outputs not given (nullopt) are skipped.
Expected<void, std::string> check_stdio_once(const std::vector<std::string>& inputs,
                                             const std::vector<std::optional<std::string>>& outputs);

// A stream over `path` read from its start, in binary: standard input for "-" (not owned, read
// once), else the file. Check it first with check_readable_file: this one does not say why a file
// cannot be opened.
std::unique_ptr<std::istream> open_input_stream(const std::string& path);

// Makes std::cout write standard output with write(2) through a buffer of its own, which keeps
// the reason of a failed write for standard_output_ok; on a terminal each write is shown at once.
// main calls it first; once is enough.
void route_standard_output();

// Flushes std::cout and says whether everything written to standard output got there: false
// after a write error (a closed pipe: EPIPE, SIGPIPE being ignored; a full disk), with `message`
// saying so and why. main checks it last, so that an output lost is never an exit status 0.
bool standard_output_ok(std::string& message);

// The bytes of a file, or a message naming the file (core::escaped) and the reason ("is a
// directory", "Permission denied", ...). A directory is refused: read as a stream it would look
// empty. "-" is standard input, read to its end; once only: a second read is an error (it
// would see an empty input).
Expected<std::string, std::string> read_whole_file(const std::string& path);

// read_whole_file for the commands that read EPD: a PGN file is refused with a pointer to the
// commands that read PGN, instead of a report of every line as an illegal position.
Expected<std::string, std::string> read_epd_file(const std::string& path);

// For commands that stream a file themselves: an error message when `path` cannot be read as a
// file (missing, a directory, no permission), in the words read_whole_file uses.
Expected<void, std::string> check_readable_file(const std::string& path);

// For commands that write an output at the end of a long run: an error message, before the run,
// when `path` cannot be written (a directory, a folder that does not exist, no permission).
// "-": standard output, when it is open.
Expected<void, std::string> check_writable_output(const std::string& path);

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`: readers see the old file or the new one, never a part. A symbolic link is followed (its
// file is replaced, the link stays); a device or FIFO (-o /dev/null, a named pipe) is written in
// place, never replaced by a file. "-" is standard output, written in place as well (nothing to
// rename). A message on failure (the path core::escaped).
Expected<void, std::string> write_file_atomically(const std::string& path, const std::string& content);

// The same for an output written a part at a time (annotate writes each game as it renders it,
// so that a file of many games is never held whole): the parts go to a temporary file beside
// `path`; commit() flushes it and renames it over `path`. Until then readers see the old file;
// a file not committed (an error, an exception) is removed when the writer goes. "-" writes
// standard output as the parts come (a filter's output flows; nothing is held back).
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  // Appends. After a failure, further writes do nothing and commit() reports the first one.
  void write(std::string_view part);
  // Whether a write failed (a reader of standard output gone): a filter stops reading then.
  bool failed() const { return error_.has_value(); }
  Expected<void, std::string> commit();

 private:
  Expected<void, std::string> fail(const char* what);
  std::string path_, target_, temporary_;  // as named; the file written (a link followed)
  int fd_ = -1;
  bool in_place_ = false;  // a device or FIFO: written directly, nothing renamed
  std::optional<std::string> error_;
};

// A command's main output written a part at a time as it is made: into `path` through an
// AtomicFileWriter (the file appears, whole, at commit()), or without a path to `out`.
class OutputStream {
 public:
  OutputStream(const std::optional<std::string>& path, std::ostream& out);
  void write(std::string_view part);
  // Whether the output cannot be written on (a reader of standard output gone): a filter stops
  // reading its input then.
  bool failed() const { return file_ ? file_->failed() : !out_; }
  // The file in its place, or `out` flushed.
  Expected<void, std::string> commit();

 private:
  std::optional<AtomicFileWriter> file_;
  std::ostream& out_;
};

}  // namespace epdd::daemon
