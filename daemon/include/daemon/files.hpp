// Whole-file reading and atomic writing for the commands.
#pragma once

#include <string>

#include "core/expected.hpp"

namespace epdd::daemon {

// The bytes of a file, or a message naming the file (core::escaped) and the reason.
Expected<std::string, std::string> read_whole_file(const std::string& path);

// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
// `path`: readers see the old file or the new one, never a part. A message on failure (the path
// core::escaped).
Expected<void, std::string> write_file_atomically(const std::string& path, const std::string& content);

}  // namespace epdd::daemon
