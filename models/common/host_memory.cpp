#include "common/host_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace warptlm {

namespace {
// VmSize and VmData of this process, in bytes (from /proc/self/status).
void mapped_now(uint64_t& vm, uint64_t& data) {
  vm = data = 0;
  std::ifstream in("/proc/self/status");
  std::string key;
  uint64_t kb = 0;
  while (in >> key) {
    if (key == "VmSize:" && in >> kb) vm = kb << 10;
    else if (key == "VmData:" && in >> kb) data = kb << 10;
    in.ignore(1 << 12, '\n');
  }
}
}  // namespace

uint64_t host_memory_headroom(std::string* which) {
  rlimit as{}, ds{};
  const bool as_set = getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
  const bool ds_set = getrlimit(RLIMIT_DATA, &ds) == 0 && ds.rlim_cur != RLIM_INFINITY;
  if (!as_set && !ds_set) return UINT64_MAX;
  uint64_t vm = 0, data = 0;
  mapped_now(vm, data);
  uint64_t left = UINT64_MAX;
  if (as_set) {
    left = uint64_t(as.rlim_cur) > vm ? uint64_t(as.rlim_cur) - vm : 0;
    if (which) *which = "its address-space limit (RLIMIT_AS, ulimit -v) of " + std::to_string(uint64_t(as.rlim_cur) >> 20) + " MiB";
  }
  if (ds_set) {
    const uint64_t d = uint64_t(ds.rlim_cur) > data ? uint64_t(ds.rlim_cur) - data : 0;
    if (d < left) {
      left = d;
      if (which) *which = "its data-segment limit (RLIMIT_DATA, ulimit -d) of " + std::to_string(uint64_t(ds.rlim_cur) >> 20) + " MiB";
    }
  }
  return left;
}

std::string host_memory_refusal(const std::string& what, uint64_t bytes) {
  std::string which = "its memory";
  const uint64_t left = host_memory_headroom(&which);
  std::ostringstream os;
  os << what << " needs ";
  if (bytes) os << bytes << " bytes of simulator memory, ";
  os << "more than the host gives this process: ";
  if (left == UINT64_MAX) os << "an allocation failed (the host is out of memory)";
  else os << (left >> 20) << " MiB left under " << which;
  os << " (lower the sizes, or run where more memory is free; sim.max_memory_mb is the simulator's own budget)";
  return os.str();
}

}  // namespace warptlm
