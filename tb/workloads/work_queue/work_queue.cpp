// Host driver for work_queue: seeded words, a zeroed item counter, one launch of
// a fixed grid of persistent blocks; exact check of every item's hashes, and of
// the counter: every item taken once, plus one look past the end per block.
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class WorkQueue : public Workload {
 public:
  const char* name() const override { return "work_queue"; }
  const char* description() const override {
    return "persistent blocks take items from a global queue (atomicAdd's returned value picks the item)";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t items = wl::by_size<uint32_t>(size, 48, 480, 3840, 30720);
    const uint32_t grid = wl::by_size<uint32_t>(size, 8, 30, 60, 120);
    const uint32_t item_len = 256, block = 128;
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> in(size_t(items) * item_len);
    for (uint32_t& v : in) v = uint32_t(rng());

    load_workload_ptx(dev, "work_queue");
    DevPtr din = dev.upload(in);
    DevPtr dout = dev.malloc(uint64_t(in.size()) * sizeof(uint32_t));
    DevPtr dnext = dev.malloc(sizeof(uint32_t));
    dev.memset(dnext, 0, sizeof(uint32_t));
    dev.launch("work_queue", Dim3(grid), Dim3(block),
               {arg(din), arg(dout), arg(dnext), arg(items), arg(item_len)});
    std::vector<uint32_t> out = dev.download<uint32_t>(dout, in.size());
    const uint32_t taken = dev.download<uint32_t>(dnext, 1)[0];
    dev.free(din);
    dev.free(dout);
    dev.free(dnext);

    std::vector<uint32_t> ref(in.size());
    for (uint32_t i = 0; i < items; ++i)
      for (uint32_t e = 0; e < item_len; ++e) {
        const uint32_t v = in[size_t(i) * item_len + e];
        uint32_t acc = i;
        for (uint32_t p = 0; p < i % 7 + 1; ++p) acc = acc * 2654435761u + (v ^ p);
        ref[size_t(i) * item_len + e] = acc;
      }
    if (taken != items + grid) {
      WorkloadResult r;
      r.verified = false;
      r.detail = "the item counter ends at " + std::to_string(taken) + ", not " + std::to_string(items + grid) +
                 " (each item once, and one look past the end per block)";
      return r;
    }
    WorkloadResult r = wl::check_exact("out", out, ref);
    if (r.verified) r.detail = std::to_string(items) + " items on " + std::to_string(grid) + " persistent blocks match";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_work_queue() { return std::make_unique<WorkQueue>(); }

}  // namespace warptlm
