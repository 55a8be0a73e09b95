// unsupported: calls a CUDA runtime function WarpTLM's runtime does not provide (graphs); under `warptlm exec`
// it must stop with a non-zero status naming the function, never run on with a wrong answer.
#include <cstdio>

int main() {
  cudaGraph_t graph;
  const cudaError_t e = cudaGraphCreate(&graph, 0);
  std::printf("unsupported: cudaGraphCreate returned %d\n", int(e));
  return 0;
}
