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

namespace {

// FEN letter -> piece, for all 256 byte values (Piece::None where there is no piece).
constexpr std::array<Piece, 256> make_fen_table() {
  std::array<Piece, 256> table{};
  table.fill(Piece::None);
  constexpr std::string_view kChars = "PNBRQKpnbrqk";
  for (std::size_t i = 0; i < kChars.size(); ++i)
    table[static_cast<unsigned char>(kChars[i])] =
        make_piece(i < 6 ? Color::White : Color::Black, static_cast<PieceType>(i % 6));
  return table;
}
constexpr std::array<Piece, 256> kFenTable = make_fen_table();

}  // namespace

std::optional<Piece> piece_from_fen_char(char c) {
  const Piece p = kFenTable[static_cast<unsigned char>(c)];
  if (p == Piece::None) return std::nullopt;
  return p;
}

}  // namespace epdd::core
