// The ChessLive! move file (spec/chesslive-move-file.txt), read into and written from the same
// Game as PGN. Where the grammar is silent, this is what epdd decided:
//
// - A file holds ONE game (the grammar has no separator between games). One final line end
//   ("\n" or "\r\n") after it is not part of the game, nor is a UTF-8 byte order mark before
//   it (error places still count its bytes); the writer ends the file with "\n".
//   White space around a MoveSpec and around the players is ignored (so a file broken into
//   lines reads: "A;\nB;\ne2:e4;..."); a player's name broken across lines is an error (a PGN
//   tag holds one line). The result's Text becomes a comment as the PGN reader keeps one (each
//   run of white space one space, trimmed); other text is kept byte for byte.
// - The game becomes tags White, Black and Result ("+" 1-0, "=" 1/2-1/2, "-" 0-1, none "*")
//   (and SetUp, FEN, Variant "Chess960" when the options start elsewhere), the moves, and
//   the result's Text (when not empty) as the last comment of the last move (or of the game
//   when it has no move).
//   A ResultSpec needs its ";" Text (the Text may be empty). "A;B;" (no move, no result) is
//   an unfinished game without moves (the grammar needs one MoveList item; we allow none).
// - Depth/Score/Time become the move's first comment: "[%eval S,D] [%clk h:mm:ss]".
//   Score: centipawns from WHITE's point of view, whoever moved, so it maps to [%eval] with
//   no sign flip (pawns = Score/100, two decimals) and back; the grammar says only
//   "centi-Pawn", and the one point of view it states (the Result's) is White's. A Score is
//   read with an optional sign ("+35" is 35, "-0" is 0) and written without '+'. A Score of
//   at least 99000 in size is a mate: 100000-n is "White mates in n moves" ([%eval #n]) and
//   -(100000-n) "Black mates in n moves" ([%eval #-n]); n counts moves (not plies), as
//   [%eval #n] does, 0 <= n <= 1000. Depth 0 means "no depth" ([%eval S] without ",D").
//   Depth and Time are plain digits (no sign). Time: the spec gives no unit; we take whole
//   SECONDS remaining on the mover's clock (the writer cuts a [%clk] fraction of a second
//   off and counts it, see ClmWriteReport). An EMPTY Score or Time field means "not given"
//   (an extension, written only when a PGN move has an [%eval] but no [%clk] or the
//   reverse); "e2:e4/0//" gives nothing and is written back as "e2:e4".
// - A Move's steps are played on a copy of the placement exactly as the SEMANTICS say (a
//   square step copies then clears, even an empty square; a PieceID step drops a piece of the
//   side to move: p n b r q k), except that a step onto its own square ("g1:g1") changes
//   nothing at first (read literally it would clear the square; a writer that wrote the
//   king's step of a Chess960 castling with the king staying put meant no such thing); only
//   when that matches no legal move is the literal reading tried ("b5:c6:c5:c5" clears c5:
//   en passant). The move is the ONE legal move whose placement after it is the same. Should
//   two legal moves leave the same placement (we know of no such position: a castling rook
//   that ends where a plain rook move could would have to pass its king), the one whose piece
//   starts on the first step's from-square wins (the idiom moves the king first); "h1:f1"
//   with the king on g1 and the right to castle is that castling, as no other move leaves
//   that placement.
//   No match is an error naming the game (its players), the move number and the steps, with
//   line, column and byte offset; so is a step that is not FromSpec ":" Square with a square
//   a1..h8 (lower case, "a10" and "i1" are off the board) or a PieceID p n b r q k. A drop
//   that completes no legal move gets its own message: chess has no drops (a PieceID only
//   completes a promotion or a Chess960 castling). Steps are matched by what they leave, so
//   any order that leaves the right placement reads ("h1:f1:e1:g1" is castling too).
// - The SANtag is display text: "O-O" must be king-side and "O-O-O" queen-side castling (a
//   mismatch is an error with its place); any other SANtag, even one that contradicts the
//   move ("Nx" on a pawn move), is read and dropped, not kept: the writer derives its own
//   from the move's SAN (the part before the first step's to-square, check marks dropped;
//   "O-O"/"O-O-O" for castling).
// - Chess960 castling is written king step first, then the rook step; when the king lands on
//   the rook's square the rook is dropped on its target ("f1:g1:r:f1"); a piece that does not
//   move gets no step ("h1:f1" with the king on g1, "e1:g1" with the rook on f1), so the
//   writer never relies on the reader's own-square rule above. Standard castling is
//   "e1:g1:h1:f1", promotion "g7:g8:q:g8", en passant "b5:c6:b5:c5" (the emptied from-square
//   copied onto the captured pawn). The file holds no start position: the reader takes it
//   from its options (standard by default, a Chess960 one for Chess960 games).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "pgn/game.hpp"

namespace epdd::pgn {

// Why a move file could not be read, or a game not written.
struct ClmError {
  std::size_t offset = 0;  // reading: byte offset of the field at fault (0 when writing)
  std::size_t line = 0;    // 1-based; 0 when writing
  std::size_t column = 0;  // 1-based, in bytes
  std::string message;     // names the game (players), and the move and its steps where one is at fault
};
// "line 1, column 34 (byte 33): ..." for reading; the message alone for writing.
std::string to_string(const ClmError& e);

struct ClmReadOptions {
  core::Board start;  // the position the moves start from (the file does not say)
};

// Reads the one game of a move file. Never throws on bad input.
Expected<Game, ClmError> read_chesslive(std::string_view text, const ClmReadOptions& options = {});

struct ClmWriteOptions {
  // Write a SANtag (the fifth field) on every move that carries Depth/Score/Time; off, such
  // moves have four fields (the reader takes both; it does not keep which one a file used).
  bool santags = true;
  // Write games holding what a move file cannot (comments beyond [%eval]/[%clk] and the
  // result's reason, NAGs, variations, a set-up start, ';' in text), leaving it out and
  // counting it, instead of failing.
  bool lossy = false;
};

// What writing left out. Tags other than White, Black, Result and the start's (SetUp, FEN,
// Variant: counted as `start`) are always left out (the format has no place for them) and
// counted; the rest only with lossy.
struct ClmWriteReport {
  std::size_t tags = 0;
  std::size_t comments = 0;  // comments left out, or not kept whole: a data comment with more
                             // than one [%eval] and one [%clk] (text, other commands, a fraction
                             // of a second) counts too
  std::size_t nags = 0;
  std::size_t variations = 0;
  std::size_t characters = 0;  // ';' (and '/' in a SANtag) replaced by ','
  bool start = false;          // the game starts from a set-up position the file cannot say
  bool lossless() const { return comments == 0 && nags == 0 && variations == 0 && characters == 0 && !start; }
};

// The game as a move file (ending with "\n"); the report through `report` when given. Fails
// for a null move, an illegal move, or (unless lossy) what the file cannot hold; the message
// names the game and the count.
Expected<std::string, ClmError> write_chesslive(const Game& game, const ClmWriteOptions& options = {},
                                                ClmWriteReport* report = nullptr);

}  // namespace epdd::pgn
