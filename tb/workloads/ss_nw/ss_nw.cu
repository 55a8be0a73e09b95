// ss_nw: the first kernel of a tiled Needleman-Wunsch sweep (the
// scratchpad-sharing study's NW1: score tile 33x33 plus substitution tile
// 32x32 ints, 8452 B of shared memory per 32-thread block). Launch i = 1..w
// (w = n / 32 tiles per side) runs tile anti-diagonal i - 1 of the upper-left
// triangle with i blocks; block b takes tile row i - 1 - b, tile column b.
// A block
//   1. reads the corner score (lane 0) and the tile's 32 substitution rows,
//      lane t column t (row-wise coalesced); barrier;
//   2. reads the left column of scores, lane t row t; barrier;
//   3. reads the top row of scores, lane t column t; barrier;
//   4. sweeps the 63 anti-diagonals (nw_tile.cuh), a barrier after each;
//   5. writes the 32x32 scores back, row by row.
// Shared memory is used until the last store (Set-2).
#include "nw_tile.cuh"

extern "C" __global__ void ss_nw_shared_1(const int* __restrict__ R, int* M, int ld, int penalty, int i, int w) {
  nw_block<false>(R, M, ld, penalty, blockIdx.x, i - 1 - blockIdx.x);
}
