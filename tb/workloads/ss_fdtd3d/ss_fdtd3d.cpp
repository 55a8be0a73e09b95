// Host driver for ss_fdtd3d: a seeded padded volume in [-1, 1), one launch of
// ss_fdtd3d over 32x16-point columns (32x4 threads), every output point
// checked against a double-precision 25-point stencil.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsFdtd3d : public Workload {
 public:
  const char* name() const override { return "ss_fdtd3d"; }
  const char* description() const override {
    return "scratchpad-sharing FDTD3d (3840 B, 128 thr): radius-4 3-D stencil, 2-D slice + halo in shared memory, marching z";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int R = 4;
    const int nx = wl::by_size(size, 64, 256, 256, 512);
    const int ny = wl::by_size(size, 16, 128, 192, 512);
    const int nz = wl::by_size(size, 2, 1, 2, 16);
    const int px = nx + 2 * R, py = ny + 2 * R, pz = nz + 2 * R;
    const float c[5] = {-0.75f, 0.1f, 0.05f, 0.025f, 0.0125f};
    std::mt19937_64 rng(seed);
    std::vector<float> in(size_t(px) * py * pz);
    for (auto& v : in) v = wl::uniform_float(rng, -1.0f, 1.0f);
    const size_t nout = size_t(nx) * ny * nz;

    load_workload_ptx(dev, "ss_fdtd3d");
    DevPtr din = dev.upload(in), dout = dev.malloc(nout * sizeof(float));
    dev.launch("ss_fdtd3d", Dim3(uint32_t(nx / 32), uint32_t(ny / 16)), Dim3(32, 4),
               {arg(din), arg(dout), arg(int32_t(nx)), arg(int32_t(ny)), arg(int32_t(nz)), arg(c[0]), arg(c[1]),
                arg(c[2]), arg(c[3]), arg(c[4])});
    std::vector<float> out = dev.download<float>(dout, nout);
    dev.free(din);
    dev.free(dout);

    auto at = [&](int x, int y, int z) { return double(in[(size_t(z) * py + y) * px + x]); };
    std::vector<double> ref(nout);
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
          const int X = x + R, Y = y + R, Z = z + R;
          double v = c[0] * at(X, Y, Z);
          for (int r = 1; r <= R; ++r)
            v += c[r] * (at(X - r, Y, Z) + at(X + r, Y, Z) + at(X, Y - r, Z) + at(X, Y + r, Z) + at(X, Y, Z - r) +
                         at(X, Y, Z + r));
          ref[(size_t(z) * ny + y) * nx + x] = v;
        }
    // 25 float terms of magnitude <= 1.2 in all: 1e-5 absolute + 1e-5 relative.
    return wl::check_floats("out", out, ref, 1e-5, 1e-5);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_fdtd3d() { return std::make_unique<SsFdtd3d>(); }

}  // namespace warptlm
