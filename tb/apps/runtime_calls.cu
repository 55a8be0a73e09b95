// runtime_calls: the runtime calls beyond allocation, copies and launches that applications make to size
// and place their work: cudaFuncGetAttributes, the occupancy calculator, cudaMemGetInfo, pitched memory
// (cudaMallocPitch, cudaMemcpy2D), cudaPointerGetAttributes, asynchronous symbol copies, stream-ordered
// allocation, a second stream waiting on an event, cache preferences and managed-memory prefetches. Each
// answer is checked here on the host; the run passes when all are right and the kernels' results match.
#include <cstdio>
#include <cstring>
#include <vector>

__constant__ float scale[4];

// 256 threads; 1 KiB of static shared memory; a per-thread array indexed at run time (local memory).
__global__ void rows_kernel(float* m, size_t pitch, int width, int height, int pick) {
  __shared__ float tile[256];
  float local[16];
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  for (int i = 0; i < 16; ++i) local[i] = scale[i & 3] * float(i);
  tile[threadIdx.x] = x < width ? reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch)[x] : 0.0f;
  __syncthreads();
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(m) + y * pitch);
    row[x] = tile[threadIdx.x] * 2.0f + local[(x + pick) & 15];
  }
}

__global__ void add_one(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

static int failures = 0;
#define EXPECT(cond, ...)                  \
  do {                                     \
    if (!(cond)) {                         \
      ++failures;                          \
      std::printf("runtime_calls: WRONG: "); \
      std::printf(__VA_ARGS__);            \
      std::printf("\n");                   \
    }                                      \
  } while (0)

int main() {
  cudaDeviceProp prop;
  EXPECT(cudaGetDeviceProperties(&prop, 0) == cudaSuccess, "cudaGetDeviceProperties");

  // the kernel's resources and the occupancy they allow
  cudaFuncAttributes fa;
  EXPECT(cudaFuncGetAttributes(&fa, rows_kernel) == cudaSuccess, "cudaFuncGetAttributes");
  std::printf("runtime_calls: rows_kernel: %zu static shared bytes, %zu local bytes, %d registers\n", fa.sharedSizeBytes,
              fa.localSizeBytes, fa.numRegs);
  EXPECT(fa.sharedSizeBytes == 256 * sizeof(float), "static shared bytes %zu", fa.sharedSizeBytes);
  EXPECT(fa.localSizeBytes >= 16 * sizeof(float), "local bytes %zu", fa.localSizeBytes);
  EXPECT(fa.numRegs > 0 && fa.maxThreadsPerBlock == prop.maxThreadsPerBlock, "registers %d, threads %d", fa.numRegs,
         fa.maxThreadsPerBlock);
  int blocks = -1, blocks_dyn = -1;
  EXPECT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rows_kernel, 256, 0) == cudaSuccess, "occupancy");
  EXPECT(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_dyn, rows_kernel, 256, 20000) == cudaSuccess, "occupancy");
  // what binds without dynamic shared memory: threads, blocks or registers (the shared limit is far off)
  int expect = prop.maxThreadsPerMultiProcessor / 256;
  if (prop.maxBlocksPerMultiProcessor < expect) expect = prop.maxBlocksPerMultiProcessor;
  if (prop.regsPerMultiprocessor / (fa.numRegs * 256) < expect) expect = prop.regsPerMultiprocessor / (fa.numRegs * 256);
  std::printf("runtime_calls: occupancy at 256 threads: %d blocks per SM; with 20000 dynamic shared bytes: %d\n", blocks,
              blocks_dyn);
  EXPECT(blocks == expect, "occupancy %d, expected %d", blocks, expect);
  const int by_shared = int(prop.sharedMemPerMultiprocessor / (1024 + 20000));
  EXPECT(blocks_dyn == (by_shared < blocks ? by_shared : blocks), "occupancy with dynamic shared memory %d", blocks_dyn);

  // memory: what an allocation takes from the free memory
  size_t free0 = 0, total = 0, free1 = 0;
  EXPECT(cudaMemGetInfo(&free0, &total) == cudaSuccess && total == prop.totalGlobalMem, "cudaMemGetInfo total %zu", total);
  void* block = nullptr;
  cudaMalloc(&block, 1 << 20);
  cudaMemGetInfo(&free1, &total);
  EXPECT(free0 - free1 == (1u << 20), "a 1 MiB allocation took %zu bytes of the free memory", free0 - free1);
  cudaFree(block);

  // where pointers point
  int* dev = nullptr;
  int* pinned = nullptr;
  int* managed = nullptr;
  std::vector<int> plain(4);
  cudaMalloc(&dev, 64);
  cudaMallocHost(&pinned, 64);
  cudaMallocManaged(&managed, 64);
  cudaPointerAttributes pa;
  cudaPointerGetAttributes(&pa, dev + 3);
  EXPECT(pa.type == cudaMemoryTypeDevice && pa.devicePointer == dev + 3, "device pointer type %d", int(pa.type));
  cudaPointerGetAttributes(&pa, pinned);
  EXPECT(pa.type == cudaMemoryTypeHost && pa.hostPointer == pinned, "pinned pointer type %d", int(pa.type));
  cudaPointerGetAttributes(&pa, managed);
  EXPECT(pa.type == cudaMemoryTypeManaged, "managed pointer type %d", int(pa.type));
  cudaPointerGetAttributes(&pa, plain.data());
  EXPECT(pa.type == cudaMemoryTypeUnregistered, "host pointer type %d", int(pa.type));

  // pitched rows: a 100 x 37 matrix in rows of `pitch` bytes, copied in and out with cudaMemcpy2D
  const int width = 100, height = 37;
  float* m = nullptr;
  size_t pitch = 0;
  EXPECT(cudaMallocPitch(reinterpret_cast<void**>(&m), &pitch, width * sizeof(float), height) == cudaSuccess, "cudaMallocPitch");
  EXPECT(pitch >= width * sizeof(float) && pitch % 128 == 0, "pitch %zu", pitch);
  std::vector<float> host(width * height), back(width * height);
  for (int i = 0; i < width * height; ++i) host[i] = float(i % 97) - 40.0f;
  const float sc[4] = {0.5f, 1.0f, 2.0f, -1.0f};
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaMemcpyToSymbolAsync(scale, sc, sizeof(sc), 0, cudaMemcpyHostToDevice, s1);
  cudaMemcpy2DAsync(m, pitch, host.data(), width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice, s1);
  cudaFuncSetCacheConfig(rows_kernel, cudaFuncCachePreferShared);
  const int pick = 5;
  rows_kernel<<<dim3(1, height), 256, 0, s1>>>(m, pitch, width, height, pick);
  cudaEvent_t done;
  cudaEventCreate(&done);
  cudaEventRecord(done, s1);
  cudaStreamWaitEvent(s2, done, 0);
  cudaMemcpy2DAsync(back.data(), width * sizeof(float), m, pitch, width * sizeof(float), height, cudaMemcpyDeviceToHost, s2);
  cudaStreamSynchronize(s2);
  int wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int i = (x + pick) & 15;
      const float want = host[y * width + x] * 2.0f + sc[i & 3] * float(i);
      if (back[y * width + x] != want && wrong++ < 3)
        std::printf("runtime_calls: (%d, %d): %g, want %g\n", x, y, back[y * width + x], want);
    }
  EXPECT(wrong == 0, "%d of %d matrix elements", wrong, width * height);
  float sc_back[4] = {0, 0, 0, 0};
  cudaMemcpyFromSymbolAsync(sc_back, scale, sizeof(sc_back), 0, cudaMemcpyDeviceToHost, s2);
  EXPECT(std::memcmp(sc, sc_back, sizeof(sc)) == 0, "the constant read back");

  // stream-ordered allocation, and a prefetched managed buffer
  int* tmp = nullptr;
  EXPECT(cudaMallocAsync(reinterpret_cast<void**>(&tmp), 256 * sizeof(int), s1) == cudaSuccess, "cudaMallocAsync");
  cudaMemsetAsync(tmp, 0, 256 * sizeof(int), s1);
  add_one<<<1, 256, 0, s1>>>(tmp, 256);
  for (int i = 0; i < 16; ++i) managed[i] = i;
  cudaMemLocation loc;
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemPrefetchAsync(managed, 64, loc, 0, s1);
  add_one<<<1, 16, 0, s1>>>(managed, 16);
  std::vector<int> ones(256);
  cudaMemcpyAsync(ones.data(), tmp, 256 * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  EXPECT(cudaFreeAsync(tmp, s1) == cudaSuccess, "cudaFreeAsync");
  int sum = 0;
  for (int v : ones) sum += v;
  EXPECT(sum == 256, "stream-ordered buffer sum %d", sum);
  int msum = 0;
  for (int i = 0; i < 16; ++i) msum += managed[i];
  EXPECT(msum == 120 + 16, "managed sum %d", msum);

  const cudaError_t err = cudaGetLastError();
  EXPECT(err == cudaSuccess, "%s", cudaGetErrorString(err));
  std::printf("runtime_calls: %s\n", failures ? "WRONG" : "all answers right");
  return failures ? 1 : 0;
}
