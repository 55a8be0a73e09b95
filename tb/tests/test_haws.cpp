// Hint-assisted warp scheduling in the SM (models/haws/, spec 004 sec. 3.7-3.10) on hand-built PTX: a loop
// whose hint chain renames a register the stall point still reads, so hint mode must write the spare and
// replay must copy it back; the same kernel under a test-only fault that drops the renaming gives a wrong sum.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "haws/haws.hpp"
#include "sm/sm.hpp"
#include "sm_rig.hpp"

using namespace warptlm;
using namespace sm_rig;

namespace {

// Each thread sums a[i] + (i + 1) * 3 over i < n. The load of a[i] feeds the stall point `add %r2`; the
// next instruction overwrites %r1, which the stall point still reads (a WAR the pass renames), and the
// multiply reads it back through the renaming.
const char* kRenameLoop = R"(
.visible .entry rename_loop(.param .u64 a, .param .u64 out, .param .u32 n)
{
 .reg .pred %p<2>;
 .reg .b32 %r<12>;
 .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [a];
 cvta.to.global.u64 %rd1, %rd1;
 ld.param.u32 %r9, [n];
 mov.u32 %r2, 0;
 mov.u32 %r3, 0;
LOOP: setp.ge.u32 %p1, %r3, %r9;
 @%p1 bra DONE;
 mul.wide.u32 %rd2, %r3, 4;
 add.s64 %rd3, %rd1, %rd2;
 ld.global.u32 %r1, [%rd3];
 add.s32 %r2, %r2, %r1;
 add.s32 %r1, %r3, 1;
 mul.lo.s32 %r4, %r1, 3;
 add.s32 %r2, %r2, %r4;
 add.s32 %r3, %r3, 1;
 bra LOOP;
DONE: ld.param.u64 %rd4, [out];
 cvta.to.global.u64 %rd4, %rd4;
 mov.u32 %r5, %tid.x;
 mul.wide.u32 %rd5, %r5, 4;
 add.s64 %rd6, %rd4, %rd5;
 st.global.u32 [%rd6], %r2;
 ret;
}
)";

Rig haws_rig() {
  auto sets = simple_sm(4);
  sets.push_back({"haws.enabled", "true"});
  return Rig(sets);
}

// Runs rename_loop over n = 64 elements on 2 warps; returns thread 0's sum and the expected one.
std::pair<uint32_t, uint32_t> run_rename_loop(Rig& rig) {
  const uint32_t n = 64;
  std::vector<uint32_t> a(n);
  uint32_t want = 0;
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 1000 + 7 * i;
    want += a[i] + (i + 1) * 3;
  }
  rig.dev->load_ptx(std::string(kHeader) + kRenameLoop, "rename_loop.ptx");
  DevPtr da = rig.dev->upload(a), dout = rig.dev->malloc(64 * 4);
  rig.launch("rename_loop", Dim3(1), Dim3(64), {arg(da), arg(dout), arg(n)});
  return {rig.dev->download<uint32_t>(dout, 1)[0], want};
}

}  // namespace

TEST_CASE("haws: hint mode renames the register the stall point still reads and replay copies it back") {
  Rig rig = haws_rig();
  auto [got, want] = run_rename_loop(rig);
  CHECK(got == want);
  CHECK(rig.counter("haws.episodes") > 0);
  CHECK(rig.counter("haws.hint_issues") > 0);
  CHECK(rig.counter("haws.replay_copies") > 0);  // the renamed add's result copied into %r1 on replay
  CHECK(rig.counter("haws.replay_skips") > 0);
}

TEST_CASE("haws: without the renaming (test-only fault) the hint overwrites the loaded value and the sum is wrong") {
  setenv("WARPTLM_TEST_FAULT", "haws_no_rename", 1);
  Rig rig = haws_rig();
  auto [got, want] = run_rename_loop(rig);
  unsetenv("WARPTLM_TEST_FAULT");
  CHECK(rig.counter("haws.hint_issues") > 0);
  CHECK(got != want);
}

TEST_CASE("haws: switched off, the same kernel computes the same sum with no hint-mode issue") {
  Rig rig(simple_sm(4));
  auto [got, want] = run_rename_loop(rig);
  CHECK(got == want);
}

TEST_CASE("haws: the storage per SM from the parameters is the thesis's 60,160 bits for 40 warps of 64 lanes") {
  HawsParams p;  // RCU 8 x 28 bits, 8 stack entries, 16 renaming entries of 16 bits
  p.mask_bits = 64;
  CHECK(haws_storage_bits(p, 40) == 60160);  // 40 x (224 + 8 x 128 + 256), sec. 3.10
  p.mask_bits = 32;
  CHECK(haws_storage_bits(p, 64) == 64u * (224 + 8 * 96 + 256));  // kepler_k20x: 64 warps of 32 lanes
}
