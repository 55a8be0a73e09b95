// ss_backprop: the forward-layer kernel of Rodinia's backprop
// (bpnn_layerforward_CUDA) with the scratchpad-sharing study's WIDTH = HEIGHT
// = 48 (Table 3): input_node[48] + weight_matrix[48][48] floats, 9408 B of
// shared memory per 16x16-thread block. Block (bx, by) owns inputs
// [48 by, 48 by + 48) and hidden units [48 bx, 48 bx + 48); thread (tx, ty)
// owns the 3 x 3 cells (ty + 16 a, tx + 16 b) of the 48 x 48 patch. The
// weights are (n_in + 1) x (n_hid + 1) floats, row 0 and column 0 the bias
// entries the kernel skips (Rodinia's layout); x has n_in + 1 entries, x[0]
// the bias input. The phases follow the public kernel:
//   1. the tx == 0 threads copy the patch's 48 inputs into input_node;
//      barrier;
//   2. every thread copies its 9 weights into weight_matrix; barrier;
//   3. every thread multiplies its cells by their row's input, in place;
//      barrier;
//   4. log2 reduction over the rows: for power = 2, 4, ..., cell (r, c) with
//      r % power == 0 adds cell (r + power / 2, c); a barrier after each step;
//   5. every thread writes its 9 cells back over its weights in global memory
//      (as the public kernel does: the weights then hold the partial sums);
//      barrier;
//   6. the tx == 0 threads write row 0 (the patch's 48 column sums) to
//      partial[by][48 bx ..] (the last shared access feeds this store).
// HEIGHT = 48 is no power of two: the reduction takes 6 steps (power up to
// 64) and skips a partner row at or past row 48, so row 0 sums all 48 rows.
// n_in and n_hid must be multiples of 48.
#define HEIGHT 48
#define WIDTH 48
#define BT 16  // threads per side

extern "C" __global__ void ss_bp_forward(const float* __restrict__ input, float* __restrict__ weights,
                                         float* __restrict__ partial, int n_hid) {
  __shared__ float input_node[HEIGHT];
  __shared__ float weight_matrix[HEIGHT][WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i0 = blockIdx.y * HEIGHT, j0 = blockIdx.x * WIDTH;
  const int stride = n_hid + 1;
  // Weight (i0 + r + 1, j0 + c + 1) for this thread's row ty and column tx.
  float* const w = weights + (size_t)(i0 + ty + 1) * stride + j0 + tx + 1;

  if (tx == 0) {
#pragma unroll
    for (int a = 0; a < 3; ++a) input_node[ty + a * BT] = input[i0 + ty + a * BT + 1];
  }
  __syncthreads();

#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b) weight_matrix[ty + a * BT][tx + b * BT] = w[(size_t)(a * BT) * stride + b * BT];
  __syncthreads();

#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b)
      weight_matrix[ty + a * BT][tx + b * BT] = weight_matrix[ty + a * BT][tx + b * BT] * input_node[ty + a * BT];
  __syncthreads();

  for (int power = 2; power / 2 < HEIGHT; power <<= 1) {
    const int half = power >> 1;
#pragma unroll
    for (int a = 0; a < 3; ++a) {
      const int r = ty + a * BT;
      if (r % power == 0 && r + half < HEIGHT) {
#pragma unroll
        for (int b = 0; b < 3; ++b)
          weight_matrix[r][tx + b * BT] = weight_matrix[r][tx + b * BT] + weight_matrix[r + half][tx + b * BT];
      }
    }
    __syncthreads();
  }

#pragma unroll
  for (int a = 0; a < 3; ++a)
#pragma unroll
    for (int b = 0; b < 3; ++b) w[(size_t)(a * BT) * stride + b * BT] = weight_matrix[ty + a * BT][tx + b * BT];
  __syncthreads();

  if (tx == 0) {
#pragma unroll
    for (int b = 0; b < 3; ++b)
      partial[(size_t)blockIdx.y * n_hid + j0 + ty + b * BT] = weight_matrix[tx][ty + b * BT];
  }
}
