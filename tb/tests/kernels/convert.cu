// Conversions: float <-> int with each rounding mode (saturating, NaN -> 0),
// int/uint/int64 -> float, double <-> float, __saturatef, bit casts.
extern "C" __global__ void cvt_ops(const float* f, const int* s, const double* d, int* oi, float* of, double* od,
                                   long long* ol, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = f[i];
  int k = s[i];
  double y = d[i];
  oi[0 * n + i] = __float2int_rn(x);
  oi[1 * n + i] = __float2int_rz(x);
  oi[2 * n + i] = __float2int_rd(x);
  oi[3 * n + i] = __float2int_ru(x);
  oi[4 * n + i] = (int)__float2uint_rn(x);
  oi[5 * n + i] = __double2int_rz(y);
  oi[6 * n + i] = __float_as_int(x);
  oi[7 * n + i] = __double2int_rn(y);
  of[0 * n + i] = __int2float_rn(k);
  of[1 * n + i] = __uint2float_rn((unsigned)k);
  of[2 * n + i] = (float)y;  // cvt.rn.f32.f64
  of[3 * n + i] = __saturatef(x);
  of[4 * n + i] = __int2float_rz(k);
  of[5 * n + i] = __ll2float_rn((long long)k * 4099LL);
  od[0 * n + i] = (double)x;  // cvt.f64.f32
  od[1 * n + i] = (double)k;
  od[2 * n + i] = __ll2double_rn((long long)k << 20);
  ol[0 * n + i] = __float2ll_rn(x);
  ol[1 * n + i] = __double2ll_rz(y);
  ol[2 * n + i] = (long long)k;  // cvt.s64.s32
  ol[3 * n + i] = (long long)(unsigned)k;
  ol[4 * n + i] = (long long)(short)k;  // cvt.s16 round trip
  ol[5 * n + i] = (long long)(unsigned char)k;
}
