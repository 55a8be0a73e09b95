// Host driver for fwt: 2^m integer-valued floats in [-2, 2] (every partial sum is an integer of at most
// 2^(m+1), exact in float, so any order of the butterflies gives the same bits), the chunk stages of
// 2^10 elements from shared memory, then one global launch per larger stage; exact check against the
// CPU's in-place transform. Every launch passes launch hint 3 (seed 004 Table 6.2: FW is type 3).
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Fwt : public Workload {
 public:
  const char* name() const override { return "fwt"; }
  const char* description() const override {
    return "fast Walsh-Hadamard transform (CUDA SDK fastWalshTransform's structure): chunk stages in shared memory, larger stages one launch each";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int log2n = wl::by_size(size, 12, 16, 20, 22);
    const int log2chunk = 10;
    const uint32_t n = 1u << log2n;
    std::mt19937_64 rng(seed);
    std::vector<float> x(n);
    for (float& v : x) v = float(int(rng() % 5) - 2);
    load_workload_ptx(dev, "fwt");
    DevPtr d = dev.upload(x);
    dev.set_launch_hint(3);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): FW: type 3, some common data
    dev.launch("fwt_chunk", Dim3(n >> log2chunk), Dim3(256), {arg(d), arg(int32_t(log2chunk))},
               (1u << log2chunk) * sizeof(float));
    const int pairs = int(n / 2);
    for (int h = 1 << log2chunk; h < int(n); h <<= 1)
      dev.launch("fwt_stage", Dim3(wl::ceil_div(pairs, 256)), Dim3(256), {arg(d), arg(int32_t(h)), arg(int32_t(pairs))});
    const std::vector<float> got = dev.download<float>(d, n);
    dev.free(d);

    std::vector<float> ref = x;
    for (uint32_t h = 1; h < n; h <<= 1)
      for (uint32_t i = 0; i < n; i += 2 * h)
        for (uint32_t j = i; j < i + h; ++j) {
          const float a = ref[j], b = ref[j + h];
          ref[j] = a + b;
          ref[j + h] = a - b;
        }
    WorkloadResult r = wl::check_exact("element", got, ref);
    if (r.verified) r.detail = std::to_string(n) + " elements match";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_fwt() { return std::make_unique<Fwt>(); }

}  // namespace warptlm
