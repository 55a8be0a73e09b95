// Host driver for ss_heartwall: a seeded random frame; each tracked point has
// a template cut from the frame at a planted displacement from its previous
// position, plus noise. One launch of ss_track, one 128-thread block per point.
// Checks each point's best displacement (the planted one, which a double
// reference also finds) exactly and its score against the reference.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class SsHeartwall : public Workload {
 public:
  const char* name() const override { return "ss_heartwall"; }
  const char* description() const override {
    return "scratchpad-sharing heartwall (11872 B in 8 variables, 128 thr): template tracking by normalised cross-correlation";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int npts = wl::by_size(size, 4, 64, 96, 128);
    const int ts = wl::by_size(size, 9, 9, 11, 25);
    const int ry = wl::by_size(size, 3, 3, 3, 6);
    const int rx = wl::by_size(size, 3, 5, 5, 15);
    const int fw = wl::by_size(size, 64, 256, 256, 512), fh = fw;
    std::mt19937_64 rng(seed);
    std::vector<float> frame(size_t(fw) * fh);
    for (auto& v : frame) v = wl::unit_float(rng);
    std::vector<int32_t> prev(2 * npts), planted(2 * npts);
    std::vector<float> tpl(size_t(npts) * ts * ts);
    for (int p = 0; p < npts; ++p) {
      const int py = ry + int(wl::uniform_u32(rng, uint32_t(fh - ts - 2 * ry + 1)));
      const int px = rx + int(wl::uniform_u32(rng, uint32_t(fw - ts - 2 * rx + 1)));
      const int dy = int(wl::uniform_u32(rng, 2 * ry + 1)) - ry, dx = int(wl::uniform_u32(rng, 2 * rx + 1)) - rx;
      prev[2 * p] = py;
      prev[2 * p + 1] = px;
      planted[2 * p] = dy;
      planted[2 * p + 1] = dx;
      for (int r = 0; r < ts; ++r)
        for (int c = 0; c < ts; ++c)
          tpl[(size_t(p) * ts + r) * ts + c] =
              frame[size_t(py + dy + r) * fw + px + dx + c] + wl::uniform_float(rng, -0.05f, 0.05f);
    }

    dev.load_ptx(embedded_ptx("ss_heartwall"), "ss_heartwall.ptx");
    DevPtr dframe = dev.upload(frame), dtpl = dev.upload(tpl), dprev = dev.upload(prev);
    DevPtr ddisp = dev.malloc(uint64_t(npts) * 2 * 4), dscore = dev.malloc(uint64_t(npts) * 4);
    dev.launch("ss_track", Dim3(uint32_t(npts)), Dim3(128),
               {arg(dframe), arg(int32_t(fw)), arg(dtpl), arg(dprev), arg(int32_t(ts)), arg(int32_t(ry)),
                arg(int32_t(rx)), arg(ddisp), arg(dscore)});
    std::vector<int32_t> disp = dev.download<int32_t>(ddisp, size_t(npts) * 2);
    std::vector<float> score = dev.download<float>(dscore, npts);
    for (DevPtr q : {dframe, dtpl, dprev, ddisp, dscore}) dev.free(q);

    // Reference: NCC of every candidate in double; the planted displacement
    // must win clearly (else the input is at fault, not the GPU).
    std::vector<int32_t> ref_disp(2 * npts);
    std::vector<double> ref_score(npts);
    const int n = ts * ts;
    for (int p = 0; p < npts; ++p) {
      double tm = 0.0;
      for (int k = 0; k < n; ++k) tm += tpl[size_t(p) * n + k];
      tm /= n;
      double tn = 0.0;
      for (int k = 0; k < n; ++k) tn += (tpl[size_t(p) * n + k] - tm) * (tpl[size_t(p) * n + k] - tm);
      double best = -2.0, second = -2.0;
      int bdy = 0, bdx = 0;
      for (int dy = -ry; dy <= ry; ++dy)
        for (int dx = -rx; dx <= rx; ++dx) {
          double sw = 0.0, sww = 0.0, swt = 0.0;
          for (int r = 0; r < ts; ++r)
            for (int c = 0; c < ts; ++c) {
              const double w = frame[size_t(prev[2 * p] + dy + r) * fw + prev[2 * p + 1] + dx + c];
              sw += w;
              sww += w * w;
              swt += w * (tpl[size_t(p) * n + r * ts + c] - tm);
            }
          const double s = swt / std::sqrt(tn) / std::sqrt(sww - sw * sw / n);
          if (s > best) {
            second = best;
            best = s;
            bdy = dy;
            bdx = dx;
          } else if (s > second) {
            second = s;
          }
        }
      WorkloadResult bad;
      if (bdy != planted[2 * p] || bdx != planted[2 * p + 1] || best - second < 0.05) {
        bad.detail = "input: point " + std::to_string(p) + " has no clear best match";
        return bad;
      }
      ref_disp[2 * p] = bdy;
      ref_disp[2 * p + 1] = bdx;
      ref_score[p] = best;
    }
    // Scores are sums of up to 625 float products: 1e-4 absolute.
    WorkloadResult r = wl::all_of({wl::check_exact("displacement", disp, ref_disp),
                                   wl::check_floats("score", score, ref_score, 0.0, 1e-4)});
    if (r.verified) r.detail = std::to_string(npts) + " points tracked to their planted displacements";
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_heartwall() { return std::make_unique<SsHeartwall>(); }

}  // namespace warptlm
