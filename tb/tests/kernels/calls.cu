// Non-inlined device functions (.func, call/ret): nested calls, pointer and
// float arguments, calls under divergence.
__device__ __noinline__ int leaf_mad(int a, int b) { return a * b + 3; }

__device__ __noinline__ float leaf_scale(float x, int k) { return x * (float)k + 0.5f; }

__device__ __noinline__ void leaf_store(int* p, int v) { *p = v ^ 0x1234; }

__device__ __noinline__ int middle(int x) { return leaf_mad(x, x + 1) - leaf_mad(x - 1, 2); }

__device__ __noinline__ int outer(int x, int* side) {
  int r = middle(x) + middle(x >> 1);
  leaf_store(side, r);
  return r;
}

extern "C" __global__ void calls(const int* in, int* out, int* side, float* fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  int r;
  if (x & 1) r = outer(x, &side[i]);
  else r = middle(x) * 2 + (side[i] = -1, 0);
  out[i] = r;
  fout[i] = leaf_scale((float)x, threadIdx.x & 7);
}
