// nw: Needleman-Wunsch global alignment scores, (n+1) x (n+1) integer matrix
//   M[i][j] = max(M[i-1][j-1] + sub(a[i-1], b[j-1]), M[i-1][j] - gap, M[i][j-1] - gap)
// computed in 16x16 tiles. Tiles on one anti-diagonal of the tile grid are
// independent, so the host launches one kernel per tile diagonal with one
// block per tile. Inside a block, 16 threads sweep the tile's 31 internal
// anti-diagonals in shared memory with a barrier after each: on most steps
// only some lanes are active (wavefront divergence).
#define NW_TILE 16

extern "C" __global__ void nw_tile_diagonal(int* __restrict__ score, const int* __restrict__ seq_a,
                                            const int* __restrict__ seq_b, int n, int diag,
                                            int match, int mismatch, int gap) {
  __shared__ int s[NW_TILE + 1][NW_TILE + 1];
  __shared__ int sa[NW_TILE];
  __shared__ int sb[NW_TILE];
  const int tiles = n / NW_TILE;
  const int t = threadIdx.x;
  const int first = diag - (tiles - 1) > 0 ? diag - (tiles - 1) : 0;
  const int ti = first + blockIdx.x;  // tile row
  const int tj = diag - ti;           // tile column
  const int r0 = ti * NW_TILE, c0 = tj * NW_TILE;
  const int ld = n + 1;

  // The row above and the column left of the tile, already final.
  if (t == 0) s[0][0] = score[r0 * ld + c0];
  s[0][t + 1] = score[r0 * ld + c0 + 1 + t];
  s[t + 1][0] = score[(r0 + 1 + t) * ld + c0];
  sa[t] = seq_a[r0 + t];
  sb[t] = seq_b[c0 + t];
  __syncthreads();

  // Thread t owns tile row t; at step k it computes column k - t.
  for (int k = 0; k < 2 * NW_TILE - 1; ++k) {
    const int j = k - t;
    if (j >= 0 && j < NW_TILE) {
      const int diag_score = s[t][j] + (sa[t] == sb[j] ? match : mismatch);
      const int up = s[t][j + 1] - gap;
      const int left = s[t + 1][j] - gap;
      s[t + 1][j + 1] = max(diag_score, max(up, left));
    }
    __syncthreads();
  }

  for (int r = 0; r < NW_TILE; ++r) score[(r0 + 1 + r) * ld + c0 + 1 + t] = s[r + 1][t + 1];
}
