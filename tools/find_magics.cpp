// Prints the magic multipliers that core/src/attacks.cpp holds as constants (kRookMagics,
// kBishopMagics). Run it only to regenerate them: cmake --build build --target find_magics
#include <cstdio>

#include "core/attacks.hpp"

int main() {
  for (const bool rook : {true, false}) {
    std::printf("constexpr Bitboard k%sMagics[64] = {\n", rook ? "Rook" : "Bishop");
    const auto magics = epdd::core::attacks::detail::find_magics(rook);
    for (int i = 0; i < 64; ++i)
      std::printf("%s0x%016llXULL,%s", i % 4 == 0 ? "    " : "", static_cast<unsigned long long>(magics[i]),
                  i % 4 == 3 ? "\n" : " ");
    std::printf("};\n");
  }
}
