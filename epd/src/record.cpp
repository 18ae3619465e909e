#include "epd/record.hpp"

#include "core/fen.hpp"
#include "core/text.hpp"
#include "epd/opcodes.hpp"

#include <algorithm>

namespace epdd::epd {

namespace {

using core::quoted_escaped;

// A stray CR (one not ending the line, noted by the line reader) separates like a blank: kept
// as a fragment, canonical writing could put it last, where read again it ends the line.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_opcode_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }

// Parses one line. Kept as a class so that the many small steps share the cursor and the
// "report spacing once per record" state without long parameter lists.
class LineParser {
 public:
  LineParser(const std::string& s, std::size_t line, Diagnostics& diags) : s_(s), line_(line), diags_(diags) {}

  std::size_t pos() const { return i_; }
  void rewind(std::size_t pos) { i_ = pos; }
  bool at_end() const { return i_ >= s_.size(); }
  char peek() const { return s_[i_]; }

  // Skips blanks; returns how many, noting irregular spacing (runs, tabs) once per record.
  std::size_t skip_space(bool expect_single) {
    const std::size_t start = i_;
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
    const std::size_t gap = i_ - start;
    if (expect_single && !at_end() && (gap > 1 || (gap == 1 && s_[start] == '\t')))
      note_spacing(start, "separated by more than one space or by a tab (the standard uses one space)");
    return gap;
  }

  void note_spacing(std::size_t at, const std::string& what) {
    if (spacing_noted_) return;
    spacing_noted_ = true;
    diags_.add(Problem::Spacing, line_, at + 1, "fields and operations " + what);
  }

  std::size_t token() {
    const std::size_t start = i_;
    while (i_ < s_.size() && !is_space(s_[i_])) ++i_;
    return start;
  }

  // A lone '-' where an operation would start, or a lone number right after the four fields: a
  // placeholder some suites write for a missing FEN counter (`... b kq - - bm Qxa1;`). Kept as a
  // fragment that needs no ';', with a note, so that the operations after it are read (as
  // python-chess does). source_length 0 when there is none here.
  Operation placeholder(bool after_fields) {
    Operation op;
    const std::string_view t = token_here();
    const bool number = after_fields && !t.empty() && std::all_of(t.begin(), t.end(), is_digit);
    if (t != "-" && !number) return op;
    if (i_ + t.size() < s_.size() && !is_space(s_[i_ + t.size()])) return op;  // `-;`, `0;`: not lone
    diags_.add(Problem::Placeholder, line_, i_ + 1,
               quoted_escaped(t) + " where an operation should start (a placeholder for a missing FEN counter?): "
               "skipped and kept");
    op.column = static_cast<std::uint32_t>(i_ + 1);
    op.source_offset = static_cast<std::uint32_t>(i_);
    op.source_length = static_cast<std::uint32_t>(t.size());
    i_ += t.size();
    return op;
  }

  // Reads one operation starting at the cursor (not at a blank). Anything that is not an
  // operation becomes one with an empty opcode so that lossless writing keeps it.
  Operation operation() {
    Operation op;
    const std::size_t start = i_;
    op.column = static_cast<std::uint32_t>(start + 1);
    std::size_t end = start;
    while (end < s_.size() && is_opcode_char(s_[end])) ++end;
    const bool opcode_ok = is_letter(s_[start]) && (end == s_.size() || is_space(s_[end]) || s_[end] == ';');
    if (!opcode_ok) {
      op.terminated = skip_to_semicolon(op.open_string);
      if (!op.terminated)
        while (i_ > start && is_space(s_[i_ - 1])) --i_;  // trailing blanks belong to the line
      const std::string text = s_.substr(start, i_ - start);
      diags_.add(Problem::OpcodeSyntax, line_, start + 1,
                 quoted_escaped(text) + " is not an operation (an opcode is a letter followed by letters, digits or "
                 "'_'); kept as written");
      op.source_offset = static_cast<std::uint32_t>(start);
      op.source_length = static_cast<std::uint32_t>(i_ - start);
      return op;
    }
    op.opcode = s_.substr(start, end - start);
    if (op.opcode.size() > 15)
      diags_.add(Problem::OpcodeLength, line_, start + 1,
                 "opcode '" + op.opcode + "' is longer than the standard's 15 characters");
    i_ = end;
    op.terminated = false;
    const OpcodeSpec* spec = find_opcode(op.opcode);
    const bool moves = spec && is_move_type(spec->type);
    for (bool first = true;; first = false) {
      const std::size_t before_gap = i_;
      const std::size_t gap = skip_space(true);
      if (at_end()) {
        i_ = before_gap;  // trailing blanks belong to the line, not to the operation
        break;
      }
      if (peek() == ';') {
        ++i_;
        op.terminated = true;
        break;
      }
      // Also with no gap (`pv "Kd2"pm`): canonical writing puts a space there, and the same
      // text must be read the same way before and after.
      if (moves && !first && glued_opcode_here()) {
        diags_.add(Problem::GluedOperation, line_, i_ + 1,
                   quoted_escaped(token_here()) + " is an opcode, not a move: '" + op.opcode +
                       "' has no ';' before it, read as the start of a new operation");
        i_ = before_gap;
        break;
      }
      if (gap == 0 && !first) note_spacing(i_, "written without a space between operands");
      if (!read_operand(op)) {
        op.open_string = true;
        break;
      }
    }
    const bool last = s_.find_first_not_of(" \t\r", i_) == std::string::npos;
    if (!op.terminated && last && !unterminated_string_)
      diags_.add(Problem::MissingSemicolon, line_, s_.size() + 1,
                 "operation '" + op.opcode + "' is not terminated by ';' at the end of the line");
    op.source_offset = static_cast<std::uint32_t>(start);
    op.source_length = static_cast<std::uint32_t>(i_ - start);
    return op;
  }

 private:
  // Returns false when the line ended inside an unterminated string.
  bool read_operand(Operation& op) {
    Operand operand;
    operand.column = static_cast<std::uint32_t>(i_ + 1);
    if (peek() == '"') {
      const std::size_t close = s_.find('"', i_ + 1);
      if (close == std::string::npos) {
        diags_.add(Problem::UnterminatedString, line_, i_ + 1,
                   "string operand of '" + op.opcode + "' has no closing quote; read to the end of the line");
        operand.text = s_.substr(i_ + 1);
        operand.quoted = true;
        i_ = s_.size();
        unterminated_string_ = true;
        op.operands.push_back(std::move(operand));
        return false;
      }
      operand.text = s_.substr(i_ + 1, close - i_ - 1);
      operand.quoted = true;
      i_ = close + 1;
    } else {
      const std::size_t start = i_;
      while (i_ < s_.size() && !is_space(s_[i_]) && s_[i_] != ';') ++i_;
      operand.text = s_.substr(start, i_ - start);
    }
    op.operands.push_back(std::move(operand));
    return true;
  }

  // Moves past the next ';' outside quotes; false when the line ended first (`open_string`
  // then says whether it ended inside a quote).
  bool skip_to_semicolon(bool& open_string) {
    bool in_string = false;
    while (i_ < s_.size() && (in_string || s_[i_] != ';')) {
      if (s_[i_] == '"') in_string = !in_string;
      ++i_;
    }
    open_string = in_string;
    if (i_ == s_.size()) return false;
    ++i_;
    return true;
  }

  std::string_view token_here() const {
    std::size_t end = i_;
    while (end < s_.size() && !is_space(s_[end]) && s_[end] != ';') ++end;
    return std::string_view(s_).substr(i_, end - i_);
  }

  // The token at the cursor is an opcode of the standard that cannot be a move (c1-c8 are
  // squares as well as comment registers, so a pawn move such as `c4` stays a move).
  bool glued_opcode_here() const {
    const std::string_view t = token_here();
    const bool square = t.size() == 2 && t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
    return !square && find_opcode(t) != nullptr;
  }

  const std::string& s_;
  std::size_t line_;
  Diagnostics& diags_;
  std::size_t i_ = 0;
  bool spacing_noted_ = false;
  bool unterminated_string_ = false;
};

bool all_digits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), is_digit);
}

}  // namespace

std::optional<EpdRecord> EpdRecord::parse(std::string line, std::size_t line_number, Diagnostics& diags,
                                          std::string* not_a_record) {
  EpdRecord r;
  r.source_ = std::move(line);
  r.line_ = line_number;
  const std::string& s = r.source_;
  LineParser p(s, line_number, diags);

  auto reject = [&]() -> std::optional<EpdRecord> {
    if (not_a_record) *not_a_record = std::move(r.source_);
    return std::nullopt;
  };
  p.skip_space(false);
  if (p.at_end() || p.peek() == '#') return reject();
  if (p.pos() > 0) p.note_spacing(0, "start with white space before the first field");
  for (int f = 0; f < 4; ++f) {
    if (f > 0) p.skip_space(true);
    if (p.at_end()) {
      diags.add(Problem::NotARecord, line_number, s.size() + 1,
                "only " + std::to_string(f) +
                    " field" + (f == 1 ? "" : "s") + ": an EPD record starts with four (placement, side to move, "
                    "castling, en passant)");
      return reject();
    }
    const std::size_t start = p.token();
    r.fields_[f] = {static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(p.pos() - start)};
  }
  r.head_ = {0, static_cast<std::uint32_t>(p.pos())};

  // FEN counters: two numbers where the first operation would be (no opcode starts with a digit).
  {
    const std::size_t save = p.pos();
    p.skip_space(false);
    const std::size_t first = p.token();
    const std::string_view half(s.data() + first, p.pos() - first);
    p.skip_space(false);
    const std::size_t second = p.token();
    const std::string_view full(s.data() + second, p.pos() - second);
    if (all_digits(half) && all_digits(full)) {
      r.counters_ = FenCounters{std::string(half), std::string(full), static_cast<std::uint32_t>(first + 1)};
      r.head_.length = static_cast<std::uint32_t>(p.pos());
      diags.add(Problem::FenCounters, line_number, first + 1,
                "FEN halfmove clock and fullmove number after the four fields (read as hmvc " +
                    std::string(half) + " and fmvn " + std::string(full) + ")");
    } else {
      p.rewind(save);
    }
  }

  for (;;) {
    const std::size_t gap_start = p.pos();
    p.skip_space(true);
    if (p.at_end()) {
      r.trailing_ = {static_cast<std::uint32_t>(gap_start), static_cast<std::uint32_t>(s.size() - gap_start)};
      break;
    }
    if (p.pos() == gap_start)
      p.note_spacing(p.pos(), "written without a space between them");
    Operation op = p.placeholder(r.ops_.empty());
    if (op.source_length == 0) op = p.operation();
    op.before_offset = static_cast<std::uint32_t>(gap_start);
    op.before_length = static_cast<std::uint32_t>(op.source_offset - gap_start);
    r.ops_.push_back(std::move(op));
  }
  return r;
}

EpdRecord EpdRecord::from_position(std::string_view four_fields) {
  Diagnostics ignored;
  auto r = parse(std::string(four_fields), 0, ignored);
  return r ? std::move(*r) : EpdRecord{};
}

void EpdRecord::clear_fen_counters() {
  counters_.reset();
  head_.length = fields_[3].offset + fields_[3].length;
}

std::string EpdRecord::position() const {
  std::string out;
  out.reserve(source_.size());
  for (int f = 0; f < 4; ++f) {
    if (f) out += ' ';
    out += field(f);
  }
  return out;
}

const Operation* EpdRecord::find(std::string_view opcode) const {
  for (const Operation& op : ops_)
    if (op.opcode == opcode) return &op;
  return nullptr;
}

std::optional<std::string_view> EpdRecord::single_operand(std::string_view opcode) const {
  const Operation* op = find(opcode);
  if (!op || op->operands.size() != 1) return std::nullopt;
  return std::string_view(op->operands.front().text);
}

void EpdRecord::set(std::string_view opcode, std::vector<Operand> operands) {
  auto it = std::find_if(ops_.begin(), ops_.end(), [&](const Operation& op) { return op.opcode == opcode; });
  if (it != ops_.end()) {
    const std::size_t i = static_cast<std::size_t>(it - ops_.begin());
    replace_operands(i, std::move(operands));
    ops_.erase(std::remove_if(ops_.begin() + static_cast<std::ptrdiff_t>(i) + 1, ops_.end(),
                              [&](const Operation& op) { return op.opcode == opcode; }),
               ops_.end());
    return;
  }
  Operation op;
  op.opcode = std::string(opcode);
  op.operands = std::move(operands);
  const auto at = std::find_if(ops_.begin(), ops_.end(), [&](const Operation& o) { return o.opcode > opcode; });
  ops_.insert(at, std::move(op));
}

void EpdRecord::replace_operands(std::size_t i, std::vector<Operand> operands) {
  Operation& op = ops_[i];
  op.operands = std::move(operands);
  op.terminated = true;
  op.source_length = 0;  // written anew
}

std::size_t EpdRecord::erase(std::string_view opcode) {
  const auto before = ops_.size();
  ops_.erase(std::remove_if(ops_.begin(), ops_.end(), [&](const Operation& op) { return op.opcode == opcode; }),
             ops_.end());
  return before - ops_.size();
}

void EpdRecord::sort_operations() {
  std::stable_sort(ops_.begin(), ops_.end(), [](const Operation& a, const Operation& b) { return a.opcode < b.opcode; });
}

namespace {

// An operation or fragment as read, followed by what it needs when something now follows it:
// a closing quote for a string cut off by the end of the line, a ';' for an unterminated one.
void append_as_read(std::string& out, std::string_view source, const Operation& op, bool last) {
  out += source.substr(op.source_offset, op.source_length);
  if (op.terminated || last) return;
  if (op.open_string) out += '"';
  out += ';';
}

}  // namespace

void append_operation(std::string& out, const Operation& op) {
  out += op.opcode;
  for (const Operand& operand : op.operands) {
    out += ' ';
    if (operand.quoted) out += '"';
    out += operand.text;
    if (operand.quoted) out += '"';
  }
  out += ';';
}

std::string EpdRecord::canonical_text() const {
  std::string out = position();
  if (counters_) {
    out += ' ';
    out += counters_->halfmove;
    out += ' ';
    out += counters_->fullmove;
  }
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    const Operation& op = ops_[i];
    out += ' ';
    // Text that was not an operation (reported when read) is kept as written.
    if (op.opcode.empty()) append_as_read(out, source_, op, i + 1 == ops_.size());
    else append_operation(out, op);
  }
  return out;
}

std::string EpdRecord::preserved_text() const {
  const std::string_view s(source_);
  std::string out(s.substr(head_.offset, head_.length));
  for (std::size_t i = 0; i < ops_.size(); ++i) {
    const Operation& op = ops_[i];
    if (op.before_length) out += s.substr(op.before_offset, op.before_length);
    else out += ' ';
    if (op.unchanged()) {
      append_as_read(out, s, op, i + 1 == ops_.size());
    } else {
      append_operation(out, op);
    }
  }
  out += s.substr(trailing_.offset, trailing_.length);
  return out;
}

Expected<core::Board, std::string> position_board(std::string_view four_fields, bool chess960) {
  core::FenReadOptions options;
  options.fields = core::FenFields::Four;
  options.chess960 = chess960;
  auto board = core::parse_fen(four_fields, options);
  if (board) return std::move(*board);
  if (!chess960) {
    options.chess960 = true;
    if (auto xfen = core::parse_fen(four_fields, options)) return std::move(*xfen);
  }
  return unexpected(core::to_string(board.error()));
}

}  // namespace epdd::epd
