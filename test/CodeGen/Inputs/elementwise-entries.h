// Stand-ins for the C++ kernels the CodeGen tests' kernels register under.
#pragma once
inline void ew_f32() {}
inline void ew_f64() {}
inline void ew_f16() {}
inline void ew_bf16() {}
