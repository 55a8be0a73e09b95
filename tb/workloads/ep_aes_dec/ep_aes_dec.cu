// ep_aes_dec: AES-128 decryption (FIPS-197, the equivalent inverse cipher of
// sec. 5.3.5) of 16-byte blocks, one block per thread, with the structure of
// the CUDA AES that seed 001 ran as AES_decrypt (Manavski 2007; Table 5:
// 256-thread blocks, grid 257, straight-line code): the inverse T-tables, the
// inverse S-box and the decryption key schedule in shared memory
// (aes_kernel.cuh); InvShiftRows takes word k's bytes from words k, k+3, k+2, k+1.

#define ROUND(r, d0, d1, d2, d3, a0, a1, a2, a3)                                                  \
  d0 = t0[a0 >> 24] ^ t1[(a3 >> 16) & 255] ^ t2[(a2 >> 8) & 255] ^ t3[a1 & 255] ^ rk[4 * (r)];     \
  d1 = t0[a1 >> 24] ^ t1[(a0 >> 16) & 255] ^ t2[(a3 >> 8) & 255] ^ t3[a2 & 255] ^ rk[4 * (r) + 1]; \
  d2 = t0[a2 >> 24] ^ t1[(a1 >> 16) & 255] ^ t2[(a0 >> 8) & 255] ^ t3[a3 & 255] ^ rk[4 * (r) + 2]; \
  d3 = t0[a3 >> 24] ^ t1[(a2 >> 16) & 255] ^ t2[(a1 >> 8) & 255] ^ t3[a0 & 255] ^ rk[4 * (r) + 3];

#define FINAL                                                                                       \
  LAST(s0, u0, u3, u2, u1, 40) LAST(s1, u1, u0, u3, u2, 41) LAST(s2, u2, u1, u0, u3, 42) LAST(s3, u3, u2, u1, u0, 43)

#include "../aes_kernel.cuh"

AES_KERNEL(ep_aes_dec)
