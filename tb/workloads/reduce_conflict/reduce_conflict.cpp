// Host driver for reduce_conflict: sums a seeded float vector with repeated
// launches of reduce_interleaved (each pass reduces every block's slice to one partial)
// until one value remains.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class ReduceConflict : public Workload {
 public:
  const char* name() const override { return "reduce_conflict"; }
  const char* description() const override {
    return "shared-memory tree reduction, interleaved addressing (bank conflicts), dynamic shared memory";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const uint32_t n = wl::by_size<uint32_t>(size, 1500, 20000, 300000, 3000000);
    const uint32_t block = 256;
    const uint32_t per_block = 1 * block;  // input elements one block reduces
    // Inputs are k/64 for integer k in [-64, 64]: every per-block partial sum
    // (at most 512 terms) is then exact in float whatever the order, so the
    // first-pass partials are checked exactly.
    std::mt19937_64 rng(seed);
    std::vector<float> in(n);
    for (auto& v : in) v = float(int(wl::uniform_u32(rng, 129)) - 64) / 64.0f;

    dev.load_ptx(embedded_ptx("reduce_conflict"), "reduce_conflict.ptx");
    DevPtr src = dev.upload(in);
    std::vector<DevPtr> owned{src};
    std::vector<float> first_pass;
    uint32_t count = n;
    do {
      const uint32_t blocks = wl::ceil_div(count, per_block);
      DevPtr dst = dev.malloc(uint64_t(blocks) * sizeof(float));
      owned.push_back(dst);
      dev.launch("reduce_interleaved", Dim3(blocks), Dim3(block), {arg(src), arg(dst), arg(uint32_t(count))},
                 block * uint32_t(sizeof(float)));
      if (count == n) first_pass = dev.download<float>(dst, blocks);
      src = dst;
      count = blocks;
    } while (count > 1);
    const float total = dev.download<float>(src, 1)[0];
    for (DevPtr p : owned) dev.free(p);

    // Reference: the same grouping in double (exact for these inputs).
    std::vector<float> ref_first(wl::ceil_div(n, per_block));
    double sum = 0.0, sumabs = 0.0;
    for (size_t b = 0; b < ref_first.size(); ++b) {
      double s = 0.0;
      for (size_t i = b * per_block; i < std::min<size_t>(n, (b + 1) * per_block); ++i) s += in[i];
      ref_first[b] = float(s);
      sum += s;
    }
    for (float v : in) sumabs += std::fabs(v);
    WorkloadResult partials = wl::check_exact("partial", first_pass, ref_first);
    if (!partials.verified) return partials;
    // Later passes add partials that may exceed float's exact range for huge
    // n: tolerance 1e-5 absolute + 1e-6 * sum |x| (normally the result is exact).
    WorkloadResult whole =
        wl::check_floats("sum", std::vector<float>{total}, std::vector<double>{sum}, 0.0, 1e-5 + 1e-6 * sumabs);
    if (!whole.verified) return whole;
    WorkloadResult r;
    r.verified = true;
    r.detail = std::to_string(ref_first.size()) + " block partials match; sum of " + std::to_string(n) +
               " elements = " + wl::fmt_float(total);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_reduce_conflict() { return std::make_unique<ReduceConflict>(); }

}  // namespace warptlm
