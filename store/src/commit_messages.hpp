// What each commit of an item is doing, for its StoreError messages: the same words in every
// backend. Private to store/src.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace epdd::store {

inline std::string analysis_what(std::int64_t job, std::int64_t index) {
  return fmt::format("committing the analysis of item {} of job {}", index, job);
}
inline std::string cached_what(std::int64_t job, std::int64_t index) {
  return fmt::format("committing the cached analysis of item {} of job {}", index, job);
}
inline std::string failure_what(std::int64_t job, std::int64_t index) {
  return fmt::format("recording the failure of item {} of job {}", index, job);
}

}  // namespace epdd::store
