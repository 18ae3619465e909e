// EpdRecord: one EPD line, kept losslessly. The four position fields are kept verbatim (a board
// would regenerate them and could change an en passant field or castling letters); operations
// are kept in input order with their operands, whether each was quoted, and their exact source
// text, so that a record written back changes only the operations that were changed.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "epd/diagnostic.hpp"

namespace epdd::epd {

struct Operand {
  std::string text;  // without the quotes
  bool quoted = false;
  std::uint32_t column = 0;  // 1-based column in the source line; 0 for an operand made by a program
};

// One operation of a record, or a fragment: text where an operation should be that could not
// be read as one (empty opcode). Fragments are kept and written back verbatim by every writer.
struct Operation {
  std::string opcode;  // empty for a fragment
  std::vector<Operand> operands;
  std::uint32_t column = 0;  // 1-based column of the opcode; 0 for an operation made by a program
  // Ended by ';' (or needing none: a placeholder fragment). Lacking it: the last one of a line,
  // or one glued to the next (`bm Rc8+ dm 26`).
  bool terminated = true;
  bool open_string = false;  // its last operand is a string whose closing quote is missing

  // Where the operation stands in the record's source line: the white space before it and its
  // own text up to and including ';'. Empty for operations made or changed by a program.
  std::uint32_t before_offset = 0, before_length = 0;
  std::uint32_t source_offset = 0, source_length = 0;
  bool unchanged() const { return source_length > 0; }
};

// A FEN halfmove clock and fullmove number written after the four fields (not EPD, but common).
struct FenCounters {
  std::string halfmove;
  std::string fullmove;
  std::uint32_t column = 0;
};

// The board of a record's four position fields (EpdRecord::position()), or why it is not a
// legal one. `chess960`: KQkq mean the outermost rooks (X-FEN) from the start; without it a
// position that reads only as X-FEN (castling rights on other rooks) is read as one too.
Expected<core::Board, std::string> position_board(std::string_view four_fields, bool chess960 = false);

class EpdRecord {
 public:
  // Reads one line (without its line ending) as a record. Problems of syntax go to `diags`;
  // nullopt for a line that is not a record at all (blank, comment, fewer than four fields),
  // whose text is then moved to *not_a_record if given, for the caller to keep verbatim.
  static std::optional<EpdRecord> parse(std::string line, std::size_t line_number, Diagnostics& diags,
                                        std::string* not_a_record = nullptr);

  // A record for a position given as four fields (no operations).
  static EpdRecord from_position(std::string_view four_fields);

  std::size_t line() const { return line_; }
  // The line as read, without its line ending.
  const std::string& source() const { return source_; }
  // Field 0 placement, 1 side to move, 2 castling, 3 en passant: verbatim.
  std::string_view field(int i) const { return std::string_view(source_).substr(fields_[i].offset, fields_[i].length); }
  std::uint32_t field_column(int i) const { return fields_[i].offset + 1; }
  // The four fields joined by single spaces.
  std::string position() const;
  const std::optional<FenCounters>& fen_counters() const { return counters_; }
  // Drops the FEN counters (after canonicalize turned them into hmvc/fmvn).
  void clear_fen_counters();

  const std::vector<Operation>& operations() const { return ops_; }
  // The first operation with this opcode, or nullptr.
  const Operation* find(std::string_view opcode) const;
  // The single operand of an operation that has exactly one, else nullopt.
  std::optional<std::string_view> single_operand(std::string_view opcode) const;
  // Sets an operation: replaces the first with this opcode (dropping later duplicates) where it
  // stands, or inserts it in ASCII order among the others (before the first greater opcode).
  void set(std::string_view opcode, std::vector<Operand> operands);
  // Replaces the operands of operation i in place (the operation is then written anew).
  void replace_operands(std::size_t i, std::vector<Operand> operands);
  // Removes every operation with this opcode; returns how many.
  std::size_t erase(std::string_view opcode);
  // Sorts the operations into ASCII order of their opcodes (stable).
  void sort_operations();

  // Canonical text: the four fields, then each operation as `opcode operand ...;`, single
  // spaces, strings quoted as recorded. FEN counters, if still present, follow the fields.
  std::string canonical_text() const;
  // Lossless text: the source line with only the changed operations rewritten (canonically)
  // and new ones added with one space before them.
  std::string preserved_text() const;

 private:
  struct Span {
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
  };

  std::string source_;
  std::size_t line_ = 0;
  std::array<Span, 4> fields_{};
  std::optional<FenCounters> counters_;
  Span head_;      // fields (and counters) as read, up to the white space before the first operation
  Span trailing_;  // what follows the last operation read (white space)
  std::vector<Operation> ops_;
};

// Writes one operation canonically: `opcode operand ...;`.
void append_operation(std::string& out, const Operation& op);

}  // namespace epdd::epd
