// ss_nw: Needleman-Wunsch alignment scores with 32x32 tiles (the
// scratchpad-sharing study's NW: score tile 33x33 plus substitution tile
// 32x32 ints, 8452 B of shared memory per 32-thread block).
//   M[i][j] = max(M[i-1][j-1] + ref[i-1][j-1], M[i-1][j] - penalty, M[i][j-1] - penalty)
// over an (n+1) x (n+1) matrix whose first row and column are preset; ref is
// the n x n substitution score of the two sequences, precomputed (as from a
// BLOSUM table). The host launches one kernel per anti-diagonal of the tile
// grid, one block per tile. A block loads the tile's substitution scores and
// its top row / left column of M, sweeps the 63 internal anti-diagonals with
// a barrier after each (lane t owns tile row t), then writes the tile back.
#define NT 32

extern "C" __global__ void ss_nw_tiles(int* __restrict__ M, const int* __restrict__ ref, int n, int diag,
                                       int penalty) {
  __shared__ int sc[NT + 1][NT + 1];
  __shared__ int sub[NT][NT];
  const int t = threadIdx.x;
  const int tiles = n / NT;
  const int row_tile = (diag < tiles ? 0 : diag - tiles + 1) + blockIdx.x;
  const int col_tile = diag - row_tile;
  const int i0 = row_tile * NT, j0 = col_tile * NT;  // M offset of the tile's corner cell
  const int ld = n + 1;

  for (int r = 0; r < NT; ++r) sub[r][t] = ref[(size_t)(i0 + r) * n + j0 + t];
  sc[0][t + 1] = M[(size_t)i0 * ld + j0 + 1 + t];
  sc[t + 1][0] = M[(size_t)(i0 + 1 + t) * ld + j0];
  if (t == 0) sc[0][0] = M[(size_t)i0 * ld + j0];
  __syncthreads();

  for (int k = 0; k < 2 * NT - 1; ++k) {
    const int c = k - t;
    if (c >= 0 && c < NT) {
      const int d = sc[t][c] + sub[t][c];
      const int u = sc[t][c + 1] - penalty;
      const int l = sc[t + 1][c] - penalty;
      sc[t + 1][c + 1] = max(d, max(u, l));
    }
    __syncthreads();
  }
  for (int r = 1; r <= NT; ++r) M[(size_t)(i0 + r) * ld + j0 + 1 + t] = sc[r][t + 1];
}
