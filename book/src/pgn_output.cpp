#include "book/pgn_output.hpp"

#include <charconv>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "annotate/eval_comment.hpp"
#include "book/first_paths.hpp"
#include "core/fen.hpp"
#include "pgn/writer.hpp"

namespace epdd::book {

namespace {

// Appends `n` in decimal.
void append_number(std::string& out, std::uint32_t n) {
  char digits[12];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// "games 12: +5 =4 -3" (see the header); nothing for a move no game played.
void append_stats(std::string& out, const GameStats& s) {
  out += "games ";
  append_number(out, s.games);
  out += ": +";
  append_number(out, s.white_wins);
  out += " =";
  append_number(out, s.draws);
  out += " -";
  append_number(out, s.black_wins);
}

// How a written move's line goes on.
enum class Ending { Continue, Transposes, Repeats };

// Writes the tree (see the header) into `out` through a movetext stream, handing whole lines to
// `sink` as they pile up. The line being written is marked in on_line_, so that a move back into
// it is seen as a repetition.
class TreeWriter {
 public:
  TreeWriter(const Dag& dag, const Backsolved& values, const BookPgnOptions& options, const FirstPaths& paths,
             std::string& out, const std::function<void(std::string_view)>& sink)
      : dag_(dag), values_(values), options_(options), paths_(paths), on_line_(dag.node_count(), false), out_(out),
        sink_(sink) {}

  // A root's movetext: its comment, its whole tree, the result.
  void root(NodeId r, const core::Board& board) {
    pgn::MovetextStream stream(out_);
    stream_ = &stream;
    stream.comment(eval_text(r));
    continue_line(r, board.detached());
    stream.result("*");
    stream_ = nullptr;
  }

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 16;

  std::optional<core::Score> score_of(NodeId n) const {
    const auto& ce = values_.nodes[n].ce;
    if (!ce) return std::nullopt;
    auto score = core::Score::from_ce(*ce);
    return score ? std::optional<core::Score>(*score) : std::nullopt;
  }

  core::Color side_of(NodeId n) const { return dag_.key(n)->side; }

  // "[%eval E]" or "no value".
  std::string eval_text(NodeId n) const {
    const auto score = score_of(n);
    return score ? annotate::format_eval(*score, side_of(n)) : std::string("no value");
  }

  // How the line of edge e from node `from` goes on. (Its child's first path comes through e
  // when it comes from `from`: no two moves of a position lead to the same position.)
  Ending ending_of(NodeId from, EdgeId e) const {
    const NodeId child = dag_.edge(e).child;
    if (on_line_[child]) return Ending::Repeats;
    return paths_.parent[child] == from ? Ending::Continue : Ending::Transposes;
  }

  // The node's edges in writing order: the first best move (else the first edge), then the rest.
  std::vector<EdgeId> writing_order(NodeId n) const {
    std::vector<EdgeId> order;
    const auto& best = values_.nodes[n].best_moves;
    for (EdgeId e : dag_.edges_of(n))
      if (!best.empty() && dag_.edge(e).move == best.front()) order.push_back(e);
    for (EdgeId e : dag_.edges_of(n))
      if (order.empty() || e != order.front()) order.push_back(e);
    return order;
  }

  // The move of edge e from node `from` (at `board`), with its NAGs and comment.
  void write_move(NodeId from, EdgeId e, Ending ending, const core::Board& board) {
    const Edge& edge = dag_.edge(e);
    stream_->move(board, edge.move);
    const auto before = score_of(from);
    const auto after = score_of(edge.child);
    if (before && after)
      if (const int judged = annotate::nag(annotate::judge(options_.rule, *before, *after))) stream_->nag(judged);
    if (after) stream_->nag(annotate::position_nag(*after, side_of(edge.child), options_.thresholds));
    // The eval (or "no value"), then the games and where the line goes, each after "; " (the
    // first after a space when there is an eval). (One buffer for every move's comment.)
    std::string& comment = comment_;
    comment = eval_text(edge.child);
    bool first = true;
    const auto part = [&] {
      comment += first && after ? " " : "; ";
      first = false;
    };
    if (edge.stats.games > 0) {
      part();
      append_stats(comment, edge.stats);
    }
    if (ending == Ending::Transposes) {
      part();
      comment += "transposes to ";
      comment += first_path_id(dag_, paths_, edge.child);
    }
    if (ending == Ending::Repeats) {
      part();
      if (edge.child == 0) comment += "repeats the start position";
      else if (paths_.root[edge.child] == edge.child) comment += "repeats the position of " + paths_.label.at(edge.child);
      else comment += "repeats the position after " + first_path_id(dag_, paths_, edge.child);
    }
    stream_->comment(comment);
    if (out_.size() >= kFlushBytes) {
      sink_(std::string_view(out_).substr(0, stream_->complete()));
      stream_->drop_complete();
    }
  }

  // The moves from node n (at `board`) on: the writing order's first move continues the line,
  // the others are its variations, until a leaf, a transposition or a repetition ends it.
  void continue_line(NodeId n, core::Board board) {
    std::vector<NodeId> marked;
    while (!dag_.is_leaf(n)) {
      on_line_[n] = true;
      marked.push_back(n);
      const std::vector<EdgeId> order = writing_order(n);
      const Ending ending = ending_of(n, order.front());
      write_move(n, order.front(), ending, board);
      for (std::size_t i = 1; i < order.size(); ++i) {
        stream_->begin_variation();
        const Ending alt_ending = ending_of(n, order[i]);
        write_move(n, order[i], alt_ending, board);
        if (alt_ending == Ending::Continue) {
          core::Board next = board.detached();
          next.make_move(dag_.edge(order[i]).move);
          continue_line(dag_.edge(order[i]).child, std::move(next));
        }
        stream_->end_variation();
      }
      if (ending != Ending::Continue) break;
      board.make_move(dag_.edge(order.front()).move);
      n = dag_.edge(order.front()).child;
    }
    for (NodeId m : marked) on_line_[m] = false;
  }

  const Dag& dag_;
  const Backsolved& values_;
  const BookPgnOptions& options_;
  const FirstPaths& paths_;
  std::vector<bool> on_line_;
  std::string& out_;
  const std::function<void(std::string_view)>& sink_;
  pgn::MovetextStream* stream_ = nullptr;  // the root's being written
  std::string comment_;                     // write_move's comment
};

void set_tags(pgn::Game& game, const Dag& dag, const BookPgnOptions& options, NodeId r, const std::string& label) {
  game.set_tag("Event", r == 0 ? std::string("epdd book") : "epdd book: " + label);
  game.set_tag("Site", options.site);
  game.set_tag("Date", "????.??.??");
  game.set_tag("Round", options.round);
  game.set_tag("White", options.white);
  game.set_tag("Black", options.black);
  game.set_tag("Result", "*");
  game.set_tag("Annotator", options.annotator);
  const PositionKey& root = *dag.key(r);
  if (root.chess960) game.set_tag("Variant", "Chess960");
  if (root.chess960 || !(root == Dag::key_of(core::Board()))) {
    game.set_tag("SetUp", "1");
    game.set_tag("FEN", core::to_fen(game.start));
  }
}

}  // namespace

void write_book_pgn(const Dag& dag, const Backsolved& values, const BookPgnOptions& options,
                    const std::function<void(std::string_view)>& sink, const FirstPaths* given) {
  std::optional<FirstPaths> made;
  const FirstPaths& paths = given ? *given : made.emplace(first_paths(dag, options.root_names));
  std::string out;
  TreeWriter writer(dag, values, options, paths, out, sink);
  for (const NodeId r : paths.order) {
    if (paths.root[r] != r) continue;  // one game per root, in first_paths' order
    pgn::Game game;  // (its tags and start: the tree is written as it is walked)
    game.start = board_of(dag, r);
    set_tags(game, dag, options, r, paths.label.at(r));
    pgn::append_tag_section(out, game);
    writer.root(r, game.start);
    out += '\n';
    sink(out);
    out.clear();
  }
}

std::string write_book_pgn(const Dag& dag, const Backsolved& values, const BookPgnOptions& options) {
  std::string out;
  write_book_pgn(dag, values, options, [&out](std::string_view part) { out += part; });
  return out;
}

}  // namespace epdd::book
