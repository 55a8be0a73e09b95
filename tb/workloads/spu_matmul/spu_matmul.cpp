// Host driver for spu_matmul (the SPU platform: warptlm run --platform spu):
// seeded A and B, one launch of T x T blocks (T = 16) over the C tiles, the
// spill buffer sized from the mesh's shape (Device::attribute), an exact check
// against a CPU product that accumulates in the kernel's order with fused
// multiply-adds. Sizes: tiny 64 (one pass of 4 x 4), small 96 (four passes,
// two partial), medium 192 (the report's case, sec. 4.3: 144 blocks, 9
// passes), large 384.
#include <cmath>
#include <random>

#include "workloads/spu_common/spu_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SpuMatmul : public Workload {
 public:
  const char* name() const override { return "spu_matmul"; }
  const char* description() const override {
    return "tiled matrix multiply on the SPU mesh: A tiles flow east, B tiles south through the CBs (seed 003)";
  }
  const char* platform() const override { return "spu"; }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = uint32_t(wl::by_size(size, 64, 96, 192, 384));
    const uint32_t t = 16;
    std::mt19937_64 rng(seed);
    std::vector<float> a(size_t(n) * n), b(size_t(n) * n);
    for (auto& v : a) v = wl::uniform_float(rng, -1.0f, 1.0f);
    for (auto& v : b) v = wl::uniform_float(rng, -1.0f, 1.0f);
    load_workload_ptx(dev, "spu_matmul");  // first: a platform without the mesh refuses its PTX by line
    const wl::MeshShape mesh = wl::MeshShape::of(dev);
    if (mesh.cb_words < t * t)
      return {false, "spu.cb_bytes is " + std::to_string(4 * mesh.cb_words) + "; a CB must hold a 16 x 16 float tile (1024)"};
    const uint32_t grid = n / t, steps = 2 * grid + n / t - 1;
    const uint64_t gcb_words = mesh.spill_words(grid, grid, steps, t * t);

    DevPtr da = dev.upload(a), db = dev.upload(b), dc = dev.malloc(uint64_t(n) * n * 4), dg = dev.malloc(gcb_words * 4);
    dev.launch("spu_matmul", Dim3(grid, grid), Dim3(t, t),
               {arg(da), arg(db), arg(dc), arg(n), arg(n), arg(n), arg(dg), arg(mesh.rows), arg(mesh.cols), arg(mesh.leave_early)});
    std::vector<float> c = dev.download<float>(dc, size_t(n) * n);
    for (DevPtr p : {da, db, dc, dg}) dev.free(p);

    std::vector<float> ref(size_t(n) * n);
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        float acc = 0.0f;
        for (uint32_t p = 0; p < n; ++p) acc = std::fma(a[size_t(i) * n + p], b[size_t(p) * n + j], acc);
        ref[size_t(i) * n + j] = acc;
      }
    return wl::check_exact("C", c, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_spu_matmul() { return std::make_unique<SpuMatmul>(); }

}  // namespace warptlm
