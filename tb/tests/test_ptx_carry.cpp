// PTX carry chains (add.cc / addc, sub.cc / subc, mad.cc / madc), which nvcc emits for multi-word
// arithmetic and pulls in from libdevice (double-precision sin and cos): each lane's result against the
// same arithmetic done here in 128-bit integers, the carry flag per lane (a guarded add.cc leaves the
// other lanes' flags), and the scoreboard's view: addc reads the flag add.cc writes.
// Outputs are structure of arrays: output k of lane l at out[k * 32 + l].
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "isa/module.hpp"
#include "isa_fixture.hpp"
#include "ptx_checks.hpp"

using namespace warptlm;
using namespace warptlm_test;

namespace {

using u128 = unsigned __int128;

// carry_ops(out u32[16 x 32], out64 u64[2 x 32], in u32[12 x 32], in64 u64[4 x 32]).
// in: a0..a3 (a 128-bit a, low word first), b0..b3, c0, c1, then two s32 values s, t.
const char* kCarryPtx = R"PTX(.version 9.0
.target sm_75
.address_size 64

.visible .entry carry_ops(.param .u64 out, .param .u64 out64, .param .u64 in, .param .u64 in64)
{
  .reg .pred %p<2>;
  .reg .b32 %r<64>;
  .reg .b64 %rd<32>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [out64];
  ld.param.u64 %rd4, [in64];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd5, %r0, 4;
  add.s64 %rd6, %rd2, %rd5;   // &in[lane]
  add.s64 %rd7, %rd1, %rd5;   // &out[lane]
  ld.global.u32 %r1, [%rd6];
  ld.global.u32 %r2, [%rd6+128];
  ld.global.u32 %r3, [%rd6+256];
  ld.global.u32 %r4, [%rd6+384];
  ld.global.u32 %r5, [%rd6+512];
  ld.global.u32 %r6, [%rd6+640];
  ld.global.u32 %r7, [%rd6+768];
  ld.global.u32 %r8, [%rd6+896];
  ld.global.u32 %r9, [%rd6+1024];
  ld.global.u32 %r10, [%rd6+1152];
  ld.global.u32 %r11, [%rd6+1280];
  ld.global.u32 %r12, [%rd6+1408];
  // a + b, 128 bits in four words
  add.cc.u32 %r20, %r1, %r5;
  addc.cc.u32 %r21, %r2, %r6;
  addc.cc.u32 %r22, %r3, %r7;
  addc.u32 %r23, %r4, %r8;
  st.global.u32 [%rd7], %r20;
  st.global.u32 [%rd7+128], %r21;
  st.global.u32 [%rd7+256], %r22;
  st.global.u32 [%rd7+384], %r23;
  // a - b, 128 bits (the flag is a borrow)
  sub.cc.u32 %r24, %r1, %r5;
  subc.cc.u32 %r25, %r2, %r6;
  subc.cc.s32 %r26, %r3, %r7;
  subc.u32 %r27, %r4, %r8;
  st.global.u32 [%rd7+512], %r24;
  st.global.u32 [%rd7+640], %r25;
  st.global.u32 [%rd7+768], %r26;
  st.global.u32 [%rd7+896], %r27;
  // a0 * b0 + (c1:c0), 96 bits: mad.lo.cc, madc.hi.cc, then the last carry
  mad.lo.cc.u32 %r28, %r1, %r5, %r9;
  madc.hi.cc.u32 %r29, %r1, %r5, %r10;
  addc.u32 %r30, 0, 0;
  st.global.u32 [%rd7+1024], %r28;
  st.global.u32 [%rd7+1152], %r29;
  st.global.u32 [%rd7+1280], %r30;
  // the reported repro: -1 + 1 carries out, so addc of 0 and 0 gives 1
  add.cc.u32 %r31, -1, 1;
  addc.u32 %r32, 0, 0;
  st.global.u32 [%rd7+1408], %r32;
  // madc.hi.s32 with the flag set: hi(s * t) + s + 1, signed product
  add.cc.u32 %r33, -1, 1;
  madc.hi.s32 %r34, %r11, %r12, %r11;
  st.global.u32 [%rd7+1536], %r34;
  // per-lane flags: every lane carries out of a0 + b0, then the odd lanes clear their flag with a guarded
  // add.cc of 0 and 0; addc of 0 and 0 then reads each lane's own flag
  add.cc.u32 %r35, %r1, %r5;
  and.b32 %r36, %r0, 1;
  setp.ne.u32 %p1, %r36, 0;
  @%p1 add.cc.u32 %r37, 0, 0;
  addc.u32 %r38, 0, 0;
  st.global.u32 [%rd7+1664], %r38;
  // subc with no borrow out: a0 - b0 - flag, where the flag is the borrow of b0 - a0
  sub.cc.u32 %r39, %r5, %r1;
  subc.u32 %r40, %r1, %r5;
  st.global.u32 [%rd7+1792], %r40;
  // 64-bit words: x + y over two u64 words, and x - y
  mul.wide.u32 %rd8, %r0, 8;
  add.s64 %rd9, %rd4, %rd8;
  add.s64 %rd10, %rd3, %rd8;
  ld.global.u64 %rd11, [%rd9];
  ld.global.u64 %rd12, [%rd9+256];
  ld.global.u64 %rd13, [%rd9+512];
  ld.global.u64 %rd14, [%rd9+768];
  add.cc.u64 %rd15, %rd11, %rd13;
  addc.u64 %rd16, %rd12, %rd14;
  st.global.u64 [%rd10], %rd15;
  st.global.u64 [%rd10+256], %rd16;
  sub.cc.s64 %rd17, %rd11, %rd13;
  subc.cc.u64 %rd18, %rd12, %rd14;
  st.global.u64 [%rd10+512], %rd17;
  st.global.u64 [%rd10+768], %rd18;
  ret;
}
)PTX";

}  // namespace

TEST_CASE("ptx carry chains: 128-bit add and subtract, a multiply-accumulate, per-lane flags, 64-bit words",
          "[ptx][int][carry]") {
  IsaFixture fx;
  Device& d = *fx.dev;
  d.load_ptx(kCarryPtx, "carry.ptx");
  std::mt19937_64 g(2026);
  // words of a and b: random, with lanes that carry or borrow through every word
  std::vector<uint32_t> in(12 * 32);
  std::vector<uint64_t> in64(4 * 32);
  for (int l = 0; l < 32; ++l) {
    for (int k = 0; k < 12; ++k) in[k * 32 + l] = uint32_t(g());
    for (int k = 0; k < 4; ++k) in64[k * 32 + l] = g();
  }
  for (int k = 0; k < 4; ++k) {
    in[k * 32 + 0] = 0xFFFFFFFFu;  // lane 0: all ones + 1 carries through all four words
    in[(4 + k) * 32 + 0] = k == 0 ? 1u : 0u;
    in[k * 32 + 1] = 0;            // lane 1: 0 - 1 borrows through all four words
    in[(4 + k) * 32 + 1] = k == 0 ? 1u : 0u;
    in[k * 32 + 2] = 0x80000000u;  // lane 2: equal words, no carry, no borrow
    in[(4 + k) * 32 + 2] = 0x80000000u;
  }
  in64[0 * 32 + 0] = ~0ull;  // lane 0 of the 64-bit words carries and borrows
  in64[2 * 32 + 0] = 1;
  in[10 * 32 + 3] = 0x80000000u;  // signed extremes for madc.hi.s32
  in[11 * 32 + 3] = 0x80000000u;
  in[10 * 32 + 4] = 0x7FFFFFFFu;
  in[11 * 32 + 4] = 0x80000000u;

  DevPtr out = d.upload(std::vector<uint32_t>(15 * 32, 0xAAAAAAAAu));
  DevPtr out64 = d.upload(std::vector<uint64_t>(4 * 32, 0xAAAAAAAAAAAAAAAAull));
  d.launch("carry_ops", Dim3(1), Dim3(32), {arg(out), arg(out64), arg(d.upload(in)), arg(d.upload(in64))});
  const auto got = d.download<uint32_t>(out, 15 * 32);
  const auto got64 = d.download<uint64_t>(out64, 4 * 32);

  std::vector<uint32_t> want(15 * 32);
  std::vector<uint64_t> want64(4 * 32);
  for (int l = 0; l < 32; ++l) {
    auto w = [&](int k) { return uint32_t(in[k * 32 + l]); };
    const u128 a = u128(w(3)) << 96 | u128(w(2)) << 64 | u128(w(1)) << 32 | w(0);
    const u128 b = u128(w(7)) << 96 | u128(w(6)) << 64 | u128(w(5)) << 32 | w(4);
    const u128 sum = a + b, diff = a - b;
    for (int k = 0; k < 4; ++k) {
      want[k * 32 + l] = uint32_t(sum >> (32 * k));
      want[(4 + k) * 32 + l] = uint32_t(diff >> (32 * k));
    }
    const u128 mac = u128(uint64_t(w(0)) * w(4)) + (uint64_t(w(9)) << 32 | w(8));
    for (int k = 0; k < 3; ++k) want[(8 + k) * 32 + l] = uint32_t(mac >> (32 * k));
    want[11 * 32 + l] = 1;
    const int64_t s = int32_t(w(10)), t = int32_t(w(11));
    want[12 * 32 + l] = uint32_t(uint64_t(s * t) >> 32) + uint32_t(s) + 1u;
    const bool carry0 = uint64_t(w(0)) + w(4) > 0xFFFFFFFFull;
    want[13 * 32 + l] = (l & 1) ? 0u : uint32_t(carry0);
    want[14 * 32 + l] = w(0) - w(4) - uint32_t(w(4) < w(0));
    const u128 x = u128(in64[1 * 32 + l]) << 64 | in64[0 * 32 + l], y = u128(in64[3 * 32 + l]) << 64 | in64[2 * 32 + l];
    want64[0 * 32 + l] = uint64_t(x + y);
    want64[1 * 32 + l] = uint64_t((x + y) >> 64);
    want64[2 * 32 + l] = uint64_t(x - y);
    want64[3 * 32 + l] = uint64_t((x - y) >> 64);
  }
  check_soa_exact(got, want, 32,
            {"add.cc/addc word 0", "addc word 1", "addc word 2", "addc word 3", "sub.cc/subc word 0", "subc word 1",
             "subc word 2", "subc word 3", "mad.lo.cc", "madc.hi.cc", "addc of the last carry",
             "add.cc -1, 1; addc 0, 0 (expect 1)", "madc.hi.s32", "per-lane flag after a guarded add.cc",
             "subc after sub.cc"});
  check_soa_exact(got64, want64, 32, {"add.cc.u64", "addc.u64", "sub.cc.s64", "subc.cc.u64"});
  // the inputs reached the cases they are there for
  CHECK(got[3 * 32 + 0] == 0u);           // lane 0: the carry left the top word
  CHECK(got[7 * 32 + 1] == 0xFFFFFFFFu);  // lane 1: the borrow reached the top word
}

TEST_CASE("ptx carry chains: the flag is a register the scoreboard sees, written by .cc and read by addc",
          "[ptx][int][carry]") {
  IsaFixture fx;
  fx.dev->load_ptx(kCarryPtx, "carry.ptx");
  const KernelInfo* k = fx.gpu->find_kernel("carry_ops");
  REQUIRE(k != nullptr);
  const Instr* add_cc = nullptr;
  const Instr* addc = nullptr;
  for (const Instr& in : k->prog) {
    if (!add_cc && in.op == Op::Add && (in.flags & F_CC)) add_cc = &in;
    if (!addc && in.op == Op::Addc) addc = &in;
  }
  REQUIRE(add_cc != nullptr);
  REQUIRE(addc != nullptr);
  // the flag: a predicate slot past the data registers, written by add.cc and read (and written) by addc.cc
  const uint32_t flag = k->num_regs + add_cc->ops[add_cc->nops - 1].reg;
  CHECK(add_cc->ops[add_cc->nops - 1].kind == OpKind::Pred);
  CHECK(std::count(add_cc->writes, add_cc->writes + add_cc->nwrites, flag) == 1);
  CHECK(std::count(add_cc->reads, add_cc->reads + add_cc->nreads, flag) == 0);
  CHECK(std::count(addc->reads, addc->reads + addc->nreads, flag) == 1);
  CHECK(std::count(addc->writes, addc->writes + addc->nwrites, flag) == 1);  // addc.cc.u32: also writes it
  CHECK(k->num_preds == 2 + 1);  // %p0, %p1 and the flag
}

TEST_CASE("ptx carry chains: .cc on a float add and a .wide mad are refused naming the file and line",
          "[ptx][int][carry][error]") {
  for (const char* bad : {"add.cc.f32 %f1, %f1, %f1;", "mad.wide.cc.u32 %rd1, %r1, %r1, %rd1;", "mul.cc.u32 %r1, %r1, %r1;"}) {
    const std::string ptx = std::string(".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
                                        " .reg .b32 %r<2>;\n .reg .f32 %f<2>;\n .reg .b64 %rd<2>;\n ") + bad + "\n ret;\n}\n";
    IsaFixture fx;
    const std::string msg = input_error_of([&] { fx.dev->load_ptx(ptx, "bad_cc.ptx"); fx.dev->launch("k", Dim3(1), Dim3(32), {}); });
    INFO(bad << " -> " << msg);
    CHECK(msg.find("bad_cc.ptx:9") != std::string::npos);
  }
}
