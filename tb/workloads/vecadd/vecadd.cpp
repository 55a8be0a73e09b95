// Host driver for vecadd: two seeded float vectors, one launch, exact check
// (a single IEEE float add rounds the same on host and device).
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class VecAdd : public Workload {
 public:
  const char* name() const override { return "vecadd"; }
  const char* description() const override {
    return "float vector add c = a + b, one thread per element (streaming, coalesced)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // n is deliberately not a multiple of the block so the tail block diverges.
    const int n = wl::by_size(size, 4000, 40000, 1000000, 10000000);
    const uint32_t block = 256;
    std::mt19937_64 rng(seed);
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
      a[i] = wl::uniform_float(rng, -100.0f, 100.0f);
      b[i] = wl::uniform_float(rng, -100.0f, 100.0f);
    }
    load_workload_ptx(dev, "vecadd");
    DevPtr da = dev.upload(a), db = dev.upload(b);
    DevPtr dc = dev.malloc(uint64_t(n) * sizeof(float));
    dev.launch("vecadd", Dim3(wl::ceil_div(n, block)), Dim3(block),
               {arg(da), arg(db), arg(dc), arg(int32_t(n))});
    std::vector<float> c = dev.download<float>(dc, n);
    dev.free(da);
    dev.free(db);
    dev.free(dc);
    std::vector<float> ref(n);
    for (int i = 0; i < n; ++i) ref[i] = a[i] + b[i];
    return wl::check_exact("c", c, ref);
  }
};

}  // namespace

std::unique_ptr<Workload> make_vecadd() { return std::make_unique<VecAdd>(); }

}  // namespace warptlm
