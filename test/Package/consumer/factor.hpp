// The factor the kernel applies: a header the kernel file includes (touching it rebuilds the
// kernels).
#pragma once
inline constexpr float kExtra = 1.0f;
