// The board diagram of svg.hpp. Units: a square is 10; ranks' labels take x 0..5, the board
// x 5..85 and y 0..80, the side-to-move marker x 85..92, files' labels y 80..86.
#include <cmath>
#include <stdexcept>
#include <string>

#include "html/svg.hpp"
#include "svg_common.hpp"

namespace epdd::html {

namespace {

constexpr double kSquare = 10;
constexpr double kLeft = 5;

// Column and row of a square in the picture (0..7, row 0 at the top).
int column(core::Square s, bool flipped) { return flipped ? 7 - core::file_of(s) : core::file_of(s); }
int row(core::Square s, bool flipped) { return flipped ? core::rank_of(s) : 7 - core::rank_of(s); }

double centre_x(core::Square s, bool flipped) { return kLeft + kSquare * column(s, flipped) + kSquare / 2; }
double centre_y(core::Square s, bool flipped) { return kSquare * row(s, flipped) + kSquare / 2; }

// The solid glyphs for both colours (White's filled white): they read better on dark squares
// than the outlined ones. U+FE0E after the pawn asks for text, not an emoji.
const char* glyph(core::PieceType type) {
  switch (type) {
    case core::PieceType::King: return "\u265A";
    case core::PieceType::Queen: return "\u265B";
    case core::PieceType::Rook: return "\u265C";
    case core::PieceType::Bishop: return "\u265D";
    case core::PieceType::Knight: return "\u265E";
    case core::PieceType::Pawn: return "\u265F\uFE0E";
    case core::PieceType::None: break;
  }
  return "";
}

// The light squares are the board's background; the 32 dark ones one path of 32 squares (a
// third of the bytes of 64 <rect>s: a suite page holds hundreds of diagrams).
void append_squares(std::string& out, bool flipped) {
  out += "<rect class=\"light\" x=\"5\" y=\"0\" width=\"80\" height=\"80\" fill=\"#f0d9b5\"/>";
  out += "<path class=\"dark\" fill=\"#b58863\" d=\"";
  for (int i = 0; i < 64; ++i) {
    const core::Square s = core::square_at(i);
    if ((core::file_of(s) + core::rank_of(s)) % 2 != 0) continue;  // a1 is dark
    out += "M" + detail::coord(kLeft + kSquare * column(s, flipped)) + "," +
           detail::coord(kSquare * row(s, flipped)) + "h10v10h-10z";
  }
  out += "\"/>";
  out +=
      "<rect x=\"5\" y=\"0\" width=\"80\" height=\"80\" fill=\"none\" stroke=\"#555\" stroke-width=\"0.4\"/>";
}

// Each colour's pieces in a group of its own, which carries the class and the paint.
void append_pieces(std::string& out, const core::Board& board, bool flipped) {
  out += "<g font-size=\"9\" text-anchor=\"middle\" dominant-baseline=\"central\">";
  for (const core::Color colour : {core::Color::White, core::Color::Black}) {
    const bool white = colour == core::Color::White;
    out += white ? "<g class=\"pieces white\" fill=\"#fff\" stroke=\"#000\" stroke-width=\"0.35\">"
                 : "<g class=\"pieces black\" fill=\"#000\">";
    for (core::Bitboard b = board.pieces(colour); b != 0;) {
      const core::Square s = core::pop_lsb(b);
      out += "<text x=\"" + detail::coord(centre_x(s, flipped)) + "\" y=\"" +
             detail::coord(centre_y(s, flipped)) + "\">";
      out += glyph(core::type_of(board.piece_on(s)));
      out += "</text>";
    }
    out += "</g>";
  }
  out += "</g>";
}

void append_coordinates(std::string& out, bool flipped) {
  out +=
      "<g class=\"coords\" font-size=\"4\" fill=\"#555\" text-anchor=\"middle\" "
      "dominant-baseline=\"central\">";
  for (int i = 0; i < 8; ++i) {
    const core::Square on_file = core::make_square(i, 0), on_rank = core::make_square(0, i);
    out += "<text x=\"" + detail::coord(centre_x(on_file, flipped)) + "\" y=\"83\">";
    out += core::kFileChars[i];
    out += "</text><text x=\"2.5\" y=\"" + detail::coord(centre_y(on_rank, flipped)) + "\">";
    out += static_cast<char>('1' + i);
    out += "</text>";
  }
  out += "</g>";
}

void append_arrow(std::string& out, const Arrow& arrow, bool flipped) {
  if (arrow.from == core::Square::None || arrow.to == core::Square::None) {
    throw std::invalid_argument("html::board_diagram: an arrow needs two squares");
  }
  constexpr double kHead = 4.5, kHalfWidth = 2.6;
  const double x1 = centre_x(arrow.from, flipped), y1 = centre_y(arrow.from, flipped);
  const double x2 = centre_x(arrow.to, flipped), y2 = centre_y(arrow.to, flipped);
  const double length = std::hypot(x2 - x1, y2 - y1);
  const double ux = length > 0 ? (x2 - x1) / length : 0, uy = length > 0 ? (y2 - y1) / length : 0;
  const double bx = x2 - ux * kHead, by = y2 - uy * kHead;  // the base of the head
  out += "<g class=\"arrow\" data-from=\"" + core::square_name(arrow.from) + "\" data-to=\"" +
         core::square_name(arrow.to) + "\" fill=\"#15781b\" stroke=\"#15781b\" opacity=\"0.75\">";
  out += "<line x1=\"" + detail::coord(x1) + "\" y1=\"" + detail::coord(y1) + "\" x2=\"" + detail::coord(bx) +
         "\" y2=\"" + detail::coord(by) + "\" stroke-width=\"1.8\"/>";
  out += "<polygon stroke=\"none\" points=\"" + detail::coord(x2) + "," + detail::coord(y2) + " " +
         detail::coord(bx - uy * kHalfWidth) + "," + detail::coord(by + ux * kHalfWidth) + " " +
         detail::coord(bx + uy * kHalfWidth) + "," + detail::coord(by - ux * kHalfWidth) + "\"/>";
  out += "</g>";
}

}  // namespace

Markup board_diagram(const core::Board& board, const BoardOptions& options) {
  const bool flipped = options.flipped;
  const bool white = board.side_to_move() == core::Color::White;
  const double px = options.square_pixels / kSquare;
  std::string out = "<svg class=\"board\" viewBox=\"0 0 92 86\" width=\"" + detail::coord(92 * px) +
                    "\" height=\"" + detail::coord(86 * px) + "\" role=\"img\"><title>";
  if (!options.label.empty()) {
    append_escaped(out, options.label);
    out += ", ";
  }
  out += white ? "White to move</title>" : "Black to move</title>";
  append_squares(out, flipped);
  append_coordinates(out, flipped);
  append_pieces(out, board, flipped);
  // The marker sits beside the edge of the side to move: White's edge is the bottom unless flipped.
  const bool bottom = white != flipped;
  out += std::string("<circle class=\"to-move ") + (white ? "white" : "black") + "\" cx=\"88.5\" cy=\"" +
         (bottom ? "75" : "5") + "\" r=\"2.5\" fill=\"" + (white ? "#fff" : "#000") +
         "\" stroke=\"#000\" stroke-width=\"0.5\"/>";
  for (const Arrow& arrow : options.arrows) append_arrow(out, arrow, flipped);
  out += "</svg>";
  return Markup::trusted(std::move(out));
}

}  // namespace epdd::html
