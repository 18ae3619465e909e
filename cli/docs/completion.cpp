#include "completion.hpp"

#include <sstream>

namespace epdd::cli::docs {

namespace {

// Words in a case pattern or an echo: only [A-Za-z0-9._-] occur in epdd's command and option
// names and choices; anything else is quoted.
std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string words(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& w : list) out += (out.empty() ? "" : " ") + w;
  return quoted(out);
}

// A command with every way to type its path ("epdd analyse", "epdd analyze").
struct Command {
  const CommandDoc* doc;
  std::vector<std::string> paths;
  // The case pattern of its paths, each followed by `suffix`.
  std::string pattern(const std::string& suffix = "") const {
    std::string out;
    for (const std::string& p : paths) out += (out.empty() ? "" : "|") + quoted(p + suffix);
    return out;
  }
};

void all_commands(const CommandDoc& command, const std::vector<std::string>& paths, std::vector<Command>& out) {
  out.push_back(Command{&command, paths});
  for (const CommandDoc& sub : command.subcommands) {
    std::vector<std::string> sub_paths;
    for (const std::string& p : paths) {
      sub_paths.push_back(p + " " + sub.path.back());
      for (const std::string& alias : sub.aliases) sub_paths.push_back(p + " " + alias);
    }
    all_commands(sub, sub_paths, out);
  }
}

// How a value is completed: "choices a b c", "files", or "none".
std::string value_kind(const OptionDoc& option) {
  if (!option.choices.empty()) {
    std::string out = "choices";
    for (const std::string& c : option.choices) out += " " + c;
    return out;
  }
  return option.files ? "files" : "none";
}

// _epdd_commands PATH: the subcommands (and aliases) of the command PATH ("epdd suite").
void write_subcommands(std::ostream& out, const std::vector<Command>& commands) {
  out << "_epdd_commands() {\n  case $1 in\n";
  for (const Command& c : commands) {
    if (c.doc->subcommands.empty()) continue;
    std::vector<std::string> names;
    for (const CommandDoc& sub : c.doc->subcommands) {
      names.push_back(sub.path.back());
      names.insert(names.end(), sub.aliases.begin(), sub.aliases.end());
    }
    out << "    " << c.pattern() << ") echo " << words(names) << " ;;\n";
  }
  out << "  esac\n}\n";
}

// _epdd_options PATH: every spelling of every option of PATH.
void write_options(std::ostream& out, const std::vector<Command>& commands) {
  out << "_epdd_options() {\n  case $1 in\n";
  for (const Command& c : commands) {
    std::vector<std::string> spellings;
    for (const OptionGroupDoc& g : c.doc->groups)
      for (const OptionDoc& o : g.options) spellings.insert(spellings.end(), o.spellings.begin(), o.spellings.end());
    out << "    " << c.pattern() << ") echo " << words(spellings) << " ;;\n";
  }
  out << "  esac\n}\n";
}

// _epdd_value PATH OPTION: how the value of OPTION is completed; nothing for a flag.
void write_values(std::ostream& out, const std::vector<Command>& commands) {
  out << "_epdd_value() {\n  case \"$1 $2\" in\n";
  for (const Command& c : commands)
    for (const OptionGroupDoc& g : c.doc->groups)
      for (const OptionDoc& o : g.options) {
        if (!o.takes_value) continue;
        for (const std::string& s : o.spellings)
          out << "    " << c.pattern(" " + s) << ") echo " << quoted(value_kind(o)) << " ;;\n";
      }
  out << "  esac\n}\n";
}

// _epdd_positional PATH N: how the Nth positional (from 0) of PATH is completed.
void write_positionals(std::ostream& out, const std::vector<Command>& commands) {
  out << "_epdd_positional() {\n  case $1 in\n";
  for (const Command& c : commands) {
    const std::vector<OptionDoc>& positionals = c.doc->positionals;
    if (positionals.empty()) continue;
    out << "    " << c.pattern() << ")\n      case $2 in\n";
    for (std::size_t i = 0; i < positionals.size(); ++i) {
      const OptionDoc& p = positionals[i];
      const bool last = i + 1 == positionals.size();
      // A list takes every word from here on; so does the last positional (extra words are
      // CLI11's error to report, not the completion's).
      out << "        " << (last || p.repeats ? "*" : std::to_string(i)) << ") echo " << quoted(value_kind(p)) << " ;;\n";
      if (p.repeats && !last) break;
    }
    out << "      esac ;;\n";
  }
  out << "  esac\n}\n";
}

// The function: walks the words before the cursor to find the command and how many positionals
// it has, then completes the word under the cursor.
constexpr const char* kFunction = R"bash(
# _epdd_reply KIND CUR: COMPREPLY from a value kind ("choices a b", "files", "none").
_epdd_reply() {
  local kind=$1 cur=$2
  case $kind in
    choices\ *) mapfile -t COMPREPLY < <(compgen -W "${kind#choices }" -- "$cur") ;;
    files)
      compopt -o filenames 2>/dev/null
      mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    *) COMPREPLY=() ;;
  esac
}

_epdd() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local path=epdd positionals=0 dashdash=0 in_pair=0 i word kind subs
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if ((dashdash)); then
      ((positionals++))
    elif [[ $word == -- ]]; then
      dashdash=1
    elif [[ $word == -* ]]; then
      # An option that takes a value takes the next word, unless given as --option=value
      # (bash splits that at '=' into three words: --option, =, value).
      kind=$(_epdd_value "$path" "${word%%=*}")
      if [[ -n $kind && $word != *=* ]]; then
        if [[ ${COMP_WORDS[i + 1]-} == = ]]; then ((i += 2)); else ((i++)); fi
        # A value NAME=VALUE (--option Hash=16) is split too: Hash, =, 16 are one value.
        if [[ ${COMP_WORDS[i + 1]-} == = ]]; then
          ((i += 2))
          ((i >= COMP_CWORD)) && in_pair=1
        fi
      fi
    elif [[ " $(_epdd_commands "$path") " == *" $word "* ]] && ((positionals == 0)); then
      path+=" $word"
    else
      ((positionals++))
    fi
  done
  # The VALUE of a NAME=VALUE: free text.
  ((in_pair)) && return 0
  # The value of an option: "--severity " or "--severity=" (bash's "=" word, or one word).
  local prev=${COMP_WORDS[COMP_CWORD - 1]}
  if [[ $cur == = ]]; then
    prev=${COMP_WORDS[COMP_CWORD - 1]} cur=
  elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  elif [[ $cur == --*=* ]]; then
    prev=${cur%%=*} cur=${cur#*=}
  fi
  if [[ $prev == -* && $prev != -- ]] && ((COMP_CWORD > 1)) && ! ((dashdash)); then
    kind=$(_epdd_value "$path" "$prev")
    if [[ -n $kind ]]; then
      _epdd_reply "$kind" "$cur"
      return 0
    fi
  fi
  if ((dashdash)); then
    _epdd_reply files "$cur"
    return 0
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_epdd_options "$path")" -- "$cur")
    return 0
  fi
  subs=$(_epdd_commands "$path")
  if [[ -n $subs ]] && ((positionals == 0)); then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
    # A command that is also a group (epdd suite FILE | epdd suite compare) takes a file too.
    kind=$(_epdd_positional "$path" 0)
    if [[ -n $kind ]]; then
      local more=("${COMPREPLY[@]}")
      _epdd_reply "$kind" "$cur"
      COMPREPLY=("${more[@]}" "${COMPREPLY[@]}")
    fi
    return 0
  fi
  kind=$(_epdd_positional "$path" "$positionals")
  [[ -n $kind ]] && _epdd_reply "$kind" "$cur"
  return 0
}
complete -F _epdd epdd
)bash";

}  // namespace

std::string bash_completion(const CommandDoc& root) {
  std::vector<Command> commands;
  all_commands(root, {root.command()}, commands);
  std::ostringstream out;
  out << "# bash completion for epdd: generated by epdd_docs from epdd's command definitions (the\n"
         "# ones --help prints); edit those, not this file. Needs bash only.\n";
  write_subcommands(out, commands);
  write_options(out, commands);
  write_values(out, commands);
  write_positionals(out, commands);
  out << kFunction;
  return out.str();
}

}  // namespace epdd::cli::docs
