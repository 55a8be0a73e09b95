// Host driver for rd_gaussian, following Rodinia's gaussian with a generated
// matrix (its -s option): a[i][j] = 10 exp(-0.01 |i - j|), here times a seeded
// factor in [0.99, 1.01) per entry, b = 1, m = 0. For t = 0 .. size - 2 the
// host launches gauss_fan1 (ceil(size / 512) blocks of 512 threads) and
// gauss_fan2 (ceil(size / 4) x ceil(size / 4) blocks of 4x4 threads), as
// Rodinia's ForwardSub does, then reads a, b and m back and back-substitutes
// on the CPU. Sizes: 208 at large is Rodinia's matrix208 (Table II's 339 KB:
// a and m).
//
// Check: exact. The kernels divide, multiply and subtract in single precision
// with nothing fused (the PTX nvcc gives), and each entry is updated once per
// pivot in launch order, so a CPU elimination in the same order gives the same
// floats: a, b and m are compared bit for bit; the detail reports the
// back-substituted solution's residual.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class RdGaussian : public Workload {
 public:
  const char* name() const override { return "rd_gaussian"; }
  const char* description() const override {
    return "Rodinia gaussian: Fan1 multipliers and Fan2 4x4-block row updates per pivot, back-substitution on the host";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 16, 64, 128, 208);
    std::mt19937_64 rng(seed);
    std::vector<float> a(size_t(n) * n), b(n, 1.0f), m(size_t(n) * n, 0.0f);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a[size_t(i) * n + j] = float(10.0 * std::exp(-0.01 * std::abs(i - j))) * wl::uniform_float(rng, 0.99f, 1.01f);
    const std::vector<float> a0 = a;

    load_workload_ptx(dev, "rd_gaussian");
    DevPtr da = dev.upload(a), db = dev.upload(b), dm = dev.upload(m);
    const Dim3 grid1(wl::ceil_div(n, 512)), block1(512);
    const Dim3 grid2(wl::ceil_div(n, 4), wl::ceil_div(n, 4)), block2(4, 4);
    for (int t = 0; t < n - 1; ++t) {
      dev.launch("gauss_fan1", grid1, block1, {arg(dm), arg(da), arg(int32_t(n)), arg(int32_t(t))});
      dev.launch("gauss_fan2", grid2, block2, {arg(dm), arg(da), arg(db), arg(int32_t(n)), arg(int32_t(t))});
    }
    const std::vector<float> ga = dev.download<float>(da, a.size()), gb = dev.download<float>(db, n),
                             gm = dev.download<float>(dm, m.size());
    for (DevPtr p : {da, db, dm}) dev.free(p);

    // The same elimination on the CPU, pivot by pivot.
    for (int t = 0; t < n - 1; ++t)
      for (int r = t + 1; r < n; ++r) {
        const float mult = a[size_t(r) * n + t] / a[size_t(t) * n + t];
        m[size_t(r) * n + t] = mult;
        for (int c = t; c < n; ++c) {
          const float prod = mult * a[size_t(t) * n + c];
          a[size_t(r) * n + c] = a[size_t(r) * n + c] - prod;
        }
        const float prod = mult * b[t];
        b[r] = b[r] - prod;
      }
    WorkloadResult r = wl::check_exact("m", gm, m);
    if (r.verified) r = wl::check_exact("a", ga, a);
    if (r.verified) r = wl::check_exact("b", gb, b);
    if (!r.verified) return r;

    // The host's half: back-substitution (Rodinia's BackSub), and the residual of a0 x = 1.
    std::vector<double> x(n);
    for (int i = n - 1; i >= 0; --i) {
      double s = gb[i];
      for (int j = i + 1; j < n; ++j) s -= double(ga[size_t(i) * n + j]) * x[j];
      x[i] = s / ga[size_t(i) * n + i];
    }
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
      double s = 0.0;
      for (int j = 0; j < n; ++j) s += double(a0[size_t(i) * n + j]) * x[j];
      worst = std::max(worst, std::fabs(s - 1.0));
    }
    r.detail = "m, a and b match bit for bit over " + std::to_string(2 * (n - 1)) +
               " launches; back-substituted residual max |A x - b| = " + std::to_string(worst);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_gaussian() { return std::make_unique<RdGaussian>(); }

}  // namespace warptlm
