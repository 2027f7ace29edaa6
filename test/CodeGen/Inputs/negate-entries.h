// Stand-in for the C++ kernel the negation CodeGen test registers under.
#pragma once
inline void negate() {}
