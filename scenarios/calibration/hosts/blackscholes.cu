// Calibration host program for blackscholes: tb/workloads/blackscholes/blackscholes.cpp's seeded options,
// one launch, call and put prices checked against the same formula in double.
//   blackscholes [tiny|small|medium|large]
#include "../../../tb/workloads/blackscholes/blackscholes.cu"
#include "host_common.h"

static double cnd_ref(double d) {
  const double a1 = 0.319381530, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
  const double inv_sqrt_2pi = 0.398942280401432678;
  const double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  const double poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  const double c = inv_sqrt_2pi * std::exp(-0.5 * d * d) * poly;
  return d > 0.0 ? 1.0 - c : c;
}

int main(int argc, char** argv) {
  using namespace calib;
  const Size size = size_arg(argc, argv);
  const int n = by_size(size, 1000, 10000, 200000, 2000000);
  const uint32_t block = 256;
  const float rate = 0.02f, vol = 0.30f;
  std::mt19937_64 rng(kSeed);
  std::vector<float> spot(n), strike(n), years(n);
  for (int i = 0; i < n; ++i) {
    spot[i] = uniform_float(rng, 5.0f, 30.0f);
    strike[i] = uniform_float(rng, 1.0f, 100.0f);
    years[i] = uniform_float(rng, 0.25f, 10.0f);
  }
  float* ds = upload(spot);
  float* dx = upload(strike);
  float* dt = upload(years);
  float* dcall = alloc<float>(n);
  float* dput = alloc<float>(n);
  black_scholes<<<ceil_div(n, block), block>>>(ds, dx, dt, dcall, dput, rate, vol, n);
  CALIB_CHECK(cudaGetLastError());
  const std::vector<float> call = download(dcall, n);
  const std::vector<float> put = download(dput, n);
  for (float* p : {ds, dx, dt, dcall, dput}) CALIB_CHECK(cudaFree(p));

  std::vector<double> ref_call(n), ref_put(n);
  const double r = rate, v = vol;
  for (int i = 0; i < n; ++i) {
    const double s = spot[i], x = strike[i], t = years[i];
    const double vst = v * std::sqrt(t);
    const double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / vst;
    const double d2 = d1 - vst;
    const double n1 = cnd_ref(d1), n2 = cnd_ref(d2);
    const double x_disc = x * std::exp(-r * t);
    ref_call[i] = s * n1 - x_disc * n2;
    ref_put[i] = x_disc * (1.0 - n2) - s * (1.0 - n1);
  }
  if (!check_floats("call", call, ref_call, 1e-4, 1e-3)) return 1;
  if (!check_floats("put", put, ref_put, 1e-4, 1e-3)) return 1;
  return 0;
}
