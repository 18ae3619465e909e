// PGC move ordinals (the standard: the index of a move among the ASCII-sorted SAN strings of the
// legal moves) against an oracle written here: the test's own SAN writer (checked against SAN
// lists written out by hand) and std::sort of those strings.
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"

using namespace epdd;
using core::Board;
using core::Move;
using core::MoveKind;
using core::PieceType;

namespace {

// SAN written from the rules, independently of core's and pgc's writers: castling by the side
// the king goes, the piece letter, the file, rank or square that tells same-type moves to the
// same square apart (file first, then rank, then both), 'x', the square, "=Q", and '+' or '#'.
std::string oracle_san(const Board& b, Move m, const core::MoveList& legal) {
  const char files[] = "abcdefgh";
  const char letters[] = "PNBRQK";
  auto square = [&](core::Square s) {
    return std::string{files[core::file_of(s)], static_cast<char>('1' + core::rank_of(s))};
  };
  std::string out;
  if (m.kind() == MoveKind::Castling) {
    out = core::file_of(m.to()) > core::file_of(m.from()) ? "O-O" : "O-O-O";
  } else {
    const PieceType pt = core::type_of(b.piece_on(m.from()));
    const bool capture = b.piece_on(m.to()) != core::Piece::None || m.kind() == MoveKind::EnPassant;
    if (pt == PieceType::Pawn) {
      if (capture) out += {files[core::file_of(m.from())], 'x'};
      out += square(m.to());
      if (m.kind() == MoveKind::Promotion) out += {'=', letters[core::index(m.promotion())]};
    } else {
      out += letters[core::index(pt)];
      bool same_file = false, same_rank = false, other = false;
      for (Move o : legal) {
        if (o == m || o.to() != m.to() || o.kind() == MoveKind::Castling) continue;
        if (core::type_of(b.piece_on(o.from())) != pt || pt == PieceType::King) continue;
        other = true;
        same_file |= core::file_of(o.from()) == core::file_of(m.from());
        same_rank |= core::rank_of(o.from()) == core::rank_of(m.from());
      }
      if (other && !same_file) out += files[core::file_of(m.from())];
      else if (other && !same_rank) out += static_cast<char>('1' + core::rank_of(m.from()));
      else if (other) out += square(m.from());
      if (capture) out += 'x';
      out += square(m.to());
    }
  }
  if (b.is_mate_after(m)) out += '#';
  else if (b.gives_check(m)) out += '+';
  return out;
}

// The legal moves with their SAN, sorted by the SAN's bytes: index = ordinal.
std::vector<std::pair<std::string, Move>> oracle_order(const Board& b) {
  const core::MoveList legal = b.legal_moves();
  std::vector<std::pair<std::string, Move>> out;
  for (Move m : legal) out.emplace_back(oracle_san(b, m, legal), m);
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return out;
}

std::vector<std::string> oracle_sans(const Board& b) {
  std::vector<std::string> out;
  for (const auto& [san, m] : oracle_order(b)) out.push_back(san);
  return out;
}

Board fen(const std::string& text, bool chess960 = false) {
  core::FenReadOptions o;
  o.chess960 = chess960;
  auto b = core::parse_fen(text, o);
  INFO(text << ": " << (b ? std::string() : core::to_string(b.error())));
  REQUIRE(b);
  return *b;
}

// Every ordinal of the position agrees with the oracle, both ways.
void check_position(const Board& b) {
  const auto order = oracle_order(b);
  INFO("position with " << order.size() << " moves");
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("ordinal " << i << " oracle " << order[i].first);
    const auto ord = pgn::pgc_ordinal(b, order[i].second);
    REQUIRE(ord);
    CHECK(*ord == i);
    const auto move = pgn::pgc_move(b, static_cast<std::uint8_t>(i));
    REQUIRE(move);
    CHECK(*move == order[i].second);
  }
  if (order.size() < 256) CHECK_FALSE(pgn::pgc_move(b, static_cast<std::uint8_t>(order.size())));
  const auto ordered = pgn::pgc_ordered_moves(b);
  REQUIRE(ordered.size() == order.size());
  for (std::size_t i = 0; i < order.size(); ++i) CHECK(ordered[i] == order[i].second);
}

// Positions before the first castling move of each Chess960 game of the shared file.
std::vector<Board> chess960_castling_positions() {
  std::ifstream in(std::string(EPDD_SHARED_DATA) + "/pgn/chess960-cutechess.pgn", std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  pgn::Diagnostics diags;
  std::vector<Board> out;
  for (const pgn::Game& g : pgn::read_games(text.str(), diags)) {
    REQUIRE(g.start.chess960());
    Board b = g.start;
    for (const pgn::MoveNode& node : g.main.moves) {
      if (node.move.kind() == MoveKind::Castling) {
        out.push_back(b);
        break;
      }
      b.make_move(node.move);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("pgc ordinals: the standard's examples from the initial position", "[pgc][ordinal]") {
  const Board b;
  const auto move = [&](const char* uci) {
    for (Move m : b.legal_moves())
      if (core::to_uci(m) == uci) return m;
    FAIL("no move " << uci);
    return Move::none();
  };
  CHECK(pgn::pgc_ordinal(b, move("b1a3")) == 0);
  CHECK(pgn::pgc_ordinal(b, move("b1c3")) == 1);
  CHECK(pgn::pgc_ordinal(b, move("a2a3")) == 4);
  CHECK(pgn::pgc_ordinal(b, move("h2h4")) == 19);
  CHECK(pgn::pgc_move(b, 0) == move("b1a3"));
  CHECK(pgn::pgc_move(b, 19) == move("h2h4"));
  CHECK_FALSE(pgn::pgc_move(b, 20));
  CHECK_FALSE(pgn::pgc_ordinal(b, Move(core::Square::E2, core::Square::E5)));
  CHECK_FALSE(pgn::pgc_ordinal(b, Move::null()));
}

TEST_CASE("pgc ordinals: the test's SAN oracle matches SAN lists written by hand", "[pgc][ordinal]") {
  CHECK(oracle_sans(Board()) ==
        std::vector<std::string>{"Na3", "Nc3", "Nf3", "Nh3", "a3", "a4", "b3", "b4", "c3", "c4",
                                 "d3", "d4", "e3", "e4", "f3", "f4", "g3", "g4", "h3", "h4"});
  // Castling, promotions with check, en passant.
  CHECK(oracle_sans(fen("4k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1")) ==
        std::vector<std::string>{"Kd1", "Kd2", "Ke2", "Kf1", "Kf2", "O-O", "Rf1", "Rg1", "Rh2",
                                 "Rh3", "Rh4", "Rh5", "Rh6", "Rh7", "Rh8+", "b8=B", "b8=N",
                                 "b8=Q+", "b8=R+", "e6", "exd6"});
  // Rank disambiguation (digits sort before letters).
  CHECK(oracle_sans(fen("4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1")) ==
        std::vector<std::string>{"Kd1", "Kd2", "Ke2", "Kf1", "Kf2", "N1d2", "N3d2", "Na1", "Na3",
                                 "Na5", "Nc1", "Nc3", "Nc5", "Nd4"});
  // File disambiguation and mate.
  CHECK(oracle_sans(fen("6k1/5ppp/8/8/8/8/8/RN2KN2 w - - 0 1")) ==
        std::vector<std::string>{"Kd1", "Kd2", "Ke2", "Kf2", "Na3", "Nbd2", "Nc3", "Ne3", "Nfd2",
                                 "Ng3", "Nh2", "Ra2", "Ra3", "Ra4", "Ra5", "Ra6", "Ra7", "Ra8#"});
}

TEST_CASE("pgc ordinals: every legal move of 20 varied positions against the oracle", "[pgc][ordinal]") {
  const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      // castling both ways, both colours, pins, en passant in reach
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      // promotions with capture, black to move, castling
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      // en passant
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 3",
      // 218 moves: square disambiguation of queens
      "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
      "8/7k/8/2Q1Q3/8/2Q1Q3/8/4K3 w - - 0 1",
      // black promotions and capture-promotions, disambiguated rooks
      "4k3/8/8/8/8/8/1p1p4/R1R3K1 b - - 0 1",
      // in check, mate in one available
      "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
      "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
      "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
  };
  std::vector<Board> positions;
  for (const auto& f : fens) positions.push_back(fen(f));
  for (Board& b : chess960_castling_positions()) positions.push_back(b);
  positions.push_back(fen("nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", true));
  // Chess960 castling where the king does not move (O-O-O with the king on c1) or barely moves.
  positions.push_back(fen("1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1", true));
  positions.push_back(fen("r5kr/8/8/8/8/8/8/R5KR b HAha - 0 1", true));
  REQUIRE(positions.size() >= 20);
  bool castling = false, promotion = false, en_passant = false, chess960_castling = false;
  for (const Board& b : positions) {
    INFO("position " << &b - positions.data());
    check_position(b);
    for (Move m : b.legal_moves()) {
      castling |= m.kind() == MoveKind::Castling;
      chess960_castling |= m.kind() == MoveKind::Castling && b.chess960();
      promotion |= m.kind() == MoveKind::Promotion;
      en_passant |= m.kind() == MoveKind::EnPassant;
    }
  }
  CHECK(castling);
  CHECK(chess960_castling);
  CHECK(promotion);
  CHECK(en_passant);
}

TEST_CASE("pgc ordinals: every position of the first 40 games of twic0920 against the oracle", "[pgc][ordinal]") {
  std::ifstream in(std::string(EPDD_SHARED_DATA) + "/pgn/twic0920.pgn", std::ios::binary);
  REQUIRE(in);
  pgn::Diagnostics diags;
  pgn::GameReader reader(in, diags);
  pgn::Game g;
  std::size_t positions = 0;
  for (int n = 0; n < 40 && reader.next(g); ++n) {
    Board b = g.start;
    for (const pgn::MoveNode& node : g.main.moves) {
      check_position(b);
      b.make_move(node.move);
      ++positions;
    }
  }
  CHECK(positions > 1000);
}
