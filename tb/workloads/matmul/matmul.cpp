// Host driver for matmul: seeded A, B in [-1, 1), one launch of 16x16 blocks,
// check against a double-precision reference.
#include <array>
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class MatMul : public Workload {
 public:
  // `n` by size: tiny, small, medium, large.
  MatMul(const char* name, const char* description, std::array<int, 4> n) : name_(name), description_(description), n_(n) {}
  const char* name() const override { return name_; }
  const char* description() const override { return description_; }
  const char* module() const override { return "matmul"; }  // both sizes' kernel
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, n_[0], n_[1], n_[2], n_[3]);
    const uint32_t tile = 16;
    std::mt19937_64 rng(seed);
    const size_t nn = size_t(n) * n;
    std::vector<float> a(nn), b(nn);
    for (auto& v : a) v = wl::uniform_float(rng, -1.0f, 1.0f);
    for (auto& v : b) v = wl::uniform_float(rng, -1.0f, 1.0f);

    load_workload_ptx(dev, "matmul");
    DevPtr da = dev.upload(a), db = dev.upload(b);
    DevPtr dc = dev.malloc(nn * sizeof(float));
    dev.set_launch_hint(1);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): matrix multiply: type 1, as GEMM
    dev.launch("matmul_tiled", Dim3(wl::ceil_div(n, tile), wl::ceil_div(n, tile)), Dim3(tile, tile),
               {arg(da), arg(db), arg(dc), arg(int32_t(n))});
    std::vector<float> c = dev.download<float>(dc, nn);
    dev.free(da);
    dev.free(db);
    dev.free(dc);

    // Reference in double. The device sums n float products in k order with
    // fma contraction, so its rounding differs: tolerance is 1e-5 absolute +
    // 1e-4 relative + 2e-6 * sum_k |a_ik * b_kj| (well above the float
    // dot-product error for random data, far below any indexing error).
    std::vector<double> ref(nn), slack(nn);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0.0, sa = 0.0;
        for (int k = 0; k < n; ++k) {
          double p = double(a[size_t(i) * n + k]) * double(b[size_t(k) * n + j]);
          s += p;
          sa += std::fabs(p);
        }
        ref[size_t(i) * n + j] = s;
        slack[size_t(i) * n + j] = 2e-6 * sa;
      }
    return wl::check_floats("C", c, ref, 1e-4, 1e-5, &slack);
  }

 private:
  const char* name_;
  const char* description_;
  std::array<int, 4> n_;
};

}  // namespace

std::unique_ptr<Workload> make_matmul() {
  return std::make_unique<MatMul>("matmul", "tiled shared-memory float matrix multiply, 16x16 tiles (compute bound, "
                                  "barriers in a loop)", std::array<int, 4>{32, 64, 256, 512});
}
// The SPU report's GPU baseline (seed 003 sec. 4): the same kernel at spu_matmul's sizes, the report's
// 192 x 192 at medium, so the mesh and the GPU multiply the same matrices.
std::unique_ptr<Workload> make_matmul_report() {
  return std::make_unique<MatMul>("matmul_report", "matmul at the SPU report's sizes (192 x 192 at medium, as "
                                  "spu_matmul): the GPU baseline of the mesh's matrix multiply",
                                  std::array<int, 4>{64, 96, 192, 384});
}

}  // namespace warptlm
