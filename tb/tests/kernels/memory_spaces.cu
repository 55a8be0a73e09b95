// ld/st in global, shared and local space; sub-word widths with sign and zero
// extension; vector loads/stores (float2, float4, int4, double2).

// Block of 128 threads. Shared: each thread stores, then reads a neighbour's slot
// (reversed). Local: a dynamically indexed array forces .local.
extern "C" __global__ void mem_spaces(const int* in, int* out_shared, int* out_local, int n) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = (i < n) ? in[i] : 0;
  buf[t] = v * 2 + 1;
  __syncthreads();
  int loc[16];
  for (int k = 0; k < 16; ++k) loc[k] = v * (k + 1) - k;
  int idx = (v ^ t) & 15;
  loc[(v >> 4) & 15] += 1000;
  if (i < n) {
    out_shared[i] = buf[blockDim.x - 1 - t];
    out_local[i] = loc[idx];
  }
}

extern "C" __global__ void mem_widths(const signed char* s8, const unsigned char* u8, const short* s16,
                                      const unsigned short* u16, int* out, unsigned char* ob, short* os, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[0 * n + i] = s8[i];
  out[1 * n + i] = u8[i];
  out[2 * n + i] = s16[i];
  out[3 * n + i] = u16[i];
  ob[i] = (unsigned char)(u8[i] + 3);
  os[i] = (short)(s16[i] * 3);
}

extern "C" __global__ void vec_mem(const float4* a4, const float2* a2, const int4* b4, const double2* d2, float4* o4,
                                   float2* o2, int4* oi4, double2* od2, int n) {
  __shared__ float4 sh[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float4 v = (i < n) ? a4[i] : make_float4(0, 0, 0, 0);
  sh[t] = v;
  __syncthreads();
  float4 w = sh[(t + 1) % blockDim.x];
  if (i >= n) return;
  o4[i] = make_float4(v.x + w.w, v.y * 2.0f, v.z - 1.0f, w.x);
  float2 u = a2[i];
  o2[i] = make_float2(u.y, u.x);
  int4 b = b4[i];
  oi4[i] = make_int4(b.w, b.z + 1, b.y ^ 0x5a5a, b.x);
  double2 d = d2[i];
  od2[i] = make_double2(d.y, d.x * 0.5);
}
