// An architect's own SystemC platform with the WarpTLM GPU in it: a CPU with
// its own free-running clock, a peripheral timer on a third clock, and the GPU
// platform, in one simulation. The CPU's SC_THREAD is the host program: it
// copies inputs over the GPU's host socket, launches three kernels, and while
// each runs it computes that kernel's reference on its own clock; then it
// waits for the GPU's completion event and checks the result bit for bit.
// The simulation ends when the CPU says so (sc_stop).
//
// Built against the installed package (find_package(WarpTLM), see
// CMakeLists.txt); run: host_and_gpu [config.yaml]; exit 0 when every result checks.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/stats.hpp"
#include "gpu/gpu_platform.hpp"
#include "runtime/gpu_driver.hpp"

using namespace warptlm;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw InputError("cannot open '" + path + "'");
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

template <class T>
void put(std::vector<uint8_t>& params, const KernelInfo& k, size_t i, T v) {
  std::memcpy(params.data() + k.params.at(i).offset, &v, sizeof v);
}

}  // namespace

// A peripheral on its own clock: counts its edges, GPU or not.
struct Timer : sc_core::sc_module {
  sc_core::sc_in<bool> clk;
  uint64_t ticks = 0;
  SC_HAS_PROCESS(Timer);
  explicit Timer(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(tick);
    sensitive << clk.pos();
    dont_initialize();
  }
  void tick() { ++ticks; }
};

// The CPU: its host program drives the GPU through a driver bound to the GPU's host socket.
struct HostCpu : sc_core::sc_module {
  sc_core::sc_in<bool> clk;
  GpuDriver driver;
  GpuPlatform& gpu;
  std::string ptx_path;
  bool verified = false;
  uint64_t cpu_cycles_overlapped = 0;  // CPU cycles of reference work done while the GPU ran
  std::vector<LaunchResult> results;

  SC_HAS_PROCESS(HostCpu);
  HostCpu(sc_core::sc_module_name n, GpuPlatform& g, std::string ptx)
      : sc_core::sc_module(n), driver("driver"), gpu(g), ptx_path(std::move(ptx)) {
    driver.connect(gpu.host);
    SC_THREAD(program);
    set_stack_size(16 << 20);
  }

  // One CPU cycle of work.
  void cpu_cycle() {
    sc_core::wait(clk.posedge_event());
    if (gpu.launch_running()) ++cpu_cycles_overlapped;
  }

  // Wait for the launch in flight (the platform's completion event); its result.
  LaunchResult complete() {
    if (gpu.launch_running()) sc_core::wait(gpu.launch_done());
    LaunchResult r = driver.synchronize();
    results.push_back(r);
    return r;
  }

  void program() {
    try {
      run();
    } catch (const std::exception& e) {
      std::cerr << "host_and_gpu: " << e.what() << "\n";
    }
    sc_core::sc_stop();
  }

  void run() {
    driver.load_ptx(read_file(ptx_path), ptx_path);
    const KernelInfo* saxpy = driver.find_kernel("saxpy");
    const KernelInfo* block_sum = driver.find_kernel("block_sum");
    if (!saxpy || !block_sum) throw InputError(ptx_path + ": kernels saxpy and block_sum expected");

    // saxpy twice on one buffer: y = 2x + y, then y = -0.5x + y
    const int n = 4096;
    std::vector<float> x(n), y(n), want(n);
    for (int i = 0; i < n; ++i) {
      x[i] = float(i % 97) * 0.25f;
      y[i] = float(i % 13) - 6.0f;
    }
    const uint64_t dx = driver.allocate(n * sizeof(float)), dy = driver.allocate(n * sizeof(float));
    driver.write(dx, x.data(), n * sizeof(float));
    driver.write(dy, y.data(), n * sizeof(float));
    want = y;
    bool ok = true;
    for (float a : {2.0f, -0.5f}) {
      std::vector<uint8_t> p(saxpy->param_bytes);
      put(p, *saxpy, 0, n);
      put(p, *saxpy, 1, a);
      put(p, *saxpy, 2, dx);
      put(p, *saxpy, 3, dy);
      LaunchDims d;
      d.grid[0] = n / 256;
      d.block[0] = 256;
      driver.start(*saxpy, d, p);
      for (int i = 0; i < n; ++i) {  // the reference, on the CPU's clock, while the GPU runs
        want[i] = std::fma(a, x[i], want[i]);
        if (i % 64 == 63) cpu_cycle();
      }
      complete();
    }
    std::vector<float> got(n);
    driver.read(dy, got.data(), n * sizeof(float));
    for (int i = 0; i < n; ++i) ok = ok && std::memcmp(&got[i], &want[i], sizeof(float)) == 0;

    // block sums of 8192 integers
    const int m = 8192, blocks = m / 256;
    std::vector<int> in(m), sums(blocks, 0);
    for (int i = 0; i < m; ++i) in[i] = (i * 7919) % 1000 - 500;
    const uint64_t din = driver.allocate(m * sizeof(int)), dpart = driver.allocate(blocks * sizeof(int));
    driver.write(din, in.data(), m * sizeof(int));
    std::vector<uint8_t> p(block_sum->param_bytes);
    put(p, *block_sum, 0, m);
    put(p, *block_sum, 1, din);
    put(p, *block_sum, 2, dpart);
    LaunchDims d;
    d.grid[0] = blocks;
    d.block[0] = 256;
    driver.start(*block_sum, d, p);
    for (int i = 0; i < m; ++i) {
      sums[size_t(i / 256)] += in[i];
      if (i % 64 == 63) cpu_cycle();
    }
    complete();
    std::vector<int> part(blocks);
    driver.read(dpart, part.data(), blocks * sizeof(int));
    ok = ok && part == sums;
    verified = ok;
  }
};

int sc_main(int argc, char* argv[]) {
  try {
    GpuParams::declare(ParamTable::global());
    Config cfg;
    cfg.merge_file(argc > 1 ? argv[1] : WARPTLM_SCENARIOS_DIR "/configs/gtx480.yaml");
    cfg.set("gpu.num_sms", "4");
    StatsRegistry stats;
    sc_core::sc_clock cpu_clk("cpu_clk", 0.5, sc_core::SC_NS);  // 2 GHz
    sc_core::sc_clock bus_clk("bus_clk", 10, sc_core::SC_NS);   // 100 MHz
    GpuPlatform gpu("gpu", cfg, stats);
    HostCpu cpu("cpu", gpu, EXAMPLE_DIR "/kernels.ptx");
    cpu.clk(cpu_clk);
    Timer timer("timer");
    timer.clk(bus_clk);
    sc_core::sc_start();  // until the CPU's program calls sc_stop

    for (auto& r : cpu.results)
      std::cout << r.kernel << ": " << r.cycles << " GPU cycles, " << r.warp_instructions << " warp instructions\n";
    std::cout << "CPU cycles of reference work overlapped with the GPU: " << cpu.cpu_cycles_overlapped << "\n"
              << "timer ticks: " << timer.ticks << " in " << sc_core::sc_time_stamp() << "\n"
              << (cpu.verified ? "verified" : "WRONG RESULT") << "\n";
    const bool ran = cpu.results.size() == 3 && timer.ticks > 0 && cpu.cpu_cycles_overlapped > 0;
    return cpu.verified && ran ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "host_and_gpu: " << e.what() << "\n";
    return 2;
  }
}
