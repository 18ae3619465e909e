#include "core/types.hpp"

namespace epdd::core {

std::string square_name(Square s) {
  if (s == Square::None) return "-";
  return {kFileChars[file_of(s)], static_cast<char>('1' + rank_of(s))};
}

std::optional<Square> parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return std::nullopt;
  return make_square(text[0] - 'a', text[1] - '1');
}

char piece_type_letter(PieceType pt) {
  static constexpr char kLetters[] = "PNBRQK ";
  return kLetters[index(pt)];
}

char piece_fen_char(Piece p) {
  if (p == Piece::None) return ' ';
  const char c = piece_type_letter(type_of(p));
  return color_of(p) == Color::White ? c : static_cast<char>(c - 'A' + 'a');
}

std::optional<Piece> piece_from_fen_char(char c) {
  static constexpr std::string_view kChars = "PNBRQKpnbrqk";
  const auto i = kChars.find(c);
  if (i == std::string_view::npos) return std::nullopt;
  return make_piece(i < 6 ? Color::White : Color::Black, static_cast<PieceType>(i % 6));
}

}  // namespace epdd::core
