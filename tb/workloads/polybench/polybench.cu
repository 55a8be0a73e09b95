// polybench: kernels with the structure of PolyBench/GPU 1.0 (Grauer-Gray et al., InPar 2012), the suite
// CIAO's Table II draws its memory-intensive workloads from, plus two compute-bound controls (2DCONV,
// CORR). Our own code: each kernel keeps its source kernel's name, thread mapping (which thread walks which
// index), loop order and global accesses, including the sources' habit of accumulating into the output
// array in global memory (`out[i] += ...` inside the loop): the pointers are not __restrict__, so the
// compiler keeps a load of the operands and a store of the partial sum in every iteration, as it does for
// the suite's own kernels. Every float operation is rounded on its own (__fmul_rn, __fadd_rn, __fdiv_rn,
// __fsqrt_rn: no fused multiply-add), in the order of the source's expression, so the host references
// (polybench.cpp) that do the same operations in the same order match bit for bit.
//
// 1-D kernels run 256 x 1 blocks, 2-D kernels 32 x 8 blocks, j from x and i from y (the suite's defaults).

// ATAX: y = A^T (A x). Kernel 1, a thread per row i, walks row i (lanes 4 ny bytes apart: a line each);
// kernel 2, a thread per column j, walks column j (one line per warp and step).
extern "C" __global__ void atax_kernel1(int nx, int ny, const float* A, const float* x, float* tmp) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    tmp[i] = 0.0f;
    for (int j = 0; j < ny; j++) tmp[i] = __fadd_rn(tmp[i], __fmul_rn(A[i * ny + j], x[j]));
  }
}

extern "C" __global__ void atax_kernel2(int nx, int ny, const float* A, float* y, const float* tmp) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    y[j] = 0.0f;
    for (int i = 0; i < nx; i++) y[j] = __fadd_rn(y[j], __fmul_rn(A[i * ny + j], tmp[i]));
  }
}

// BICG: s = A^T r (kernel 1, a thread per column j, down the column), q = A p (kernel 2, a thread per row
// i, along the row).
extern "C" __global__ void bicg_kernel1(int nx, int ny, const float* A, const float* r, float* s) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; i++) s[j] = __fadd_rn(s[j], __fmul_rn(r[i], A[i * ny + j]));
  }
}

extern "C" __global__ void bicg_kernel2(int nx, int ny, const float* A, const float* p, float* q) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++) q[i] = __fadd_rn(q[i], __fmul_rn(A[i * ny + j], p[j]));
  }
}

// MVT: x1 += A y1 (kernel 1, a thread per i along row i), x2 += A^T y2 (kernel 2, a thread per i down
// column i). The accumulators start from their input values (not cleared).
extern "C" __global__ void mvt_kernel1(int n, const float* a, float* x1, const float* y_1) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x1[i] = __fadd_rn(x1[i], __fmul_rn(a[i * n + j], y_1[j]));
  }
}

extern "C" __global__ void mvt_kernel2(int n, const float* a, float* x2, const float* y_2) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) x2[i] = __fadd_rn(x2[i], __fmul_rn(a[j * n + i], y_2[j]));
  }
}

// GESUMMV: y = alpha A x + beta B x, one kernel, a thread per row i walking rows i of A and B together;
// tmp and y accumulate in global memory from the values the host put there.
extern "C" __global__ void gesummv_kernel(int n, float alpha, float beta, const float* A, const float* B,
                                          float* tmp, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] = __fadd_rn(tmp[i], __fmul_rn(A[i * n + j], x[j]));
      y[i] = __fadd_rn(y[i], __fmul_rn(B[i * n + j], x[j]));
    }
    y[i] = __fadd_rn(__fmul_rn(alpha, tmp[i]), __fmul_rn(beta, y[i]));
  }
}

// SYRK: C = alpha A A^T + beta C, A ni x nj, a thread per C element (i from y, j from x). At step k a warp
// (32 consecutive j, one i) reads a[i][k] (one address) and a[j][k] for 32 rows (a line each).
extern "C" __global__ void syrk_kernel(int ni, int nj, float alpha, float beta, const float* a, float* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < ni) {
    c[i * ni + j] = __fmul_rn(c[i * ni + j], beta);
    for (int k = 0; k < nj; k++)
      c[i * ni + j] = __fadd_rn(c[i * ni + j], __fmul_rn(__fmul_rn(alpha, a[i * nj + k]), a[j * nj + k]));
  }
}

// SYR2K: C = alpha A B^T + alpha B A^T + beta C, the same mapping, four operand streams per step.
extern "C" __global__ void syr2k_kernel(int ni, int nj, float alpha, float beta, const float* a, const float* b,
                                        float* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < ni) {
    c[i * ni + j] = __fmul_rn(c[i * ni + j], beta);
    for (int k = 0; k < nj; k++)
      c[i * ni + j] =
          __fadd_rn(c[i * ni + j], __fadd_rn(__fmul_rn(__fmul_rn(alpha, a[i * nj + k]), b[j * nj + k]),
                                             __fmul_rn(__fmul_rn(alpha, b[i * nj + k]), a[j * nj + k])));
  }
}

// GEMM: C = alpha A B + beta C, the suite's naive kernel: a thread per C element, no shared memory; at
// step k a warp reads a[i][k] (one address) and b[k][j..j+31] (one line).
extern "C" __global__ void gemm_kernel(int ni, int nj, int nk, float alpha, float beta, const float* a,
                                       const float* b, float* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    c[i * nj + j] = __fmul_rn(c[i * nj + j], beta);
    for (int k = 0; k < nk; k++)
      c[i * nj + j] = __fadd_rn(c[i * nj + j], __fmul_rn(__fmul_rn(alpha, a[i * nk + k]), b[k * nj + j]));
  }
}

// 2MM: tmp = alpha A B (kernel 1), D = beta D + tmp C (kernel 2), each a thread per output element.
extern "C" __global__ void mm2_kernel1(int ni, int nj, int nk, int nl, float alpha, float beta, float* tmp,
                                       const float* A, const float* B) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; k++)
      tmp[i * nj + j] = __fadd_rn(tmp[i * nj + j], __fmul_rn(__fmul_rn(alpha, A[i * nk + k]), B[k * nj + j]));
  }
}

extern "C" __global__ void mm2_kernel2(int ni, int nj, int nk, int nl, float alpha, float beta, const float* tmp,
                                       const float* C, float* D) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    D[i * nl + j] = __fmul_rn(D[i * nl + j], beta);
    for (int k = 0; k < nj; k++)
      D[i * nl + j] = __fadd_rn(D[i * nl + j], __fmul_rn(tmp[i * nj + k], C[k * nl + j]));
  }
}

// 2DCONV: 3x3 convolution with the suite's fixed coefficients, a thread per output pixel, the border
// pixels skipped (left as they were); nine loads, the products summed left to right in the source's order.
extern "C" __global__ void convolution2D_kernel(int ni, int nj, const float* A, float* B) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  const float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
    float s = __fmul_rn(c11, A[(i - 1) * nj + (j - 1)]);
    s = __fadd_rn(s, __fmul_rn(c21, A[(i - 1) * nj + (j + 0)]));
    s = __fadd_rn(s, __fmul_rn(c31, A[(i - 1) * nj + (j + 1)]));
    s = __fadd_rn(s, __fmul_rn(c12, A[(i + 0) * nj + (j - 1)]));
    s = __fadd_rn(s, __fmul_rn(c22, A[(i + 0) * nj + (j + 0)]));
    s = __fadd_rn(s, __fmul_rn(c32, A[(i + 0) * nj + (j + 1)]));
    s = __fadd_rn(s, __fmul_rn(c13, A[(i + 1) * nj + (j - 1)]));
    s = __fadd_rn(s, __fmul_rn(c23, A[(i + 1) * nj + (j + 0)]));
    s = __fadd_rn(s, __fmul_rn(c33, A[(i + 1) * nj + (j + 1)]));
    B[i * nj + j] = s;
  }
}

// CORR: correlation matrix of the m columns of an n x m data matrix, the suite's four kernels in order:
// column means and standard deviations (a thread per column, down the column), the centred and scaled data
// in place (a thread per element), then the upper triangle (a thread per column j1, looping j2 > j1 and,
// inside, over the rows), mirrored into the lower one, diagonal 1.
#define PB_FLOAT_N 3214212.01f
#define PB_EPS 0.005f

extern "C" __global__ void mean_kernel(int m, int n, float* mean, const float* data) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; i++) mean[j] = __fadd_rn(mean[j], data[i * m + j]);
    mean[j] = __fdiv_rn(mean[j], PB_FLOAT_N);
  }
}

extern "C" __global__ void std_kernel(int m, int n, const float* mean, float* std, const float* data) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    std[j] = 0.0f;
    for (int i = 0; i < n; i++)
      std[j] = __fadd_rn(std[j], __fmul_rn(__fsub_rn(data[i * m + j], mean[j]), __fsub_rn(data[i * m + j], mean[j])));
    std[j] = __fdiv_rn(std[j], PB_FLOAT_N);
    std[j] = __fsqrt_rn(std[j]);
    if (std[j] <= PB_EPS) std[j] = 1.0f;
  }
}

extern "C" __global__ void reduce_kernel(int m, int n, const float* mean, const float* std, float* data) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) {
    data[i * m + j] = __fsub_rn(data[i * m + j], mean[j]);
    data[i * m + j] = __fdiv_rn(data[i * m + j], __fmul_rn(__fsqrt_rn(PB_FLOAT_N), std[j]));
  }
}

extern "C" __global__ void corr_kernel(int m, int n, float* symmat, const float* data) {
  const int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; i++)
        symmat[j1 * m + j2] = __fadd_rn(symmat[j1 * m + j2], __fmul_rn(data[i * m + j1], data[i * m + j2]));
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}
