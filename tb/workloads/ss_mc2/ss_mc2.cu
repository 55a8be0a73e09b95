// ss_mc2: the marching-cubes vertex kernel of ss_mc at the study's MC2 size
// (Table 5: generateTriangles with 2 shared variables, 13824 B, 48 threads:
// one and a half warps per block).
#include "../ss_mc/mc_vertices.cuh"

extern "C" __global__ void ss_mc2_vertices(const float* __restrict__ field, int n, float iso,
                                           float3* __restrict__ out_pos, float3* __restrict__ out_nrm,
                                           int* __restrict__ out_count) {
  mc_vertices<48>(field, n, iso, out_pos, out_nrm, out_count);
}
