// The standard's Numeric Annotation Glyphs 0-139 with their meanings.
#pragma once

#include <string_view>

namespace epdd::pgn {

// What NAG n means ("good move (traditional \"!\")"); empty for numbers the standard reserves.
std::string_view nag_meaning(int n);

}  // namespace epdd::pgn
