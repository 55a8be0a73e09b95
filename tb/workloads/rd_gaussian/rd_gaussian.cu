// rd_gaussian: the GPU half of Rodinia's gaussian (forward elimination without
// pivoting of a x = b). For each pivot t the host launches
//   gauss_fan1  512-thread blocks, a thread per row below the pivot: the
//               multiplier m[r][t] = a[r][t] / a[t][t] (an IEEE division);
//   gauss_fan2  4x4-thread blocks over (rows below the pivot) x (columns from
//               the pivot on): a[r][c] -= m[r][t] * a[t][c], and the threads of
//               the first column also update b[r] -= m[r][t] * b[t].
// The host then back-substitutes. No shared memory. The updates round the product and the difference
// separately (__fmul_rn, __fsub_rn): a plain `a -= m * a` leaves ptxas free to fuse them into one FMA on a
// real GPU, whose result then differs from the host reference's in the last bits.
extern "C" __global__ void gauss_fan1(float* m, const float* a, int size, int t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size - 1 - t) return;
  m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

extern "C" __global__ void gauss_fan2(const float* m, float* a, float* b, int size, int t) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;  // row below the pivot
  const int y = blockIdx.y * blockDim.y + threadIdx.y;  // column from the pivot
  if (x >= size - 1 - t || y >= size - t) return;
  const int row = x + 1 + t;
  a[size * row + (y + t)] = __fsub_rn(a[size * row + (y + t)], __fmul_rn(m[size * row + t], a[size * t + (y + t)]));
  if (y == 0) b[row] = __fsub_rn(b[row], __fmul_rn(m[size * row + t], b[t]));
}
