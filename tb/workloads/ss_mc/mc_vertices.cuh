#pragma once
// The marching-cubes vertex kernel of ss_mc (MC1, 32 threads) and ss_mc2 (MC2,
// 48 threads): two per-thread vertex lists, 2 x 12 edges x THREADS x float3 of
// shared memory per THREADS-thread block (9216 B at 32, 13824 B at 48).
// One thread per cube of an n x n x n grid over a (n+1)^3 scalar field:
//   1. reads the 8 corner values and forms the cube-local gradient at each
//      corner (registers only);
//   2. for each of the 12 edges that crosses the iso level, interpolates the
//      crossing point and the unit normal (the gradient interpolated along the
//      edge) into its slots of vpos / vnrm;
//   3. walks the crossing edges in order (data-dependent indices into the
//      lists) and writes them compacted to the cube's 12 output slots, then
//      its vertex count.
// Corner c is (x + (c & 1), y + (c >> 1 & 1), z + (c >> 2 & 1)).

template <int THREADS>
__device__ __forceinline__ void mc_vertices(const float* __restrict__ field, int n, float iso,
                                            float3* __restrict__ out_pos, float3* __restrict__ out_nrm,
                                            int* __restrict__ out_count) {
  __shared__ float3 vpos[12][THREADS];
  __shared__ float3 vnrm[12][THREADS];
  const int edge_a[12] = {0, 2, 4, 6, 0, 1, 4, 5, 0, 1, 2, 3};
  const int edge_b[12] = {1, 3, 5, 7, 2, 3, 6, 7, 4, 5, 6, 7};
  const int t = threadIdx.x;
  const int cube = blockIdx.x * THREADS + t;
  if (cube >= n * n * n) return;
  const int x = cube % n, y = (cube / n) % n, z = cube / (n * n);
  const int m = n + 1;

  float v[8];
#pragma unroll
  for (int c = 0; c < 8; ++c)
    v[c] = field[((size_t)(z + (c >> 2 & 1)) * m + (y + (c >> 1 & 1))) * m + x + (c & 1)];
  float gx[8], gy[8], gz[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) {
    gx[c] = v[c | 1] - v[c & ~1];
    gy[c] = v[c | 2] - v[c & ~2];
    gz[c] = v[c | 4] - v[c & ~4];
  }

  unsigned mask = 0;
#pragma unroll
  for (int e = 0; e < 12; ++e) {
    const int a = edge_a[e], b = edge_b[e];
    if ((v[a] < iso) != (v[b] < iso)) {
      const float f = (iso - v[a]) / (v[b] - v[a]);
      float3 p;
      p.x = (float)(x + (a & 1)) + f * (float)((b & 1) - (a & 1));
      p.y = (float)(y + (a >> 1 & 1)) + f * (float)((b >> 1 & 1) - (a >> 1 & 1));
      p.z = (float)(z + (a >> 2 & 1)) + f * (float)((b >> 2 & 1) - (a >> 2 & 1));
      const float nx = gx[a] + f * (gx[b] - gx[a]);
      const float ny = gy[a] + f * (gy[b] - gy[a]);
      const float nz = gz[a] + f * (gz[b] - gz[a]);
      const float inv = 1.0f / sqrtf(nx * nx + ny * ny + nz * nz + 1e-20f);
      vpos[e][t] = p;
      vnrm[e][t] = make_float3(nx * inv, ny * inv, nz * inv);
      mask |= 1u << e;
    }
  }

  int k = 0;
  while (mask) {
    const int e = __ffs(mask) - 1;
    mask &= mask - 1;
    out_pos[(size_t)cube * 12 + k] = vpos[e][t];
    out_nrm[(size_t)cube * 12 + k] = vnrm[e][t];
    ++k;
  }
  out_count[cube] = k;
}
