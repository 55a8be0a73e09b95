// Dynamic shared memory (extern __shared__) next to a static array: the block
// stages ints then floats in the dynamic area (2 * blockDim words) and reverses.
extern __shared__ int dyn[];

extern "C" __global__ void dyn_smem(const int* in, int* out, float* fout) {
  __shared__ int stat[32];
  int t = threadIdx.x;
  int nb = blockDim.x;
  int i = blockIdx.x * nb + t;
  int v = in[i];
  float* fdyn = (float*)&dyn[nb];
  dyn[t] = v + 1;
  fdyn[t] = (float)v * 0.25f;
  if (t < 32) stat[t] = t * 100;
  __syncthreads();
  out[i] = dyn[nb - 1 - t] + stat[t & 31];
  fout[i] = fdyn[(t + 1) % nb];
}
