// fwt: the fast Walsh-Hadamard transform as the CUDA SDK's fastWalshTransform structures it (seed 004 Tables
// 4.2 and 6.2, FW): the stages whose butterflies stay inside a chunk of 2^k elements run in one launch from
// shared memory (the chunk loaded, k stages with a barrier between them, written back), and each larger stage
// is one launch over global memory, a thread per butterfly reading both of its elements.
extern "C" __global__ void fwt_chunk(float* __restrict__ data, int log2chunk) {
  extern __shared__ float s[];
  const int n = 1 << log2chunk;
  float* d = data + (size_t(blockIdx.x) << log2chunk);
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = d[i];
  for (int h = 1; h < n; h <<= 1) {
    __syncthreads();
    for (int p = threadIdx.x; p < n / 2; p += blockDim.x) {
      const int lo = p & (h - 1);
      const int i0 = ((p - lo) << 1) + lo, i1 = i0 + h;
      const float a = s[i0], b = s[i1];
      s[i0] = a + b;
      s[i1] = a - b;
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) d[i] = s[i];
}

extern "C" __global__ void fwt_stage(float* __restrict__ data, int h, int pairs) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= pairs) return;
  const int lo = p & (h - 1);
  const int i0 = ((p - lo) << 1) + lo, i1 = i0 + h;
  const float a = data[i0], b = data[i1];
  data[i0] = a + b;
  data[i1] = a - b;
}
