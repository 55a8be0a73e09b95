// Divergence and reconvergence: nested ifs by lane parity, loops with
// data-dependent trip counts, divergent break/continue, early return, and a
// warp vote after the divergent region (needs full reconvergence).
extern "C" __global__ void divergence(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // early return: the last block is partial
  int x = in[i];
  int lane = threadIdx.x & 31;
  int acc = 0;
  if (lane & 1) {
    if (lane & 2) acc += x * 3;
    else acc -= x;
  } else {
    if (x & 4) acc ^= 0x55;
    acc += 7;
  }
  for (int k = 0; k < (x & 15); ++k) {
    if ((k ^ x) & 1) continue;
    if (acc > 300) break;
    acc += k * (x & 7) + 1;
  }
  int y = x & 0xff;
  while (y > 1) {  // Collatz steps, bounded
    if (y & 1) y = 3 * y + 1;
    else y >>= 1;
    acc += 1;
    if (acc > 2000) break;
  }
  if (lane > 20) {
    out[i] = acc * 2;
    return;  // divergent early return
  }
  if ((x >> 8) & 1) acc = -acc;
  out[i] = acc;
}

extern "C" __global__ void reconverge(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  int acc = 0;
  for (int k = 0; k < (x & 31); ++k) {
    if (k == (x >> 5 & 31)) break;
    acc += k;
  }
  unsigned b = __ballot_sync(0xffffffffu, acc & 1);
  out[2 * i] = acc;
  out[2 * i + 1] = (int)b;
}
