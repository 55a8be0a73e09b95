// Host driver for gemv: a seeded row-major matrix and vector, y = A x (a thread
// per row: strided, column-walking loads) then z = A^T x (a thread per column:
// coalesced loads), each checked exactly against a host loop that rounds and
// sums in the kernel's order.
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Gemv : public Workload {
 public:
  const char* name() const override { return "gemv"; }
  const char* description() const override {
    return "matrix-vector products y = A x (a thread per row: lanes 4n bytes apart, a line each) and z = A^T x "
           "(a thread per column: coalesced)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // n is not a multiple of the block, so the last block of each launch diverges.
    const int n = wl::by_size(size, 200, 640, 2000, 4000);
    const uint32_t block = 128;
    std::mt19937_64 rng(seed);
    std::vector<float> a(size_t(n) * n), x(n);
    for (float& v : a) v = wl::uniform_float(rng, -1.0f, 1.0f);
    for (float& v : x) v = wl::uniform_float(rng, -1.0f, 1.0f);
    load_workload_ptx(dev, "gemv");
    DevPtr da = dev.upload(a), dx = dev.upload(x);
    DevPtr dy = dev.malloc(uint64_t(n) * sizeof(float)), dz = dev.malloc(uint64_t(n) * sizeof(float));
    const Dim3 grid(wl::ceil_div(n, block));
    dev.launch("gemv_rows", grid, Dim3(block), {arg(da), arg(dx), arg(dy), arg(int32_t(n))});
    dev.launch("gemv_cols", grid, Dim3(block), {arg(da), arg(dx), arg(dz), arg(int32_t(n))});
    std::vector<float> y = dev.download<float>(dy, n), z = dev.download<float>(dz, n);
    for (DevPtr p : {da, dx, dy, dz}) dev.free(p);
    std::vector<float> ry(n, 0.0f), rz(n, 0.0f);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k) {
        const float p = a[size_t(i) * n + k] * x[k];  // rounded, then added: the kernel's __fmul_rn, __fadd_rn
        ry[i] = ry[i] + p;
      }
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const float p = a[size_t(k) * n + j] * x[k];
        rz[j] = rz[j] + p;
      }
    return wl::all_of({wl::check_exact("y", y, ry), wl::check_exact("z", z, rz)});
  }
};

}  // namespace

std::unique_ptr<Workload> make_gemv() { return std::make_unique<Gemv>(); }

}  // namespace warptlm
