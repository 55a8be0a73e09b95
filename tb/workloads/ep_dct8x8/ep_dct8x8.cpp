// Host drivers for the ep_dct8x8 kernels (seed 001's DCT and IDCT, SDK 2.2
// dct8x8's second kernel pair): ep_dct / ep_idct with the tile's row stride
// of 32 floats (the padding undone, Table 5's "*"), ep_dct_opt / ep_idct_opt
// with the SDK's 33. A seeded image in [-128, 128): the DCT's coefficients
// are checked against the direct 2-D formula in double; the IDCT is fed the
// float-rounded exact coefficients of the image and must give the image back.
#include <random>

#include "workloads/drivers.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class EpDct8x8 : public Workload {
 public:
  EpDct8x8(const char* name, bool inverse, bool padded) : name_(name), inverse_(inverse), padded_(padded) {}
  const char* name() const override { return name_; }
  const char* module() const override { return "ep_dct8x8"; }
  const char* description() const override {
    if (inverse_)
      return padded_ ? "8x8 inverse DCT of a 32 x 16 tile per block, SDK 2.2 dct8x8 kernel 2 with its padding (no conflicts)"
                     : "8x8 inverse DCT of a 32 x 16 tile per block, SDK 2.2 dct8x8 kernel 2 unpadded (seed 001's IDCT: "
                       "degree-8 row pass)";
    return padded_ ? "8x8 DCT of a 32 x 16 tile per block, SDK 2.2 dct8x8 kernel 2 with its padding (no conflicts)"
                   : "8x8 DCT of a 32 x 16 tile per block, SDK 2.2 dct8x8 kernel 2 unpadded (seed 001's DCT: degree-8 "
                     "row pass)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int width = wl::by_size(size, 64, 256, 512, 2048);    // multiple of 32; medium: Table 5's 16 x 32 grid
    const int height = wl::by_size(size, 32, 256, 512, 2048);  // multiple of 16
    std::mt19937_64 rng(seed);
    std::vector<float> img(size_t(width) * height);
    for (auto& v : img) v = wl::uniform_float(rng, -128.0f, 128.0f);
    const std::vector<double> coef = wl::dct8x8_reference(img, width, height);
    std::vector<float> in = img;
    if (inverse_) in.assign(coef.begin(), coef.end());

    load_workload_ptx(dev, module());
    DevPtr din = dev.upload(in), dout = dev.malloc(in.size() * sizeof(float));
    dev.launch(name_, Dim3(uint32_t(width / 32), uint32_t(height / 16)), Dim3(8, 4, 2),
               {arg(dout), arg(din), arg(int32_t(width))});
    std::vector<float> got = dev.download<float>(dout, in.size());
    dev.free(din);
    dev.free(dout);
    // Values up to ~1024 through two 8-term float passes: 4e-3 absolute + 1e-5 relative.
    if (inverse_) return wl::check_floats("pixel", got, std::vector<double>(img.begin(), img.end()), 1e-5, 4e-3);
    return wl::check_floats("coef", got, coef, 1e-5, 4e-3);
  }

 private:
  const char* name_;
  bool inverse_, padded_;
};

}  // namespace

std::unique_ptr<Workload> make_ep_dct() { return std::make_unique<EpDct8x8>("ep_dct", false, false); }
std::unique_ptr<Workload> make_ep_idct() { return std::make_unique<EpDct8x8>("ep_idct", true, false); }
std::unique_ptr<Workload> make_ep_dct_opt() { return std::make_unique<EpDct8x8>("ep_dct_opt", false, true); }
std::unique_ptr<Workload> make_ep_idct_opt() { return std::make_unique<EpDct8x8>("ep_idct_opt", true, true); }

}  // namespace warptlm
