#pragma once
// The marching-cubes kernel of ss_mc (MC1, 32 threads) and ss_mc2 (MC2, 48
// threads): the CUDA sample marchingCubes' generateTriangles with its two
// shared vertex lists, vertlist[12 * THREADS] and normlist[12 * THREADS] of
// float3 (9216 B at 32 threads, 13824 B at 48). One thread per cube of an
// n x n x n grid over a (n+1)^3 scalar field, as the sample's kernel without
// SKIP_EMPTY_VOXELS (voxel = thread index). The phases follow the public
// kernel:
//   1. a thread past the last cube takes the last cube (no early return:
//      every thread reaches the barrier); it reads its cube's 8 corner
//      values (global memory; the sample evaluates a field function there),
//      forms the cube-local gradient at each corner and the cube index (one
//      bit per corner below the iso level), in registers;
//   2. it interpolates the crossing point and the normal (the gradient
//      interpolated along the edge, unnormalised) of all 12 edges into its
//      slots of vertlist / normlist, crossing or not; barrier;
//   3. it reads its vertex count from a table indexed by the cube index and,
//      per vertex, the edge from a 16-entry table row and the output index
//      from the scanned vertex counts (global memory), and writes the edge's
//      point and normal from the lists (data-dependent indices) to pos / norm
//      as float4 (w = 1 and 0) if the index is below max_verts.
// The tables list each crossing edge once, in edge order (the sample's
// triTable lists 3 edges per triangle, so a vertex can appear several
// times). Corner c is (x + (c & 1), y + (c >> 1 & 1), z + (c >> 2 & 1)).

template <int THREADS>
__device__ __forceinline__ void mc_generate(const float* __restrict__ field, int n, float iso,
                                            const unsigned* __restrict__ num_verts_tab,
                                            const unsigned* __restrict__ edge_tab,
                                            const unsigned* __restrict__ verts_scanned, unsigned max_verts,
                                            float4* __restrict__ pos, float4* __restrict__ norm) {
  __shared__ float3 vertlist[12 * THREADS];
  __shared__ float3 normlist[12 * THREADS];
  const int edge_a[12] = {0, 2, 4, 6, 0, 1, 4, 5, 0, 1, 2, 3};
  const int edge_b[12] = {1, 3, 5, 7, 2, 3, 6, 7, 4, 5, 6, 7};
  const int t = threadIdx.x;
  const unsigned cubes = (unsigned)(n * n * n);
  unsigned cube = blockIdx.x * THREADS + t;
  if (cube > cubes - 1) cube = cubes - 1;
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
  unsigned cubeindex = 0;
#pragma unroll
  for (int c = 0; c < 8; ++c) cubeindex |= (unsigned)(v[c] < iso) << c;

#pragma unroll
  for (int e = 0; e < 12; ++e) {
    const int a = edge_a[e], b = edge_b[e];
    const float f = (iso - v[a]) / (v[b] - v[a]);
    float3 p, q;
    p.x = (float)(x + (a & 1)) + f * (float)((b & 1) - (a & 1));
    p.y = (float)(y + (a >> 1 & 1)) + f * (float)((b >> 1 & 1) - (a >> 1 & 1));
    p.z = (float)(z + (a >> 2 & 1)) + f * (float)((b >> 2 & 1) - (a >> 2 & 1));
    q.x = gx[a] + f * (gx[b] - gx[a]);
    q.y = gy[a] + f * (gy[b] - gy[a]);
    q.z = gz[a] + f * (gz[b] - gz[a]);
    vertlist[e * THREADS + t] = p;
    normlist[e * THREADS + t] = q;
  }
  __syncthreads();

  const unsigned nv = num_verts_tab[cubeindex];
  for (unsigned i = 0; i < nv; ++i) {
    const unsigned edge = edge_tab[cubeindex * 16 + i];
    const unsigned index = verts_scanned[cube] + i;
    if (index < max_verts) {
      const float3 p = vertlist[edge * THREADS + t], q = normlist[edge * THREADS + t];
      pos[index] = make_float4(p.x, p.y, p.z, 1.0f);
      norm[index] = make_float4(q.x, q.y, q.z, 0.0f);
    }
  }
}
