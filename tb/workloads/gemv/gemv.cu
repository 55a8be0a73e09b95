// gemv: matrix-vector products on a row-major n x n float matrix A, the two ways
// a linear-algebra code walks it.
//  - gemv_rows: y = A x, one thread per row. At step k the lanes of a warp read
//    A[row][k] for 32 consecutive rows, 4n bytes apart: every lane a different
//    line (the column-walking access), the lines reused over the next 31 steps
//    if the L1 keeps them.
//  - gemv_cols: z = A^T x, one thread per column. The lanes read A[k][col] for
//    32 consecutive columns: one line per warp and step (coalesced).
// x[k] is the same for every lane (one request, broadcast). Products and sums
// are rounded separately (no fused multiply-add), so the host reference that
// sums in the same order gets the same bits.
extern "C" __global__ void gemv_rows(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc = __fadd_rn(acc, __fmul_rn(A[row * n + k], x[k]));
  y[row] = acc;
}

extern "C" __global__ void gemv_cols(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ z, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc = __fadd_rn(acc, __fmul_rn(A[k * n + col], x[k]));
  z[col] = acc;
}
