// managed: managed memory (cudaMallocManaged) written by the host and read by a kernel and back, device
// queries (cudaGetDeviceProperties, cudaDeviceGetAttribute) that size the launch, pinned host memory
// (cudaMallocHost), copies and a memset into managed memory, and a device-to-device copy; run unmodified by
// `warptlm exec`. A histogram with global atomics, checked on the host.
#include <cstdio>
#include <cstring>

__global__ void histogram(const unsigned char* data, int n, unsigned int* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[data[i] % 64], 1u);
}

int main() {
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 1;
  int sms = 0, warp = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  std::printf("managed: device '%s', %d SMs (attribute %d), warp %d, %zu bytes shared per block, %d threads per SM\n",
              prop.name, prop.multiProcessorCount, sms, warp, prop.sharedMemPerBlock, prop.maxThreadsPerMultiProcessor);
  const int n = 20000;
  unsigned char* data = nullptr;
  unsigned int* bins = nullptr;
  if (cudaMallocManaged(&data, n) != cudaSuccess || cudaMallocManaged(&bins, 64 * sizeof(unsigned)) != cudaSuccess) return 1;
  unsigned want[64] = {};
  unsigned char second_half[n / 2];
  for (int i = 0; i < n; ++i) {
    const unsigned char v = (unsigned char)((i * 2654435761u) >> 13);
    if (i < n / 2) data[i] = v;  // the host writes managed memory directly ...
    else second_half[i - n / 2] = v;
    ++want[v % 64];
  }
  // ... and through the runtime: a copy into managed memory and a memset of it
  cudaMemcpy(data + n / 2, second_half, n / 2, cudaMemcpyHostToDevice);
  std::memset(bins, 0xff, 64 * sizeof(unsigned));
  cudaMemset(bins, 0, 64 * sizeof(unsigned));
  histogram<<<2 * sms, 4 * warp>>>(data, n, bins);
  cudaDeviceSynchronize();
  unsigned* pinned = nullptr;
  unsigned int* dcopy = nullptr;
  cudaMallocHost(&pinned, 64 * sizeof(unsigned));
  cudaMalloc(&dcopy, 64 * sizeof(unsigned));
  cudaMemcpy(dcopy, bins, 64 * sizeof(unsigned), cudaMemcpyDefault);      // managed -> device
  cudaMemcpy(pinned, dcopy, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < 64; ++b)
    if ((bins[b] != want[b] || pinned[b] != want[b]) && bad++ < 3)  // the host reads managed memory directly
      std::printf("managed: bin %d = %u (copy %u), expected %u\n", b, bins[b], pinned[b], want[b]);
  std::printf("managed: %d bytes in 64 bins: %s (%s)\n", n, bad ? "WRONG" : "match", cudaGetErrorString(cudaGetLastError()));
  cudaFree(data);
  cudaFree(bins);
  cudaFree(dcopy);
  cudaFreeHost(pinned);
  return bad == 0 && sms == prop.multiProcessorCount && warp == 32 ? 0 : 1;
}
