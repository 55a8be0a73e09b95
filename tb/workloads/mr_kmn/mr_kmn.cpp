// Host driver for mr_kmn: k-means as an application of a Mars-style MapReduce
// runtime (KMN in the Mars suite), with the runtime's phases as separate
// launches. The input is one record per point: a 24-byte key {point id, dim,
// K, cluster-id array} and a 24-byte value {points, centres, change flag},
// found through an int4 index {key offset, key size, value offset, value
// size}, as the runtime stores its input. Points are dim = 3 integers in
// [0, 100), point-major; there are K = 24 centres (the suite's description of
// KMN; its run script clusters 30000 such points, our large), the first K
// points to begin with, and every point starts in cluster 0.
//
// One clustering iteration = one MapReduce pass: map count, three prefix sums
// (key bytes, value bytes, pairs), map, the group phase's bitonic sort (one
// launch per (k, j) over the entries padded to a power of two), group marks,
// their prefix sum, group starts, then reduce (a thread per non-empty
// cluster). The host clears the change flag before a pass and reads it after,
// as the runtime's application loop does, and stops when no point moved or
// after a size-dependent number of passes (the application itself runs to
// convergence; the cap bounds the simulated time).
//
// Check: integer data, so exact. A CPU reference runs the same algorithm
// (ties keep the current centre; a centre with no points keeps its place;
// means by integer division) and after every pass the cluster ids, the centres,
// the change flag, the number of groups and the grouping of the sorted
// entries (cluster ids non-decreasing, every entry present once) must match;
// the map count's totals, read back as the runtime's host reads them, must be
// one 24-byte key and value per point.
#include <algorithm>
#include <cstring>
#include <random>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct KmnKey {  // as the kernel's KmnKey: 24 bytes
  int32_t point_id;
  int32_t dim;
  int32_t k;
  int32_t pad;
  uint64_t cluster_id;
};
struct KmnVal {  // as the kernel's KmnVal: 24 bytes
  uint64_t points;
  uint64_t centres;
  uint64_t change;
};
static_assert(sizeof(KmnKey) == 24 && sizeof(KmnVal) == 24, "record layout");

int sq_dist(const int32_t* a, const int32_t* b, int dim) {
  int d = 0;
  for (int i = 0; i < dim; ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return d;
}

class MrKmn : public Workload {
 public:
  const char* name() const override { return "mr_kmn"; }
  const char* description() const override {
    return "Mars-style MapReduce k-means: map count, scans, map, bitonic group sort, reduce per cluster";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 256, 2048, 8192, 30000);  // large: the suite's run script
    const int max_passes = wl::by_size(size, 2, 3, 3, 3);
    const int dim = 3, k = 24;
    const uint32_t block = mars::kBlock;
    const int npad = mars::padded(n);
    const int first = npad - n;  // padding entries sort first

    std::mt19937_64 rng(seed);
    std::vector<int32_t> points(size_t(n) * dim);
    for (auto& v : points) v = int32_t(wl::uniform_u32(rng, 100));
    std::vector<int32_t> centres(points.begin(), points.begin() + size_t(k) * dim);
    std::vector<int32_t> cid(n, 0);

    load_workload_ptx(dev, "mr_kmn");
    DevPtr dpoints = dev.upload(points);
    DevPtr dcentres = dev.upload(centres);
    DevPtr dcid = dev.upload(cid);
    DevPtr dchange = dev.malloc(sizeof(int32_t));
    std::vector<KmnKey> keys(n, KmnKey{0, dim, k, 0, dcid});
    for (int i = 0; i < n; ++i) keys[i].point_id = i;
    mars::MapInput in = mars::upload_records(dev, keys, std::vector<KmnVal>(n, KmnVal{dpoints, dcentres, dchange}));
    const uint64_t ni = uint64_t(n) * sizeof(int32_t);
    DevPtr dinter_keys = dev.malloc(uint64_t(n) * sizeof(KmnKey));
    DevPtr dinter_vals = dev.malloc(uint64_t(n) * sizeof(KmnVal));
    DevPtr dentries = dev.malloc(uint64_t(npad) * sizeof(mars::Entry));
    DevPtr dmarks = dev.malloc(ni), dslot = dev.malloc(ni), dstarts = dev.malloc(ni);

    // The CPU reference state, advanced alongside.
    std::vector<int32_t> ref_cid = cid, ref_centres = centres;
    WorkloadResult bad;
    int passes = 0;
    uint64_t moved_total = 0;
    bool changed = true;
    while (changed && passes < max_passes) {
      ++passes;
      const std::string at = " (pass " + std::to_string(passes) + ")";
      dev.memset(dchange, 0, sizeof(int32_t));
      dev.memset(dentries, 0xff, uint64_t(npad) * sizeof(mars::Entry));
      // Map: every record emits one pair of its own key and value sizes.
      mars::count(dev, "kmn", in);
      if (in.pair_total != n || in.key_total != n * int(sizeof(KmnKey)) ||
          in.val_total != n * int(sizeof(KmnVal))) {
        bad.detail = "map count" + at + ": " + std::to_string(in.pair_total) + " pairs, " +
                     std::to_string(in.key_total) + " key and " + std::to_string(in.val_total) +
                     " value bytes, expected " + std::to_string(n) + " records of 24 and 24";
        break;
      }
      mars::map(dev, "kmn", in, dinter_keys, dinter_vals, dentries);
      // Group: sort the entries by cluster id, then find the groups.
      mars::sort(dev, "kmn", dinter_keys, dentries, npad);
      const int groups = mars::group(dev, "kmn", dinter_keys, dentries, first, n, dmarks, dslot, dstarts);
      // Reduce.
      dev.launch("kmn_reduce", Dim3(wl::ceil_div(std::max(groups, 1), block)), Dim3(block),
                 {arg(dinter_keys), arg(dinter_vals), arg(dentries), arg(int32_t(first)), arg(dstarts),
                  arg(int32_t(groups)), arg(int32_t(n))});
      int32_t change = 0;
      dev.memcpy_d2h(&change, dchange, sizeof(int32_t));

      // Reference pass.
      bool ref_change = false;
      for (int p = 0; p < n; ++p) {
        const int32_t* pt = &points[size_t(p) * dim];
        int best = ref_cid[p];
        int best_dist = sq_dist(pt, &ref_centres[size_t(best) * dim], dim);
        for (int c = 0; c < k; ++c) {
          const int d = sq_dist(pt, &ref_centres[size_t(c) * dim], dim);
          if (d < best_dist) {
            best_dist = d;
            best = c;
          }
        }
        if (best != ref_cid[p]) {
          ref_change = true;
          ref_cid[p] = best;
          ++moved_total;
        }
      }
      std::vector<int64_t> sum(size_t(k) * dim, 0);
      std::vector<int> count(k, 0);
      for (int p = 0; p < n; ++p) {
        ++count[ref_cid[p]];
        for (int i = 0; i < dim; ++i) sum[size_t(ref_cid[p]) * dim + i] += points[size_t(p) * dim + i];
      }
      int ref_groups = 0;
      for (int c = 0; c < k; ++c) {
        if (count[c] == 0) continue;
        ++ref_groups;
        for (int i = 0; i < dim; ++i) ref_centres[size_t(c) * dim + i] = int32_t(sum[size_t(c) * dim + i] / count[c]);
      }

      // Compare.
      WorkloadResult r = wl::check_exact("cluster ids" + at, dev.download<int32_t>(dcid, n), ref_cid);
      if (r.verified) r = wl::check_exact("centres" + at, dev.download<int32_t>(dcentres, ref_centres.size()), ref_centres);
      if (r.verified && (change != 0) != ref_change) {
        r.verified = false;
        r.detail = "change flag" + at + ": " + std::to_string(change) + ", expected " + std::to_string(ref_change);
      }
      if (r.verified && groups != ref_groups) {
        r.verified = false;
        r.detail = "groups" + at + ": " + std::to_string(groups) + ", expected " + std::to_string(ref_groups);
      }
      if (r.verified) r = check_grouping(dev.download<mars::Entry>(dentries, npad), dev.download<KmnKey>(dinter_keys, n),
                                         ref_cid, first, at);
      if (!r.verified) {
        bad = r;
        break;
      }
      changed = ref_change;
    }
    in.free(dev);
    for (DevPtr p : {dpoints, dcentres, dcid, dchange, dinter_keys, dinter_vals, dentries, dmarks, dslot, dstarts})
      dev.free(p);
    if (!bad.detail.empty()) return bad;
    WorkloadResult r;
    r.verified = true;
    r.detail = std::to_string(n) + " points, " + std::to_string(k) + " centres: ids, centres and groups match over " +
               std::to_string(passes) + " passes (" + std::to_string(moved_total) + " moves)";
    return r;
  }

 private:
  // The sorted entries: the padding first, then every point once, in
  // non-decreasing cluster id.
  static WorkloadResult check_grouping(const std::vector<mars::Entry>& entries, const std::vector<KmnKey>& inter_keys,
                                       const std::vector<int32_t>& ref_cid, int first, const std::string& at) {
    WorkloadResult r;
    std::vector<char> seen(ref_cid.size(), 0);
    int prev = -1;
    for (size_t i = 0; i < entries.size(); ++i) {
      const mars::Entry& e = entries[i];
      const bool padding = e.x == -1;
      if (padding != (int(i) < first)) {
        r.detail = "sorted entry " + std::to_string(i) + at + (padding ? " is padding" : " should be padding");
        return r;
      }
      if (padding) continue;
      if (e.x < 0 || e.x % int(sizeof(KmnKey)) != 0 || size_t(e.x) / sizeof(KmnKey) >= inter_keys.size()) {
        r.detail = "sorted entry " + std::to_string(i) + at + ": key offset " + std::to_string(e.x);
        return r;
      }
      const int p = inter_keys[size_t(e.x) / sizeof(KmnKey)].point_id;
      if (p < 0 || size_t(p) >= ref_cid.size() || seen[p]) {
        r.detail = "sorted entry " + std::to_string(i) + at + ": point " + std::to_string(p) + " missing or twice";
        return r;
      }
      seen[p] = 1;
      if (ref_cid[p] < prev) {
        r.detail = "sorted entry " + std::to_string(i) + at + ": cluster " + std::to_string(ref_cid[p]) + " after " +
                   std::to_string(prev);
        return r;
      }
      prev = ref_cid[p];
    }
    r.verified = true;
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mr_kmn() { return std::make_unique<MrKmn>(); }

}  // namespace warptlm
