// bench/gpu/float_min_max.cu - tile_dev's float min / max on the GPU (hardware max.f32,
// max.NaN.f32 and their equal-operand fix-up) against the same functions on the host (the
// portable form, the CPU reference's semantics): every pair of special and ordinary values,
// compared bit for bit (any NaN matches any NaN). Run by bench/gpu/run.sh.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "device/tile_device.cuh"

__global__ void min_max(const float* a, const float* b, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[4 * i + 0] = tile_dev::maxnumf<float>(a[i], b[i]);
  out[4 * i + 1] = tile_dev::minnumf<float>(a[i], b[i]);
  out[4 * i + 2] = tile_dev::maximumf<float>(a[i], b[i]);
  out[4 * i + 3] = tile_dev::minimumf<float>(a[i], b[i]);
}

// The bare instructions on the two zeros: whether the hardware itself orders -0 below +0 (then
// tile_dev's equal-operand fix-up could go). Printed, not checked.
__global__ void bare_zeros(float* out, float pz, float nz) {
  float d[4];
  asm("max.f32 %0, %1, %2;" : "=f"(d[0]) : "f"(pz), "f"(nz));
  asm("max.f32 %0, %1, %2;" : "=f"(d[1]) : "f"(nz), "f"(pz));
  asm("min.f32 %0, %1, %2;" : "=f"(d[2]) : "f"(pz), "f"(nz));
  asm("min.f32 %0, %1, %2;" : "=f"(d[3]) : "f"(nz), "f"(pz));
  for (int k = 0; k < 4; ++k) out[k] = d[k];
}

static bool same(float x, float y) {
  if (x != x && y != y) return true;
  uint32_t bx, by;
  std::memcpy(&bx, &x, 4);
  std::memcpy(&by, &y, 4);
  return bx == by;
}

int main() {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, -1e-40f, 3.5f, inf, -inf,
                                     nan, -nan, std::numeric_limits<float>::max()};
  std::vector<float> ha, hb;
  for (float x : values)
    for (float y : values) ha.push_back(x), hb.push_back(y);
  const int n = int(ha.size());
  float *da, *db, *dout;
  cudaMalloc(&da, n * 4);
  cudaMalloc(&db, n * 4);
  cudaMalloc(&dout, 16 * n);
  cudaMemcpy(da, ha.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), n * 4, cudaMemcpyHostToDevice);
  min_max<<<(n + 127) / 128, 128>>>(da, db, dout, n);
  std::vector<float> got(4 * size_t(n));
  if (cudaMemcpy(got.data(), dout, 16 * n, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("float min/max: CUDA error\n");
    return 1;
  }
  const char* names[4] = {"maxnumf", "minnumf", "maximumf", "minimumf"};
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const float want[4] = {tile_dev::maxnumf(ha[i], hb[i]), tile_dev::minnumf(ha[i], hb[i]),
                           tile_dev::maximumf(ha[i], hb[i]), tile_dev::minimumf(ha[i], hb[i])};
    for (int k = 0; k < 4; ++k)
      if (!same(got[4 * i + k], want[k]) && ++bad <= 10)
        std::printf("  %s(%g, %g) = %g on the GPU, %g on the host\n", names[k], ha[i], hb[i],
                    got[4 * i + k], want[k]);
  }
  bare_zeros<<<1, 1>>>(dout, 0.0f, -0.0f);
  float z[4];
  cudaMemcpy(z, dout, sizeof z, cudaMemcpyDeviceToHost);
  std::printf("bare max.f32 / min.f32 of +0 and -0 (either order): %s\n",
              !std::signbit(z[0]) && !std::signbit(z[1]) && std::signbit(z[2]) && std::signbit(z[3])
                  ? "-0 ordered below +0"
                  : "the sign of a zero result depends on the operands' order");
  std::printf("float min/max: %d of %d results differ from the host's\n", bad, 4 * n);
  return bad == 0 ? 0 : 1;
}
