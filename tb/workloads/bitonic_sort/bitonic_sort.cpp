// Host driver for bitonic_sort: n seeded 32-bit keys (n a power of two, at least one chunk of 1024) with
// their indices as values; the chunks sorted in shared memory, then per merge size the global steps and one
// shared-memory launch. Checked exactly: the keys against std::sort, and every value the index of a key equal
// to the one beside it, each index once (a bitonic network is not stable, so equal keys may swap values).
// Every launch passes launch hint 3 (seed 004 Table 6.2: BS is type 3).
#include <algorithm>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class BitonicSort : public Workload {
 public:
  const char* name() const override { return "bitonic_sort"; }
  const char* description() const override {
    return "key-value bitonic sort (CUDA SDK sortingNetworks' structure): 1024-pair chunks in shared memory, then global and shared merge steps";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    constexpr uint32_t kChunk = 1024, kThreads = kChunk / 2;
    const uint32_t n = wl::by_size<uint32_t>(size, 2048, 16384, 131072, 1u << 20);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> keys(n), vals(n);
    for (uint32_t i = 0; i < n; ++i) {
      keys[i] = wl::uniform_u32(rng, n);  // about a third of the keys repeat
      vals[i] = i;
    }
    load_workload_ptx(dev, "bitonic_sort");
    DevPtr kin = dev.upload(keys), vin = dev.upload(vals);
    DevPtr kout = dev.malloc(uint64_t(n) * 4), vout = dev.malloc(uint64_t(n) * 4);
    dev.set_launch_hint(3);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): BS: type 3
    dev.launch("bitonic_sort_chunks", Dim3(n / kChunk), Dim3(kThreads), {arg(kout), arg(vout), arg(kin), arg(vin)});
    for (uint32_t merge = 2 * kChunk; merge <= n; merge <<= 1) {
      for (uint32_t stride = merge / 2; stride >= kChunk; stride >>= 1)
        dev.launch("bitonic_merge_global", Dim3(wl::ceil_div(n / 2, 256)), Dim3(256),
                   {arg(kout), arg(vout), arg(n), arg(merge), arg(stride)});
      dev.launch("bitonic_merge_shared", Dim3(n / kChunk), Dim3(kThreads), {arg(kout), arg(vout), arg(merge)});
    }
    const std::vector<uint32_t> got_keys = dev.download<uint32_t>(kout, n), got_vals = dev.download<uint32_t>(vout, n);
    for (DevPtr p : {kin, vin, kout, vout}) dev.free(p);

    std::vector<uint32_t> ref = keys;
    std::sort(ref.begin(), ref.end());
    WorkloadResult r = wl::check_exact("key", got_keys, ref);
    if (!r.verified) return r;
    std::vector<char> seen(n, 0);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t v = got_vals[i];
      if (v >= n || seen[v] || keys[v] != got_keys[i]) {
        r.verified = false;
        r.detail = "value " + std::to_string(i) + " = " + std::to_string(v) + " is not the index of a key " +
                   std::to_string(got_keys[i]) + " (or is repeated)";
        return r;
      }
      seen[v] = 1;
    }
    r.detail = std::to_string(n) + " keys sorted, every value the index of its key";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_bitonic_sort() { return std::make_unique<BitonicSort>(); }

}  // namespace warptlm
