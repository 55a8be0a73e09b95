// Host driver for ss_gaussian: the Fan1 launches of a Gaussian elimination
// without pivoting of a seeded size x size system, one ss_fan1 launch of
// ceil(size / 512) blocks of 512 threads per pivot t, for the first `steps`
// pivots (all size - 1 at large; fewer at the other sizes, which keeps every
// launch wide while bounding the launch count); every multiplier checked
// exactly.
//
// Only Fan1 (the study's Set-3 kernel) is simulated. Fan1 at pivot t reads
// column t of the matrix from row t down, as the elimination has left it after
// t steps, and nothing else; the host runs the elimination first (Fan2's row
// updates, in float with fmaf) and uploads one matrix whose column t holds,
// from row t down, exactly those values. The launches then need nothing from
// each other, and each multiplier is one IEEE division of two known floats.
// The matrix is the study's generated input, 10 exp(-0.01 |i - j|), times a
// seeded factor in [0.99, 1.01) per entry.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsGaussian : public Workload {
 public:
  const char* name() const override { return "ss_gaussian"; }
  const char* description() const override {
    return "Set-3 control gaussian (512 thr, no scratchpad): Fan1, the multiplier column of each elimination step";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 1024, 2048, 3072, 4096);
    const int steps = wl::by_size(size, 32, 32, 256, 4095);
    const uint32_t block = 512;
    std::mt19937_64 rng(seed);
    std::vector<float> a(size_t(n) * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        a[size_t(i) * n + j] = float(10.0 * std::exp(-0.01 * std::abs(i - j))) * wl::uniform_float(rng, 0.99f, 1.01f);

    // seen[r][t], r >= t: column t at pivot t. Entries above the diagonal are never read.
    std::vector<float> seen(a.size(), 0.0f), ref(a.size(), 0.0f);
    for (int t = 0; t < steps; ++t) {
      for (int r = t; r < n; ++r) seen[size_t(r) * n + t] = a[size_t(r) * n + t];
      const float pivot = a[size_t(t) * n + t];
      for (int r = t + 1; r < n; ++r) {
        const float mult = a[size_t(r) * n + t] / pivot;
        ref[size_t(r) * n + t] = mult;
        for (int c = t; c < n; ++c) a[size_t(r) * n + c] = std::fmaf(-mult, a[size_t(t) * n + c], a[size_t(r) * n + c]);
      }
    }

    load_workload_ptx(dev, "ss_gaussian");
    DevPtr da = dev.upload(seen), dm = dev.upload(std::vector<float>(a.size(), 0.0f));
    const uint32_t grid = wl::ceil_div(n, block);
    for (int t = 0; t < steps; ++t)
      dev.launch("ss_fan1", Dim3(grid), Dim3(block), {arg(dm), arg(da), arg(int32_t(n)), arg(int32_t(t))});
    const std::vector<float> got = dev.download<float>(dm, a.size());
    dev.free(da);
    dev.free(dm);
    WorkloadResult r = wl::check_exact("m", got, ref);
    if (r.verified) r.detail += " (" + std::to_string(steps) + " launches of " + std::to_string(grid) + " blocks)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_gaussian() { return std::make_unique<SsGaussian>(); }

}  // namespace warptlm
