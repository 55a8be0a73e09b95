// Host driver for ss_nqu: enumerates every valid placement of queens in the
// first k rows of an n x n board (n, k by size), one thread per placement,
// 64-thread blocks (the kernel searches the other n - k rows); checks the
// block totals and the board's known solution count exactly.
#include <cstdint>
#include <functional>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsNqu : public Workload {
 public:
  const char* name() const override { return "ss_nqu"; }
  const char* description() const override {
    return "scratchpad-sharing NQU (10496 B, 64 thr): n-queens DFS with per-thread stacks in shared memory";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t /*seed: the boards are fixed*/) override {
    const int n = wl::by_size(size, 8, 10, 11, 13);
    const int k = wl::by_size(size, 3, 5, 5, 5);
    const uint32_t all = (1u << n) - 1u;
    std::vector<uint32_t> pc, pl, pr;
    std::function<void(int, uint32_t, uint32_t, uint32_t)> place = [&](int row, uint32_t c, uint32_t l, uint32_t r) {
      if (row == k) {
        pc.push_back(c);
        pl.push_back(l);
        pr.push_back(r);
        return;
      }
      for (uint32_t avail = all & ~(c | l | r); avail; avail &= avail - 1) {
        const uint32_t b = avail & (0u - avail);
        place(row + 1, c | b, ((l | b) << 1) & all, (r | b) >> 1);
      }
    };
    place(0, 0, 0, 0);
    const int np = int(pc.size());
    const uint32_t blocks = wl::ceil_div(np, 64);

    load_workload_ptx(dev, "ss_nqu");
    DevPtr dc = dev.upload(pc), dl = dev.upload(pl), dr = dev.upload(pr);
    DevPtr dblk = dev.malloc(uint64_t(blocks) * 4);
    dev.launch("ss_nqueens", Dim3(blocks), Dim3(64),
               {arg(dc), arg(dl), arg(dr), arg(int32_t(np)), arg(int32_t(n)), arg(int32_t(n - k)), arg(dblk)});
    std::vector<uint32_t> blk = dev.download<uint32_t>(dblk, blocks);
    for (DevPtr q : {dc, dl, dr, dblk}) dev.free(q);

    std::function<uint32_t(uint32_t, uint32_t, uint32_t)> count = [&](uint32_t c, uint32_t l, uint32_t r) -> uint32_t {
      if (c == all) return 1;
      uint32_t s = 0;
      for (uint32_t avail = all & ~(c | l | r); avail; avail &= avail - 1) {
        const uint32_t b = avail & (0u - avail);
        s += count(c | b, ((l | b) << 1) & all, (r | b) >> 1);
      }
      return s;
    };
    std::vector<uint32_t> ref_blk(blocks, 0);
    uint64_t total = 0;
    for (int i = 0; i < np; ++i) {
      const uint32_t c = count(pc[i], pl[i], pr[i]);
      ref_blk[i / 64] += c;
      total += c;
    }
    const uint64_t known = n == 8 ? 92 : n == 10 ? 724 : n == 11 ? 2680 : 73712;  // OEIS A000170
    if (total != known) {
      WorkloadResult r;
      r.detail = "reference found " + std::to_string(total) + " solutions, expected " + std::to_string(known);
      return r;
    }
    WorkloadResult r = wl::check_exact("per_block", blk, ref_blk);
    if (r.verified)
      r.detail = std::to_string(n) + "-queens: " + std::to_string(total) + " solutions from " + std::to_string(np) +
                 " prefixes of " + std::to_string(k) + " rows";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_nqu() { return std::make_unique<SsNqu>(); }

}  // namespace warptlm
