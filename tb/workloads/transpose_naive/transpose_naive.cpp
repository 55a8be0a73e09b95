// Host driver for transpose_naive: a seeded height x width float matrix (not
// square, not always a multiple of the tile), one launch, exact check (pure
// data movement).
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class TransposeNaive : public Workload {
 public:
  const char* name() const override { return "transpose_naive"; }
  const char* description() const override {
    return "32x32 shared-tile matrix transpose, unpadded (32-way bank conflicts on the column read)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 72, 320, 1024, 4096);
    const int height = wl::by_size(size, 40, 256, 1024, 2048);
    const uint32_t tdim = 32, trows = 8;
    std::mt19937_64 rng(seed);
    const size_t count = size_t(width) * height;
    std::vector<float> in(count);
    for (auto& v : in) v = wl::uniform_float(rng, -1000.0f, 1000.0f);

    dev.load_ptx(embedded_ptx("transpose_naive"), "transpose_naive.ptx");
    DevPtr din = dev.upload(in);
    DevPtr dout = dev.malloc(count * sizeof(float));
    dev.launch("transpose_naive", Dim3(wl::ceil_div(width, tdim), wl::ceil_div(height, tdim)), Dim3(tdim, trows),
               {arg(din), arg(dout), arg(int32_t(width)), arg(int32_t(height))});
    std::vector<float> out = dev.download<float>(dout, count);
    dev.free(din);
    dev.free(dout);

    // out is width x height: out[c][r] = in[r][c].
    std::vector<float> ref(count);
    for (int r = 0; r < height; ++r)
      for (int c = 0; c < width; ++c) ref[size_t(c) * height + r] = in[size_t(r) * width + c];
    return wl::check_exact("out", out, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_transpose_naive() { return std::make_unique<TransposeNaive>(); }

}  // namespace warptlm
