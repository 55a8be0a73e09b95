// setp with every comparison and boolean combiners (compound conditions), selp,
// unordered float compares with NaN, and predicated moves. out[k * n + i].
extern "C" __global__ void pred_ops(const int* a, const int* b, const float* fa, const float* fb, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i], y = b[i];
  unsigned ux = (unsigned)x, uy = (unsigned)y;
  float p = fa[i], q = fb[i];
  out[0 * n + i] = (x < y) ? x : y + 1;
  out[1 * n + i] = ((x < y) && (x != 3)) || (y > 2 * x) ? 11 : 22;
  out[2 * n + i] = ((ux >= uy) ^ (x >= y)) ? 5 : -5;
  out[3 * n + i] = (p < q) ? 1 : 0;
  out[4 * n + i] = !(p < q) ? 1 : 0;  // unordered: true when either is NaN
  out[5 * n + i] = (p == q || p != p) ? 7 : 8;
  out[6 * n + i] = (p > q) && (x <= y) ? x : (p >= q) || (x == y) ? y : x ^ y;
  out[7 * n + i] = (ux > 100u) + (uy <= 7u) * 2 + (p != q) * 4 + (q <= 0.0f) * 8;
  out[8 * n + i] = (x & 1) ? ((y & 2) ? x - y : x + y) : ((y & 4) ? x * 3 : -y);
}
