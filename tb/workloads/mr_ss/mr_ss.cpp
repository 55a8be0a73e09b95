// Host driver for mr_ss: similarity score as an application of a Mars-style
// MapReduce runtime (SS in the Mars suite: map and group). The documents are
// the rows of a docs x dim float matrix of integers in [0, 100), seeded (the
// suite draws rand() % 100); one record per document pair i < j, in row
// order, as the application adds them. Pipeline: map count, three prefix
// sums, map, the bitonic sort of the entries by score, group marks, their
// prefix sum, group starts. Sizes: 1024 x 256 at large is the suite's run
// script (523,776 pairs; Table II's 23 MB).
//
// Check: exact. Every product and sum the map forms is an integer below 2^24,
// so the dot product and both squared norms are exact in float in any order;
// the score is then sqrt, sqrt, multiply and divide, each correctly rounded,
// which the CPU repeats. The sorted entries must hold every pair once with
// its score, scores non-decreasing, and the groups must be the distinct scores.
#include <algorithm>
#include <cmath>
#include <random>
#include <tuple>

#include "workloads/mars_host.hpp"
#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

struct SsVal {  // as the kernel's SsVal
  int32_t doc1, doc2, dim;
  float result;
};
struct DocPair {
  int32_t doc1, doc2;
};

class MrSs : public Workload {
 public:
  const char* name() const override { return "mr_ss"; }
  const char* description() const override {
    return "Mars-style MapReduce similarity score: cosine of every document pair (float4 rows), sorted by score";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int docs = wl::by_size(size, 32, 128, 256, 1024);
    const int dim = wl::by_size(size, 64, 256, 256, 256);

    std::mt19937_64 rng(seed);
    std::vector<float> matrix(size_t(docs) * dim);
    for (auto& v : matrix) v = float(wl::uniform_u32(rng, 100));
    std::vector<SsVal> vals;
    using Scored = std::tuple<float, int32_t, int32_t>;
    std::vector<Scored> ref;
    for (int i = 0; i < docs; ++i)
      for (int j = i + 1; j < docs; ++j) {
        vals.push_back(SsVal{i, j, dim, 0.0f});
        float up = 0.0f, d1 = 0.0f, d2 = 0.0f;  // integers below 2^24: exact
        for (int k = 0; k < dim; ++k) {
          const float x = matrix[size_t(i) * dim + k], y = matrix[size_t(j) * dim + k];
          up += x * y;
          d1 += x * x;
          d2 += y * y;
        }
        const float down = std::sqrt(d1) * std::sqrt(d2);
        ref.emplace_back(up / down, i, j);
      }
    std::sort(ref.begin(), ref.end());
    int distinct = 0;
    for (size_t i = 0; i < ref.size(); ++i) distinct += i == 0 || std::get<0>(ref[i]) != std::get<0>(ref[i - 1]);

    load_workload_ptx(dev, "mr_ss");
    DevPtr dmatrix = dev.upload(matrix);
    const mars::MapInput in = mars::map_count(dev, "ss", std::vector<uint64_t>(vals.size(), dmatrix), vals);
    const mars::Grouped g = mars::map_and_group(dev, "ss", in);
    const int pairs = g.pairs, npad = g.npad, first = g.first, groups = g.groups;

    const std::vector<mars::Entry> sorted = dev.download<mars::Entry>(g.entries, npad);
    const std::vector<float> scores = dev.download<float>(g.keys, size_t(pairs));
    const std::vector<DocPair> docs_of = dev.download<DocPair>(g.vals, size_t(pairs));
    WorkloadResult r;
    std::vector<Scored> got;
    bool ordered = true;
    for (int i = first; i < npad; ++i) {
      const mars::Entry& e = sorted[size_t(i)];
      if (e.x < 0 || size_t(e.x) / 4 >= scores.size() || e.z < 0 || size_t(e.z) / 8 >= docs_of.size()) break;
      const DocPair& d = docs_of[size_t(e.z) / 8];
      got.emplace_back(scores[size_t(e.x) / 4], d.doc1, d.doc2);
      if (got.size() > 1 && std::get<0>(got[got.size() - 2]) > std::get<0>(got.back())) ordered = false;
    }
    std::sort(got.begin(), got.end());
    if (got.size() != ref.size()) {
      r.detail = "sorted entries: " + std::to_string(got.size()) + " readable, expected " + std::to_string(ref.size());
    } else if (!ordered) {
      r.detail = "sorted entries: scores out of order";
    } else if (got != ref) {
      r.detail = "scores or document pairs differ from the CPU's";
    } else if (groups != distinct) {
      r.detail = "groups: " + std::to_string(groups) + ", expected " + std::to_string(distinct) + " distinct scores";
    } else {
      r.verified = true;
      r.detail = std::to_string(pairs) + " pairs of " + std::to_string(docs) + " documents: every score bit for bit, " +
                 "sorted, " + std::to_string(groups) + " distinct";
    }
    in.free(dev);
    g.free(dev);
    dev.free(dmatrix);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_mr_ss() { return std::make_unique<MrSs>(); }

}  // namespace warptlm
