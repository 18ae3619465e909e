#include "annotate/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "annotate/input_evals.hpp"
#include "core/text.hpp"
#include "game_annotation.hpp"
#include "input_stream.hpp"
#include "pgn/lexer.hpp"
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

// A player's name as compared: ASCII letters lowered, white space trimmed at both ends, none
// around a comma, runs of it one space ("Carlsen, Magnus", TWIC's "Carlsen,Magnus" and
// "carlsen ,  magnus" are one name). A name in Latin-1 is compared as its UTF-8 (core::as_utf8:
// TWIC's "M\xFCller" is the "Müller" a terminal types).
std::string name_key(std::string_view name) {
  const auto space = [](char c) { return c == ' ' || c == '\t'; };
  const std::string text = core::as_utf8(name);
  std::string key;
  bool pending_space = false;
  for (const char c : trim(text)) {
    if (space(c)) {
      pending_space = true;
      continue;
    }
    if (pending_space && c != ',' && !key.empty() && key.back() != ',') key += ' ';
    pending_space = false;
    key += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return key;
}

bool same_name(std::string_view a, std::string_view b) { return name_key(a) == name_key(b); }

}  // namespace

bool names_player(const InputBytes& bytes, std::string_view player) {
  const std::string wanted = name_key(player);
  detail::PartStream in(bytes);
  pgn::Lexer lexer(in);
  // A tag pair is [ NAME "VALUE" ]: the value is compared after [ White or [ Black.
  enum class Seen : std::uint8_t { Nothing, Bracket, PlayerTag } seen = Seen::Nothing;
  for (pgn::Token t = lexer.next(); t.kind != pgn::TokenKind::End; t = lexer.next()) {
    if (seen == Seen::PlayerTag && t.kind == pgn::TokenKind::String && name_key(pgn::unescape(t.text)) == wanted)
      return true;
    if (t.kind == pgn::TokenKind::LeftBracket) seen = Seen::Bracket;
    else if (seen == Seen::Bracket && t.kind == pgn::TokenKind::Symbol && (t.text == "White" || t.text == "Black"))
      seen = Seen::PlayerTag;
    else seen = Seen::Nothing;
  }
  return false;
}

bool holds_a_game(const InputBytes& bytes) {
  detail::PartStream in(bytes);
  pgn::Lexer lexer(in);
  for (pgn::Token t = lexer.next(); t.kind != pgn::TokenKind::End; t = lexer.next())
    if (t.kind != pgn::TokenKind::Escape) return true;
  return false;
}

namespace {

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

// A tag's value as the summary shows it (terminal, JSON, HTML): UTF-8, a Latin-1 value decoded.
std::string tag_text(const pgn::Game& game, std::string_view name) { return core::as_utf8(game.tag(name).value_or("")); }

detail::PlayerSides player_sides(const pgn::Game& game, const AnnotateOptions& options) {
  if (!options.player) return {};
  return {same_name(tag_text(game, "White"), *options.player), same_name(tag_text(game, "Black"), *options.player)};
}

// The ply number of the first move from `start`: 1 from the usual start, 2 * (fullmove - 1) + 2
// when Black moves first.
int first_ply(const core::Board& start) {
  return 2 * (start.fullmove_number() - 1) + (start.side_to_move() == core::Color::White ? 1 : 2);
}

std::string game_name(const InputGame& game) {
  return "game " + std::to_string(game.number) + " (line " + std::to_string(game.line) + ")";
}

// --accuracy-tags: each side's accuracy and ACPL as tags, for a side that has them.
void set_accuracy_tags(pgn::Game& game, const detail::GameOutcome& outcome) {
  const std::pair<const char*, const SideSummary*> sides[] = {{"White", &outcome.white}, {"Black", &outcome.black}};
  // An earlier run's figures go first: a side without figures now has none.
  std::erase_if(game.tags, [](const pgn::Tag& t) {
    return t.name == "WhiteAccuracy" || t.name == "BlackAccuracy" || t.name == "WhiteACPL" || t.name == "BlackACPL";
  });
  for (const auto& [colour, side] : sides) {
    if (const auto accuracy = side->accuracy()) game.set_tag(std::string(colour) + "Accuracy", fmt::format("{:.1f}", *accuracy));
    if (const auto acpl = side->average_centipawn_loss()) game.set_tag(std::string(colour) + "ACPL", std::to_string(*acpl));
  }
}

void render_game(AnnotatedFile& out, pgn::Game& game, const InputGame& in, const PositionAnalyses& analyses,
                 const AnnotateOptions& options, const std::function<void(const GameSummary&)>& on_game,
                 PositionAnalyses& scratch) {
  detail::GameOutcome outcome = detail::annotate_game(game, analyses, options, player_sides(game, options), &scratch);
  if (!options.annotator.empty()) {
    const auto theirs = game.tag("Annotator");
    const bool all_replaced = outcome.earlier_replaced > 0 && outcome.earlier_kept == 0;
    game.set_tag("Annotator", theirs && !all_replaced ? annotator_value(*theirs, options.annotator) : options.annotator);
  }
  if (options.accuracy_tags) set_accuracy_tags(game, outcome);
  out.evals_from_input += outcome.from_input;
  for (const std::string& problem : outcome.input_problems)
    out.notes.push_back(game_name(in) + ": " + core::one_line(problem) + ": no evaluation taken from it");
  out.from_import += outcome.from_import;
  pgn::append_game(out.pgn, game);
  GameSummary summary{in.number, tag_text(game, "White"), tag_text(game, "Black"), outcome.white, outcome.black,
                      tag_text(game, "Event"), tag_text(game, "Date"), tag_text(game, "Result"),
                      first_ply(game.start), std::move(outcome.plies)};
  if (on_game) on_game(summary);
  else out.games.push_back(std::move(summary));
  if (outcome.beside > 0)
    out.notes.push_back(game_name(in) + ": " + std::to_string(outcome.beside) +
                        (outcome.beside == 1 ? " move keeps" : " moves keep") +
                        " an earlier engine's judgement whole, epdd's beside it as \"" + std::string(detail::kBesidePrefix) +
                        "...\" (--replace-analysis: epdd's alone)");
  if (outcome.unevaluated > 0)
    out.notes.push_back(game_name(in) + ": " + std::to_string(outcome.unevaluated) + " of " +
                        std::to_string(outcome.positions) + " positions have no evaluation (" +
                        (options.evals_from_input == AnnotateOptions::InputEvals::Only
                             ? "none in the input, and --evals-from-input only searches none"
                             : "not analysed, or the analysis failed") +
                        "): no [%eval] there, and the moves into and out of them are not judged");
  if (outcome.after_null > 0) {
    const int ply = first_ply(game.start) + static_cast<int>(outcome.null_move) - 1;
    out.notes.push_back(game_name(in) + ": no evaluation from the null move on (" + std::to_string((ply + 1) / 2) +
                        (ply % 2 == 1 ? ". --" : "... --") + "): a null move makes a position no game reaches, and " +
                        "epdd asks the engine about none after it (" + std::to_string(outcome.after_null) + " of " +
                        std::to_string(outcome.positions) + " positions); their moves are not judged");
  }
}

// The text after the last game (from `tail`), when there is any, written back as it was, a
// chunk at a time, with a note naming its line.
void write_tail(AnnotatedFile& out, const InputBytes& bytes, std::size_t tail, const std::function<void()>& flush) {
  if (tail >= bytes.size) return;
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::size_t line = 1;
  for (std::size_t at = 0; at < tail; at += kChunk) {
    const std::string part = bytes.read(at, std::min(kChunk, tail - at));
    line += static_cast<std::size_t>(std::count(part.begin(), part.end(), '\n'));
  }
  char last = '\n';
  for (std::size_t at = tail; at < bytes.size; at += kChunk) {
    const std::string part = bytes.read(at, kChunk);
    if (part.empty()) break;
    out.pgn += part;
    last = part.back();
    flush();
  }
  if (last != '\n') out.pgn += '\n';
  out.notes.push_back("line " + std::to_string(line) + ": the text after the last game is no game: written back as it was");
  flush();
}

// fill: whether the move from position `ply` is one the options judge and the input's own
// evaluations judge (by the rule, before any engine's best move is known) while the input names
// no line for it.
bool needs_best_line(const PositionAnalyses& given, std::size_t ply, const AnnotateOptions& options,
                     detail::PlayerSides players, const core::Board& before, core::Move move) {
  if (ply + 1 >= given.size() || !given[ply] || !given[ply + 1]) return false;
  if (!given[ply]->lines.empty() && !given[ply]->lines[0].pv.empty()) return false;
  if (!detail::selected(options, players, before, move, ply + 1)) return false;
  return judge(options.rule, given[ply]->lines[0].score, given[ply + 1]->lines[0].score) != Judgement::None;
}

}  // namespace

std::vector<std::size_t> plies_to_analyse(const pgn::Game& game, const AnnotateOptions& options) {
  std::vector<std::size_t> plies;
  if (options.evals_from_input == AnnotateOptions::InputEvals::Only) return plies;
  const PositionAnalyses given = options.evals_from_input == AnnotateOptions::InputEvals::Fill ? input_analyses(game)
                                                                                             : PositionAnalyses{};
  const detail::PlayerSides players = player_sides(game, options);
  core::Board board = game.start;
  const auto& moves = game.main.moves;
  const std::size_t first = options.from_ply > 1 ? static_cast<std::size_t>(options.from_ply - 1) : 0;
  for (std::size_t ply = 0;; ++ply) {
    // fill: a move its input's evaluations judge, with no line named in the input, needs the
    // engine's best line from the position before it: that position is searched for its line
    // (its score stays the input's).
    const bool needs_line = ply < moves.size() && needs_best_line(given, ply, options, players, board, moves[ply].move);
    const bool imported = options.imported && !options.import_deeper && options.imported->contains(board.polyglot_key());
    // fill, as lichess: the usual start without an evaluation is lila's +0.15, never searched.
    const bool initial = ply == 0 && options.evals_from_input == AnnotateOptions::InputEvals::Fill && detail::lila_initial(board);
    if (ply >= first && board.count_legal() > 0 && (!(ply < given.size() && given[ply]) || needs_line) && !imported &&
        !initial)
      plies.push_back(ply);
    if (ply == moves.size() || moves[ply].move.is_null()) break;
    board.make_move(moves[ply].move);
  }
  return plies;
}

namespace {

using AnalysesOf = std::function<PositionAnalyses(std::size_t)>;
using Write = std::function<void(std::string_view)>;
using OnGame = std::function<void(const GameSummary&)>;

// render_file's and render_stream's pass over the input: each game as the reader gives it,
// classified by scan_games' rules as it is read (and checked against `listed`, when the caller
// scanned the file before), annotated or written back unchanged (then given to `on_kept`).
AnnotatedFile render_games(const InputBytes& bytes, const std::vector<InputGame>* listed, const AnalysesOf& analyses_of,
                           const AnnotateOptions& options, const Write& write, const OnGame& on_game,
                           const std::function<void(const InputGame&)>& on_kept, AnnotatedFile out) {
  const auto flush = [&] {
    if (!write) return;
    write(out.pgn);
    out.pgn.clear();
  };
  const auto not_scanned = [] {
    return std::invalid_argument("render_file: the games given are not scan_games() of these bytes");
  };
  pgn::Diagnostics diags;
  // (The encoding is known: from the list, or render_stream checked the whole input.)
  detail::GameScanner scanner(bytes, diags, /*known_utf8=*/true);
  detail::PartStream stream(bytes);
  pgn::GameReader reader(stream, diags);
  PositionAnalyses scratch;  // annotate_game's, kept from game to game
  std::size_t index = 0;
  for (pgn::Game game; reader.next(game); ++index) {
    const InputGame in = scanner.take(game);
    if (listed && (index >= listed->size() || (*listed)[index].number != in.number ||
                   (*listed)[index].readable != in.readable))
      throw not_scanned();
    if (in.readable) {
      render_game(out, game, in, analyses_of ? analyses_of(index) : PositionAnalyses{}, options, on_game, scratch);
    } else {
      out.pgn += bytes.read(in.begin, in.end - in.begin);
      out.pgn += "\n\n";
      out.kept.emplace_back(in.line, core::one_line(in.problem));  // (the JSON's "kept": UTF-8)
      if (on_kept) on_kept(in);
    }
    flush();
  }
  if (listed && index != listed->size()) throw not_scanned();
  write_tail(out, bytes, scanner.tail_begin(), flush);
  if (options.imported)
    out.notes.push_back(core::counted(out.from_import, "position", "positions") + " answered by --import" +
                        (options.import_deeper ? " (deeper than the search)" : ", not searched"));
  if (options.evals_from_input != AnnotateOptions::InputEvals::Off)
    out.notes.push_back(core::counted(out.evals_from_input, "position", "positions") +
                        " evaluated from the games' own comments ([%eval], engine-match scores), not searched");
  return out;
}

// render_file, with render_stream's `on_kept`.
AnnotatedFile render_listed(const InputBytes& bytes, const std::vector<InputGame>& games, const AnalysesOf& analyses_of,
                            const AnnotateOptions& given, const Write& write, const OnGame& on_game,
                            const std::function<void(const InputGame&)>& on_kept) {
  AnnotatedFile out;
  // One encoding for the output: the input's. A file with a game in Latin-1 is written back in
  // Latin-1, so epdd's words there are ASCII (a UTF-8 arrow would make it two encodings).
  AnnotateOptions options = given;
  const auto latin1 = static_cast<std::size_t>(std::count_if(games.begin(), games.end(), [](const InputGame& g) { return g.latin1; }));
  options.ascii_words = options.ascii_words || latin1 > 0;
  if (latin1 > 0)
    out.notes.push_back(core::counted(latin1, "game's", "games'") +
                        " text is Latin-1 (the PGN standard's character set), not UTF-8: the output stays in Latin-1, "
                        "epdd's comments in ASCII (\"->\" for \"\xE2\x86\x92\"); the summary, JSON and page show the "
                        "names decoded");
  return render_games(bytes, &games, analyses_of, options, write, on_game, on_kept, std::move(out));
}

}  // namespace

AnnotatedFile render_file(const InputBytes& bytes, const std::vector<InputGame>& games, const AnalysesOf& analyses_of,
                          const AnnotateOptions& options, const Write& write, const OnGame& on_game) {
  return render_listed(bytes, games, analyses_of, options, write, on_game, nullptr);
}

AnnotatedFile render_stream(const InputBytes& bytes, const AnnotateOptions& options, const Write& write,
                            const OnGame& on_game, const std::function<void(const InputGame&)>& on_kept) {
  // A file that is all UTF-8 has no game in Latin-1: nothing to know before its first game.
  if (all_utf8(bytes)) return render_games(bytes, nullptr, nullptr, options, write, on_game, on_kept, {});
  return render_listed(bytes, scan_games(bytes), nullptr, options, write, on_game, on_kept);
}

AnnotatedFile render_file(std::string_view bytes, const std::vector<InputGame>& games,
                          const std::function<PositionAnalyses(std::size_t)>& analyses_of,
                          const AnnotateOptions& options, const std::function<void(std::string_view)>& write,
                          const std::function<void(const GameSummary&)>& on_game) {
  return render_file(bytes_in_memory(bytes), games, analyses_of, options, write, on_game);
}

}  // namespace epdd::annotate
