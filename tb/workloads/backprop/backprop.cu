// backprop: one fully connected sigmoid layer (n_in inputs -> n_hid units),
// forward pass and one weight update, in three kernels.
// bp_forward: 16x16 blocks over a 16-input x 16-unit patch of the weight
//   matrix w[n_in][n_hid]; each thread forms one product w[i][j] * x[i] and
//   the block tree-reduces the 16 products of each unit in shared memory
//   (barrier per step) into partial[input_block][j].
// bp_activate: one thread per unit sums its partials, applies the sigmoid and
//   forms the output error term delta = h * (1 - h) * (target - h).
// bp_adjust: one thread per weight, momentum update
//   dw = eta * delta[j] * x[i] + momentum * oldw[i][j]; w += dw; oldw = dw.
// n_in and n_hid must be multiples of 16.
#define BP_T 16

extern "C" __global__ void bp_forward(const float* __restrict__ x, const float* __restrict__ w,
                                      float* __restrict__ partial, int n_in, int n_hid) {
  __shared__ float xs[BP_T];
  __shared__ float prod[BP_T][BP_T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * BP_T + ty;  // input
  const int j = blockIdx.x * BP_T + tx;  // unit
  if (tx == 0) xs[ty] = x[i];
  __syncthreads();
  prod[ty][tx] = w[(size_t)i * n_hid + j] * xs[ty];
  __syncthreads();
  for (int s = BP_T / 2; s > 0; s >>= 1) {
    if (ty < s) prod[ty][tx] += prod[ty + s][tx];
    __syncthreads();
  }
  if (ty == 0) partial[(size_t)blockIdx.y * n_hid + j] = prod[0][tx];
}

extern "C" __global__ void bp_activate(const float* __restrict__ partial, const float* __restrict__ target,
                                       float* __restrict__ hidden, float* __restrict__ delta, int in_blocks,
                                       int n_hid) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_hid) return;
  float sum = 0.0f;
  for (int b = 0; b < in_blocks; ++b) sum += partial[(size_t)b * n_hid + j];
  const float h = 1.0f / (1.0f + expf(-sum));
  hidden[j] = h;
  delta[j] = h * (1.0f - h) * (target[j] - h);
}

extern "C" __global__ void bp_adjust(float* __restrict__ w, float* __restrict__ oldw, const float* __restrict__ x,
                                     const float* __restrict__ delta, int n_in, int n_hid, float eta,
                                     float momentum) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_in || j >= n_hid) return;
  const size_t idx = (size_t)i * n_hid + j;
  const float dw = eta * delta[j] * x[i] + momentum * oldw[idx];
  w[idx] += dw;
  oldw[idx] = dw;
}
