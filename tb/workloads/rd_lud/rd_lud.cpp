// Host driver for rd_lud, following the structure of Rodinia's CUDA LUD: a
// seeded diagonally dominant dim x dim matrix (off-diagonal entries uniform in
// [-1, 1), diagonal dim + [0, 1): every row strictly dominant, so LU without
// pivoting is stable and float stays well-conditioned), factored in place by a
// host loop over the diagonal 16x16 blocks: for each offset but the last,
// lud_diagonal (1 block of 16 threads), lud_perimeter ((dim - offset) / 16 - 1
// blocks of 32 threads) and lud_internal (((dim - offset) / 16 - 1)^2 blocks of
// 16x16 threads); then lud_diagonal on the last block: 3 * (dim / 16 - 1) + 1
// launches, the trailing grids shrinking from (dim / 16 - 1)^2 blocks to one.
//
// Check: every element of the factored matrix (L below the diagonal, U on and
// above it; index i * dim + j) against an unblocked Doolittle factorisation in
// double, |got - ref| <= 1e-7 + 4e-6 * |ref| (+ 4e-6 on and above the
// diagonal). L's entries are ~1/dim, each a float dot product of O(1) terms
// divided by a pivot ~dim (measured error <= 6e-9, sizes tiny..large, seeds
// 1-2); U's are ~1 off the diagonal (error <= 7e-7) and ~dim on it (relative
// error <= 9e-7). A term missing from an L entry changes it by ~1/dim^2, from a
// U entry by ~1/dim: above the tolerance at every size.
#include <cmath>
#include <random>

#include "workloads/util.hpp"
#include "workloads/workload.hpp"

namespace warptlm {
namespace {

class RdLud : public Workload {
 public:
  const char* name() const override { return "rd_lud"; }
  const char* description() const override {
    return "Rodinia LUD: blocked LU without pivoting, diagonal/perimeter/internal kernels on 16x16 shared tiles";
  }
  WorkloadResult run(Device& dev, Size size, uint64_t seed) override {
    const int dim = wl::by_size(size, 64, 256, 512, 1024);
    const int b = 16;  // LUD_B in rd_lud.cu
    std::mt19937_64 rng(seed);
    const size_t count = size_t(dim) * dim;
    std::vector<float> a(count);
    for (int i = 0; i < dim; ++i)
      for (int j = 0; j < dim; ++j)
        a[size_t(i) * dim + j] = i == j ? float(dim) + wl::unit_float(rng) : wl::uniform_float(rng, -1.0f, 1.0f);

    load_workload_ptx(dev, "rd_lud");
    DevPtr dm = dev.upload(a);
    int offset = 0;
    for (; offset < dim - b; offset += b) {
      const uint32_t k = uint32_t((dim - offset) / b - 1);
      dev.launch("lud_diagonal", Dim3(1), Dim3(b), {arg(dm), arg(int32_t(dim)), arg(int32_t(offset))});
      dev.launch("lud_perimeter", Dim3(k), Dim3(2 * b), {arg(dm), arg(int32_t(dim)), arg(int32_t(offset))});
      dev.launch("lud_internal", Dim3(k, k), Dim3(b, b), {arg(dm), arg(int32_t(dim)), arg(int32_t(offset))});
    }
    dev.launch("lud_diagonal", Dim3(1), Dim3(b), {arg(dm), arg(int32_t(dim)), arg(int32_t(offset))});
    std::vector<float> got = dev.download<float>(dm, count);
    dev.free(dm);

    // Reference: Doolittle in place, in double.
    std::vector<double> lu(a.begin(), a.end());
    for (int k = 0; k < dim; ++k) {
      const double pivot = lu[size_t(k) * dim + k];
      for (int i = k + 1; i < dim; ++i) {
        const double l = lu[size_t(i) * dim + k] / pivot;
        lu[size_t(i) * dim + k] = l;
        double* row = &lu[size_t(i) * dim];
        const double* urow = &lu[size_t(k) * dim];
        for (int j = k + 1; j < dim; ++j) row[j] -= l * urow[j];
      }
    }
    std::vector<double> upper(count, 0.0);
    for (int i = 0; i < dim; ++i)
      for (int j = i; j < dim; ++j) upper[size_t(i) * dim + j] = 4e-6;
    return wl::check_floats("lu", got, lu, 4e-6, 1e-7, &upper);
  }
};

}  // namespace

std::unique_ptr<Workload> make_rd_lud() { return std::make_unique<RdLud>(); }

}  // namespace warptlm
