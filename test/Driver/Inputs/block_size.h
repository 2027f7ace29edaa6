#pragma once
inline constexpr int kBlock = TILE_B * 2;
