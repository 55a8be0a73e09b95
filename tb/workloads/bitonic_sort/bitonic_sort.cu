// bitonic_sort: key-value bitonic sort with the structure of the CUDA SDK's sortingNetworks (seed 004
// Tables 4.2 and 5.3, BS): chunks of 1024 pairs sorted in shared memory by a block of 512 threads (each
// compare-exchange one thread, a barrier between the network's steps), odd chunks descending so that each
// pair of chunks is a bitonic sequence; then, per merge size, the steps whose stride is a chunk or more run
// one launch each over global memory (a thread per compare-exchange), and the remaining strides of that
// size run in one launch from shared memory.
#define CHUNK 1024

__device__ __forceinline__ void compare_exchange(unsigned& ka, unsigned& va, unsigned& kb, unsigned& vb, bool up) {
  if ((ka > kb) == up) {
    const unsigned k = ka, v = va;
    ka = kb; va = vb;
    kb = k; vb = v;
  }
}

// A block's chunk between global and shared memory: thread t moves pairs t and t + CHUNK/2.
__device__ __forceinline__ void load_chunk(unsigned* sk, unsigned* sv, const unsigned* keys, const unsigned* vals,
                                           unsigned base, unsigned t) {
  sk[t] = keys[base + t];
  sv[t] = vals[base + t];
  sk[t + CHUNK / 2] = keys[base + t + CHUNK / 2];
  sv[t + CHUNK / 2] = vals[base + t + CHUNK / 2];
}
__device__ __forceinline__ void store_chunk(unsigned* keys, unsigned* vals, const unsigned* sk, const unsigned* sv,
                                            unsigned base, unsigned t) {
  __syncthreads();
  keys[base + t] = sk[t];
  vals[base + t] = sv[t];
  keys[base + t + CHUNK / 2] = sk[t + CHUNK / 2];
  vals[base + t + CHUNK / 2] = sv[t + CHUNK / 2];
}

// The strides CHUNK/2 .. 1 of a merge in shared memory, all in direction `up`.
__device__ __forceinline__ void merge_chunk(unsigned* sk, unsigned* sv, unsigned t, bool up) {
  for (unsigned stride = CHUNK / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    const unsigned pos = 2 * t - (t & (stride - 1));
    compare_exchange(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], up);
  }
}

// Sorts each chunk: ascending for even blocks, descending for odd ones.
extern "C" __global__ void bitonic_sort_chunks(unsigned* __restrict__ key_out, unsigned* __restrict__ val_out,
                                               const unsigned* __restrict__ key_in, const unsigned* __restrict__ val_in) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  const unsigned base = blockIdx.x * CHUNK, t = threadIdx.x;
  load_chunk(sk, sv, key_in, val_in, base, t);
  for (unsigned size = 2; size < CHUNK; size <<= 1) {
    const bool up = (t & (size / 2)) == 0;  // alternate directions build bitonic sequences of 2 x size
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned pos = 2 * t - (t & (stride - 1));
      compare_exchange(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], up);
    }
  }
  merge_chunk(sk, sv, t, (blockIdx.x & 1) == 0);
  store_chunk(key_out, val_out, sk, sv, base, t);
}

// One step of the merge of sequences of `size`, stride >= CHUNK: in place, a thread per compare-exchange.
extern "C" __global__ void bitonic_merge_global(unsigned* __restrict__ keys, unsigned* __restrict__ vals, unsigned n,
                                                unsigned size, unsigned stride) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= n / 2) return;
  const bool up = (c & (size / 2)) == 0;
  const unsigned pos = 2 * c - (c & (stride - 1));
  unsigned ka = keys[pos], va = vals[pos], kb = keys[pos + stride], vb = vals[pos + stride];
  compare_exchange(ka, va, kb, vb, up);
  keys[pos] = ka;
  vals[pos] = va;
  keys[pos + stride] = kb;
  vals[pos + stride] = vb;
}

// The strides CHUNK/2 .. 1 of the merge of sequences of `size`, in shared memory, a chunk per block.
extern "C" __global__ void bitonic_merge_shared(unsigned* __restrict__ keys, unsigned* __restrict__ vals, unsigned size) {
  __shared__ unsigned sk[CHUNK], sv[CHUNK];
  const unsigned base = blockIdx.x * CHUNK, t = threadIdx.x;
  load_chunk(sk, sv, keys, vals, base, t);
  const unsigned c = blockIdx.x * (CHUNK / 2) + t;
  merge_chunk(sk, sv, t, (c & (size / 2)) == 0);
  store_chunk(keys, vals, sk, sv, base, t);
}
