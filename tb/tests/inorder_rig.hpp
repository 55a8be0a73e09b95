// Test rig for the in-order pipeline on elastic_baseline (one SM), shared by
// test_inorder.cpp and test_elastic.cpp: a kernel with strided shared-memory
// accesses and the Fig. 6 taxonomy's bookkeeping checks.
#pragma once
#include <catch2/catch.hpp>

#include <sstream>

#include "sm_rig.hpp"

namespace warptlm::test {

using Sets = std::vector<std::pair<std::string, std::string>>;
using sm_rig::kHeader;

// sm_rig's rig on elastic_baseline with one SM (the sets after it).
struct Rig : sm_rig::Rig {
  explicit Rig(const Sets& sets) : sm_rig::Rig(one_sm(sets), "elastic_baseline") {}
  static Sets one_sm(const Sets& sets) {
    Sets s{{"gpu.num_sms", "1"}};
    s.insert(s.end(), sets.begin(), sets.end());
    return s;
  }
};

// Each thread writes its id to shared word tid * stride, reads the word of
// its mirror thread (threads - 1 - tid) back and stores it to out[tid]. With stride 8 on 8 banks
// every 8-lane subwarp hits one bank 8 times: degree 8 per part.
inline std::string strided_kernel(uint32_t stride, uint32_t threads = 64) {
  std::ostringstream os;
  os << kHeader << ".visible .entry strided(.param .u64 out)\n{\n"
     << " .reg .b32 %r<10>;\n .reg .b64 %rd<10>;\n .shared .align 4 .b8 s[" << threads * stride * 4 << "];\n"
     << " mov.u32 %r1, %tid.x;\n"
     << " mul.lo.u32 %r2, %r1, " << stride * 4 << ";\n"
     << " mov.u32 %r3, s;\n add.u32 %r4, %r3, %r2;\n"
     << " st.shared.u32 [%r4], %r1;\n bar.sync 0;\n"
     << " sub.u32 %r5, " << threads - 1 << ", %r1;\n mul.lo.u32 %r6, %r5, " << stride * 4 << ";\n add.u32 %r7, %r3, %r6;\n"
     << " ld.shared.u32 %r8, [%r7];\n"
     << " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n mul.wide.u32 %rd3, %r1, 4;\n"
     << " add.s64 %rd4, %rd2, %rd3;\n st.global.u32 [%rd4], %r8;\n ret;\n}\n";
  return os.str();
}

inline void run_strided(Rig& rig, uint32_t stride, uint32_t threads = 64) {
  rig.dev->load_ptx(strided_kernel(stride, threads), "strided.ptx");
  DevPtr out = rig.dev->malloc(threads * 4);
  rig.launch("strided", Dim3(1), Dim3(threads), {arg(out)});
  auto v = rig.dev->download<uint32_t>(out, threads);
  for (uint32_t t = 0; t < threads; ++t) REQUIRE(v[t] == threads - 1 - t);
}

// The Fig. 6 outcomes of the issue stage cover every active cycle once.
inline void check_taxonomy(Rig& rig) {
  const double sum = rig.counter("pipe.issue_cycles") + rig.counter("pipe.subwarp_cycles") +
                     rig.counter("pipe.stall_sched_fail") + rig.counter("pipe.stall_bank_conflict") +
                     rig.counter("pipe.stall_other");
  CHECK(sum == rig.counter("sm.active_cycles"));
  // a warp instruction issues as 4 subwarps of 8 lanes
  CHECK(rig.counter("pipe.subwarp_cycles") == 3 * rig.counter("pipe.issue_cycles"));
  CHECK(rig.counter("pipe.issue_cycles") == rig.counter("sm.warp_instructions"));
}


}  // namespace warptlm::test
