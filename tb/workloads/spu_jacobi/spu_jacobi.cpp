// Host driver for spu_jacobi (the SPU platform: warptlm run --platform spu):
// jacobi2d's seeded grid (hot boundary values) and its sweeps, one launch of
// 16 x 16 blocks per sweep ping-ponging two buffers, the halos through the
// CBs; checked bit for bit against a float CPU sweep that adds the five points
// in the kernel's order. The grid is a whole number of 16 x 16 tiles (the mesh
// holds one block per SM, sec. 2.5).
#include <random>
#include <utility>

#include "workloads/jacobi_ref.hpp"
#include "workloads/spu_common/spu_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SpuJacobi : public Workload {
 public:
  const char* name() const override { return "spu_jacobi"; }
  const char* description() const override {
    return "5-point Jacobi sweeps on the SPU mesh: north and west halos through the CBs, output shifted north-west";
  }
  const char* platform() const override { return "spu"; }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t nx = uint32_t(wl::by_size(size, 64, 128, 384, 1024));
    const uint32_t ny = uint32_t(wl::by_size(size, 64, 96, 384, 1024));
    const int iters = wl::by_size(size, 3, 4, 4, 4);
    const uint32_t t = 16, steps = 2;
    std::mt19937_64 rng(seed);
    const size_t count = size_t(nx) * ny;
    const std::vector<float> grid = wl::jacobi_grid(rng, int(nx), int(ny));
    load_workload_ptx(dev, "spu_jacobi");  // first: a platform without the mesh refuses its PTX by line
    const wl::MeshShape mesh = wl::MeshShape::of(dev);
    const uint32_t cb_words = mesh.cb_words;
    if (cb_words < 2 * (t + 2) || cb_words % (t * t))
      return {false, "spu.cb_bytes must hold the halo (2 x 18 floats) and a multiple of the block's 256 words"};
    const uint32_t gx = nx / t, gy = ny / t;
    const uint64_t gcb_words = mesh.spill_words(gx, gy, steps, cb_words);

    DevPtr a = dev.upload(grid), b = dev.malloc(count * 4), g = dev.malloc(gcb_words * 4);
    for (int it = 0; it < iters; ++it) {
      dev.launch("spu_jacobi", Dim3(gx, gy), Dim3(t, t), {arg(a), arg(b), arg(nx), arg(ny), arg(g), arg(cb_words), arg(mesh.rows), arg(mesh.cols), arg(mesh.leave_early)});
      std::swap(a, b);
    }
    std::vector<float> got = dev.download<float>(a, count);
    for (DevPtr p : {a, b, g}) dev.free(p);

    const std::vector<float> cur = wl::jacobi_sweeps(grid, int(nx), int(ny), iters);
    return wl::check_exact("grid", got, cur);
  }
};

}  // namespace

std::unique_ptr<Workload> make_spu_jacobi() { return std::make_unique<SpuJacobi>(); }

}  // namespace warptlm
