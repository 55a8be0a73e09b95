// Host driver for ss_btree: a seeded B+ tree of order 256 over N distinct
// sorted keys, laid out as an array of fixed-size nodes in level order (root
// first), and a batch of range queries, one ss_find_range_k block each; every
// query's first record and range length checked exactly.
//
// Keys grow by 1..4 from a random start; record i holds key i. Leaves hold
// 128..255 consecutive keys (the fill of a tree of order 256 built by
// insertion), inner nodes 129..256 children; an inner node's key slot i holds
// the smallest key under child i, and every unused key slot holds INT_MAX, so
// exactly one thread brackets a key. A query takes a random record s and the
// record s + range (moved down if it runs off the end), as the study's b+tree
// input does with its range size.
#include <climits>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

constexpr int kOrder = 256;

// The kernel's node record (same layout: 4-byte fields, 2068 bytes).
struct KNode {
  int32_t location;
  int32_t indices[kOrder + 1];
  int32_t keys[kOrder + 1];
  bool is_leaf;
  int32_t num_keys;
};
static_assert(sizeof(KNode) == 2068, "KNode must match the kernel's layout");

class SsBtree : public Workload {
 public:
  const char* name() const override { return "ss_btree"; }
  const char* description() const override {
    return "Set-3 control b+tree (256 thr, no scratchpad): findRangeK, a block per range query walking two "
           "root-to-leaf paths";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 60000, 400000, 1000000, 1000000);
    // small and medium give every SM more blocks than it holds at once.
    const int queries = wl::by_size(size, 48, 512, 2048, 6000);
    const int range = wl::by_size(size, 500, 3000, 3000, 3000);
    std::mt19937_64 rng(seed);
    std::vector<int32_t> keys(n);
    int32_t k = int32_t(wl::uniform_u32(rng, 16));
    for (auto& v : keys) v = (k += 1 + int32_t(wl::uniform_u32(rng, 4)));

    // Levels bottom-up; each node is [first, last) over the level below
    // (records for leaves), with the smallest key under it.
    struct Span { int first, last; int32_t min_key; };
    std::vector<std::vector<Span>> levels;
    auto group = [&](int count, int lo, int hi, auto min_of) {
      std::vector<Span> level;
      for (int first = 0; first < count;) {
        int take = lo + int(wl::uniform_u32(rng, uint32_t(hi - lo + 1)));
        if (count - first - take < lo) take = count - first <= hi ? count - first : (count - first) / 2;
        level.push_back({first, first + take, min_of(first)});
        first += take;
      }
      return level;
    };
    levels.push_back(group(n, 128, kOrder - 1, [&](int i) { return keys[i]; }));
    while (levels.back().size() > 1) {
      const std::vector<Span>& below = levels.back();
      levels.push_back(group(int(below.size()), 129, kOrder, [&](int i) { return below[i].min_key; }));
    }
    // Level order, root first: the node index of the first node of each level.
    const int height = int(levels.size()) - 1;  // inner levels above the leaves
    std::vector<int> base(levels.size());
    int total = 0;
    for (int l = height; l >= 0; --l) {
      base[l] = total;
      total += int(levels[l].size());
    }
    std::vector<KNode> knodes(total);
    for (int l = height; l >= 0; --l)
      for (size_t j = 0; j < levels[l].size(); ++j) {
        const Span& s = levels[l][j];
        KNode& kn = knodes[base[l] + j];
        kn.location = int32_t(base[l] + j);
        kn.is_leaf = l == 0;
        kn.num_keys = s.last - s.first;
        for (int i = 0; i <= kOrder; ++i) {
          kn.keys[i] = INT_MAX;
          kn.indices[i] = 0;
        }
        for (int i = 0; i < s.last - s.first; ++i) {
          const int c = s.first + i;
          kn.keys[i] = l == 0 ? keys[c] : levels[l - 1][c].min_key;
          kn.indices[i] = l == 0 ? c : base[l - 1] + c;
        }
      }

    std::vector<int32_t> start(queries), end(queries), ref_start(queries), ref_len(queries, range + 1);
    for (int q = 0; q < queries; ++q) {
      const int s = std::min(int(wl::uniform_u32(rng, uint32_t(n))), n - 1 - range);
      start[q] = keys[s];
      end[q] = keys[s + range];
      ref_start[q] = s;
    }

    load_workload_ptx(dev, "ss_btree");
    DevPtr dknodes = dev.malloc(knodes.size() * sizeof(KNode));
    dev.memcpy_h2d(dknodes, knodes.data(), knodes.size() * sizeof(KNode));
    const std::vector<int64_t> zeros(queries, 0);
    DevPtr dcurr = dev.upload(zeros), doffset = dev.upload(zeros), dlast = dev.upload(zeros), doffset2 = dev.upload(zeros);
    DevPtr dstart = dev.upload(start), dend = dev.upload(end);
    DevPtr drecstart = dev.upload(std::vector<int32_t>(queries, 0)), dreclen = dev.upload(std::vector<int32_t>(queries, 0));
    dev.launch("ss_find_range_k", Dim3(uint32_t(queries)), Dim3(kOrder),
               {arg(int64_t(height)), arg(dknodes), arg(int64_t(total)), arg(dcurr), arg(doffset), arg(dlast),
                arg(doffset2), arg(dstart), arg(dend), arg(drecstart), arg(dreclen)});
    const std::vector<int32_t> got_start = dev.download<int32_t>(drecstart, queries);
    const std::vector<int32_t> got_len = dev.download<int32_t>(dreclen, queries);
    for (DevPtr p : {dknodes, dcurr, doffset, dlast, doffset2, dstart, dend, drecstart, dreclen}) dev.free(p);

    WorkloadResult r =
        wl::all_of({wl::check_exact("recstart", got_start, ref_start), wl::check_exact("reclen", got_len, ref_len)});
    if (r.verified)
      r.detail += " (" + std::to_string(total) + " nodes, height " + std::to_string(height) + ", " + std::to_string(n) +
                  " keys)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_btree() { return std::make_unique<SsBtree>(); }

}  // namespace warptlm
