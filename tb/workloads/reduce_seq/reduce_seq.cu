// reduce_seq: per-block sum with sequential addressing. Each thread first adds
// two elements blockDim.x apart while loading, then at step s threads tid < s
// add element tid + s into tid: consecutive lanes touch consecutive words, so
// there are no bank conflicts. The last warp finishes with register shuffles
// instead of shared memory and barriers. blockDim.x must be 256.
#define RS_BLOCK 256

extern "C" __global__ void reduce_sequential(const float* __restrict__ in, float* __restrict__ out,
                                             unsigned n) {
  __shared__ float sdata[RS_BLOCK];
  const unsigned tid = threadIdx.x;
  // 64-bit index: the grid covers 2 * blockDim.x elements per block.
  const size_t i = (size_t)blockIdx.x * (2u * blockDim.x) + tid;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = v = v + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    v = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}
