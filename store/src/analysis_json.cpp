#include "store/analysis_json.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace epdd::store {

namespace {

using Json = nlohmann::json;
// Keys in insertion order: the order of the format's reference in the header.
using OrderedJson = nlohmann::ordered_json;

constexpr std::string_view kWhat = "analysis JSON";

// The format's names of game statuses. A switch without default: a status added to core
// without a name here is a compiler warning, which the build treats as an error.
const char* status_name(core::GameStatus status) {
  switch (status) {
    case core::GameStatus::Ongoing: return "ongoing";
    case core::GameStatus::Checkmate: return "checkmate";
    case core::GameStatus::Stalemate: return "stalemate";
    case core::GameStatus::InsufficientMaterial: return "insufficient_material";
    case core::GameStatus::FiftyMoveClaimable: return "fifty_move_claimable";
    case core::GameStatus::ThreefoldClaimable: return "threefold_claimable";
    case core::GameStatus::SeventyFiveMoves: return "seventy_five_moves";
    case core::GameStatus::FivefoldRepetition: return "fivefold_repetition";
  }
  return nullptr;
}

// Every value of the underlying type is a valid GameStatus value (fixed underlying type), so
// trying them all finds any name status_name gives without a second list to keep in step.
std::optional<core::GameStatus> parse_status(std::string_view name) {
  using Underlying = std::underlying_type_t<core::GameStatus>;
  for (unsigned v = 0; v <= std::numeric_limits<Underlying>::max(); ++v) {
    const auto status = static_cast<core::GameStatus>(v);
    if (const char* candidate = status_name(status); candidate && name == candidate) return status;
  }
  return std::nullopt;
}

OrderedJson score_to_json(const core::Score& score) {
  OrderedJson j = OrderedJson::object();
  if (score.is_mate())
    j["mate_plies"] = score.mate_plies();
  else
    j["cp"] = score.cp();
  return j;
}

OrderedJson line_to_json(const uci::PvLine& line) {
  OrderedJson j = OrderedJson::object();
  j["multipv"] = line.multipv;
  j["depth"] = line.depth;
  if (line.seldepth) j["seldepth"] = *line.seldepth;
  j["score"] = score_to_json(line.score);
  if (line.wdl) j["wdl"] = OrderedJson{{"win", line.wdl->win}, {"draw", line.wdl->draw}, {"loss", line.wdl->loss}};
  j["nodes"] = line.nodes;
  j["time_ms"] = line.time_ms;
  j["pv"] = line.pv;
  j["pv_cut"] = line.pv_cut;
  return j;
}

OrderedJson iteration_to_json(const uci::Iteration& iteration) {
  OrderedJson j = OrderedJson::object();
  j["depth"] = iteration.depth;
  j["nodes"] = iteration.nodes;
  j["time_ms"] = iteration.time_ms;
  j["score"] = score_to_json(iteration.score);
  j["move"] = iteration.move;
  return j;
}

std::string member_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

// Reads values out of parsed JSON. The first error is kept (later ones are mostly its
// consequences); readers return a default after an error so the caller can go on without
// checking each step, and the result is thrown away when error() is set.
class Reader {
 public:
  void fail(const std::string& path, std::string_view message) {
    if (!error_) error_ = fmt::format("{}: {}: {}", kWhat, path.empty() ? "top level" : path, message);
  }
  const std::optional<std::string>& error() const { return error_; }

  // The member `key` of `object`; nullptr, and an error if `required`, when it is absent.
  const Json* member(const Json& object, std::string_view key, const std::string& path, bool required = true) {
    const auto it = object.find(key);
    if (it != object.end()) return &*it;
    if (required) fail(member_path(path, key), "missing");
    return nullptr;
  }

  const Json* object(const Json& parent, std::string_view key, const std::string& path) {
    const Json* j = member(parent, key, path);
    if (j && !j->is_object()) return mistyped(*j, member_path(path, key), "an object"), nullptr;
    return j;
  }

  const Json* array(const Json& parent, std::string_view key, const std::string& path) {
    const Json* j = member(parent, key, path);
    if (j && !j->is_array()) return mistyped(*j, member_path(path, key), "an array"), nullptr;
    return j;
  }

  std::string string(const Json& value, const std::string& path) {
    if (!value.is_string()) return mistyped(value, path, "a string"), std::string();
    return value.get<std::string>();
  }
  std::string string(const Json& parent, std::string_view key, const std::string& path) {
    const Json* j = member(parent, key, path);
    return j ? string(*j, member_path(path, key)) : std::string();
  }

  bool boolean(const Json& parent, std::string_view key, const std::string& path) {
    const Json* j = member(parent, key, path);
    if (j && !j->is_boolean()) return mistyped(*j, member_path(path, key), "true or false"), false;
    return j && j->get<bool>();
  }

  // An integer that fits Int; floats (even 3.0) are mistyped.
  template <class Int>
  Int integer(const Json& value, const std::string& path) {
    using Limits = std::numeric_limits<Int>;
    bool fits = false;
    if (value.is_number_unsigned())
      fits = value.get<std::uint64_t>() <= static_cast<std::uint64_t>(Limits::max());
    else if (value.is_number_integer() && std::is_signed_v<Int>)
      fits = value.get<std::int64_t>() >= static_cast<std::int64_t>(Limits::min());
    if (!fits) return mistyped(value, path, fmt::format("an integer from {} to {}", Limits::min(), Limits::max())), 0;
    return value.get<Int>();
  }
  template <class Int>
  Int integer(const Json& parent, std::string_view key, const std::string& path) {
    const Json* j = member(parent, key, path);
    return j ? integer<Int>(*j, member_path(path, key)) : 0;
  }

  std::vector<std::string> strings(const Json& parent, std::string_view key, const std::string& path) {
    std::vector<std::string> out;
    const Json* j = array(parent, key, path);
    if (!j) return out;
    const std::string here = member_path(path, key);
    for (std::size_t i = 0; i < j->size(); ++i) out.push_back(string((*j)[i], fmt::format("{}[{}]", here, i)));
    return out;
  }

  core::Score score(const Json& parent, const std::string& path) {
    const Json* j = object(parent, "score", path);
    if (!j) return core::Score::centipawns(0);
    const std::string here = member_path(path, "score");
    if (j->size() != 1 || (!j->contains("cp") && !j->contains("mate_plies")))
      return fail(here, "must hold exactly one of \"cp\" and \"mate_plies\""), core::Score::centipawns(0);
    if (j->contains("cp")) return core::Score::centipawns(integer<int>(*j, "cp", here));
    return core::Score::mate_in_plies(integer<int>(*j, "mate_plies", here));
  }

 private:
  void mistyped(const Json& value, const std::string& path, std::string_view expected) {
    const std::string found = value.is_string() ? "a string"
                              : value.is_array()  ? "an array"
                              : value.is_object() ? "an object"
                                                  : value.dump();  // a number, true, false or null
    fail(path, fmt::format("must be {}, not {}", expected, found));
  }

  std::optional<std::string> error_;
};

std::optional<uci::Wdl> read_wdl(Reader& r, const Json& line, const std::string& path) {
  const Json* present = r.member(line, "wdl", path, false);
  if (!present || present->is_null()) return std::nullopt;
  const Json* j = r.object(line, "wdl", path);
  if (!j) return std::nullopt;
  const std::string here = member_path(path, "wdl");
  return uci::Wdl{r.integer<int>(*j, "win", here), r.integer<int>(*j, "draw", here), r.integer<int>(*j, "loss", here)};
}

uci::PvLine read_line(Reader& r, const Json& j, const std::string& path) {
  uci::PvLine line;
  if (!j.is_object()) return r.fail(path, "must be an object"), line;
  line.multipv = r.integer<int>(j, "multipv", path);
  line.depth = r.integer<int>(j, "depth", path);
  if (const Json* s = r.member(j, "seldepth", path, false); s && !s->is_null())
    line.seldepth = r.integer<int>(*s, member_path(path, "seldepth"));
  line.score = r.score(j, path);
  line.wdl = read_wdl(r, j, path);
  line.nodes = r.integer<std::uint64_t>(j, "nodes", path);
  line.time_ms = r.integer<std::uint64_t>(j, "time_ms", path);
  line.pv = r.strings(j, "pv", path);
  line.pv_cut = r.string(j, "pv_cut", path);
  return line;
}

uci::Iteration read_iteration(Reader& r, const Json& j, const std::string& path) {
  uci::Iteration iteration;
  if (!j.is_object()) return r.fail(path, "must be an object"), iteration;
  iteration.depth = r.integer<int>(j, "depth", path);
  iteration.nodes = r.integer<std::uint64_t>(j, "nodes", path);
  iteration.time_ms = r.integer<std::uint64_t>(j, "time_ms", path);
  iteration.score = r.score(j, path);
  iteration.move = r.string(j, "move", path);
  return iteration;
}

template <class T, class ReadOne>
std::vector<T> read_list(Reader& r, const Json& parent, std::string_view key, ReadOne read_one) {
  std::vector<T> out;
  const Json* j = r.array(parent, key, "");
  if (!j) return out;
  for (std::size_t i = 0; i < j->size(); ++i) out.push_back(read_one(r, (*j)[i], fmt::format("{}[{}]", key, i)));
  return out;
}

uci::Analysis read_analysis(Reader& r, const Json& j) {
  uci::Analysis a;
  a.engine = r.string(j, "engine", "");
  a.lines = read_list<uci::PvLine>(r, j, "lines", read_line);
  a.iterations = read_list<uci::Iteration>(r, j, "iterations", read_iteration);
  a.bestmove = r.string(j, "bestmove", "");
  a.ponder = r.string(j, "ponder", "");
  a.depth = r.integer<int>(j, "depth", "");
  a.nodes = r.integer<std::uint64_t>(j, "nodes", "");
  a.time_ms = r.integer<std::uint64_t>(j, "time_ms", "");
  if (const Json* s = r.member(j, "status", ""); s) {
    const std::string name = r.string(*s, "status");
    if (const auto status = parse_status(name))
      a.status = *status;
    else if (s->is_string())
      r.fail("status", fmt::format("unknown game status \"{}\"", name));
  }
  a.stopped = r.boolean(j, "stopped", "");
  a.problems = r.strings(j, "problems", "");
  return a;
}

}  // namespace

std::string analysis_to_json(const uci::Analysis& analysis) {
  OrderedJson j = OrderedJson::object();
  j["engine"] = analysis.engine;
  OrderedJson& lines = j["lines"] = OrderedJson::array();
  for (const uci::PvLine& line : analysis.lines) lines.push_back(line_to_json(line));
  OrderedJson& iterations = j["iterations"] = OrderedJson::array();
  for (const uci::Iteration& iteration : analysis.iterations) iterations.push_back(iteration_to_json(iteration));
  j["bestmove"] = analysis.bestmove;
  j["ponder"] = analysis.ponder;
  j["depth"] = analysis.depth;
  j["nodes"] = analysis.nodes;
  j["time_ms"] = analysis.time_ms;
  const char* status = status_name(analysis.status);
  j["status"] = status ? status : "invalid";  // only a corrupt enum value; the reader refuses it
  j["stopped"] = analysis.stopped;
  j["problems"] = analysis.problems;
  // Engines print bytes, JSON holds Unicode text: replace rather than throw (dump's default).
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

Expected<uci::Analysis, std::string> analysis_from_json(std::string_view json) {
  Json parsed;
  try {
    parsed = Json::parse(json);
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, ...": keep what follows the tag.
    // Not only parse_error: a number past a double's range is out_of_range.406, thrown by parse.
    std::string_view message = e.what();
    if (const auto end_of_tag = message.find("] "); end_of_tag != std::string_view::npos)
      message.remove_prefix(end_of_tag + 2);
    return unexpected(fmt::format("{}: {}", kWhat, message));
  }
  if (!parsed.is_object()) return unexpected(fmt::format("{}: must be an object, not {}", kWhat, parsed.type_name()));
  Reader reader;
  uci::Analysis analysis = read_analysis(reader, parsed);
  if (reader.error()) return unexpected(*reader.error());
  return analysis;
}

}  // namespace epdd::store
