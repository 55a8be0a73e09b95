// scan: exclusive prefix sum of unsigned integers, in two kernels.
// scan_blocks: each block of SCAN_BLOCK threads scans 2*SCAN_BLOCK elements in
// shared memory with the work-efficient up-sweep/down-sweep (Blelloch) tree,
// writes the exclusive scan of its slice and the slice total to block_sums.
// add_offsets: after the host has scanned block_sums (recursively, with the
// same kernel), adds each block's offset to its slice. Both loops run
// log2(2*SCAN_BLOCK) steps with a barrier per step and a shrinking/growing set
// of active threads.
#define SCAN_BLOCK 128

extern "C" __global__ void scan_blocks(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                       unsigned* __restrict__ block_sums, unsigned n) {
  __shared__ unsigned temp[2 * SCAN_BLOCK];
  const unsigned tid = threadIdx.x;
  const unsigned m = 2u * SCAN_BLOCK;
  const unsigned base = blockIdx.x * m;
  const unsigned a = base + tid, b = base + tid + SCAN_BLOCK;
  temp[tid] = a < n ? in[a] : 0u;
  temp[tid + SCAN_BLOCK] = b < n ? in[b] : 0u;

  // Up-sweep: build partial sums in place; offset is the distance between the
  // two children of a node.
  unsigned offset = 1;
  for (unsigned d = SCAN_BLOCK; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      const unsigned ai = offset * (2 * tid + 1) - 1;
      const unsigned bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    block_sums[blockIdx.x] = temp[m - 1];
    temp[m - 1] = 0u;
  }
  // Down-sweep: push prefixes back down the tree.
  for (unsigned d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      const unsigned ai = offset * (2 * tid + 1) - 1;
      const unsigned bi = offset * (2 * tid + 2) - 1;
      const unsigned t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (a < n) out[a] = temp[tid];
  if (b < n) out[b] = temp[tid + SCAN_BLOCK];
}

extern "C" __global__ void add_offsets(unsigned* __restrict__ out, const unsigned* __restrict__ scanned_sums,
                                       unsigned n) {
  const unsigned add = scanned_sums[blockIdx.x];
  const unsigned base = blockIdx.x * (2u * SCAN_BLOCK);
  const unsigned a = base + threadIdx.x, b = a + SCAN_BLOCK;
  if (a < n) out[a] += add;
  if (b < n) out[b] += add;
}
