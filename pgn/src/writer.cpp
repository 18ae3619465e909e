#include "pgn/writer.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/notation.hpp"
#include "pgn/tags.hpp"

namespace epdd::pgn {

namespace {

// A tag value as the export format writes it: '"' and '\\' escaped with '\\'.
void append_escaped(std::string& out, std::string_view value) {
  for (std::size_t at = 0;;) {
    const std::size_t special = value.find_first_of("\"\\", at);
    out.append(value.substr(at, special - at));
    if (special == std::string_view::npos) return;
    out += '\\';
    out += value[special];
    at = special + 1;
  }
}

}  // namespace

namespace detail {  // (not anonymous: MovetextStream::Impl holds a LineWriter)

// Packs tokens into lines of at most kExportLineLimit characters, one space between tokens,
// none after '(' or before ')'. Glued tokens travel together: when one does not fit, the chain
// it is glued to moves to the next line with it, so no line starts with ')' or ends with '('.
// (Written straight into the output: the line being packed is its end.)
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out), line_start_(out.size()) {}

  // A token made of `head`, `body` and `tail` together (a comment's word with its brace).
  void token(std::string_view head, std::string_view body, std::string_view tail, bool space_before = true) {
    const std::size_t length = out_.size() - line_start_;
    const bool glue = (!space_before || glue_next_) && length > 0;
    glue_next_ = false;
    const std::size_t size = head.size() + body.size() + tail.size();
    const std::size_t needed = length + (glue || length == 0 ? 0 : 1) + size;
    if (length > 0 && needed > kExportLineLimit) {
      if (glue && chain_start_ > 0) {
        // Carry the glued chain to the next line: the space before it becomes the line break.
        out_[line_start_ + chain_start_ - 1] = '\n';
        line_start_ += chain_start_;
        chain_start_ = 0;
      } else if (!glue) {
        newline();
      }
    } else if (length > 0 && !glue) {
      out_ += ' ';
    }
    if (!glue) chain_start_ = out_.size() - line_start_;
    // (Most tokens have neither head nor tail: no call for them.)
    if (!head.empty()) out_.append(head);
    out_.append(body);
    if (!tail.empty()) out_.append(tail);
  }
  void token(std::string_view t, bool space_before = true) { token({}, t, {}, space_before); }
  // The next token follows without a space (after '(').
  void glue_next() { glue_next_ = true; }
  // Where the line being packed begins in the output: what comes before is whole lines.
  std::size_t line_start() const { return line_start_; }
  // After the caller erased the whole lines from the output's front.
  void restart() { line_start_ = 0; }
  void newline() {
    if (out_.size() == line_start_) return;
    out_ += '\n';
    line_start_ = out_.size();
    chain_start_ = 0;
  }

 private:
  std::string& out_;
  std::size_t line_start_;        // where the line being packed begins in out_
  std::size_t chain_start_ = 0;  // where the last run of glued tokens begins in that line
  bool glue_next_ = false;
};

// `prefix`, then `n` in decimal, then `suffix`, in `buffer`: a move number ("12.", "12...") or
// a NAG ("$2") without a string made for it.
std::string_view numbered(std::array<char, 24>& buffer, std::string_view prefix, unsigned n, std::string_view suffix) {
  char* at = std::copy(prefix.begin(), prefix.end(), buffer.data());
  at = std::to_chars(at, buffer.data() + buffer.size(), n).ptr;
  at = std::copy(suffix.begin(), suffix.end(), at);
  return {buffer.data(), static_cast<std::size_t>(at - buffer.data())};
}

}  // namespace detail

using detail::LineWriter;
using detail::numbered;

struct MovetextStream::Impl {
  explicit Impl(std::string& out) : w(out), out(out) {}
  LineWriter w;
  std::string& out;
  // By line of play (the game's, then each variation open in it): whether a Black move there
  // needs its number (at the start of the line, after a comment or a variation).
  std::vector<bool> need_number{true};
  std::array<char, 24> number;  // a move number or NAG being written
};

MovetextStream::MovetextStream(std::string& out) : impl_(std::make_unique<Impl>(out)) {}
MovetextStream::~MovetextStream() = default;

void MovetextStream::move(const core::Board& before, core::Move move) {
  const auto fullmove = static_cast<unsigned>(before.fullmove_number());
  if (before.side_to_move() == core::Color::White) impl_->w.token(numbered(impl_->number, "", fullmove, "."));
  else if (impl_->need_number.back()) impl_->w.token(numbered(impl_->number, "", fullmove, "..."));
  impl_->w.token(core::to_san(before, move));  // ("--" for a null move)
  impl_->need_number.back() = false;
}

void MovetextStream::nag(int nag) {
  impl_->w.token(numbered(impl_->number, "$", static_cast<unsigned>(nag), ""));
}

void MovetextStream::comment(std::string_view text) {
  impl_->need_number.back() = true;
  LineWriter& w = impl_->w;
  if (text.find('}') != std::string_view::npos) {
    // A rest-of-line comment can hold '}' (a brace comment cannot): it ends its line, so a
    // line break in the text (not one the reader keeps: it normalizes them) is a space.
    std::string line = ";" + std::string(text);
    std::replace_if(line.begin(), line.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    w.token(line);
    w.newline();
    return;
  }
  if (text.empty()) {
    w.token("{}");
    return;
  }
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    constexpr std::string_view kOpen = "{", kClose = "}", kNone;
    w.token(start == 0 ? kOpen : kNone, text.substr(start, end - start), end == text.size() ? kClose : kNone);
    start = end + 1;
  }
}

void MovetextStream::begin_variation() {
  impl_->w.token("(");
  impl_->w.glue_next();
  impl_->need_number.push_back(true);
}

void MovetextStream::end_variation() {
  impl_->w.token(")", false);
  impl_->need_number.pop_back();
  impl_->need_number.back() = true;
}

void MovetextStream::result(std::string_view result) {
  impl_->w.token(result);
  impl_->w.newline();
}

std::size_t MovetextStream::complete() const { return impl_->w.line_start(); }

void MovetextStream::drop_complete() {
  impl_->out.erase(0, impl_->w.line_start());
  impl_->w.restart();
}

namespace {

// A game's movetext through a MovetextStream.
class MovetextWriter {
 public:
  MovetextWriter(std::string& out, const ExportOptions& o) : s_(out), o_(o) {}

  void game(const Game& g) {
    core::Board board = g.start;
    line(g.main, board);
    s_.result(g.result);
  }

 private:
  // One line of play from `board` (the position before its first move).
  void line(const Variation& v, core::Board& board) {
    if (!o_.reduced)
      for (const std::string& c : v.comments_before) s_.comment(c);
    std::size_t made = 0;
    for (const MoveNode& node : v.moves) {
      s_.move(board, node.move);
      if (!o_.reduced) annotations(node, board);
      if (node.move.is_null()) board.make_null_move();
      else board.make_move(node.move);
      ++made;
    }
    for (std::size_t i = 0; i < made; ++i) board.unmake_move();
  }

  // What follows a move.
  void annotations(const MoveNode& node, core::Board& board) {
    for (const Annotation& a : node.after) {
      switch (a.kind) {
        case Annotation::Kind::Nag: s_.nag(a.nag); break;
        case Annotation::Kind::Comment: s_.comment(a.comment); break;
        case Annotation::Kind::Variation:
          // The variation replaces this move: it starts from the same position.
          s_.begin_variation();
          line(a.variation.front(), board);
          s_.end_variation();
          break;
      }
    }
  }

  MovetextStream s_;
  const ExportOptions& o_;
};

}  // namespace

namespace {

// The tags in export order, each given to `f` as (name, value): the Seven Tag Roster first (a
// missing one with its default), then the others sorted by name, stably.
// (Views into the game: append_game writes them without copying any.)
template <class F>
void for_each_export_tag(const Game& game, F&& f) {
  bool seen[7] = {};
  for (std::size_t i = 0; i < kSevenTagRoster.size(); ++i) {
    const std::string_view name = kSevenTagRoster[i];
    if (const Tag* t = game.find_tag(name)) f(name, std::string_view(t->value));
    else f(name, std::string_view(str_default(name, game)));
  }
  std::vector<const Tag*> rest;
  rest.reserve(game.tags.size());
  for (const Tag& t : game.tags) {
    const auto it = std::find(kSevenTagRoster.begin(), kSevenTagRoster.end(), t.name);
    if (it != kSevenTagRoster.end() && !seen[it - kSevenTagRoster.begin()]) {
      seen[it - kSevenTagRoster.begin()] = true;  // the first of a roster name is written above
      continue;
    }
    rest.push_back(&t);
  }
  std::stable_sort(rest.begin(), rest.end(), [](const Tag* a, const Tag* b) { return a->name < b->name; });
  for (const Tag* t : rest) f(std::string_view(t->name), std::string_view(t->value));
}

}  // namespace

std::vector<Tag> export_tags(const Game& game) {
  std::vector<Tag> out;
  for_each_export_tag(game, [&out](std::string_view name, std::string_view value) {
    out.push_back({std::string(name), std::string(value)});
  });
  return out;
}

std::string export_movetext(const Game& game, const ExportOptions& options) {
  std::string out;
  MovetextWriter(out, options).game(game);
  return out;
}

namespace {

// Whether the reduced export format keeps a tag: the roster, and what defines the start.
bool in_reduced_export(std::string_view name) {
  return is_str_tag(name) || name == "SetUp" || name == "FEN" || name == "Variant";
}

}  // namespace

Game reduced_game(const Game& game) {
  Game r;
  r.tags = export_tags(game);
  std::erase_if(r.tags, [](const Tag& t) { return !in_reduced_export(t.name); });
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

void append_tag_section(std::string& out, const Game& game, const ExportOptions& options) {
  if (!options.reduced)
    for (const std::string& e : game.escapes) out += "%" + e + "\n";
  for_each_export_tag(game, [&](std::string_view name, std::string_view value) {
    if (options.reduced && !in_reduced_export(name)) return;
    out += '[';
    out += name;
    out += " \"";
    append_escaped(out, value);
    out += "\"]\n";
  });
  out += '\n';
}

void append_game(std::string& out, const Game& game, const ExportOptions& options) {
  append_tag_section(out, game, options);
  MovetextWriter(out, options).game(game);
  out += '\n';
}

std::string export_game(const Game& game, const ExportOptions& options) {
  std::string out;
  append_game(out, game, options);
  return out;
}

}  // namespace epdd::pgn
