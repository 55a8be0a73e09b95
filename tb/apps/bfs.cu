// bfs: breadth-first search with a data-dependent host loop (launch until no vertex changes), the style of
// Rodinia's BFS, run unmodified by `warptlm exec`. The graph is a seeded random one in CSR form; the changed
// flag is a __device__ variable the host resets and reads each round. Levels checked against a host BFS.
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <random>
#include <vector>

__device__ int changed;

__global__ void expand(const int* row, const int* col, int* level, int n, int depth) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != depth) return;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    const int u = col[e];
    if (level[u] < 0) {
      level[u] = depth + 1;  // every writer writes the same value
      changed = 1;
    }
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000, degree = 3;
  std::mt19937 rng(7);
  std::vector<std::vector<int>> adj(n);
  for (int v = 1; v < n; ++v) {  // a random tree (all reachable) plus random extra edges
    const int p = int(rng() % v);
    adj[p].push_back(v);
    adj[v].push_back(p);
  }
  for (int k = 0; k < n * degree / 2; ++k) {
    const int a = int(rng() % n), b = int(rng() % n);
    adj[a].push_back(b);
  }
  std::vector<int> row(n + 1, 0), col;
  for (int v = 0; v < n; ++v) {
    row[v + 1] = row[v] + int(adj[v].size());
    col.insert(col.end(), adj[v].begin(), adj[v].end());
  }
  std::vector<int> level(n, -1);
  level[0] = 0;
  int *drow, *dcol, *dlevel;
  cudaMalloc(&drow, (n + 1) * sizeof(int));
  cudaMalloc(&dcol, col.size() * sizeof(int));
  cudaMalloc(&dlevel, n * sizeof(int));
  cudaMemcpy(drow, row.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dcol, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dlevel, level.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int depth = 0, rounds = 0;
  for (;;) {  // until a round changes nothing: the host cannot know the count in advance
    const int zero = 0;
    cudaMemcpyToSymbol(changed, &zero, sizeof(int));
    expand<<<(n + 127) / 128, 128>>>(drow, dcol, dlevel, n, depth);
    int c = 0;
    cudaMemcpyFromSymbol(&c, changed, sizeof(int));
    ++rounds;
    if (!c) break;
    ++depth;
  }
  std::vector<int> got(n);
  cudaMemcpy(got.data(), dlevel, n * sizeof(int), cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaGetLastError();

  std::vector<int> want(n, -1);
  std::queue<int> q;
  want[0] = 0;
  q.push(0);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int u : adj[v])
      if (want[u] < 0) { want[u] = want[v] + 1; q.push(u); }
  }
  int bad = 0;
  for (int v = 0; v < n; ++v)
    if (got[v] != want[v] && bad++ < 3) std::printf("bfs: level[%d] = %d, expected %d\n", v, got[v], want[v]);
  std::printf("bfs: %d vertices, %zu edges, %d rounds, deepest level %d: %s (%s)\n", n, col.size(), rounds, depth,
              bad ? "WRONG" : "match", cudaGetErrorString(err));
  return bad == 0 && err == cudaSuccess && rounds > 2 ? 0 : 1;
}
