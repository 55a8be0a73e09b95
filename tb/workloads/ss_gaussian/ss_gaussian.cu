// ss_gaussian: the multiplier column of one Gaussian elimination step (the
// control kernel gaussian Fan1 of the scratchpad-sharing study's Set-3,
// Table 2: limited by threads, no shared memory). 512-thread blocks, one
// thread per row below the pivot: for pivot t of a size x size row-major
// matrix a, thread i (i < size - 1 - t) writes
//   m[size * (t + 1 + i) + t] = a[size * (t + 1 + i) + t] / a[size * t + t]
// (an IEEE division); the other threads return at once.
extern "C" __global__ void ss_fan1(float* m, const float* a, int size, int t) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size - 1 - t) return;
  const int row = t + 1 + i;
  m[size * row + t] = a[size * row + t] / a[size * t + t];
}
