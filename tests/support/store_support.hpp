// Shared by the store's tests: a store opened or the test stopped with SQLite's reason.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "store/store.hpp"

namespace epdd::test {

inline std::unique_ptr<store::Store> open_store(const std::string& path) {
  auto store = store::Store::open(path);
  INFO((store ? std::string() : store.error()));
  REQUIRE(store.has_value());
  return std::move(*store);
}

}  // namespace epdd::test
