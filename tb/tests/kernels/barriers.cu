// Barriers: __syncthreads in a loop with data exchanged between warps through
// shared memory; a shared-memory tree reduction; barrier reductions
// (__syncthreads_count/_and/_or). Block size 256.
extern "C" __global__ void barrier_loop(const int* in, int* out, int rounds) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  for (int r = 0; r < rounds; ++r) {
    s[t] = v;
    __syncthreads();
    v = s[(t + 37 * r + 1) & 255] + r;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

extern "C" __global__ void barrier_reduce(const int* in, int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void barrier_count(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[blockIdx.x * blockDim.x + t];
  int c = __syncthreads_count(v > 0);
  int a = __syncthreads_and(v > -50);
  int o = __syncthreads_or(v > 90);
  if (t == 0) {
    out[blockIdx.x * 3 + 0] = c;
    out[blockIdx.x * 3 + 1] = a;
    out[blockIdx.x * 3 + 2] = o;
  }
}
