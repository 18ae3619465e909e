#include "pgn/to_epd.hpp"

#include <algorithm>

#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::pgn {

namespace {

std::string epd_string(std::string_view text) {
  std::string s(text);
  std::replace(s.begin(), s.end(), '"', '\'');
  if (s.size() > 255) s = s.substr(0, 252) + "...";
  return "\"" + s + "\"";
}

std::string comments_after(const MoveNode& node) {
  std::string out;
  for (const Annotation& a : node.after)
    if (a.kind == Annotation::Kind::Comment) {
      if (!out.empty()) out += ' ';
      out += a.comment;
    }
  return out;
}

}  // namespace

std::vector<std::string> game_to_epd(const Game& game, const ToEpdOptions& options) {
  std::vector<std::string> lines;
  if (!game.moves_read) return lines;  // its start position is unknown: no position is known
  core::Board board = game.start;
  const auto eco = game.tag("ECO");
  const auto opening = game.tag("Opening");
  const auto variation = game.tag("Variation");
  // A Chess960 game's castling as Shredder-FEN (the rooks' files): KQkq would be read back as
  // standard chess by any EPD reader, losing the rights wherever the rooks are not on a/h.
  core::FenWriteOptions position_options;
  if (board.chess960()) position_options.castling = core::CastlingNotation::Shredder;
  for (std::size_t ply = 0; ply <= game.main.moves.size(); ++ply) {
    const MoveNode* node = ply < game.main.moves.size() ? &game.main.moves[ply] : nullptr;
    std::string line = core::to_epd_position(board, position_options);
    if (options.comments && node) {
      const std::string c = comments_after(*node);
      if (!c.empty()) line += " c0 " + epd_string(c) + ";";
    }
    if (eco) line += " eco " + epd_string(*eco) + ";";
    line += " fmvn " + std::to_string(board.fullmove_number()) + ";";
    line += " hmvc " + std::to_string(board.halfmove_clock()) + ";";
    line += " id " + epd_string("game " + std::to_string(game.number) + " ply " + std::to_string(ply)) + ";";
    if (node && !node->move.is_null()) line += " sm " + core::to_san(board, node->move) + ";";
    if (opening) line += " v0 " + epd_string(*opening) + ";";
    if (variation) line += " v1 " + epd_string(*variation) + ";";
    lines.push_back(std::move(line));
    if (!node) break;
    if (node->move.is_null()) board.make_null_move();
    else board.make_move(node->move);
  }
  return lines;
}

}  // namespace epdd::pgn
