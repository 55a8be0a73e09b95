// Device check: WarpTLM's workload drivers, unchanged, on a real CUDA GPU.
//
// The drivers talk to a `Device` (runtime/device.hpp). Here that interface is
// served by the CUDA driver API instead of the simulator: the committed PTX of
// each workload is JIT-compiled by the GPU's driver, inputs are built from the
// same seeds, and every output is checked against the same CPU reference the
// simulator's runs are checked against (exactly for integers; floats within the
// tolerance each driver states). A workload that verifies here and in WarpTLM
// computes the same results on both, to that tolerance.
//
//   devcheck [--size tiny|small|medium|large] [--seed N] [--time FILE] [NAME ...]   (default: every workload, small, seed 1)
//
// --time FILE: each launch is timed with CUDA events recorded around it on the default stream, and one CSV row
// per launch goes to FILE: workload, size, its index in the workload's launches, kernel, grid and block, the
// events' milliseconds, the SM clock the driver reports (kHz) and their product, the launch's time in SM
// cycles at that clock (a boost clock moves under load: `ncu --clock-control none` reads the cycles
// themselves, scripts/devcheck --time adds them).
//
// Built and run by scripts/devcheck on a machine with a CUDA GPU.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/workload.hpp"

namespace warptlm {

class GpuDriver {};  // the simulator's host driver: not part of this program

namespace {

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* s = nullptr;
  cuGetErrorString(r, &s);
  throw std::runtime_error(std::string(what) + ": " + (s ? s : "unknown CUDA error"));
}

struct Cuda {
  CUcontext ctx = nullptr;
  std::vector<CUmodule> modules;
  std::map<std::string, CUfunction> functions;
  Cuda() {
    check(cuInit(0), "cuInit");
    CUdevice d;
    check(cuDeviceGet(&d, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&ctx, d), "cuDevicePrimaryCtxRetain");
    check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  }
  void unload() {
    for (CUmodule m : modules) cuModuleUnload(m);
    modules.clear();
    functions.clear();
  }
  CUfunction function(const std::string& name) {
    auto it = functions.find(name);
    if (it != functions.end()) return it->second;
    for (CUmodule m : modules) {
      CUfunction f;
      if (cuModuleGetFunction(&f, m, name.c_str()) == CUDA_SUCCESS) return functions[name] = f;
    }
    throw std::runtime_error("no kernel '" + name + "' in the loaded PTX");
  }
};

Cuda& cuda() {
  static Cuda c;
  return c;
}

std::string root_dir;  // the repository (PTX files are read from tb/workloads)

// --time: the CSV the launches' times go to, and the workload whose launches are being timed.
struct LaunchTimer {
  std::FILE* out = nullptr;
  std::string workload, size;
  uint32_t index = 0;
  int clock_khz = 0;
};
LaunchTimer timer;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

// ---------------------------------------------------------------- Device on CUDA

Device::Device(GpuDriver& driver) : drv_(driver) {}

void Device::load_ptx(const std::string& ptx_text, const std::string& origin) {
  CUmodule m;
  char log[8192] = {0};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* vals[] = {log, reinterpret_cast<void*>(uintptr_t(sizeof(log)))};
  const CUresult r = cuModuleLoadDataEx(&m, ptx_text.c_str(), 2, opts, vals);
  if (r != CUDA_SUCCESS) throw std::runtime_error(origin + ": the GPU's driver refused the PTX: " + log);
  cuda().modules.push_back(m);
}

void Device::load_ptx_file(const std::string& path) { load_ptx(read_file(path), path); }

DevPtr Device::malloc(uint64_t bytes) {
  CUdeviceptr p;
  check(cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc");
  return DevPtr(p);
}
void Device::free(DevPtr p) { cuMemFree(CUdeviceptr(p)); }
void Device::memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes) {
  if (bytes) check(cuMemcpyHtoD(CUdeviceptr(dst), src, bytes), "cuMemcpyHtoD");
}
void Device::memcpy_d2h(void* dst, DevPtr src, uint64_t bytes) {
  if (bytes) check(cuMemcpyDtoH(dst, CUdeviceptr(src), bytes), "cuMemcpyDtoH");
}
void Device::memset(DevPtr dst, int value, uint64_t bytes) {
  if (bytes) check(cuMemsetD8(CUdeviceptr(dst), static_cast<unsigned char>(value), bytes), "cuMemsetD8");
}

void Device::launch(const std::string& kernel, Dim3 grid, Dim3 block, const std::vector<KernelArg>& args,
                    uint32_t dynamic_smem_bytes) {
  CUfunction f = cuda().function(kernel);
  std::vector<void*> params;
  for (const KernelArg& a : args) params.push_back(const_cast<uint8_t*>(a.bytes.data()));
  if (dynamic_smem_bytes > 48 * 1024)
    check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(dynamic_smem_bytes)), "cuFuncSetAttribute");
  CUevent start = nullptr, stop = nullptr;
  if (timer.out) {
    check(cuEventCreate(&start, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventCreate(&stop, CU_EVENT_DEFAULT), "cuEventCreate");
    check(cuEventRecord(start, nullptr), "cuEventRecord");
  }
  check(cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, dynamic_smem_bytes, nullptr,
                       params.data(), nullptr),
        ("launch of " + kernel).c_str());
  if (timer.out) check(cuEventRecord(stop, nullptr), "cuEventRecord");
  check(cuCtxSynchronize(), ("kernel " + kernel).c_str());
  if (timer.out) {
    float ms = 0;
    check(cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
    cuEventDestroy(start);
    cuEventDestroy(stop);
    std::fprintf(timer.out, "%s,%s,%u,%s,%ux%ux%u,%ux%ux%u,%.6f,%d,%.0f\n", timer.workload.c_str(), timer.size.c_str(),
                 timer.index++, kernel.c_str(), grid.x, grid.y, grid.z, block.x, block.y, block.z, double(ms),
                 timer.clock_khz, double(ms) * timer.clock_khz);
  }
}

// The attributes a CUDA GPU has; a mechanism's (the SPU mesh's spu.rows, ...) exist only on WarpTLM.
uint64_t Device::attribute(const std::string& name) {
  static const std::map<std::string, CUdevice_attribute> known = {
      {"multiprocessor_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {"max_threads_per_block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {"max_shared_memory_per_block", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK}};
  auto it = known.find(name);
  if (it == known.end()) throw std::runtime_error("'" + name + "' is not an attribute of a CUDA GPU");
  CUdevice d;
  check(cuCtxGetDevice(&d), "cuCtxGetDevice");
  int v = 0;
  check(cuDeviceGetAttribute(&v, it->second, d), "cuDeviceGetAttribute");
  return uint64_t(v);
}

void Device::load_compiled_registers(const std::string&, const std::string&) {}  // the GPU's own compiler decides
uint32_t Device::compiled_registers(const std::string&) const { return 0; }

// The PTX each driver loads: the committed tb/workloads/NAME/NAME.ptx.
const std::string& embedded_ptx(const std::string& name) {
  static std::map<std::string, std::string> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  return cache[name] = read_file(root_dir + "/tb/workloads/" + name + "/" + name + ".ptx");
}
const std::string& embedded_registers(const std::string&) {
  static const std::string none;
  return none;
}

}  // namespace warptlm

int main(int argc, char** argv) {
  using namespace warptlm;
  root_dir = std::getenv("WARPTLM_ROOT") ? std::getenv("WARPTLM_ROOT") : ".";
  Size size = Size::Small;
  uint64_t seed = 1;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--size" && i + 1 < argc) {
      if (!parse_size(argv[++i], size)) return std::fprintf(stderr, "devcheck: unknown size '%s'\n", argv[i]), 2;
    } else if (a == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 0);
    } else if (a == "--time" && i + 1 < argc) {
      timer.out = std::fopen(argv[++i], "w");
      if (!timer.out) return std::fprintf(stderr, "devcheck: cannot write %s\n", argv[i]), 2;
      std::fprintf(timer.out, "workload,size,launch,kernel,grid,block,event_ms,clock_khz,event_cycles\n");
    } else {
      names.push_back(a);
    }
  }
  // By default every workload a CUDA GPU can run: those whose PTX uses the SPU mesh's dialect (ld.cbv,
  // st.cbh, bar.blocksync) run only on WarpTLM's mesh platform.
  std::vector<std::string> skipped;
  if (names.empty())
    for (const std::string& n : workload_names()) {
      std::string ptx;
      try {
        ptx = embedded_ptx(n);
      } catch (const std::exception&) {  // a driver whose PTX sits under another folder's name
      }
      const bool mesh = ptx.find(".cbv") != std::string::npos || ptx.find(".cbh") != std::string::npos ||
                        ptx.find("bar.blocksync") != std::string::npos;
      (mesh ? skipped : names).push_back(n);
    }
  char dev_name[256] = {0};
  try {
    CUdevice d;
    cuda();
    check(cuDeviceGet(&d, 0), "cuDeviceGet");
    cuDeviceGetName(dev_name, sizeof(dev_name), d);
    int version = 0;
    cuDriverGetVersion(&version);
    check(cuDeviceGetAttribute(&timer.clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, d), "cuDeviceGetAttribute");
    std::printf("device: %s, CUDA driver %d.%d, SM clock %d MHz; size %s, seed %llu\n", dev_name, version / 1000,
                (version % 1000) / 10, timer.clock_khz / 1000, size_name(size), static_cast<unsigned long long>(seed));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "devcheck: %s\n", e.what());
    return 2;
  }
  static GpuDriver no_driver;
  int failed = 0;
  for (const std::string& n : names) {
    WorkloadResult r;
    try {
      auto w = make_workload(n);
      if (!w) throw std::runtime_error("unknown workload");
      Device dev(no_driver);
      timer.workload = n;
      timer.size = size_name(size);
      timer.index = 0;
      r = w->run(dev, size, seed);
    } catch (const std::exception& e) {
      r.verified = false;
      r.detail = e.what();
    }
    cuda().unload();
    std::printf("%-18s %s  %s\n", n.c_str(), r.verified ? "verified" : "FAILED  ", r.detail.c_str());
    failed += !r.verified;
  }
  for (const std::string& n : skipped) std::printf("%-18s skipped   (the SPU mesh's PTX dialect: WarpTLM only)\n", n.c_str());
  std::printf("%d of %zu workloads verified on %s\n", int(names.size()) - failed, names.size(), dev_name);
  if (timer.out) std::fclose(timer.out);
  return failed ? 1 : 0;
}
