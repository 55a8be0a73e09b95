// Host driver for ss_heartwall: one launch of ss_track per frame, one
// 128-thread block per tracked point. Frame 0 is a seeded random image; its
// launch cuts each point's template out of it (checked exactly). Each later
// frame is a fresh random image with every point's template pasted, plus
// noise, at a planted displacement inside the point's search window; its
// launch must find each planted displacement (which a double reference also
// finds) and its score. Points sit in disjoint cells of the frame so pasted
// templates never overlap. The `small` size processes frame 0 only, as the
// scratchpad-sharing study's evaluated run does (its Table 3: one frame).
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
    const int npts = wl::by_size(size, 4, 64, 96, 140);
    const int ts = wl::by_size(size, 9, 25, 11, 25);
    const int ry = wl::by_size(size, 3, 6, 3, 6);
    const int rx = wl::by_size(size, 3, 15, 5, 15);
    const int fw = wl::by_size(size, 64, 512, 256, 768), fh = fw;
    const int frames = wl::by_size(size, 2, 1, 2, 5);
    const int wh = ts + 2 * ry, ww = ts + 2 * rx, n = ts * ts;
    std::mt19937_64 rng(seed);

    // Points: the search window of each fills one cell of a grid, cells picked at random.
    const int cells_y = fh / wh, cells_x = fw / ww;
    std::vector<int> cells(size_t(cells_y) * cells_x);
    for (size_t c = 0; c < cells.size(); ++c) cells[c] = int(c);
    for (size_t c = cells.size() - 1; c > 0; --c) std::swap(cells[c], cells[wl::uniform_u32(rng, uint32_t(c + 1))]);
    std::vector<int32_t> pos(2 * npts);
    for (int p = 0; p < npts; ++p) {
      pos[2 * p] = (cells[p] / cells_x) * wh + ry;
      pos[2 * p + 1] = (cells[p] % cells_x) * ww + rx;
    }
    auto random_frame = [&] {
      std::vector<float> f(size_t(fw) * fh);
      for (auto& v : f) v = wl::unit_float(rng);
      return f;
    };
    std::vector<float> frame0 = random_frame();
    std::vector<float> ref_tpl(size_t(npts) * n);
    for (int p = 0; p < npts; ++p)
      for (int e = 0; e < n; ++e) ref_tpl[size_t(p) * n + e] = frame0[size_t(pos[2 * p] + e / ts) * fw + pos[2 * p + 1] + e % ts];

    load_workload_ptx(dev, "ss_heartwall");
    DevPtr dframe = dev.upload(frame0), dtpl = dev.malloc(uint64_t(ref_tpl.size()) * 4), dpos = dev.upload(pos);
    DevPtr ddisp = dev.malloc(uint64_t(npts) * 2 * 4), dscore = dev.malloc(uint64_t(npts) * 4);
    auto launch = [&](int frame_no) {
      dev.launch("ss_track", Dim3(uint32_t(npts)), Dim3(128),
                 {arg(int32_t(frame_no)), arg(dframe), arg(int32_t(fw)), arg(dtpl), arg(dpos), arg(int32_t(ts)),
                  arg(int32_t(ry)), arg(int32_t(rx)), arg(ddisp), arg(dscore)});
    };
    launch(0);
    std::vector<WorkloadResult> checks{wl::check_exact("template", dev.download<float>(dtpl, ref_tpl.size()), ref_tpl)};

    for (int f = 1; f < frames && checks.back().verified; ++f) {
      std::vector<float> frame = random_frame();
      std::vector<int32_t> planted(2 * npts);
      for (int p = 0; p < npts; ++p) {
        planted[2 * p] = int(wl::uniform_u32(rng, 2 * ry + 1)) - ry;
        planted[2 * p + 1] = int(wl::uniform_u32(rng, 2 * rx + 1)) - rx;
        for (int e = 0; e < n; ++e)
          frame[size_t(pos[2 * p] + planted[2 * p] + e / ts) * fw + pos[2 * p + 1] + planted[2 * p + 1] + e % ts] =
              ref_tpl[size_t(p) * n + e] + wl::uniform_float(rng, -0.05f, 0.05f);
      }
      dev.memcpy_h2d(dframe, frame.data(), frame.size() * sizeof(float));
      launch(f);
      std::vector<int32_t> disp = dev.download<int32_t>(ddisp, size_t(npts) * 2);
      std::vector<float> score = dev.download<float>(dscore, npts);

      // Reference: NCC of every candidate in double; the planted displacement
      // must win clearly (else the input is at fault, not the GPU).
      std::vector<int32_t> ref_disp(2 * npts);
      std::vector<double> ref_score(npts);
      for (int p = 0; p < npts; ++p) {
        const float* tp = &ref_tpl[size_t(p) * n];
        double tm = 0.0;
        for (int k = 0; k < n; ++k) tm += tp[k];
        tm /= n;
        double tn = 0.0;
        for (int k = 0; k < n; ++k) tn += (tp[k] - tm) * (tp[k] - tm);
        double best = -2.0, second = -2.0;
        int bdy = 0, bdx = 0;
        for (int dy = -ry; dy <= ry; ++dy)
          for (int dx = -rx; dx <= rx; ++dx) {
            double sw = 0.0, sww = 0.0, swt = 0.0;
            for (int r = 0; r < ts; ++r)
              for (int c = 0; c < ts; ++c) {
                const double w = frame[size_t(pos[2 * p] + dy + r) * fw + pos[2 * p + 1] + dx + c];
                sw += w;
                sww += w * w;
                swt += w * (tp[r * ts + c] - tm);
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
        if (bdy != planted[2 * p] || bdx != planted[2 * p + 1] || best - second < 0.05) {
          WorkloadResult bad;
          bad.detail = "input: frame " + std::to_string(f) + " point " + std::to_string(p) + " has no clear best match";
          return bad;
        }
        ref_disp[2 * p] = bdy;
        ref_disp[2 * p + 1] = bdx;
        ref_score[p] = best;
      }
      // Scores are sums of up to 625 float products: 1e-4 absolute.
      const std::string at = " (frame " + std::to_string(f) + ")";
      checks.push_back(wl::all_of({wl::check_exact("displacement" + at, disp, ref_disp),
                                   wl::check_floats("score" + at, score, ref_score, 0.0, 1e-4)}));
    }
    for (DevPtr q : {dframe, dtpl, dpos, ddisp, dscore}) dev.free(q);
    WorkloadResult r = wl::all_of(checks);
    if (r.verified)
      r.detail = std::to_string(npts) + " templates cut from frame 0" +
                 (frames > 1 ? ", tracked to their planted displacements in " + std::to_string(frames - 1) + " more frame(s)" : "");
    return r;
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss_heartwall() { return std::make_unique<SsHeartwall>(); }

}  // namespace warptlm
