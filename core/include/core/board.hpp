// Board: a chess position with bitboards, legal move generation, make/unmake and the
// game-state rules (check, mate, stalemate, material, fifty moves, repetition). Standard chess
// and Chess960 share one representation: castling rights name the castling rook's square.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/move.hpp"
#include "core/types.hpp"

namespace epdd::core {

// King side is towards the h-file, queen side towards the a-file, also in Chess960.
enum class CastlingSide : std::uint8_t { King = 0, Queen = 1 };

// Everything a position is made of, before it is checked. FEN reading fills one, Board
// checks it (validate_setup) and builds from it.
struct Setup {
  std::array<Piece, 64> squares{};
  Color side_to_move = Color::White;
  // Castling rook per colour and side (index: colour * 2 + side), Square::None without a right.
  std::array<Square, 4> castling_rooks{Square::None, Square::None, Square::None, Square::None};
  Square ep_square = Square::None;
  int halfmove_clock = 0;
  int fullmove_number = 1;
  bool chess960 = false;

  Setup() { squares.fill(Piece::None); }
  Square& castling_rook(Color c, CastlingSide side) {
    return castling_rooks[index(c) * 2 + static_cast<int>(side)];
  }
  Square castling_rook(Color c, CastlingSide side) const {
    return castling_rooks[index(c) * 2 + static_cast<int>(side)];
  }
};

// Why a Setup is not a legal chess position. Each reason is a separate value so that FEN errors
// can name the field they come from.
enum class SetupProblem : std::uint8_t {
  None,
  KingCount,          // not exactly one king per side
  PawnOnBackRank,     // a pawn on the first or eighth rank
  TooManyPieces,      // more than 16 pieces, or more than 8 pawns, for a side
  OppositeKingInCheck,  // the side that just moved left its king in check
  TooManyCheckers,    // more than two checkers, or a check no single move can give
  CastlingRight,      // a castling right without its king and rook in place
  EnPassantSquare,    // en passant square inconsistent with the position
};

// A precise, human-readable account of what is wrong with a setup (empty if it is legal).
struct SetupError {
  SetupProblem problem = SetupProblem::None;
  std::string message;
};

// How a game stands after the moves made so far. Claimable draws (threefold, fifty moves) are
// reported as such: the game goes on unless a player claims them.
enum class GameStatus : std::uint8_t {
  Ongoing,
  Checkmate,
  Stalemate,
  InsufficientMaterial,  // neither side can mate by any series of legal moves (dead position)
  FiftyMoveClaimable,    // halfmove clock >= 100
  ThreefoldClaimable,    // current position occurred three times
  SeventyFiveMoves,      // halfmove clock >= 150: drawn without a claim
  FivefoldRepetition,    // current position occurred five times: drawn without a claim
};

const char* to_string(GameStatus s);

// Groups of legal moves by what moves: each piece type's moves (the king's without castling),
// castling, and pawn moves. PGC's move ordinals sort moves by their SAN, whose first character
// is the piece letter (or, for pawn moves, a file), so they come group by group.
struct MoveGroups {
  // Group numbers: index(PieceType) (pawn moves: index(PieceType::Pawn)), castling kCastling.
  static constexpr int kCastling = 6;
  static constexpr int kCount = 7;
};

class Board {
 public:
  // The standard starting position.
  Board();

  // Checks a setup: kings, pawns, piece counts, checks, castling rights and en passant square.
  static SetupError validate(const Setup& setup);
  // The parts of validate, for callers that attribute problems to where they came from:
  // pieces and checks; one castling right; the en passant square. The last two assume the
  // pieces passed.
  static SetupError validate_pieces(const Setup& setup);
  static SetupError validate_castling_right(const Setup& setup, Color c, CastlingSide side);
  static SetupError validate_ep_square(const Setup& setup);
  // Builds a position from a setup that validate() accepted (checked again in debug builds).
  static Board from_setup(const Setup& setup);
  // The setup this position would be built from (for writing FEN).
  Setup to_setup() const;

  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return squares_[index(s)]; }
  Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color c) const { return by_color_[index(c)]; }
  Bitboard pieces(PieceType pt) const { return by_type_[index(pt)]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[index(c)] & by_type_[index(pt)]; }
  Square king_square(Color c) const { return lsb(pieces(c, PieceType::King)); }
  // The square behind a pawn that just advanced two squares (set after every double push, as
  // the standard's FEN has it, whether or not a capture is possible), else Square::None.
  Square ep_square() const { return st().ep; }
  // The castling rook's square for a right the side still has, else Square::None.
  Square castling_rook(Color c, CastlingSide side) const;
  bool has_castling_right(Color c, CastlingSide side) const {
    return castling_rook(c, side) != Square::None;
  }
  int halfmove_clock() const { return st().halfmove; }
  int fullmove_number() const { return fullmove_; }
  // Chess960 affects only how castling rights are written in FEN and castling moves in UCI;
  // the rules are the same code for both.
  bool chess960() const { return chess960_; }
  void set_chess960(bool on) { chess960_ = on; }

  // Polyglot-compatible Zobrist key (en passant counted only when a pawn of the side to move
  // stands beside the pawn that just advanced, as the Polyglot book format says).
  std::uint64_t polyglot_key() const;
  // Key for repetition: en passant counted only when an en passant capture is legal, so
  // positions compare equal exactly when FIDE says they are the same.
  std::uint64_t repetition_key() const { return st().rep_key; }

  // True when the side to move has a legal en passant capture.
  bool has_legal_ep_capture() const { return ep_component(true) != 0; }

  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers != 0; }
  // Pieces of either colour attacking s, for the given occupancy.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  bool is_attacked_by(Color attacker, Square s) const {
    return (attackers_to(s, occupied()) & pieces(attacker)) != 0;
  }

  // Every legal move of the side to move.
  MoveList legal_moves() const;
  void generate_legal(MoveList& list) const;
  // Number of legal moves without storing them.
  std::size_t count_legal() const;
  // The legal moves grouped in the order of SAN's first characters: bishops (B), the king's
  // steps (K), knights (N), castling (O-O), queens (Q), rooks (R), then pawns (MoveGroups'
  // numbers), generated only as far as needed, the groups passed over counted, not listed.
  // For PGC's move ordinals, which sort moves by their SAN.
  //
  // The group holding the move of `index` in that order, its moves listed into `list` (in no
  // promised order) and `before` set to the number of moves of the groups before it; -1 when
  // there are not that many moves (`before`: their number).
  int legal_group_at(std::size_t index, MoveList& list, std::size_t& before) const;
  // The moves of `group` into `list`; returns the number of moves of the groups before it.
  std::size_t legal_group_in_san_order(int group, MoveList& list) const;
  // True if m is one of the legal moves here: the check for moves from untrusted sources.
  bool is_legal(Move m) const;
  // For a move that is legal but for king safety (right piece, right shape, path clear; not
  // castling): true if it leaves the mover's king unattacked. Lets notation readers test a few
  // candidates instead of generating every move.
  bool keeps_king_safe(Move m) const;
  // True if the legal move m checks the opponent's king (computed, not played).
  bool gives_check(Move m) const;
  // True if the legal move m checkmates.
  bool is_mate_after(Move m) const;
  // A copy of the current position without the move history: cheap, for trying moves out.
  Board detached() const;
  // True for captures, en passant included (castling is never a capture).
  bool is_capture(Move m) const;
  // The piece that moves (the king for castling).
  Piece moving_piece(Move m) const { return piece_on(m.from()); }
  // Where the king lands when m is a castling move.
  Square castling_king_target(Move m) const;

  // Plays a legal move (precondition: is_legal(m)); unmake_move takes it back.
  void make_move(Move m);
  void unmake_move();
  // Passes the turn (precondition: not in check). Repetition detection does not look past it.
  void make_null_move();
  void unmake_null_move() { unmake_move(); }
  // Moves made on this board since it was set up.
  std::size_t ply() const { return states_.size() - 1; }
  // Room for this many moves without reallocating the history (for readers playing whole games).
  void reserve_history(std::size_t plies) { states_.reserve(plies + 1); }
  // The moves made since setup, oldest first.
  std::vector<Move> move_history() const;
  Move last_move() const { return st().move; }

  bool is_checkmate() const { return in_check() && count_legal() == 0; }
  bool is_stalemate() const { return !in_check() && count_legal() == 0; }
  // Neither side can ever mate: king against king, king and one minor piece against king, and
  // kings with bishops that all stand on squares of one colour.
  bool is_insufficient_material() const;
  // Side c cannot mate by any series of legal moves, whatever the opponent does (the FIDE
  // time-forfeit rule): a lone king; one knight when the opponent has only king and queens;
  // bishops all on one square colour when nobody has pawns or knights.
  bool has_insufficient_material(Color c) const;
  // How often the current position has occurred among the positions reached on this board
  // since setup, including itself (1 = first time). Looks back only to the last capture, pawn
  // move or null move.
  int repetition_count() const;
  GameStatus status() const;

  // Perft node count: the number of leaf positions at the given depth (bulk counting).
  std::uint64_t perft(int depth);

  friend bool operator==(const Board& a, const Board& b);

 private:
  struct State {
    std::uint64_t key;      // pieces, castling and turn (no en passant)
    std::uint64_t rep_key;  // key plus en passant when an en passant capture is legal
    Bitboard checkers;
    Move move;              // the move that led here (none at setup)
    Piece captured;
    std::uint8_t castling;  // bit (colour * 2 + side)
    Square ep;
    std::uint16_t halfmove;
    std::uint16_t plies_from_null;
  };

  struct EmptyTag {};
  // A board with no pieces and no state, filled in by from_setup and validate.
  explicit Board(EmptyTag) {}

  const State& st() const { return states_.back(); }
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void init_castling_masks();
  std::uint64_t compute_key() const;
  // The checkers of the side to move right after make_move(m).
  Bitboard checkers_after(Move m) const;
  std::uint64_t ep_component(bool require_legal) const;
  bool ep_capture_legal(Square from) const;
  Bitboard pinned(Color c) const;
  template <Color Us, class Sink>
  void generate(Sink& sink) const;  // see movegen.cpp for what a sink provides

  std::array<Piece, 64> squares_{};
  std::array<Bitboard, 2> by_color_{};
  std::array<Bitboard, 6> by_type_{};
  Color side_ = Color::White;
  int fullmove_ = 1;
  bool chess960_ = false;
  std::array<Square, 4> castling_rooks_{};    // fixed at setup: the rook each right refers to
  std::array<std::uint8_t, 64> castle_mask_{};  // rights lost when a piece leaves/enters a square
  std::array<Bitboard, 4> castle_empty_{};      // squares that must be empty to castle
  std::array<Bitboard, 4> castle_king_path_{};  // squares the king must not be attacked on
  std::vector<State> states_;
};

}  // namespace epdd::core
