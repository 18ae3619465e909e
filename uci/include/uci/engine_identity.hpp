#pragma once
// What an engine says about itself in the UCI handshake: apart from the session, for what names
// an engine (the store's identity of a result, reports) without driving one.
#include <string>
#include <vector>

#include "uci/protocol.hpp"

namespace epdd::uci {

// What the engine said about itself in the handshake.
struct EngineIdentity {
  std::string name;    // `id name`, or the configured name if it gave none
  std::string author;
  std::vector<OptionLine> options;  // as declared, in order
};

}  // namespace epdd::uci
