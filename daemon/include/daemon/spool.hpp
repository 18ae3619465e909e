// The spool directory of `epdd serve`: files dropped into inbox/ become jobs; results land in
// outbox/; the input moves to done/, or to failed/ with NAME.error saying why.
//
// When a file is taken: it is a regular file directly in inbox/ (not a symbolic link, not in a
// subfolder), its name does not begin with '.' and does not end in .part, .tmp or '~' (write
// there, then rename into place: a rename is always safe), and it has not been modified for
// settle_seconds (so a file copied in slowly is taken once the copy has stopped). NAME.toml
// beside NAME.epd (or NAME.pgn) is its sidecar (the job settings; the [spool] defaults
// otherwise) and must have settled too; a .toml file is never an input. A *.epd file is a job of
// the [spool] kind (analyse by default); a *.pgn file is an annotate job (a sidecar may set
// annotate's settings: judge, variation_plies, ...), or a book job with a sidecar saying
// kind = "book"; a *.bin file (Polyglot) is a book job. A sidecar's file names (book's import)
// are relative to inbox/.
//
// Outputs (written atomically): analyse jobs: outbox/NAME (the EPD with the analysis); suite
// jobs: outbox/NAME (the EPD with analysis opcodes), outbox/STEM.report.txt, outbox/STEM.json;
// annotate jobs: outbox/NAME (the annotated PGN), outbox/STEM.report.txt and outbox/STEM.json
// (the summary); book jobs: outbox/STEM.epd (the backsolved book), STEM.pgn, STEM.bin,
// STEM.report.txt and STEM.json. Records (games, leaves) that could not be analysed are listed in
// outbox/STEM.errors. A file that cannot be a job (not EPD, PGN or Polyglot, nothing to analyse,
// a bad sidecar, an engine not in the configuration) goes to failed/ at once, with NAME.error. A
// name already in done/ or failed/ gets "-JOB" added.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/job_spec.hpp"
#include "store/store.hpp"

namespace epdd::daemon {

class Spool {
 public:
  explicit Spool(SpoolSettings settings);
  // Creates inbox/ outbox/ done/ failed/ where missing.
  Expected<void, std::string> prepare();
  void reconfigure(SpoolSettings settings) { settings_ = std::move(settings); }
  const SpoolSettings& settings() const { return settings_; }

  // Makes jobs of the files that have settled, once each; moves what cannot be a job to
  // failed/. `engines`: the configured engine names (the first is the default). Returns the
  // ids of the jobs made or found.
  std::vector<std::int64_t> scan(store::Store& store, const std::vector<std::string>& engines);

 private:
  // The inbox's files that have settled and were not taken yet (sidecars aside); forgets the
  // files that have left it.
  std::vector<std::string> ready_names();
  // The job spec of a file: [spool]'s settings, its sidecar's on top, outputs in outbox/; or why
  // it cannot be a job.
  Expected<JobSpec, std::string> spec_for(const std::string& name, bool has_sidecar,
                                          const std::vector<std::string>& engines) const;
  // Makes a job of one settled file, or moves it to failed/ with why; nothing while its sidecar
  // is still being written.
  std::optional<std::int64_t> take(store::Store& store, const std::vector<std::string>& engines,
                                   const std::string& name);

  SpoolSettings settings_;
  std::map<std::string, std::int64_t> taken_;  // inbox name -> job
};

// Delivers a job that came from a spool directory: outputs to outbox/, the input (and its
// sidecar) to done/ (finished) or failed/ with NAME.error (failed, cancelled). `message`: why,
// for failed/. What a finished job changed of its input's operations (changes_note: analyse's
// keys) is written to outbox/NAME.report.txt where the kind has no report, and to `note`.
// Returns where the input is now (the path in done/ or failed/), or what went wrong.
Expected<std::string, std::string> deliver_spool_job(store::Store& store, const store::JobRow& job, const JobSpec& spec,
                                                     bool ok, const std::string& message, std::string* note = nullptr);

// Whether a delivery can write the spool directory `spool_dir` now (outbox/, and inbox/, done/
// and failed/, between which the input moves); else which directory cannot be written and why
// (a read-only or full filesystem, permissions). The daemon then leaves the job undelivered: the
// input stays in inbox/ and the delivery is tried again when its lease expires.
Expected<void, std::string> spool_writable(const std::string& spool_dir);

// The spec of a job from these settings (default limit: movetime 1000).
JobSpec spec_from_settings(const JobSpec& settings, const std::string& input);

}  // namespace epdd::daemon
