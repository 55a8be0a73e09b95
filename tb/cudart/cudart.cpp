// WarpTLM's CUDA runtime library: built as libcudart.so.13 (and .12) with the runtime's symbol versions, so
// an application built with `nvcc -cudart shared` runs unmodified on the simulated GPU when `warptlm exec`
// puts this library first on LD_LIBRARY_PATH. Every call becomes a request to the command's simulator over
// the socket it hands the application (wire.hpp); this file keeps only what the host side of a runtime
// keeps: the registered fat binaries, kernels and variables, the launch configuration stack, the last error,
// events, streams and managed memory.
//
// Model decisions (docs/cuda-apps.md): a launch runs to completion before the call returns, so streams are
// in order and never overlap (asynchronous calls are synchronous); an event records the simulated time;
// managed memory lives at the same address on host and device, copied to the device before each launch
// and back after it.
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "wire.hpp"

#ifndef WARPTLM_CUDART_MAJOR
#define WARPTLM_CUDART_MAJOR 13
#endif

// ---------------------------------------------------------------- the runtime's ABI types (CUDA 13)
extern "C" {
typedef int cudaError_t;
struct dim3 {
  unsigned int x, y, z;
};
struct uint3 {
  unsigned int x, y, z;
};
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct CUkern_st* cudaKernel_t;
struct cudaUUID_t {
  char bytes[16];
};
// cudaDeviceProp as the runtime's driver_types.h lays it out, field for field: CUDA 13's, or CUDA 12's (which
// still has clockRate, deviceOverlap, kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear,
// memoryClockRate, singleToDoublePrecisionPerfRatio and cooperativeMultiDeviceLaunch, and ends earlier).
// CUDA 13's is 1008 bytes, CUDA 12's 1032; the offsets are checked below.
#if WARPTLM_CUDART_MAJOR >= 13
#define WARPTLM_PROP_12(...)
#define WARPTLM_PROP_13(...) __VA_ARGS__
#else
#define WARPTLM_PROP_12(...) __VA_ARGS__
#define WARPTLM_PROP_13(...)
#endif
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  WARPTLM_PROP_12(int clockRate;)
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  WARPTLM_PROP_12(int deviceOverlap;)
  int multiProcessorCount;
  WARPTLM_PROP_12(int kernelExecTimeoutEnabled;)
  int integrated, canMapHostMemory;
  WARPTLM_PROP_12(int computeMode;)
  int maxTexture1D, maxTexture1DMipmap;
  WARPTLM_PROP_12(int maxTexture1DLinear;)
  int maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3],
      maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3],
      maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2],
      maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount,
      unifiedAddressing;
  WARPTLM_PROP_12(int memoryClockRate;)
  int memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor,
      streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported;
  WARPTLM_PROP_12(int singleToDoublePrecisionPerfRatio;)
  int pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem,
      cooperativeLaunch;
  WARPTLM_PROP_12(int cooperativeMultiDeviceLaunch;)
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor,
      accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported,
      timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
  WARPTLM_PROP_13(int deviceNumaConfig, deviceNumaId, mpsEnabled, hostNumaId;
                  unsigned int gpuPciDeviceID, gpuPciSubsystemID;
                  int hostNumaMultinodeIpcSupported;
                  int reserved[56];)
  WARPTLM_PROP_12(int reserved[63];)
};
// cudaFuncAttributes and the fields of cudaPointerAttributes that both runtimes have (CUDA 13's appends
// reserved words, which are left as the caller has them).
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes,
      preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight, requiredClusterDepth,
      clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed, reserved[16];
};
struct cudaPointerAttributesHead {
  int type, device;
  void* devicePointer;
  void* hostPointer;
};
}  // extern "C"
static_assert(sizeof(cudaFuncAttributes) == 144 && offsetof(cudaFuncAttributes, numRegs) == 28 &&
                  offsetof(cudaFuncAttributes, maxDynamicSharedSizeBytes) == 44,
              "cudaFuncAttributes layout (CUDA 12 and 13)");
static_assert(sizeof(cudaPointerAttributesHead) == 24, "cudaPointerAttributes' fields");

// The layouts against the CUDA headers: CUDA 13's offsets as its driver_types.h gives them; CUDA 12's as its
// field list above gives them.
#if WARPTLM_CUDART_MAJOR >= 13
static_assert(sizeof(cudaDeviceProp) == 1008 && offsetof(cudaDeviceProp, multiProcessorCount) == 384 && offsetof(cudaDeviceProp, l2CacheSize) == 596 &&
              offsetof(cudaDeviceProp, sharedMemPerMultiprocessor) == 624 &&
              offsetof(cudaDeviceProp, sharedMemPerBlockOptin) == 672 &&
              offsetof(cudaDeviceProp, maxBlocksPerMultiProcessor) == 688 &&
              offsetof(cudaDeviceProp, reservedSharedMemPerBlock) == 696 &&
              offsetof(cudaDeviceProp, hostNumaMultinodeIpcSupported) == 780 && offsetof(cudaDeviceProp, reserved) == 784,
              "CUDA 13 cudaDeviceProp layout");
#else
static_assert(sizeof(cudaDeviceProp) == 1032 && offsetof(cudaDeviceProp, clockRate) == 348 &&
              offsetof(cudaDeviceProp, multiProcessorCount) == 388 && offsetof(cudaDeviceProp, l2CacheSize) == 616 &&
              offsetof(cudaDeviceProp, sharedMemPerMultiprocessor) == 640 &&
              offsetof(cudaDeviceProp, sharedMemPerBlockOptin) == 696 &&
              offsetof(cudaDeviceProp, maxBlocksPerMultiProcessor) == 712 &&
              offsetof(cudaDeviceProp, reservedSharedMemPerBlock) == 720 && offsetof(cudaDeviceProp, reserved) == 780,
              "CUDA 12 cudaDeviceProp layout");
#endif

namespace {

using namespace warptlm::cudart_wire;

enum : cudaError_t {
  kSuccess = 0, kInvalidValue = 1, kMemoryAllocation = 2, kInitializationError = 3, kCudartUnloading = 4,
  kInvalidConfiguration = 9,
  kInvalidSymbol = 13, kInvalidDevicePointer = 17, kInvalidMemcpyDirection = 21, kInvalidDeviceFunction = 98,
  kInvalidDevice = 101, kInvalidPtx = 218, kInvalidResourceHandle = 400, kIllegalAddress = 700,
  kLaunchFailure = 719, kNotSupported = 801, kUnknown = 999,
};
enum MemcpyKind { kHostToHost = 0, kHostToDevice = 1, kDeviceToHost = 2, kDeviceToDevice = 3, kDefault = 4 };

struct Kernel {
  std::string name;                 // the PTX entry (mangled) name
  bool params_known = false;
  std::vector<uint32_t> param_sizes;
};
struct Variable {
  std::string name;
  size_t size = 0;
};
struct LaunchConfig {
  dim3 grid, block;
  size_t shared;
  cudaStream_t stream;
};
struct Event {
  uint64_t ps = 0;
  bool recorded = false;
};

class Runtime {
 public:
  static Runtime& get() {
    static Runtime* r = new Runtime();  // never destroyed: atexit handlers of the application may still call in
    return *r;
  }

  std::mutex mu;
  std::map<const void*, Kernel> kernels;      // host stub -> kernel
  std::map<const void*, Variable> variables;  // host shadow -> device variable
  std::vector<std::vector<uint8_t>> pending_fatbins;
  std::map<uint64_t, uint64_t> device_ranges;  // cudaMalloc'd: address -> bytes
  std::map<uint64_t, uint64_t> symbol_ranges;  // module variables whose address the application took
  std::map<uint64_t, uint64_t> managed;        // managed: address (same on host and device) -> bytes
  std::map<uint64_t, uint64_t> host_ranges;    // cudaMallocHost'd (page-locked host memory to the application)
  cudaError_t last_error = kSuccess;
  cudaError_t sticky = kSuccess;               // a fault in a kernel: every later call fails with it
  DeviceInfo info;
  bool have_info = false;

  cudaError_t fail(const char* fn, cudaError_t e, const std::string& why) {
    std::fprintf(stderr, "warptlm cudart: %s: %s\n", fn, why.c_str());
    last_error = e;
    return e;
  }
  cudaError_t done(cudaError_t e) {
    if (e != kSuccess) last_error = e;
    return e;
  }

  // The simulator's socket; false (with the reason printed once) when the application was not started by
  // `warptlm exec`.
  bool connected(const char* fn) {
    if (fd_ >= 0) return true;
    if (refused_) return false;
    const char* v = std::getenv(kFdVariable);
    if (!v) {
      refused_ = true;
      std::fprintf(stderr, "warptlm cudart: %s: this is WarpTLM's CUDA runtime (libcudart.so.%d): run the application "
                   "as `warptlm exec [--config NAME] -- APP ARGS`, which starts the simulated GPU it talks to\n",
                   fn, WARPTLM_CUDART_MAJOR);
      return false;
    }
    fd_ = std::atoi(v);
    Request r;
    r.call = uint32_t(Call::Hello);
    r.a[0] = kVersion;
    r.a[1] = WARPTLM_CUDART_MAJOR;
    std::vector<uint8_t> out;
    if (exchange(r, nullptr, 0, out) != kSuccess) {
      std::fprintf(stderr, "warptlm cudart: %s: %.*s\n", fn, int(out.size()), reinterpret_cast<const char*>(out.data()));
      fd_ = -1;
      refused_ = true;
      return false;
    }
    std::atexit([] { Runtime::get().goodbye(); });
    for (auto& f : pending_fatbins) load_fatbin(f);
    pending_fatbins.clear();
    return true;
  }

  // One request and its reply; the simulator's message, if any, printed naming the call.
  cudaError_t call(const char* fn, Request r, const void* payload, size_t n, std::vector<uint8_t>* out = nullptr,
                   uint64_t* v0 = nullptr, uint64_t* v1 = nullptr) {
    if (gone_) return done(kCudartUnloading);  // after the runtime's exit handler (a global's destructor calling in)
    if (sticky != kSuccess) return done(sticky);
    if (!connected(fn)) return done(kInitializationError);
    std::vector<uint8_t> reply;
    Reply rep;
    cudaError_t e = exchange(r, payload, n, reply, &rep);
    if (e != kSuccess) {
      if (!reply.empty()) std::fprintf(stderr, "warptlm cudart: %s: %.*s\n", fn, int(reply.size()), reinterpret_cast<const char*>(reply.data()));
      if (e == kIllegalAddress || e == kLaunchFailure) sticky = e;
      return done(e);
    }
    if (out) *out = std::move(reply);
    if (v0) *v0 = rep.v[0];
    if (v1) *v1 = rep.v[1];
    return kSuccess;
  }

  void load_fatbin(const std::vector<uint8_t>& bytes) {
    Request r;
    r.call = uint32_t(Call::LoadFatbin);
    call("__cudaRegisterFatBinary", r, bytes.data(), bytes.size());
  }

  bool is_connected() const { return fd_ >= 0; }

  void goodbye() {
    gone_ = true;
    if (fd_ < 0) return;
    Request r;
    r.call = uint32_t(Call::Bye);
    std::vector<uint8_t> out;
    exchange(r, nullptr, 0, out);
    close(fd_);
    fd_ = -1;
  }

  static bool in(const std::map<uint64_t, uint64_t>& ranges, uint64_t p) {
    auto it = ranges.upper_bound(p);
    if (it == ranges.begin()) return false;
    --it;
    return p < it->first + it->second || (p == it->first && it->second == 0);
  }
  // Device memory as copies see it: cudaMalloc'd and variables' addresses. Managed memory is host memory to
  // them: its host pages hold the data between launches (launch() moves it to the device and back).
  bool is_device(uint64_t p) const { return in(device_ranges, p) || in(symbol_ranges, p); }
  bool is_managed(uint64_t p) const { return in(managed, p); }

  // Managed memory to the device before a launch, back to the host after it.
  cudaError_t push_managed(const char* fn) {
    for (auto& m : managed) {
      Request r;
      r.call = uint32_t(Call::ToDevice);
      r.a[0] = m.first;
      if (cudaError_t e = call(fn, r, reinterpret_cast<const void*>(m.first), m.second)) return e;
    }
    return kSuccess;
  }
  cudaError_t pull_managed(const char* fn) {
    for (auto& m : managed) {
      Request r;
      r.call = uint32_t(Call::FromDevice);
      r.a[0] = m.first;
      r.a[1] = m.second;
      std::vector<uint8_t> data;
      if (cudaError_t e = call(fn, r, nullptr, 0, &data)) return e;
      std::memcpy(reinterpret_cast<void*>(m.first), data.data(), std::min<size_t>(data.size(), m.second));
    }
    return kSuccess;
  }

  cudaError_t device_info(const char* fn) {
    if (have_info) return kSuccess;
    Request r;
    r.call = uint32_t(Call::DeviceInfo);
    std::vector<uint8_t> out;
    if (cudaError_t e = call(fn, r, nullptr, 0, &out)) return e;
    if (out.size() != sizeof(DeviceInfo)) return fail(fn, kUnknown, "the simulator answered with a device description of another size");
    std::memcpy(&info, out.data(), sizeof(info));
    have_info = true;
    return kSuccess;
  }

  cudaError_t launch(const char* fn, Kernel& k, dim3 grid, dim3 block, void** args, size_t shared) {
    if (!k.params_known) {
      Request r;
      r.call = uint32_t(Call::KernelParams);
      std::vector<uint8_t> out;
      uint64_t n = 0;
      if (cudaError_t e = call(fn, r, k.name.data(), k.name.size(), &out, &n)) return e;
      k.param_sizes.resize(n);
      if (out.size() != n * 4) return fail(fn, kUnknown, "the simulator's parameter list has the wrong size");
      std::memcpy(k.param_sizes.data(), out.data(), out.size());
      k.params_known = true;
    }
    std::vector<uint8_t> rec;
    auto put32 = [&](uint32_t v) { rec.insert(rec.end(), reinterpret_cast<uint8_t*>(&v), reinterpret_cast<uint8_t*>(&v) + 4); };
    put32(uint32_t(k.name.size()));
    rec.insert(rec.end(), k.name.begin(), k.name.end());
    put32(uint32_t(shared));
    put32(uint32_t(k.param_sizes.size()));
    for (size_t i = 0; i < k.param_sizes.size(); ++i) {
      put32(k.param_sizes[i]);
      if (!args || !args[i]) return fail(fn, kInvalidValue, "argument " + std::to_string(i) + " of kernel '" + k.name + "' is missing");
      const uint8_t* p = static_cast<const uint8_t*>(args[i]);
      rec.insert(rec.end(), p, p + k.param_sizes[i]);
    }
    if (cudaError_t e = push_managed(fn)) return e;
    Request r;
    r.call = uint32_t(Call::Launch);
    r.a[0] = grid.x; r.a[1] = grid.y; r.a[2] = grid.z;
    r.a[3] = block.x; r.a[4] = block.y; r.a[5] = block.z;
    if (cudaError_t e = call(fn, r, rec.data(), rec.size())) return e;
    return pull_managed(fn);
  }

 private:
  int fd_ = -1;
  bool refused_ = false;
  bool gone_ = false;


  cudaError_t exchange(Request r, const void* payload, size_t n, std::vector<uint8_t>& out, Reply* rep_out = nullptr) {
    r.payload = n;
    Reply rep;
    if (!write_all(fd_, &r, sizeof(r)) || (n && !write_all(fd_, payload, n)) || !read_all(fd_, &rep, sizeof(rep))) {
      std::fprintf(stderr, "warptlm cudart: the simulator closed the connection (the run ended: see warptlm's message)\n");
      std::_Exit(1);
    }
    out.resize(rep.payload);
    if (rep.payload && !read_all(fd_, out.data(), out.size())) {
      std::fprintf(stderr, "warptlm cudart: the simulator closed the connection mid-reply\n");
      std::_Exit(1);
    }
    if (rep_out) *rep_out = rep;
    return rep.error;
  }
};

Runtime& rt() { return Runtime::get(); }

// The fat binary behind nvcc's wrapper: its header says how many bytes follow.
struct FatbinWrapper {
  int magic, version;
  const unsigned long long* data;
  void* filename_or_fatbins;
};
constexpr int kWrapperMagic = 0x466243b1;
constexpr uint32_t kFatbinMagic = 0xBA55ED50u;

std::vector<uint8_t> fatbin_bytes(const void* wrapper) {
  const FatbinWrapper* w = static_cast<const FatbinWrapper*>(wrapper);
  if (!w || w->magic != kWrapperMagic || !w->data) return {};
  const uint8_t* p = reinterpret_cast<const uint8_t*>(w->data);
  uint32_t magic;
  uint16_t header;
  uint64_t size;
  std::memcpy(&magic, p, 4);
  std::memcpy(&header, p + 6, 2);
  std::memcpy(&size, p + 8, 8);
  if (magic != kFatbinMagic || size > (1ull << 32)) return {};
  return std::vector<uint8_t>(p, p + header + size);
}

Kernel* kernel_of(const void* host_fun) {
  auto it = rt().kernels.find(host_fun);
  return it == rt().kernels.end() ? nullptr : &it->second;
}

}  // namespace

// ---------------------------------------------------------------- registration (nvcc's generated code)
extern "C" {

void** __cudaRegisterFatBinary(void* fat) {
  std::lock_guard<std::mutex> g(rt().mu);
  void** handle = new void*(fat);  // a handle is a pointer the application only passes back
  std::vector<uint8_t> bytes = fatbin_bytes(fat);
  if (bytes.empty()) {
    std::fprintf(stderr, "warptlm cudart: __cudaRegisterFatBinary: the application's fat binary is not one this runtime "
                 "reads (nvcc's wrapper with magic 0x466243b1 and a fat binary with magic 0xBA55ED50)\n");
  } else {
    if (rt().is_connected()) rt().load_fatbin(bytes);  // a library loaded after the first call (dlopen)
    else rt().pending_fatbins.push_back(std::move(bytes));
  }
  return handle;
}
void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
char __cudaInitModule(void**) { return 1; }

void __cudaRegisterFunction(void**, const char* host_fun, char* device_fun, const char* device_name, int, uint3*, uint3*,
                            dim3*, dim3*, int*) {
  std::lock_guard<std::mutex> g(rt().mu);
  Kernel k;
  k.name = device_name ? device_name : device_fun;
  rt().kernels[host_fun] = k;
}

void __cudaRegisterVar(void**, char* host_var, char*, const char* device_name, int, size_t size, int, int) {
  std::lock_guard<std::mutex> g(rt().mu);
  rt().variables[host_var] = Variable{device_name, size};
}

// Each host thread pushes and pops its own launch configurations.
static thread_local std::vector<LaunchConfig> launch_configs;

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  launch_configs.push_back(LaunchConfig{grid, block, shared, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (launch_configs.empty()) return rt().fail("__cudaPopCallConfiguration", kInvalidConfiguration, "no launch configuration was pushed");
  const LaunchConfig c = launch_configs.back();
  launch_configs.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *static_cast<cudaStream_t*>(stream) = c.stream;
  return kSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* out, const void* host_fun) {
  std::lock_guard<std::mutex> g(rt().mu);
  Kernel* k = kernel_of(host_fun);
  if (!k) return rt().fail("__cudaGetKernel", kInvalidDeviceFunction, "no kernel registered for this function");
  *out = reinterpret_cast<cudaKernel_t>(k);
  return kSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!kernel) return rt().fail("cudaLaunchKernel", kInvalidDeviceFunction, "no kernel");
  return rt().launch("cudaLaunchKernel", *reinterpret_cast<Kernel*>(kernel), grid, block, args, shared);
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
  return __cudaLaunchKernel(kernel, grid, block, args, shared, s);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t) {
  std::lock_guard<std::mutex> g(rt().mu);
  Kernel* k = kernel_of(func);
  if (!k) return rt().fail("cudaLaunchKernel", kInvalidDeviceFunction, "no kernel registered for this function");
  return rt().launch("cudaLaunchKernel", *k, grid, block, args, shared);
}

// ---------------------------------------------------------------- memory
namespace {
// One allocation or release of device memory by the simulator.
cudaError_t device_malloc(const char* fn, size_t bytes, uint64_t& addr) {
  Request r;
  r.call = uint32_t(Call::Malloc);
  r.a[0] = bytes;
  return rt().call(fn, r, nullptr, 0, nullptr, &addr);
}
cudaError_t device_free(const char* fn, uint64_t addr) {
  Request r;
  r.call = uint32_t(Call::Free);
  r.a[0] = addr;
  return rt().call(fn, r, nullptr, 0);
}
}  // namespace

cudaError_t cudaMalloc(void** p, size_t bytes) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!p) return rt().fail("cudaMalloc", kInvalidValue, "null result pointer");
  uint64_t addr = 0;
  if (cudaError_t e = device_malloc("cudaMalloc", bytes, addr)) return e;
  rt().device_ranges[addr] = bytes;
  *p = reinterpret_cast<void*>(addr);
  return kSuccess;
}

cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned int) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!p) return rt().fail("cudaMallocManaged", kInvalidValue, "null result pointer");
  uint64_t addr = 0;
  if (cudaError_t e = device_malloc("cudaMallocManaged", bytes, addr)) return e;
  // the host's view at the device's address, so a pointer means the same on both sides
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  const uint64_t base = addr & ~uint64_t(page - 1);
  const size_t len = size_t((addr + bytes + page - 1) / page * page - base);
  void* m = mmap(reinterpret_cast<void*>(base), len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (m == MAP_FAILED || m != reinterpret_cast<void*>(base)) {
    if (m != MAP_FAILED) munmap(m, len);
    device_free("cudaMallocManaged", addr);
    return rt().fail("cudaMallocManaged", kMemoryAllocation,
                     "the host cannot map the device's address range of this allocation (it is in use in this process)");
  }
  rt().managed[addr] = bytes;
  *p = reinterpret_cast<void*>(addr);
  return kSuccess;
}

cudaError_t cudaFree(void* p) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!p) return kSuccess;
  const uint64_t a = reinterpret_cast<uint64_t>(p);
  auto m = rt().managed.find(a);
  if (m == rt().managed.end() && !rt().device_ranges.count(a))
    return rt().fail("cudaFree", kInvalidDevicePointer, "pointer " + std::to_string(a) + " was not returned by cudaMalloc");
  if (cudaError_t e = device_free("cudaFree", a)) return e;
  if (m != rt().managed.end()) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const uint64_t base = a & ~uint64_t(page - 1);
    munmap(reinterpret_cast<void*>(base), size_t((a + m->second + page - 1) / page * page - base));
    rt().managed.erase(m);
  } else {
    rt().device_ranges.erase(a);
  }
  return kSuccess;
}

cudaError_t cudaMallocHost(void** p, size_t bytes) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!p) return rt().fail("cudaMallocHost", kInvalidValue, "null result pointer");
  *p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096 + (bytes == 0 ? 4096 : 0));
  if (!*p) return rt().fail("cudaMallocHost", kMemoryAllocation, "out of host memory");
  rt().host_ranges[reinterpret_cast<uint64_t>(*p)] = bytes;
  return kSuccess;
}
cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned int) { return cudaMallocHost(p, bytes); }
cudaError_t cudaFreeHost(void* p) {
  std::lock_guard<std::mutex> g(rt().mu);
  rt().host_ranges.erase(reinterpret_cast<uint64_t>(p));
  std::free(p);
  return kSuccess;
}

namespace {
cudaError_t copy(const char* fn, void* dst, const void* src, size_t n, int kind) {
  Runtime& R = rt();
  const uint64_t d = reinterpret_cast<uint64_t>(dst), s = reinterpret_cast<uint64_t>(src);
  if (kind == kDefault)  // inferred from where each pointer is (unified addressing)
    kind = R.is_device(s) ? (R.is_device(d) ? kDeviceToDevice : kDeviceToHost) : (R.is_device(d) ? kHostToDevice : kHostToHost);
  if (kind >= kHostToHost && kind <= kDeviceToDevice) {  // a managed side is its host pages, whatever the kind says
    const bool from_device = (kind == kDeviceToHost || kind == kDeviceToDevice) && !R.is_managed(s);
    const bool to_device = (kind == kHostToDevice || kind == kDeviceToDevice) && !R.is_managed(d);
    kind = from_device ? (to_device ? kDeviceToDevice : kDeviceToHost) : (to_device ? kHostToDevice : kHostToHost);
  }
  if (n == 0) return kSuccess;
  Request r;
  switch (kind) {
    case kHostToHost:
      std::memmove(dst, src, n);
      return kSuccess;
    case kHostToDevice:
      r.call = uint32_t(Call::ToDevice);
      r.a[0] = d;
      return R.call(fn, r, src, n);
    case kDeviceToHost: {
      r.call = uint32_t(Call::FromDevice);
      r.a[0] = s;
      r.a[1] = n;
      std::vector<uint8_t> out;
      if (cudaError_t e = R.call(fn, r, nullptr, 0, &out)) return e;
      std::memcpy(dst, out.data(), std::min(n, out.size()));
      return kSuccess;
    }
    case kDeviceToDevice:
      r.call = uint32_t(Call::OnDevice);
      r.a[0] = d;
      r.a[1] = s;
      r.a[2] = n;
      return R.call(fn, r, nullptr, 0);
    default:
      return R.fail(fn, kInvalidMemcpyDirection, "memcpy kind " + std::to_string(kind) + " is not one of cudaMemcpyKind's");
  }
}
}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, size_t n, int kind) {
  std::lock_guard<std::mutex> g(rt().mu);
  return copy("cudaMemcpy", dst, src, n, kind);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n, int kind, cudaStream_t) {
  std::lock_guard<std::mutex> g(rt().mu);
  return copy("cudaMemcpyAsync", dst, src, n, kind);
}

cudaError_t cudaMemset(void* p, int value, size_t n) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (rt().is_managed(reinterpret_cast<uint64_t>(p))) {  // managed: its host pages hold the data
    std::memset(p, value, n);
    return kSuccess;
  }
  Request r;
  r.call = uint32_t(Call::Memset);
  r.a[0] = reinterpret_cast<uint64_t>(p);
  r.a[1] = uint64_t(uint8_t(value));
  r.a[2] = n;
  return rt().call("cudaMemset", r, nullptr, 0);
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t n, cudaStream_t) { return cudaMemset(p, value, n); }

namespace {
cudaError_t symbol(const char* fn, const void* host_var, uint64_t& addr, uint64_t& size) {
  auto it = rt().variables.find(host_var);
  if (it == rt().variables.end()) return rt().fail(fn, kInvalidSymbol, "no __device__ or __constant__ variable is registered at this address");
  Request r;
  r.call = uint32_t(Call::Symbol);
  return rt().call(fn, r, it->second.name.data(), it->second.name.size(), nullptr, &addr, &size);
}
}  // namespace

cudaError_t cudaMemcpyToSymbol(const void* sym, const void* src, size_t n, size_t offset, int kind) {
  std::lock_guard<std::mutex> g(rt().mu);
  uint64_t addr = 0, size = 0;
  if (cudaError_t e = symbol("cudaMemcpyToSymbol", sym, addr, size)) return e;
  if (offset + n > size) return rt().fail("cudaMemcpyToSymbol", kInvalidValue, "the copy runs past the variable's " + std::to_string(size) + " bytes");
  if (kind == kDefault) kind = rt().is_device(reinterpret_cast<uint64_t>(src)) ? kDeviceToDevice : kHostToDevice;
  return copy("cudaMemcpyToSymbol", reinterpret_cast<void*>(addr + offset), src, n, kind);
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* sym, size_t n, size_t offset, int kind) {
  std::lock_guard<std::mutex> g(rt().mu);
  uint64_t addr = 0, size = 0;
  if (cudaError_t e = symbol("cudaMemcpyFromSymbol", sym, addr, size)) return e;
  if (offset + n > size) return rt().fail("cudaMemcpyFromSymbol", kInvalidValue, "the copy runs past the variable's " + std::to_string(size) + " bytes");
  if (kind == kDefault) kind = rt().is_device(reinterpret_cast<uint64_t>(dst)) ? kDeviceToDevice : kDeviceToHost;
  return copy("cudaMemcpyFromSymbol", dst, reinterpret_cast<const void*>(addr + offset), n, kind);
}
cudaError_t cudaGetSymbolAddress(void** p, const void* sym) {
  std::lock_guard<std::mutex> g(rt().mu);
  uint64_t addr = 0, size = 0;
  if (cudaError_t e = symbol("cudaGetSymbolAddress", sym, addr, size)) return e;
  rt().symbol_ranges[addr] = size;  // device memory for copies, but not cudaFree's
  *p = reinterpret_cast<void*>(addr);
  return kSuccess;
}

// ---------------------------------------------------------------- synchronisation, errors, device
cudaError_t cudaDeviceSynchronize() {
  std::lock_guard<std::mutex> g(rt().mu);
  return rt().done(rt().sticky);  // every launch ran to completion before its call returned
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset() { return kSuccess; }
cudaError_t cudaGetLastError() {
  std::lock_guard<std::mutex> g(rt().mu);
  const cudaError_t e = rt().sticky != kSuccess ? rt().sticky : rt().last_error;
  rt().last_error = kSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  std::lock_guard<std::mutex> g(rt().mu);
  return rt().sticky != kSuccess ? rt().sticky : rt().last_error;
}

namespace {
struct ErrorText {
  cudaError_t code;
  const char* name;
  const char* text;
};
const ErrorText kErrors[] = {
    {kSuccess, "cudaSuccess", "no error"},
    {kInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {kMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {kInitializationError, "cudaErrorInitializationError", "initialization error"},
    {kCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {kInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {kInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {kInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {kInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {kInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {kInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {kInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {kInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {kIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {kLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {kNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {kUnknown, "cudaErrorUnknown", "unknown error"},
};
}  // namespace

const char* cudaGetErrorString(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return t.text;
  return "unrecognized error code";
}
const char* cudaGetErrorName(cudaError_t e) {
  for (const ErrorText& t : kErrors)
    if (t.code == e) return t.name;
  return "cudaErrorUnknown";
}

cudaError_t cudaGetDeviceCount(int* n) {
  if (!n) return kInvalidValue;
  *n = 1;
  return kSuccess;
}
cudaError_t cudaGetDevice(int* d) {
  if (!d) return kInvalidValue;
  *d = 0;
  return kSuccess;
}
cudaError_t cudaSetDevice(int d) {
  return d == 0 ? kSuccess : rt().fail("cudaSetDevice", kInvalidDevice, "the simulated machine has one GPU, device 0");
}
cudaError_t cudaDriverGetVersion(int* v) {
  if (!v) return kInvalidValue;
  *v = WARPTLM_CUDART_MAJOR * 1000;
  return kSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

}  // extern "C"

namespace {
// The device description the simulator gives (its config), in the runtime's cudaDeviceProp.
cudaError_t device_properties(const char* fn, cudaDeviceProp* p, int device) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!p) return rt().fail(fn, kInvalidValue, "null result pointer");
  if (device != 0) return rt().fail(fn, kInvalidDevice, "the simulated machine has one GPU, device 0");
  if (cudaError_t e = rt().device_info(fn)) return e;
  const DeviceInfo& i = rt().info;
  std::memset(p, 0, sizeof(*p));
  std::snprintf(p->name, sizeof(p->name), "%s", i.name);
  p->totalGlobalMem = i.global_memory;
  p->sharedMemPerBlock = i.shared_per_block;
  p->sharedMemPerBlockOptin = i.shared_per_block;
  p->sharedMemPerMultiprocessor = i.shared_per_sm;
  p->regsPerBlock = int(i.registers_per_block);
  p->regsPerMultiprocessor = int(i.registers_per_sm);
  p->warpSize = int(i.warp_size);
  p->maxThreadsPerBlock = int(i.max_threads_per_block);
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = int(i.max_threads_per_block);
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 0x7fffffff;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = int(i.major);
  p->minor = int(i.minor);
  p->multiProcessorCount = int(i.sms);
  p->l2CacheSize = int(i.l2_bytes);
  p->maxThreadsPerMultiProcessor = int(i.max_threads_per_sm);
  p->maxBlocksPerMultiProcessor = int(i.max_blocks_per_sm);
  p->managedMemory = 1;
  p->unifiedAddressing = 1;
  p->concurrentKernels = 0;  // launches run one at a time (docs/cuda-apps.md)
  p->globalL1CacheSupported = p->localL1CacheSupported = 1;
  WARPTLM_PROP_12(p->clockRate = int(i.clock_khz);)
  return kSuccess;
}
}  // namespace

extern "C" {
#if WARPTLM_CUDART_MAJOR >= 13
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  return device_properties("cudaGetDeviceProperties", p, device);
}
#else
// CUDA 12's headers turn cudaGetDeviceProperties into cudaGetDeviceProperties_v2 (the layout above); the
// unversioned entry stays for callers of the earlier runtime's, whose structure is the prefix up to
// reservedSharedMemPerBlock: only that prefix is written.
cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* p, int device) {
  return device_properties("cudaGetDeviceProperties_v2", p, device);
}
cudaError_t cudaGetDeviceProperties(void* p, int device) {
  cudaDeviceProp full;
  if (!p) return rt().fail("cudaGetDeviceProperties", kInvalidValue, "null result pointer");
  if (cudaError_t e = device_properties("cudaGetDeviceProperties", &full, device)) return e;
  std::memcpy(p, &full, offsetof(cudaDeviceProp, reservedSharedMemPerBlock) + sizeof(size_t));
  return kSuccess;
}
#endif

cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!value) return rt().fail("cudaDeviceGetAttribute", kInvalidValue, "null result pointer");
  if (device != 0) return rt().fail("cudaDeviceGetAttribute", kInvalidDevice, "the simulated machine has one GPU, device 0");
  if (cudaError_t e = rt().device_info("cudaDeviceGetAttribute")) return e;
  const DeviceInfo& i = rt().info;
  switch (attr) {
    case 1: *value = int(i.max_threads_per_block); break;                     // MaxThreadsPerBlock
    case 2: case 3: *value = int(i.max_threads_per_block); break;             // MaxBlockDimX, Y
    case 4: *value = 64; break;                                               // MaxBlockDimZ
    case 5: *value = 0x7fffffff; break;                                       // MaxGridDimX
    case 6: case 7: *value = 65535; break;                                    // MaxGridDimY, Z
    case 8: *value = int(i.shared_per_block); break;                          // MaxSharedMemoryPerBlock
    case 10: *value = int(i.warp_size); break;                                // WarpSize
    case 12: *value = int(i.registers_per_block); break;                      // MaxRegistersPerBlock
    case 13: *value = int(i.clock_khz); break;                                // ClockRate (kHz)
    case 16: *value = int(i.sms); break;                                      // MultiProcessorCount
    case 38: *value = int(i.l2_bytes); break;                                 // L2CacheSize
    case 39: *value = int(i.max_threads_per_sm); break;                       // MaxThreadsPerMultiProcessor
    case 75: *value = int(i.major); break;                                    // ComputeCapabilityMajor
    case 76: *value = int(i.minor); break;                                    // ComputeCapabilityMinor
    case 81: *value = int(i.shared_per_sm); break;                            // MaxSharedMemoryPerMultiprocessor
    case 82: *value = int(i.registers_per_sm); break;                         // MaxRegistersPerMultiprocessor
    case 97: *value = int(i.shared_per_block); break;                         // MaxSharedMemoryPerBlockOptin
    case 106: *value = int(i.max_blocks_per_sm); break;                       // MaxBlocksPerMultiprocessor
    default:
      return rt().fail("cudaDeviceGetAttribute", kInvalidValue,
                       "device attribute " + std::to_string(attr) + " is not modelled: docs/cuda-apps.md lists those that are");
  }
  return kSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!kernel_of(func)) return rt().fail("cudaFuncSetAttribute", kInvalidDeviceFunction, "no kernel registered for this function");
  if (attr == 8) {  // MaxDynamicSharedMemorySize: the launch checks the block's shared memory against the config
    if (cudaError_t e = rt().device_info("cudaFuncSetAttribute")) return e;
    if (value < 0 || uint64_t(value) > rt().info.shared_per_block)
      return rt().fail("cudaFuncSetAttribute", kInvalidValue, std::to_string(value) + " bytes of dynamic shared memory is over the block's " +
                                                                  std::to_string(rt().info.shared_per_block));
    return kSuccess;
  }
  if (attr == 9) return kSuccess;  // PreferredSharedMemoryCarveout: the config fixes the split
  return rt().fail("cudaFuncSetAttribute", kNotSupported, "function attribute " + std::to_string(attr) + " is not modelled");
}

// ---------------------------------------------------------------- events and streams
cudaError_t cudaEventCreate(cudaEvent_t* e) {
  if (!e) return kInvalidValue;
  *e = reinterpret_cast<cudaEvent_t>(new Event());
  return kSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned int) { return cudaEventCreate(e); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete reinterpret_cast<Event*>(e);
  return kSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!e) return rt().fail("cudaEventRecord", kInvalidResourceHandle, "null event");
  Request r;
  r.call = uint32_t(Call::Now);
  uint64_t ps = 0;
  if (cudaError_t err = rt().call("cudaEventRecord", r, nullptr, 0, nullptr, &ps)) return err;
  Event* ev = reinterpret_cast<Event*>(e);
  ev->ps = ps;
  ev->recorded = true;
  return kSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaDeviceSynchronize(); }
cudaError_t cudaEventQuery(cudaEvent_t) { return kSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  const Event* ea = reinterpret_cast<const Event*>(a);
  const Event* eb = reinterpret_cast<const Event*>(b);
  if (!ms || !ea || !eb) return rt().fail("cudaEventElapsedTime", kInvalidResourceHandle, "null event or result");
  if (!ea->recorded || !eb->recorded) return rt().fail("cudaEventElapsedTime", kInvalidResourceHandle, "an event that was never recorded");
  *ms = float((double(eb->ps) - double(ea->ps)) * 1e-9);  // the simulated time between the two records
  return kSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* s) {
  if (!s) return kInvalidValue;
  static char streams;  // every stream is the one in-order queue
  *s = reinterpret_cast<cudaStream_t>(&streams);
  return kSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int) { return cudaStreamCreate(s); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned int, int) { return cudaStreamCreate(s); }
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;  // one in-order queue: priorities do not reorder anything
  if (greatest) *greatest = 0;
  return kSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return kSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return kSuccess; }
// Every stream is the one in-order queue and every call completes before it returns: an event a stream
// waits for has happened already.
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int) { return kSuccess; }
cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned int) { return cudaEventRecord(e, s); }

// ---------------------------------------------------------------- kernels' resources and occupancy
namespace {
cudaError_t kernel_request(const char* fn, const void* func, Call what, uint64_t a0, uint64_t a1, uint64_t& v0, uint64_t& v1) {
  Kernel* k = kernel_of(func);
  if (!k) return rt().fail(fn, kInvalidDeviceFunction, "no kernel registered for this function");
  Request r;
  r.call = uint32_t(what);
  r.a[0] = a0;
  r.a[1] = a1;
  return rt().call(fn, r, k->name.data(), k->name.size(), nullptr, &v0, &v1);
}
}  // namespace

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* a, const void* func) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!a) return rt().fail("cudaFuncGetAttributes", kInvalidValue, "null result pointer");
  uint64_t regs = 0, sizes = 0;
  if (cudaError_t e = kernel_request("cudaFuncGetAttributes", func, Call::KernelResources, 0, 0, regs, sizes)) return e;
  if (cudaError_t e = rt().device_info("cudaFuncGetAttributes")) return e;
  const DeviceInfo& i = rt().info;
  std::memset(a, 0, sizeof(*a));
  a->sharedSizeBytes = uint32_t(sizes);
  a->localSizeBytes = uint32_t(sizes >> 32);
  a->maxThreadsPerBlock = int(i.max_threads_per_block);
  a->numRegs = int(regs);
  a->ptxVersion = a->binaryVersion = int(i.major * 10 + i.minor);
  a->maxDynamicSharedSizeBytes = int(i.shared_per_block - std::min<uint64_t>(a->sharedSizeBytes, i.shared_per_block));
  a->preferredShmemCarveout = -1;
  return kSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, const void* func, int block_size,
                                                                   size_t dynamic_shared, unsigned int) {
  std::lock_guard<std::mutex> g(rt().mu);
  const char* fn = "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
  if (!n) return rt().fail(fn, kInvalidValue, "null result pointer");
  if (block_size <= 0) return rt().fail(fn, kInvalidValue, "the block size must be positive");
  uint64_t blocks = 0, unused = 0;
  if (cudaError_t e = kernel_request(fn, func, Call::Occupancy, uint64_t(block_size), dynamic_shared, blocks, unused)) return e;
  *n = int(blocks);
  return kSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void* func, int block_size, size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block_size, dynamic_shared, 0);
}

// The shared-memory and L1 split is the config's (sm.shared_mem): cache and bank preferences change nothing.
cudaError_t cudaFuncSetCacheConfig(const void* func, int) {
  std::lock_guard<std::mutex> g(rt().mu);
  return kernel_of(func) ? kSuccess : rt().fail("cudaFuncSetCacheConfig", kInvalidDeviceFunction, "no kernel registered for this function");
}
cudaError_t cudaDeviceSetCacheConfig(int) { return kSuccess; }
cudaError_t cudaDeviceGetCacheConfig(int* c) {
  if (!c) return kInvalidValue;
  *c = 0;  // cudaFuncCachePreferNone
  return kSuccess;
}
cudaError_t cudaDeviceSetSharedMemConfig(int) { return kSuccess; }
cudaError_t cudaFuncSetSharedMemConfig(const void*, int) { return kSuccess; }

namespace {
unsigned int device_flags = 0;
}
cudaError_t cudaSetDeviceFlags(unsigned int f) {
  device_flags = f;
  return kSuccess;
}
cudaError_t cudaGetDeviceFlags(unsigned int* f) {
  if (!f) return kInvalidValue;
  *f = device_flags;
  return kSuccess;
}

// ---------------------------------------------------------------- more memory calls
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (cudaError_t e = rt().device_info("cudaMemGetInfo")) return e;
  uint64_t used = 0;
  for (const auto& m : rt().device_ranges) used += m.second;
  for (const auto& m : rt().managed) used += m.second;
  const uint64_t total = rt().info.global_memory;
  if (total_bytes) *total_bytes = total;
  if (free_bytes) *free_bytes = total - std::min(used, total);
  return kSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributesHead* a, const void* ptr) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (!a) return rt().fail("cudaPointerGetAttributes", kInvalidValue, "null result pointer");
  const uint64_t p = reinterpret_cast<uint64_t>(ptr);
  cudaPointerAttributesHead h{0, -2, nullptr, nullptr};  // cudaMemoryTypeUnregistered
  if (rt().is_managed(p)) h = {3, 0, const_cast<void*>(ptr), const_cast<void*>(ptr)};
  else if (rt().is_device(p)) h = {2, 0, const_cast<void*>(ptr), nullptr};
  else if (Runtime::in(rt().host_ranges, p)) h = {1, 0, nullptr, const_cast<void*>(ptr)};
  std::memcpy(a, &h, sizeof(h));
  return kSuccess;
}

// Pitched allocations: rows padded to 512 bytes, as the CUDA runtime pads them on current GPUs.
cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  if (!pitch) return kInvalidValue;
  *pitch = (width + 511) / 512 * 512;
  return cudaMalloc(p, *pitch * height);
}

// Pitched copies: one copy per row.
cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int kind) {
  std::lock_guard<std::mutex> g(rt().mu);
  if (height > 1 && (width > dpitch || width > spitch))
    return rt().fail("cudaMemcpy2D", kInvalidValue, "a row of " + std::to_string(width) + " bytes is wider than its pitch");
  for (size_t row = 0; row < height; ++row)
    if (cudaError_t e = copy("cudaMemcpy2D", static_cast<char*>(dst) + row * dpitch,
                             static_cast<const char*>(src) + row * spitch, width, kind))
      return e;
  return kSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              int kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* sym, const void* src, size_t n, size_t offset, int kind, cudaStream_t) {
  return cudaMemcpyToSymbol(sym, src, n, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* sym, size_t n, size_t offset, int kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(dst, sym, n, offset, kind);
}
// Stream-ordered allocation on the one in-order queue is allocation now.
cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t) { return cudaMalloc(p, bytes); }
cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
// Managed memory moves to the device at every launch and back after it: prefetches and advice change nothing.
#if WARPTLM_CUDART_MAJOR >= 13
struct cudaMemLocation {
  int type, id;
};
cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t) { return kSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, int, cudaMemLocation) { return kSuccess; }
#else
cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t) { return kSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, int, int) { return kSuccess; }
cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
#endif
cudaError_t cudaProfilerStart() { return kSuccess; }
cudaError_t cudaProfilerStop() { return kSuccess; }

}  // extern "C"
