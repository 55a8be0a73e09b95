// Host driver for mr_pvc: page view count as an application of a Mars-style
// MapReduce runtime (PVC in the Mars suite: two passes). The web log is
// "URL\tIP\tcookie" entries, seeded: 512 URLs (64 sites x 8 pages) drawn with
// Zipf-like frequencies (1/rank), 1000 visitor IPs drawn uniformly, and one
// cookie per IP, so a page seen twice by the same visitor is a duplicate
// entry. The host ends every entry with '\0' (over its newline) and makes one
// record per entry: key {log, offset, hash}, value {phase 0, size}.
//   Pass 1: map count, three prefix sums, map (hash each entry), the bitonic
//   sort by (hash, entry), groups, reduce count and three prefix sums, reduce
//   (the first entry of each group, marked phase 1): the distinct entries.
//   Pass 2, on pass 1's output records: map count, prefix sums, map (end the
//   URL and IP in place, hash the URL), sort by (hash, URL), groups: a
//   group's size is its page's number of distinct visitors.
//
// Check: exact. The CPU dedups the entries and counts the distinct visitors
// per URL; the GPU's pass-1 group count must equal the distinct entries and
// its pass-2 groups, in (hash, URL) order, must name the same URLs with the
// same counts.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct PvcKey {  // as the kernel's PvcKey
  uint64_t log;
  int32_t offset;
  uint32_t hash;
};
struct PvcVal {  // as the kernel's PvcVal
  int32_t phase;
  int32_t size;
};
static_assert(sizeof(PvcKey) == 16 && sizeof(PvcVal) == 8, "record layout");

uint32_t pvc_hash(const char* s, int len) {  // as the kernel's
  uint32_t h = uint32_t(len);
  for (int i = 0; i < len; ++i) h = (h << 4) ^ (h >> 28) ^ uint32_t(static_cast<unsigned char>(s[i]));
  return h;
}

class MrPvc : public Workload {
 public:
  const char* name() const override { return "mr_pvc"; }
  const char* description() const override {
    return "Mars-style MapReduce page view count: dedup pass (hash, sort, reduce), then distinct visitors per URL";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int entries = wl::by_size(size, 256, 4096, 16384, 220000);

    // The log.
    std::mt19937_64 rng(seed);
    std::vector<double> weight(512);
    for (size_t r = 0; r < weight.size(); ++r) weight[r] = 1.0 / double(r + 1);
    std::discrete_distribution<int> pick_url(weight.begin(), weight.end());
    std::vector<char> log;
    std::vector<PvcVal> vals;
    std::vector<int32_t> offsets;
    std::set<std::string> distinct;
    std::map<std::string, std::set<int>> visitors;
    for (int e = 0; e < entries; ++e) {
      const int u = pick_url(rng), ip = int(wl::uniform_u32(rng, 1000));
      const std::string url = "http://www.site" + std::to_string(u / 8) + ".com/page" + std::to_string(u % 8) + ".html";
      const std::string addr = "10." + std::to_string(ip / 256) + "." + std::to_string(ip % 256) + "." +
                               std::to_string((ip * 37) % 251);
      const std::string entry = url + "\t" + addr + "\tid=" + std::to_string((ip * 2654435761u) % 1000003u);
      offsets.push_back(int32_t(log.size()));
      vals.push_back(PvcVal{0, int32_t(entry.size() + 1)});
      log.insert(log.end(), entry.begin(), entry.end());
      log.push_back('\0');
      distinct.insert(entry);
      visitors[url].insert(ip);
    }

    load_workload_ptx(dev, "mr_pvc");
    DevPtr dlog = dev.upload(log);
    std::vector<PvcKey> keys(entries);
    for (int e = 0; e < entries; ++e) keys[e] = PvcKey{dlog, offsets[e], 0};

    // Pass 1: the distinct entries.
    mars::MapInput m1 = mars::map_count(dev, "pvc", keys, vals);
    const mars::Grouped p1 = mars::map_and_group(dev, "pvc", m1);
    const int g1 = p1.groups;
    const uint64_t per = uint64_t(std::max(g1, 1)) * sizeof(int32_t);
    DevPtr rkb = dev.malloc(per), rvb = dev.malloc(per), rpairs = dev.malloc(per);
    DevPtr rko = dev.malloc(per), rvo = dev.malloc(per), rpo = dev.malloc(per);
    const Dim3 grid_g(wl::ceil_div(uint64_t(std::max(g1, 1)), mars::kBlock));
    dev.launch("pvc_reduce_count", grid_g, Dim3(mars::kBlock), {arg(rkb), arg(rvb), arg(rpairs), arg(int32_t(g1))});
    const int rk_total = mars::scan(dev, "pvc", rkb, rko, g1);
    const int rv_total = mars::scan(dev, "pvc", rvb, rvo, g1);
    const int r_pairs = mars::scan(dev, "pvc", rpairs, rpo, g1);
    DevPtr okeys = dev.malloc(std::max(rk_total, 16)), ovals = dev.malloc(std::max(rv_total, 8));
    DevPtr oindex = dev.malloc(uint64_t(std::max(r_pairs, 1)) * sizeof(mars::Entry));
    dev.launch("pvc_reduce", grid_g, Dim3(mars::kBlock),
               {arg(p1.keys), arg(p1.vals), arg(p1.entries), arg(int32_t(p1.first)), arg(p1.starts), arg(rko),
                arg(rvo), arg(rpo), arg(okeys), arg(ovals), arg(oindex), arg(int32_t(g1))});
    p1.free(dev);
    m1.free(dev);
    for (DevPtr p : {rkb, rvb, rpairs, rko, rvo, rpo}) dev.free(p);

    // Pass 2, on pass 1's output: distinct visitors per page.
    mars::MapInput m2 = mars::map_count_records(dev, "pvc", okeys, ovals, oindex, r_pairs);
    const mars::Grouped p2 = mars::map_and_group(dev, "pvc", m2);

    // Compare.
    WorkloadResult r;
    if (g1 != int(distinct.size())) {
      r.detail = "pass 1 groups (distinct entries): " + std::to_string(g1) + ", expected " +
                 std::to_string(distinct.size());
    } else if (p2.groups != int(visitors.size())) {
      r.detail = "pass 2 groups (pages): " + std::to_string(p2.groups) + ", expected " + std::to_string(visitors.size());
    } else {
      // The CPU's pages in the group order: (hash of the URL with its '\0', URL).
      std::vector<std::tuple<uint32_t, std::string, int>> ref;
      for (const auto& [url, ips] : visitors)
        ref.emplace_back(pvc_hash(url.c_str(), int(url.size() + 1)), url, int(ips.size()));
      std::sort(ref.begin(), ref.end());
      const std::vector<char> glog = dev.download<char>(dlog, log.size());
      const std::vector<mars::Entry> sorted = dev.download<mars::Entry>(p2.entries, p2.npad);
      const std::vector<PvcKey> gkeys = dev.download<PvcKey>(p2.keys, size_t(m2.key_total) / sizeof(PvcKey));
      const std::vector<int32_t> starts = dev.download<int32_t>(p2.starts, p2.groups);
      r.verified = true;
      for (int g = 0; g < p2.groups && r.verified; ++g) {
        const int begin = starts[g], end = g + 1 < p2.groups ? starts[g + 1] : m2.pair_total;
        const mars::Entry& e = sorted[size_t(p2.first + begin)];
        const size_t k = size_t(e.x) / sizeof(PvcKey);
        const std::string url = k < gkeys.size() ? std::string(&glog[size_t(gkeys[k].offset)]) : "<bad key>";
        if (url != std::get<1>(ref[g]) || end - begin != std::get<2>(ref[g])) {
          r.verified = false;
          r.detail = "page " + std::to_string(g) + ": " + url + " x " + std::to_string(end - begin) + ", expected " +
                     std::get<1>(ref[g]) + " x " + std::to_string(std::get<2>(ref[g]));
        }
      }
      if (r.verified)
        r.detail = std::to_string(entries) + " entries, " + std::to_string(g1) + " distinct, " +
                   std::to_string(p2.groups) + " pages: pages and visitor counts match";
    }
    p2.free(dev);
    m2.free(dev);
    dev.free(dlog);
    return r;
  }

};

}  // namespace

std::unique_ptr<Workload> make_mr_pvc() { return std::make_unique<MrPvc>(); }

}  // namespace warptlm
