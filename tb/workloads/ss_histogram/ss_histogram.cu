// ss_histogram: 384-bin histogram of 16-bit samples (the scratchpad-sharing
// study's histogram: per-warp sub-histograms, 6 warps x 384 bins x 4 B = 9216 B
// of shared memory per 192-thread block).
// ss_hist384: each warp counts into its own sub-histogram with shared atomics
//   (only lanes of one warp contend for a bin), walking the input with a
//   grid-stride loop; at the end each thread sums bins b, b + 192 over the six
//   sub-histograms and writes the block's partial histogram.
// ss_hist_merge: one thread per bin adds the blocks' partials (no shared
//   memory).
#define NBINS 384
#define HWARPS 6
#define HTHREADS (HWARPS * 32)

extern "C" __global__ void ss_hist384(const unsigned short* __restrict__ data, unsigned n,
                                      unsigned* __restrict__ partial) {
  __shared__ unsigned sub[HWARPS][NBINS];
  const unsigned t = threadIdx.x, warp = t >> 5;
  for (unsigned b = t; b < HWARPS * NBINS; b += HTHREADS) (&sub[0][0])[b] = 0u;
  __syncthreads();
  const unsigned stride = HTHREADS * gridDim.x;
  for (unsigned i = blockIdx.x * HTHREADS + t; i < n; i += stride) atomicAdd(&sub[warp][data[i]], 1u);
  __syncthreads();
  for (unsigned b = t; b < NBINS; b += HTHREADS) {
    unsigned s = 0;
#pragma unroll
    for (int w = 0; w < HWARPS; ++w) s += sub[w][b];
    partial[(size_t)blockIdx.x * NBINS + b] = s;
  }
}

extern "C" __global__ void ss_hist_merge(const unsigned* __restrict__ partial, unsigned blocks,
                                         unsigned* __restrict__ bins) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= NBINS) return;
  unsigned s = 0;
  for (unsigned k = 0; k < blocks; ++k) s += partial[(size_t)k * NBINS + b];
  bins[b] = s;
}
