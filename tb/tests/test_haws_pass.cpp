// The HAWS compiler pass (models/isa/passes/haws_hints.*, spec 004 sec. 3.2-3.6) on the thesis's Fig. 5.1
// loop, written in PTX instruction for instruction (I1 .. I21 are the figure's numbers), and on small
// kernels for each selection rule. Expectations are derived by hand from the rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "isa/passes/haws_hints.hpp"

using namespace warptlm;
using namespace warptlm::passes;

namespace {

const char* kHeader = ".version 9.0\n.target sm_75\n.address_size 64\n";

// Fig. 5.1: the inner loop of a matrix multiply. %r0 and %r2 are the bases of A and B, %r4 = n, %r5 the
// row, %r6 the column, %r7 = k, %r8 the sum. Line of instruction Ik = kFig51Line + k.
const int kFig51Line = 10;
const char* kFig51 = R"(
.visible .entry fig51(.param .u32 out)
{
 .reg .pred %p<2>;
 .reg .b32 %r<12>;
 mov.u32 %r7, 0;
 mov.u32 %r8, 0;
LOOP: setp.ge.s32 %p1, %r7, %r4;
 @%p1 bra DONE;
 mul.lo.s32 %r9, %r5, %r4;
 add.s32 %r9, %r9, %r7;
 shl.b32 %r9, %r9, 2;
 mul.lo.s32 %r9, %r5, %r4;
 add.s32 %r9, %r9, %r7;
 shl.b32 %r9, %r9, 2;
 add.s32 %r9, %r0, %r9;
 ld.global.f32 %r10, [%r9];
 mul.lo.s32 %r9, %r7, %r4;
 add.s32 %r9, %r9, %r6;
 shl.b32 %r9, %r9, 2;
 add.s32 %r9, %r2, %r9;
 mov.b32 %r9, %r9;
 ld.global.f32 %r9, [%r9];
 mul.f32 %r9, %r10, %r9;
 add.f32 %r8, %r8, %r9;
 add.s32 %r7, %r7, 1;
 bra LOOP;
DONE: mul.lo.s32 %r0, %r5, %r4;
 st.global.u32 [%r0], %r8;
 ret;
}
)";

int line_of(int k) { return kFig51Line + k; }
// The figure's instruction number of a hint.
int fig(const HawsHint& h) { return int(h.line) - kFig51Line; }

HawsKernelReport one(const std::string& body) {
  auto r = haws_hints(std::string(kHeader) + body, "test.ptx");
  REQUIRE(r.size() == 1);
  return r[0];
}

// The hints along one path from the first: following `next`, or `taken` at conditional branches listed in `take`.
std::vector<const HawsHint*> path(const HawsStallPoint& s, const std::set<int>& take = {}) {
  std::vector<const HawsHint*> out;
  int32_t i = s.hints.empty() ? -1 : 0;
  while (i >= 0) {
    const HawsHint& h = s.hints[size_t(i)];
    out.push_back(&h);
    i = (h.conditional && take.count(fig(h))) ? h.taken : h.next;
  }
  return out;
}

}  // namespace

TEST_CASE("haws pass: the Fig. 5.1 loop has one stall point, I17, waiting on the loads I10 and I16") {
  const HawsKernelReport r = one(kFig51);
  INFO(r.text());
  REQUIRE(r.stall_points.size() == 1);
  const HawsStallPoint& s = r.stall_points[0];
  CHECK(s.line == uint32_t(line_of(17)));
  // %r9 (I16) and %r10 (I10) are outstanding at I17 (slots 9 and 10)
  CHECK(s.pending == std::vector<uint32_t>{9, 10});
}

TEST_CASE("haws pass: on Fig. 5.1 the chain runs I19, I20, I1, I2, then I3 to I16; I18 is skipped") {
  const HawsKernelReport r = one(kFig51);
  INFO(r.text());
  REQUIRE(r.stall_points.size() == 1);
  const auto p = path(r.stall_points[0]);
  std::vector<int> got;
  for (auto* h : p) got.push_back(fig(*h));
  // I18 reads %r9, the stall point's result: skipped. I19 and the loop's branch back are independent; I1
  // and I2 too (%r7 comes from I19 in hint mode). From I3 on, each instruction's %r9 is renamed, so I10 to
  // I16 no longer wait on the outstanding loads (the thesis lists I19, I20, I1-I9 by register name).
  CHECK(got == std::vector<int>{19, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  // offsets from the stall point along the path: I18 is 1, I19 2, I20 3, then I1 4 ... I16 19
  CHECK(p[0]->offset == 2);
  CHECK(p[1]->offset == 3);
  CHECK(p[2]->offset == 4);
  CHECK(p.back()->offset == 19);
}

TEST_CASE("haws pass: on Fig. 5.1 I3 to I16 are renamed and I19, I1 are not; branches take format 2") {
  const HawsKernelReport r = one(kFig51);
  INFO(r.text());
  std::map<int, const HawsHint*> by;
  for (auto* h : path(r.stall_points[0])) by[fig(*h)] = h;
  CHECK_FALSE(by[19]->renamed);  // %r7: no skipped instruction reads or writes it
  CHECK_FALSE(by[1]->renamed);   // %p1: neither
  CHECK(by[20]->branch);
  CHECK_FALSE(by[20]->conditional);  // format 2, type 1 (direct)
  CHECK(by[2]->branch);
  CHECK(by[2]->conditional);         // format 2, type 0 (two targets)
  for (int k = 3; k <= 16; ++k) {
    INFO("I" << k);
    CHECK(by[k]->renamed);  // %r9 (or I10's %r10) is read by the skipped I17 and I18 and filled by an outstanding load
  }
  CHECK(by[10]->dst == 10);
  CHECK(by[3]->dst == 9);
  // I4 reads I3's renamed %r9: the spare I3 writes
  REQUIRE(by[4]->sources.size() == 1);
  CHECK(by[4]->sources[0].first == 9);
  CHECK(by[4]->sources[0].second == by[3]->renamed_to);
  // I10 loads through I9's renamed address
  REQUIRE(by[10]->sources.size() == 1);
  CHECK(by[10]->sources[0].second == by[9]->renamed_to);
  // spares: 8 data registers (an episode runs at most 8 hints), no predicate renamed
  CHECK(r.spare_regs == 8);
  CHECK(r.spare_preds == 0);
  // the entries an episode runs (the RCU's 8): I19, I20, I1, I2, I3, I4, I5, I6, each renamed one a different spare
  std::set<uint32_t> spares;
  for (int k : {3, 4, 5, 6}) spares.insert(by[k]->renamed_to);
  CHECK(spares.size() == 4);
}

TEST_CASE("haws pass: on Fig. 5.1 the loop's exit path is walked on its own from I2") {
  const HawsKernelReport r = one(kFig51);
  INFO(r.text());
  const auto p = path(r.stall_points[0], {2});
  std::vector<int> got;
  for (auto* h : p) got.push_back(fig(*h));
  // taken: I21 (independent; %r0 is read by no skipped instruction on this path), then the store ends it
  CHECK(got == std::vector<int>{19, 20, 1, 2, 21});
  CHECK_FALSE(p.back()->renamed);
}

TEST_CASE("haws pass: no barrier, no store and no load after a barrier or a skipped store is a hint") {
  const HawsKernelReport r = one(R"(
.visible .entry rules(.param .u64 a)
{
 .reg .b32 %r<12>;
 .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [a];
 ld.global.u32 %r1, [%rd1];
 add.s32 %r2, %r1, 1;
 add.s32 %r3, %r5, 1;
 st.global.u32 [%rd1+4], %r2;
 ld.global.u32 %r4, [%rd1+8];
 bar.sync 0;
 add.s32 %r6, %r5, 2;
 ld.global.u32 %r7, [%rd1+12];
 add.s32 %r8, %r1, %r7;
 ret;
}
)");
  INFO(r.text());
  REQUIRE(r.stall_points.size() >= 1);
  const HawsStallPoint& s = r.stall_points[0];
  CHECK(s.line == 11);  // add.s32 %r2, %r1, 1 waits on the load
  std::vector<uint32_t> lines;
  for (auto* h : path(s)) lines.push_back(h->line);
  // line 12 (an independent add) is a hint; 13 (a store) never; 14 (a load after the skipped store) not;
  // 15 (a barrier) never; 16 (an independent add after the barrier) is; 17 (a load after the barrier) not;
  // 18 reads 17's %r7, a load's: the next stall point ends the chain.
  CHECK(lines == std::vector<uint32_t>{12, 16});
}

TEST_CASE("haws pass: a branch on an unavailable condition ends the chain") {
  const HawsKernelReport r = one(R"(
.visible .entry br(.param .u64 a)
{
 .reg .pred %p<2>;
 .reg .b32 %r<8>;
 .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [a];
 ld.global.u32 %r1, [%rd1];
 add.s32 %r2, %r1, 1;
 setp.eq.s32 %p1, %r2, 0;
 add.s32 %r3, %r5, 1;
 @%p1 bra SKIP;
 add.s32 %r4, %r5, 2;
SKIP:
 ret;
}
)");
  INFO(r.text());
  REQUIRE(r.stall_points.size() == 1);
  std::vector<uint32_t> lines;
  for (auto* h : path(r.stall_points[0])) lines.push_back(h->line);
  CHECK(lines == std::vector<uint32_t>{14});  // the add before the dependent branch; nothing after it
}

TEST_CASE("haws pass: an instruction whose two destinations would both need renaming is skipped") {
  // setp with two predicate results, both read by the skipped stall point.
  const HawsKernelReport r = one(R"(
.visible .entry two(.param .u64 a)
{
 .reg .pred %p<4>;
 .reg .b32 %r<8>;
 .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [a];
 ld.global.u32 %r1, [%rd1];
 @%p1 add.s32 %r2, %r1, 1;
 @%p2 add.s32 %r2, %r2, 1;
 setp.eq.s32 %p1|%p2, %r5, 0;
 add.s32 %r3, %r5, 1;
 ret;
}
)");
  INFO(r.text());
  REQUIRE(!r.stall_points.empty());
  std::vector<uint32_t> lines;
  for (auto* h : path(r.stall_points[0])) lines.push_back(h->line);
  CHECK(std::find(lines.begin(), lines.end(), 14u) == lines.end());  // the setp
  CHECK(std::find(lines.begin(), lines.end(), 15u) != lines.end());  // the add after it
}
