#!/usr/bin/env bash
# --help and the man page say the same, for every command (issue 22): the commands are found by
# walking `epdd --help` and each group's --help, not listed here. For each one the page is
# rendered to text (man -l) and
#   - every option of --help is in the page's OPTIONS with the same names, value word and
#     description (whitespace normalised), and every option of the page is one of --help's;
#   - each description is the one under its own tag;
#   - the help's footer is in its own sections: its "Exit status:" sentence is the page's EXIT
#     STATUS, its "Examples:" lines are EXAMPLES, every other line is in DESCRIPTION.
# Then the comparison is shown to fail: on copies of a page with one option removed, with an
# option --help does not have, with two descriptions swapped, with a line more in EXIT STATUS.
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
# squeeze VAR TEXT: TEXT normalised as normalise does (runs of white space one space, none at
# either end) into VAR, without a process: it runs for every option and footer line of every
# command, and two processes each time were most of this test's time.
squeeze() {
  local -a squeezed
  read -ra squeezed <<< "$2"
  local IFS=' '
  printf -v "$1" '%s' "${squeezed[*]}"
}

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

# page_entries: a rendered page on stdin -> per entry of its OPTIONS section, its first line
# (from indent 7, as page_tags), a tab, and the lines under it joined (its description).
page_entries() {
  awk 'function flush() { if (entry != "") print entry "\t" desc; entry = ""; desc = "" }
       /^OPTIONS$/ { on = 1; next }
       /^[A-Z]/ { flush(); on = 0 }
       !on { next }
       /^       [^ ]/ { flush(); entry = substr($0, 8); next }
       /^   [^ ]/ { flush(); next }
       /^        +[^ ]/ { sub(/^ +/, ""); desc = desc " " $0 }
       END { flush() }'
}

# section NAME: a rendered page on stdin -> the text of its section NAME, normalised.
section() {
  awk -v name="$1" '$0 == name { on = 1; next } /^[A-Z]/ { on = 0 } on' | normalise
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
  local words=$1 page=$2 help rendered differences=0 kind tag desc line
  # shellcheck disable=SC2086
  help=$("$epdd" $words --help 2>&1) || { echo "epdd $words --help fails"; return 1; }
  rendered=$(MANWIDTH=80 man -l "$page" 2> "$tmp/man.err") || { echo "$page: man -l fails: $(cat "$tmp/man.err")"; return 1; }
  mapfile -t page_lines < <(page_tags <<< "$rendered")
  mapfile -t entries < <(page_entries <<< "$rendered")
  local description
  description=" $(section DESCRIPTION <<< "$rendered") "
  help_tags=()
  local footer_part=prose exit_status="" examples="" entry page_desc
  while IFS=$'\t' read -r kind tag desc; do
    case $kind in
      option)
        help_tags+=("$tag")
        has_tag "$tag" "${page_lines[@]}" || { echo "$page: no option '$tag' (epdd $words --help has it)"; differences=1; continue; }
        # The description under its own tag (for a short tag, on the tag's line after it).
        for entry in "${entries[@]}"; do
          is_tag "$tag" "${entry%%$'\t'*}" || continue
          squeeze page_desc "${entry%%$'\t'*} ${entry#*$'\t'}"
          page_desc=${page_desc#"$tag"}
          page_desc=${page_desc# }
          [ "$page_desc" = "$desc" ] ||
            { echo "$page: the description under '$tag' differs from --help's: '$page_desc' against '$desc'"; differences=1; }
          break
        done ;;
      footer)
        # The footer's parts, as --help has them: "Exit status:" one sentence (up to a line that
        # ends in '.'), "Examples:" to the end, the rest prose.
        case $footer_part/$tag in
          */Examples:|*/Example:) footer_part=examples; continue ;;
          prose/"Exit status:"*) footer_part=exit; tag=${tag#Exit status:} ;;
        esac
        squeeze line "$tag"
        case $footer_part in
          exit) exit_status+=" $line"; [[ $line == *. ]] && footer_part=prose ;;
          examples) examples+=" $line" ;;
          prose) [[ $description == *" $line "* ]] ||
                   { echo "$page: the footer line '$line' is not in DESCRIPTION"; differences=1; } ;;
        esac ;;
    esac
  done < <(help_entries <<< "$help")
  exit_status=$(normalise <<< "$exit_status")
  [ "$exit_status" = "$(section "EXIT STATUS" <<< "$rendered")" ] ||
    { echo "$page: EXIT STATUS is not --help's: '$(section "EXIT STATUS" <<< "$rendered")' against '$exit_status'"; differences=1; }
  examples=$(normalise <<< "$examples")
  [ "$examples" = "$(section EXAMPLES <<< "$rendered")" ] ||
    { echo "$page: EXAMPLES are not --help's: '$(section EXAMPLES <<< "$rendered")' against '$examples'"; differences=1; }
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
# Two descriptions swapped (each text still in OPTIONS), and a prose line moved under EXIT STATUS.
sed 's/^No progress and no summary on stderr (errors still)$/@@/
     s/^Log engine stderr, restarts and problems as they happen$/No progress and no summary on stderr (errors still)/
     s/^@@$/Log engine stderr, restarts and problems as they happen/' "$pages/epdd-suite.1" > "$tmp/epdd-suite.1"
compare suite "$tmp/epdd-suite.1" > "$tmp/swapped.out" && fail "a page with -q and -v's descriptions swapped compared equal"
grep -q "the description under '-q,--quiet' differs" "$tmp/swapped.out" || fail "the swap was not named: $(cat "$tmp/swapped.out")"
sed '/^\.SH EXAMPLES$/i The text report goes to stderr.' "$pages/epdd-suite.1" > "$tmp/epdd-suite.1"
compare suite "$tmp/epdd-suite.1" > "$tmp/moved.out" && fail "a page with a line more under EXIT STATUS compared equal"
grep -q "EXIT STATUS is not --help's" "$tmp/moved.out" || fail "the line under EXIT STATUS was not named: $(cat "$tmp/moved.out")"

[ $failed -eq 0 ] && echo "${#commands[@]} commands: --help and the man page agree ($options_checked options and every footer line)"
exit $failed
