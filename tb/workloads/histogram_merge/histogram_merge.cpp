// Host driver for histogram_merge: a seeded byte stream (a quarter of it from 4 hot values), the partial
// histograms of `histograms` blocks (phase 1), merged by 256 blocks of 256 threads (phase 2); exact check
// of the 256 bins. Both launches pass launch hint 3 (seed 004 Table 6.2: HS shares some data among blocks).
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class HistogramMerge : public Workload {
 public:
  const char* name() const override { return "histogram_merge"; }
  const char* description() const override {
    return "256-bin histogram in two phases (CUDA SDK histogram256): per-block partial histograms, then a block per bin merging them";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = wl::by_size<uint32_t>(size, 16384, 262144, 2u << 20, 16u << 20);
    const uint32_t histograms = wl::by_size<uint32_t>(size, 16, 64, 240, 480);
    std::mt19937_64 rng(seed);
    const std::vector<uint8_t> data = wl::skewed_bytes(rng, n);
    load_workload_ptx(dev, "histogram_merge");
    DevPtr ddata = dev.upload(data);
    DevPtr dpartial = dev.malloc(uint64_t(histograms) * 256 * sizeof(uint32_t));
    DevPtr dbins = dev.malloc(256 * sizeof(uint32_t));
    dev.set_launch_hint(3);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): HS: type 3, some common data
    dev.launch("histogram256_partial", Dim3(histograms), Dim3(192), {arg(ddata), arg(n), arg(dpartial)});
    dev.launch("merge_histogram256", Dim3(256), Dim3(256), {arg(dpartial), arg(histograms), arg(dbins)});
    const std::vector<uint32_t> partial = dev.download<uint32_t>(dpartial, size_t(histograms) * 256);
    const std::vector<uint32_t> bins = dev.download<uint32_t>(dbins, 256);
    for (DevPtr p : {ddata, dpartial, dbins}) dev.free(p);

    // The reference: the same partition of the input (block b takes i = b * 192 + t + k * 192 * histograms).
    std::vector<uint32_t> ref_partial(size_t(histograms) * 256, 0), ref(256, 0);
    for (uint32_t i = 0; i < n; ++i) ++ref_partial[size_t((i / 192) % histograms) * 256 + data[i]];
    for (uint8_t v : data) ++ref[v];
    WorkloadResult r = wl::all_of({wl::check_exact("partial", partial, ref_partial), wl::check_exact("bin", bins, ref)});
    if (r.verified) r.detail = "256 bins and " + std::to_string(histograms) + " partial histograms match";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_histogram_merge() { return std::make_unique<HistogramMerge>(); }

}  // namespace warptlm
