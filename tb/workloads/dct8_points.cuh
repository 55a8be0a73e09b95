// The orthonormal 8-point DCT-II and its inverse through even/odd
// butterflies with the cosines as immediates, shared by the seed 001 DCT
// kernels (ep_dct8x8, ep_dct_short): x[0..7] in, y[0..7] out.
#pragma once

#define C1 0.490392640f  // cos(k pi / 16) / 2
#define C2 0.461939766f
#define C3 0.415734806f
#define C5 0.277785117f
#define C6 0.191341716f
#define C7 0.097545161f
#define C0 0.353553391f  // sqrt(1/8)

__device__ __forceinline__ void dct8(const float* x, float* y) {
  const float s07 = x[0] + x[7], s16 = x[1] + x[6], s25 = x[2] + x[5], s34 = x[3] + x[4];
  const float d07 = x[0] - x[7], d16 = x[1] - x[6], d25 = x[2] - x[5], d34 = x[3] - x[4];
  y[0] = C0 * (s07 + s16 + s25 + s34);
  y[4] = C0 * (s07 - s16 - s25 + s34);
  y[2] = C2 * (s07 - s34) + C6 * (s16 - s25);
  y[6] = C6 * (s07 - s34) - C2 * (s16 - s25);
  y[1] = C1 * d07 + C3 * d16 + C5 * d25 + C7 * d34;
  y[3] = C3 * d07 - C7 * d16 - C1 * d25 - C5 * d34;
  y[5] = C5 * d07 - C1 * d16 + C7 * d25 + C3 * d34;
  y[7] = C7 * d07 - C5 * d16 + C3 * d25 - C1 * d34;
}

__device__ __forceinline__ void idct8(const float* X, float* y) {
  const float a = C0 * (X[0] + X[4]), b = C0 * (X[0] - X[4]);
  const float p = C2 * X[2] + C6 * X[6], q = C6 * X[2] - C2 * X[6];
  const float e0 = a + p, e1 = b + q, e2 = b - q, e3 = a - p;
  const float o0 = C1 * X[1] + C3 * X[3] + C5 * X[5] + C7 * X[7];
  const float o1 = C3 * X[1] - C7 * X[3] - C1 * X[5] - C5 * X[7];
  const float o2 = C5 * X[1] - C1 * X[3] + C7 * X[5] + C3 * X[7];
  const float o3 = C7 * X[1] - C5 * X[3] + C3 * X[5] - C1 * X[7];
  y[0] = e0 + o0;
  y[7] = e0 - o0;
  y[1] = e1 + o1;
  y[6] = e1 - o1;
  y[2] = e2 + o2;
  y[5] = e2 - o2;
  y[3] = e3 + o3;
  y[4] = e3 - o3;
}

template <bool INVERSE>
__device__ __forceinline__ void transform(const float* x, float* y) {
  if (INVERSE) idct8(x, y); else dct8(x, y);
}

