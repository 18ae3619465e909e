#include "annotate/render.hpp"

#include <algorithm>
#include <stdexcept>

#include "game_annotation.hpp"
#include "pgn/reader.hpp"
#include "pgn/writer.hpp"

namespace epdd::annotate {

namespace {

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

bool same_name(std::string_view a, std::string_view b) {
  a = trim(a);
  b = trim(b);
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// "THEIRS; OURS", without the parts of THEIRS an earlier run of ours wrote.
std::string annotator_value(std::string_view theirs, const std::string& ours) {
  const std::string_view first_word = std::string_view(ours).substr(0, ours.find(' '));
  std::string kept;
  while (!theirs.empty()) {
    const std::size_t cut = theirs.find("; ");
    const std::string_view part = theirs.substr(0, cut);
    theirs = cut == std::string_view::npos ? std::string_view() : theirs.substr(cut + 2);
    const bool earlier_ours = part == ours || (!first_word.empty() && part.substr(0, first_word.size()) == first_word &&
                                               (part.size() == first_word.size() || part[first_word.size()] == ' '));
    if (earlier_ours || trim(part).empty()) continue;
    if (!kept.empty()) kept += "; ";
    kept += part;
  }
  return kept.empty() ? ours : kept + "; " + ours;
}

detail::PlayerSides player_sides(const InputGame& game, const AnnotateOptions& options) {
  if (!options.player) return {};
  return {same_name(game.white, *options.player), same_name(game.black, *options.player)};
}

std::string game_name(const InputGame& game) {
  return "game " + std::to_string(game.number) + " (line " + std::to_string(game.line) + ")";
}

void render_game(AnnotatedFile& out, pgn::Game& game, const InputGame& in, const PositionAnalyses& analyses,
                 const AnnotateOptions& options) {
  const detail::GameOutcome outcome = detail::annotate_game(game, analyses, options, player_sides(in, options));
  if (!options.annotator.empty()) {
    const auto theirs = game.tag("Annotator");
    game.set_tag("Annotator", theirs ? annotator_value(*theirs, options.annotator) : options.annotator);
  }
  pgn::append_game(out.pgn, game);
  out.games.push_back({in.number, in.white, in.black, outcome.white, outcome.black});
  if (outcome.unevaluated > 0)
    out.notes.push_back(game_name(in) + ": " + std::to_string(outcome.unevaluated) + " of " +
                        std::to_string(outcome.positions) +
                        " positions have no evaluation (not analysed, or the analysis failed): no [%eval] there, "
                        "and the moves into and out of them are not judged");
}

}  // namespace

std::vector<std::size_t> plies_to_analyse(const InputGame& game, const AnnotateOptions& options) {
  std::vector<std::size_t> plies;
  if (!game.readable) return plies;
  core::Board board = game.start;
  const std::size_t first = options.from_ply > 1 ? static_cast<std::size_t>(options.from_ply - 1) : 0;
  for (std::size_t ply = 0;; ++ply) {
    if (ply >= first && board.count_legal() > 0) plies.push_back(ply);
    if (ply == game.moves.size() || game.moves[ply].is_null()) break;
    board.make_move(game.moves[ply]);
  }
  return plies;
}

AnnotatedFile render_file(std::string_view bytes, const std::vector<InputGame>& games,
                          const std::function<PositionAnalyses(std::size_t)>& analyses_of,
                          const AnnotateOptions& options, const std::function<void(std::string_view)>& write) {
  AnnotatedFile out;
  const auto flush = [&] {
    if (!write) return;
    write(out.pgn);
    out.pgn.clear();
  };
  pgn::Diagnostics diags;
  diags.keep_per_kind(0);  // scan_games judged them already
  pgn::GameReader reader(bytes, diags);
  std::size_t index = 0;
  for (pgn::Game game; reader.next(game); ++index) {
    if (index >= games.size() || games[index].number != game.number)
      throw std::invalid_argument("render_file: the games given are not scan_games() of these bytes");
    const InputGame& in = games[index];
    if (in.readable) {
      render_game(out, game, in, analyses_of(index), options);
    } else {
      out.pgn.append(bytes.substr(in.begin, in.end - in.begin));
      out.pgn += "\n\n";
      out.kept.emplace_back(in.line, in.problem);
    }
    flush();
  }
  if (index != games.size())
    throw std::invalid_argument("render_file: the games given are not scan_games() of these bytes");
  const std::size_t tail = tail_begin(bytes, games);
  if (tail < bytes.size()) {
    out.pgn.append(bytes.substr(tail));
    if (out.pgn.back() != '\n') out.pgn += '\n';
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(tail), '\n'));
    out.notes.push_back("line " + std::to_string(line) + ": the text after the last game is no game: written back as it was");
    flush();
  }
  return out;
}

}  // namespace epdd::annotate
