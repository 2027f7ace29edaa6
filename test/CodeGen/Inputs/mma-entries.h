// Stand-in for the C++ kernel the mma CodeGen test registers under.
#pragma once
inline void mma_f32() {}
