#include "book/epd_output.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/first_paths.hpp"
#include "core/notation.hpp"

namespace epdd::book {

namespace {

// The standard's limit on a string operand: fewer than 256 bytes.
constexpr std::size_t kMaxString = 255;

// " pv ...;": principal_line from n in SAN (played on `board`, n's position), continued by the
// engine PV of the analysed leaf it ends on; at most `limit` plies; nothing when there is no
// move. `steps`: room for the line.
void append_pv(std::string& out, const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses, NodeId n,
               core::Board board, std::size_t limit, std::vector<LineStep>& steps) {
  if (limit == 0) return;
  const std::size_t empty = out.size();
  out += " pv";
  principal_steps(dag, values, n, limit, steps);
  std::size_t plies = 0;
  NodeId at = n;
  for (const LineStep& step : steps) {
    out += ' ';
    out += core::to_san(board, step.move);
    ++plies;
    board.make_move(step.move);
    at = step.to;
  }
  const auto analysed = dag.is_leaf(at) ? analyses.find(at) : analyses.end();
  if (analysed != analyses.end() && !analysed->second.lines.empty()) {
    const auto castling = core::uci_castling_for(board);
    for (const std::string& text : analysed->second.lines.front().pv) {
      if (plies == limit) break;
      auto m = core::parse_uci(board, text, castling);
      if (!m) break;
      out += ' ';
      out += core::to_san(board, *m);
      ++plies;
      board.make_move(*m);
    }
  }
  if (plies == 0) out.resize(empty);
  else out += ';';
}

const char* kind_of(const Dag& dag, const NodeValue& v, NodeId n) {
  if (dag.node(n).terminal != Terminal::None) return "terminal";
  if (!v.ce) return "unvalued";
  if (v.incomplete) return "incomplete";
  return dag.is_leaf(n) ? "leaf" : "interior";
}

// ` opcode "text";`, the text cut to the standard's limit on a string. `length`: the whole
// text's, when `text` is only its start (at least kMaxString + 1 characters of it).
void append_string_operation(std::string& out, std::string_view opcode, std::string_view text,
                             std::size_t length = std::string_view::npos) {
  if (length == std::string_view::npos) length = text.size();
  out += ' ';
  out += opcode;
  out += " \"";
  if (length > kMaxString) {
    out += text.substr(0, kMaxString - 3);
    out += "...";
  } else {
    out += text;
  }
  out += "\";";
}

// ` opcode N;`.
void append_number_operation(std::string& out, std::string_view opcode, long long value) {
  out += ' ';
  out += opcode;
  out += ' ';
  out += std::to_string(value);
  out += ';';
}

// A node's record (see the header) as epd::EpdRecord::canonical_text writes one: the four
// fields, then the operations in ASCII order of their opcodes (acd acn acs bm c0 ce id pv).
// (Written straight into the output: a book of millions of positions writes millions.)
void append_record(std::string& out, const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                   const EpdOutputOptions& options, FirstPathIds& ids, std::vector<LineStep>& steps, NodeId n) {
  core::Board board = board_of(dag, n);
  const NodeValue& v = values.nodes[n];
  out += fields_of(board);
  if (const auto analysed = analyses.find(n); analysed != analyses.end() && dag.is_leaf(n)) {
    append_number_operation(out, "acd", analysed->second.depth);
    append_number_operation(out, "acn", static_cast<long long>(analysed->second.nodes));
    append_number_operation(out, "acs", static_cast<long long>(analysed->second.time_ms / 1000));
  }
  if (!v.best_moves.empty()) {
    out += " bm";
    for (const core::Move m : v.best_moves) {
      out += ' ';
      out += core::to_san(board, m);
    }
    out += ';';
  }
  append_string_operation(out, "c0", kind_of(dag, v, n));
  if (v.ce) {
    const bool turned = options.ce_for_white && board.side_to_move() == core::Color::Black;
    append_number_operation(out, "ce", turned ? -*v.ce : *v.ce);
  }
  std::size_t id_length = 0;
  const std::string_view id = ids.next(n, id_length);
  append_string_operation(out, "id", id, id_length);
  append_pv(out, dag, values, analyses, n, std::move(board), options.pv_plies.value_or(std::numeric_limits<std::size_t>::max()),
            steps);
  out += '\n';
}

}  // namespace

void write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                    const EpdOutputOptions& options, const std::function<void(std::string_view)>& write,
                    const FirstPaths* paths) {
  constexpr std::size_t kPart = std::size_t{1} << 16;
  std::optional<FirstPaths> made;
  const FirstPaths& f = paths ? *paths : made.emplace(first_paths(dag, options.root_names));
  FirstPathIds ids(dag, f, kMaxString + 1);
  std::string out;
  std::vector<LineStep> steps;
  for (const NodeId n : f.order) {
    append_record(out, dag, values, analyses, options, ids, steps, n);
    if (out.size() >= kPart) {
      write(out);
      out.clear();
    }
  }
  if (!out.empty()) write(out);
}

std::string write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                           const EpdOutputOptions& options) {
  std::string out;
  write_book_epd(dag, values, analyses, options, [&out](std::string_view part) { out += part; });
  return out;
}

std::vector<NodeId> book_nodes(const Dag& dag, const RootNames* root_names) {
  return first_paths(dag, root_names).order;
}

std::string write_leaves_epd(const Dag& dag, const RootNames* root_names) {
  const FirstPaths f = first_paths(dag, root_names);
  std::string out;
  FirstPathIds ids(dag, f, kMaxString + 1);
  for (const NodeId n : f.order) {
    std::size_t id_length = 0;
    const std::string_view id = ids.next(n, id_length);  // (every node's, in order)
    if (!dag.is_leaf(n) || dag.node(n).terminal != Terminal::None) continue;
    out += fields_of(board_of(dag, n));
    append_string_operation(out, "c0", "leaf");
    append_string_operation(out, "id", id, id_length);
    out += '\n';
  }
  return out;
}

}  // namespace epdd::book
