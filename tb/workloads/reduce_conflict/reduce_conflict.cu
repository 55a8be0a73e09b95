// reduce_conflict: per-block sum in shared memory with interleaved addressing.
// At step s, thread tid adds element 2*s*tid + s into 2*s*tid: the active
// threads are packed at the front (little divergence) but their shared-memory
// addresses are 2*s words apart, so a warp hits the same banks: 2-, 4-, 8-,
// 16-way conflicts as s grows. The buffer is dynamic shared memory sized by
// the launch (blockDim.x floats; blockDim.x must be a power of two).
extern "C" __global__ void reduce_interleaved(const float* __restrict__ in, float* __restrict__ out,
                                              unsigned n) {
  extern __shared__ float sdata[];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned idx = 2 * s * tid;
    if (idx < blockDim.x) sdata[idx] += sdata[idx + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
