// Host driver for rd_hotspot, following the structure of Rodinia's CUDA
// HotSpot: a square chip of rows x cols cells with a seeded temperature and
// power map, the chip's physical constants (a 16 mm x 16 mm, 0.5 mm thick
// silicon die: capacitance and x, y, z thermal resistances per cell, the time
// step from the maximum power density) computed on the host, and a host loop
// of hotspot_calculate_temp launches, each advancing min(pyramid height,
// steps left) time steps in 16x16 shared-memory tiles, ping-ponging two
// temperature buffers (the result is in whichever was written last). The grid
// of blocks is sized for the pyramid height: each block computes a
// (16 - 2 * height) square and loads a halo of `height` cells; a last launch
// with fewer steps keeps that grid (its blocks' regions are then larger, and
// blocks past the chip do nothing), as in Rodinia.
//
// Check: every cell against a double-precision reference that runs the same
// explicit step over the whole chip, one step at a time (neighbours off the
// chip replaced by the cell itself), from the float parameters the kernel gets.
// Tolerance 1e-5 + steps * 2^-15 (one float ulp of a temperature in [256, 512)
// per step: each step rounds the stored temperature once; the increments are
// ~1 K, their rounding far smaller). Power is drawn so that one step heats a
// cell by at most 1 K (Rodinia reads a floorplan's power map).
#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class RdHotspot : public Workload {
 public:
  const char* name() const override { return "rd_hotspot"; }
  const char* description() const override {
    return "Rodinia HotSpot: 16x16 shared tiles, several stencil steps per launch in a shrinking pyramid";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    // Not multiples of the 12-cell block output, so edge blocks are partial.
    const int n = wl::by_size(size, 32, 200, 512, 1024);
    const int rows = n, cols = n;
    const int pyramid = 2;  // steps per launch (Rodinia's run script's pyramid height)
    const int steps = wl::by_size(size, 3, 5, 8, 8);
    const int tile = 16;

    // The chip (Rodinia's constants).
    const double chip_h = 0.016, chip_w = 0.016, t_chip = 0.0005;
    const double factor_chip = 0.5, spec_heat_si = 1.75e6, k_si = 100.0, max_pd = 3.0e6, precision = 0.001;
    const double grid_h = chip_h / rows, grid_w = chip_w / cols;
    const float cap = float(factor_chip * spec_heat_si * t_chip * grid_w * grid_h);
    const float rx = float(grid_w / (2.0 * k_si * t_chip * grid_h));
    const float ry = float(grid_h / (2.0 * k_si * t_chip * grid_w));
    const float rz = float(t_chip / (k_si * grid_h * grid_w));
    const double max_slope = max_pd / (factor_chip * t_chip * spec_heat_si);
    const float step = float(precision / max_slope);
    const double k = double(step) / double(cap);

    std::mt19937_64 rng(seed);
    const size_t count = size_t(rows) * cols;
    std::vector<float> temp(count), power(count);
    for (auto& v : temp) v = wl::uniform_float(rng, 320.0f, 345.0f);
    const float pmax = float(1.0 / k);  // one step heats a cell by at most 1 K
    for (auto& v : power) v = wl::uniform_float(rng, 0.0f, pmax);

    load_workload_ptx(dev, "rd_hotspot");
    DevPtr dpower = dev.upload(power);
    DevPtr buf[2] = {dev.upload(temp), dev.malloc(count * sizeof(float))};
    const int border = pyramid;  // halo: pyramid height * EXPAND_RATE / 2, EXPAND_RATE = 2
    const int out_w = tile - 2 * pyramid;
    const Dim3 grid(wl::ceil_div(cols, out_w), wl::ceil_div(rows, out_w));
    int src = 0, dst = 1;
    for (int t = 0; t < steps; t += pyramid) {
      const int it = std::min(pyramid, steps - t);
      dev.launch("hotspot_calculate_temp", grid, Dim3(tile, tile),
                 {arg(int32_t(it)), arg(dpower), arg(buf[src]), arg(buf[dst]), arg(int32_t(cols)), arg(int32_t(rows)),
                  arg(int32_t(border)), arg(int32_t(border)), arg(cap), arg(rx), arg(ry), arg(rz), arg(step)});
      std::swap(src, dst);
    }
    std::vector<float> got = dev.download<float>(buf[src], count);
    for (DevPtr p : {dpower, buf[0], buf[1]}) dev.free(p);

    // Reference: one explicit step at a time over the whole chip, in double.
    const double gx = 1.0 / rx, gy = 1.0 / ry, gz = 1.0 / rz, ambient = 80.0;
    std::vector<double> cur(temp.begin(), temp.end()), next(count);
    for (int s = 0; s < steps; ++s) {
      for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
          const double c = cur[size_t(y) * cols + x];
          const double nn = cur[size_t(std::max(y - 1, 0)) * cols + x];
          const double ss = cur[size_t(std::min(y + 1, rows - 1)) * cols + x];
          const double ww = cur[size_t(y) * cols + std::max(x - 1, 0)];
          const double ee = cur[size_t(y) * cols + std::min(x + 1, cols - 1)];
          next[size_t(y) * cols + x] =
              c + k * (double(power[size_t(y) * cols + x]) + (ss + nn - 2.0 * c) * gy + (ee + ww - 2.0 * c) * gx +
                       (ambient - c) * gz);
        }
      std::swap(cur, next);
    }
    return wl::check_floats("temp", got, cur, 0.0, 1e-5 + steps * std::ldexp(1.0, -15));
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_hotspot() { return std::make_unique<RdHotspot>(); }

}  // namespace warptlm
