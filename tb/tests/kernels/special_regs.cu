// Special registers read through inline asm. out[k * n + i]:
// 0 %laneid, 1 %warpid, 2 %nwarpid, 3 %smid, 4 %nsmid, 5 clock64 non-decreasing,
// 6 clock32 delta (as int, >= 0), 7..11 %lanemask_eq/lt/le/gt/ge, 12 %tid.x, 13 %ntid.x
extern "C" __global__ void sregs(int* out, int n, int spin) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(v));
  out[0 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(v));
  out[1 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(v));
  out[2 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(v));
  out[3 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v));
  out[4 * n + i] = (int)v;
  unsigned long long c0, c1;
  unsigned k0, k1;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(k0));
  int acc = 0;
  for (int s = 0; s < spin; ++s) acc += s ^ i;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(k1));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  out[5 * n + i] = (c1 >= c0) ? 1 : 0;
  out[6 * n + i] = (int)(k1 - k0) + (acc & 0);
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(v));
  out[7 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v));
  out[8 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(v));
  out[9 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(v));
  out[10 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(v));
  out[11 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(v));
  out[12 * n + i] = (int)v;
  asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(v));
  out[13 * n + i] = (int)v;
}
