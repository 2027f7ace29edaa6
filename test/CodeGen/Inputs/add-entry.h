// Stand-in for the user's kernel that the generated registration names (&::add<128>).
#pragma once
template <int B> void add() {}
