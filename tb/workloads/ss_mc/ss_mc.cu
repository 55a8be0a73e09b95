// ss_mc: marching-cubes vertices, the scratchpad-sharing study's MC1
// (generateTriangles: 9216 B of shared memory per 32-thread block).
#include "mc_vertices.cuh"

extern "C" __global__ void ss_mc_vertices(const float* __restrict__ field, int n, float iso,
                                          const unsigned* __restrict__ num_verts_tab,
                                          const unsigned* __restrict__ edge_tab,
                                          const unsigned* __restrict__ verts_scanned, unsigned max_verts,
                                          float4* __restrict__ pos, float4* __restrict__ norm) {
  mc_generate<32>(field, n, iso, num_verts_tab, edge_tab, verts_scanned, max_verts, pos, norm);
}
