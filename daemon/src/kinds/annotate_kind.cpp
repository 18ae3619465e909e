// annotate: every main-line position of every game of a PGN file analysed, the games written
// back with [%eval], judgement NAGs, lichess's comments and the engine's lines (annotate/).
//
// Items: the positions of the games, numbered one after the other in file order (game 1's start
// position is item 0, the position after its first move item 1, ...; a game the reader cannot
// read has none). A game's positions are one group: a worker claims them together, searches them
// in order on one engine (ucinewgame once, the hash kept) and commits them together, so a run
// killed in the middle of a game redoes that game from its start and its output equals an
// uninterrupted run's.
#include <algorithm>

#include <fmt/format.h>

#include "annotate/input_game.hpp"
#include "annotate/judgement.hpp"
#include "annotate/polyglot.hpp"
#include "annotate/render.hpp"
#include "annotate/summary_report.hpp"
#include "book/analysis_record.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "daemon/logging.hpp"
#include "kinds.hpp"
#include "option_checks.hpp"
#include "store/analysis_json.hpp"

namespace epdd::daemon {

namespace {

// The games of the input and where each one's positions are among the items: a few numbers
// per game. The input is read in parts as it is needed (the store's copy, or `held`).
struct AnnotateInput final : KindData {
  std::string held;  // the bytes when the run was started from bytes in memory (start())
  annotate::InputBytes bytes;
  std::vector<annotate::InputGame> games;
  std::vector<std::size_t> first_item;  // per game; first_item[g] + ply is the position's item
  std::unique_ptr<annotate::GameCursor> cursor;  // plan_part's reader: the parts come in order
  // A run that makes no job (--evals-from-input only: JobKind::needs_store): `games` stays empty,
  // the input is rendered in one pass (annotate::render_stream), which counts the games it
  // writes back unchanged here.
  bool direct = false;
  std::size_t kept = 0;
  // --import's analyses, read from the store once (the first annotate_options() that has them).
  mutable std::shared_ptr<const book::ImportedAnalyses> imported;
};

const AnnotateInput& input_of(const AnalysisRun& run) { return static_cast<const AnnotateInput&>(*run.data); }
AnnotateInput& input_of(AnalysisRun& run) { return static_cast<AnnotateInput&>(*run.data); }

AnalysisRun start_annotate(std::shared_ptr<AnnotateInput> input) {
  input->games = annotate::scan_games(input->bytes);
  std::size_t items = 0;
  input->first_item.reserve(input->games.size());
  for (const auto& g : input->games) {
    input->first_item.push_back(items);
    if (g.readable) items += g.plies + 1;
  }
  input->cursor = std::make_unique<annotate::GameCursor>(input->bytes);
  AnalysisRun run;  // no analyses: they are read from the store as each game is rendered
  run.item_count = items;
  run.data = std::move(input);
  return run;
}

std::optional<std::string> check_judge(std::string_view v) {
  auto rule = annotate::parse_judge_rule(v);
  if (!rule) return rule.error();
  return std::nullopt;
}

std::optional<std::string> check_plies(std::string_view v) {
  const auto n = whole_number(v);
  if (!n || *n < 0 || *n > 200) return fmt::format("'{}' is not a number of plies from 0 to 200", core::escaped(v));
  return std::nullopt;
}

std::optional<std::string> check_from_ply(std::string_view v) {
  const auto n = whole_number(v);
  if (!n || *n < 1 || *n > 10000) return fmt::format("'{}' is not a ply from 1 (the first move) to 10000", core::escaped(v));
  return std::nullopt;
}

std::optional<std::string> check_side(std::string_view v) {
  if (v == "white" || v == "black") return std::nullopt;
  return fmt::format("'{}' is not white or black", core::escaped(v));
}

std::optional<std::string> check_input_evals(std::string_view v) {
  if (v == "only" || v == "fill" || v == "off") return std::nullopt;
  return fmt::format("'{}' is not only, fill or off", core::escaped(v));
}

// --evals-from-input's mode ("off", the default, when not set).
std::string input_evals(const JobSpec& spec) { return option_text(spec, "evals_from_input").value_or("off"); }

Expected<annotate::PositionNagThresholds, std::string> parse_thresholds(std::string_view v) {
  annotate::PositionNagThresholds t;
  int* fields[] = {&t.slight, &t.moderate, &t.decisive};
  std::size_t start = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto comma = v.find(',', start);
    if ((i < 2) != (comma != std::string_view::npos))
      return unexpected(fmt::format("'{}' is not three centipawn limits like 30,70,200", core::escaped(v)));
    const auto n = whole_number(v.substr(start, comma == std::string_view::npos ? v.npos : comma - start));
    if (!n || *n <= 0) return unexpected(fmt::format("'{}' is not three centipawn limits like 30,70,200", core::escaped(v)));
    *fields[i] = *n;
    start = comma + 1;
  }
  if (!(t.slight < t.moderate && t.moderate < t.decisive))
    return unexpected(fmt::format("'{}': the limits must grow (slight < moderate < decisive)", core::escaped(v)));
  return t;
}

std::optional<std::string> check_thresholds(std::string_view v) {
  auto t = parse_thresholds(v);
  if (!t) return t.error();
  return std::nullopt;
}

constexpr KindOption kAnnotateOptions[] = {
    {"judge", "--judge", "RULE",
     "How moves are judged. lichess (default, lila's Advice): the drop of the mover's winning\n"
     "chances wc = 2/(1+exp(-0.00368208*cp))-1 from before the move to after it: >= 0.1 inaccuracy\n"
     "($6), >= 0.2 mistake ($2), >= 0.3 blunder ($4); a move that allows a forced mate is a blunder\n"
     "(a mistake if the mover was already below -7.00, an inaccuracy below -9.99), one that loses\n"
     "its own forced mate a blunder (a mistake if still above +7.00 after, an inaccuracy above\n"
     "+9.99); mate to mate for the same side is not judged. As on lichess, the engine's own first\n"
     "move is never judged (whatever the two searches said), nor a move that gives checkmate; the\n"
     "usual start position without an evaluation counts as lichess's +0.15. cp:I,M,B judges by\n"
     "centipawn loss (lichess's: scores capped at +-10.00, a mate counting as +-10.00) instead:\n"
     "e.g. cp:50,100,300. Either way each side gets lichess's ACPL and accuracy in the summary",
     KindOption::Type::Text, check_judge, false},
    {"variation_plies", "--variation-plies", "N",
     "The engine's line after a judged move, as a variation, at most N plies (default 12; 0: none)",
     KindOption::Type::Integer, check_plies, false},
    {"from_ply", "--from-ply", "N",
     "Judge moves from ply N on (ply 1 is White's first move, ply 2 Black's reply, ply 21 White's\n"
     "11th move). The positions before ply N-1 are not analysed",
     KindOption::Type::Integer, check_from_ply},
    {"side", "--side", "white|black", "Judge only this side's moves", KindOption::Type::Text, check_side, false},
    {"player", "--player", "NAME",
     "Judge only the moves of the player whose White or Black tag is NAME (letter case and\n"
     "spacing aside: \"Carlsen, Magnus\" is TWIC's \"Carlsen,Magnus\")",
     KindOption::Type::Text, check_not_empty, false},
    {"book", "--book", "FILE.bin",
     "A Polyglot opening book: a move played from a position in the book is analysed but not\n"
     "judged (the opening is theory)",
     KindOption::Type::Path, check_not_empty, false},
    {"replace_nags", "--replace-nags", "",
     "Our judgement NAG replaces a move-assessment NAG ($1-$6) a human wrote; by default the\n"
     "human's stays and ours is not added",
     KindOption::Type::Flag, check_flag, false},
    {"replace_analysis", "--replace-analysis", "",
     "An engine's judgement already at a judged move (lichess's \"(0.30 -> 1.20) Inaccuracy. c5 was\n"
     "best.\", its $1-$6 and the line starting with that move; or an earlier run's) is replaced whole\n"
     "by ours; by default it stays whole and ours is added beside it (\"epdd: ...\" and our line)",
     KindOption::Type::Flag, check_flag, false},
    {"only_moves", "--only-moves", "",
     "Search with MultiPV 2 and mark a played move that was the only one not losing 0.2 winning\n"
     "chances with $1 and the comment \"only move\"",
     KindOption::Type::Flag, check_flag},
    {"position_nags", "--position-nags", "",
     "After each move, a position NAG from its evaluation (White's view): $10 equal (below the\n"
     "first limit of --position-limits), $14/$15 slight, $16/$17 moderate, $18/$19 decisive\n"
     "advantage for White/Black",
     KindOption::Type::Flag, check_flag, false},
    {"evals_from_input", "--evals-from-input", "only|fill|off",
     "Judge from the evaluations the games already carry instead of searching them: lichess's\n"
     "[%eval 0.35], [%eval 0.35,20], [%eval #-3] (White's view, the position after the move), and\n"
     "the engine-match comments cutechess writes after an engine's move, {+0.35/20 1.2s},\n"
     "{-M4/30}, {+1.00/12}: the mover's view, its own search of the position BEFORE its move (M\n"
     "counts plies), so that a move is judged by the next engine's search. only: nothing is\n"
     "searched and no engine is started; a one-shot run makes no job in the store either (each\n"
     "game is written as it is read, after one pass that checks the text is UTF-8); a position\n"
     "without an evaluation leaves the moves into and out of it unjudged (the notes count them),\n"
     "and --only-moves marks none (it needs a second line). fill: the engine searches just those. A\n"
     "judged move's better move and line come from an earlier judgement at it (\"Nc6 was best.\"\n"
     "and its variation: a lichess export, epdd's own output); without one the judgement names\n"
     "none, and the engine's own move, which lichess never judges, cannot be told apart. off (the\n"
     "default): every position is searched (off on the command line undoes a TOML setting)",
     KindOption::Type::Text, check_input_evals},
    {"import", "--import", "FILE.epd",
     "Analyses that answer their positions without a search: EPD records with ce (the side to\n"
     "move's, as the standard has it) and optionally pv, acd, acn, acs: 'epdd analyse' output,\n"
     "another tool's, an analyst's. Matched by position (the four fields)",
     KindOption::Type::Path, check_not_empty},
    {"merge", "--merge", "replace|deeper",
     "With --import: replace (default) takes the imported analysis of a position and does not\n"
     "search it; deeper searches every position and keeps whichever of the two has the greater\n"
     "depth (acd; equal: the engine's)",
     KindOption::Type::Text, check_merge},
    {"accuracy_tags", "--accuracy-tags", "",
     "Each game gets the tags WhiteAccuracy and BlackAccuracy (lichess's game accuracy of the\n"
     "moves judged, one decimal) and WhiteACPL and BlackACPL, for a side that has them",
     KindOption::Type::Flag, check_flag, false},
    {"position_limits", "--position-limits", "S,M,D",
     "The centipawn limits of --position-nags (default 30,70,200): below S equal, below M slight,\n"
     "below D moderate, else decisive",
     KindOption::Type::Text, check_thresholds, false},
};

// The Polyglot book, read when the games are rendered: kept in the store with the job.
constexpr std::string_view kStoredInputs[] = {"book", "import"};

JobSpec without_book(JobSpec spec) {
  spec.options.erase("book");
  return spec;
}

// The annotate options of a spec (checked when the spec was read), with the book's bytes as the
// store keeps them (the run's input_file: the file itself is never opened here, it may be on
// another host); a book that is not there or cannot be read is an error naming it.
Expected<annotate::AnnotateOptions, std::string> annotate_options(const JobSpec& spec, const std::string& annotator,
                                                                  const AnalysisRun* run = nullptr) {
  annotate::AnnotateOptions o;
  if (auto v = option_text(spec, "judge")) {
    auto rule = annotate::parse_judge_rule(*v);
    if (!rule) return unexpected(rule.error());
    o.rule = *rule;
  }
  if (auto v = option_text(spec, "variation_plies")) o.variation_plies = whole_number(*v).value_or(o.variation_plies);
  if (auto v = option_text(spec, "from_ply")) o.from_ply = whole_number(*v).value_or(o.from_ply);
  if (auto v = option_text(spec, "side")) o.side = *v == "white" ? core::Color::White : core::Color::Black;
  if (auto v = option_text(spec, "player")) o.player = *v;
  o.replace_nags = option_flag(spec, "replace_nags");
  o.replace_analysis = option_flag(spec, "replace_analysis");
  o.only_moves = option_flag(spec, "only_moves");
  o.position_nags = option_flag(spec, "position_nags");
  o.accuracy_tags = option_flag(spec, "accuracy_tags");
  if (const std::string v = input_evals(spec); v != "off")
    o.evals_from_input = v == "only" ? annotate::AnnotateOptions::InputEvals::Only : annotate::AnnotateOptions::InputEvals::Fill;
  if (auto v = option_text(spec, "position_limits")) {
    auto t = parse_thresholds(*v);
    if (!t) return unexpected(t.error());
    o.thresholds = *t;
  }
  // (A run that cannot read the job's files yet, submit's check, plans without the import.)
  if (auto v = option_text(spec, "import"); v && run && run->input_file) {
    const AnnotateInput& input = input_of(*run);
    if (!input.imported) {
      auto bytes = run->input_file("import");
      if (!bytes)
        return unexpected(fmt::format("--import {}: not in the store (a job made by an older epdd)", core::escaped(*v)));
      input.imported = std::make_shared<const book::ImportedAnalyses>(book::import_analyses(*bytes, *v));
    }
    o.imported = std::shared_ptr<const std::unordered_map<std::uint64_t, uci::Analysis>>(input.imported, &input.imported->by_key);
    o.import_deeper = option_text(spec, "merge") == "deeper";
  }
  if (auto v = option_text(spec, "book")) {
    auto bytes = run && run->input_file ? run->input_file("book") : std::nullopt;
    if (!bytes)
      return unexpected(fmt::format("--book {}: not in the store (a job made by an older epdd)", core::escaped(*v)));
    auto keys = annotate::polyglot_keys(*bytes);
    if (!keys) return unexpected(fmt::format("--book {}: {}", core::escaped(*v), keys.error()));
    o.book = std::make_shared<const std::unordered_set<std::uint64_t>>(std::move(*keys));
  }
  o.annotator = annotator;
  return o;
}

class AnnotateKind final : public JobKind {
 public:
  std::string_view name() const override { return "annotate"; }
  std::span<const KindOption> options() const override { return kAnnotateOptions; }
  bool has_reports() const override { return true; }
  std::string_view input_extension() const override { return "pgn"; }
  // PGC and ChessLive! move files are annotated as the PGN they convert to (read_input).
  bool reads(std::string_view extension) const override {
    return extension == "pgn" || extension == "pgc" || extension == "clm";
  }
  std::string_view output_extension() const override { return "pgn"; }  // games.pgc gives outbox/games.pgn
  bool renders_from_store() const override { return true; }
  bool needs_value() const override { return true; }
  bool stores_as_is(const std::string& path) const override { return annotate::is_pgn_file(path); }
  std::span<const std::string_view> stored_inputs() const override { return kStoredInputs; }
  // A --book that is not a Polyglot book is refused before any search, not noted after it.
  Expected<void, std::string> check_stored_input(std::string_view key, std::string_view bytes) const override {
    if (key != "book") return {};
    auto keys = annotate::polyglot_keys(bytes);
    if (!keys) return unexpected(keys.error());
    return {};
  }
  uci::NewGame default_new_game() const override { return uci::NewGame::Keep; }

  // PGN, or PGC and ChessLive! move files as PGN text (annotate::input_as_pgn): the store keeps
  // what is annotated, and the output is PGN whatever the input was.
  Expected<std::string, std::string> read_input(const std::string& path, const JobSpec&) const override {
    auto bytes = read_whole_file(path);
    if (!bytes) return bytes;
    return annotate::input_as_pgn(path, std::move(*bytes));
  }

  AnalysisRun start(std::string_view bytes, const JobSpec&) const override {
    auto input = std::make_shared<AnnotateInput>();
    input->held = std::string(bytes);
    input->bytes = annotate::bytes_in_memory(input->held);
    return start_annotate(std::move(input));
  }

  AnalysisRun start_from(const InputSource& source, const JobSpec&) const override {
    auto input = std::make_shared<AnnotateInput>();
    input->bytes = annotate::InputBytes{source.size, source.read};
    return start_annotate(std::move(input));
  }

  // --evals-from-input only searches nothing: a parse of the input, rendered from the file in one
  // pass (nothing to resume, nothing to cache).
  bool needs_store(const JobSpec& spec) const override { return needs_engine(spec); }
  AnalysisRun start_direct(const InputSource& source, const JobSpec&) const override {
    auto input = std::make_shared<AnnotateInput>();
    input->bytes = annotate::InputBytes{source.size, source.read};
    input->direct = true;
    AnalysisRun run;
    run.data = std::move(input);
    return run;
  }

  std::map<std::size_t, uci::AnalysisRequest> plan(const JobSpec& spec, AnalysisRun& run) const override {
    std::map<std::size_t, uci::AnalysisRequest> requests;
    for (std::size_t g = 0; g < plan_parts(run); ++g) requests.merge(plan_part(spec, run, g));
    return requests;
  }

  // A part is a game: a file of thousands of games is planned in the memory of one.
  std::size_t plan_parts(const AnalysisRun& run) const override { return input_of(run).games.size(); }

  std::map<std::size_t, uci::AnalysisRequest> plan_part(const JobSpec& spec, AnalysisRun& run,
                                                        std::size_t g) const override {
    AnnotateInput& input = input_of(run);
    std::map<std::size_t, uci::AnalysisRequest> requests;
    if (!input.games.at(g).readable) return requests;
    const pgn::Game& game = input.cursor->at(g);
    // Which positions are analysed does not depend on the book (its moves are analysed, not judged).
    auto options = annotate_options(without_book(spec), "", &run);
    if (!options) options = annotate::AnnotateOptions{};
    // The engine sees each position with the moves since the last capture or pawn move (the
    // halfmove clock's last reset): every earlier position differs in its pawns or pieces, so
    // it can never repeat, and that is all the history a search uses. The request stays small
    // (the whole game from its start would make a game's requests grow with the square of its
    // length) and a position reached in two games after the same irreversible move and the
    // same moves since is one cache entry.
    const auto castling = core::uci_castling_for(game.start);
    std::vector<std::string> moves;
    std::vector<std::pair<std::string, std::size_t>> root_of;  // by ply: (FEN, its ply)
    core::Board board = game.start;
    root_of.emplace_back(core::to_fen(board), 0);
    for (const pgn::MoveNode& node : game.main.moves) {
      const core::Move m = node.move;
      moves.push_back(core::to_uci(m, castling));
      m.is_null() ? board.make_null_move() : board.make_move(m);
      // A null move (a main line's "--") is a cut too: engines take no history across it,
      // and none is sent a "0000" it may not read.
      const bool cut = board.halfmove_clock() == 0 || m.is_null();
      root_of.push_back(cut ? std::pair{core::to_fen(board), moves.size()} : root_of.back());
    }
    for (const std::size_t ply : annotate::plies_to_analyse(game, *options)) {
      uci::AnalysisRequest r;
      r.fen = root_of[ply].first;
      r.chess960 = game.start.chess960();
      r.moves.assign(moves.begin() + static_cast<std::ptrdiff_t>(root_of[ply].second),
                     moves.begin() + static_cast<std::ptrdiff_t>(ply));
      r.limits = spec.limits;
      r.multipv = options->only_moves ? std::max(spec.multipv, 2) : spec.multipv;
      r.new_game = new_game_of(spec);
      r.game = game.number;
      requests.emplace(input.first_item[g] + ply, std::move(r));
    }
    return requests;
  }

  std::optional<std::string> refuse_input(const std::string& name, const InputSource& input,
                                          const JobSpec& spec) const override {
    // A NUL byte in the first 4 KiB: no PGN text holds one, almost every binary file does (as git
    // and grep tell binary files). PGC and ChessLive! input is PGN text here (read_input).
    if (const auto nul = input.read(0, 4096).find('\0'); nul != std::string::npos)
      return fmt::format("{}: a binary file, not PGN text (a NUL byte at offset {}): nothing searched; PGC and "
                         "ChessLive! files are read by their .pgc and .clm names",
                         core::escaped(name), nul);
    // Read before a job is made, from the file as the store will keep it (an empty file is not
    // streamed through the store for nothing); empty_input says the same of a run.
    if (!annotate::holds_a_game(annotate::InputBytes{input.size, input.read}))
      return fmt::format("{}: no game in the file", core::escaped(name));
    const auto player = option_text(spec, "player");
    if (!player || annotate::names_player(annotate::InputBytes{input.size, input.read}, *player)) return std::nullopt;
    return fmt::format("{}: --player {}: no game's White or Black tag names this player (letter case and spacing "
                       "aside): nothing to judge, nothing searched",
                       core::escaped(name), core::quoted_escaped(*player));
  }

  std::optional<std::string> empty_input(const std::string& name, const AnalysisRun& run) const override {
    if (!input_of(run).games.empty()) return std::nullopt;
    return fmt::format("{}: no game in the file", core::escaped(name));
  }

  std::optional<std::string> nothing_to_do(const std::string& name, AnalysisRun& run, const JobSpec& spec) const override {
    const annotate::InputBytes& bytes = input_of(run).bytes;
    // (refuse_input says "no game in the file" as empty_input would: holds_a_game is scan_games')
    if (auto why = refuse_input(name, InputSource{bytes.size, bytes.read}, spec)) return why;
    // --evals-from-input: the games are judged from their own comments, searched or not.
    if (input_evals(spec) != "off") return std::nullopt;
    for (std::size_t g = 0; g < plan_parts(run); ++g)
      if (!plan_part(spec, run, g).empty()) return std::nullopt;
    const AnnotateInput& input = input_of(run);
    const std::string file = core::escaped(name);
    std::string why = fmt::format("{}: none of its {} games has a position to analyse", file, input.games.size());
    std::size_t shown = 0;
    for (const auto& g : input.games)
      if (!g.readable && ++shown <= 10) why += fmt::format("\n{}:{}", file, one_line(g.problem));
    return why;
  }

  std::size_t line_of(const AnalysisRun& run, std::size_t index) const override {
    const annotate::InputGame* game = game_of(run, index);
    return game ? game->line : 0;
  }

  std::string_view group_name() const override { return "games"; }
  std::optional<std::int64_t> group_of(const AnalysisRun& run, std::size_t index) const override {
    const annotate::InputGame* game = game_of(run, index);
    return game ? std::optional(static_cast<std::int64_t>(game->number)) : std::nullopt;  // as plan_part's r.game
  }

  // The game whose positions item `index` is among.
  static const annotate::InputGame* game_of(const AnalysisRun& run, std::size_t index) {
    const AnnotateInput& input = input_of(run);
    const auto it = std::upper_bound(input.first_item.begin(), input.first_item.end(), index);
    if (it == input.first_item.begin()) return nullptr;
    return &input.games[static_cast<std::size_t>(it - input.first_item.begin()) - 1];
  }

  std::size_t failures(const AnalysisRun& run) const override {
    const auto& games = input_of(run).games;
    return JobKind::failures(run) + input_of(run).kept +
           static_cast<std::size_t>(std::count_if(games.begin(), games.end(), [](const auto& g) { return !g.readable; }));
  }

  bool needs_engine(const JobSpec& spec) const override { return input_evals(spec) != "only"; }

  std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const override {
    const AnnotateInput& input = input_of(run);
    // --evals-from-input only: no engine judged, the input's evaluations did.
    const bool engine = needs_engine(spec);
    const std::string limits = engine ? describe_limits(spec.limits, spec.multipv) : "";
    const std::string engine_name = engine ? (run.engine.empty() ? "an engine" : run.engine) : "the input's evaluations";
    // (fill: the input's evaluations and the engine's searches, the tag says both)
    const std::string annotator = !engine ? "epdd, the input's evaluations"
                                  : input_evals(spec) == "fill"
                                      ? fmt::format("epdd, the input's evaluations and {}, {}", engine_name, limits)
                                      : fmt::format("epdd, {}, {}", engine_name, limits);
    auto options = annotate_options(spec, annotator, &run);
    std::vector<std::string> notes;
    if (!options) {
      notes.push_back(options.error() + " (moves from book positions are judged)");
      options = annotate_options(without_book(spec), annotator);
    }
    // A game's results from the store, read as it is rendered, and the errors of its positions.
    // A result that cannot be read (a store written by something else) leaves its position
    // without analysis, and is counted and reported as a failure of that position.
    const auto analyses_of = [&](std::size_t g) {
      annotate::PositionAnalyses out;
      if (!input.games[g].readable) return out;
      const std::size_t first = input.first_item[g];
      out.resize(input.games[g].plies + 1);
      for (const store::ItemRow& item : run.items(first, first + out.size())) {
        const auto index = static_cast<std::size_t>(item.index);
        if (item.state == store::ItemState::Failed) run.errors[index] = item_error(item);
        if (item.state != store::ItemState::Done) continue;
        auto a = store::analysis_from_json(item.result);
        if (a) out[index - first] = std::move(*a);
        else run.errors[index] = "its result in the store cannot be read: " + a.error();
      }
      return out;
    };
    // The summaries go out a game at a time where the caller takes them so; kept here otherwise.
    std::map<std::string, std::string> texts;
    const auto sink = [&texts](const std::function<void(std::string_view)>& hook, const std::string& name) {
      return hook ? hook : [&texts, name](std::string_view part) { texts[name] += part; };
    };
    const auto report = sink(run.write_report, "report");
    // Games written back unchanged (known from the scan), first, as FILE:LINE: lines a terminal
    // and an editor understand.
    const auto problem = run.write_problem ? run.write_problem : report;
    const auto kept = [&](const annotate::InputGame& g) {
      problem(fmt::format("{}:{}: kept unchanged: {}\n", core::escaped(spec.input), g.line, one_line(g.problem)));
    };
    for (const annotate::InputGame& g : input.games)
      if (!g.readable) kept(g);
    options->move_texts = run.json_wanted;  // (the JSON and the page show the moves; the terminal does not)
    annotate::SummaryWriter summary(engine ? run.engine : engine_name, limits,
                                    run.json_wanted ? sink(run.write_json, "json") : nullptr, report);
    const auto on_game = [&](const annotate::GameSummary& g) { summary.game(g); };
    annotate::AnnotatedFile file =
        input.direct ? annotate::render_stream(input.bytes, *options, run.write_output, on_game, kept)
                     : annotate::render_file(input.bytes, input.games, analyses_of, *options, run.write_output, on_game);
    if (input.direct) input_of(run).kept = file.kept.size();
    for (auto& n : notes) file.notes.push_back(std::move(n));
    summary.finish(file.kept, file.notes);
    if (!run.write_output) texts["output"] = std::move(file.pgn);  // moved, not copied: the largest text
    return texts;
  }
};

}  // namespace

std::unique_ptr<JobKind> make_annotate_kind() { return std::make_unique<AnnotateKind>(); }

}  // namespace epdd::daemon
