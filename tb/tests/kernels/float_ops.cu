// IEEE-rounded float32 and float64 arithmetic (exact results expected):
// add/sub/mul/fma/div.rn/sqrt.rn/rcp.rn, min/max, abs/neg. out[k * n + i].
extern "C" __global__ void f32_ops(const float* a, const float* b, const float* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = __fadd_rn(x, y);
  out[1 * n + i] = __fsub_rn(x, y);
  out[2 * n + i] = __fmul_rn(x, y);
  out[3 * n + i] = fmaf(x, y, z);
  out[4 * n + i] = x / y;
  out[5 * n + i] = sqrtf(fabsf(x));
  out[6 * n + i] = 1.0f / y;
  out[7 * n + i] = fminf(x, y);
  out[8 * n + i] = fmaxf(x, y);
  out[9 * n + i] = fabsf(x);
  out[10 * n + i] = -x;
  out[11 * n + i] = __fmul_rz(x, y);
  out[12 * n + i] = __fadd_rd(x, y);
  out[13 * n + i] = __fadd_ru(x, y);
  out[14 * n + i] = copysignf(x, y);
}

extern "C" __global__ void f64_ops(const double* a, const double* b, const double* c, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = __dadd_rn(x, y);
  out[1 * n + i] = __dsub_rn(x, y);
  out[2 * n + i] = __dmul_rn(x, y);
  out[3 * n + i] = fma(x, y, z);
  out[4 * n + i] = x / y;
  out[5 * n + i] = sqrt(fabs(x));
  out[6 * n + i] = 1.0 / y;
  out[7 * n + i] = fmin(x, y);
  out[8 * n + i] = fmax(x, y);
  out[9 * n + i] = fabs(x);
  out[10 * n + i] = -x;
  out[11 * n + i] = rsqrt(fabs(x) + 1.0);
}
