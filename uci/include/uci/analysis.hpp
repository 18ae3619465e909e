// What workflows ask of engines and what they get back, and the Analyser interface between
// them (ARCHITECTURE.md: upstream of the Analyser nothing knows about processes). The checks
// that engine output passes before it is trusted live here too, as pure functions.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "core/notation.hpp"
#include "core/score.hpp"
#include "uci/engine_error.hpp"
#include "uci/protocol.hpp"

namespace epdd::uci {

struct SearchLimits {
  std::optional<int> depth;
  std::optional<std::uint64_t> nodes;
  std::optional<std::uint64_t> movetime_ms;
  std::optional<int> mate;  // full moves
  // Analyse without an engine-side limit and send `stop` after this long (go infinite).
  std::optional<std::uint64_t> stop_after_ms;
};

// Whether the engine's hash is cleared (ucinewgame) before this request.
enum class NewGame : std::uint8_t {
  Clear,  // a position unrelated to the previous one: the default
  Keep,   // the next position of the same game: keep the hash
};

struct AnalysisRequest {
  std::string fen;                  // the root position (FEN, 4 or 6 fields); empty: start position
  bool chess960 = false;            // KQkq mean the outermost rooks (X-FEN); HAha imply it
  std::vector<std::string> moves;   // played from the root, UCI or SAN; the engine sees the history
  SearchLimits limits;
  int multipv = 1;
  std::vector<std::string> searchmoves;  // UCI or SAN, in the final position
  NewGame new_game = NewGame::Clear;
  std::optional<std::uint64_t> game;  // keep the requests of one game on one session (pool)
  std::string engine;                 // which engine of the pool; empty: the first
  // How long a search without a time of its own (depth, nodes, mate) may take before it is
  // stopped and fails as a timeout; empty: the engine's configured search timeout. A movetime
  // or stop_after search gets its own time plus the configured margin instead.
  std::optional<std::uint64_t> timeout_ms;
  // Set from another thread to give the request up: not started if it has not started, stopped
  // (`stop`, the bestmove read, the engine left ready) within about 100 ms if it is running. It
  // then fails as Cancelled. Must outlive the request. Not part of what the request asks.
  const std::atomic<bool>* cancel = nullptr;
};

// One principal variation, as the engine last reported it for its deepest completed iteration.
struct PvLine {
  int multipv = 1;
  int depth = 0;
  std::optional<int> seldepth;
  core::Score score = core::Score::centipawns(0);
  std::optional<Wdl> wdl;
  std::uint64_t nodes = 0;
  std::uint64_t time_ms = 0;
  std::vector<std::string> pv;  // UCI, the legal prefix of what the engine printed
  std::string pv_cut;           // empty, or why the printed PV was cut (the first illegal move)
};

// A report of line 1 during the search where its first move changed: from here on the engine
// would have played `move`. Test-suite runs take time, depth and nodes to solution from these
// (the Arasan / PolyGlot / Qapla convention: the report from which the solving move stayed first
// to the end).
struct Iteration {
  int depth = 0;
  std::uint64_t nodes = 0;
  std::uint64_t time_ms = 0;
  core::Score score = core::Score::centipawns(0);
  std::string move;  // UCI; legal (reports whose first move was illegal are left out)
};

// Where the wall time of one search went, in milliseconds of the steady clock, as the session
// and the pool measured it: the bridge's own share is everything but go_to_bestmove (and, of
// that, the part beyond the engine's own time). For benchmarks and debug logs; not stored.
struct SearchTiming {
  double queued = 0;          // submitted to the pool until an engine instance took it
  double engine_idle = 0;     // the instance's previous request answered until it took this one
  double prepare = 0;         // taken until `go` was written: options, ucinewgame + isready, position
  double go_to_first_info = 0;
  double go_to_bestmove = 0;
  double after_bestmove = 0;  // bestmove read until the Analysis was ready (checks, drain)
};

struct Analysis {
  std::string engine;     // the engine's `id name`
  std::vector<PvLine> lines;  // by multipv, 1 first
  std::vector<Iteration> iterations;  // changes of line 1's first move (exact scores), in order
  std::string bestmove;   // UCI; empty when the position has no legal move
  std::string ponder;     // UCI, legal after bestmove; empty if none or dropped
  int depth = 0;          // of line 1
  std::uint64_t nodes = 0;
  std::uint64_t time_ms = 0;  // the engine's own figure, or our wall clock if it gave none
  core::GameStatus status = core::GameStatus::Ongoing;  // checkmate/stalemate: no search was run
  bool stopped = false;   // the search was ended by `stop` (stop_after_ms, or limit_stop)
  // Set when the engine searched past the request's nodes or depth and epdd stopped it ("engine
  // ignores go nodes: stopped by epdd at 1,003,412 nodes"); empty otherwise.
  std::string limit_stop;
  // Set when the engine ended a `go nodes` search on its own far short of the limit, below a
  // tenth of it ("engine stopped far short of go nodes 10,000: 21 nodes, depth 1"), in a
  // position with a choice of moves and without a mate score (an engine may stop early there);
  // empty otherwise. The result is kept: it is what the engine answered, but weaker than asked.
  std::string limit_short;
  std::vector<std::string> problems;  // what was wrong with the output but could be kept
  SearchTiming timing;
};

// Anything that answers analysis requests: an engine session, a pool, a cache in front of one.
class Analyser {
 public:
  virtual ~Analyser() = default;
  virtual Expected<Analysis, EngineError> analyse(const AnalysisRequest& request) = 0;
};

// A request's position as it goes to the engine: checked by core, moves in UCI.
struct PreparedPosition {
  core::Board board;                     // after the moves
  std::string root_fen;                  // six-field FEN written by core; empty: startpos
  std::vector<std::string> moves;        // UCI, in the engine's castling form
  std::vector<std::string> searchmoves;  // UCI
};

// The position a request describes, checked by core before anything is sent: a bad FEN or an
// illegal move is an error that says which.
Expected<PreparedPosition, std::string> prepare_position(const AnalysisRequest& request, core::UciCastling castling);

// Collects a search's info lines and makes the Analysis out of them.
class SearchRecord {
 public:
  SearchRecord(const core::Board& position, core::UciCastling castling) : board_(position), castling_(castling) {}
  void add(const Info& info);
  // Checks the bestmove and builds the result. An illegal bestmove is an error message.
  // `stopped`: the search was ended by stop (a "(none)" then falls back to the PV's move).
  Expected<Analysis, std::string> finish(const BestMove& best, std::uint64_t wall_ms, bool stopped = false);
  std::size_t infos() const { return infos_; }

 private:
  struct Slot {
    // The deepest exact line. A deeper iteration that only printed bounds was cut off by
    // stop or a limit (normal at the end of a timed search) and does not count.
    std::optional<PvLine> exact;
  };
  PvLine make_line(const Info& info, int multipv);
  core::Board board_;
  core::UciCastling castling_;
  std::vector<Slot> slots_;
  std::vector<Iteration> iterations_;  // moves as printed; checked in finish()
  std::vector<std::string> problems_;
  std::uint64_t nodes_ = 0, time_ms_ = 0;
  std::size_t infos_ = 0;
};

// Why a line's mate score is not borne out by its PV where the PV reaches the mate, either way
// (mating: odd plies; being mated: even plies): "the PV does not end in mate after 3 plies", or
// an illegal PV move. Empty when it is borne out, when the PV is too short to tell, or when the
// score is not a mate.
std::string mate_contradiction(const core::Board& board, const PvLine& line, core::UciCastling castling);

// The legal prefix of `pv` from `board`; `cut` says why the rest was dropped (empty if not).
std::vector<std::string> legal_prefix(const core::Board& board, const std::vector<std::string>& pv,
                                      core::UciCastling castling, std::string& cut);

}  // namespace epdd::uci
