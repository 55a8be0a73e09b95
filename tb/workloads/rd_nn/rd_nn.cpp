// Host driver for rd_nn, following Rodinia's nn: the records' {lat, lng} are
// uploaded, nn_euclid runs once (256 threads per block; a two-dimensional grid
// past 65535 blocks, as Rodinia computes it), the distances come back and the
// host picks the k = 5 nearest (Rodinia's run script: -r 5 -lat 30 -lng 90),
// each by a scan for the smallest distance left (the first one wins a tie).
// Records: latitudes in [-90, 90), longitudes in [-180, 180), seeded (Rodinia
// reads hurricane records from its files); 42764 at large, Rodinia's four
// input files together (Table II's 334 KB).
//
// Check: exact. The kernel's arithmetic is sub, sub, mul, fma, sqrt, all
// correctly rounded in single precision (the PTX nvcc gives); the CPU does the
// same operations (std::fma, float sqrt), so every distance is compared bit for
// bit, and then the k nearest records and their distances.
#include <cfloat>
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class RdNn : public Workload {
 public:
  const char* name() const override { return "rd_nn"; }
  const char* description() const override {
    return "Rodinia nearest neighbour: a thread per record computes its distance, the host picks the 5 nearest";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int n = wl::by_size(size, 1024, 4096, 10691, 42764);
    const int k = 5;
    const float lat = 30.0f, lng = 90.0f;
    const uint32_t block = 256;

    std::mt19937_64 rng(seed);
    std::vector<float> records(size_t(n) * 2);  // {lat, lng} per record
    for (int i = 0; i < n; ++i) {
      records[size_t(i) * 2] = wl::uniform_float(rng, -90.0f, 90.0f);
      records[size_t(i) * 2 + 1] = wl::uniform_float(rng, -180.0f, 180.0f);
    }

    load_workload_ptx(dev, "rd_nn");
    DevPtr dloc = dev.upload(records);
    DevPtr ddist = dev.malloc(uint64_t(n) * sizeof(float));
    const uint32_t blocks = wl::ceil_div(uint64_t(n), block);  // Rodinia's grid shape:
    const uint32_t gy = wl::ceil_div(blocks, 65535);              // rows of at most 65535 blocks
    const uint32_t gx = wl::ceil_div(blocks, gy);
    dev.launch("nn_euclid", Dim3(gx, gy), Dim3(block),
               {arg(dloc), arg(ddist), arg(int32_t(n)), arg(lat), arg(lng)});
    std::vector<float> dist = dev.download<float>(ddist, n);

    std::vector<float> ref(n);
    for (int i = 0; i < n; ++i) {
      const float d1 = lat - records[size_t(i) * 2];
      const float d2 = lng - records[size_t(i) * 2 + 1];
      ref[i] = std::sqrt(std::fma(d1, d1, d2 * d2));
    }
    WorkloadResult r = wl::check_exact("distances", dist, ref);
    if (r.verified) {
      // The host's half: the k nearest, by repeated scans.
      std::vector<float> left = dist;
      std::string nearest;
      for (int j = 0; j < k; ++j) {
        int best = 0;
        for (int i = 1; i < n; ++i)
          if (left[i] < left[best]) best = i;
        nearest += (j ? ", " : "") + std::to_string(best);
        left[best] = FLT_MAX;
      }
      r.detail = std::to_string(n) + " distances match bit for bit; nearest to (30, 90): records " + nearest;
    }
    dev.free(dloc);
    dev.free(ddist);
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_nn() { return std::make_unique<RdNn>(); }

}  // namespace warptlm
