// Game-state rules: check, mate, stalemate, dead positions, fifty/seventy-five moves,
// repetition (with FIDE's en passant subtlety).
#include "core_test_support.hpp"

using namespace epdd;
using core::GameStatus;

TEST_CASE("Checkmate and stalemate", "[core][board]") {
  core::Board b;
  CHECK(b.status() == GameStatus::Ongoing);
  test::play(b, "f3 e5 g4 Qh4#");
  CHECK(b.in_check());
  CHECK(b.is_checkmate());
  CHECK(b.status() == GameStatus::Checkmate);

  const auto stalemate = test::board_from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  CHECK_FALSE(stalemate.in_check());
  CHECK(stalemate.is_stalemate());
  CHECK(stalemate.status() == GameStatus::Stalemate);
  // Mate on the move that reaches the seventy-five-move limit is still mate.
  const auto mate_at_limit = test::board_from("6rk/6pp/8/8/8/8/8/4K1R1 w - - 149 100");
  auto b2 = mate_at_limit;
  test::play(b2, "Rxg7");
  CHECK(b2.halfmove_clock() == 0);
}

TEST_CASE("Dead positions: insufficient material", "[core][board]") {
  struct Case {
    const char* fen;
    bool dead;
    bool white_cannot_win;
    bool black_cannot_win;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true, true},                // K v K
      {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true, true},              // KB v K
      {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true, true},              // KN v K
      {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true, true},             // bishops on one colour
      {"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false, false},         // opposite colours
      {"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false, false, true},           // KNN v K: mate with help
      {"4kq2/8/8/8/8/8/8/1N2K3 w - - 0 1", false, true, false},           // KN v KQ
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, false, true},            // a pawn
      {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, false, true},             // a rook
  };
  for (const auto& c : cases) {
    const auto b = test::board_from(c.fen);
    INFO(c.fen);
    CHECK(b.is_insufficient_material() == c.dead);
    CHECK(b.has_insufficient_material(core::Color::White) == c.white_cannot_win);
    CHECK(b.has_insufficient_material(core::Color::Black) == c.black_cannot_win);
    CHECK((b.status() == GameStatus::InsufficientMaterial) == c.dead);
  }
}

TEST_CASE("Fifty and seventy-five move rules", "[core][board]") {
  auto b = test::board_from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
  CHECK(b.status() == GameStatus::Ongoing);
  test::play(b, "Ra2");
  CHECK(b.halfmove_clock() == 100);
  CHECK(b.status() == GameStatus::FiftyMoveClaimable);
  auto c = test::board_from("4k3/8/8/8/8/8/8/R3K3 w - - 149 120");
  test::play(c, "Ra2");
  CHECK(c.status() == GameStatus::SeventyFiveMoves);
  // A pawn move resets the clock.
  auto d = test::board_from("4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80");
  test::play(d, "e4");
  CHECK(d.halfmove_clock() == 0);
}

TEST_CASE("Threefold and fivefold repetition", "[core][board]") {
  core::Board b;
  CHECK(b.repetition_count() == 1);
  test::play(b, "Nf3 Nf6 Ng1 Ng8");
  CHECK(b.repetition_count() == 2);
  CHECK(b.status() == GameStatus::Ongoing);
  test::play(b, "Nf3 Nf6 Ng1 Ng8");
  CHECK(b.repetition_count() == 3);
  CHECK(b.status() == GameStatus::ThreefoldClaimable);
  test::play(b, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
  CHECK(b.repetition_count() == 5);
  CHECK(b.status() == GameStatus::FivefoldRepetition);
  // After a pawn move the earlier positions can never recur.
  test::play(b, "e4");
  CHECK(b.repetition_count() == 1);
}

TEST_CASE("Repetition: an en passant square without a legal capture does not make a new position",
          "[core][board]") {
  // 1. e4 leaves e3 as en passant square, but no black pawn can take: the position after 1. e4
  // is the same as after 3. Ke1 (FIDE 9.2.2).
  auto b = test::board_from("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  test::play(b, "e4 Ke7 Ke2 Ke8 Ke1");
  CHECK(b.repetition_count() == 2);
  test::play(b, "Ke7 Ke2 Ke8 Ke1");
  CHECK(b.repetition_count() == 3);
  // With a black pawn on d4 the capture is possible: after 1. e4 the position differs.
  auto c = test::board_from("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
  test::play(c, "e4 Ke7 Ke2 Ke8 Ke1");
  CHECK(c.repetition_count() == 1);
}

TEST_CASE("Null moves pass the turn and bound repetition", "[core][board]") {
  core::Board b;
  const std::uint64_t key = b.polyglot_key();
  b.make_null_move();
  CHECK(b.side_to_move() == core::Color::Black);
  CHECK(b.polyglot_key() != key);
  b.unmake_null_move();
  CHECK(b.polyglot_key() == key);
  CHECK(core::to_fen(b) == core::kStartFen);
}

TEST_CASE("Setup validation names the problem", "[core][board]") {
  core::Setup s;  // empty board
  CHECK(core::Board::validate(s).problem == core::SetupProblem::KingCount);
  s.squares[core::index(core::Square::E1)] = core::Piece::WhiteKing;
  s.squares[core::index(core::Square::E8)] = core::Piece::BlackKing;
  CHECK(core::Board::validate(s).problem == core::SetupProblem::None);
  s.castling_rook(core::Color::White, core::CastlingSide::King) = core::Square::H1;
  const auto e = core::Board::validate(s);
  CHECK(e.problem == core::SetupProblem::CastlingRight);
  CHECK(e.message == "White king-side castling right but there is no white rook on h1");
}
