// Host driver for inline_math: n seeded float pairs in [-4, 4], a thread per element, blocks of 256; checked
// bit for bit against the CPU evaluating the same correctly rounded operations in the same order (std::fma,
// std::sqrt, division). No launch hint: the thesis's Table 6.2 does not list IM.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

float poly3(float x) { return std::fma(std::fma(std::fma(0.25f, x, -0.5f), x, 1.5f), x, 2.0f); }
float length2(float x, float y) { return std::sqrt(std::fma(x, x, y * y)); }
float lerp(float a, float b, float t) { return std::fma(t, b - a, a); }
float falloff(float x) { return 1.0f / std::fma(x, x, 1.0f); }

class InlineMath : public Workload {
 public:
  const char* name() const override { return "inline_math"; }
  const char* description() const override {
    return "elementwise math through inline device functions (Horner polynomial, length, lerp, ratios): two loads and a store a thread";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // the thesis's grid sizes run from 32 K to 1280 K threads (Table 4.2); kepler_k20x holds 28 K threads at
    // once (14 SMs x 2048), so small is 9 waves of blocks: at 32 K the run is one wave and its tail
    const uint32_t n = wl::by_size<uint32_t>(size, 8192, 262144, 1310720, 4194304);
    std::mt19937_64 rng(seed);
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = wl::uniform_float(rng, -4.0f, 4.0f);
      y[i] = wl::uniform_float(rng, -4.0f, 4.0f);
    }
    load_workload_ptx(dev, "inline_math");
    DevPtr dx = dev.upload(x), dy = dev.upload(y), dout = dev.malloc(uint64_t(n) * 4);
    dev.launch("inline_math", Dim3(wl::ceil_div(n, 256)), Dim3(256), {arg(dx), arg(dy), arg(dout), arg(int32_t(n))});
    const std::vector<float> got = dev.download<float>(dout, n);
    for (DevPtr p : {dx, dy, dout}) dev.free(p);

    std::vector<float> ref(n);
    for (uint32_t i = 0; i < n; ++i) {
      const float a = x[i], b = y[i], r = length2(a, b), w = falloff(a - b);
      ref[i] = lerp(poly3(a), poly3(b), w) + r / (r + 1.0f);
    }
    WorkloadResult res = wl::check_exact("element", got, ref);
    if (res.verified) res.detail = std::to_string(n) + " elements match bit for bit";
    return res;
  }
};

}  // namespace

std::unique_ptr<Workload> make_inline_math() { return std::make_unique<InlineMath>(); }

}  // namespace warptlm
