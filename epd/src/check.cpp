#include "epd/check.hpp"

#include <algorithm>
#include <climits>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "epd/matetrack.hpp"
#include "epd/opcodes.hpp"

namespace epdd::epd {

namespace {

using core::quoted_escaped;

// A move operand after joining spaced promotions ("a8 = B").
struct MoveText {
  std::string text;
  std::uint32_t column;
};

// Checks one record. A class so that the steps share the record, the options, the sink and the
// result without long parameter lists.
class Checker {
 public:
  Checker(const EpdRecord& r, const CheckOptions& o, Diagnostics& d) : r_(r), o_(o), d_(d), line_(r.line()) {}

  CheckedRecord run() {
    out_.moves.resize(r_.operations().size());
    position();
    clocks();
    order_and_duplicates();
    for (std::size_t i = 0; i < r_.operations().size(); ++i) operation(i);
    cross_checks();
    return std::move(out_);
  }

 private:
  void add(Problem p, std::uint32_t column, std::string message) { d_.add(p, line_, column, std::move(message)); }

  // The column in the source line of a column in the four fields joined by single spaces.
  std::uint32_t source_column(std::size_t joined_column) const {
    std::size_t start = 1;
    for (int f = 0; f < 4; ++f) {
      const std::size_t end = start + r_.field(f).size();
      if (joined_column <= end || f == 3)
        return static_cast<std::uint32_t>(r_.field_column(f) + (joined_column - std::min(joined_column, start)));
      start = end + 1;
    }
    return r_.field_column(0);
  }

  void position() {
    core::FenReadOptions fen;
    fen.fields = core::FenFields::Four;
    fen.chess960 = o_.chess960;
    const std::string text = r_.position();
    auto board = core::parse_fen(text, fen);
    if (board) {
      out_.board = std::move(*board);
      return;
    }
    fen.lenient = true;
    std::vector<core::FenNote> notes;
    auto tolerated = core::parse_fen(text, fen, &notes);
    if (!tolerated) {
      add(Problem::Position, source_column(board.error().column), board.error().message);
      return;
    }
    for (const core::FenNote& n : notes)
      add(n.xfen ? Problem::XFenCastling : Problem::PositionTolerated, source_column(n.column),
          n.xfen ? n.message : n.message + " (read leniently)");
    out_.board = std::move(*tolerated);
  }

  // hmvc/fmvn operations, else FEN counters, set the board's clocks.
  void clocks() {
    if (!out_.board) return;
    std::optional<long long> half, full;
    if (const auto& c = r_.fen_counters()) {
      half = parse_integer(c->halfmove);
      full = parse_integer(c->fullmove);
    }
    if (auto v = r_.single_operand("hmvc")) half = parse_integer(*v);
    if (auto v = r_.single_operand("fmvn")) full = parse_integer(*v);
    if (!half && !full) return;
    core::Setup s = out_.board->to_setup();
    if (half && *half >= 0 && *half <= 0xFFFF) s.halfmove_clock = static_cast<int>(*half);
    if (full && *full >= 1 && *full <= 1'000'000) s.fullmove_number = static_cast<int>(*full);
    out_.board = core::Board::from_setup(s);
  }

  void order_and_duplicates() {
    const auto& ops = r_.operations();
    std::string_view previous;
    bool order_noted = false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const Operation& op = ops[i];
      if (op.opcode.empty()) continue;
      for (std::size_t j = 0; j < i; ++j)
        if (ops[j].opcode == op.opcode) {
          add(Problem::DuplicateOpcode, op.column,
              "'" + op.opcode + "' appears a second time (the standard allows one per record; both are kept)");
          break;
        }
      if (!order_noted && !previous.empty() && op.opcode < previous) {
        add(Problem::OperationOrder, op.column,
            "'" + op.opcode + "' follows '" + std::string(previous) +
                "': the standard puts operations in ASCII order of their opcodes");
        order_noted = true;
      }
      previous = op.opcode;
    }
  }

  bool count(const Operation& op, std::size_t min, std::size_t max, const char* expected) {
    const std::size_t n = op.operands.size();
    if (n >= min && n <= max) return true;
    add(Problem::OperandCount, op.column,
        "'" + op.opcode + "' takes " + expected + ", found " + std::to_string(n) + " operand" + (n == 1 ? "" : "s"));
    return false;
  }

  std::optional<long long> integer(const Operation& op, const Operand& a, long long min, long long max,
                                   const char* what) {
    const auto v = parse_integer(a.text);
    if (!v) {
      add(Problem::OperandType, a.column, "'" + op.opcode + "' takes " + what + ", not " + quoted_escaped(a.text));
      return std::nullopt;
    }
    if (*v < min || *v > max) {
      add(Problem::OperandRange, a.column,
          "'" + op.opcode + "' takes " + what + "; " + a.text + " is out of range");
      return std::nullopt;
    }
    return v;
  }

  void string(const Operation& op, const Operand& a) {
    if (!a.quoted)
      add(Problem::UnquotedString, a.column, "the string operand of '" + op.opcode + "' is not in quotes");
    if (a.text.size() >= 256)
      add(Problem::StringLength, a.column,
          "string of " + std::to_string(a.text.size()) + " bytes (the standard allows fewer than 256)");
  }

  void centipawns(const Operation& op) {
    if (!count(op, 1, 1, "one integer")) return;
    const Operand& a = op.operands[0];
    if (const auto v = parse_integer(a.text)) {
      auto score = core::Score::from_ce(*v);
      if (!score) {
        add(Problem::OperandRange, a.column, score.error());
        return;
      }
      out_.ce = *score;
      if (score->is_mate() && score->mate_plies() != 0 && (score->mate_plies() > 0) != (score->mate_plies() % 2 != 0))
        add(Problem::CeMate, a.column,
            "ce " + a.text + " is a mate in " + std::to_string(std::abs(score->mate_plies())) + " plies " +
                (score->mate_plies() > 0 ? "for" : "against") + " the side to move, which takes an " +
                (score->mate_plies() > 0 ? "odd" : "even") + " number of plies");
      return;
    }
    // "+M3", "-M2", "#3", "#-2": mate in moves, as some tools write it.
    std::string_view t = a.text;
    bool negative = false;
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
      negative = t[0] == '-';
      t.remove_prefix(1);
    }
    if (!t.empty() && (t[0] == 'M' || t[0] == '#')) {
      t.remove_prefix(1);
      if (!t.empty() && t[0] == '-') {
        negative = !negative;
        t.remove_prefix(1);
      }
      const auto moves = parse_integer(t);
      if (moves && *moves > 0 && *moves <= core::Score::kMaxMatePlies / 2) {
        out_.ce = core::Score::from_uci_mate(static_cast<int>(negative ? -*moves : *moves));
        add(Problem::CeMate, a.column,
            "ce " + quoted_escaped(a.text) + " is not an integer; read as " + (negative ? "mated in " : "mate in ") +
                std::to_string(*moves) + " (ce " + std::to_string(out_.ce->to_ce()) + ")");
        return;
      }
    }
    add(Problem::OperandType, a.column, "'ce' takes an integer (centipawns), not " + quoted_escaped(a.text));
  }

  std::vector<MoveText> move_texts(const Operation& op) {
    std::vector<MoveText> texts;
    bool spaced = false;
    for (const Operand& a : op.operands) {
      const bool joins = !texts.empty() && (a.text.front() == '=' || texts.back().text.back() == '=');
      if (joins) {
        texts.back().text += a.text;
        spaced = true;
      } else {
        texts.push_back({a.text, a.column});
      }
    }
    if (spaced)
      add(Problem::MoveForm, op.column, "'" + op.opcode + "' has a promotion written with spaces (like 'a8 = B')");
    return texts;
  }

  void move_operands(std::size_t i, const Operation& op, OperandType type) {
    if (!o_.moves || !out_.board) return;
    if (op.opcode == "bm" && op.operands.size() == 1)
      if (const auto mate = parse_mate_key(op.operands[0].text)) {
        add(Problem::MateKey, op.operands[0].column,
            "bm " + op.operands[0].text + ": matetrack convention, " +
                (*mate > 0 ? "mate in " + std::to_string(*mate) + " for the side to move"
                           : "the side to move gets mated in " + std::to_string(-*mate)));
        return;
      }
    const std::vector<MoveText> texts = move_texts(op);
    if (type == OperandType::SingleMove && texts.size() != 1) {
      add(Problem::OperandCount, op.column,
          "'" + op.opcode + "' takes exactly one move, found " + std::to_string(texts.size()));
      return;
    }
    core::Board board = out_.board->detached();
    std::vector<core::Move> result;
    for (const MoveText& t : texts) {
      auto m = core::parse_san(board, t.text);
      if (!m) {
        const Problem p = m.error().kind == core::MoveErrorKind::Ambiguous ? Problem::AmbiguousMove : Problem::IllegalMove;
        std::string where = "'" + op.opcode + "'";
        if (type == OperandType::MoveSequence) where += " move " + std::to_string(result.size() + 1);
        add(p, t.column, where + ": " + m.error().message);
        return;
      }
      if (m->leniency != core::Leniency::None || !m->annotation.empty()) {
        std::string how = core::describe(m->leniency);
        if (!m->annotation.empty()) how += std::string(how.empty() ? "" : ", ") + "annotation '" + std::string(m->annotation) + "'";
        add(Problem::MoveForm, t.column,
            "'" + op.opcode + "' " + quoted_escaped(t.text) + " read as " + core::to_san(board, m->move) + " (" + how + ")");
      }
      result.push_back(m->move);
      if (type == OperandType::MoveSequence) board.make_move(m->move);
    }
    if (type == OperandType::MoveSet && !std::is_sorted(texts.begin(), texts.end(), [](const auto& a, const auto& b) {
          return a.text < b.text;
        }))
      add(Problem::MoveOrder, op.column, "the moves of '" + op.opcode + "' are not in ASCII order");
    out_.moves[i] = std::move(result);
  }

  void operation(std::size_t i) {
    const Operation& op = r_.operations()[i];
    if (op.opcode.empty()) return;
    const OpcodeSpec* spec = find_opcode(op.opcode);
    if (!spec) {
      if (!is_private_opcode(op.opcode))
        add(Problem::UnknownOpcode, op.column,
            "unknown opcode '" + op.opcode + "' (ignored, as the standard says, and kept)");
      return;
    }
    switch (spec->type) {
      case OperandType::None: count(op, 0, 0, "no operands"); break;
      case OperandType::NonNegativeInteger: {
        const long long max = op.opcode == "hmvc" ? 0xFFFF : LLONG_MAX;
        if (count(op, 1, 1, "one integer")) integer(op, op.operands[0], 0, max, "a non-negative integer");
        break;
      }
      case OperandType::PositiveInteger: {
        const long long max = op.opcode == "fmvn" ? 1'000'000 : LLONG_MAX;
        if (count(op, 1, 1, "one integer")) integer(op, op.operands[0], 1, max, "a positive integer");
        break;
      }
      case OperandType::Centipawns: centipawns(op); break;
      case OperandType::OptionalString:
        if (count(op, 0, 1, "one string or none") && !op.operands.empty()) string(op, op.operands[0]);
        break;
      case OperandType::String:
        if (count(op, 1, 1, "one string")) string(op, op.operands[0]);
        break;
      case OperandType::TwoStrings:
        if (count(op, 2, 2, "two strings (address and name)"))
          for (const Operand& a : op.operands) string(op, a);
        break;
      case OperandType::MoveSet:
      case OperandType::MoveSequence:
      case OperandType::SingleMove: move_operands(i, op, spec->type); break;
      case OperandType::Any: break;
    }
  }

  void cross_checks() {
    const auto& ops = r_.operations();
    auto moves_of = [&](std::string_view opcode) -> const std::vector<core::Move>* {
      for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].opcode == opcode) return out_.moves[i] ? &*out_.moves[i] : nullptr;
      return nullptr;
    };
    const auto* pm = moves_of("pm");
    const auto* pv = moves_of("pv");
    if (pm && pv && !pm->empty() && !pv->empty() && pm->front() != pv->front())
      add(Problem::PmPv, r_.find("pm")->column,
          "pm " + core::to_san(*out_.board, pm->front()) + " is not the first move of pv (" +
              core::to_san(*out_.board, pv->front()) + ")");
    const auto dm = r_.single_operand("dm");
    if (dm && out_.ce && out_.ce->is_mate()) {
      const auto n = parse_integer(*dm);
      if (n && *n > 0 && out_.ce->mate_plies() != 2 * *n - 1)
        add(Problem::CeMate, r_.find("ce")->column,
            "ce says mate in " + std::to_string(out_.ce->mate_plies()) + " plies but dm " + std::string(*dm) +
                " is " + std::to_string(2 * *n - 1) + " plies");
    }
    for (const char* draw : {"draw_claim", "draw_offer"})
      if (const Operation* op = r_.find(draw); op && !r_.find("sm"))
        add(Problem::DrawNeedsSm, op->column, std::string(draw) + " needs an sm operation with the move in the same record");
  }

  const EpdRecord& r_;
  const CheckOptions& o_;
  Diagnostics& d_;
  std::size_t line_;
  CheckedRecord out_;
};

std::vector<Operand> unquoted(std::vector<std::string> texts) {
  std::vector<Operand> out;
  out.reserve(texts.size());
  for (auto& t : texts) out.push_back({std::move(t), false, 0});
  return out;
}

bool same_operands(const std::vector<Operand>& a, const std::vector<Operand>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Operand& x, const Operand& y) {
           return x.text == y.text && x.quoted == y.quoted;
         });
}

// The canonical operands of operation i, or nullopt to leave it as written.
std::optional<std::vector<Operand>> canonical_operands(const Operation& op, std::size_t i, const CheckedRecord& c) {
  const OpcodeSpec* spec = find_opcode(op.opcode);
  if (!spec) return std::nullopt;
  std::vector<Operand> result = op.operands;
  switch (spec->type) {
    case OperandType::MoveSet:
    case OperandType::MoveSequence:
    case OperandType::SingleMove: {
      if (!c.moves[i] || !c.board) return std::nullopt;
      core::Board board = c.board->detached();
      std::vector<std::string> san;
      for (core::Move m : *c.moves[i]) {
        san.push_back(core::to_san(board, m));
        if (spec->type == OperandType::MoveSequence) board.make_move(m);
      }
      if (spec->type == OperandType::MoveSet) std::sort(san.begin(), san.end());
      return unquoted(std::move(san));
    }
    case OperandType::OptionalString:
    case OperandType::String:
    case OperandType::TwoStrings:
      for (Operand& a : result)
        if (a.text.find('"') == std::string::npos) a.quoted = true;
      return result;
    case OperandType::NonNegativeInteger:
    case OperandType::PositiveInteger:
      for (Operand& a : result)
        if (a.text.size() > 1 && a.text[0] == '+' && parse_integer(a.text)) a.text.erase(0, 1);
      return result;
    case OperandType::Centipawns:
      if (!c.ce || result.size() != 1) return std::nullopt;
      result[0] = {std::to_string(c.ce->to_ce()), false, 0};
      return result;
    case OperandType::None:
    case OperandType::Any: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

CheckedRecord check_record(const EpdRecord& record, const CheckOptions& options, Diagnostics& diags) {
  return Checker(record, options, diags).run();
}

void canonicalize(EpdRecord& record, const CheckedRecord& checked, bool counters_as_operations) {
  // Operations first: `checked.moves` is indexed like the operations as read.
  for (std::size_t i = 0; i < record.operations().size(); ++i) {
    const Operation& op = record.operations()[i];
    auto operands = canonical_operands(op, i, checked);
    if (operands && !same_operands(*operands, op.operands)) record.replace_operands(i, std::move(*operands));
  }
  if (counters_as_operations) counters_to_operations(record);
}

bool counters_to_operations(EpdRecord& record) {
  // Only when the operations would check (the canonical record must check as cleanly as the
  // input) and would not contradict hmvc/fmvn already there (the counters' text would be lost).
  const auto counters = record.fen_counters();
  if (!counters) return false;
  const auto fits = [&](const char* opcode, const std::string& text, long long min, long long max) {
    const auto v = parse_integer(text);
    if (!v || *v < min || *v > max) return false;
    const auto existing = record.single_operand(opcode);
    return !record.find(opcode) || (existing && parse_integer(*existing) == v);
  };
  if (!fits("hmvc", counters->halfmove, 0, 0xFFFF) || !fits("fmvn", counters->fullmove, 1, 1'000'000)) return false;
  if (!record.find("hmvc")) record.set("hmvc", {{counters->halfmove, false, 0}});
  if (!record.find("fmvn")) record.set("fmvn", {{counters->fullmove, false, 0}});
  record.clear_fen_counters();
  return true;
}

CheckedDocument check_document(std::string_view bytes, const CheckOptions& options) {
  CheckedDocument c;
  c.doc = read_document(bytes, c.diags);
  c.checked.resize(c.doc.lines.size());
  for (std::size_t i = 0; i < c.doc.lines.size(); ++i)
    if (c.doc.lines[i].record) c.checked[i] = check_record(*c.doc.lines[i].record, options, c.diags);
  c.diags.sort_by_position();
  return c;
}

std::size_t canonicalize_document(CheckedDocument& c, bool sort_ops) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < c.doc.lines.size(); ++i) {
    auto& record = c.doc.lines[i].record;
    if (!record) continue;
    canonicalize(*record, c.checked[i]);
    if (sort_ops) record->sort_operations();
    changed += record->canonical_text() != record->source();
  }
  return changed;
}

std::size_t check_stream(std::string_view bytes, const CheckOptions& options, Diagnostics& diags) {
  // One line's diagnostics (the reader's come before the checker's, at any column), put in
  // order before they are passed on: `diags` sees the file in order and may keep few of them.
  Diagnostics line_diags;
  EpdStreamReader reader(bytes, line_diags);
  std::size_t records = 0;
  for (EpdLine line; reader.next(line); diags.add_in_place_order(line_diags)) {
    if (!line.record) continue;
    ++records;
    check_record(*line.record, options, line_diags);
  }
  return records;
}

FormatResult format_stream(std::string_view bytes, const CheckOptions& options, bool sort_ops, Diagnostics& diags,
                           bool counters_as_operations) {
  FormatResult result;
  result.text.reserve(bytes.size() + bytes.size() / 8);
  Diagnostics line_diags;  // as in check_stream
  EpdStreamReader reader(bytes, line_diags);
  if (reader.bom()) result.text += "\xEF\xBB\xBF";
  for (EpdLine line; reader.next(line); diags.add_in_place_order(line_diags)) {
    if (line.record) {
      EpdRecord& record = *line.record;
      canonicalize(record, check_record(record, options, line_diags), counters_as_operations);
      if (sort_ops) record.sort_operations();
      const std::string text = record.canonical_text();
      ++result.records;
      result.rewritten += text != record.source();
      result.text += text;
    } else {
      result.text += line.text;
    }
    result.text += line.ending;
  }
  return result;
}

void Registers::apply(const EpdRecord& record) {
  for (const Operation& op : record.operations()) {
    const std::string& code = op.opcode;
    const std::optional<std::string> value =
        op.operands.empty() ? std::nullopt : std::optional<std::string>(op.operands.front().text);
    if (code.size() == 2 && (code[0] == 'c' || code[0] == 'v') && code[1] >= '0' && code[1] <= '9') {
      auto& registers = code[0] == 'c' ? comments_ : variations_;
      const int n = code[1] - '0';
      for (int k = n; k < 10; ++k) registers[k].reset();
      registers[n] = value;
    } else if (code == "eco") {
      eco_ = value;
    } else if (code == "nic") {
      nic_ = value;
    }
  }
}

}  // namespace epdd::epd
