// The wire between WarpTLM's CUDA runtime library (libcudart.so.N, linked into an unmodified application)
// and `warptlm exec`, whose simulated GPU serves it: one request, then one reply, over a Unix stream socket
// the command hands the application (WARPTLM_CUDART_FD). Plain structs and bytes: the library links nothing
// of the simulator.
#pragma once
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace warptlm {
namespace cudart_wire {

constexpr uint32_t kVersion = 2;
constexpr const char* kFdVariable = "WARPTLM_CUDART_FD";

enum class Call : uint32_t {
  Hello = 1,       // a[0] = kVersion, a[1] = the library's CUDA major version
  LoadFatbin,      // payload: the fat binary (header and entries) -> v[0] = kernels loaded
  KernelParams,    // payload: kernel name -> v[0] = parameters; payload: u32 size of each
  Malloc,          // a[0] = bytes -> v[0] = device address
  Free,            // a[0] = address
  ToDevice,        // a[0] = address; payload: bytes
  FromDevice,      // a[0] = address, a[1] = bytes -> payload: bytes
  OnDevice,        // a[0] = destination, a[1] = source, a[2] = bytes
  Memset,          // a[0] = address, a[1] = byte value, a[2] = bytes
  Symbol,          // payload: variable name -> v[0] = address, v[1] = bytes
  Launch,          // a[0..2] grid, a[3..5] block; payload: launch record (below) -> after the launch ran
  Now,             // -> v[0] = simulated time in picoseconds (an event's record)
  DeviceInfo,      // -> payload: DeviceInfo
  Unsupported,     // payload: the name of a runtime function the library does not provide (reported by the command)
  KernelResources, // payload: kernel name -> v[0] = registers per thread, v[1] = static shared bytes | local bytes << 32
  Occupancy,       // a[0] = threads per block, a[1] = dynamic shared bytes; payload: kernel name -> v[0] = blocks per SM
  Bye,             // the application is done
};

struct Request {
  uint32_t call = 0, reserved = 0;
  uint64_t a[6] = {0, 0, 0, 0, 0, 0};
  uint64_t payload = 0;  // bytes that follow
};

struct Reply {
  int32_t error = 0;     // a cudaError_t; non-zero: the payload is the simulator's message
  uint32_t reserved = 0;
  uint64_t v[2] = {0, 0};
  uint64_t payload = 0;
};

// Launch payload: u32 name length, name, u32 dynamic shared bytes, u32 argument count, then per argument
// u32 size and its bytes.

// What cudaGetDeviceProperties and cudaDeviceGetAttribute report, from the config.
struct DeviceInfo {
  char name[96] = {};
  uint64_t global_memory = 0, shared_per_block = 0, shared_per_sm = 0, l2_bytes = 0;
  uint32_t sms = 0, warp_size = 32, max_threads_per_block = 0, max_threads_per_sm = 0, max_blocks_per_sm = 0;
  uint32_t registers_per_sm = 0, registers_per_block = 0, clock_khz = 0, major = 7, minor = 5;
};

// Whole messages over the socket (retrying interrupted and partial transfers); false when the other side is gone.
inline bool read_all(int fd, void* p, size_t n) {
  char* c = static_cast<char*>(p);
  while (n) {
    const ssize_t got = ::read(fd, c, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    c += got;
    n -= size_t(got);
  }
  return true;
}
inline bool write_all(int fd, const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n) {
    const ssize_t w = ::send(fd, c, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    c += w;
    n -= size_t(w);
  }
  return true;
}

}  // namespace cudart_wire
}  // namespace warptlm
