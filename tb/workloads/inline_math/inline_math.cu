// inline_math: a streaming kernel whose arithmetic lives in small inline device functions (seed 004
// Tables 4.2 and 5.3, IM: "Inline Math", input feature the grid size, type M). A thread per element reads
// two floats, evaluates them through the inlined functions and writes one float: three memory accesses a
// thread against about twenty floating-point instructions, so the loads, not the arithmetic, bound it.
// Only correctly rounded operations (fma, add, mul, div.rn, sqrt.rn), so a CPU computes the same bits.

// p(x) = ((0.25 x - 0.5) x + 1.5) x + 2, by Horner's rule with fused multiply-adds
__device__ __forceinline__ float poly3(float x) { return fmaf(fmaf(fmaf(0.25f, x, -0.5f), x, 1.5f), x, 2.0f); }

// the length of (x, y), unscaled: sqrt(x^2 + y^2) with one fused multiply-add
__device__ __forceinline__ float length2(float x, float y) { return __fsqrt_rn(fmaf(x, x, __fmul_rn(y, y))); }

// a + t (b - a)
__device__ __forceinline__ float lerp(float a, float b, float t) { return fmaf(t, __fsub_rn(b, a), a); }

// a smooth ratio in (0, 1]: 1 / (1 + x^2)
__device__ __forceinline__ float falloff(float x) { return __fdiv_rn(1.0f, fmaf(x, x, 1.0f)); }

extern "C" __global__ void inline_math(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out,
                                       int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float a = x[i], b = y[i];
  const float r = length2(a, b);
  const float w = falloff(__fsub_rn(a, b));
  out[i] = lerp(poly3(a), poly3(b), w) + __fdiv_rn(r, __fadd_rn(r, 1.0f));
}
