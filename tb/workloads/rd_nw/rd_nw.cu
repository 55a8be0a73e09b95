// rd_nw: Rodinia's nw, both kernels, with its 16x16 tiles and 16-thread
// blocks (score tile 17x17 plus substitution tile 16x16 ints: 2180 B of shared
// memory per block). For w = n / 16 tiles per side the host launches
//   rd_nw_shared_1 for i = 1 .. w: tile anti-diagonal i - 1 of the upper-left
//                  triangle, i blocks, block b at tile row i - 1 - b, column b;
//   rd_nw_shared_2 for i = w - 1 .. 1: the lower-right triangle, block b at
//                  tile row w - 1 - b, column b + w - i.
// A block loads its tile's border scores and substitution scores in the
// kernel's order (barriers between), sweeps the 31 anti-diagonals with a
// barrier after each, and stores the tile (../ss_nw/nw_tile.cuh).
#define NW_TILE 16
#include "../ss_nw/nw_tile.cuh"

extern "C" __global__ void rd_nw_shared_1(const int* __restrict__ R, int* M, int ld, int penalty, int i, int w) {
  nw_block<false>(R, M, ld, penalty, blockIdx.x, i - 1 - blockIdx.x);
}

extern "C" __global__ void rd_nw_shared_2(const int* __restrict__ R, int* M, int ld, int penalty, int i, int w) {
  nw_block<true>(R, M, ld, penalty, blockIdx.x + w - i, w - 1 - blockIdx.x);
}
