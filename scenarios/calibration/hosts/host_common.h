// Host-side helpers shared by the calibration host programs: the size preset from argv[1], the workload
// drivers' seeded generators (tb/workloads/util.hpp: the same draws, the same values) and checks that
// name the first mismatch and exit non-zero. Host code only, so each program's PTX is its kernel's alone.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace calib {

enum Size { Tiny = 0, Small = 1, Medium = 2, Large = 3 };

// argv[1]: tiny, small, medium or large (default small), as `warptlm run --size`.
inline Size size_arg(int argc, char** argv) {
  const char* s = argc > 1 ? argv[1] : "small";
  if (!std::strcmp(s, "tiny")) return Tiny;
  if (!std::strcmp(s, "small")) return Small;
  if (!std::strcmp(s, "medium")) return Medium;
  if (!std::strcmp(s, "large")) return Large;
  std::fprintf(stderr, "usage: %s [tiny|small|medium|large]\n", argv[0]);
  std::exit(2);
}

template <class T>
T by_size(Size s, T tiny, T small, T medium, T large) {
  return s == Tiny ? tiny : s == Small ? small : s == Medium ? medium : large;
}

// The seed `warptlm run` gives every workload (sim.seed's default).
constexpr uint64_t kSeed = 1;

// The drivers' generators: a float from the top 24 bits of one draw, an integer as draw % bound.
inline float unit_float(std::mt19937_64& rng) { return float(rng() >> 40) * (1.0f / 16777216.0f); }
inline float uniform_float(std::mt19937_64& rng, float lo, float hi) { return lo + (hi - lo) * unit_float(rng); }
inline uint32_t uniform_u32(std::mt19937_64& rng, uint32_t bound) { return uint32_t(rng() % bound); }
inline uint32_t ceil_div(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }

// Stops the program on a failed runtime call.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(3);
  }
}
#define CALIB_CHECK(call) ::calib::check((call), #call)

// Device::upload: an allocation, then the copy.
template <class T>
T* upload(const std::vector<T>& v) {
  void* p = nullptr;
  CALIB_CHECK(cudaMalloc(&p, v.size() * sizeof(T)));
  CALIB_CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return static_cast<T*>(p);
}
template <class T>
T* alloc(size_t count) {
  void* p = nullptr;
  CALIB_CHECK(cudaMalloc(&p, count * sizeof(T)));
  return static_cast<T*>(p);
}
template <class T>
std::vector<T> download(const T* p, size_t count) {
  std::vector<T> v(count);
  CALIB_CHECK(cudaMemcpy(v.data(), p, count * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}
// wl::check_exact: every element equal.
template <class T>
bool check_exact(const char* what, const std::vector<T>& got, const std::vector<T>& ref) {
  if (got.size() != ref.size()) {
    std::printf("FAILED: %s: size %zu, expected %zu\n", what, got.size(), ref.size());
    return false;
  }
  for (size_t i = 0; i < got.size(); ++i)
    if (!(got[i] == ref[i])) {
      std::printf("FAILED: %s[%zu]: got %.9g, expected %.9g\n", what, i, double(got[i]), double(ref[i]));
      return false;
    }
  std::printf("%zu %s elements match\n", got.size(), what);
  return true;
}

// wl::check_floats: |got - ref| <= atol + rtol * |ref| (+ extra[i]).
inline bool check_floats(const char* what, const std::vector<float>& got, const std::vector<double>& ref, double rtol,
                         double atol, const std::vector<double>* extra = nullptr) {
  if (got.size() != ref.size()) {
    std::printf("FAILED: %s: size %zu, expected %zu\n", what, got.size(), ref.size());
    return false;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol = atol + rtol * std::fabs(ref[i]) + (extra ? (*extra)[i] : 0.0);
    const double g = got[i];
    if (!(std::fabs(g - ref[i]) <= tol)) {
      std::printf("FAILED: %s[%zu]: got %.9g, expected %.9g (tolerance %.9g)\n", what, i, g, ref[i], tol);
      return false;
    }
  }
  std::printf("%zu %s elements match\n", got.size(), what);
  return true;
}

}  // namespace calib
