// An application of the CUDA 12 ABI, for the test of libcudart.so.12 (test_apps.cpp): run under
// `warptlm exec`, it loads libcudart.so.12 as an application built with CUDA 12 does, calls
// cudaGetDeviceProperties_v2 (what CUDA 12's headers make of cudaGetDeviceProperties) and the unversioned
// cudaGetDeviceProperties through their libcudart.so.12 symbol versions, and reads the answers at the
// offsets of CUDA 12's cudaDeviceProp (1032 bytes) written out here as numbers.
//   cudart12_probe SMS CLOCK_KHZ SHARED_PER_SM
// Exit 0 when every field holds what the config says and nothing past each structure was written.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
// CUDA 12 cudaDeviceProp offsets (driver_types.h of CUDA 12).
constexpr size_t kSize = 1032, kName = 0, kMajor = 360, kClockRate = 348, kMultiProcessorCount = 388,
                 kSharedMemPerMultiprocessor = 640, kMaxBlocksPerMultiProcessor = 712, kLegacyEnd = 728;
constexpr uint8_t kGuard = 0xA5;

int read_int(const std::vector<uint8_t>& b, size_t off) {
  int v;
  std::memcpy(&v, &b[off], sizeof v);
  return v;
}
size_t read_size(const std::vector<uint8_t>& b, size_t off) {
  size_t v;
  std::memcpy(&v, &b[off], sizeof v);
  return v;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: cudart12_probe SMS CLOCK_KHZ SHARED_PER_SM\n");
    return 2;
  }
  const int sms = std::atoi(argv[1]), khz = std::atoi(argv[2]);
  const size_t shared = size_t(std::atoll(argv[3]));
  void* lib = dlopen("libcudart.so.12", RTLD_NOW);
  if (!lib) {
    std::printf("cudart12_probe: %s\n", dlerror());
    return 1;
  }
  using Props = int (*)(void*, int);
  auto v2 = reinterpret_cast<Props>(dlvsym(lib, "cudaGetDeviceProperties_v2", "libcudart.so.12"));
  auto legacy = reinterpret_cast<Props>(dlvsym(lib, "cudaGetDeviceProperties", "libcudart.so.12"));
  if (!v2 || !legacy) {
    std::printf("cudart12_probe: libcudart.so.12 lacks cudaGetDeviceProperties_v2 or cudaGetDeviceProperties\n");
    return 1;
  }
  int bad = 0;
  std::vector<uint8_t> b(kSize + 64, kGuard);
  const int e = v2(b.data(), 0);
  const char* name = reinterpret_cast<const char*>(&b[kName]);
  std::printf("cudart12_probe: v2: error %d, name '%s', %d.%d, %d SMs at %d kHz, %zu shared bytes per SM, %d blocks per SM\n", e,
              name, read_int(b, kMajor), read_int(b, kMajor + 4), read_int(b, kMultiProcessorCount), read_int(b, kClockRate),
              read_size(b, kSharedMemPerMultiprocessor), read_int(b, kMaxBlocksPerMultiProcessor));
  bad += e != 0;
  bad += read_int(b, kMultiProcessorCount) != sms;
  bad += read_int(b, kClockRate) != khz;
  bad += read_size(b, kSharedMemPerMultiprocessor) != shared;
  bad += read_int(b, kMaxBlocksPerMultiProcessor) <= 0;
  for (size_t i = kSize; i < b.size(); ++i) bad += b[i] != kGuard;
  std::vector<uint8_t> l(kSize + 64, kGuard);
  const int el = legacy(l.data(), 0);
  bad += el != 0;
  bad += read_int(l, kMultiProcessorCount) != sms;
  bad += std::memcmp(l.data(), b.data(), kLegacyEnd) != 0;  // the same prefix ...
  size_t written_past = 0;
  for (size_t i = kLegacyEnd; i < l.size(); ++i) written_past += l[i] != kGuard;  // ... and nothing after it
  bad += written_past != 0;
  std::printf("cudart12_probe: legacy: error %d, %zu bytes written past the earlier runtime's structure\n", el, written_past);
  std::printf("cudart12_probe: %s\n", bad ? "WRONG" : "the CUDA 12 layout holds the config");
  return bad ? 1 : 0;
}
