// Stand-in for the C++ kernel the mma fragment-kinds CodeGen test registers under.
#pragma once
inline void small_mma() {}
