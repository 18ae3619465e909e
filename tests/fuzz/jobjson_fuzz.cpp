// Job JSON as the store keeps it and reads it back as untrusted input: any bytes through
// spec_from_json (jobs.spec), request_from_json (items.request) and analysis_from_json (a
// result). Properties: nothing escapes as an exception; whatever is accepted writes (the
// matching writer) to JSON that reads back and writes to the same text: writing after one
// reading is a fixed point.
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/job_spec.hpp"
#include "fuzz_check.hpp"
#include "store/analysis_json.hpp"

using namespace epdd;

namespace {

// read(text) accepted => write(read(write(read(text)))) == write(read(text)).
template <class Read, class Write>
void check_fixed_point(std::string_view text, std::string_view what, Read read, Write write) {
  const auto first = read(text);
  if (!first) return;
  const std::string written = write(*first);
  const auto again = read(written);
  fuzz::require(again.has_value(), std::string(what) + ": JSON written from what was read does not read back",
                written, again ? std::string() : again.error());
  fuzz::require(write(*again) == written, std::string(what) + ": writing is not a fixed point", written,
                write(*again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  check_fixed_point(text, "job spec", daemon::spec_from_json, daemon::spec_to_json);
  check_fixed_point(text, "analysis request", daemon::request_from_json, daemon::request_to_json);
  check_fixed_point(text, "analysis", store::analysis_from_json, store::analysis_to_json);
  return 0;
}
