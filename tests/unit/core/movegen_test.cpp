// Legal move generation: perft counts on positions that catch the classic bugs, and
// make/unmake/key invariants along random games.
#include <random>

#include "core_test_support.hpp"

using namespace epdd;

TEST_CASE("Perft counts of positions that catch the classic bugs", "[core][movegen]") {
  struct Case {
    const char* fen;
    bool chess960;
    int depth;
    std::uint64_t nodes;
  };
  // Counts agree with Stockfish's `go perft`.
  const Case cases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, 4, 197281},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, 3, 97862},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false, 5, 674624},  // en passant pins
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false, 4, 422333},
      {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false, 3, 62379},
      {"8/8/8/KPp4r/8/8/8/7k w - c6 0 1", false, 3, 259},     // en passant illegal along the rank
      {"8/8/5k2/8/2pP4/8/8/B3K3 b - d3 0 1", false, 3, 522},  // en passant exposing a diagonal
      {"4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 1", false, 3, 316},   // en passant answering a pawn check
      {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", true, 4, 201143},
      {"nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1", true, 4, 136313},
      // Chess960: the castling rook on b1 shields the king on c1 from the rook on a1, so O-O-O
      // (king stays, rook to d1) would expose the king.
      {"3k4/8/8/8/8/8/8/rRK4R w HB - 0 1", true, 3, 4172},
  };
  for (const auto& c : cases) {
    auto b = test::board_from(c.fen, c.chess960);
    INFO(c.fen << " depth " << c.depth);
    CHECK(b.perft(c.depth) == c.nodes);
  }
}

TEST_CASE("Chess960 castling that would uncover the king is illegal", "[core][movegen][chess960]") {
  const auto b = test::board_from("3k4/8/8/8/8/8/8/rRK4R w HB - 0 1", true);
  auto ooo = core::parse_san(b, "O-O-O");
  REQUIRE_FALSE(ooo);
  CHECK_THAT(ooo.error().message, Catch::Contains("attacked square"));
  CHECK(core::parse_san(b, "O-O"));
}

TEST_CASE("Make and unmake restore everything, and keys stay incremental-exact", "[core][movegen]") {
  std::mt19937 rng(20261122);
  const char* starts[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
  };
  core::FenWriteOptions shredder;
  shredder.castling = core::CastlingNotation::Shredder;
  for (const char* fen : starts) {
    for (int game = 0; game < 40; ++game) {
      auto b = test::board_from(fen);
      const std::string start_fen = core::to_fen(b, shredder);
      const std::uint64_t start_key = b.polyglot_key();
      int plies = 0;
      for (; plies < 120; ++plies) {
        const core::MoveList moves = b.legal_moves();
        if (moves.empty()) break;
        CHECK(b.count_legal() == moves.size());
        const core::Move m = moves[rng() % moves.size()];
        REQUIRE(b.is_legal(m));
        const bool check = b.gives_check(m);
        const bool mate = b.is_mate_after(m);
        b.make_move(m);
        CHECK(b.in_check() == check);
        CHECK(b.is_checkmate() == mate);
        // The incremental key equals the key of the same position read fresh from its FEN.
        const auto fresh = test::board_from(core::to_fen(b, shredder));
        CHECK(fresh.polyglot_key() == b.polyglot_key());
        CHECK(fresh.repetition_key() == b.repetition_key());
      }
      for (int i = 0; i < plies; ++i) b.unmake_move();
      CHECK(core::to_fen(b, shredder) == start_fen);
      CHECK(b.polyglot_key() == start_key);
      CHECK(b.ply() == 0);
    }
  }
}

TEST_CASE("is_legal rejects moves that are not legal here", "[core][movegen]") {
  core::Board b;
  CHECK_FALSE(b.is_legal(core::Move::none()));
  CHECK_FALSE(b.is_legal(core::Move::null()));
  CHECK_FALSE(b.is_legal(core::Move(core::Square::E2, core::Square::E5)));
  CHECK_FALSE(b.is_legal(core::Move(core::Square::E7, core::Square::E5)));  // Black's pawn
  CHECK_FALSE(b.is_legal(core::Move(core::Square::E1, core::Square::H1, core::MoveKind::Castling)));
  CHECK(b.is_legal(core::Move(core::Square::E2, core::Square::E4)));
}

TEST_CASE("Legal moves scanned group by group in SAN order, by index or by group, are the full list",
          "[core][movegen]") {
  // The oracle: the full legal move list, each move's group found from the board here.
  std::mt19937 rng(20261124);
  const std::pair<const char*, bool> starts[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
      {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
      {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
      {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
      {"8/8/8/KPp4r/8/8/8/7k w - c6 0 1", false},
      {"3k4/8/8/8/8/8/8/rRK4R w HB - 0 1", true},
      {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
      {"8/1P1P1P1P/2k5/8/8/5K2/p1p1p1p1/8 w - - 0 1", false},  // promotions on every file
  };
  std::size_t positions = 0;
  for (const auto& [fen, chess960] : starts) {
    for (int game = 0; game < 30; ++game) {
      auto b = test::board_from(fen, chess960);
      for (int ply = 0; ply < 100; ++ply) {
        const core::MoveList moves = b.legal_moves();
        if (moves.empty()) break;
        ++positions;
        INFO(core::to_fen(b));
        std::vector<std::vector<std::uint16_t>> expected(core::MoveGroups::kCount);
        for (core::Move m : moves) {
          const core::PieceType pt = core::type_of(b.piece_on(m.from()));
          const int group = m.kind() == core::MoveKind::Castling ? core::MoveGroups::kCastling : core::index(pt);
          expected[static_cast<std::size_t>(group)].push_back(m.raw());
        }
        for (auto& group : expected) std::sort(group.begin(), group.end());
        // In SAN order (B K N O-O Q R, then pawns), found by index or by group.
        const auto sorted = [](const core::MoveList& list) {
          std::vector<std::uint16_t> raw;
          for (core::Move m : list) raw.push_back(m.raw());
          std::sort(raw.begin(), raw.end());
          return raw;
        };
        const int san_order[] = {core::index(core::PieceType::Bishop), core::index(core::PieceType::King),
                                 core::index(core::PieceType::Knight), core::MoveGroups::kCastling,
                                 core::index(core::PieceType::Queen),  core::index(core::PieceType::Rook),
                                 core::index(core::PieceType::Pawn)};
        std::size_t before = 0;
        for (int g : san_order) {
          INFO("group " << g);
          const auto& want = expected[static_cast<std::size_t>(g)];
          core::MoveList list;
          CHECK(b.legal_group_in_san_order(g, list) == before);
          CHECK(sorted(list) == want);
          for (std::size_t i = before; i < before + want.size(); ++i) {
            core::MoveList at;
            std::size_t at_before = 999;
            CHECK(b.legal_group_at(i, at, at_before) == g);
            CHECK(at_before == before);
            CHECK(sorted(at) == want);
          }
          before += want.size();
        }
        core::MoveList past;
        std::size_t past_before = 0;
        CHECK(b.legal_group_at(moves.size(), past, past_before) == -1);
        CHECK(past_before == moves.size());
        b.make_move(moves[rng() % moves.size()]);
      }
    }
  }
  CHECK(positions > 10000);
}
