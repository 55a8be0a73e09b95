// ss_nw2: the second kernel of a tiled Needleman-Wunsch sweep (the
// scratchpad-sharing study's NW2, 8452 B of shared memory per 32-thread
// block, like NW1). Launch i = w - 1 .. 1 (w = n / 32 tiles per side) runs a
// tile anti-diagonal of the lower-right triangle with i blocks; block b takes
// tile row w - 1 - b, tile column b + w - i. A block
//   1. reads the tile's 32 substitution rows, lane t column t; barrier;
//   2. reads the corner score (lane 0) and the left column of scores, lane t
//      row t; barrier;
//   3. reads the top row of scores, lane t column t; barrier;
//   4. sweeps the 63 anti-diagonals (nw_tile.cuh), a barrier after each;
//   5. writes the 32x32 scores back, row by row.
// Shared memory is used until the last store (Set-2).
#include "../ss_nw/nw_tile.cuh"

extern "C" __global__ void ss_nw_shared_2(const int* __restrict__ R, int* M, int ld, int penalty, int i, int w) {
  nw_block<true>(R, M, ld, penalty, blockIdx.x + w - i, w - 1 - blockIdx.x);
}
