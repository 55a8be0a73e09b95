// ss_nqu: n-queens solution counting (the scratchpad-sharing study's NQU:
// 10496 B of shared memory in 5 arrays per 64-thread block). The host places
// queens in the first k rows in every valid way; each thread takes one such
// prefix (its column / left-diagonal / right-diagonal masks) and counts the
// completions with an iterative depth-first search whose per-depth state
// lives in per-thread stacks in shared memory, laid out [depth][thread] so a
// warp's accesses fall in different banks. Threads finish after very
// different numbers of steps (heavy divergence). The per-thread counts are
// tree-reduced in shared memory into a block total; each thread then writes
// its own count from a register. At most MAXD = 10 rows remain after a prefix.
#define NQ_THREADS 64
#define MAXD 10

extern "C" __global__ void ss_nqueens(const unsigned* __restrict__ prefix_cols, const unsigned* __restrict__ prefix_ld,
                                      const unsigned* __restrict__ prefix_rd, int n_prefix, int n,
                                      unsigned* __restrict__ per_prefix, unsigned* __restrict__ per_block) {
  __shared__ unsigned st_cols[MAXD][NQ_THREADS];
  __shared__ unsigned st_ld[MAXD][NQ_THREADS];
  __shared__ unsigned st_rd[MAXD][NQ_THREADS];
  __shared__ unsigned st_free[MAXD][NQ_THREADS];
  __shared__ unsigned counts[NQ_THREADS];
  const int t = threadIdx.x;
  const int p = blockIdx.x * NQ_THREADS + t;
  const unsigned all = (1u << n) - 1u;
  unsigned found = 0;
  if (p < n_prefix) {
    int d = 0;
    st_cols[0][t] = prefix_cols[p];
    st_ld[0][t] = prefix_ld[p];
    st_rd[0][t] = prefix_rd[p];
    st_free[0][t] = all & ~(prefix_cols[p] | prefix_ld[p] | prefix_rd[p]);
    while (d >= 0) {
      const unsigned avail = st_free[d][t];
      if (avail == 0u) {  // this depth is exhausted: pop
        --d;
        continue;
      }
      const unsigned bit = avail & (0u - avail);
      st_free[d][t] = avail ^ bit;
      const unsigned cols = st_cols[d][t] | bit;
      if (cols == all) {  // the last row is placed
        ++found;
        continue;
      }
      const unsigned ld = ((st_ld[d][t] | bit) << 1) & all;
      const unsigned rd = (st_rd[d][t] | bit) >> 1;
      ++d;
      st_cols[d][t] = cols;
      st_ld[d][t] = ld;
      st_rd[d][t] = rd;
      st_free[d][t] = all & ~(cols | ld | rd);
    }
  }
  counts[t] = found;
  __syncthreads();
  for (int s = NQ_THREADS / 2; s > 0; s >>= 1) {
    if (t < s) counts[t] += counts[t + s];
    __syncthreads();
  }
  if (t == 0) per_block[blockIdx.x] = counts[0];
  if (p < n_prefix) per_prefix[p] = found;
}
