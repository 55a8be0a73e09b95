// histogram_merge: the CUDA SDK histogram256's two phases (seed 004 Table 6.2 HS, Fig. 6.5). Phase 1: each
// block builds a partial 256-bin histogram of its share of the input in shared memory and writes all 256
// bins to its own row of the partial histograms in global memory. Phase 2: one block per bin sums that
// bin's column over every partial histogram (thread t reads rows t, t + 256, ...: the Fig. 6.5 loop,
// where blocks with equal blockIdx.x and i touch the same lines), then reduces the sums in shared memory.
#define NBINS 256
#define MERGE_THREADS 256

extern "C" __global__ void histogram256_partial(const unsigned char* __restrict__ data, unsigned n,
                                                unsigned* __restrict__ partial) {
  __shared__ unsigned local[NBINS];
  for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  const unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x) partial[blockIdx.x * NBINS + b] = local[b];
}

extern "C" __global__ void merge_histogram256(const unsigned* __restrict__ partial, unsigned histograms,
                                              unsigned* __restrict__ bins) {
  __shared__ unsigned sums[MERGE_THREADS];
  unsigned sum = 0u;
  for (unsigned i = threadIdx.x; i < histograms; i += MERGE_THREADS) sum += partial[blockIdx.x + i * NBINS];
  sums[threadIdx.x] = sum;
  for (unsigned half = MERGE_THREADS / 2; half > 0; half >>= 1) {
    __syncthreads();
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
  }
  if (threadIdx.x == 0) bins[blockIdx.x] = sums[0];
}
