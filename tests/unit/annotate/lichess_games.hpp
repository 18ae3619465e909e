// Three games as lichess's game export gives them (GET /game/export/{id}?evals=true&accuracy=true):
// the moves, lichess's evaluation after each ply (White's view; "#n" a mate in n moves; "" for
// the mating move, which has none), and lichess's own figures per side. Found with the search
// tool in the places named below; facts of public games, used here as the reference lichess
// itself computed.
#pragma once

#include <vector>

namespace epdd::test::lichess {

struct SideFigures {
  int inaccuracies, mistakes, blunders, acpl, accuracy;
};

struct Judged {
  int ply;
  char kind;  // 'I'naccuracy, 'M'istake, 'B'lunder
};

struct Game {
  const char* id;
  const char* source;
  const char* moves;  // SAN, space separated
  std::vector<const char*> evals;
  SideFigures white, black;
  std::vector<Judged> judged;  // the plies lichess judged, as its export's "judgment" names them
};

inline const std::vector<Game>& games() {
  static const std::vector<Game> all = {
      {"VkCaVXJq",
       "lukebodmer/website_learn_chess_like_a_computer, ENRICHED_GAME_DATA_EXAMPLE.md at "
       "335888e12bcbc0a15206d37a7806d8f7b8c8513e",
       "d4 d5 c4 Nf6 cxd5 Nxd5 e4 Nb6 Nc3 e6 Nf3 Bb4 a3 Bxc3+ bxc3 O-O Bd3 h6 c4 Nc6 c5 Nd7 Bc4 b6 Qa4 Bb7 "
       "O-O Nf6 e5 Ne4 Bd3 Nxe5 Nxe5 Nc3 Qc4 Nd5 cxb6 axb6 Nc6 Qd6 Ne5 c6 Re1 f6 Nf3 e5 dxe5 fxe5 Nxe5 b5 "
       "Qe4 g6 Qxg6+ Qxg6 Nxg6 Rf6 Ne7+ Nxe7 Rxe7 Ba6 Bb2 Rf5 Rg7+ Kf8 Bxf5 Re8 Rh7 b4 Rh8+ Ke7 Rxe8+ Kxe8 "
       "axb4 Bb5 h4 Ke7 Ra7+ Kd6 Rd7#",
       {"17", "27", "18", "52", "49", "80", "57", "64", "55", "107", "99", "134", "124", "143", "177", "184",
        "179", "215", "43", "168", "160", "156", "48", "54", "37", "45", "-3", "117", "-27", "-16", "-222",
        "385", "395", "448", "460", "538", "378", "395", "345", "338", "336", "374", "393", "377", "382",
        "462", "446", "452", "435", "631", "587", "598", "544", "543", "530", "551", "548", "554", "553",
        "574", "559", "#6", "845", "855", "852", "900", "898", "885", "882", "#16", "8350", "1427", "938",
        "883", "#7", "#6", "#5", "#1", ""},
       {2, 3, 1, 35, 88},
       {1, 3, 2, 58, 79},
       {{19, 'M'}, {20, 'M'}, {23, 'I'}, {28, 'M'}, {29, 'M'}, {31, 'B'}, {32, 'B'}, {37, 'I'}, {50, 'I'},
        {62, 'B'}, {63, 'M'}, {70, 'M'}}},
      {"aTz9APKg",
       "lukebodmer/website_learn_chess_like_a_computer, README.md at 335888e12bcbc0a15206d37a7806d8f7b8c8513e",
       "e4 e5 Nf3 Nc6 Bb5 Bd6 Bxc6 dxc6 d4 Bg4 Qd3 Bxf3 gxf3 exd4 Qxd4 Nf6 Bg5 Be7 Nc3 Qxd4 O-O h6 Rad1 Qe5 "
       "f4 Qa5 Bh4 O-O e5 Nd5 Nxd5 cxd5 Bxe7 Rfe8 Ba3 c6 Rfe1 Qa4 c3 Qxf4 Rd4 Qf5 f4 Qg4+ Kh1 Rad8 Rg1 Qf3+ "
       "Rg2 b6 b4 Rc8 Bb2 c5 Rd2 Qxf4 Rdf2 Qxe5 Bc1 Qe1+ Rg1 Qxf2 Bxh6 Re1 Rxe1 Qxe1+ Kg2 gxh6",
       {"18", "22", "18", "21", "15", "53", "-9", "0", "0", "12", "-42", "-40", "-39", "-24", "-13", "-10",
        "-50", "1", "-656", "-654", "-700", "-714", "-751", "-675", "-667", "-656", "-697", "-664", "-672",
        "-655", "-663", "-640", "-612", "-638", "-672", "-606", "-627", "-605", "-713", "-688", "-722", "-665",
        "-698", "-698", "-766", "-573", "-725", "-723", "-693", "-712", "-737", "-661", "-659", "-736", "-702",
        "-706", "-723", "-716", "#-5", "#-4", "#-4", "#-3", "#-2", "#-6", "#-6", "#-5", "#-5", "#-4"},
       {1, 1, 1, 51, 82},
       {1, 0, 0, 22, 97},
       {{7, 'I'}, {19, 'B'}, {46, 'I'}, {59, 'M'}}},
      {"3TjDcbH9",
       "a lichess client's TestFragment.java (package com.drdedd.simplichess.fragments)",
       "e4 e5 Nf3 Nc6 h3 Nf6 Nc3 Bc5 d4 exd4 Ne2 O-O Bg5 Be7 Nexd4 Nxe4 Bxe7 Qxe7 Be2 Nxd4 Nxd4 c5 Nf5 Qe5 "
       "g4 d6 f3 Ng3 Nxd6 Nxh1 Nc4 Qg3+ Kd2 Be6 Kc1 Nf2 Qe1 Rad8 Ne3 Nd3+ Kd2 Nxe1+ Kc3 Qe5#",
       {"18", "21", "21", "17", "5", "3", "0", "35", "-82", "-97", "-302", "-234", "-331", "-180", "-188",
        "-186", "-322", "-336", "-326", "-225", "-374", "-147", "-225", "-171", "-330", "-286", "-538", "-268",
        "-639", "-644", "-813", "-808", "-789", "-789", "-837", "-834", "-1133", "-904", "#-10", "#-9", "#-6",
        "#-5", "#-1", ""},
       {2, 6, 2, 94, 73},
       {1, 1, 2, 50, 84},
       {{9, 'M'}, {11, 'B'}, {13, 'I'}, {14, 'M'}, {17, 'M'}, {20, 'I'}, {21, 'M'}, {22, 'B'}, {23, 'I'},
        {25, 'M'}, {27, 'M'}, {28, 'B'}, {29, 'B'}, {39, 'M'}}},
  };
  return all;
}

}  // namespace epdd::test::lichess
