// The body shared by the seed 001 AES kernels (ep_aes_enc, ep_aes_dec), after
// Manavski's CUDA AES: the including file defines ROUND(r, d0..d3, a0..a3)
// (one round of T-table lookups) and FINAL (the last round's four LAST words,
// from u0..u3 into s0..s3) in its cipher's byte order; AES_KERNEL(name) then
// makes the kernel:
//   1. every thread block copies the four 1 KB T-tables, the (inverse) S-box
//      and the 44-word key schedule from global into shared memory (one word
//      per thread per table), then a barrier;
//   2. each thread loads its block from global memory, adds round key 0, runs
//      nine rounds of sixteen T-table lookups indexed by the state's bytes
//      (data-dependent banks: irregular conflicts) and a final round of
//      sixteen S-box lookups, each round adding its key from shared memory;
//   3. it stores the block.
// State words are big-endian: byte 0 of the block is the top byte of word 0.
#pragma once

// One word of the final round: S-box bytes of a0 (top) .. a3 (bottom) and the round key k.
#define LAST(d, a0, a1, a2, a3, k)                                                                        \
  d = (sb[a0 >> 24] << 24) ^ (sb[(a1 >> 16) & 255] << 16) ^ (sb[(a2 >> 8) & 255] << 8) ^ sb[a3 & 255] ^ \
      rk[k];

__device__ __forceinline__ unsigned be(unsigned x) { return __byte_perm(x, 0, 0x0123); }

#define AES_KERNEL(NAME)                                                                                   \
  extern "C" __global__ void NAME(uint4* out, const uint4* in, const unsigned* tables, const unsigned* key, \
                                  unsigned n) {                                                            \
    __shared__ unsigned t0[256], t1[256], t2[256], t3[256], sb[256], rk[44];                               \
    const unsigned tid = threadIdx.x; /* blockDim.x == 256 */                                              \
    t0[tid] = tables[tid];                                                                                 \
    t1[tid] = tables[256 + tid];                                                                           \
    t2[tid] = tables[512 + tid];                                                                           \
    t3[tid] = tables[768 + tid];                                                                           \
    sb[tid] = tables[1024 + tid];                                                                          \
    if (tid < 44) rk[tid] = key[tid];                                                                      \
    __syncthreads();                                                                                       \
    const unsigned i = blockIdx.x * blockDim.x + tid;                                                      \
    if (i >= n) return;                                                                                    \
    const uint4 v = in[i];                                                                                 \
    unsigned s0 = be(v.x) ^ rk[0], s1 = be(v.y) ^ rk[1], s2 = be(v.z) ^ rk[2], s3 = be(v.w) ^ rk[3];       \
    unsigned u0, u1, u2, u3;                                                                               \
    ROUND(1, u0, u1, u2, u3, s0, s1, s2, s3)                                                               \
    ROUND(2, s0, s1, s2, s3, u0, u1, u2, u3)                                                               \
    ROUND(3, u0, u1, u2, u3, s0, s1, s2, s3)                                                               \
    ROUND(4, s0, s1, s2, s3, u0, u1, u2, u3)                                                               \
    ROUND(5, u0, u1, u2, u3, s0, s1, s2, s3)                                                               \
    ROUND(6, s0, s1, s2, s3, u0, u1, u2, u3)                                                               \
    ROUND(7, u0, u1, u2, u3, s0, s1, s2, s3)                                                               \
    ROUND(8, s0, s1, s2, s3, u0, u1, u2, u3)                                                               \
    ROUND(9, u0, u1, u2, u3, s0, s1, s2, s3)                                                               \
    FINAL                                                                                                  \
    out[i] = make_uint4(be(s0), be(s1), be(s2), be(s3));                                                   \
  }
