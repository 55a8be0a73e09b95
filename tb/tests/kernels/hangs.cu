// Kernels that never finish, for the run limits and the no-progress watchdog.
// spin_on_flag: every thread waits for a flag nobody sets.
// barrier_vs_spin: warp 0 spins on a flag that the other warps set only after a
// barrier warp 0 never reaches: warps 1.. wait at the barrier, warp 0 spins.
extern "C" __global__ void spin_on_flag(volatile int* flag, int* out) {
  while (*flag == 0) {
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

extern "C" __global__ void barrier_vs_spin(volatile int* flag, int* out) {
  if (threadIdx.x < 32) {
    while (*flag == 0) {
    }
  } else {
    __syncthreads();
    *flag = 1;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

// spin_through_barrier: every thread waits for a flag nobody sets, storing and
// passing a barrier every iteration (progress for the no-progress watchdog:
// only the watchdog on block retirement stops it).
extern "C" __global__ void spin_through_barrier(volatile int* flag, int* out) {
  int i = 0;
  while (*flag == 0) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = ++i;
    __syncthreads();
  }
}
