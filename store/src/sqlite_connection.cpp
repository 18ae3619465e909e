#include "sqlite_connection.hpp"

#include <chrono>

namespace epdd::store::sqlite {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

bool Query::next() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  connection_.fail(what_);
}

void Query::check(int rc) {
  if (rc != SQLITE_OK) connection_.fail(what_);
}

}  // namespace epdd::store::sqlite
