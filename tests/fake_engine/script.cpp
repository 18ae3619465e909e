#include "script.hpp"

#include <charconv>
#include <fstream>
#include <string_view>

#include "core/fen.hpp"
#include "io.hpp"

namespace epdd::fake_engine {

namespace {

// text without leading and trailing blanks (a '\r' too: scripts written on Windows).
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A whole-word decimal, or nullopt.
std::optional<int> parse_int(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// One "key value..." part of a script line, applied to e.
Expected<void, std::string> apply_part(ScriptEntry& e, const std::vector<std::string_view>& w) {
  const std::string_view key = w[0];
  const std::size_t values = w.size() - 1;
  if ((key == "bestmove" || key == "ponder") && values == 1) {
    (key == "bestmove" ? e.bestmove : e.ponder) = std::string(w[1]);
  } else if (key == "pv" && values >= 1) {
    e.pv.assign(w.begin() + 1, w.end());
  } else if (key == "firstmoves" && values >= 1) {
    e.firstmoves.assign(w.begin() + 1, w.end());
  } else if (key == "score" && values == 2 && (w[1] == "cp" || w[1] == "mate") &&
             parse_int(w[2])) {
    e.score = std::string(w[1]) + " " + std::string(w[2]);
  } else if (key == "line" && values == 4 && parse_int(w[1]).value_or(0) >= 2 && (w[3] == "cp" || w[3] == "mate") &&
             parse_int(w[4])) {
    e.other_lines.push_back({*parse_int(w[1]), std::string(w[2]), std::string(w[3]) + " " + std::string(w[4])});
  } else if (key == "depth" && values == 1 && parse_int(w[1]).value_or(0) >= 1) {
    e.depth = parse_int(w[1]);
  } else if (key == "action" && values == 1) {
    if (w[1] == "crash") e.action = Action::Crash;
    else if (w[1] == "hang") e.action = Action::Hang;
    else if (w[1] == "exit") e.action = Action::Exit;
    else if (w[1] == "none") e.action = Action::None;
    else return unexpected("action wants crash, hang, exit or none, not '" + std::string(w[1]) + "'");
  } else {
    return unexpected(
        "cannot read '" + std::string(key) +
        "' here (keys: bestmove M, ponder M, pv M..., firstmoves M..., score cp|mate N, line K>=2 M cp|mate N, "
        "depth N>=1, action A)");
  }
  return {};
}

// One non-empty, non-comment line.
Expected<ScriptEntry, std::string> read_entry(std::string_view text) {
  ScriptEntry e;
  std::size_t bar = text.find('|');
  const std::string_view fen = trim(text.substr(0, bar));
  core::FenReadOptions options;
  options.fields = core::FenFields::FourOrSix;
  const auto board = core::parse_fen(fen, options);
  if (!board) return unexpected("bad FEN: " + core::to_string(board.error()));
  e.key = position_key(*board);
  while (bar != std::string_view::npos) {
    const std::size_t start = bar + 1;
    bar = text.find('|', start);
    const std::string_view part = text.substr(start, bar == std::string_view::npos ? bar : bar - start);
    const auto words = split_words(trim(part));
    if (words.empty()) return unexpected(std::string("empty part between '|'"));
    if (auto ok = apply_part(e, words); !ok) return unexpected(ok.error());
  }
  return e;
}

}  // namespace

std::string position_key(const core::Board& board) {
  core::FenWriteOptions options;
  options.castling = core::CastlingNotation::Shredder;
  options.ep_only_if_capturable = true;
  return core::to_epd_position(board, options);
}

Expected<Script, std::string> Script::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) return unexpected("cannot read script " + path);
  Script script;
  std::string errors;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    const std::string_view line = trim(text);
    if (line.empty() || line.front() == '#') continue;
    auto entry = read_entry(line);
    if (entry) {
      // Two lines for one position would silently shadow each other: a script mistake.
      if (const ScriptEntry* first = script.find_key(entry->key))
        entry = unexpected("position already scripted on line " + std::to_string(first->line));
    }
    if (!entry) {
      errors += path + ":" + std::to_string(number) + ": " + entry.error() + "\n";
      continue;
    }
    entry->line = number;
    script.entries_.push_back(std::move(*entry));
  }
  if (!errors.empty()) return unexpected(errors);
  return script;
}

const ScriptEntry* Script::find(const core::Board& board) const {
  if (entries_.empty()) return nullptr;
  return find_key(position_key(board));
}

const ScriptEntry* Script::find_key(const std::string& key) const {
  for (const ScriptEntry& e : entries_)
    if (e.key == key) return &e;
  return nullptr;
}

}  // namespace epdd::fake_engine
