// vecadd: c[i] = a[i] + b[i], one thread per element. Streaming, fully
// coalesced loads and stores; the bounds check idles the tail of the last block.
extern "C" __global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b,
                                  float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
