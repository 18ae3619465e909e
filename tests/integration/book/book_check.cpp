// book_check BOOK.epd GAMES.pgn [BOOK.bin]
//
// An independent check of `epdd book backsolve`'s output (issue 17, point 2). It uses epdd's
// readers and core's rules (the moves, SAN, the Polyglot key), and NOTHING of book/: the graph is
// made here by replaying the games' main lines, and every value is computed again here by a
// plain minimax written from the words.
//   1. Every position of the games (after each move, up to the end of its main line) has exactly
//      one record in BOOK.epd, and there is no other record.
//   2. A leaf (no move out in the games) that is checkmate is worth -32767, stalemate or no
//      mating material 0; any other leaf's value is the ce epdd wrote for it (the engine's; a
//      leaf without ce is unvalued).
//   3. Every other position: ce = the best over its moves of the child's value through the move
//      (mate distances one ply longer a level up: 32767 - p becomes -(32767 - (p + 1)), and
//      -(32767 - p) becomes 32767 - (p + 1)), a move back into a position on the line counting
//      0; bm = every move reaching that value, as SAN, in any order. A position with an unvalued
//      leaf below carries no ce when no move has a value.
//      c0 is "unvalued" without a value, "incomplete" when some line from the position that
//      repeats nothing reaches a leaf without a value, else "interior".
//   4. With BOOK.bin: for every position with a bm, the moves with the greatest weight are
//      exactly bm (read from the 16-byte entries here, not with the product's reader).
// The games must have no variations (the oracle replays main lines): the file is checked for it.
// Prints every failure; exit status 0 when there is none, 1 otherwise, 2 on bad arguments.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "epd/document.hpp"
#include "pgn/reader.hpp"

namespace {

using epdd::core::Board;
using epdd::core::Move;

int failures = 0;
void failure(const std::string& what) {
  if (++failures <= 40) std::cout << "FAIL: " << what << "\n";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "book_check: cannot read " << path << "\n";
    std::exit(2);
  }
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string key_of(const Board& b) {
  epdd::core::FenWriteOptions o;
  o.ep_only_if_capturable = true;
  return epdd::core::to_epd_position(b, o);
}

struct Position {
  Board board;
  std::vector<std::pair<Move, std::string>> moves;  // (move, child key), each once
};

// The values: ce from the side to move, nullopt for none.
using Value = std::optional<int>;

int through(int child) {
  constexpr int kMate = 32767;
  if (child > 32000) {  // the child's side mates in p plies
    const int p = kMate - child;
    return p + 1 > 766 ? -32000 : -(kMate - (p + 1));
  }
  if (child < -32000) {  // the child's side is mated in p plies
    const int p = kMate + child;
    return p + 1 > 766 ? 32000 : kMate - (p + 1);
  }
  return -child;
}

struct Oracle {
  std::map<std::string, Position> positions;
  std::map<std::string, Value> leaf_values;

  // value(n, P) of the issue: the best through-value over the moves, a move into P counting 0;
  // `incomplete` is set when a leaf without a value is reached on a line that repeats nothing.
  Value value(const std::string& n, std::set<std::string>& path, std::vector<Move>* best, bool& incomplete) {
    const Position& p = positions.at(n);
    if (p.moves.empty()) {
      if (!leaf_values.count(n)) incomplete = true;
      return leaf_values.count(n) ? leaf_values.at(n) : Value();
    }
    Value out;
    std::vector<std::pair<Move, int>> scored;
    for (const auto& [move, child] : p.moves) {
      int v = 0;
      if (!path.count(child)) {
        path.insert(child);
        const Value c = value(child, path, nullptr, incomplete);
        path.erase(child);
        if (!c) continue;
        v = through(*c);
      }
      scored.emplace_back(move, v);
      if (!out || v > *out) out = v;
    }
    if (best)
      for (const auto& [m, v] : scored)
        if (v == *out) best->push_back(m);
    return out;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: book_check BOOK.epd GAMES.pgn [BOOK.bin]\n";
    return 2;
  }
  const std::string epd_text = read_file(argv[1]), pgn_text = read_file(argv[2]);
  if (pgn_text.find('(') != std::string::npos) {
    std::cerr << "book_check: " << argv[2] << " has variations; the oracle replays main lines only\n";
    return 2;
  }
  Oracle o;
  const std::string root = key_of(Board());
  o.positions[root].board = Board();
  epdd::pgn::Diagnostics pd;
  epdd::pgn::MainlineReader reader(pgn_text, pd);
  epdd::pgn::MainlineGame g;
  while (reader.next(g)) {
    Board b = g.start;
    if (key_of(b) != root) failure("a game starts elsewhere than the start position");
    for (const Move m : g.moves) {
      const std::string from = key_of(b);
      b.make_move(m);
      const std::string to = key_of(b);
      auto& moves = o.positions[from].moves;
      if (std::none_of(moves.begin(), moves.end(), [&](const auto& e) { return e.first == m; })) moves.emplace_back(m, to);
      if (!o.positions.count(to)) o.positions[to].board = b.detached();
    }
  }
  // The records of the output, by position.
  epdd::epd::Diagnostics ed;
  const auto doc = epdd::epd::read_document(epd_text, ed);
  std::map<std::string, const epdd::epd::EpdRecord*> records;
  for (const auto& line : doc.lines) {
    if (!line.record) continue;
    epdd::core::FenReadOptions ro;
    ro.fields = epdd::core::FenFields::Four;
    const auto board = epdd::core::parse_fen(line.record->position(), ro);
    if (!board) {
      failure("a record's position does not read: " + line.record->position());
      continue;
    }
    const std::string k = key_of(*board);
    if (records.count(k)) failure("two records for " + k);
    records[k] = &*line.record;
    if (!o.positions.count(k)) failure("a record for a position of no game: " + k);
  }
  for (const auto& [k, p] : o.positions)
    if (!records.count(k)) failure("no record for " + k);
  // The leaves' values: the rules', else what epdd wrote.
  for (const auto& [k, p] : o.positions) {
    if (!p.moves.empty()) continue;
    Board b = p.board.detached();
    if (b.count_legal() == 0) o.leaf_values[k] = b.in_check() ? -32767 : 0;
    else if (b.is_insufficient_material()) o.leaf_values[k] = 0;
    else if (records.count(k))
      if (const auto ce = records.at(k)->single_operand("ce")) o.leaf_values[k] = std::stoi(std::string(*ce));
    if (records.count(k) && o.leaf_values.count(k)) {
      const auto ce = records.at(k)->single_operand("ce");
      if (!ce || std::stoi(std::string(*ce)) != *o.leaf_values[k]) failure("leaf " + k + ": ce is not the rules' value");
    }
  }
  // Every interior position against the oracle.
  std::size_t interior = 0;
  std::map<std::string, std::set<std::string>> bm_of;
  for (const auto& [k, p] : o.positions) {
    if (p.moves.empty() || !records.count(k)) continue;
    ++interior;
    std::set<std::string> path{k};
    std::vector<Move> best;
    bool incomplete = false;
    const Value v = o.value(k, path, &best, incomplete);
    const auto* r = records.at(k);
    // c0: the first that applies of terminal, unvalued, incomplete, interior.
    Board b = p.board.detached();
    const std::string kind = b.count_legal() == 0 || b.is_insufficient_material() ? "terminal"
                             : !v                                                 ? "unvalued"
                             : incomplete                                         ? "incomplete"
                                                                                  : "interior";
    if (r->single_operand("c0") != std::optional<std::string_view>(kind))
      failure(k + ": c0 " + std::string(r->single_operand("c0").value_or("none")) + ", the oracle's " + kind);
    const auto ce = r->single_operand("ce");
    if (v.has_value() != ce.has_value() || (v && std::stoi(std::string(*ce)) != *v))
      failure(k + ": ce " + (ce ? std::string(*ce) : "none") + ", the oracle's " + (v ? std::to_string(*v) : "none"));
    std::set<std::string> want, got;
    for (const Move m : best) want.insert(epdd::core::to_san(p.board, m));
    if (const auto* op = r->find("bm"))
      for (const auto& operand : op->operands) got.insert(operand.text);
    if (want != got) failure(k + ": bm differs from the oracle's best moves");
    bm_of[k] = want;
  }
  std::cout << "book_check: " << o.positions.size() << " positions, " << interior << " interior checked\n";
  if (argc == 4) {
    // Polyglot entries: key u64, move u16, weight u16, learn u32, big-endian.
    const std::string bin = read_file(argv[3]);
    if (bin.size() % 16 != 0) failure("the .bin's size is not a multiple of 16");
    std::map<std::uint64_t, std::vector<std::pair<std::uint16_t, std::uint16_t>>> entries;
    const auto be = [&](std::size_t at, int bytes) {
      std::uint64_t v = 0;
      for (int i = 0; i < bytes; ++i) v = v << 8 | static_cast<unsigned char>(bin[at + static_cast<std::size_t>(i)]);
      return v;
    };
    for (std::size_t at = 0; at + 16 <= bin.size(); at += 16)
      entries[be(at, 8)].emplace_back(static_cast<std::uint16_t>(be(at + 8, 2)), static_cast<std::uint16_t>(be(at + 10, 2)));
    for (const auto& [k, want] : bm_of) {
      if (want.empty()) continue;
      const Board& b = o.positions.at(k).board;
      const auto it = entries.find(b.polyglot_key());
      if (it == entries.end()) {
        failure(k + ": no Polyglot entry");
        continue;
      }
      std::uint16_t top = 0;
      for (const auto& e : it->second) top = std::max(top, e.second);
      std::set<std::string> got;
      for (const auto& [encoded, weight] : it->second) {
        if (weight != top) continue;
        // The move: to file/row bits 0-5, from 6-11, promotion 12-14; matched among the legal
        // moves by the same fields (castling as the king taking its rook, as core holds it).
        for (const Move m : b.legal_moves()) {
          const int from = epdd::core::index(m.from()), to = epdd::core::index(m.to());
          const int promo = m.kind() == epdd::core::MoveKind::Promotion ? epdd::core::index(m.promotion()) : 0;
          const int mine = (to % 8) | (to / 8) << 3 | (from % 8) << 6 | (from / 8) << 9 | promo << 12;
          if (mine == encoded) got.insert(epdd::core::to_san(b, m));
        }
      }
      if (got != want) failure(k + ": the Polyglot moves of the greatest weight are not bm");
    }
  }
  if (failures) std::cout << failures << " failures\n";
  else std::cout << "book_check: every value, best move" << (argc == 4 ? " and Polyglot weight" : "") << " agrees\n";
  return failures ? 1 : 0;
}
