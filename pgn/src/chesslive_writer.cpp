// Writing a game as a ChessLive! move file: each move as the steps the idioms prescribe, its
// [%eval]/[%clk] as Depth/Score/Time, the result with its reason.
#include <optional>

#include "chesslive_internal.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "pgn/chesslive.hpp"

namespace epdd::pgn {
namespace {

using core::square_name;

// The steps of a legal move (see chesslive.hpp for the idioms).
std::string steps_of(const core::Board& b, core::Move m) {
  const std::string from = square_name(m.from()), to = square_name(m.to());
  switch (m.kind()) {
    case core::MoveKind::Promotion:
      return from + ":" + to + ":" + "pnbrqk"[core::index(m.promotion())] + ":" + to;
    case core::MoveKind::EnPassant:
      return from + ":" + to + ":" + from + ":" +
             square_name(core::make_square(core::file_of(m.to()), core::rank_of(m.from())));
    case core::MoveKind::Castling: {
      const core::Square king_to = b.castling_king_target(m);
      const bool king_side = core::file_of(m.to()) > core::file_of(m.from());
      const core::Square rook_to = core::make_square(king_side ? 5 : 3, core::rank_of(m.from()));
      // A piece that stays gets no step (read literally, "g1:g1" would clear g1).
      if (king_to == m.from()) return to + ":" + square_name(rook_to);
      if (rook_to == m.to()) return from + ":" + square_name(king_to);
      return from + ":" + square_name(king_to) + ":" + (king_to == m.to() ? std::string("r") : to) + ":" +
             square_name(rook_to);
    }
    case core::MoveKind::Normal:
      break;
  }
  return from + ":" + to;
}

// The SANtag: the SAN before the first step's to-square (check marks dropped), or O-O/O-O-O.
std::string santag_of(const core::Board& b, core::Move m) {
  std::string san = core::to_san(b, m);
  while (!san.empty() && (san.back() == '+' || san.back() == '#')) san.pop_back();
  if (m.kind() == core::MoveKind::Castling) return san;
  const std::size_t at = san.find(square_name(m.to()));
  return at == std::string::npos ? san : san.substr(0, at);
}

class Writer {
 public:
  Writer(const Game& g, const ClmWriteOptions& o) : game_(g), options_(o), board_(g.start) {}
  Expected<std::string, ClmError> run();
  ClmWriteReport report;

 private:
  std::string clean(std::string_view text, bool santag = false) {
    std::string out(text);
    for (char& c : out)
      if (c == ';' || (santag && c == '/')) {
        c = ',';
        ++report.characters;
      }
    return out;
  }
  ClmError fail(std::string why) const {
    ClmError e;
    e.message = "game " + std::to_string(game_.number) + " (" + std::string(game_.tag("White").value_or("?")) +
                " - " + std::string(game_.tag("Black").value_or("?")) + "): " + why;
    return e;
  }
  void move_spec(std::size_t i, std::string& out, std::string& reason);

  const Game& game_;
  const ClmWriteOptions& options_;
  core::Board board_;
  bool finished_ = false;
};

void Writer::move_spec(std::size_t i, std::string& out, std::string& reason) {
  const MoveNode& node = game_.main.moves[i];
  std::optional<clm::MoveData> data;
  std::vector<const std::string*> others;
  for (const Annotation& a : node.after) {
    if (a.kind == Annotation::Kind::Nag) ++report.nags;
    if (a.kind == Annotation::Kind::Variation) ++report.variations;
    if (a.kind != Annotation::Kind::Comment) continue;
    if (!data && (data = clm::parse_data_comment(a.comment))) {
      if (!data->whole) ++report.comments;
    } else {
      others.push_back(&a.comment);
    }
  }
  if (finished_ && i + 1 == game_.main.moves.size() && !others.empty()) {
    reason = *others.back();
    others.pop_back();
  }
  report.comments += others.size();
  out += steps_of(board_, node.move);
  if (data) {
    out += "/" + std::to_string(data->depth) + "/" + (data->score ? std::to_string(*data->score) : "") + "/" +
           (data->seconds ? std::to_string(*data->seconds) : "");
    if (options_.santags) out += "/" + clean(santag_of(board_, node.move), true);
  }
}

Expected<std::string, ClmError> Writer::run() {
  for (const Tag& t : game_.tags)
    if (t.name != "White" && t.name != "Black" && t.name != "Result" && t.name != "SetUp" && t.name != "FEN" &&
        t.name != "Variant")
      ++report.tags;  // the start's tags are counted as `start`
  report.start = !(core::to_fen(game_.start) == core::to_fen(core::Board()));
  finished_ = game_.result == "1-0" || game_.result == "0-1" || game_.result == "1/2-1/2";
  std::string out = clean(game_.tag("White").value_or("?")) + ";" + clean(game_.tag("Black").value_or("?")) + ";";
  std::string reason;
  std::vector<std::string> before = game_.main.comments_before;
  if (finished_ && game_.main.moves.empty() && !before.empty()) {
    reason = before.back();
    before.pop_back();
  }
  report.comments += before.size();
  for (std::size_t i = 0; i < game_.main.moves.size(); ++i) {
    const core::Move m = game_.main.moves[i].move;
    if (m.is_null() || !board_.is_legal(m))
      return unexpected(fail("move " + std::to_string(i + 1) + (m.is_null() ? " is a null move" : " is not legal") +
                             ": a move file holds only legal moves"));
    if (i > 0) out += ";";
    move_spec(i, out, reason);
    board_.make_move(m);
  }
  if (finished_) {
    if (!game_.main.moves.empty()) out += ";";
    out += game_.result == "1-0" ? "+" : game_.result == "0-1" ? "-" : "=";
    out += ";" + clean(reason);
  }
  if (!report.lossless() && !options_.lossy)
    return unexpected(fail(
        "a move file cannot hold " + std::to_string(report.comments) + " comment(s), " +
        std::to_string(report.nags) + " NAG(s), " + std::to_string(report.variations) + " variation(s), " +
        std::to_string(report.characters) + " ';' or '/' in text" +
        (report.start ? ", a set-up start position" : "") + " (write with lossy to leave them out)"));
  return out + "\n";
}

}  // namespace

Expected<std::string, ClmError> write_chesslive(const Game& game, const ClmWriteOptions& options,
                                                ClmWriteReport* report) {
  Writer w(game, options);
  auto r = w.run();
  if (report) *report = w.report;
  return r;
}

}  // namespace epdd::pgn
