// ss_mc2: the marching-cubes kernel of ss_mc at the study's MC2 size (Table 5:
// generateTriangles with 2 shared variables, 13824 B, 48 threads: one and a
// half warps per block).
#include "../ss_mc/mc_vertices.cuh"

extern "C" __global__ void ss_mc2_vertices(const float* __restrict__ field, int n, float iso,
                                           const unsigned* __restrict__ num_verts_tab,
                                           const unsigned* __restrict__ edge_tab,
                                           const unsigned* __restrict__ verts_scanned, unsigned max_verts,
                                           float4* __restrict__ pos, float4* __restrict__ norm) {
  mc_generate<48>(field, n, iso, num_verts_tab, edge_tab, verts_scanned, max_verts, pos, norm);
}
