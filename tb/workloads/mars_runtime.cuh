// The parts of a Mars-style MapReduce runtime that the mr_* workloads share,
// as device functions each application's kernels call (the runtime's kernels
// are generic; an application supplies its map, its key comparison and its
// reduce). The runtime's data:
//   input / intermediate records: a key byte buffer and a value byte buffer,
//   found through an index of int4 entries {key offset, key size, value
//   offset, value size};
//   per map thread: key bytes, value bytes and pairs it emits (map count),
//   turned into its write offsets by exclusive prefix sums.
// The group phase sorts the intermediate index entries with a global bitonic
// network, padded to a power of two with entries whose key offset is -1
// (they sort first), then marks where the key changes and scans the marks.
#pragma once

// Exclusive prefix sum of in[0, n) into out, by one block of 256 threads:
// 256 entries at a time in shared memory (Hillis-Steele), with a running
// carry between chunks.
__device__ __forceinline__ void mars_prefix_sum(const int* in, int* out, int n) {
  __shared__ int buf[256];
  __shared__ int carry;
  const int tx = threadIdx.x;
  if (tx == 0) carry = 0;
  __syncthreads();
  for (int base = 0; base < n; base += 256) {
    const int i = base + tx;
    const int v = i < n ? in[i] : 0;
    buf[tx] = v;
    __syncthreads();
    for (int off = 1; off < 256; off <<= 1) {
      const int add = tx >= off ? buf[tx - off] : 0;
      __syncthreads();
      buf[tx] += add;
      __syncthreads();
    }
    if (i < n) out[i] = carry + buf[tx] - v;
    __syncthreads();
    if (tx == 255) carry += buf[255];
    __syncthreads();
  }
}

// The group phase's order: padding first, then the application's comparison
// of the two keys (negative, zero, positive).
template <class Compare>
__device__ __forceinline__ int mars_order(const Compare& cmp, int4 a, int4 b) {
  if (a.x == -1 || b.x == -1) return a.x == b.x ? 0 : (a.x == -1 ? -1 : 1);
  return cmp(a, b);
}

// One compare-exchange step (k, j) of the bitonic network over the entries.
template <class Compare>
__device__ __forceinline__ void mars_bitonic_step(const Compare& cmp, int4* entries, int k, int j) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int partner = i ^ j;
  if (partner <= i) return;
  const int4 a = entries[i];
  const int4 b = entries[partner];
  const int order = mars_order(cmp, a, b);
  if ((i & k) == 0 ? order > 0 : order < 0) {
    entries[i] = b;
    entries[partner] = a;
  }
}

// marks[i] = 1 where sorted entry first + i starts a group of equal keys.
template <class Compare>
__device__ __forceinline__ void mars_group_marks(const Compare& cmp, const int4* sorted, int first, int n, int* marks) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  marks[i] = (i == 0 || mars_order(cmp, sorted[first + i - 1], sorted[first + i]) != 0) ? 1 : 0;
}

// starts[g] = the position of group g's first entry (slot: the scanned marks).
__device__ __forceinline__ void mars_group_starts(const int* marks, const int* slot, int n, int* starts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (marks[i]) starts[slot[i]] = i;
}

// The runtime's generic kernels, instantiated per application under its own
// prefix: PREFIX_prefix_sum, and (for applications with a group phase)
// PREFIX_bitonic_step, PREFIX_group_marks and PREFIX_group_starts ordered by
// the application's key comparison Compare{inter_keys}.
#define MARS_SCAN_KERNEL(PREFIX)                                                        \
  extern "C" __global__ void PREFIX##_prefix_sum(const int* in, int* out, int n) {     \
    mars_prefix_sum(in, out, n);                                                        \
  }

#define MARS_GROUP_KERNELS(PREFIX, Compare)                                             \
  extern "C" __global__ void PREFIX##_bitonic_step(const char* inter_keys, int4* entries, int k, int j) { \
    mars_bitonic_step(Compare{inter_keys}, entries, k, j);                              \
  }                                                                                     \
  extern "C" __global__ void PREFIX##_group_marks(const char* inter_keys, const int4* sorted, int first, int n, \
                                                  int* marks) {                        \
    mars_group_marks(Compare{inter_keys}, sorted, first, n, marks);                     \
  }                                                                                     \
  extern "C" __global__ void PREFIX##_group_starts(const int* marks, const int* slot, int n, int* starts) { \
    mars_group_starts(marks, slot, n, starts);                                          \
  }
