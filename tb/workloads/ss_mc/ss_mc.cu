// ss_mc: marching-cubes style isosurface vertices, the scratchpad-sharing
// study's MC1 (generateTriangles: 9216 B of shared memory per 32-thread block).
#include "mc_vertices.cuh"

extern "C" __global__ void ss_mc_vertices(const float* __restrict__ field, int n, float iso,
                                          float3* __restrict__ out_pos, float3* __restrict__ out_nrm,
                                          int* __restrict__ out_count) {
  mc_vertices<32>(field, n, iso, out_pos, out_nrm, out_count);
}
