// Host driver for nw: two seeded DNA-like sequences (alphabet of 4), the
// score matrix's first row and column set to -gap * index, then one
// nw_tile_diagonal launch per anti-diagonal of 16x16 tiles. Exact check of the
// whole matrix against the CPU recurrence.
#include <algorithm>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class Nw : public Workload {
 public:
  const char* name() const override { return "nw"; }
  const char* description() const override {
    return "Needleman-Wunsch integer wavefront over 16x16 tiles, one launch per tile anti-diagonal";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int tile = 16;
    const int n = wl::by_size(size, 64, 256, 1024, 3072);  // multiple of the tile
    const int tiles = n / tile;
    const int match = 3, mismatch = -1, gap = 2;
    std::mt19937_64 rng(seed);
    std::vector<int32_t> a(n), b(n);
    for (auto& v : a) v = int32_t(wl::uniform_u32(rng, 4));
    for (auto& v : b) v = int32_t(wl::uniform_u32(rng, 4));
    const size_t ld = size_t(n) + 1;
    std::vector<int32_t> score(ld * ld, 0);
    for (size_t i = 0; i < ld; ++i) {
      score[i * ld] = -gap * int32_t(i);
      score[i] = -gap * int32_t(i);
    }

    load_workload_ptx(dev, "nw");
    DevPtr dscore = dev.upload(score), da = dev.upload(a), db = dev.upload(b);
    for (int diag = 0; diag < 2 * tiles - 1; ++diag) {
      const int first = std::max(0, diag - (tiles - 1));
      const int last = std::min(diag, tiles - 1);
      dev.launch("nw_tile_diagonal", Dim3(uint32_t(last - first + 1)), Dim3(uint32_t(tile)),
                 {arg(dscore), arg(da), arg(db), arg(int32_t(n)), arg(int32_t(diag)), arg(int32_t(match)),
                  arg(int32_t(mismatch)), arg(int32_t(gap))});
    }
    std::vector<int32_t> got = dev.download<int32_t>(dscore, ld * ld);
    for (DevPtr p : {dscore, da, db}) dev.free(p);

    std::vector<int32_t>& ref = score;
    for (size_t i = 1; i < ld; ++i)
      for (size_t j = 1; j < ld; ++j) {
        const int32_t d = ref[(i - 1) * ld + j - 1] + (a[i - 1] == b[j - 1] ? match : mismatch);
        const int32_t up = ref[(i - 1) * ld + j] - gap;
        const int32_t left = ref[i * ld + j - 1] - gap;
        ref[i * ld + j] = std::max(d, std::max(up, left));
      }
    WorkloadResult r = wl::check_exact("score", got, ref);
    if (r.verified)
      r.detail += " (" + std::to_string(2 * tiles - 1) + " diagonal launches, alignment score " +
                  std::to_string(ref.back()) + ")";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_nw() { return std::make_unique<Nw>(); }

}  // namespace warptlm
