// ss_nn: the second convolution layer of a LeNet-style digit classifier (the
// control kernel NN executeSecondLayer of the scratchpad-sharing study's
// Set-3, Table 2: limited by blocks, no shared memory). Grid 50 x images,
// block 5 x 5: block (f, img) computes the 5x5 output map f of one image from
// its six 13x13 input maps, one output neuron per thread. Thread (x, y) takes
// the bias weights[156 f], then for each of the 25 taps of its 5x5 window
// (stride 2, window offsets from a constant-memory table) and each input map
// m adds in[img][m][2y + dy][2x + dx] * weights[156 f + 1 + 6 tap + m] (fused
// multiply-adds, taps then maps in order), and stores
//   out[img][f][y][x] = 1.7159 * tanh(0.66666667 * sum)
// with the scale factors in double precision.
#define NN_IN 13                     // input map side
#define NN_MAPS 6                    // input maps per image
#define NN_OUT 5                     // output map side
#define NN_FEATURES 50               // output maps
#define NN_WEIGHTS_PER_FEATURE 156   // 26 x 6: bias, then 25 taps x 6 maps (5 unused)

// Offset of tap k of a 5x5 window in a 13-wide map: 13 * (k / 5) + k % 5.
__constant__ int c_tap[25] = {0,  1,  2,  3,  4,  13, 14, 15, 16, 17, 26, 27, 28,
                              29, 30, 39, 40, 41, 42, 43, 52, 53, 54, 55, 56};

extern "C" __global__ void ss_nn_layer2(const float* in, const float* weights, float* out) {
  const int f = blockIdx.x, img = blockIdx.y;
  const int x = threadIdx.x, y = threadIdx.y;
  const int w0 = f * NN_WEIGHTS_PER_FEATURE;
  const int window = img * NN_MAPS * NN_IN * NN_IN + 2 * y * NN_IN + 2 * x;
  float sum = weights[w0];
  for (int k = 0; k < 25; ++k) {
#pragma unroll
    for (int m = 0; m < NN_MAPS; ++m)
      sum = __fmaf_rn(in[window + m * NN_IN * NN_IN + c_tap[k]], weights[w0 + 1 + k * NN_MAPS + m], sum);
  }
  out[img * NN_FEATURES * NN_OUT * NN_OUT + f * NN_OUT * NN_OUT + y * NN_OUT + x] = 1.7159 * tanhf(0.66666667 * sum);
}
