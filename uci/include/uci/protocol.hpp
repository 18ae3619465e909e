// The UCI protocol codec: pure functions from engine output lines to typed messages and from
// typed commands to lines. No I/O, no state: EngineSession does the talking, this only parses
// and prints (the shape of Stockfish's uci.cpp). Unknown tokens are kept, never fatal: engines
// print more than the protocol names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.hpp"

namespace epdd::uci {

// ---- engine -> GUI -------------------------------------------------------------------------

// "id name Stockfish 15.1" / "id author ...".
struct IdLine {
  std::string key;    // "name", "author" or whatever the engine wrote
  std::string value;  // the rest of the line, inner spaces kept, outer trimmed
  bool operator==(const IdLine&) const = default;
};

enum class OptionType : std::uint8_t { Check, Spin, Combo, Button, String };

// "option name Hash type spin default 16 min 1 max 33554432". Names and var values may hold
// spaces ("option name Clear Hash type button", "var Very Strong"); they run up to the next
// keyword of the option grammar.
struct OptionLine {
  std::string name;
  OptionType type = OptionType::String;
  std::optional<std::string> default_value;  // "<empty>" is kept as written; absent when none
  std::optional<long long> min;
  std::optional<long long> max;
  std::vector<std::string> vars;  // combo choices, in the engine's order
  bool operator==(const OptionLine&) const = default;
};

struct UciOk {
  bool operator==(const UciOk&) const = default;
};
struct ReadyOk {
  bool operator==(const ReadyOk&) const = default;
};

// "bestmove e2e4 ponder e7e5". "(none)", "0000" and "a1a1" all mean no move: move is empty.
struct BestMove {
  std::string move;    // UCI text, or empty for no move
  std::string ponder;  // empty when absent or no move
  std::string written; // the move token exactly as the engine wrote it ("(none)", "a1a1", ...)
  bool operator==(const BestMove&) const = default;
};

enum class Bound : std::uint8_t { Exact, Lower, Upper };

struct InfoScore {
  enum class Kind : std::uint8_t { Centipawns, Mate };
  Kind kind = Kind::Centipawns;
  int value = 0;  // centipawns, or UCI mate in moves (negative: being mated; 0: mated now)
  Bound bound = Bound::Exact;
  bool operator==(const InfoScore&) const = default;
};

struct Wdl {
  int win = 0, draw = 0, loss = 0;  // per mille, from the side to move
  bool operator==(const Wdl&) const = default;
};

// One "info" line; every field optional. `string` takes the rest of the line; `pv` runs to the
// next keyword or the end. Tokens the codec does not know are collected in `unknown`.
struct Info {
  std::optional<int> depth;
  std::optional<int> seldepth;
  std::optional<int> multipv;
  std::optional<InfoScore> score;
  std::optional<Wdl> wdl;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> nps;
  std::optional<std::uint64_t> time_ms;
  std::optional<int> hashfull;
  std::optional<std::uint64_t> tbhits;
  std::optional<std::string> currmove;
  std::optional<int> currmovenumber;
  std::optional<int> cpuload;
  std::vector<std::string> pv;
  std::vector<std::string> refutation;
  std::vector<std::string> currline;
  std::optional<std::string> string;
  std::vector<std::string> unknown;  // tokens that fit no field, in order
  bool malformed = false;            // a known field with a missing or non-numeric value
  bool operator==(const Info&) const = default;
};

// Anything else the engine printed (banners, "copyprotection", "registration", garbage).
struct OtherLine {
  std::string text;
  bool operator==(const OtherLine&) const = default;
};

using EngineMessage = std::variant<IdLine, OptionLine, UciOk, ReadyOk, BestMove, Info, OtherLine>;

// Reads one line of engine output (without its newline; a trailing '\r' and spaces or tabs
// anywhere between tokens are tolerated). Never fails: what is not a UCI message is OtherLine,
// and a broken message of a known kind is reported inside it (OptionLine with no name becomes
// OtherLine; BestMove with no move token becomes OtherLine; Info keeps `malformed`).
EngineMessage parse_engine_line(std::string_view line);

// Writes a message as an engine prints it (without the newline), for fake engines, tests and
// transcripts. Promise: parse_engine_line reads the line back to an equal message, except that
// Info's `malformed` is false (the values are written, not the damage that was read around
// them). Info's unknown tokens come first (where no field can take them), the move lists and
// `string` last; a line that would end in '\r' gets one more, as reading drops one.
std::string engine_line(const EngineMessage& message);

// For messages and logs.
const char* to_string(OptionType type);
const char* to_string(Bound bound);

// ---- GUI -> engine -------------------------------------------------------------------------

// "position startpos moves e2e4 e7e5" or "position fen <fen> moves ...". The FEN and moves are
// the caller's (already validated by core); `fen` empty means startpos.
std::string position_command(std::string_view fen, const std::vector<std::string>& moves);

struct GoLimits {
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> movetime_ms;
  std::optional<int> mate;  // in moves
  bool infinite = false;
  std::vector<std::string> searchmoves;  // UCI text
};

// "go depth 20 nodes 100000 searchmoves e2e4 d2d4"; "go infinite"; with no limit at all the
// engine is told "go infinite" (a session stops it itself).
std::string go_command(const GoLimits& limits);

// "setoption name Hash value 64"; a button is "setoption name Clear Hash".
std::string setoption_command(std::string_view name, std::optional<std::string_view> value);

}  // namespace epdd::uci
