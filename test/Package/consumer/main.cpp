// Launches the kernel kernels.tile.cpp defines and checks every element.
#include "kernels.hpp"

#include <cstdio>
#include <vector>

int main() {
  const long long n = 1000;
  std::vector<float> host(n);
  for (long long i = 0; i < n; ++i) host[i] = float(i % 17) - 8.0f;
  auto in = tile::from_host(host, {n});
  auto out = tile::zeros<float>({n});
  tile::launch<scale_rows>(out.partition_mut<256>(), in, 2.0f).sync();
  const std::vector<float> got = out.to_host();
  int bad = 0;
  for (long long i = 0; i < n; ++i)
    if (got[i] != host[i] * 2.0f + 1.0f && ++bad <= 5)
      std::printf("out[%lld] = %g, expected %g\n", i, got[i], host[i] * 2.0f + 1.0f);
  std::printf("scale_rows: %s on %s\n", bad ? "WRONG" : "OK", tile::default_device().name().c_str());
  return bad ? 1 : 0;
}
