// Special-function unit (approximate) operations and libm routines built on them.
// out[k * n + i]; the host checks each against a stated tolerance.
extern "C" __global__ void sfu_approx(const float* a, const float* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];  // in [-pi, pi]
  float y = p[i];  // in [0.5, 100]
  out[0 * n + i] = __sinf(x);
  out[1 * n + i] = __cosf(x);
  out[2 * n + i] = __log2f(y);
  float e;
  asm("ex2.approx.f32 %0, %1;" : "=f"(e) : "f"(x));
  out[3 * n + i] = e;
  out[4 * n + i] = rsqrtf(y);
  out[5 * n + i] = __fdividef(x, y);
  out[6 * n + i] = __expf(x);
  out[7 * n + i] = __logf(y);
  float t;
  asm("tanh.approx.f32 %0, %1;" : "=f"(t) : "f"(x));
  out[8 * n + i] = t;
  float r;
  asm("rcp.approx.f32 %0, %1;" : "=f"(r) : "f"(y));
  out[9 * n + i] = r;
  float s;
  asm("sqrt.approx.f32 %0, %1;" : "=f"(s) : "f"(y));
  out[10 * n + i] = s;
}

extern "C" __global__ void libm_f32(const float* a, const float* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float y = p[i];
  out[0 * n + i] = tanhf(x);
  out[1 * n + i] = sinf(x);
  out[2 * n + i] = cosf(x);
  out[3 * n + i] = expf(x);
  out[4 * n + i] = logf(y);
  out[5 * n + i] = sqrtf(y);
  out[6 * n + i] = powf(y, 0.75f);
  out[7 * n + i] = atan2f(x, y);
}
