// Host runtime: the CUDA-like API a host program uses to drive the modelled
// GPU, through the driver's socket to the platform's host socket. A launch
// returns when the kernel has completed; in timing mode the host program runs
// in a testbench SC_THREAD (run_host_program, testbench.hpp), which waits for it.
#pragma once
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warptlm {

using DevPtr = uint64_t;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// One kernel argument as raw bytes; its size must match the PTX parameter.
struct KernelArg {
  std::vector<uint8_t> bytes;
  template <class T>
  static KernelArg of(T v) {
    static_assert(std::is_trivially_copyable<T>::value, "kernel args are plain values");
    KernelArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
  }
};
template <class T>
inline KernelArg arg(T v) { return KernelArg::of(v); }

class GpuDriver;  // runtime/gpu_driver.hpp

// A ptxas register table: "entry registers" lines, '#' starts a comment (the
// NAME.regs files scripts/gen-ptx writes). Throws InputError naming `origin`
// and the line of a malformed entry.
std::map<std::string, uint32_t> parse_register_table(const std::string& table, const std::string& origin);

class Device {
 public:
  explicit Device(GpuDriver& driver);

  // Load a PTX module (text); `origin` names it in error messages.
  void load_ptx(const std::string& ptx_text, const std::string& origin);
  void load_ptx_file(const std::string& path);

  DevPtr malloc(uint64_t bytes);
  void free(DevPtr p);
  void memcpy_h2d(DevPtr dst, const void* src, uint64_t bytes);
  void memcpy_d2h(void* dst, DevPtr src, uint64_t bytes);
  void memset(DevPtr dst, int value, uint64_t bytes);

  template <class T>
  DevPtr upload(const std::vector<T>& v) {
    DevPtr p = malloc(v.size() * sizeof(T));
    memcpy_h2d(p, v.data(), v.size() * sizeof(T));
    return p;
  }
  template <class T>
  std::vector<T> download(DevPtr p, size_t count) {
    std::vector<T> v(count);
    memcpy_d2h(v.data(), p, count * sizeof(T));
    return v;
  }

  // Launch a kernel by its PTX entry name (mangled or not: an unmangled C
  // name matches the entry whose demangled base name equals it).
  void launch(const std::string& kernel, Dim3 grid, Dim3 block,
              const std::vector<KernelArg>& args, uint32_t dynamic_smem_bytes = 0);

  // Registers per thread assumed for occupancy by the launches that follow
  // (0: gpu.regs_per_thread, or the kernel's estimate from its PTX).
  void set_registers_per_thread(uint32_t n) { regs_per_thread_ = n; }
  // The scheduling hint the launches that follow pass to the GPU (0: none), as seed 004's
  // `kernel<<<grid, block, hint>>>` does (Table 6.1: 1 lines shared among blocks, 2 boundary lines,
  // 3 some common data); a mechanism that reads hints acts on it, the GPU without one ignores it.
  void set_launch_hint(uint32_t h) { launch_hint_ = h; }

  // The real compiler's register counts (ptxas -v), per PTX entry name: a
  // launch of a listed kernel uses its count for occupancy unless
  // set_registers_per_thread or gpu.regs_per_thread says otherwise. `table`
  // holds "entry registers" lines ('#' starts a comment), as scripts/gen-ptx
  // writes NAME.regs; `origin` names it in errors.
  void load_compiled_registers(const std::string& table, const std::string& origin);
  uint32_t compiled_registers(const std::string& entry) const;

  GpuDriver& driver() { return drv_; }
  // cudaDeviceGetAttribute's counterpart: multiprocessor_count, max_threads_per_block,
  // max_shared_memory_per_block, or a mechanism's (the SPU mesh's spu.rows, spu.cols, spu.cb_bytes).
  uint64_t attribute(const std::string& name);

 private:
  GpuDriver& drv_;
  uint32_t regs_per_thread_ = 0;
  uint32_t launch_hint_ = 0;
  std::map<std::string, uint32_t> compiled_regs_;
};

}  // namespace warptlm
