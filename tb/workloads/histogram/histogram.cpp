// Host driver for histogram: a seeded byte stream with a skewed distribution
// (a few hot values cause same-bin atomic contention), one launch of a fixed
// grid with a grid-stride loop, exact check of the 256 bins.
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Histogram : public Workload {
 public:
  const char* name() const override { return "histogram"; }
  const char* description() const override {
    return "256-bin byte histogram: shared-memory atomics per block, then global atomics";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = wl::by_size<uint32_t>(size, 8192, 131072, 2u << 20, 16u << 20);
    const uint32_t grid = wl::by_size<uint32_t>(size, 8, 16, 64, 128);
    const uint32_t block = 256;
    std::mt19937_64 rng(seed);
    const std::vector<uint8_t> data = wl::skewed_bytes(rng, n);  // a quarter from 4 hot values

    load_workload_ptx(dev, "histogram");
    DevPtr ddata = dev.upload(data);
    DevPtr dbins = dev.malloc(256 * sizeof(uint32_t));
    dev.memset(dbins, 0, 256 * sizeof(uint32_t));
    dev.set_launch_hint(3);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): HS: type 3, some common data
    dev.launch("histogram256", Dim3(grid), Dim3(block), {arg(ddata), arg(uint32_t(n)), arg(dbins)});
    std::vector<uint32_t> bins = dev.download<uint32_t>(dbins, 256);
    dev.free(ddata);
    dev.free(dbins);

    std::vector<uint32_t> ref(256, 0);
    for (uint8_t v : data) ++ref[v];
    WorkloadResult r = wl::check_exact("bin", bins, ref);
    if (r.verified) r.detail = "256 bins match (" + std::to_string(n) + " bytes)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_histogram() { return std::make_unique<Histogram>(); }

}  // namespace warptlm
