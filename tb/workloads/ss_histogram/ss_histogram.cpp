// Host driver for ss_histogram: seeded 16-bit samples below 384 (a quarter of
// them from a few hot bins), ss_hist384 over a fixed grid with a grid-stride
// loop, then ss_hist_merge; checks every block's partial histogram and the
// merged one exactly.
#include <cstdint>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsHistogram : public Workload {
 public:
  const char* name() const override { return "ss_histogram"; }
  const char* description() const override {
    return "scratchpad-sharing histogram (9216 B, 192 thr): 384 bins, per-warp sub-histograms with shared atomics";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t bins = 384, block = 192;
    const uint32_t n = wl::by_size<uint32_t>(size, 6144, 131072, 524288, 8u << 20);
    const uint32_t grid = wl::by_size<uint32_t>(size, 6, 64, 96, 192);
    std::mt19937_64 rng(seed);
    std::vector<uint16_t> data(n);
    const uint16_t hot[4] = {0, 100, 255, 383};
    for (auto& v : data) {
      const uint64_t r = rng();
      v = (r & 3) == 0 ? hot[(r >> 2) & 3] : uint16_t((r >> 32) % bins);
    }

    load_workload_ptx(dev, "ss_histogram");
    DevPtr ddata = dev.upload(data);
    DevPtr dpart = dev.malloc(uint64_t(grid) * bins * 4), dbins = dev.malloc(bins * 4);
    dev.launch("ss_hist384", Dim3(grid), Dim3(block), {arg(ddata), arg(n), arg(dpart)});
    dev.launch("ss_hist_merge", Dim3(2), Dim3(block), {arg(dpart), arg(grid), arg(dbins)});
    std::vector<uint32_t> part = dev.download<uint32_t>(dpart, size_t(grid) * bins);
    std::vector<uint32_t> got = dev.download<uint32_t>(dbins, bins);
    for (DevPtr q : {ddata, dpart, dbins}) dev.free(q);

    std::vector<uint32_t> ref_part(size_t(grid) * bins, 0), ref(bins, 0);
    for (uint32_t i = 0; i < n; ++i) {
      ++ref_part[size_t((i / block) % grid) * bins + data[i]];
      ++ref[data[i]];
    }
    WorkloadResult r = wl::all_of({wl::check_exact("partial", part, ref_part), wl::check_exact("bin", got, ref)});
    if (r.verified) r.detail = "384 bins and " + std::to_string(grid) + " block partials match (" + std::to_string(n) + " samples)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_histogram() { return std::make_unique<SsHistogram>(); }

}  // namespace warptlm
