// Warp shuffles (idx/up/down/bfly, full width and width 8) and votes
// (all/any/ballot/activemask, uniformity). out[k * n + i], one block of 32*W threads.
extern "C" __global__ void shuffles(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  int v = in[i];
  const unsigned full = 0xffffffffu;
  out[0 * n + i] = __shfl_sync(full, v, (lane * 3 + 1) & 31);
  out[1 * n + i] = __shfl_up_sync(full, v, 3);
  out[2 * n + i] = __shfl_down_sync(full, v, 5);
  out[3 * n + i] = __shfl_xor_sync(full, v, 6);
  out[4 * n + i] = __shfl_sync(full, v, lane + 2, 8);
  out[5 * n + i] = __shfl_up_sync(full, v, 2, 8);
  out[6 * n + i] = __shfl_down_sync(full, v, 3, 8);
  out[7 * n + i] = __shfl_xor_sync(full, v, 5, 8);
  int s = v;  // butterfly reduction: every lane gets the warp sum
  for (int m = 16; m > 0; m >>= 1) s += __shfl_xor_sync(full, s, m);
  out[8 * n + i] = s;
  int src = in[i] & 31;  // data-dependent source lane
  out[9 * n + i] = __shfl_sync(full, v * 7, src);
  float f = (float)v * 0.5f;
  out[10 * n + i] = __float_as_int(__shfl_down_sync(full, f, 1));
}

extern "C" __global__ void votes(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  int v = in[i];
  const unsigned full = 0xffffffffu;
  out[0 * n + i] = __all_sync(full, v > 0);
  out[1 * n + i] = __any_sync(full, v > 1000);
  out[2 * n + i] = (int)__ballot_sync(full, v & 1);
  int w = __shfl_sync(full, v, 0);
  out[3 * n + i] = __all_sync(full, (v & 0xff00) == (w & 0xff00));  // uniformity check
  int am = 0;
  if (lane % 3 == 0) {
    am = (int)__activemask();
  } else if (v & 1) {
    am = (int)__ballot_sync(__activemask(), v & 2);
  }
  out[4 * n + i] = am;
  out[5 * n + i] = __popc(__ballot_sync(full, v < 0));
}

// Launched with a block that is not a multiple of 32: the last warp is partial.
extern "C" __global__ void votes_partial(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned m = __activemask();
  out[2 * i + 0] = (int)m;
  out[2 * i + 1] = (int)__ballot_sync(m, v & 1);
}
