// Host drivers for the ep_dct_short kernels (seed 001's DCT_short and
// IDCT_short, SDK 2.2 dct8x8's short-integer kernels): ep_dct_short /
// ep_idct_short with the tile's row stride of 32 shorts (the padding undone,
// Table 5's "*"), the `_opt` pair with the SDK's 34. The DCT gets a seeded
// image in [-128, 128); the IDCT the rounded DCT of one. The CPU reference
// runs each 8x8 block's row pass, rounds to the nearest integer, runs the
// column pass and rounds, in double; the kernel computes each pass in float,
// so a value within float error of a tie may round the other way: a pixel or
// coefficient may differ by up to 2.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

std::vector<double> short_reference(const std::vector<int16_t>& in, int width, int height, bool inverse) {
  double c[8][8];  // c[k][n] = c(k) cos((2n + 1) k pi / 16)
  for (int k = 0; k < 8; ++k)
    for (int n = 0; n < 8; ++n)
      c[k][n] = (k == 0 ? std::sqrt(1.0 / 8.0) : 0.5) * std::cos((2 * n + 1) * k * 3.14159265358979323846 / 16.0);
  auto pass = [&](const double* x, size_t step, double* y) {
    for (int o = 0; o < 8; ++o) {
      double s = 0.0;
      for (int i = 0; i < 8; ++i) s += (inverse ? c[i][o] : c[o][i]) * x[i * step];
      y[o] = std::nearbyint(s);
    }
  };
  std::vector<double> v(in.begin(), in.end()), out(in.size());
  double tmp[8];
  for (int by = 0; by < height; by += 8)
    for (int bx = 0; bx < width; bx += 8) {
      for (int r = 0; r < 8; ++r) {  // rows
        double* p = &v[size_t(by + r) * width + bx];
        pass(p, 1, tmp);
        std::copy(tmp, tmp + 8, p);
      }
      for (int k = 0; k < 8; ++k) {  // columns
        double* p = &v[size_t(by) * width + bx + k];
        pass(p, size_t(width), tmp);
        for (int r = 0; r < 8; ++r) out[size_t(by + r) * width + bx + k] = tmp[r];
      }
    }
  return out;
}

class EpDctShort : public Workload {
 public:
  EpDctShort(const char* name, bool inverse, bool padded) : name_(name), inverse_(inverse), padded_(padded) {}
  const char* name() const override { return name_; }
  const char* module() const override { return "ep_dct_short"; }
  const char* description() const override {
    if (inverse_)
      return padded_ ? "8x8 inverse DCT of 16-bit pixels, 32 x 32 tile per block, SDK 2.2 short kernel with its padding"
                     : "8x8 inverse DCT of 16-bit pixels, 32 x 32 tile per block, SDK 2.2 short kernel unpadded (seed "
                       "001's IDCT_short)";
    return padded_ ? "8x8 DCT of 16-bit pixels, 32 x 32 tile per block, SDK 2.2 short kernel with its padding"
                   : "8x8 DCT of 16-bit pixels, 32 x 32 tile per block, SDK 2.2 short kernel unpadded (seed 001's "
                     "DCT_short)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 64, 256, 512, 2048);   // multiple of 32; medium: Table 5's 16 x 16 grid
    const int height = wl::by_size(size, 32, 256, 512, 2048);  // multiple of 32
    std::mt19937_64 rng(seed);
    std::vector<int16_t> in(size_t(width) * height);
    for (auto& v : in) v = int16_t(int(wl::uniform_u32(rng, 256)) - 128);
    if (inverse_) {  // the rounded coefficients of the image
      const std::vector<double> coef = short_reference(in, width, height, false);
      for (size_t i = 0; i < in.size(); ++i) in[i] = int16_t(coef[i]);
    }

    load_workload_ptx(dev, module());
    DevPtr din = dev.upload(in), dout = dev.malloc(in.size() * sizeof(int16_t));
    dev.launch(name_, Dim3(uint32_t(width / 32), uint32_t(height / 32)), Dim3(8, 4, 4),
               {arg(dout), arg(din), arg(int32_t(width))});
    std::vector<int16_t> got16 = dev.download<int16_t>(dout, in.size());
    dev.free(din);
    dev.free(dout);
    const std::vector<float> got(got16.begin(), got16.end());
    return wl::check_floats(inverse_ ? "pixel" : "coef", got, short_reference(in, width, height, inverse_), 0.0, 2.0);
  }

 private:
  const char* name_;
  bool inverse_, padded_;
};

}  // namespace

std::unique_ptr<Workload> make_ep_dct_short() { return std::make_unique<EpDctShort>("ep_dct_short", false, false); }
std::unique_ptr<Workload> make_ep_idct_short() { return std::make_unique<EpDctShort>("ep_idct_short", true, false); }
std::unique_ptr<Workload> make_ep_dct_short_opt() { return std::make_unique<EpDctShort>("ep_dct_short_opt", false, true); }
std::unique_ptr<Workload> make_ep_idct_short_opt() {
  return std::make_unique<EpDctShort>("ep_idct_short_opt", true, true);
}

}  // namespace warptlm
