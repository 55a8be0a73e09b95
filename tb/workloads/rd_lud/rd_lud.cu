// rd_lud: Rodinia's blocked LU decomposition without pivoting, in place on a
// row-major dim x dim float matrix (dim a multiple of 16): L (unit diagonal,
// not stored) below the diagonal, U on and above it. The host walks the
// diagonal 16x16 blocks; at diagonal offset `offset`:
// lud_diagonal (1 block of 16 threads): loads the diagonal block into shared
//   memory (thread c reads column c of every row), factors it column by column
//   (step i: the threads below row i finish column i of L, barrier, the threads
//   right of column i finish row i + 1 of U, barrier) and stores rows 1..15 back.
// lud_perimeter (one 32-thread block per block right of / below the diagonal
//   block): threads 0..15 load the upper half of the diagonal block and the
//   block to the right, threads 16..31 the lower half and the block below;
//   barrier; the first half solves L_diag U = A for the right block (thread =
//   column, forward substitution down the rows), the second half L U_diag = A
//   for the block below (thread = row, along the columns, dividing by U's
//   diagonal); barrier; each half stores its block.
// lud_internal (a 16x16 block per trailing block): loads the perimeter block
//   above it (U) and the one to its left (L) into shared memory, barrier, each
//   thread forms a 16-term dot product and subtracts it from its element.
#define LUD_B 16

extern "C" __global__ void lud_diagonal(float* m, int dim, int offset) {
  __shared__ float shadow[LUD_B][LUD_B];
  const int c = threadIdx.x;
  float* a = m + (size_t)offset * dim + offset;
  for (int i = 0; i < LUD_B; ++i) shadow[i][c] = a[(size_t)i * dim + c];
  __syncthreads();
  for (int i = 0; i < LUD_B - 1; ++i) {
    if (c > i) {  // L[c][i]
      float v = shadow[c][i];
      for (int j = 0; j < i; ++j) v -= shadow[c][j] * shadow[j][i];
      shadow[c][i] = v / shadow[i][i];
    }
    __syncthreads();
    if (c > i) {  // U[i + 1][c]
      float v = shadow[i + 1][c];
      for (int j = 0; j <= i; ++j) v -= shadow[i + 1][j] * shadow[j][c];
      shadow[i + 1][c] = v;
    }
    __syncthreads();
  }
  for (int i = 1; i < LUD_B; ++i) a[(size_t)i * dim + c] = shadow[i][c];
}

extern "C" __global__ void lud_perimeter(float* m, int dim, int offset) {
  __shared__ float dia[LUD_B][LUD_B];
  __shared__ float peri_row[LUD_B][LUD_B];
  __shared__ float peri_col[LUD_B][LUD_B];
  const int tx = threadIdx.x;
  const size_t diag = (size_t)offset * dim + offset;
  const int next = ((int)blockIdx.x + 1) * LUD_B;  // this block's distance from the diagonal block
  if (tx < LUD_B) {
    const int c = tx;
    for (int i = 0; i < LUD_B / 2; ++i) dia[i][c] = m[diag + (size_t)i * dim + c];
    for (int i = 0; i < LUD_B; ++i) peri_row[i][c] = m[diag + (size_t)i * dim + next + c];
  } else {
    const int c = tx - LUD_B;
    for (int i = LUD_B / 2; i < LUD_B; ++i) dia[i][c] = m[diag + (size_t)i * dim + c];
    for (int i = 0; i < LUD_B; ++i) peri_col[i][c] = m[diag + (size_t)(next + i) * dim + c];
  }
  __syncthreads();
  if (tx < LUD_B) {  // U block to the right: column c, unit-lower forward substitution
    const int c = tx;
    for (int i = 1; i < LUD_B; ++i) {
      float v = peri_row[i][c];
      for (int j = 0; j < i; ++j) v -= dia[i][j] * peri_row[j][c];
      peri_row[i][c] = v;
    }
  } else {  // L block below: row r, against U's upper triangle
    const int r = tx - LUD_B;
    for (int i = 0; i < LUD_B; ++i) {
      float v = peri_col[r][i];
      for (int j = 0; j < i; ++j) v -= peri_col[r][j] * dia[j][i];
      peri_col[r][i] = v / dia[i][i];
    }
  }
  __syncthreads();
  if (tx < LUD_B) {
    const int c = tx;
    for (int i = 1; i < LUD_B; ++i) m[diag + (size_t)i * dim + next + c] = peri_row[i][c];
  } else {
    const int c = tx - LUD_B;
    for (int i = 0; i < LUD_B; ++i) m[diag + (size_t)(next + i) * dim + c] = peri_col[i][c];
  }
}

extern "C" __global__ void lud_internal(float* m, int dim, int offset) {
  __shared__ float peri_row[LUD_B][LUD_B];
  __shared__ float peri_col[LUD_B][LUD_B];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = offset + ((int)blockIdx.y + 1) * LUD_B;
  const int col0 = offset + ((int)blockIdx.x + 1) * LUD_B;
  peri_row[ty][tx] = m[(size_t)(offset + ty) * dim + col0 + tx];
  peri_col[ty][tx] = m[(size_t)(row0 + ty) * dim + offset + tx];
  __syncthreads();
  float sum = 0.0f;
  for (int i = 0; i < LUD_B; ++i) sum += peri_col[ty][i] * peri_row[i][tx];
  m[(size_t)(row0 + ty) * dim + col0 + tx] -= sum;
}
