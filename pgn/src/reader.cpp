#include "pgn/reader.hpp"

#include <algorithm>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "pgn/tags.hpp"

namespace epdd::pgn {

using core::quoted;

int suffix_nag(std::string_view s) {
  if (s == "!") return 1;
  if (s == "?") return 2;
  if (s == "!!") return 3;
  if (s == "??") return 4;
  if (s == "!?") return 5;
  if (s == "?!") return 6;
  return 0;
}

namespace {

bool is_result(std::string_view s) {
  return !s.empty() && (s[0] == '0' || s[0] == '1') && (s == "1-0" || s == "0-1" || s == "1/2-1/2");
}
bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// How much of the text's start normalize_comment leaves as it is: up to the first white space
// that is not one space between words (a comment wrapped across lines is normal up to its first
// line break; most comments are normal to the end).
std::size_t normal_prefix(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) > ' ') continue;  // (white space is at most ' ')
    if (c != ' ') {
      if (is_space(c)) return i;
      continue;  // another control character: kept
    }
    // One space between two words is normal; one at either end, or before more, is not.
    if (i == 0 || i + 1 == n || is_space(text[i + 1])) return i;
    ++i;
  }
  return n;
}

}  // namespace

std::string normalize_comment(std::string_view text) {
  const std::size_t kept = normal_prefix(text);
  if (kept == text.size()) return std::string(text);
  // The rest written through a pointer: the result is never longer than the text (every comment
  // of every game passes here).
  std::string out(text.size(), '\0');
  char* const first = out.data();
  char* w = std::copy_n(text.data(), kept, first);
  bool space = false;
  for (char c : text.substr(kept)) {
    if (c == ' ' || (c >= '\t' && c <= '\r')) {
      space = w != first;
      continue;
    }
    if (space) *w++ = ' ';
    space = false;
    *w++ = c;
  }
  out.resize(static_cast<std::size_t>(w - first));
  return out;
}

// The parser behind both readers. One instance reads one input, game after game.
class Parser {
 public:
  Parser(Lexer& lexer, Diagnostics& diags, ReadOptions options, bool mainline_only)
      : lex_(lexer), out_(diags), options_(options), mainline_only_(mainline_only) {}

  // Reads the next game into `game` (full tree, or tags and main line only); false at the end.
  bool read(Game& game, std::vector<core::Move>* mainline);

 private:
  struct Level {
    Variation* var;     // nullptr when only the main line is kept
    core::Board board;  // the position at this point of the line
    std::size_t moves = 0;
    bool skipping = false;  // after an illegal move: the rest of this line is skipped
  };

  Token take() {
    previous_end_ = last_end_;
    if (has_pending_) {
      has_pending_ = false;
      last_line_ = pending_.line;
      if (pending_.kind != TokenKind::End) last_end_ = pending_end_;
      return pending_;
    }
    const Token t = lex_.next();
    last_line_ = t.line;
    // The lexer stands just after the token it returned. The end of the input is no token:
    // the white space before it belongs to no game.
    pending_end_ = lex_.bytes_consumed();
    if (t.kind != TokenKind::End) last_end_ = pending_end_;
    return t;
  }
  void put_back(const Token& t) {
    pending_ = t;
    has_pending_ = true;
    pending_end_ = last_end_;
    last_end_ = previous_end_;
  }
  void add(Problem p, const Token& t, std::string message) {
    diags_.add(p, game_number_, t.line, t.column, std::string(t.text), std::move(message));
  }
  // At a tag (or, without one, at the token), with no token text: the message says it.
  void add_at(Problem p, const Tag* tag, const Token& t, std::string message) {
    diags_.add(p, game_number_, tag ? tag->line : t.line, tag ? tag->column : t.column, "", std::move(message));
  }
  void report_input_facts();

  enum class TagSection : std::uint8_t { None, ThenMovetext, Alone };
  TagSection read_tags(Game& game);
  void read_tag(Game& game);
  bool set_up(Game& game, const Token& at);
  void read_movetext(Game& game, std::vector<core::Move>* mainline, bool tags_only);
  // Returns false when the token ends the game.
  bool movetext_token(Game& game, std::vector<Level>& stack, const Token& t, std::vector<core::Move>* mainline);
  void symbol(Game& game, std::vector<Level>& stack, const Token& t, std::vector<core::Move>* mainline);
  void open_variation(std::vector<Level>& stack, const Token& t);
  void skip_variation();
  void attach_nag(std::vector<Level>& stack, const Token& t, int nag);
  void attach_comment(Game& game, std::vector<Level>& stack, const Token& t);
  void finish(Game& game, const Token& at);

  Lexer& lex_;
  Diagnostics& out_;
  // This game's diagnostics, passed on to out_ in file order when the game ends (its tags are
  // checked after its moves): out_ may keep only a few, or print them as they come.
  Diagnostics diags_;
  ReadOptions options_;
  bool mainline_only_;
  Token pending_;
  bool has_pending_ = false;
  std::size_t last_line_ = 0;  // the line of the token taken last
  // Byte offsets one past: the token taken last, the one taken before it, the pending token.
  std::size_t last_end_ = 0, previous_end_ = 0, pending_end_ = 0;
  std::size_t game_number_ = 0;
  bool move_number_reported_ = false;
  bool bom_reported_ = false, crlf_reported_ = false, long_reported_ = false;
  std::vector<std::string> carried_comments_;  // comments after a result, for the next game
  // The annotation lists of the last game's main-line moves, emptied, their memory kept: a
  // caller that reads game after game into one Game object (the annotator, the book) makes no
  // allocation per move for them (most moves carry a comment there).
  std::vector<std::vector<Annotation>> spare_after_;
  void start_over(Game& game);
};

void Parser::start_over(Game& game) {
  for (MoveNode& node : game.main.moves) {
    node.after.clear();
    if (node.after.capacity() > 0) spare_after_.push_back(std::move(node.after));
  }
  // Everything back to a new Game's values; only the memory of its lists is kept.
  Game fresh;
  fresh.tags = std::move(game.tags);
  fresh.tags.clear();
  fresh.main.moves = std::move(game.main.moves);
  fresh.main.moves.clear();
  game = std::move(fresh);
}

void Parser::report_input_facts() {
  if (lex_.had_bom() && !bom_reported_) {
    diags_.add(Problem::ByteOrderMark, 0, 1, 1, "", "UTF-8 byte order mark at the start of the file (skipped)");
    bom_reported_ = true;
  }
  if (lex_.first_crlf_line() && !crlf_reported_) {
    diags_.add(Problem::CrLf, 0, lex_.first_crlf_line(), 1, "", "CRLF line endings");
    crlf_reported_ = true;
  }
  if (lex_.first_long_line() && !long_reported_) {
    diags_.add(Problem::LineTooLong, 0, lex_.first_long_line(), 256, "",
               "line longer than the 255 characters import format allows (the first such line)");
    long_reported_ = true;
  }
}

bool Parser::read(Game& game, std::vector<core::Move>* mainline) {
  start_over(game);
  if (mainline) mainline->clear();
  const TagSection tags = read_tags(game);
  if (tags == TagSection::None) {
    report_input_facts();
    out_.add_in_place_order(diags_);
    return false;
  }
  game.number = game_number_;
  read_movetext(game, mainline, tags == TagSection::Alone);
  report_input_facts();
  out_.add_in_place_order(diags_);
  return true;
}

Parser::TagSection Parser::read_tags(Game& game) {
  bool started = false;
  for (;;) {
    const std::size_t previous_line = last_line_;
    const Token t = take();
    // A blank line after tags, then another tag or an escape line: the game is its tags alone
    // (broadcasts list the pairings so before the moves exist), the next game starts here.
    if (!game.tags.empty() && t.line > previous_line + 1 &&
        (t.kind == TokenKind::LeftBracket || t.kind == TokenKind::Escape)) {
      put_back(t);
      return TagSection::Alone;
    }
    switch (t.kind) {
      case TokenKind::End:
        put_back(t);
        return started ? TagSection::Alone : TagSection::None;
      case TokenKind::Escape:
        game.escapes.emplace_back(t.text);
        continue;
      case TokenKind::LeftBracket:
        if (!started) {
          started = true;
          ++game_number_;
          move_number_reported_ = false;
          game.line = t.line;
        }
        read_tag(game);
        continue;
      default:
        if (!started) {
          started = true;
          ++game_number_;
          move_number_reported_ = false;
          game.line = t.line;
        }
        put_back(t);
        return TagSection::ThenMovetext;
    }
  }
}

void Parser::read_tag(Game& game) {
  const Token name = take();
  if (name.kind != TokenKind::Symbol) {
    add(Problem::TagSyntax, name, "a tag pair is [Name \"value\"]; expected the tag name after '['");
    // Skip to the closing bracket, or stop at what starts something else.
    for (Token t = name; t.kind != TokenKind::RightBracket && t.kind != TokenKind::End; t = take())
      if (t.kind == TokenKind::LeftBracket) {
        put_back(t);
        return;
      }
    return;
  }
  Tag tag;
  tag.name = std::string(name.text);
  tag.line = name.line;
  tag.column = name.column;
  if (std::any_of(tag.name.begin(), tag.name.end(), [](char c) { return c != '_' && !std::isalnum(static_cast<unsigned char>(c)); }))
    add(Problem::TagSyntax, name, "tag names are letters, digits and '_' only");
  Token value = take();
  if (value.kind == TokenKind::String) {
    tag.value = unescape(value.text);
    if (value.unterminated) add(Problem::UnterminatedString, value, "tag value without its closing quote");
    if (tag.value.size() > 255) add(Problem::StringTooLong, value, "tag value longer than 255 characters");
    value = take();
  } else {
    // [Event Casual Game]: take the words up to ']' as the value.
    add(Problem::TagSyntax, value, "the value of tag " + tag.name + " is not in quotes");
    std::string words;
    while (value.kind != TokenKind::RightBracket && value.kind != TokenKind::End && value.kind != TokenKind::LeftBracket &&
           value.line == name.line) {
      if (!words.empty()) words += ' ';
      words += value.text;
      value = take();
    }
    // One line: a comment among the words may hold newlines, which no tag string can.
    tag.value = normalize_comment(words);
  }
  if (value.kind != TokenKind::RightBracket) {
    add(Problem::TagSyntax, value, "tag " + tag.name + " is not closed by ']'");
    put_back(value);
  }
  if (game.tag(tag.name))
    add(Problem::DuplicateTag, name, "tag " + tag.name + " appears again in this game (both kept)");
  game.tags.push_back(std::move(tag));
}

// The start position from SetUp, FEN and Variant; false when it cannot be used. A FEN that
// strict reading rejects is read leniently where core can (an en passant square beside a
// non-zero halfmove clock, as many programs write it, ...), each thing tolerated a warning.
bool Parser::set_up(Game& game, const Token& at) {
  const Tag* variant = game.find_tag("Variant");
  bool chess960 = false;
  if (variant) {
    const Variant v = classify_variant(variant->value);
    if (v == Variant::Unsupported) {
      add_at(Problem::SetUp, variant, at,
             "Variant " + quoted(variant->value) + " is not standard chess or Chess960: moves not read");
      return false;
    }
    chess960 = v == Variant::Chess960;
  }
  const Tag* fen = game.find_tag("FEN");
  if (!fen) {
    if (const Tag* setup = game.find_tag("SetUp"); setup && setup->value == "1") {
      add_at(Problem::SetUp, setup, at, "SetUp \"1\" without a FEN tag: the start position is unknown, moves not read");
      return false;
    }
    game.start.set_chess960(chess960);
    return true;
  }
  std::vector<core::FenNote> notes;
  auto board = read_fen_tag(fen->value, chess960, notes);
  if (!board) {
    add_at(Problem::SetUp, fen, at, "FEN tag: " + board.error().message + " (moves not read)");
    return false;
  }
  for (const core::FenNote& n : notes)
    add_at(Problem::SetUpTolerated, fen, at, "FEN tag: " + n.message + " (read leniently, as other readers do)");
  game.start = std::move(*board);
  if (chess960) game.start.set_chess960(true);
  return true;
}

void Parser::read_movetext(Game& game, std::vector<core::Move>* mainline, bool tags_only) {
  Token first = take();
  put_back(first);
  game.main.comments_before = std::move(carried_comments_);
  carried_comments_.clear();
  const bool usable = set_up(game, first);
  game.moves_read = usable;
  if (tags_only) {
    finish(game, first);
    return;
  }
  std::vector<Level> stack;
  stack.push_back({mainline_only_ ? nullptr : &game.main, game.start, 0, !usable});
  stack.back().board.reserve_history(256);  // most games fit: no reallocation while playing
  for (;;) {
    const Token t = take();
    if (!movetext_token(game, stack, t, mainline)) return;
  }
}

bool Parser::movetext_token(Game& game, std::vector<Level>& stack, const Token& t, std::vector<core::Move>* mainline) {
  Level& level = stack.back();
  switch (t.kind) {
    case TokenKind::End:
      finish(game, t);
      return false;
    case TokenKind::LeftBracket:
      put_back(t);  // the next game's tags
      if (stack.size() > 1) add(Problem::Parenthesis, t, "a variation is not closed before the next game");
      finish(game, t);
      return false;
    case TokenKind::Asterisk:
      game.result = "*";
      finish(game, t);
      return false;
    case TokenKind::Symbol:
      if (is_result(t.text)) {
        game.result = std::string(t.text);
        finish(game, t);
        return false;
      }
      if (!level.skipping) symbol(game, stack, t, mainline);
      return true;
    case TokenKind::LeftParen:
      if (level.skipping || mainline_only_) skip_variation();
      else open_variation(stack, t);
      return true;
    case TokenKind::RightParen:
      if (stack.size() == 1) add(Problem::Parenthesis, t, "')' without a '(' before it (ignored)");
      else stack.pop_back();
      return true;
    case TokenKind::Nag: {
      if (level.skipping) return true;
      const bool ok = all_digits(t.text) && t.text.size() <= 3 && std::stoi(std::string(t.text)) <= 255;
      if (!ok) add(Problem::BadNag, t, "a NAG is '$' and a number from 0 to 255");
      else attach_nag(stack, t, std::stoi(std::string(t.text)));
      return true;
    }
    case TokenKind::BraceComment:
    case TokenKind::LineComment:
      if (!level.skipping) attach_comment(game, stack, t);
      return true;
    case TokenKind::Period:
      return true;
    case TokenKind::Escape:
      game.escapes.emplace_back(t.text);
      return true;
    case TokenKind::LeftAngle:
    case TokenKind::RightAngle:
      add(Problem::ReservedToken, t, "'<' and '>' are reserved by the standard (ignored)");
      return true;
    case TokenKind::String:
      add(Problem::UnexpectedCharacter, t, "a string in the movetext (ignored)");
      return true;
    case TokenKind::RightBracket:
      add(Problem::UnexpectedCharacter, t, "']' in the movetext (ignored)");
      return true;
    case TokenKind::Other:
      if (const int nag = suffix_nag(t.text); nag && !level.skipping) {
        add(Problem::MoveForm, t, "suffix annotation " + quoted(t.text) + " apart from its move (read as $" +
                                      std::to_string(nag) + ")");
        attach_nag(stack, t, nag);
      } else if (!level.skipping) {
        add(Problem::UnexpectedCharacter, t, quoted(t.text) + " is not part of any PGN token (ignored)");
      }
      return true;
  }
  return true;
}

void Parser::symbol(Game& game, std::vector<Level>& stack, const Token& t, std::vector<core::Move>* mainline) {
  Level& level = stack.back();
  if (all_digits(t.text)) {
    // A move number: the full move of the next move, whichever side is to move.
    long number = 0;
    for (char c : t.text.substr(0, 9)) number = number * 10 + (c - '0');
    if (number != level.board.fullmove_number() && !move_number_reported_) {
      add(Problem::MoveNumber, t, "move number " + std::string(t.text) + " where " +
                                      std::to_string(level.board.fullmove_number()) +
                                      " is due (further wrong numbers in this game are not reported)");
      move_number_reported_ = true;
    }
    return;
  }
  core::SanReadOptions o;
  o.allow_null = true;
  o.verify_check_marks = options_.verify_check_marks && !mainline_only_;
  auto parsed = core::parse_san(level.board, t.text, o);
  if (!parsed) {
    const Problem p = parsed.error().kind == core::MoveErrorKind::Ambiguous ? Problem::AmbiguousMove : Problem::IllegalMove;
    add(p, t, parsed.error().message +
                  (stack.size() == 1 ? "; the rest of the game is skipped" : "; the rest of this variation is skipped"));
    level.skipping = true;
    return;
  }
  const core::Move m = parsed->move;
  if (m.is_null()) add(Problem::NullMove, t, "null move " + quoted(t.text) + " (an extension of the standard)");
  else if (parsed->leniency != core::Leniency::None)
    add(Problem::MoveForm, t,
        quoted(t.text) + " read as " + core::to_san(level.board, m) + " (" + core::describe(parsed->leniency) + ")");
  if (level.var) {
    MoveNode node{m, {}};
    if (!spare_after_.empty()) {
      node.after = std::move(spare_after_.back());
      spare_after_.pop_back();
    }
    if (const int nag = suffix_nag(parsed->annotation)) node.after.push_back({Annotation::Kind::Nag, static_cast<std::uint8_t>(nag), {}, {}});
    level.var->moves.push_back(std::move(node));
  }
  if (m.is_null()) level.board.make_null_move();
  else level.board.make_move(m);
  ++level.moves;
  if (mainline && stack.size() == 1) mainline->push_back(m);
  (void)game;
}

void Parser::open_variation(std::vector<Level>& stack, const Token& t) {
  Level& parent = stack.back();
  if (parent.moves == 0 || parent.var->moves.empty()) {
    add(Problem::Parenthesis, t, "a variation with no move before it to be an alternative to (skipped)");
    skip_variation();
    return;
  }
  Annotation a;
  a.kind = Annotation::Kind::Variation;
  a.variation.emplace_back();
  auto& after = parent.var->moves.back().after;
  after.push_back(std::move(a));
  core::Board before = parent.board;
  if (parent.var->moves.back().move.is_null()) before.unmake_null_move();
  else before.unmake_move();
  stack.push_back({&after.back().variation.front(), std::move(before), 0, false});
}

void Parser::skip_variation() {
  int depth = 1;
  while (depth > 0) {
    const Token t = take();
    switch (t.kind) {
      case TokenKind::LeftParen: ++depth; break;
      case TokenKind::RightParen: --depth; break;
      case TokenKind::End:
      case TokenKind::LeftBracket:
      case TokenKind::Asterisk:
        put_back(t);
        return;
      case TokenKind::Symbol:
        if (is_result(t.text)) {
          put_back(t);
          return;
        }
        break;
      default: break;
    }
  }
}

void Parser::attach_nag(std::vector<Level>& stack, const Token& t, int nag) {
  Level& level = stack.back();
  if (!level.var) return;
  if (level.var->moves.empty()) {
    add(Problem::BadNag, t, "a NAG with no move before it (dropped)");
    return;
  }
  level.var->moves.back().after.push_back({Annotation::Kind::Nag, static_cast<std::uint8_t>(nag), {}, {}});
}

void Parser::attach_comment(Game& game, std::vector<Level>& stack, const Token& t) {
  if (t.unterminated) add(Problem::UnterminatedComment, t, "'{' without '}' before the end of the file");
  if (t.kind == TokenKind::BraceComment && t.text.find('{') != std::string_view::npos)
    add(Problem::BraceInComment, t, "'{' inside a comment has no special meaning: comments do not nest");
  Level& level = stack.back();
  if (!level.var) return;
  std::string text = normalize_comment(t.text);
  if (level.var->moves.empty()) level.var->comments_before.push_back(std::move(text));
  else level.var->moves.back().after.push_back({Annotation::Kind::Comment, 0, std::move(text), {}});
  (void)game;
}

void Parser::finish(Game& game, const Token& at) {
  const bool marker = at.kind == TokenKind::Asterisk || (at.kind == TokenKind::Symbol && is_result(at.text));
  game.result_written = marker;
  game.byte_end = last_end_;  // the marker, or the token before what ended the game
  if (!marker) {
    // The Result tag says what the movetext did not (so export writes the game as it was meant).
    const Tag* tag = game.find_tag("Result");
    const bool from_tag = tag && (tag->value == "*" || is_result(tag->value));
    game.result = from_tag ? tag->value : "*";
    const std::string read_as = "read as " + quoted(game.result) + (from_tag ? " as its Result tag says" : "");
    if (game.main.moves.empty() && game.main.comments_before.empty() && !game.tags.empty())
      add_at(Problem::MissingResult, tag ? tag : &game.tags.back(), at,
             "a game of tags only, without movetext or game termination marker; " + read_as);
    else
      add(Problem::MissingResult, at, "the game has no result (game termination marker); " + read_as);
  }
  // Comments that follow the result belong to nothing in the standard: keep them for the next
  // game rather than lose them.
  if (marker) {
    for (Token t = take();; t = take()) {
      if (t.kind != TokenKind::BraceComment && t.kind != TokenKind::LineComment) {
        put_back(t);
        break;
      }
      add(Problem::UnexpectedCharacter, t, "comment after the result: kept before the next game's first move");
      carried_comments_.push_back(normalize_comment(t.text));
    }
  }
  check_game_tags(game, diags_);
}

GameReader::GameReader(std::string_view text, Diagnostics& diags, ReadOptions options)
    : lexer_(std::make_unique<Lexer>(text)), parser_(std::make_unique<Parser>(*lexer_, diags, options, false)) {}
GameReader::GameReader(std::istream& in, Diagnostics& diags, ReadOptions options)
    : lexer_(std::make_unique<Lexer>(in)), parser_(std::make_unique<Parser>(*lexer_, diags, options, false)) {}
GameReader::~GameReader() = default;
bool GameReader::next(Game& game) { return parser_->read(game, nullptr); }

std::vector<Game> read_games(std::string_view text, Diagnostics& diags, ReadOptions options) {
  std::vector<Game> games;
  GameReader reader(text, diags, options);
  for (Game g; reader.next(g);) games.push_back(std::move(g));
  return games;
}

MainlineReader::MainlineReader(std::string_view text, Diagnostics& diags)
    : lexer_(std::make_unique<Lexer>(text)), parser_(std::make_unique<Parser>(*lexer_, diags, ReadOptions{}, true)) {}
MainlineReader::MainlineReader(std::istream& in, Diagnostics& diags)
    : lexer_(std::make_unique<Lexer>(in)), parser_(std::make_unique<Parser>(*lexer_, diags, ReadOptions{}, true)) {}
MainlineReader::~MainlineReader() = default;

bool MainlineReader::next(MainlineGame& game) {
  if (!parser_->read(scratch_, &game.moves)) return false;
  game.tags = std::move(scratch_.tags);
  game.start = std::move(scratch_.start);
  game.result = std::move(scratch_.result);
  game.number = scratch_.number;
  game.line = scratch_.line;
  game.byte_end = scratch_.byte_end;
  return true;
}

}  // namespace epdd::pgn
