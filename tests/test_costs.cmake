# Read by ctest after the Catch2 tests are discovered (TEST_INCLUDE_FILES, tests/CMakeLists.txt):
# the longest Catch2 tests start first. ctest -j runs tests in descending COST; once a build has
# run its tests, it takes their measured times from Testing/Temporary/CTestCostData.txt instead.
# From a fresh clone (CI) it has none, and would start these last, in number order, so that the
# run ends waiting on them. Costs: seconds measured under the sanitizers on 2 cores (issue 34).
set_tests_properties(
    [=[book_tests:book_page: every key of the golden reports mutated gives a page or an error with its place]=]
    [=[book_tests:book_page: a tree deeper than the bound is refused with its place, one within it is drawn]=]
  PROPERTIES COST 150)
set_tests_properties(
    [=[annotate_tests:Real files annotated keep everything they had and read back clean]=]
    [=[pgn_tests:pgc reader: every prefix of a real file and random byte flips give games or an error, never a crash]=]
    [=[cli_tests:pgn check: 100,000 tagless games in flat memory, counts per kind, --all prints every one in file order]=]
    [=[book_tests:leaves EPD: written, filled in by hand, imported: every leaf valued]=]
    [=[cli_tests:epd check: 40,000 records of many diagnostics in flat memory, counts per kind, --all in file order]=]
    [=[book_tests:dag: 2moves_v2.pgn is one node per distinct position]=]
  PROPERTIES COST 40)
