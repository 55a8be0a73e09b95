// histogram: 256-bin histogram of a byte stream. Each block keeps a private
// histogram in shared memory (atomic adds on shared words: lanes that hit the
// same bin serialise), walks the input with a grid-stride loop, then merges
// its non-zero bins into the global histogram with global atomics.
#define NBINS 256

extern "C" __global__ void histogram256(const unsigned char* __restrict__ data, unsigned n,
                                        unsigned* __restrict__ bins) {
  __shared__ unsigned local[NBINS];
  for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  const unsigned stride = blockDim.x * gridDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < NBINS; b += blockDim.x) {
    const unsigned c = local[b];
    if (c != 0u) atomicAdd(&bins[b], c);
  }
}
