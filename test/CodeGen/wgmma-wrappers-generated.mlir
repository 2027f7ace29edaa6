// The device header's wgmma wrappers are what scripts/gen-wgmma.py writes: regenerate them
// with it after changing it.
// RUN: python3 %S/../../scripts/gen-wgmma.py | diff - %S/../../runtime/device/tile_wgmma.cuh
