// Expected<T, E>: the return type of every parser and engine call (tl::expected, from Debian's
// libexpected-dev, until the standard library's arrives with C++23).
#pragma once

#include <tl/expected.hpp>

namespace epdd {

template <class T, class E>
using Expected = tl::expected<T, E>;
using tl::unexpected;

}  // namespace epdd
