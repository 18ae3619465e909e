// The book page (issue 20): a backsolved book's JSON report (the book job's --json, "format":
// "epdd book 1"; `epdd results --json` renders the same from the store) as one self-contained HTML
// page, so `epdd report FILE.json`, `epdd report JOBID` and --html all give the same page.
//
// What the page shows, in this order:
// - Summary: the inputs, the engine and its limits, the book's positions, moves, games, Polyglot
//   entries and EPD records, the leaves analysed, imported, failed and without a value, the
//   repetition groups, the root's value and the best line within the tree; the notes on the input,
//   the import's figures and errors and the unvalued leaves (each listed, in a <details>).
// - First moves: a bar chart of each valued first move's value for the side to move at the root
//   (pawns; mates as bars of 10 pawns with their "#N" written), the order of the tree.
// - The tree: the JSON's "tree" (book/tree_json.hpp: its top plies only) as nested lists
//   (<ol class="tree">), one <li class="node"> per node, in the JSON's order (best for the mover
//   first), each with its numbered move, its value from White's point of view (pawns with two
//   decimals, "#N" White mates in N moves, "#-N" Black does), the games through it (+White wins
//   =draws -Black wins), "incomplete" where a leaf below has no value, the moves left out ("and K
//   more"). The best move of each node has the class "best", the best line from the root
//   "best-line" as well.
// - Contradictions: one table row per entry of the JSON's "contradictions", in its order (worst
//   first): the line, the mover, the games and results, the mover's score and the score the value
//   predicts, the value for the mover, the badness and which way it contradicts.
// Every string of the JSON reaches the page escaped (html::Page, Table, Markup::text, escape); the
// page has no script and refers to nothing outside itself (html/page.hpp).
#pragma once

#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace epdd::book {

// The format value of the book JSON this page reads.
inline constexpr std::string_view kBookReportFormat = "epdd book 1";

// The deepest tree the page draws (plies below the root); a deeper one is an error.
inline constexpr int kMaxTreePlies = 100;

// The page of a book report; an error (never an exception) for text that is not JSON, JSON of
// another format, or a field the page reads that is wrong, after `name` (the input's name as the
// user gave it, "job 12") and ": " when one is given. A wrong field is named by its place and
// what was wanted ("tree.children[0].ce: 1e+308 is not a ce (a whole number from -32767 to
// 32767)"): strings, counts (whole, 0 to 10^15), ce values (the EPD range), fractions (0 to 1),
// and a tree at most kMaxTreePlies deep (the JSON is written 3 plies deep; the bound keeps the
// page's recursion shallow for any input). Every field may be absent or null.
Expected<std::string, std::string> book_page(std::string_view json, std::string_view name = "");

}  // namespace epdd::book
