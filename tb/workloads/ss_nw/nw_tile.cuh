#pragma once
// The tile work shared by ss_nw (NW1) and ss_nw2 (NW2), the two kernels of a
// tiled Needleman-Wunsch sweep with 32x32 tiles and one 32-thread block per
// tile, and by rd_nw (both kernels, Rodinia's 16x16 tiles: NW_TILE 16). Over an (n+1) x (n+1) score matrix M (row stride ld = n + 1, first row
// and column preset) and a substitution matrix R of the same shape (R[i][j]
// scores letter i of one sequence against letter j of the other; row and
// column 0 unused),
//   M[i][j] = max(M[i-1][j-1] + R[i][j], M[i][j-1] - penalty, M[i-1][j] - penalty).
// A block holds its tile's scores with their top row and left column in
// sc[33][33] and its substitution scores in sub[32][32] (8452 B). Once both
// are loaded (each kernel loads them in its own order, with its own barriers)
// nw_tile_sweep runs the 63 anti-diagonals of the tile, a barrier after each:
// growing diagonals m = 0..31 on lanes 0..m (lane t takes tile row t, column
// m - t), then shrinking ones m = 30..0 on lanes 0..m (lane t takes tile
// column 31 - t, row t + 31 - m). Consecutive lanes of a diagonal are 32
// words apart in sc (one bank) and 31 apart in sub (conflict free).
// nw_tile_store then writes the tile back row by row, lane t storing column t.
#ifndef NW_TILE
#define NW_TILE 32  // rd_nw defines 16 (Rodinia's BLOCK_SIZE) before including this file
#endif

__device__ __forceinline__ int nw_max3(int a, int b, int c) { return max(max(a, b), c); }

__device__ __forceinline__ void nw_cell(int (*sc)[NW_TILE + 1], int (*sub)[NW_TILE], int y, int x, int penalty) {
  sc[y][x] = nw_max3(sc[y - 1][x - 1] + sub[y - 1][x - 1], sc[y][x - 1] - penalty, sc[y - 1][x] - penalty);
}

__device__ __forceinline__ void nw_tile_sweep(int (*sc)[NW_TILE + 1], int (*sub)[NW_TILE], int penalty) {
  const int t = threadIdx.x;
  for (int m = 0; m < NW_TILE; ++m) {
    if (t <= m) nw_cell(sc, sub, t + 1, m - t + 1, penalty);
    __syncthreads();
  }
  for (int m = NW_TILE - 2; m >= 0; --m) {
    if (t <= m) nw_cell(sc, sub, t + NW_TILE - m, NW_TILE - t, penalty);
    __syncthreads();
  }
}

// `cell` is the M offset of the tile's first interior cell plus this lane's column.
__device__ __forceinline__ void nw_tile_store(int* M, int (*sc)[NW_TILE + 1], size_t cell, int ld) {
  const int t = threadIdx.x;
  for (int r = 0; r < NW_TILE; ++r) M[cell + (size_t)r * ld] = sc[r + 1][t + 1];
}

// One block of either kernel: the tile at (tile_x, tile_y). The kernels
// differ only in the order of their loads:
//   first kernel (kSubFirst false): corner score (lane 0) and the tile's
//     substitution rows (lane t column t); barrier; the left column of scores
//     (lane t row t); barrier; the top row; barrier;
//   second kernel (kSubFirst true): substitution rows; barrier; corner and
//     left column; barrier; top row; barrier;
// then the sweep and the store.
template <bool kSubFirst>
__device__ __forceinline__ void nw_block(const int* __restrict__ R, int* M, int ld, int penalty, int tile_x,
                                         int tile_y) {
  __shared__ int sc[NW_TILE + 1][NW_TILE + 1];
  __shared__ int sub[NW_TILE][NW_TILE];
  const int t = threadIdx.x;
  const size_t corner = (size_t)ld * NW_TILE * tile_y + NW_TILE * tile_x;  // M offset of the tile's top-left halo cell
  const size_t cell = corner + ld + 1 + t;                                // row 1 of the tile, this lane's column

  if (!kSubFirst && t == 0) sc[0][0] = M[corner];
  for (int r = 0; r < NW_TILE; ++r) sub[r][t] = R[cell + (size_t)r * ld];
  __syncthreads();
  if (kSubFirst && t == 0) sc[0][0] = M[corner];
  sc[t + 1][0] = M[corner + (size_t)ld * (t + 1)];
  __syncthreads();
  sc[0][t + 1] = M[corner + 1 + t];
  __syncthreads();

  nw_tile_sweep(sc, sub, penalty);
  nw_tile_store(M, sc, cell, ld);
}
