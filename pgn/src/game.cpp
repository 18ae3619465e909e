#include "pgn/game.hpp"

#include <algorithm>

#include "pgn/writer.hpp"

namespace epdd::pgn {

const Tag* Game::find_tag(std::string_view name) const {
  for (const Tag& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

std::optional<std::string_view> Game::tag(std::string_view name) const {
  if (const Tag* t = find_tag(name)) return std::string_view(t->value);
  return std::nullopt;
}

void Game::set_tag(std::string_view name, std::string value) {
  for (Tag& t : tags)
    if (t.name == name) {
      t.value = std::move(value);
      return;
    }
  tags.push_back({std::string(name), std::move(value), 0, 0});
}

std::vector<core::Move> Game::mainline() const {
  std::vector<core::Move> moves;
  moves.reserve(main.moves.size());
  for (const MoveNode& n : main.moves) moves.push_back(n.move);
  return moves;
}

bool Game::same_tree(const Game& other) const {
  // Tags compare as export writes them: the roster (with its defaults) first, then the rest in
  // ASCII order; the order they were read in is not part of the tree.
  return export_tags(*this) == export_tags(other) && escapes == other.escapes && main == other.main &&
         result == other.result;
}

std::vector<Command> commands_in(std::string_view comment) {
  std::vector<Command> out;
  std::size_t pos = 0;
  while ((pos = comment.find("[%", pos)) != std::string_view::npos) {
    const std::size_t close = comment.find(']', pos);
    if (close == std::string_view::npos) break;
    std::string_view body = comment.substr(pos + 2, close - pos - 2);
    const std::size_t space = body.find(' ');
    Command c;
    c.name = std::string(body.substr(0, space));
    if (space != std::string_view::npos) {
      std::string_view value = body.substr(space + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
      c.value = std::string(value);
    }
    out.push_back(std::move(c));
    pos = close + 1;
  }
  return out;
}

}  // namespace epdd::pgn
