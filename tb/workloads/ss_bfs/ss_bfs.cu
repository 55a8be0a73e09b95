// ss_bfs: one level of a frontier-mask breadth-first search (the control
// kernel BFS of the scratchpad-sharing study's Set-3, Table 2: limited by
// threads and registers, no shared memory). 256-thread blocks, one thread per
// node; the graph is an array of node records {first edge, edge count} and an
// edge list. Thread v, if v is in the frontier mask:
//   clears its mask byte, sets its visited byte, then walks its edges,
//   re-reading the node record for the loop bound each iteration; for every
//   neighbour not yet visited it writes cost[v] + 1 into the neighbour's cost,
//   sets the neighbour's mask byte and the global `over` byte.
// A node marked during a launch may be expanded later in the same launch; the
// host relaunches while `over` was set.
struct BfsNode {
  int first_edge;
  int edge_count;
};

#define BFS_BLOCK 256

extern "C" __global__ void ss_bfs_level(const BfsNode* nodes, const int* edges, unsigned char* mask,
                                        unsigned char* visited, int* cost, unsigned char* over, int num_nodes) {
  const int v = blockIdx.x * BFS_BLOCK + threadIdx.x;
  if (v >= num_nodes || !mask[v]) return;
  mask[v] = 0;
  visited[v] = 1;
  for (int e = nodes[v].first_edge; e < nodes[v].first_edge + nodes[v].edge_count; ++e) {
    const int u = edges[e];
    if (!visited[u]) {
      cost[u] = cost[v] + 1;
      mask[u] = 1;
      *over = 1;
    }
  }
}
