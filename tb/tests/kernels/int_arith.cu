// Integer arithmetic: add/sub/mul.lo/mul.hi/mul.wide/mad/div/rem/abs/neg/min/max
// for s32, u32, s64, u64. Each thread i writes result k to out[k * n + i].
// Inputs avoid division by zero and INT_MIN / -1 (the host picks them).
extern "C" __global__ void int_s32(const int* a, const int* b, const int* c, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = x + y;
  out[1 * n + i] = x - y;
  out[2 * n + i] = x * y;
  out[3 * n + i] = __mulhi(x, y);
  out[4 * n + i] = x * y + z;
  out[5 * n + i] = x / y;
  out[6 * n + i] = x % y;
  out[7 * n + i] = abs(x);
  out[8 * n + i] = -x;
  out[9 * n + i] = min(x, y);
  out[10 * n + i] = max(x, y);
  out[11 * n + i] = __mul24(x, y);
}

extern "C" __global__ void int_u32(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = x + y;
  out[1 * n + i] = x - y;
  out[2 * n + i] = x * y;
  out[3 * n + i] = __umulhi(x, y);
  out[4 * n + i] = x * y + z;
  out[5 * n + i] = x / y;
  out[6 * n + i] = x % y;
  out[7 * n + i] = min(x, y);
  out[8 * n + i] = max(x, y);
  out[9 * n + i] = __sad(x, y, z);
}

extern "C" __global__ void int_s64(const long long* a, const long long* b, const long long* c, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = x + y;
  out[1 * n + i] = x - y;
  out[2 * n + i] = x * y;
  out[3 * n + i] = __mul64hi(x, y);
  out[4 * n + i] = x * y + z;
  out[5 * n + i] = x / y;
  out[6 * n + i] = x % y;
  out[7 * n + i] = llabs(x);
  out[8 * n + i] = -x;
  out[9 * n + i] = min(x, y);
  out[10 * n + i] = max(x, y);
}

extern "C" __global__ void int_u64(const unsigned long long* a, const unsigned long long* b,
                                   const unsigned long long* c, unsigned long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i], z = c[i];
  out[0 * n + i] = x + y;
  out[1 * n + i] = x - y;
  out[2 * n + i] = x * y;
  out[3 * n + i] = __umul64hi(x, y);
  out[4 * n + i] = x * y + z;
  out[5 * n + i] = x / y;
  out[6 * n + i] = x % y;
  out[7 * n + i] = min(x, y);
  out[8 * n + i] = max(x, y);
}

// mul.wide.s32 / mul.wide.u32 and 32->64 sign/zero extension.
extern "C" __global__ void int_wide(const int* a, const int* b, long long* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  out[0 * n + i] = (long long)x * (long long)y;
  out[1 * n + i] = (long long)((unsigned long long)(unsigned)x * (unsigned long long)(unsigned)y);
  out[2 * n + i] = (long long)x + (long long)(unsigned)y;
}
