// A Clang error with a note (for the SARIF and GitHub tests).

inline int twice(int x) { return 2 * x; }
inline int twice(int x) { return x + x; }
