// Checking a record against the standard: the position, every operation's operands by the
// opcode catalogue, moves legal from the position; and the canonical form of a checked record.
#pragma once

#include <optional>
#include <vector>

#include "core/board.hpp"
#include "core/score.hpp"
#include "epd/diagnostic.hpp"
#include "epd/document.hpp"
#include "epd/record.hpp"

namespace epdd::epd {

struct CheckOptions {
  // Castling letters KQkq mean the outermost rooks (X-FEN). File letters are always Chess960.
  bool chess960 = false;
  // Read the move operands (am, bm, pm, pv, sm) and check them against the position. This is
  // most of the cost of checking.
  bool moves = true;
};

// What checking learnt about a record.
struct CheckedRecord {
  // The position with its clocks (hmvc/fmvn or FEN counters); nullopt when the four fields are
  // not a legal position.
  std::optional<core::Board> board;
  // Per operation (same index as the record's operations): the moves its operands name, for
  // move opcodes whose every move was read; nullopt otherwise.
  std::vector<std::optional<std::vector<core::Move>>> moves;
  // The ce value as a score when it was read (also from a form like +M1).
  std::optional<core::Score> ce;
};

CheckedRecord check_record(const EpdRecord& record, const CheckOptions& options, Diagnostics& diags);

// Rewrites a checked record into canonical form: moves in SAN (am/bm in ASCII order), string
// operands quoted, a '+' sign dropped from integers, ce mate forms (+M3) as numbers, FEN counters
// as hmvc/fmvn operations. Operations that did not check cleanly are left as written.
// counters_as_operations false: FEN counters after the fields stay as they are.
void canonicalize(EpdRecord& record, const CheckedRecord& checked, bool counters_as_operations = true);

// A whole file read and checked; diagnostics of reading and checking in line order.
struct CheckedDocument {
  EpdDocument doc;
  std::vector<CheckedRecord> checked;  // one per line; default for lines that are not records
  Diagnostics diags;
};

CheckedDocument check_document(std::string_view bytes, const CheckOptions& options);

// Moves FEN counters written after the fields into hmvc/fmvn operations (standard EPD, which
// python-chess and other readers take), unless those would not check (`1 0` would be `fmvn 0`)
// or the record has hmvc/fmvn already. Returns whether the record changed.
bool counters_to_operations(EpdRecord& record);

// canonicalize() for every record (sorting operations when asked); returns how many records
// now differ from the line they were read from.
std::size_t canonicalize_document(CheckedDocument& checked, bool sort_ops);

// Checks a whole buffer one record at a time, keeping only the diagnostics. They reach `diags`
// in file order (line, then column), a line at a time: with a limit per kind or a listener set
// on it, memory does not grow with their number. Returns the number of records.
std::size_t check_stream(std::string_view bytes, const CheckOptions& options, Diagnostics& diags);

struct FormatResult {
  std::string text;  // the canonical file
  std::size_t records = 0;
  std::size_t rewritten = 0;  // records whose text changed
};

// The canonical form of a whole buffer, record by record (the same result as check_document,
// canonicalize_document and write_document(Canonical), without holding every record).
// Diagnostics reach `diags` as in check_stream.
FormatResult format_stream(std::string_view bytes, const CheckOptions& options, bool sort_ops, Diagnostics& diags,
                           bool counters_as_operations = true);

// The standard's register semantics of c0-c9 and v0-v9 (and eco, nic) over a sequence of
// records: cN clears registers N..9, then sets N when it has an operand.
class Registers {
 public:
  void reset() { *this = Registers(); }
  // Applies the record's register operations left to right.
  void apply(const EpdRecord& record);
  const std::optional<std::string>& comment(int n) const { return comments_[n]; }
  const std::optional<std::string>& variation(int n) const { return variations_[n]; }
  const std::optional<std::string>& eco() const { return eco_; }
  const std::optional<std::string>& nic() const { return nic_; }

 private:
  std::array<std::optional<std::string>, 10> comments_;
  std::array<std::optional<std::string>, 10> variations_;
  std::optional<std::string> eco_;
  std::optional<std::string> nic_;
};

}  // namespace epdd::epd
