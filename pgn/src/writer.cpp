#include "pgn/writer.hpp"

#include <algorithm>

#include "core/notation.hpp"
#include "pgn/tags.hpp"

namespace epdd::pgn {

namespace {

std::string escape(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// Packs tokens into lines of at most kExportLineLimit characters, one space between tokens,
// none after '(' or before ')'. Glued tokens travel together: when one does not fit, the chain
// it is glued to moves to the next line with it, so no line starts with ')' or ends with '('.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}

  void token(std::string_view t, bool space_before = true) {
    const bool glue = (!space_before || glue_next_) && !line_.empty();
    glue_next_ = false;
    const std::size_t needed = line_.size() + (glue || line_.empty() ? 0 : 1) + t.size();
    if (!line_.empty() && needed > kExportLineLimit) {
      if (glue && chain_start_ > 0) {
        // Carry the glued chain (without the space before it) to the next line.
        const std::string chain = line_.substr(chain_start_);
        line_.resize(chain_start_ - 1);
        newline();
        line_ = chain;
      } else if (!glue) {
        newline();
      }
    } else if (!line_.empty() && !glue) {
      line_ += ' ';
    }
    if (!glue) chain_start_ = line_.size();
    line_ += t;
  }
  // The next token follows without a space (after '(').
  void glue_next() { glue_next_ = true; }
  void newline() {
    if (line_.empty()) return;
    out_ += line_;
    out_ += '\n';
    line_.clear();
    chain_start_ = 0;
  }

 private:
  std::string& out_;
  std::string line_;
  std::size_t chain_start_ = 0;  // where the last run of glued tokens begins in line_
  bool glue_next_ = false;
};

class MovetextWriter {
 public:
  MovetextWriter(std::string& out, const ExportOptions& o) : w_(out), o_(o) {}

  void game(const Game& g) {
    core::Board board = g.start;
    line(g.main, board);
    w_.token(g.result);
    w_.newline();
  }

 private:
  std::string word_;  // comment()'s word being written (one buffer for all)

  void comment(const std::string& text) {
    if (text.find('}') != std::string::npos) {
      // A rest-of-line comment can hold '}' (a brace comment cannot): it ends its line, so a
      // line break in the text (not one the reader keeps: it normalizes them) is a space.
      std::string line = ";" + text;
      std::replace_if(line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
      w_.token(line);
      w_.newline();
      return;
    }
    std::size_t start = 0;
    if (text.empty()) {
      w_.token("{}");
      return;
    }
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      word_.assign(start == 0 ? "{" : "");
      word_.append(text, start, end - start);
      if (end == text.size()) word_ += '}';
      w_.token(word_);
      start = end + 1;
    }
  }

  // One line of play from `board` (the position before its first move).
  void line(const Variation& v, core::Board& board) {
    bool need_number = true;  // at the start of a line of play
    if (!o_.reduced)
      for (const std::string& c : v.comments_before) comment(c);
    std::size_t made = 0;
    for (const MoveNode& node : v.moves) {
      const bool white = board.side_to_move() == core::Color::White;
      if (white) w_.token(std::to_string(board.fullmove_number()) + ".");
      else if (need_number) w_.token(std::to_string(board.fullmove_number()) + "...");
      w_.token(node.move.is_null() ? "--" : core::to_san(board, node.move));
      need_number = false;
      need_number = annotations(node, board);
      if (node.move.is_null()) board.make_null_move();
      else board.make_move(node.move);
      ++made;
    }
    for (std::size_t i = 0; i < made; ++i) board.unmake_move();
  }

  // Writes what follows a move; true when a Black move after it needs its number.
  bool annotations(const MoveNode& node, core::Board& board) {
    bool interrupted = false;
    for (const Annotation& a : node.after) {
      if (o_.reduced) continue;
      switch (a.kind) {
        case Annotation::Kind::Nag: w_.token("$" + std::to_string(a.nag)); break;
        case Annotation::Kind::Comment:
          comment(a.comment);
          interrupted = true;
          break;
        case Annotation::Kind::Variation:
          // The variation replaces this move: it starts from the same position.
          w_.token("(");
          w_.glue_next();
          line(a.variation.front(), board);
          w_.token(")", false);
          interrupted = true;
          break;
      }
    }
    return interrupted;
  }

  LineWriter w_;
  const ExportOptions& o_;
};

}  // namespace

std::vector<Tag> export_tags(const Game& game) {
  std::vector<Tag> out;
  for (std::string_view name : kSevenTagRoster) {
    const auto v = game.tag(name);
    out.push_back({std::string(name), v ? std::string(*v) : str_default(name, game)});
  }
  std::vector<Tag> rest;
  bool seen[7] = {};
  for (const Tag& t : game.tags) {
    const auto it = std::find(kSevenTagRoster.begin(), kSevenTagRoster.end(), t.name);
    if (it != kSevenTagRoster.end() && !seen[it - kSevenTagRoster.begin()]) {
      seen[it - kSevenTagRoster.begin()] = true;  // the first of a roster name is written above
      continue;
    }
    rest.push_back(t);
  }
  std::stable_sort(rest.begin(), rest.end(), [](const Tag& a, const Tag& b) { return a.name < b.name; });
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::string export_movetext(const Game& game, const ExportOptions& options) {
  std::string out;
  MovetextWriter(out, options).game(game);
  return out;
}

namespace {

// Whether the reduced export format keeps a tag: the roster, and what defines the start.
bool in_reduced_export(const Tag& t) {
  return is_str_tag(t.name) || t.name == "SetUp" || t.name == "FEN" || t.name == "Variant";
}

}  // namespace

Game reduced_game(const Game& game) {
  Game r;
  r.tags = export_tags(game);
  std::erase_if(r.tags, [](const Tag& t) { return !in_reduced_export(t); });
  r.main.moves.reserve(game.main.moves.size());
  for (const MoveNode& node : game.main.moves) r.main.moves.push_back(MoveNode{node.move, {}});
  r.result = game.result;
  r.result_written = game.result_written;
  r.start = game.start;
  r.number = game.number;
  r.line = game.line;
  r.byte_end = game.byte_end;
  return r;
}

void append_game(std::string& out, const Game& game, const ExportOptions& options) {
  if (!options.reduced)
    for (const std::string& e : game.escapes) out += "%" + e + "\n";
  for (const Tag& t : export_tags(game)) {
    if (options.reduced && !in_reduced_export(t)) continue;
    out += '[';
    out += t.name;
    out += " \"";
    out += escape(t.value);
    out += "\"]\n";
  }
  out += '\n';
  MovetextWriter(out, options).game(game);
  out += '\n';
}

std::string export_game(const Game& game, const ExportOptions& options) {
  std::string out;
  append_game(out, game, options);
  return out;
}

}  // namespace epdd::pgn
