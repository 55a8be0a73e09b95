// dsin: double-precision sin and cos, whose libdevice code nvcc pulls in with its carry chains (add.cc,
// addc, mad.lo.cc, madc for the argument reduction's multi-word products); run unmodified by `warptlm exec`
// and checked against the host's libm within 2 ulp-scale units (1e-15 relative, 1e-15 absolute).
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void sincos_kernel(const double* x, double* s, double* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[i] = sin(x[i]);
    c[i] = cos(x[i]);
  }
}

int main() {
  const int n = 512;
  std::vector<double> x(n), s(n), c(n);
  for (int i = 0; i < n; ++i) x[i] = (i - n / 2) * 0.37 + (i % 7) * 1e5;  // large arguments need the long reduction
  double *dx, *ds, *dc;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&ds, n * sizeof(double));
  cudaMalloc(&dc, n * sizeof(double));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  sincos_kernel<<<(n + 127) / 128, 128>>>(dx, ds, dc, n);
  cudaMemcpy(s.data(), ds, n * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), dc, n * sizeof(double), cudaMemcpyDeviceToHost);
  const cudaError_t err = cudaGetLastError();
  int bad = 0;
  double worst = 0;
  for (int i = 0; i < n; ++i) {
    const double es = std::fabs(s[i] - std::sin(x[i])), ec = std::fabs(c[i] - std::cos(x[i]));
    worst = std::fmax(worst, std::fmax(es, ec));
    if ((es > 1e-15 || ec > 1e-15) && bad++ < 3)
      std::printf("dsin: x = %.17g: sin %.17g (host %.17g), cos %.17g (host %.17g)\n", x[i], s[i], std::sin(x[i]), c[i], std::cos(x[i]));
  }
  std::printf("dsin: %d arguments, largest difference from the host %.3g: %s (%s)\n", n, worst, bad ? "WRONG" : "match",
              cudaGetErrorString(err));
  return bad == 0 && err == cudaSuccess ? 0 : 1;
}
