// EPD records as book nodes, and their links by legal moves.
#include "book/inputs.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/fen.hpp"
#include "core/text.hpp"
#include "epd/document.hpp"

namespace epdd::book {

Expected<core::Board, std::string> read_epd_position(std::string_view four_fields, bool chess960) {
  return epd::position_board(four_fields, chess960);
}

namespace {

std::string at(std::string_view name, std::size_t line) { return std::string(name) + ":" + std::to_string(line); }

// A root's name as the outputs can quote it: a '"' (a file name's, an unquoted id's) becomes '\''.
std::string quotable(std::string name) {
  std::replace(name.begin(), name.end(), '"', '\'');
  return name;
}

// The reader's errors (lines that are no record, ...) as "FILE:LINE: why", in line order.
void reader_errors(const epd::Diagnostics& diags, std::string_view name, std::vector<std::string>& errors) {
  for (const epd::Diagnostic& d : diags.items())
    if (d.severity == epd::Severity::Error) errors.push_back(at(core::escaped(name), d.line) + ": " + core::one_line(d.message));
}

}  // namespace

EpdAdded add_epd(Dag& dag, std::string_view text, std::string_view name, const EpdInputOptions& options,
                 EpdInputs& inputs) {
  EpdAdded added;
  epd::Diagnostics diags;
  epd::EpdStreamReader reader(text, diags);
  std::unordered_set<NodeId> known(inputs.records.begin(), inputs.records.end());
  epd::EpdLine line;
  while (reader.next(line)) {
    if (!line.record) continue;
    ++added.records;
    const epd::EpdRecord& record = *line.record;
    auto board = read_epd_position(record.position(), options.chess960);
    if (!board) {
      diags.add(epd::Problem::Position, reader.line_number(), record.field_column(0),
                "not a legal position, so not a node of the book: " + board.error());
      continue;
    }
    const std::size_t before = dag.node_count();
    const NodeId n = dag.add_position(*board);
    added.nodes_added += dag.node_count() - before;
    if (!known.insert(n).second) {
      ++added.duplicates;
      continue;
    }
    inputs.records.push_back(n);
    const auto id = record.single_operand("id");
    inputs.names.try_emplace(n, quotable(id ? std::string(*id) : at(name, reader.line_number())));
  }
  reader_errors(diags, name, added.errors);
  if (options.link_epd) added.links = link_records(dag, inputs.records);
  return added;
}

std::size_t link_records(Dag& dag, const std::vector<NodeId>& records) {
  const std::unordered_set<NodeId> wanted(records.begin(), records.end());
  const std::size_t before = dag.edge_count();
  for (const NodeId n : records) {
    if (!dag.key(n)) continue;
    auto board = read_epd_position(dag.epd(n), dag.key(n)->chess960);
    if (!board) continue;  // the Dag wrote the fields from a position: cannot happen
    for (const core::Move m : board->legal_moves()) {
      core::Board child = board->detached();
      child.make_move(m);
      const NodeId to = dag.find(child);
      if (to != Dag::kNoNode && wanted.count(to) > 0) dag.add_edge(n, m, to);
    }
  }
  return dag.edge_count() - before;
}

}  // namespace epdd::book
