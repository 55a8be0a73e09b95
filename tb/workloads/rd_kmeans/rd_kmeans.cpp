// Host driver for rd_kmeans, following the structure of Rodinia's CUDA k-means:
// the points arrive point-major (features[p][f], as read from its input file),
// kmeans_invert_mapping runs once to lay them out feature-major on the device
// (features[f * npoints + p]), the first nclusters points are the initial
// centres, and each clustering iteration uploads the centres, launches
// kmeans_point (a thread per point, 256 per block: nearest centre by squared
// distance, over every cluster and feature, from global memory; no shared
// memory), reads membership back, counts the changed memberships (delta) and
// recomputes each centre on the CPU as the mean of its members (a centre with
// no members keeps its place). A fixed number of iterations runs (Rodinia
// loops until delta falls under a threshold, up to 500 times).
//
// Exact check: features are multiples of 1/256 in [0, 1) and the host rounds
// each new centre to the nearest multiple of 1/256, so every difference, square
// and partial sum of the kernel is a multiple of 2^-16 below 2^8 and exact in
// float (any order, fused or not); the CPU reference (same arithmetic in
// double) then picks the same nearest centre, ties to the lower index as the
// kernel's strict <, and membership is compared exactly after every
// iteration, as is the transposed feature array. The rounding of the centres
// is ours (Rodinia keeps the float mean); it keeps the comparison exact.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class RdKmeans : public Workload {
 public:
  const char* name() const override { return "rd_kmeans"; }
  const char* description() const override {
    return "Rodinia k-means: feature-major points, thread per point over clusters x features, CPU centre update";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int npoints = wl::by_size(size, 600, 4096, 16384, 131072);
    const int nfeatures = wl::by_size(size, 8, 34, 34, 34);  // 34: Rodinia's kdd_cup inputs
    const int nclusters = 5;                                  // Rodinia's default
    const int iterations = wl::by_size(size, 2, 3, 3, 3);
    const uint32_t block = 256;
    const double q = 256.0;  // value grid: multiples of 1/q

    // Points scattered around nclusters seeded blob centres (uniform noise),
    // all on the 1/256 grid in [0, 255/256].
    std::mt19937_64 rng(seed);
    std::vector<double> blob(size_t(nclusters) * nfeatures);
    for (auto& v : blob) v = 0.15 + 0.7 * wl::unit_float(rng);
    std::vector<float> points(size_t(npoints) * nfeatures);  // point-major, as in the input file
    for (int p = 0; p < npoints; ++p) {
      const int b = int(wl::uniform_u32(rng, uint32_t(nclusters)));
      for (int f = 0; f < nfeatures; ++f) {
        const double v = blob[size_t(b) * nfeatures + f] + wl::uniform_float(rng, -0.2f, 0.2f);
        const double k = std::fmin(std::fmax(std::floor(v * q), 0.0), q - 1.0);
        points[size_t(p) * nfeatures + f] = float(k / q);
      }
    }
    std::vector<float> centres(size_t(nclusters) * nfeatures);
    for (int c = 0; c < nclusters; ++c)
      for (int f = 0; f < nfeatures; ++f) centres[size_t(c) * nfeatures + f] = points[size_t(c) * nfeatures + f];

    load_workload_ptx(dev, "rd_kmeans");
    const Dim3 grid(wl::ceil_div(npoints, block));
    DevPtr din = dev.upload(points);
    DevPtr dfeat = dev.malloc(uint64_t(npoints) * nfeatures * sizeof(float));
    DevPtr dclusters = dev.malloc(uint64_t(nclusters) * nfeatures * sizeof(float));
    DevPtr dmember = dev.malloc(uint64_t(npoints) * sizeof(int32_t));
    dev.launch("kmeans_invert_mapping", grid, Dim3(block),
               {arg(din), arg(dfeat), arg(int32_t(npoints)), arg(int32_t(nfeatures))});
    std::vector<float> flipped = dev.download<float>(dfeat, size_t(npoints) * nfeatures);
    std::vector<float> ref_flipped(flipped.size());
    for (int p = 0; p < npoints; ++p)
      for (int f = 0; f < nfeatures; ++f) ref_flipped[size_t(f) * npoints + p] = points[size_t(p) * nfeatures + f];
    WorkloadResult flip_check = wl::check_exact("features", flipped, ref_flipped);

    std::vector<int32_t> ref_member(npoints, -1), prev(npoints, -1);
    WorkloadResult member_check;
    member_check.verified = true;
    uint64_t changed_total = 0;
    for (int it = 0; it < iterations && flip_check.verified; ++it) {
      dev.memcpy_h2d(dclusters, centres.data(), centres.size() * sizeof(float));
      dev.launch("kmeans_point", grid, Dim3(block),
                 {arg(dfeat), arg(dclusters), arg(dmember), arg(int32_t(npoints)), arg(int32_t(nclusters)),
                  arg(int32_t(nfeatures))});
      std::vector<int32_t> member = dev.download<int32_t>(dmember, npoints);

      // Reference assignment with the same centres, in double (exact here).
      for (int p = 0; p < npoints; ++p) {
        int best = -1;
        double best_dist = 0.0;
        for (int c = 0; c < nclusters; ++c) {
          double dist = 0.0;
          for (int f = 0; f < nfeatures; ++f) {
            const double d = double(points[size_t(p) * nfeatures + f]) - centres[size_t(c) * nfeatures + f];
            dist += d * d;
          }
          if (best < 0 || dist < best_dist) {
            best_dist = dist;
            best = c;
          }
        }
        ref_member[p] = best;
      }
      member_check = wl::check_exact("membership (iteration " + std::to_string(it) + ")", member, ref_member);
      if (!member_check.verified) break;

      // The host's half: delta and the new centres (means of the members).
      if (it > 0)
        for (int p = 0; p < npoints; ++p) changed_total += member[p] != prev[p];
      prev = member;
      std::vector<double> sum(centres.size(), 0.0);
      std::vector<int> count(nclusters, 0);
      for (int p = 0; p < npoints; ++p) {
        ++count[member[p]];
        for (int f = 0; f < nfeatures; ++f) sum[size_t(member[p]) * nfeatures + f] += points[size_t(p) * nfeatures + f];
      }
      for (int c = 0; c < nclusters; ++c) {
        if (count[c] == 0) continue;
        for (int f = 0; f < nfeatures; ++f)
          centres[size_t(c) * nfeatures + f] = float(std::round(sum[size_t(c) * nfeatures + f] / count[c] * q) / q);
      }
    }
    for (DevPtr p : {din, dfeat, dclusters, dmember}) dev.free(p);
    if (!flip_check.verified) return flip_check;
    if (!member_check.verified) return member_check;
    WorkloadResult r;
    r.verified = true;
    r.detail = flip_check.detail + "; " + std::to_string(npoints) + " memberships match over " +
               std::to_string(iterations) + " iterations (" + std::to_string(changed_total) +
               " changed after the first)";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_kmeans() { return std::make_unique<RdKmeans>(); }

}  // namespace warptlm
