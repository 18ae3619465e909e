// Whole-file reading and atomic writing for the commands.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace epdd::daemon {

// The bytes of a file, or a message naming the file (core::escaped) and the reason ("is a
// directory", "Permission denied", ...). A directory is refused: read as a stream it would look
// empty.
Expected<std::string, std::string> read_whole_file(const std::string& path);

// read_whole_file for the commands that read EPD: a PGN file is refused with a pointer to the
// commands that read PGN, instead of a report of every line as an illegal position.
Expected<std::string, std::string> read_epd_file(const std::string& path);

// For commands that stream a file themselves: an error message when `path` cannot be read as a
// file (missing, a directory, no permission), in the words read_whole_file uses.
Expected<void, std::string> check_readable_file(const std::string& path);

// For commands that write an output at the end of a long run: an error message, before the run,
// when `path` cannot be written (a directory, a folder that does not exist, no permission).
Expected<void, std::string> check_writable_output(const std::string& path);

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`: readers see the old file or the new one, never a part. A symbolic link is followed (its
// file is replaced, the link stays); a device or FIFO (-o /dev/null, a named pipe) is written in
// place, never replaced by a file. A message on failure (the path core::escaped).
Expected<void, std::string> write_file_atomically(const std::string& path, const std::string& content);

// The same for an output written a part at a time (annotate writes each game as it renders it,
// so that a file of many games is never held whole): the parts go to a temporary file beside
// `path`; commit() flushes it and renames it over `path`. Until then readers see the old file;
// a file not committed (an error, an exception) is removed when the writer goes.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  // Appends. After a failure, further writes do nothing and commit() reports the first one.
  void write(std::string_view part);
  Expected<void, std::string> commit();

 private:
  Expected<void, std::string> fail(const char* what);
  std::string path_, target_, temporary_;  // as named; the file written (a link followed)
  int fd_ = -1;
  bool in_place_ = false;  // a device or FIFO: written directly, nothing renamed
  std::optional<std::string> error_;
};

}  // namespace epdd::daemon
