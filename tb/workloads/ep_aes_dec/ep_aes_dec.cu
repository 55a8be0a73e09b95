// ep_aes_dec: AES-128 decryption (FIPS-197, the equivalent inverse cipher of
// sec. 5.3.5) of 16-byte blocks, one block per thread, with the structure of
// the CUDA AES that seed 001 ran as AES_decrypt (Manavski 2007; Table 5:
// 256-thread blocks, grid 257, straight-line code):
//   1. every thread block copies the four 1 KB inverse T-tables, the inverse
//      S-box and the 44-word decryption key schedule from global into shared
//      memory (one word per thread per table), then a barrier;
//   2. each thread loads its block from global memory, adds round key 0, runs
//      nine rounds of sixteen inverse T-table lookups indexed by the state's
//      bytes (data-dependent banks: irregular conflicts) and a final round of
//      sixteen inverse S-box lookups, each round adding its key from shared
//      memory;
//   3. it stores the block.
// State words are big-endian: byte 0 of the block is the top byte of word 0.

#define ROUND(r, d0, d1, d2, d3, a0, a1, a2, a3)                                                  \
  d0 = t0[a0 >> 24] ^ t1[(a3 >> 16) & 255] ^ t2[(a2 >> 8) & 255] ^ t3[a1 & 255] ^ rk[4 * (r)];     \
  d1 = t0[a1 >> 24] ^ t1[(a0 >> 16) & 255] ^ t2[(a3 >> 8) & 255] ^ t3[a2 & 255] ^ rk[4 * (r) + 1]; \
  d2 = t0[a2 >> 24] ^ t1[(a1 >> 16) & 255] ^ t2[(a0 >> 8) & 255] ^ t3[a3 & 255] ^ rk[4 * (r) + 2]; \
  d3 = t0[a3 >> 24] ^ t1[(a2 >> 16) & 255] ^ t2[(a1 >> 8) & 255] ^ t3[a0 & 255] ^ rk[4 * (r) + 3];

#define LAST(d, a0, a1, a2, a3, k)                                                                        \
  d = (sb[a0 >> 24] << 24) ^ (sb[(a1 >> 16) & 255] << 16) ^ (sb[(a2 >> 8) & 255] << 8) ^ sb[a3 & 255] ^ \
      rk[k];

__device__ __forceinline__ unsigned be(unsigned x) { return __byte_perm(x, 0, 0x0123); }

extern "C" __global__ void ep_aes_dec(uint4* out, const uint4* in, const unsigned* tables, const unsigned* key,
                                      unsigned n) {
  __shared__ unsigned t0[256], t1[256], t2[256], t3[256], sb[256], rk[44];
  const unsigned tid = threadIdx.x;  // blockDim.x == 256
  t0[tid] = tables[tid];
  t1[tid] = tables[256 + tid];
  t2[tid] = tables[512 + tid];
  t3[tid] = tables[768 + tid];
  sb[tid] = tables[1024 + tid];
  if (tid < 44) rk[tid] = key[tid];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + tid;
  if (i >= n) return;
  const uint4 v = in[i];
  unsigned s0 = be(v.x) ^ rk[0], s1 = be(v.y) ^ rk[1], s2 = be(v.z) ^ rk[2], s3 = be(v.w) ^ rk[3];
  unsigned u0, u1, u2, u3;
  ROUND(1, u0, u1, u2, u3, s0, s1, s2, s3)
  ROUND(2, s0, s1, s2, s3, u0, u1, u2, u3)
  ROUND(3, u0, u1, u2, u3, s0, s1, s2, s3)
  ROUND(4, s0, s1, s2, s3, u0, u1, u2, u3)
  ROUND(5, u0, u1, u2, u3, s0, s1, s2, s3)
  ROUND(6, s0, s1, s2, s3, u0, u1, u2, u3)
  ROUND(7, u0, u1, u2, u3, s0, s1, s2, s3)
  ROUND(8, s0, s1, s2, s3, u0, u1, u2, u3)
  ROUND(9, u0, u1, u2, u3, s0, s1, s2, s3)
  LAST(s0, u0, u3, u2, u1, 40)
  LAST(s1, u1, u0, u3, u2, 41)
  LAST(s2, u2, u1, u0, u3, 42)
  LAST(s3, u3, u2, u1, u0, 43)
  out[i] = make_uint4(be(s0), be(s1), be(s2), be(s3));
}
