// ss_nqu: n-queens solution counting, the GPGPU-Sim benchmark NQU's
// solve_nqueen_cuda_kernel with the scratchpad-sharing study's THREAD_NUM = 64
// (Table 3): four per-thread stacks [64][10] of u32 (queens' columns, left
// and right diagonals, tried positions) and sum[64], 10496 B of shared
// memory per 64-thread block. The host places queens in the first k rows in
// every valid way; thread p takes placement p. The phases follow the public
// kernel:
//   1. a thread with a placement copies its three masks from global memory
//      into level 0 of its stacks (the tried mask is their union) and runs
//      the iterative depth-first search over the remaining `rows` rows on
//      its stacks (lowest untried column first; a queen in the last row
//      counts a solution); it stores its count in sum[t], a thread without a
//      placement stores 0; barrier;
//   2. tree reduction of sum with fixed halvings 64, 32, .., 1, a barrier
//      after each (the first adds nothing at 64 threads);
//   3. thread 0 writes sum[0] as the block's count (the last shared access
//      feeds this store).
// Each thread's stack rows are 10 words apart ([thread][level], as the
// source lays them out). At most MAXD = 10 rows remain after a placement.
#define NQ_THREADS 64
#define MAXD 10

extern "C" __global__ void ss_nqueens(const unsigned* __restrict__ prefix_cols, const unsigned* __restrict__ prefix_ld,
                                      const unsigned* __restrict__ prefix_rd, int n_prefix, int n, int rows,
                                      unsigned* __restrict__ per_block) {
  __shared__ unsigned st_cols[NQ_THREADS][MAXD];
  __shared__ unsigned st_ld[NQ_THREADS][MAXD];
  __shared__ unsigned st_rd[NQ_THREADS][MAXD];
  __shared__ unsigned st_tried[NQ_THREADS][MAXD];
  __shared__ unsigned sum[NQ_THREADS];
  const int t = threadIdx.x;
  const int p = blockIdx.x * NQ_THREADS + t;
  const unsigned all = (1u << n) - 1u;

  if (p < n_prefix) {
    unsigned found = 0;
    int d = 0;
    st_cols[t][0] = prefix_cols[p];
    st_ld[t][0] = prefix_ld[p];
    st_rd[t][0] = prefix_rd[p];
    st_tried[t][0] = st_cols[t][0] | st_ld[t][0] | st_rd[t][0];
    while (d >= 0) {
      const unsigned tried = st_tried[t][d];
      if ((tried & all) == all) {  // every column tried at this level: pop
        --d;
        continue;
      }
      const unsigned bit = (tried + 1u) & ~tried;  // lowest untried column
      st_tried[t][d] = tried | bit;
      if ((bit & all) == 0u) {  // past the board's last column
        --d;
        continue;
      }
      if (d + 1 == rows) {  // a queen in the last row: one solution
        ++found;
        --d;
        continue;
      }
      st_cols[t][d + 1] = st_cols[t][d] | bit;
      st_ld[t][d + 1] = (st_ld[t][d] | bit) << 1;
      st_rd[t][d + 1] = (st_rd[t][d] | bit) >> 1;
      st_tried[t][d + 1] = st_cols[t][d + 1] | st_ld[t][d + 1] | st_rd[t][d + 1];
      ++d;
    }
    sum[t] = found;
  } else {
    sum[t] = 0u;
  }
  __syncthreads();

#pragma unroll
  for (int s = 64; s > 0; s >>= 1) {
    if (t < s && t + s < NQ_THREADS) sum[t] += sum[t + s];
    __syncthreads();
  }

  if (t == 0) per_block[blockIdx.x] = sum[0];
}
