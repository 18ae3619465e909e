// Internal to epdd_docs: epdd.toml(5), the configuration file's page.
#pragma once

#include <string>

#include "core/expected.hpp"

namespace epdd::cli::docs {

// The page, made from two sources that cannot drift apart: the keys are the configuration
// reader's own lists (daemon::config_tables()), each documented by its line in the example
// configuration `example_toml` (examples/epdd.toml: `key = value   # what it does`, continued on
// comment lines whose '#' stands in the same column; commented out where the example does not set
// it), which must have a line for every key; a job kind's own keys (keep_keys, judge ...) are
// documented by the kind's help text. The example is
// printed whole in EXAMPLE. An error (a key the reader accepts that the example does not document,
// or documents under the wrong table) says which key.
Expected<std::string, std::string> config_page(const std::string& example_toml, const std::string& version,
                                               const std::string& date = "");

}  // namespace epdd::cli::docs
