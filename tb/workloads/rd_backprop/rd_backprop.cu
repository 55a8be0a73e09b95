// rd_backprop: the GPU part of Rodinia's backprop training step, in its
// layout. A network of n_in inputs, 16 hidden units and one output; the
// weights are an (n_in + 1) x 17 row-major matrix (row 0 and column 0 are
// the bias entries), so a row is 68 bytes and the rows of neighbouring
// threads share cache lines.
// rdbp_layerforward: one 16x16 block per 16 inputs (grid 1 x n_in/16). The
//   tx == 0 threads load the block's 16 inputs into shared memory; every
//   thread loads one weight into a 16x16 shared tile, multiplies it by its
//   input, and the block sums each column with a log2 reduction over the rows
//   (a barrier per step). The tile goes back over the weights, and the tx == 0
//   threads store the column sums as the block's partial sums of the 16
//   hidden units.
// The host then sums the partial sums, squashes them, runs the output layer
// and the error terms, and restores the weights (the forward kernel left its
// tiles in them).
// rdbp_adjust_weights: same grid; each thread updates one weight with the
//   momentum rule and writes the change into the previous-change matrix; the
//   threads of row 0 of block 0 also update the bias row.
#define RD_WIDTH 16
#define RD_HEIGHT 16
#define RD_ETA 0.3f
#define RD_MOMENTUM 0.3f

extern "C" __global__ void rdbp_layerforward(const float* __restrict__ input, float* __restrict__ weights,
                                             float* __restrict__ partial, int hid) {
  __shared__ float input_node[RD_HEIGHT];
  __shared__ float weight_matrix[RD_HEIGHT][RD_WIDTH];
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int index = (hid + 1) * RD_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_in = RD_HEIGHT * by + ty + 1;
  if (tx == 0) input_node[ty] = input[index_in];
  __syncthreads();
  weight_matrix[ty][tx] = weights[index];
  __syncthreads();
  weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
  __syncthreads();
  for (int step = 2; step <= RD_HEIGHT; step *= 2) {
    if (ty % step == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + step / 2][tx];
    __syncthreads();
  }
  weights[index] = weight_matrix[ty][tx];
  __syncthreads();
  if (tx == 0) partial[by * hid + ty] = weight_matrix[tx][ty];
}

extern "C" __global__ void rdbp_adjust_weights(const float* __restrict__ delta, int hid, const float* __restrict__ ly,
                                               float* __restrict__ w, float* __restrict__ oldw) {
  const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  const int index = (hid + 1) * RD_HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  const int index_y = RD_HEIGHT * by + ty + 1;
  const int index_x = tx + 1;
  w[index] += RD_ETA * delta[index_x] * ly[index_y] + RD_MOMENTUM * oldw[index];
  oldw[index] = RD_ETA * delta[index_x] * ly[index_y] + RD_MOMENTUM * oldw[index];
  __syncthreads();
  if (ty == 0 && by == 0) {
    w[index_x] += RD_ETA * delta[index_x] + RD_MOMENTUM * oldw[index_x];
    oldw[index_x] = RD_ETA * delta[index_x] + RD_MOMENTUM * oldw[index_x];
  }
}
