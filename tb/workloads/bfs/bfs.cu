// bfs: one level of a level-synchronous breadth-first search over a graph in
// CSR form. Thread v expands node v only if it is on the current frontier
// (dist == level), and then loops over its own number of edges: most lanes
// idle and the rest diverge by degree. Unvisited neighbours get level + 1 and
// raise the global `changed` flag that tells the host to launch the next level.
// Races between lanes writing the same neighbour are benign: all write level + 1.
extern "C" __global__ void bfs_level(const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                     int* dist, int level, int num_nodes, int* changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= num_nodes || dist[v] != level) return;
  const int end = row_ptr[v + 1];
  for (int e = row_ptr[v]; e < end; ++e) {
    const int u = col_idx[e];
    if (dist[u] < 0) {
      dist[u] = level + 1;
      *changed = 1;
    }
  }
}
