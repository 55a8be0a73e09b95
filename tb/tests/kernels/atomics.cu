// Atomics on global and shared memory under heavy contention: every thread of
// every block hits the same address.
//   gc layout (global unsigned counters, host-initialised):
//     0 add (red), 1 add (atom, return used), 2 inc limit 99, 3 dec limit 9,
//     4 min (signed), 5 max (signed), 6 and, 7 or, 8 xor, 9 exch
//   gf[0]: float add of 1.0; gf[1]: float add of (float)tid
//   g64[0]: u64 add of (1<<33)+tid
//   olds: per-thread return values (atom add, exch)
extern "C" __global__ void atomics_global(unsigned* gc, float* gf, unsigned long long* g64, unsigned* olds_add,
                                          unsigned* olds_exch) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&gc[0], 1u);
  olds_add[tid] = atomicAdd(&gc[1], 1u);
  atomicInc(&gc[2], 99u);
  atomicDec(&gc[3], 9u);
  int h = (int)((tid * 2654435761u) >> 8) - (1 << 23);
  atomicMin((int*)&gc[4], h);
  atomicMax((int*)&gc[5], h);
  atomicAnd(&gc[6], ~(1u << (tid & 31)));
  atomicOr(&gc[7], 1u << (tid % 29));
  atomicXor(&gc[8], tid * 2654435761u);
  olds_exch[tid] = atomicExch(&gc[9], tid + 1);
  atomicAdd(&gf[0], 1.0f);
  atomicAdd(&gf[1], (float)tid);
  atomicAdd(&g64[0], (1ull << 33) + tid);
}

// Lock-free increment through atomicCAS; each thread records the value it
// installed (a permutation of 0..N-1).
extern "C" __global__ void atomic_cas_increment(unsigned* counter, unsigned* got) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned old = *(volatile unsigned*)counter;
  unsigned assumed;
  do {
    assumed = old;
    old = atomicCAS(counter, assumed, assumed + 1);
  } while (old != assumed);
  got[tid] = assumed;
}

// Shared-memory atomics; thread 0 of each block writes the block's results:
// out[b*8 + 0..7] = add count, float sum, max, min, cas-counter, and, or, inc.
extern "C" __global__ void atomics_shared(unsigned* out) {
  __shared__ unsigned cnt, mx, cas_cnt, andv, orv, incv;
  __shared__ int mn;
  __shared__ float fsum;
  unsigned t = threadIdx.x;
  if (t == 0) {
    cnt = 0; fsum = 0.0f; mx = 0; mn = 0x7fffffff; cas_cnt = 0; andv = 0xffffffffu; orv = 0; incv = 0;
  }
  __syncthreads();
  atomicAdd(&cnt, 1u);
  atomicAdd(&fsum, (float)(t + blockIdx.x));
  atomicMax(&mx, (t * 37u + blockIdx.x) % 251u);
  atomicMin(&mn, (int)((t * 53u + blockIdx.x) % 241u) - 120);
  unsigned old = cas_cnt, assumed;
  do {
    assumed = old;
    old = atomicCAS(&cas_cnt, assumed, assumed + 2);
  } while (old != assumed);
  atomicAnd(&andv, ~(1u << (t % 32)));
  atomicOr(&orv, 1u << ((t + blockIdx.x) % 32));
  atomicInc(&incv, 15u);
  __syncthreads();
  if (t == 0) {
    unsigned* o = out + blockIdx.x * 8;
    o[0] = cnt;
    o[1] = __float_as_uint(fsum);
    o[2] = mx;
    o[3] = (unsigned)mn;
    o[4] = cas_cnt;
    o[5] = andv;
    o[6] = orv;
    o[7] = incv;
  }
}
