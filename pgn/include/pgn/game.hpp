// The game tree: tags in input order; the main line and its variations as moves, each followed
// by its NAGs, comments and variations in the order they were written; comments before the
// first move of a line; the result. Suffix annotations ("!?") are held as the NAGs the standard
// says they stand for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/move.hpp"

namespace epdd::pgn {

struct Tag {
  std::string name;
  std::string value;
  std::size_t line = 0;  // where it was read (0 for a tag made by a program); not part of equality
  std::size_t column = 0;
  friend bool operator==(const Tag& a, const Tag& b) { return a.name == b.name && a.value == b.value; }
};

struct Variation;

// One thing that follows a move: a NAG, a comment, or a variation (an alternative to the move).
struct Annotation {
  enum class Kind : std::uint8_t { Nag, Comment, Variation };
  Kind kind = Kind::Nag;
  std::uint8_t nag = 0;
  std::string comment;             // brace or rest-of-line comment text, white space normalized
  std::vector<Variation> variation;  // exactly one element when kind == Variation
  friend bool operator==(const Annotation&, const Annotation&) = default;
};

struct MoveNode {
  core::Move move;  // Move::null() for a null move ("--")
  std::vector<Annotation> after;
  friend bool operator==(const MoveNode&, const MoveNode&) = default;
};

struct Variation {
  std::vector<std::string> comments_before;  // comments before the first move
  std::vector<MoveNode> moves;
  friend bool operator==(const Variation&, const Variation&) = default;
};

struct Game {
  std::vector<std::string> escapes;  // '%' escape lines before the game, without the '%'
  std::vector<Tag> tags;             // in input order
  Variation main;
  std::string result = "*";  // the game termination marker
  bool result_written = true;  // false when the movetext had no termination marker

  // Where the game starts (FEN/SetUp tags, Variant) and where it was read.
  core::Board start;
  // False when the start position could not be used (a Variant other than standard chess or
  // Chess960, SetUp without a FEN, a FEN that cannot be read): the movetext was not read, and
  // `start` is not where the game starts. Such a game yields no position.
  bool moves_read = true;
  std::size_t number = 0;  // 1-based in its file
  std::size_t line = 0;
  // One past the last byte of its last token (the termination marker, or the last token before
  // the next game), as an offset into the input: what follows (white space, comments after the
  // result that the reader carries to the next game) is not part of it. Callers that write a
  // game back verbatim take the input's bytes up to here.
  std::size_t byte_end = 0;

  // The value of a tag, or nullopt.
  std::optional<std::string_view> tag(std::string_view name) const;
  // The first tag of that name, or nullptr.
  const Tag* find_tag(std::string_view name) const;
  // Sets a tag (replacing the first of that name) or appends it.
  void set_tag(std::string_view name, std::string value);
  // The moves of the main line.
  std::vector<core::Move> mainline() const;
  // Trees compare equal: tags, escapes, moves, annotations, result (not where they were read).
  bool same_tree(const Game& other) const;
};

// The text of a comment's commands ("[%eval 0.25]", "[%clk 0:01:02]"): name and argument.
struct Command {
  std::string name;
  std::string value;
};
std::vector<Command> commands_in(std::string_view comment);

}  // namespace epdd::pgn
