// The job kinds of epdd, made once by the registry (daemon/src/job_kind.cpp).
#pragma once

#include <memory>

#include "daemon/job_kind.hpp"

namespace epdd::daemon {

// analyse: the EPD with the analysis written into each record (bm/dm too unless keep_keys).
std::unique_ptr<JobKind> make_analyse_kind();
// suite: the suite scored (report, JSON) and the EPD with analysis opcodes (the key kept).
std::unique_ptr<JobKind> make_suite_kind();
// annotate: a PGN file's games with [%eval], judgement NAGs and comments, engine lines; summary.
std::unique_ptr<JobKind> make_annotate_kind();
// book: PGN, Polyglot and EPD inputs as one DAG of positions, its leaves analysed, backsolved to
// the root; the book as EPD, PGN and Polyglot, and a report.
std::unique_ptr<JobKind> make_book_kind();
// book-grow: a book grown by drop-out expansion (book/grow.hpp) from its input or the start
// position, round after round; book's outputs.
std::unique_ptr<JobKind> make_book_grow_kind();

}  // namespace epdd::daemon
