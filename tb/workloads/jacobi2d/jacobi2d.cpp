// Host driver for jacobi2d: a seeded grid with hot boundary values, several
// jacobi_step launches ping-ponging two buffers, checked against a float CPU
// sweep that adds the five points in the kernel's order.
#include <random>
#include <utility>

#include "workloads/jacobi_ref.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Jacobi2d : public Workload {
 public:
  const char* name() const override { return "jacobi2d"; }
  const char* description() const override {
    return "5-point Jacobi stencil, shared tile with halo, several launches ping-ponging two buffers";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // Sizes are not all multiples of the block, so edge blocks are partial.
    const int nx = wl::by_size(size, 32, 100, 384, 1024);
    const int ny = wl::by_size(size, 32, 90, 384, 1024);
    const int iters = wl::by_size(size, 3, 4, 4, 4);
    const uint32_t bx = 16, by = 16;
    std::mt19937_64 rng(seed);
    const size_t count = size_t(nx) * ny;
    const std::vector<float> grid = wl::jacobi_grid(rng, nx, ny);

    load_workload_ptx(dev, "jacobi2d");
    DevPtr a = dev.upload(grid);
    DevPtr b = dev.malloc(count * sizeof(float));
    const Dim3 blocks(wl::ceil_div(nx, bx), wl::ceil_div(ny, by));
    for (int it = 0; it < iters; ++it) {
      dev.set_launch_hint(2);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): JS: type 2, boundary lines shared with the neighbouring blocks
      dev.launch("jacobi_step", blocks, Dim3(bx, by), {arg(a), arg(b), arg(int32_t(nx)), arg(int32_t(ny))});
      std::swap(a, b);
    }
    std::vector<float> got = dev.download<float>(a, count);
    dev.free(a);
    dev.free(b);

    // Reference in float, same summation order (wl::jacobi_sweeps), so results
    // normally match bit for bit; tolerance 1e-4 relative + 1e-5 absolute anyway.
    const std::vector<float> cur = wl::jacobi_sweeps(grid, nx, ny, iters);
    std::vector<double> ref(cur.begin(), cur.end());
    return wl::check_floats("grid", got, ref, 1e-4, 1e-5);
  }
};

}  // namespace

std::unique_ptr<Workload> make_jacobi2d() { return std::make_unique<Jacobi2d>(); }

}  // namespace warptlm
