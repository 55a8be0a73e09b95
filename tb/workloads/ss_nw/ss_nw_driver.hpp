// The host side of ss_nw (NW1) and ss_nw2 (NW2), the two kernels of one tiled
// Needleman-Wunsch sweep over 32x32 tiles (nw_problem also serves rd_nw, the
// whole sweep over 16x16 tiles). Two seeded sequences over a
// 20-letter alphabet and a seeded symmetric substitution table give the
// (n+1) x (n+1) substitution matrix R (row and column 0 unused); the score
// matrix M has the same shape, its first row and column preset to -penalty * k.
// The full matrix is computed on the CPU first.
//   NW1: M holds only the preset borders; launches i = 1 .. w run the
//        upper-left triangle of tile anti-diagonals (w = n / 32); the tiles
//        of that triangle are checked exactly and every other cell must be
//        untouched.
//   NW2: M holds the borders and the upper-left triangle as NW1 leaves it
//        (from the CPU); launches i = w - 1 .. 1 run the lower-right triangle;
//        the whole matrix is checked exactly.
// Each workload so simulates its own kernel's launches only, as the study
// reports NW1 and NW2 as separate kernels.
#pragma once
#include <algorithm>
#include <random>
#include <string>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace wl {

// n = 32 * w. At small and medium the widest launch (w blocks) exceeds the
// blocks that 15 SMs hold at once under sharing (2 each).
inline int nw_size(Size size) { return by_size(size, 96, 1024, 2048, 4096); }

// Two seeded sequences over a 20-letter alphabet, a seeded symmetric
// substitution table, the (n+1) x (n+1) substitution matrix R (row and column
// 0 unused) and the score matrix the recurrence gives, computed on the CPU.
struct NwProblem {
  int n = 0, ld = 0, penalty = 0;
  std::vector<int32_t> R, full;
};

inline NwProblem nw_problem(int n, int penalty, uint64_t seed) {
  NwProblem p;
  p.n = n;
  p.ld = n + 1;
  p.penalty = penalty;
  const int ld = p.ld;
  std::mt19937_64 rng(seed);
  int table[20][20];
  for (int a = 0; a < 20; ++a)
    for (int b = 0; b <= a; ++b)
      table[a][b] = table[b][a] = a == b ? 4 + int(uniform_u32(rng, 8)) : int(uniform_u32(rng, 10)) - 4;
  std::vector<int> sa(n), sb(n);
  for (auto& v : sa) v = int(uniform_u32(rng, 20));
  for (auto& v : sb) v = int(uniform_u32(rng, 20));
  p.R.assign(size_t(ld) * ld, 0);
  p.full.assign(size_t(ld) * ld, 0);
  std::vector<int32_t>& R = p.R;
  std::vector<int32_t>& full = p.full;
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j) R[size_t(i) * ld + j] = table[sa[i - 1]][sb[j - 1]];
  for (int k = 0; k <= n; ++k) {
    full[k] = -penalty * k;
    full[size_t(k) * ld] = -penalty * k;
  }
  for (int i = 1; i <= n; ++i)
    for (int j = 1; j <= n; ++j)
      full[size_t(i) * ld + j] = std::max({full[size_t(i - 1) * ld + j - 1] + R[size_t(i) * ld + j],
                                           full[size_t(i) * ld + j - 1] - penalty, full[size_t(i - 1) * ld + j] - penalty});
  return p;
}

inline WorkloadResult run_nw_half(Device& dev, Size size, uint64_t seed, bool lower_right) {
  constexpr int kTile = 32;
  const int n = nw_size(size), w = n / kTile;
  const NwProblem p = nw_problem(n, 10, seed);
  const int ld = p.ld, penalty = p.penalty;
  const std::vector<int32_t>& R = p.R;
  const std::vector<int32_t>& full = p.full;
  // Cell (i, j) >= 1 lies in tile ((i-1)/32, (j-1)/32); the upper-left triangle has tile row + column < w.
  auto upper_left = [&](int i, int j) { return (i - 1) / kTile + (j - 1) / kTile < w; };
  std::vector<int32_t> start(size_t(ld) * ld, 0), expect(size_t(ld) * ld, 0);
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= n; ++j) {
      const size_t c = size_t(i) * ld + j;
      const bool border = i == 0 || j == 0;
      if (border || (lower_right && upper_left(i, j))) start[c] = full[c];
      expect[c] = (lower_right || border || upper_left(i, j)) ? full[c] : 0;
    }

  const char* module = lower_right ? "ss_nw2" : "ss_nw";
  const char* kernel = lower_right ? "ss_nw_shared_2" : "ss_nw_shared_1";
  load_workload_ptx(dev, module);
  DevPtr dR = dev.upload(R), dM = dev.upload(start);
  int launches = 0;
  auto launch = [&](int i) {
    dev.launch(kernel, Dim3(uint32_t(i)), Dim3(kTile),
               {arg(dR), arg(dM), arg(int32_t(ld)), arg(int32_t(penalty)), arg(int32_t(i)), arg(int32_t(w))});
    ++launches;
  };
  if (lower_right)
    for (int i = w - 1; i >= 1; --i) launch(i);
  else
    for (int i = 1; i <= w; ++i) launch(i);
  std::vector<int32_t> got = dev.download<int32_t>(dM, expect.size());
  dev.free(dR);
  dev.free(dM);
  WorkloadResult r = check_exact("M", got, expect);
  if (r.verified) r.detail += " (" + std::to_string(launches) + " launches, " + std::to_string(w) + " tiles per side)";
  return r;
}

}  // namespace wl
}  // namespace warptlm
