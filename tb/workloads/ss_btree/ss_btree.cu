// ss_btree: range queries on a B+ tree stored as an array of fixed-size nodes
// (the control kernel b+tree findRangeK of the scratchpad-sharing study's
// Set-3, Table 2: limited by registers, no shared memory). One block of 256
// threads (the tree's order) per query; thread t owns key slot t of a node.
// Per query b the block walks two root-to-leaf paths at once, one for the
// range's first key start[b] and one for its last key end[b]:
//   for each of `height` levels:
//     the thread whose slot brackets the key (keys[t] <= key < keys[t + 1])
//     in the current node writes that slot's child index (if it is a valid
//     node index) to offset[b] (offset2[b] for the end path); barrier;
//     thread 0 moves curr[b] and last[b] to the children; barrier;
//   at the leaves, the thread holding start[b] writes its record index to
//   recstart[b]; barrier; the thread holding end[b] writes the range length
//   (its record index - recstart[b] + 1) to reclen[b].
// The per-query node indices live in global 64-bit arrays, re-read as the
// block goes down.
#define BTREE_ORDER 256

struct KNode {
  int location;
  int indices[BTREE_ORDER + 1];
  int keys[BTREE_ORDER + 1];
  bool is_leaf;
  int num_keys;
};

extern "C" __global__ void ss_find_range_k(long long height, const KNode* knodes, long long knodes_elem,
                                           long long* curr, long long* offset, long long* last, long long* offset2,
                                           const int* start, const int* end, int* recstart, int* reclen) {
  const int t = threadIdx.x;
  const int b = blockIdx.x;
  for (long long level = 0; level < height; ++level) {
    if (knodes[curr[b]].keys[t] <= start[b] && knodes[curr[b]].keys[t + 1] > start[b]) {
      if (knodes[curr[b]].indices[t] < knodes_elem) offset[b] = knodes[curr[b]].indices[t];
    }
    if (knodes[last[b]].keys[t] <= end[b] && knodes[last[b]].keys[t + 1] > end[b]) {
      if (knodes[last[b]].indices[t] < knodes_elem) offset2[b] = knodes[last[b]].indices[t];
    }
    __syncthreads();
    if (t == 0) {
      curr[b] = offset[b];
      last[b] = offset2[b];
    }
    __syncthreads();
  }
  if (knodes[curr[b]].keys[t] == start[b]) recstart[b] = knodes[curr[b]].indices[t];
  __syncthreads();
  if (knodes[last[b]].keys[t] == end[b]) reclen[b] = knodes[last[b]].indices[t] - recstart[b] + 1;
}
