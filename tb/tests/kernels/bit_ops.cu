// Bit operations: and/or/xor/not/shl/shr (logical and arithmetic), popc, clz,
// brev, ffs (bfind), prmt (__byte_perm and raw prmt with sign replication),
// bfe/bfi (inline asm), shf (funnel shifts). out[k * n + i].
extern "C" __global__ void bits32(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], z = c[i];
  unsigned s = y & 31;
  out[0 * n + i] = x & y;
  out[1 * n + i] = x | y;
  out[2 * n + i] = x ^ y;
  out[3 * n + i] = ~x;
  out[4 * n + i] = x << s;
  out[5 * n + i] = x >> s;
  out[6 * n + i] = (unsigned)((int)x >> s);
  out[7 * n + i] = __popc(x);
  out[8 * n + i] = __clz(x);
  out[9 * n + i] = __brev(x);
  out[10 * n + i] = __ffs(x);
  out[11 * n + i] = __byte_perm(x, y, z & 0x7777);
  unsigned p;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(p) : "r"(x), "r"(y), "r"(z));
  out[12 * n + i] = p;
  unsigned pos = z & 31, len = ((z >> 8) & 31) + 1;
  unsigned e;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(e) : "r"(x), "r"(pos), "r"(len));
  out[13 * n + i] = e;
  int se;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(se) : "r"((int)x), "r"(pos), "r"(len));
  out[14 * n + i] = (unsigned)se;
  unsigned f;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(f) : "r"(x), "r"(y), "r"(pos), "r"(len));
  out[15 * n + i] = f;
  out[16 * n + i] = __funnelshift_l(x, y, z);
  out[17 * n + i] = __funnelshift_r(x, y, z);
  out[18 * n + i] = __funnelshift_lc(x, y, z & 63);
  out[19 * n + i] = (x << 7) | (x >> 25);  // rotate
  out[20 * n + i] = (x >> 5) & 0x3ffu;     // constant field extract
}

extern "C" __global__ void bits64(const unsigned long long* a, const unsigned long long* b, unsigned long long* out,
                                  int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  unsigned s = (unsigned)y & 63;
  out[0 * n + i] = x & y;
  out[1 * n + i] = x | y;
  out[2 * n + i] = x ^ y;
  out[3 * n + i] = ~x;
  out[4 * n + i] = x << s;
  out[5 * n + i] = x >> s;
  out[6 * n + i] = (unsigned long long)((long long)x >> s);
  out[7 * n + i] = __popcll(x);
  out[8 * n + i] = __clzll(x);
  out[9 * n + i] = __brevll(x);
  out[10 * n + i] = __ffsll(x);
}
