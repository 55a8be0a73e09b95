// What the simulator's host still lets it take. Sizes that come from input
// (device allocations, the blocks of a launch) are checked against the memory
// budget (sim.max_memory_mb) and against this, before anything is allocated:
// an allocation the host would refuse is then a clean input error (exit 2), not
// an abort. (A sanitizer's allocator aborts on a failed allocation, and the
// kernel may kill a process that overcommits: refusing first is the only way
// that works everywhere.)
#pragma once
#include <cstdint>
#include <string>

namespace warptlm {

// Bytes this process may still map under its address-space and data-segment
// limits (RLIMIT_AS, RLIMIT_DATA: `ulimit -v`, `prlimit --as`), less what it
// maps now; UINT64_MAX when neither limit is set. `which` names the limit.
uint64_t host_memory_headroom(std::string* which = nullptr);

// The message of an allocation of `bytes` for `what` that the host cannot give:
// names the limit and how much is left.
std::string host_memory_refusal(const std::string& what, uint64_t bytes);

}  // namespace warptlm
