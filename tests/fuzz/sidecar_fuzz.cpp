// Spool sidecars: any bytes as NAME.toml beside a spool input, read the way the spool reads it
// (parse_job_settings on top of the [spool] defaults of a configuration, file names relative
// to the sidecar's folder). Properties: nothing escapes as an exception; an error names the
// sidecar and one of its lines; accepted settings have a registered kind and limits in their
// documented ranges; when the spool takes them, their spec (spec_to_json, as the store keeps
// it) reads back to the same text; the sidecar applied again on its own result changes nothing.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "config_check.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/job_spec.hpp"

using namespace epdd;

namespace {

constexpr std::string_view kSidecar = "game.toml";
constexpr std::string_view kSidecarPath = "/fuzz/spool/inbox/game.toml";

// The [spool] defaults a sidecar goes on top of, as a configuration file gives them.
const daemon::JobSpec& spool_defaults() {
  static const daemon::JobSpec defaults = [] {
    const auto config = daemon::parse_daemon_config(R"(
[[engine]]
name = "stockfish"
command = "/usr/games/stockfish"
[[engine]]
name = "ethereal"
command = "/usr/games/ethereal-chess"
[spool]
directory = "spool"
kind = "analyse"
engine = "stockfish"
movetime = 1000
)",
                                                    "/fuzz/epdd.toml");
    if (!config || !config->spool) fuzz::violated("the fixed configuration does not read");
    return config->spool->defaults;
  }();
  return defaults;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const auto settings = daemon::parse_job_settings(text, kSidecar, spool_defaults(), kSidecarPath);
  if (!settings) {
    fuzz::check_error(settings.error(), text, kSidecar);
    return 0;
  }
  fuzz::check_job_settings(*settings);
  const auto again = daemon::parse_job_settings(text, kSidecar, *settings, kSidecarPath);
  fuzz::require(again.has_value(), "a sidecar accepted once is refused on top of its own result",
                again ? std::string() : again.error().to_string());
  fuzz::require(daemon::spec_to_json(*again) == daemon::spec_to_json(*settings),
                "a sidecar applied again on top of its own result changes it", daemon::spec_to_json(*settings),
                daemon::spec_to_json(*again));
  return 0;
}
