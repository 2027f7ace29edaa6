// examples/data_parallel/data_parallel.tile.cpp - training steps of a small MLP over several
// devices, data parallel.
//
//   data_parallel [BATCH IN HIDDEN OUT STEPS]   (defaults: 64 rows per rank, 64, 128, 32, 3 steps;
//                                                each a multiple of 32)
//
// The model is y = relu(x W1) W2 with the loss 0.5 * mean over the batch of |y - t|^2. Each rank
// holds a replica of W1 and W2 (broadcast from rank 0) and its own rows of the batch
// (tile::shard<0>). A step on each rank, on its own device:
//
//   h   = relu(x W1)                       linear_relu
//   dy  = (h W2 - t) / rows                linear_error
//   dW2 = h^T dy                           matmul      (a transposed view of h)
//   dh  = (dy W2^T) * [h > 0]              linear_relu_grad
//   dW1 = x^T dh                           matmul
//
// then an all-reduce sums dW1 and dW2 over the ranks, and each rank takes the SGD step
// W -= lr dW on its replica. The same steps are then run on one device with the whole batch.
// Checked: after every step every rank's W1 and W2 equal rank 0's bit for bit (the all-reduce
// gives every rank the same sums), and rank 0's equal the one-device weights to 1e-5 relative
// (the gradient sums are the same terms in another order); the loss, computed on the host from
// dy, falls from step to step. The ranks are tile::device_count() devices: the GPUs, or on the
// CPU backend the TILE_CPU_DEVICES simulated ones.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tile/tile.hpp>
#include <vector>

using Matrix = tile::Tensor<float, tile::dyn, tile::dyn>;

constexpr int BM = 32, BN = 32, BK = 32;

/// The BM x BN tile of a b (a: rows x K, b: K x cols) at this program's position.
template <int M, int N, int K>
auto product(const Matrix& a, const Matrix& b) {
  auto at = tile::partition<M, K>(a);
  auto bt = tile::partition<K, N>(b);
  auto acc = tile::zeros<float, M, N>();
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  return acc;
}

/// c = a b: the weight gradients, with a a transposed view of the activations.
template <int M, int N, int K>
TILE_KERNEL void matmul(tile::Tensor<float, M, N>& c, const Matrix& a, const Matrix& b) {
  c.store(product<M, N, K>(a, b));
}

/// h = relu(x w).
template <int M, int N, int K>
TILE_KERNEL void linear_relu(tile::Tensor<float, M, N>& h, const Matrix& x, const Matrix& w) {
  h.store(tile::max(product<M, N, K>(x, w), tile::zeros<float, M, N>()));
}

/// dy = (h w - t) * scale: the loss's gradient at the output (scale = 1 / rows of the batch).
template <int M, int N, int K>
TILE_KERNEL void linear_error(tile::Tensor<float, M, N>& dy, const Matrix& h, const Matrix& w, const Matrix& t,
                              float scale) {
  auto target = tile::partition<M, N>(t).load(tile::block_id(0), tile::block_id(1));
  dy.store((product<M, N, K>(h, w) - target) * scale);
}

/// dh = (dy w^T) * [h > 0], with w^T a transposed view of the weight.
template <int M, int N, int K>
TILE_KERNEL void linear_relu_grad(tile::Tensor<float, M, N>& dh, const Matrix& dy, const Matrix& wt,
                                  const Matrix& h) {
  auto active = tile::partition<M, N>(h).load(tile::block_id(0), tile::block_id(1)) > 0.0f;
  dh.store(tile::where(active, product<M, N, K>(dy, wt), 0.0f));
}

/// w -= lr * dw on this program's tile of the weight.
template <int M, int N>
TILE_KERNEL void sgd(tile::Tensor<float, M, N>& w, const Matrix& dw, float lr) {
  auto grad = tile::partition<M, N>(dw).load(tile::block_id(0), tile::block_id(1));
  w.store(w.load() - grad * lr);
}

/// One rank's model replica, data and activations, on its device.
struct Replica {
  tile::Array<float> w1, w2, x, t, h, dy, dh, dw1, dw2;
};

/// The forward and backward pass of one replica: leaves dW1 and dW2 (not yet summed).
void gradients(Replica& r, float scale) {
  tile::launch<linear_relu<BM, BN, BK>>(r.h.partition_mut<BM, BN>(), r.x, r.w1).sync();
  tile::launch<linear_error<BM, BN, BK>>(r.dy.partition_mut<BM, BN>(), r.h, r.w2, r.t, scale).sync();
  tile::launch<matmul<BM, BN, BK>>(r.dw2.partition_mut<BM, BN>(), r.h.view().transpose(), r.dy).sync();
  tile::launch<linear_relu_grad<BM, BN, BK>>(r.dh.partition_mut<BM, BN>(), r.dy, r.w2.view().transpose(), r.h)
      .sync();
  tile::launch<matmul<BM, BN, BK>>(r.dw1.partition_mut<BM, BN>(), r.x.view().transpose(), r.dh).sync();
}

void step(Replica& r, float lr) {
  tile::launch<sgd<BM, BN>>(r.w1.partition_mut<BM, BN>(), r.dw1, lr).sync();
  tile::launch<sgd<BM, BN>>(r.w2.partition_mut<BM, BN>(), r.dw2, lr).sync();
}

Replica replica(int64_t rows, int64_t in, int64_t hidden, int64_t out, const tile::Device& d) {
  return Replica{tile::empty<float>({in, hidden}, d),   tile::empty<float>({hidden, out}, d),
                 tile::empty<float>({rows, in}, d),     tile::empty<float>({rows, out}, d),
                 tile::zeros<float>({rows, hidden}, d), tile::zeros<float>({rows, out}, d),
                 tile::zeros<float>({rows, hidden}, d), tile::zeros<float>({in, hidden}, d),
                 tile::zeros<float>({hidden, out}, d)};
}

/// 0.5 * sum of |y - t|^2 / rows, from dy = (y - t) / rows.
double loss_of(const std::vector<float>& dy, int64_t rows) {
  double sum = 0;
  for (float g : dy) sum += double(g) * double(rows) * double(g) * double(rows);
  return 0.5 * sum / double(rows);
}

int main(int argc, char** argv) {
  const long long per_rank = argc > 5 ? std::atoll(argv[1]) : 64;
  const long long in = argc > 5 ? std::atoll(argv[2]) : 64;
  const long long hidden = argc > 5 ? std::atoll(argv[3]) : 128;
  const long long out = argc > 5 ? std::atoll(argv[4]) : 32;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 3;
  for (long long v : {per_rank, in, hidden, out})
    if (v <= 0 || v % 32 != 0) {
      std::fprintf(stderr, "every size must be a positive multiple of 32 (got %lld)\n", v);
      return 2;
    }
  auto comm = tile::Communicator::all();
  const int ranks = comm.size();
  const long long rows = per_rank * ranks;
  const float lr = 0.05f;

  std::mt19937 rng(11);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  auto random = [&](long long n, float scale) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (auto& e : v) e = dist(rng) * scale;
    return v;
  };
  const auto hw1 = random(in * hidden, 1.0f / std::sqrt(float(in)));
  const auto hw2 = random(hidden * out, 1.0f / std::sqrt(float(hidden)));
  const auto hx = random(rows * in, 1.0f);
  const auto ht = random(rows * out, 1.0f);

  // The replicas: the weights broadcast from rank 0, the batch split by rows.
  std::vector<Replica> dp;
  for (int r = 0; r < ranks; ++r) dp.push_back(replica(per_rank, in, hidden, out, comm.device(r)));
  {
    std::vector<tile::Array<float>> w1, w2;
    for (int r = 0; r < ranks; ++r) {
      w1.push_back(r == 0 ? tile::from_host(hw1, {in, hidden}, comm.device(0)) : std::move(dp[r].w1));
      w2.push_back(r == 0 ? tile::from_host(hw2, {hidden, out}, comm.device(0)) : std::move(dp[r].w2));
    }
    w1 = tile::ops::broadcast(comm, std::move(w1), 0).sync();
    w2 = tile::ops::broadcast(comm, std::move(w2), 0).sync();
    auto x = tile::shard<0>(tile::from_host(hx, {rows, in}, comm.device(0)), comm);
    auto t = tile::shard<0>(tile::from_host(ht, {rows, out}, comm.device(0)), comm);
    for (int r = 0; r < ranks; ++r) {
      dp[r].w1 = std::move(w1[r]);
      dp[r].w2 = std::move(w2[r]);
      dp[r].x = std::move(x[r]);
      dp[r].t = std::move(t[r]);
    }
  }
  // The same model on one device, with the whole batch.
  Replica one = replica(rows, in, hidden, out, comm.device(0));
  one.w1 = tile::from_host(hw1, {in, hidden}, comm.device(0));
  one.w2 = tile::from_host(hw2, {hidden, out}, comm.device(0));
  one.x = tile::from_host(hx, {rows, in}, comm.device(0));
  one.t = tile::from_host(ht, {rows, out}, comm.device(0));

  long long bad = 0;
  auto compare = [&](const char* what, int step_index, const std::vector<float>& got, const std::vector<float>& want,
                     float tolerance) {
    for (std::size_t e = 0; e < got.size(); ++e)
      if (!(std::fabs(got[e] - want[e]) <= tolerance * (1.0f + std::fabs(want[e]))) && ++bad <= 5)
        std::printf("  step %d: %s element %zu = %.9g, expected %.9g\n", step_index, what, e, got[e], want[e]);
  };
  const float scale = 1.0f / float(rows);
  double last_loss = INFINITY;
  for (int s = 0; s < steps; ++s) {
    for (auto& r : dp) gradients(r, scale);
    std::vector<tile::Array<float>> dw1, dw2;
    for (auto& r : dp) {
      dw1.push_back(std::move(r.dw1));
      dw2.push_back(std::move(r.dw2));
    }
    dw1 = tile::ops::all_reduce(comm, std::move(dw1), tile::Reduction::sum).sync();
    dw2 = tile::ops::all_reduce(comm, std::move(dw2), tile::Reduction::sum).sync();
    double loss = 0;
    for (int r = 0; r < ranks; ++r) {
      dp[r].dw1 = std::move(dw1[r]);
      dp[r].dw2 = std::move(dw2[r]);
      step(dp[r], lr);
      loss += loss_of(dp[r].dy.to_host(), rows);  // this rank's rows' share of the mean
    }
    gradients(one, scale);
    step(one, lr);
    const double one_loss = loss_of(one.dy.to_host(), rows);

    const auto w1 = dp[0].w1.to_host(), w2 = dp[0].w2.to_host();
    for (int r = 1; r < ranks; ++r) {
      compare("rank's W1 against rank 0's", s, dp[r].w1.to_host(), w1, 0.0f);
      compare("rank's W2 against rank 0's", s, dp[r].w2.to_host(), w2, 0.0f);
    }
    compare("W1 against one device", s, w1, one.w1.to_host(), 1e-5f);
    compare("W2 against one device", s, w2, one.w2.to_host(), 1e-5f);
    if (std::fabs(loss - one_loss) > 1e-4 * one_loss && ++bad <= 5)
      std::printf("  step %d: loss %.9g over the ranks, %.9g on one device\n", s, loss, one_loss);
    if (!(one_loss < last_loss) && ++bad <= 5)
      std::printf("  step %d: the loss did not fall (%.9g after %.9g)\n", s, one_loss, last_loss);
    std::printf("step %d: loss %.6f\n", s, one_loss);
    last_loss = one_loss;
  }
  std::printf("data-parallel MLP %lld x %lld -> %lld -> %lld, %d steps over %d ranks (%s ...): %lld wrong\n", rows,
              in, hidden, out, steps, ranks, comm.device(0).name().c_str(), bad);
  return bad == 0 ? 0 : 1;
}
