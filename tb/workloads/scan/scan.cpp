// Host driver for scan: exclusive prefix sum of seeded unsigned values. Levels
// of scan_blocks (one per 256-element slice), recursing on the slice totals
// until one block holds them all, then add_offsets back down: several
// launches of two kernels. Exact check.
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

constexpr uint32_t kScanBlock = 128;             // threads per block (SCAN_BLOCK in scan.cu)
constexpr uint32_t kPerBlock = 2 * kScanBlock;   // elements per block

class Scan : public Workload {
 public:
  const char* name() const override { return "scan"; }
  const char* description() const override {
    return "exclusive prefix sum: Blelloch block scan in shared memory + block-offset kernel, recursive launches";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = wl::by_size<uint32_t>(size, 1000, 20000, 262144 + 77, 2u << 20);
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> in(n);
    for (auto& v : in) v = wl::uniform_u32(rng, 16);

    load_workload_ptx(dev, "scan");
    DevPtr din = dev.upload(in);
    DevPtr dout = dev.malloc(uint64_t(n) * sizeof(uint32_t));
    owned_ = {din, dout};
    launches_ = 0;
    scan_device(dev, din, dout, n);
    std::vector<uint32_t> out = dev.download<uint32_t>(dout, n);
    for (DevPtr p : owned_) dev.free(p);

    std::vector<uint32_t> ref(n);
    uint32_t acc = 0;
    for (uint32_t i = 0; i < n; ++i) {
      ref[i] = acc;
      acc += in[i];
    }
    WorkloadResult r = wl::check_exact("prefix", out, ref);
    if (r.verified) r.detail += " (" + std::to_string(launches_) + " launches)";
    return r;
  }

 private:
  // Exclusive scan of n elements from in to out on the device.
  void scan_device(Device& dev, DevPtr in, DevPtr out, uint32_t n) {
    const uint32_t blocks = wl::ceil_div(n, kPerBlock);
    DevPtr sums = dev.malloc(uint64_t(blocks) * sizeof(uint32_t));
    owned_.push_back(sums);
    dev.set_launch_hint(3);  // seed 004 Table 6.2 / 6.1 hint (read only by locality-aware scheduling): SC: type 3, some common data
    dev.launch("scan_blocks", Dim3(blocks), Dim3(kScanBlock), {arg(in), arg(out), arg(sums), arg(uint32_t(n))});
    ++launches_;
    if (blocks == 1) return;
    DevPtr scanned = dev.malloc(uint64_t(blocks) * sizeof(uint32_t));
    owned_.push_back(scanned);
    scan_device(dev, sums, scanned, blocks);
    dev.launch("add_offsets", Dim3(blocks), Dim3(kScanBlock), {arg(out), arg(scanned), arg(uint32_t(n))});
    ++launches_;
  }

  std::vector<DevPtr> owned_;
  int launches_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_scan() { return std::make_unique<Scan>(); }

}  // namespace warptlm
