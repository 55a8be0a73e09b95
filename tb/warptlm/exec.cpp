// warptlm exec: an unmodified CUDA application on the simulated GPU. The application runs as a child
// process with WarpTLM's CUDA runtime library first on its LD_LIBRARY_PATH (tb/cudart); each runtime call
// arrives here over a socket (tb/cudart/wire.hpp), and this host program, an SC_THREAD of the testbench like
// any workload's driver, serves it through the host interface: fat binaries become loaded modules (their PTX
// written to the run's output folder, where fault messages point), copies and launches go through the Device.
// WarpTLM compares nothing of an application's results: its exit status is reported as its own (app_exit),
// 0 as not_checked, anything else as the application's failure. docs/cuda-apps.md.
#include <elf.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <new>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "app.hpp"
#include "common/errors.hpp"
#include "cudart/wire.hpp"
#include "gpu/gpu_platform.hpp"
#include "gpu/occupancy.hpp"
#include "sm/sm_params.hpp"
#include "isa/module.hpp"
#include "runtime/device.hpp"
#include "runtime/gpu_driver.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace warptlm {
namespace {

using namespace cudart_wire;

// ------------------------------------------------------------------ fat binaries

// The PTX of one fat binary: its PTX entries (kind 1), each possibly compressed with zstd (nvcc 13's
// default); the entry for the lowest architecture at or above compute_75, else the highest there is.
std::string ptx_of_fatbin(const std::vector<uint8_t>& fb, const std::string& app) {
  auto u16 = [&](size_t at) { uint16_t v; std::memcpy(&v, &fb[at], 2); return v; };
  auto u32 = [&](size_t at) { uint32_t v; std::memcpy(&v, &fb[at], 4); return v; };
  auto u64 = [&](size_t at) { uint64_t v; std::memcpy(&v, &fb[at], 8); return v; };
  const std::string rebuild = "rebuild " + app + " with nvcc -cudart shared -gencode arch=compute_75,code=compute_75 "
                              "(PTX in the fat binary), or give the PTX as WARPTLM_PTX=FILE.ptx";
  if (fb.size() < 16 || u32(0) != 0xBA55ED50u) throw InputError(app + ": its fat binary has no fat-binary header; " + rebuild);
  const size_t header = u16(6), end = std::min<size_t>(fb.size(), header + size_t(u64(8)));
  std::string best;
  uint32_t best_arch = 0;
  bool compressed_other = false;
  for (size_t at = header; at + 16 <= end;) {
    const uint16_t kind = u16(at);
    const uint32_t ehead = u32(at + 4);
    const uint64_t size = u64(at + 8);
    if (ehead < 16 || ehead > end - at || size > end - at - ehead) break;  // no sum that could wrap
    if (kind == 1 && ehead >= 0x30) {
      const uint32_t arch = u32(at + 0x1c);
      const uint64_t flags = u64(at + 0x28);
      const uint8_t* p = &fb[at + ehead];
      std::string text;
      if (size >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) {  // a zstd frame
        const size_t frame = ZSTD_findFrameCompressedSize(p, size_t(size));
        const unsigned long long n = ZSTD_getFrameContentSize(p, ZSTD_isError(frame) ? size_t(size) : frame);
        if (ZSTD_isError(frame) || n == ZSTD_CONTENTSIZE_ERROR || n == ZSTD_CONTENTSIZE_UNKNOWN || n > (1ull << 30))
          throw InputError(app + ": a PTX entry of its fat binary is not a zstd frame this runtime can read; " + rebuild + " --no-compress");
        text.resize(size_t(n));
        const size_t got = ZSTD_decompress(text.data(), text.size(), p, frame);
        if (ZSTD_isError(got)) throw InputError(app + ": its fat binary's PTX does not decompress (" + ZSTD_getErrorName(got) + "); " + rebuild + " --no-compress");
        text.resize(got);
      } else if (flags & 0x2000) {  // nvcc's own (LZ-style) compression: -compress-mode=speed
        compressed_other = true;
        at += ehead + size;
        continue;
      } else {
        text.assign(reinterpret_cast<const char*>(p), size_t(size));
      }
      while (!text.empty() && text.back() == '\0') text.pop_back();
      const bool better = best.empty() || (arch >= 75 && (best_arch < 75 || arch < best_arch)) || (best_arch < 75 && arch > best_arch);
      if (better) { best = std::move(text); best_arch = arch; }
    }
    at += ehead + size;
  }
  if (best.empty()) {
    if (compressed_other)
      throw InputError(app + ": its fat binary's PTX is compressed with nvcc's -compress-mode=speed, which this runtime does not "
                       "read; rebuild with -compress-mode=size (zstd, nvcc's default) or --no-compress");
    throw InputError(app + ": its fat binary holds no PTX (only machine code for a real GPU); " + rebuild);
  }
  return best;
}

// ------------------------------------------------------------------ the server

class CudaServer {
 public:
  CudaServer(Device& dev, const Config& cfg, const std::vector<std::string>& argv, const std::string& device_name,
             const std::string& out_dir)
      : dev_(dev), cfg_(cfg), argv_(argv), device_name_(device_name), out_dir_(out_dir) {
    app_ = fs::path(argv_.at(0)).filename().string();
    functional_ = cfg_.get_string("sim.mode") != "timing";
  }
  // Whether WarpTLM's runtime library in the application ever spoke to this server (its first CUDA call).
  bool heard_from_runtime() const { return hello_; }

  // Runs the application to its end; its exit status (or 128 + the signal that ended it).
  int run(std::string& fault) {
    spawn();
    bool open = true;
    while (open) {
      Request r;
      if (!read_all(fd_, &r, sizeof(r))) break;  // the application ended without saying goodbye
      if (r.payload > kMaxPayload) {  // no request is that large: the stream cannot be trusted
        fault = app_ + " sent a request of " + std::to_string(r.payload) + " bytes, over the " + std::to_string(kMaxPayload) + " a request may carry";
        stop_child();
        break;
      }
      Reply rep;
      std::vector<uint8_t> out;
      try {
        std::vector<uint8_t> payload(size_t(r.payload));
        if (!payload.empty() && !read_all(fd_, payload.data(), payload.size())) break;
        open = serve(r, payload, rep, out);
      } catch (const RunStopped&) {
        stop_child();
        throw;
      } catch (const RunError& e) {
        if (Call(r.call) == Call::Launch) {  // a fault in a kernel: cudaErrorIllegalAddress, for every later call too
          // warptlm prints the fault itself when the run ends (once); the application's runtime says only this
          if (fault.empty()) fault = e.what();
          answer_error(rep, out, 700, "the kernel faulted: cudaErrorIllegalAddress (warptlm reports the fault when the run ends)");
        } else {  // a copy or memset the device memory refused, or an allocation: the call's own error
          answer_error(rep, out, error_for(Call(r.call)), e.what());
        }
      } catch (const InputError& e) {
        answer_error(rep, out, error_for(Call(r.call)), e.what());
      } catch (const std::bad_alloc&) {
        answer_error(rep, out, 2, "the simulator's host ran out of memory serving " + std::string(call_name(Call(r.call))));
      }
      rep.payload = out.size();
      if (!write_all(fd_, &rep, sizeof(rep)) || (!out.empty() && !write_all(fd_, out.data(), out.size()))) break;
    }
    return wait_child();
  }

 private:
  Device& dev_;
  const Config& cfg_;
  std::vector<std::string> argv_;
  std::string device_name_;
  std::string out_dir_;
  std::string app_;
  int fd_ = -1;
  pid_t pid_ = -1;
  bool ptx_override_loaded_ = false;
  bool hello_ = false;
  bool functional_ = false;
  bool warned_time_ = false;
  uint32_t fatbins_ = 0;  // fat binaries loaded so far

  // The PTX of the application's n-th fat binary, written to the run's output folder (APP.ptx, then
  // APP.2.ptx, ...): the file a fault message's line refers to.
  std::string write_ptx(const std::string& text) {
    const std::string name = app_ + (fatbins_ > 1 ? "." + std::to_string(fatbins_) : "") + ".ptx";
    const fs::path path = fs::path(out_dir_) / name;
    std::ofstream f(path, std::ios::binary);
    f << text;
    f.close();
    if (!f) throw InputError("cannot write " + path.string() + " (the PTX of " + app_ + "'s fat binary)");
    return path.string();
  }

  static constexpr uint64_t kMaxPayload = 1ull << 34;
  static constexpr uint64_t kChunk = 1ull << 30;  // copies move at most this much per host command

  static const char* call_name(Call c) {
    switch (c) {
      case Call::LoadFatbin: return "a fat binary";
      case Call::FromDevice: case Call::ToDevice: case Call::OnDevice: return "a copy";
      case Call::Launch: return "a launch";
      default: return "a request";
    }
  }

  static int error_for(Call c) {
    switch (c) {
      case Call::Malloc: return 2;            // cudaErrorMemoryAllocation
      case Call::Launch: return 9;            // cudaErrorInvalidConfiguration
      case Call::KernelParams: case Call::KernelResources: case Call::Occupancy:
        return 98;                            // cudaErrorInvalidDeviceFunction
      case Call::LoadFatbin: return 218;      // cudaErrorInvalidPtx
      case Call::Symbol: return 13;           // cudaErrorInvalidSymbol
      default: return 1;                      // cudaErrorInvalidValue
    }
  }
  static void answer_error(Reply& rep, std::vector<uint8_t>& out, int code, const std::string& what) {
    rep.error = code;
    out.assign(what.begin(), what.end());
  }

  // The folders holding libcudart.so.13 and .12: WARPTLM_CUDART_DIR, else build/cudart/ beside this command.
  static std::string library_path() {
    std::string base;
    if (const char* d = std::getenv("WARPTLM_CUDART_DIR")) base = d;
    else {
      char buf[4096];
      const ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
      base = n > 0 ? (fs::path(std::string(buf, size_t(n))).parent_path() / "cudart").string() : "cudart";
    }
    std::string p = base + "/13:" + base + "/12";
    if (!fs::exists(base + "/13/libcudart.so.13"))
      throw InputError("WarpTLM's CUDA runtime library is not at " + base + "/13/libcudart.so.13: build it (scripts/build) or set WARPTLM_CUDART_DIR");
    if (const char* old = std::getenv("LD_LIBRARY_PATH")) if (*old) p += std::string(":") + old;
    return p;
  }

  void spawn() {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) throw RunError(std::string("socketpair: ") + std::strerror(errno));
    fd_ = sv[0];
    const int child_fd = dup(sv[1]);  // without close-on-exec: the application keeps it
    close(sv[1]);
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
      const std::string s(*e);
      if (s.rfind("LD_LIBRARY_PATH=", 0) == 0 || s.rfind(std::string(kFdVariable) + "=", 0) == 0) continue;
      env.push_back(s);
    }
    env.push_back("LD_LIBRARY_PATH=" + library_path());
    env.push_back(std::string(kFdVariable) + "=" + std::to_string(child_fd));
    std::vector<char*> envp, args;
    for (auto& s : env) envp.push_back(s.data());
    envp.push_back(nullptr);
    for (auto& s : argv_) args.push_back(s.data());
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], nullptr, nullptr, args.data(), envp.data());
    close(child_fd);
    if (rc != 0) throw InputError("cannot start the application '" + argv_[0] + "': " + std::strerror(rc));
  }

  void stop_child() {
    if (pid_ > 0) kill(pid_, SIGTERM);
    wait_child();
  }

  int wait_child() {
    if (fd_ >= 0) { close(fd_); fd_ = -1; }
    if (pid_ <= 0) return 0;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {}
    pid_ = -1;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 1;
  }


  static uint32_t take32(const std::vector<uint8_t>& p, size_t& at) {
    if (at + 4 > p.size()) throw InputError("a launch record from the application is cut short");
    uint32_t v;
    std::memcpy(&v, &p[at], 4);
    at += 4;
    return v;
  }

  const KernelInfo& kernel_named(const std::vector<uint8_t>& p) const {
    const std::string name(p.begin(), p.end());
    const KernelInfo* k = dev_.driver().find_kernel(name);
    if (!k) throw InputError("no kernel '" + name + "' in " + app_ + "'s PTX");
    return *k;
  }
  // The registers per thread a launch of k takes (gpu.regs_per_thread, else the PTX's estimate).
  uint32_t registers_of(const KernelInfo& k) const {
    const int64_t set = cfg_.get_int("gpu.regs_per_thread");
    return set ? uint32_t(set) : k.regs_per_thread;
  }

  DeviceInfo device_info() const {
    DeviceInfo i;
    const GpuParams g = GpuParams::from(cfg_);
    std::snprintf(i.name, sizeof(i.name), "%s", device_name_.c_str());
    i.global_memory = g.max_memory;
    i.shared_per_block = g.max_shared_per_block;
    i.shared_per_sm = uint64_t(cfg_.get_int("sm.shared_mem"));
    i.l2_bytes = uint64_t(cfg_.get_int("l2.slice_size")) * g.partitions * g.subpartitions;
    i.sms = g.num_sms;
    i.max_threads_per_block = g.max_threads_per_block;
    i.max_threads_per_sm = uint32_t(cfg_.get_int("sm.max_threads"));
    i.max_blocks_per_sm = uint32_t(cfg_.get_int("sm.max_blocks"));
    i.registers_per_sm = uint32_t(cfg_.get_int("sm.registers"));
    i.registers_per_block = std::min<uint32_t>(i.registers_per_sm, 65536);
    i.clock_khz = g.core_clock_mhz * 1000;
    return i;
  }

  // One request; false when the application is done.
  bool serve(const Request& r, const std::vector<uint8_t>& p, Reply& rep, std::vector<uint8_t>& out) {
    switch (Call(r.call)) {
      case Call::Hello:
        if (r.a[0] != kVersion)
          throw InputError(app_ + " loaded a WarpTLM CUDA runtime of another version (" + std::to_string(r.a[0]) + ", this command speaks " +
                           std::to_string(kVersion) + "): rebuild WarpTLM");
        hello_ = true;
        return true;
      case Call::LoadFatbin: {
        if (const char* over = std::getenv("WARPTLM_PTX")) {  // the user's PTX in place of every fat binary's
          if (!ptx_override_loaded_) dev_.load_ptx_file(over);
          ptx_override_loaded_ = true;
          return true;
        }
        const std::string ptx = ptx_of_fatbin(p, app_);
        ++fatbins_;
        dev_.load_ptx(ptx, write_ptx(ptx));
        return true;
      }
      case Call::KernelParams: {
        const std::string name(p.begin(), p.end());
        const KernelInfo* k = dev_.driver().find_kernel(name);
        if (!k) throw InputError("no kernel '" + name + "' in " + app_ + "'s PTX");
        rep.v[0] = k->params.size();
        for (const ParamInfo& pi : k->params) out.insert(out.end(), reinterpret_cast<const uint8_t*>(&pi.size), reinterpret_cast<const uint8_t*>(&pi.size) + 4);
        return true;
      }
      case Call::Malloc:
        rep.v[0] = dev_.malloc(std::max<uint64_t>(r.a[0], 1));
        return true;
      case Call::Free:
        dev_.free(r.a[0]);
        return true;
      case Call::ToDevice:
        for (uint64_t at = 0; at < p.size(); at += kChunk) dev_.memcpy_h2d(r.a[0] + at, p.data() + at, std::min<uint64_t>(kChunk, p.size() - at));
        return true;
      case Call::FromDevice:
        if (r.a[1] > kMaxPayload) throw InputError("a copy of " + std::to_string(r.a[1]) + " bytes is larger than the simulator moves at once");
        out.resize(size_t(r.a[1]));
        for (uint64_t at = 0; at < r.a[1]; at += kChunk) dev_.memcpy_d2h(out.data() + at, r.a[0] + at, std::min<uint64_t>(kChunk, r.a[1] - at));
        return true;
      case Call::OnDevice: {
        std::vector<uint8_t> tmp(size_t(std::min<uint64_t>(kChunk, r.a[2])));
        for (uint64_t at = 0; at < r.a[2]; at += kChunk) {
          const uint64_t n = std::min<uint64_t>(kChunk, r.a[2] - at);
          dev_.memcpy_d2h(tmp.data(), r.a[1] + at, n);
          dev_.memcpy_h2d(r.a[0] + at, tmp.data(), n);
        }
        return true;
      }
      case Call::Memset:
        dev_.memset(r.a[0], int(r.a[1]), r.a[2]);
        return true;
      case Call::Symbol: {
        const std::string name(p.begin(), p.end());
        uint64_t bytes = 0;
        rep.v[0] = dev_.driver().symbol(name, bytes);
        rep.v[1] = bytes;
        return true;
      }
      case Call::Launch: {
        size_t at = 0;
        const uint32_t n = take32(p, at);
        if (at + n > p.size()) throw InputError("a launch record from the application is cut short");
        const std::string name(p.begin() + long(at), p.begin() + long(at + n));
        at += n;
        const uint32_t shared = take32(p, at), nargs = take32(p, at);
        std::vector<KernelArg> args(nargs);
        for (KernelArg& a : args) {
          const uint32_t size = take32(p, at);
          if (at + size > p.size()) throw InputError("a launch record from the application is cut short");
          a.bytes.assign(p.begin() + long(at), p.begin() + long(at + size));
          at += size;
        }
        dev_.launch(name, Dim3(uint32_t(r.a[0]), uint32_t(r.a[1]), uint32_t(r.a[2])),
                    Dim3(uint32_t(r.a[3]), uint32_t(r.a[4]), uint32_t(r.a[5])), args, shared);
        return true;
      }
      case Call::Now:
        if (functional_ && !warned_time_) {  // events read the simulated time, which functional mode does not move
          warned_time_ = true;
          SC_REPORT_WARNING("warptlm", (app_ + " records CUDA events, but functional mode (sim.mode=functional) simulates "
                                        "no time: every event reads 0 and cudaEventElapsedTime gives 0 ms; "
                                        "sim.mode=timing gives simulated time").c_str());
        }
        rep.v[0] = uint64_t(sc_core::sc_time_stamp().value() / std::max<uint64_t>(1, sc_core::sc_time(1, sc_core::SC_PS).value()));
        return true;
      case Call::DeviceInfo: {
        const DeviceInfo i = device_info();
        out.assign(reinterpret_cast<const uint8_t*>(&i), reinterpret_cast<const uint8_t*>(&i) + sizeof(i));
        return true;
      }
      case Call::KernelResources: {
        const KernelInfo& k = kernel_named(p);
        rep.v[0] = registers_of(k);
        rep.v[1] = uint64_t(k.static_smem) | uint64_t(k.local_bytes) << 32;
        return true;
      }
      case Call::Occupancy: {
        const KernelInfo& k = kernel_named(p);
        BlockFootprint b;  // as the SM counts a block (Sm::usage_of, Sm::can_accept)
        b.threads = uint32_t(std::min<uint64_t>(r.a[0], 1u << 20));
        b.regs_per_thread = registers_of(k);
        b.shared_bytes = SmParams::block_shared_bytes(k.static_smem, uint32_t(std::min<uint64_t>(r.a[1], 1u << 30)));
        rep.v[0] = compute_occupancy(SmParams::from(cfg_).occupancy_limits(), b).blocks_per_sm;
        return true;
      }
      case Call::Unsupported:
        throw InputError(app_ + " called " + std::string(p.begin(), p.end()) + ", which WarpTLM's CUDA runtime does not provide");
      case Call::Bye:
        return false;
    }
    throw InputError(app_ + " sent an unknown request " + std::to_string(r.call) + " (a runtime of another WarpTLM?)");
  }
};

// Why an application's runtime never spoke to us: its CUDA runtime linked into it (nvcc's default, a fat binary
// section in the executable), or no CUDA at all.
std::string why_no_cuda_calls(const std::string& app_path, const std::string& app) {
  std::string exe = app_path;
  if (exe.find('/') == std::string::npos)  // found on PATH, as posix_spawnp found it
    if (const char* path = std::getenv("PATH")) {
      std::stringstream dirs(path);
      for (std::string d; std::getline(dirs, d, ':');)
        if (!d.empty() && access((fs::path(d) / exe).c_str(), X_OK) == 0) { exe = (fs::path(d) / exe).string(); break; }
    }
  bool fatbin = false, shared_runtime = false;
  std::ifstream f(exe, std::ios::binary);
  Elf64_Ehdr h{};
  if (f.read(reinterpret_cast<char*>(&h), sizeof(h)) && std::memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 &&
      h.e_ident[EI_CLASS] == ELFCLASS64 && h.e_shentsize == sizeof(Elf64_Shdr) && h.e_shnum > 0 && h.e_shnum < 4096 &&
      h.e_shstrndx < h.e_shnum) {
    std::vector<Elf64_Shdr> sh(h.e_shnum);
    f.seekg(std::streamoff(h.e_shoff));
    if (f.read(reinterpret_cast<char*>(sh.data()), std::streamsize(sh.size() * sizeof(Elf64_Shdr))) &&
        sh[h.e_shstrndx].sh_size < (1u << 24)) {
      std::string names(size_t(sh[h.e_shstrndx].sh_size), '\0');
      f.seekg(std::streamoff(sh[h.e_shstrndx].sh_offset));
      if (f.read(names.data(), std::streamsize(names.size())))
        for (const Elf64_Shdr& s : sh) {
          if (s.sh_name >= names.size()) continue;
          const char* name = names.c_str() + s.sh_name;
          if (std::strcmp(name, ".nv_fatbin") == 0) fatbin = true;
          if (std::strcmp(name, ".dynstr") == 0 && s.sh_size < (1u << 24)) {  // the libraries it loads are named here
            std::string dynstr(size_t(s.sh_size), '\0');
            f.seekg(std::streamoff(s.sh_offset));
            if (f.read(dynstr.data(), std::streamsize(dynstr.size())) && dynstr.find("libcudart.so") != std::string::npos)
              shared_runtime = true;
          }
        }
    }
  }
  if (shared_runtime)
    return app + " loaded WarpTLM's CUDA runtime but made no CUDA call: nothing ran on the simulated GPU (an "
                 "application that ends before its first call, for its usage message or an input it refused, "
                 "simulates nothing)";
  if (fatbin)
    return app + " ran without making a CUDA call through WarpTLM's runtime: it holds CUDA code (a .nv_fatbin section) "
                 "but its CUDA runtime is linked into it (nvcc links it statically by default), so the simulated GPU "
                 "never saw a call. Rebuild it with nvcc -cudart shared (docs/cuda-apps.md)";
  return app + " ran without making a CUDA call through WarpTLM's runtime: it holds no CUDA code WarpTLM can see (no "
               ".nv_fatbin section) and never loaded libcudart.so; warptlm exec runs CUDA applications built with "
               "nvcc -cudart shared (docs/cuda-apps.md)";
}

}  // namespace

void serve_cuda_app(Device& dev, const Config& cfg, const std::vector<std::string>& argv, const std::string& device_name,
                    const std::string& out_dir, std::string& detail, int& app_exit) {
  CudaServer server(dev, cfg, argv, device_name, out_dir);
  std::string fault;
  const int status = server.run(fault);
  app_exit = status;
  if (!fault.empty()) throw RunError(fault);  // a kernel faulted: the run's status is the fault, whatever the application did
  std::ostringstream os;
  os << argv[0] << " exited with status " << status;
  if (status == 127)
    os << " (127: the loader could not start it, or it called a CUDA runtime function WarpTLM does not provide: the line "
          "'undefined symbol: cuda...' above names it; docs/cuda-apps.md lists those provided)";
  else if (status > 128)
    os << " (killed by signal " << status - 128 << ")";
  detail = os.str();
  // A program that never reached the simulator ran nothing on it: that is no success, whatever its status
  // (one the loader stopped before any call, 127, is reported as its own failure above).
  if (!server.heard_from_runtime() && status != 127) throw InputError(why_no_cuda_calls(argv[0], fs::path(argv[0]).filename().string()));
}

}  // namespace warptlm
