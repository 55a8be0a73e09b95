// Register storage (models/isa/register_storage.hpp): registers never live at once share a warp's storage,
// the scoreboard keeps the PTX's registers, and every thread reads what it last wrote. The functional check
// runs a kernel whose correct result needs each rule (a guarded write that keeps the old value on the lanes
// it skips, two divergent paths whose registers share storage, a value live around a loop, special
// registers read last) with shared storage and with one slot per register, against the CPU, and a test-only
// fault (a guarded write taken as ending the value before it) makes it fail. The last case checks the warp's
// reconvergence stack (SimtStack) beyond the entries the warp holds itself.
#include <algorithm>
#include <cstring>

#include <catch2/catch.hpp>

#include "isa/memory.hpp"
#include "isa/module.hpp"
#include "isa/register_storage.hpp"
#include "isa/simt.hpp"
#include "workloads/workload.hpp"

using namespace warptlm;

namespace {

// out[tid] = keep + (odd ? 3 tid + 1 : 5 tid + 2) + sum_{i<4} (tid + i) + ctaid.x, where keep is 100 on even
// lanes and tid + 7 on odd ones (a guarded mov over an earlier value).
const char* kStorageKernel = R"(
.version 7.5
.target sm_75
.address_size 64
.visible .entry storage(
	.param .u64 storage_param_0
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [storage_param_0];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, 100;
	and.b32 	%r3, %r1, 1;
	setp.eq.u32 	%p1, %r3, 1;
	add.s32 	%r4, %r1, 7;
	@%p1 mov.u32 	%r2, %r4;
	@%p1 bra 	$ODD;
	mul.lo.s32 	%r5, %r1, 5;
	add.s32 	%r6, %r5, 2;
	add.s32 	%r10, %r2, %r6;
	bra.uni 	$JOIN;
$ODD:
	mul.lo.s32 	%r7, %r1, 3;
	add.s32 	%r8, %r7, 1;
	add.s32 	%r10, %r2, %r8;
$JOIN:
	mov.u32 	%r11, 0;
	mov.u32 	%r12, 0;
$LOOP:
	add.s32 	%r13, %r1, %r12;
	add.s32 	%r11, %r11, %r13;
	add.s32 	%r12, %r12, 1;
	setp.lt.u32 	%p2, %r12, 4;
	@%p2 bra 	$LOOP;
	add.s32 	%r14, %r10, %r11;
	mov.u32 	%r15, %ctaid.x;
	add.s32 	%r16, %r14, %r15;
	mov.u32 	%r17, %ntid.x;
	mad.lo.s32 	%r18, %r15, %r17, %r1;
	mul.wide.u32 	%rd2, %r18, 4;
	add.s64 	%rd3, %rd1, %rd2;
	st.global.u32 	[%rd3], %r16;
	ret;
}
)";

uint32_t expected(uint32_t block, uint32_t tid) {
  const bool odd = tid & 1;
  const uint32_t keep = odd ? tid + 7 : 100;
  const uint32_t path = odd ? 3 * tid + 1 : 5 * tid + 2;
  return keep + path + (4 * tid + 6) + block;
}

// Runs `k` over `blocks` blocks of 64 threads in the functional model; what each thread stored.
std::vector<uint32_t> run(const KernelInfo& k, GlobalMemory& mem, uint32_t blocks) {
  const uint32_t threads = 64;
  const uint64_t out = mem.allocate(uint64_t(blocks) * threads * 4);
  LaunchState L;
  L.kernel = &k;
  L.mem = &mem;
  L.grid[0] = blocks;
  L.block[0] = threads;
  L.threads_per_block = threads;
  L.warps_per_block = threads / 32;
  L.params.assign(k.param_bytes, 0);
  std::memcpy(L.params.data(), &out, 8);
  for (uint32_t id = 0; id < blocks; ++id) {
    Block b(k, L, id, 0);
    run_block_functional(b, L);
  }
  std::vector<uint32_t> got(size_t(blocks) * threads);
  mem.read(out, got.data(), got.size() * 4);
  return got;
}

size_t wrong(const std::vector<uint32_t>& got) {
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) bad += got[i] != expected(uint32_t(i / 64), uint32_t(i % 64));
  return bad;
}

}  // namespace

TEST_CASE("registers never live at once share storage and every thread reads what it wrote") {
  GlobalMemory mem;
  Module mod(kStorageKernel, "storage.ptx", mem);
  const KernelInfo* k = mod.find_kernel("storage");
  REQUIRE(k != nullptr);
  // shared: fewer slots than registers, the scoreboard view untouched
  REQUIRE_FALSE(k->storage_of.empty());
  CHECK(k->stored_regs() < k->num_regs);
  REQUIRE(k->declared_prog.size() == k->prog.size());
  for (size_t pc = 0; pc < k->prog.size(); ++pc) {
    const Instr& a = k->prog[pc];
    const Instr& d = k->declared_prog[pc];
    CHECK(std::vector<uint32_t>(a.reads, a.reads + a.nreads) == std::vector<uint32_t>(d.reads, d.reads + d.nreads));
    CHECK(std::vector<uint32_t>(a.writes, a.writes + a.nwrites) == std::vector<uint32_t>(d.writes, d.writes + d.nwrites));
    for (unsigned i = 0; i < a.nops; ++i)
      if (a.ops[i].kind == OpKind::Reg) CHECK(a.ops[i].reg == k->storage_slot(d.ops[i].reg));
  }
  // the two divergent paths' registers share storage (their lanes are written apart)
  auto declared_dest = [&](const char* reg) {  // the register the first instruction naming `reg` writes
    for (const Instr& in : k->declared_prog)
      if (in.text.find(reg) != std::string::npos) return in.ops[0].reg;
    FAIL("no instruction names " << reg);
    return 0u;
  };
  CHECK(k->storage_slot(declared_dest("%r5")) == k->storage_slot(declared_dest("%r7")));

  CHECK(wrong(run(*k, mem, 3)) == 0);
  KernelInfo declared = *k;
  declared.use_declared_slots();
  CHECK(declared.stored_regs() == k->num_regs);
  CHECK(run(declared, mem, 3) == run(*k, mem, 3));

  SECTION("a guarded write taken as the end of the value before it (test-only fault) is caught") {
    KernelInfo faulty = declared;
    share_register_storage(faulty, RegisterStorageFault::GuardedWriteEndsValue);
    REQUIRE_FALSE(faulty.storage_of.empty());
    CHECK(wrong(run(faulty, mem, 3)) > 0);
  }
}

TEST_CASE("a block restarted as the next block of its launch is a new block: its warps, shared memory and barriers as a fresh one's") {
  // The functional executor runs a launch's blocks one after another in one block's storage (Block::restart).
  GlobalMemory mem;
  Module mod(kStorageKernel, "storage.ptx", mem);
  const KernelInfo* k = mod.find_kernel("storage");
  REQUIRE(k != nullptr);
  const uint64_t out = mem.allocate(3 * 64 * 4);
  LaunchState L;
  L.kernel = k;
  L.mem = &mem;
  L.grid[0] = 3;
  L.block[0] = 64;
  L.threads_per_block = 64;
  L.warps_per_block = 2;
  L.dynamic_smem = 64;
  L.params.assign(k->param_bytes, 0);
  std::memcpy(L.params.data(), &out, 8);
  Block b(*k, L, 0, 0);
  run_block_functional(b, L);
  // what a block leaves behind: finished warps, written registers, a barrier's count, shared bytes
  REQUIRE(b.warps_done == 2);
  b.barriers[1].arrived = 1;
  b.barriers[1].expected = 2;
  std::fill(b.shared.begin(), b.shared.end(), uint8_t(0xAB));
  b.restart(2, 1);
  const Block fresh(*k, L, 2, 1);
  CHECK(b.linear_id == 2);
  CHECK(b.sm_id == 1);
  CHECK(std::equal(b.ctaid, b.ctaid + 3, fresh.ctaid));
  CHECK(b.shared == fresh.shared);
  CHECK(b.warps_done == 0);
  for (uint32_t i = 0; i < Block::kNamedBarriers + 1; ++i) {
    CHECK(b.barriers[i].arrived == 0);
    CHECK(b.barriers[i].expected == 0);
  }
  REQUIRE(b.warps.size() == fresh.warps.size());
  for (size_t i = 0; i < b.warps.size(); ++i) {
    const Warp &w = b.warps[i], &f = fresh.warps[i];
    CHECK(w.regs == f.regs);  // zeroed, the special registers (ctaid.x among them) those of block 2
    CHECK(w.preds == f.preds);
    CHECK(w.local == f.local);
    CHECK(w.frame == f.frame);
    CHECK(w.done == f.done);
    CHECK(w.at_barrier == f.at_barrier);
    CHECK(w.exited == f.exited);
    CHECK(w.furthest_pc == f.furthest_pc);
    CHECK(w.pc() == f.pc());
    CHECK(w.active_mask() == f.active_mask());
    CHECK(w.insts.warp == 0);
    CHECK(w.insts.thread == 0);
  }
  // and it runs as block 2
  run_block_functional(b, L);
  std::vector<uint32_t> got(3 * 64);
  mem.read(out, got.data(), got.size() * 4);
  for (uint32_t t = 0; t < 64; ++t) CHECK(got[2 * 64 + t] == expected(2, t));
}

TEST_CASE("a workload kernel's registers fit in a fraction of its declared slots") {
  GlobalMemory mem;
  Module mod(warptlm::embedded_ptx("matmul"), "matmul.ptx", mem);
  const KernelInfo* k = mod.find_kernel("matmul_tiled");
  REQUIRE(k != nullptr);
  // 116 declared registers (63 .f32, 37 .b32, 16 .b64) and its special-register slots; ptxas keeps at
  // most 39 32-bit registers for it, so shared storage needs no more than that many 64-bit slots.
  CHECK(k->num_regs >= 116);
  CHECK(k->stored_regs() <= 39);
}

TEST_CASE("a warp's reconvergence stack keeps its order past the entries held in the warp") {
  SimtStack s;
  const uint32_t n = 3 * SimtStack::kInline;  // past the inline entries twice over: two moves to the heap
  for (uint32_t i = 0; i < n; ++i) {
    s.push_back(SimtEntry{i, 100 + i, 1u << i, -1});
    CHECK(s.back().pc == i);
    CHECK(s.size() == i + 1);
  }
  SimtStack copy = s;
  SimtStack moved = std::move(copy);
  CHECK(copy.empty());
  uint32_t at = 0;
  for (const SimtEntry& e : s) CHECK(e.pc == at++);
  CHECK(at == n);
  for (uint32_t i = n; i-- > 0;) {
    REQUIRE_FALSE(moved.empty());
    CHECK(moved.back().pc == i);
    CHECK(moved.back().rpc == 100 + i);
    CHECK(moved.back().mask == s[i].mask);
    moved.pop_back();
  }
  CHECK(moved.empty());
  // a stack back within its inline entries after a copy of a short one
  SimtStack short_one;
  short_one.push_back(SimtEntry{7, kNoPc, 0xFu, -1});
  s = short_one;
  REQUIRE(s.size() == 1);
  CHECK(s.back().pc == 7);
  s.push_back(SimtEntry{8, 9, 0x3u, -1});
  CHECK(s[0].pc == 7);
  CHECK(s.back().rpc == 9);
}
