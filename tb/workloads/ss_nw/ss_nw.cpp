// Host driver for ss_nw: two seeded sequences over a 20-letter alphabet and a
// seeded symmetric substitution table give the n x n score matrix ref; the
// (n+1)^2 matrix M is preset on its first row and column; one launch of
// ss_nw_tiles per anti-diagonal of the 32x32 tile grid (2n/32 - 1 launches);
// M is checked exactly against the CPU recurrence.
#include <algorithm>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsNw : public Workload {
 public:
  const char* name() const override { return "ss_nw"; }
  const char* description() const override {
    return "scratchpad-sharing NW (8452 B, 32 thr): Needleman-Wunsch 32x32 tile wavefront, score and substitution tiles";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 64, 256, 512, 2048), ld = n + 1, tiles = n / 32;
    const int penalty = 10;
    std::mt19937_64 rng(seed);
    int table[20][20];
    for (int a = 0; a < 20; ++a)
      for (int b = 0; b <= a; ++b)
        table[a][b] = table[b][a] = a == b ? 4 + int(wl::uniform_u32(rng, 8)) : int(wl::uniform_u32(rng, 10)) - 4;
    std::vector<int> sa(n), sb(n);
    for (auto& v : sa) v = int(wl::uniform_u32(rng, 20));
    for (auto& v : sb) v = int(wl::uniform_u32(rng, 20));
    std::vector<int32_t> ref(size_t(n) * n), M(size_t(ld) * ld, 0);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ref[size_t(i) * n + j] = table[sa[i]][sb[j]];
    for (int k = 0; k <= n; ++k) {
      M[k] = -penalty * k;
      M[size_t(k) * ld] = -penalty * k;
    }

    load_workload_ptx(dev, "ss_nw");
    DevPtr dM = dev.upload(M), dref = dev.upload(ref);
    for (int d = 0; d < 2 * tiles - 1; ++d) {
      const int blocks = std::min(d, 2 * tiles - 2 - d) + 1;
      dev.launch("ss_nw_tiles", Dim3(uint32_t(blocks)), Dim3(32),
                 {arg(dM), arg(dref), arg(int32_t(n)), arg(int32_t(d)), arg(int32_t(penalty))});
    }
    std::vector<int32_t> got = dev.download<int32_t>(dM, M.size());
    dev.free(dM);
    dev.free(dref);

    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j)
        M[size_t(i) * ld + j] = std::max({M[size_t(i - 1) * ld + j - 1] + ref[size_t(i - 1) * n + j - 1],
                                          M[size_t(i - 1) * ld + j] - penalty, M[size_t(i) * ld + j - 1] - penalty});
    return wl::check_exact("M", got, M);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_nw() { return std::make_unique<SsNw>(); }

}  // namespace warptlm
