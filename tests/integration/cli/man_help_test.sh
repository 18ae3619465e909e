#!/usr/bin/env bash
# --help and the man page say the same, for every command (issue 22): the commands are found by
# walking `epdd --help` and each group's --help, not listed here. For each one the page is
# rendered to text (man -l) and
#   - every option of --help is in the page's OPTIONS with the same names, value word and
#     description (whitespace normalised), and every option of the page is one of --help's;
#   - every line of the help's footer is in the page ("Exit status:" and "Examples:" are the
#     page's EXIT STATUS and EXAMPLES headings).
# Then the comparison is shown to fail: on a copy of a page with one option removed, and on one
# with an option --help does not have.
#
#   man_help_test.sh EPDD DOCS_DIR     (DOCS_DIR: epdd_docs's output, with man1/)
set -uo pipefail
epdd=$1
pages=$2/man1
failed=0
fail() { echo "FAIL: $*"; failed=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v man > /dev/null || { echo "FAIL: man (Debian package man-db) is not installed"; exit 1; }

normalise() { tr -s ' \n\t' '   ' | sed 's/^ //; s/ $//'; }

# help_entries: --help text on stdin -> "option<TAB>TAG<TAB>DESCRIPTION" per option or
# positional, "footer<TAB>LINE" per footer line, "command<TAB>NAME" per subcommand.
help_entries() {
  awk '
    function flush() { if (tag != "") print "option\t" tag "\t" desc; tag = "" }
    function squeeze(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
    { lines[NR] = $0 }
    END {
      mode = ""; last_block_end = 0
      for (i = 1; i <= NR; i++) {
        line = lines[i]
        if (line ~ /^(Positionals|Options|Subcommands):$/ || line ~ /^\[Option Group: .*\]$/ || line ~ /^  Options:$/) {
          flush(); mode = (line ~ /Subcommands/) ? "commands" : "options"; continue
        }
        if (line == "") { flush(); if (mode != "") last_block_end = i; mode = ""; continue }
        if (mode == "") continue
        match(line, /^ */); indent = RLENGTH
        if (mode == "commands") {
          if (indent <= 2) { split(squeeze(line), w, " "); name = w[1]; sub(/,$/, "", name); print "command\t" name }
          continue
        }
        if (indent <= 4) {
          # CLI11 pads names to 30 columns (32 in an option group, indented by 2 more) and starts
          # the description after them; a name that does not fit has it on the next line.
          flush()
          column = indent == 4 ? 32 : 30
          if (substr(line, column, 1) == " ") { tag = squeeze(substr(line, 1, column)); desc = squeeze(substr(line, column + 1)) }
          else { tag = squeeze(line); desc = "" }
        } else {
          desc = squeeze(desc " " line)
        }
      }
      flush()
      for (i = last_block_end + 1; i <= NR; i++) if (lines[i] != "") print "footer\t" lines[i]
    }'
}

# page_tags: a rendered page on stdin -> the line of every entry of its OPTIONS section, from
# its tag at indent 7 (.TP): the tag alone, or, when it is 6 characters or less, the tag and the
# start of its description (groff puts them on one line).
page_tags() {
  awk '/^OPTIONS$/ { on = 1; next } /^[A-Z]/ { on = 0 } on && /^       [^ ]/ { print substr($0, 8) }'
}

# is_tag HELP_TAG PAGE_LINE: whether the page's entry line is that option's.
is_tag() {
  [[ $2 == "$1" ]] || { [ ${#1} -le 6 ] && [[ $2 == "$1 "* ]]; }
}

# has_tag HELP_TAG PAGE_LINES...: whether one of the page's entry lines is that option's.
has_tag() {
  local tag=$1 line
  shift
  for line in "$@"; do is_tag "$tag" "$line" && return 0; done
  return 1
}

# compare "COMMAND WORDS" PAGE: prints each difference; returns 1 if there is one.
compare() {
  local words=$1 page=$2 help rendered options_text all_text differences=0 kind tag desc line
  # shellcheck disable=SC2086
  help=$("$epdd" $words --help 2>&1) || { echo "epdd $words --help fails"; return 1; }
  rendered=$(MANWIDTH=80 man -l "$page" 2> "$tmp/man.err") || { echo "$page: man -l fails: $(cat "$tmp/man.err")"; return 1; }
  options_text=$(awk '/^OPTIONS$/ { on = 1; next } /^[A-Z]/ { on = 0 } on' <<< "$rendered" | normalise)
  all_text=$(normalise <<< "$rendered")
  mapfile -t page_lines < <(page_tags <<< "$rendered")
  help_tags=()
  while IFS=$'\t' read -r kind tag desc; do
    case $kind in
      option)
        help_tags+=("$tag")
        has_tag "$tag" "${page_lines[@]}" || { echo "$page: no option '$tag' (epdd $words --help has it)"; differences=1; }
        [[ " $options_text " == *" $desc "* ]] || { echo "$page: the description of '$tag' differs from --help's: $desc"; differences=1; } ;;
      footer)
        line=$(sed -E 's/^Exit status: *//' <<< "$tag" | normalise)
        case $line in ""|Examples:|Example:) continue ;; esac
        [[ " $all_text " == *" $line "* ]] || { echo "$page: the footer line '$line' is missing"; differences=1; } ;;
    esac
  done < <(help_entries <<< "$help")
  local h found
  for line in "${page_lines[@]}"; do
    found=0
    for h in "${help_tags[@]}"; do is_tag "$h" "$line" && found=1 && break; done
    ((found)) || { echo "$page: option '$line' is not in epdd $words --help"; differences=1; }
  done
  return $differences
}

# Every command, from the help texts.
commands=("")
for ((i = 0; i < ${#commands[@]}; i++)); do
  # shellcheck disable=SC2086
  while IFS=$'\t' read -r kind name _; do
    [ "$kind" = command ] && commands+=("${commands[i]:+${commands[i]} }$name")
  done < <("$epdd" ${commands[i]} --help 2>&1 | help_entries)
done
[ ${#commands[@]} -ge 20 ] || fail "only ${#commands[@]} commands found in the help texts: ${commands[*]}"

options_checked=0
for c in "${commands[@]}"; do
  page=$pages/epdd${c:+-${c// /-}}.1
  [ -f "$page" ] || { fail "epdd $c has no page $page"; continue; }
  compare "$c" "$page" || fail "epdd $c: --help and $page differ"
  # shellcheck disable=SC2086
  options_checked=$((options_checked + $("$epdd" $c --help | help_entries | grep -c '^option')))
done

# The comparison can fail: a copy of epdd-suite.1 without --json, and one with an option more.
awk 'skip && /^\.(TP|SS|SH)/ { skip = 0 }
     /^\.TP$/ { held = $0; next }
     held != "" { if ($0 ~ /^\\fB\\-\\-json\\fR/) skip = 1; else print held; held = "" }
     !skip' "$pages/epdd-suite.1" > "$tmp/epdd-suite.1"
[ "$(grep -c '^\.TP' "$tmp/epdd-suite.1")" -eq $(($(grep -c '^\.TP' "$pages/epdd-suite.1") - 1)) ] ||
  fail "the planted page lost more than one option"
grep -q 'json\\fR \\fIFILE' "$tmp/epdd-suite.1" && fail "the planted page still has --json"
compare suite "$tmp/epdd-suite.1" > "$tmp/removed.out" && fail "a page without --json compared equal to --help"
grep -q "no option '--json FILE'" "$tmp/removed.out" || fail "the missing --json was not named: $(cat "$tmp/removed.out")"
sed '/^\.SH OPTIONS$/a .TP\n\\fB\\-\\-bogus\\fR \\fIN\\fR\nNot an option of epdd suite' "$pages/epdd-suite.1" > "$tmp/epdd-suite.1"
compare suite "$tmp/epdd-suite.1" > "$tmp/added.out" && fail "a page with --bogus compared equal to --help"
grep -q "option '--bogus N' is not in epdd suite --help" "$tmp/added.out" || fail "the extra --bogus was not named: $(cat "$tmp/added.out")"

[ $failed -eq 0 ] && echo "${#commands[@]} commands: --help and the man page agree ($options_checked options and every footer line)"
exit $failed
