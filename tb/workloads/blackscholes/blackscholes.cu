// blackscholes: European call and put prices, one option per thread, in float.
// Heavy on special-function math: logf, expf (twice more inside the normal
// CDF), sqrtf and divisions. The cumulative normal distribution uses the
// 5-term polynomial approximation of Abramowitz & Stegun (26.2.17) and is a
// separate non-inlined function, so the PTX has a .func with call/ret.

extern "C" __device__ __noinline__ float cnd(float d) {
  const float a1 = 0.319381530f;
  const float a2 = -0.356563782f;
  const float a3 = 1.781477937f;
  const float a4 = -1.821255978f;
  const float a5 = 1.330274429f;
  const float inv_sqrt_2pi = 0.398942280401432678f;
  const float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  const float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
  float c = inv_sqrt_2pi * expf(-0.5f * d * d) * poly;
  if (d > 0.0f) c = 1.0f - c;
  return c;
}

extern "C" __global__ void black_scholes(const float* __restrict__ spot, const float* __restrict__ strike,
                                         const float* __restrict__ years, float* __restrict__ call,
                                         float* __restrict__ put, float rate, float vol, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float s = spot[i], x = strike[i], t = years[i];
  const float vol_sqrt_t = vol * sqrtf(t);
  const float d1 = (logf(s / x) + (rate + 0.5f * vol * vol) * t) / vol_sqrt_t;
  const float d2 = d1 - vol_sqrt_t;
  const float n1 = cnd(d1);
  const float n2 = cnd(d2);
  const float x_disc = x * expf(-rate * t);
  call[i] = s * n1 - x_disc * n2;
  put[i] = x_disc * (1.0f - n2) - s * (1.0f - n1);
}
