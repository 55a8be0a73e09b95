// The shared-memory bank arbiter's RTL (models/smem/rtl/bank_arbiter.sv, verilated, driven by its transactor
// RtlBankArbiter) in lockstep with its model (warptlm::service_cycles, models/smem/bank_conflict.hpp): the
// same requests go to both, and after every request the cycles and every part's degree must agree. The RTL's
// per-lane service cycles, which the model does not compute, are checked against the rules they follow. The
// test-only broken variant (FAULT_BROADCAST=1: same-word lanes counted as conflicts) must diverge at the first
// request where broadcast changes the model's answer: the proof that the comparison can fail.
// Verilator's headers first, before anything includes SystemC: the models are --cc (no SystemC), and
// Verilator's headers take SystemC's time when they see it already included.
#include <verilated.h>
#include <verilated_syms.h>
#include "Vbank_arbiter.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "smem/bank_conflict.hpp"
#include "smem/rtl/rtl_bank_arbiter.hpp"
#include "smem/smem_params.hpp"

using namespace warptlm;

namespace {

constexpr unsigned kWordsPerLane = WARPTLM_RTL_SMEM_WPL;
constexpr unsigned kAddrBits = WARPTLM_RTL_SMEM_ADDR_BITS;
constexpr uint8_t kUnserved = 0xFF;  // a lane_cycle entry the transactor did not write

struct Req {
  uint64_t addr[32] = {};
  uint32_t mask = 0;
  unsigned bytes = 4;
};

std::string describe(const Req& r) {
  std::ostringstream s;
  s << "mask 0x" << std::hex << std::setw(8) << std::setfill('0') << r.mask << std::dec << ", " << r.bytes
    << "-byte lanes";
  for (uint32_t m = r.mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    s << (m == r.mask ? ": " : " ") << l << "@0x" << std::hex << r.addr[l] << std::dec;
  }
  return s.str();
}

struct Answer {
  uint32_t total = 0;
  std::vector<uint32_t> parts;
  uint8_t lane[32];
};

std::string answer_text(const Answer& a) {
  std::ostringstream s;
  s << a.total << " cycles, parts [";
  for (size_t k = 0; k < a.parts.size(); ++k) s << (k ? " " : "") << a.parts[k];
  s << "]";
  return s.str();
}

SharedMemoryParams geometry(uint32_t banks, uint32_t width, SmemMapping mapping, SmemBroadcast broadcast,
                            uint32_t parts = 1) {
  SharedMemoryParams p;
  p.banks = banks;
  p.bank_width = width;
  p.mapping = mapping;
  p.broadcast = broadcast;
  p.warp_parts = parts;
  p.validate();
  return p;
}

SharedMemoryParams gtx480_geometry() { return geometry(32, 4, SmemMapping::Linear, SmemBroadcast::Full); }

Answer model_answer(const SharedMemoryParams& p, const Req& r) {
  Answer a;
  a.parts.assign(p.warp_parts, 0);
  a.total = service_cycles(r.addr, r.mask, r.bytes, p, a.parts.data());
  std::fill(std::begin(a.lane), std::end(a.lane), kUnserved);
  return a;
}

Answer rtl_answer(RtlBankArbiter& rtl, const SharedMemoryParams& p, const Req& r) {
  Answer a;
  a.parts.assign(p.warp_parts, 0);
  std::fill(std::begin(a.lane), std::end(a.lane), kUnserved);
  a.total = rtl.service_cycles(r.addr, r.mask, r.bytes, a.parts.data(), a.lane);
  return a;
}

// The words lane l touches, as the model counts them.
std::pair<uint64_t, uint64_t> words_of(const SharedMemoryParams& p, const Req& r, unsigned l) {
  const unsigned bytes = r.bytes ? r.bytes : 4;
  return {r.addr[l] / p.bank_width, (r.addr[l] + bytes - 1) / p.bank_width};
}

// The RTL's lane cycles against the rules they follow: every active lane is served once, in a cycle of its
// part; the last cycle of a part serves someone; two one-word lanes of a part in one bank are served in
// different cycles unless they read the same word under full broadcast, and then in the same cycle.
std::string lane_check(const SharedMemoryParams& p, const Req& r, const Answer& a) {
  const uint32_t lanes = p.lanes_per_part();
  std::ostringstream s;
  for (unsigned l = 0; l < 32; ++l) {
    const bool active = (r.mask >> l) & 1;
    const uint32_t degree = a.parts[l / lanes];
    if (!active && a.lane[l] != kUnserved) s << "inactive lane " << l << " was served in cycle " << +a.lane[l];
    if (active && a.lane[l] >= degree)
      s << "lane " << l << " served in cycle " << +a.lane[l] << ", not within its part's " << degree << " cycles";
    if (!s.str().empty()) return s.str();
  }
  for (uint32_t part = 0; part < p.warp_parts; ++part) {
    bool last = false, any = false;
    for (unsigned l = part * lanes; l < (part + 1) * lanes; ++l)
      if ((r.mask >> l) & 1) any = true, last |= a.lane[l] + 1u == a.parts[part];
    if (any && !last) return "no lane of part " + std::to_string(part) + " was served in its last cycle";
    if (!any && a.parts[part] != 1) return "empty part " + std::to_string(part) + " did not take 1 cycle";
  }
  for (unsigned i = 0; i < 32; ++i)
    for (unsigned j = i + 1; j < 32; ++j) {
      if (!((r.mask >> i) & 1) || !((r.mask >> j) & 1) || i / lanes != j / lanes) continue;
      const auto wi = words_of(p, r, i), wj = words_of(p, r, j);
      if (wi.first != wi.second || wj.first != wj.second) continue;  // one-word lanes only
      if (smem_bank_of(r.addr[i], p) != smem_bank_of(r.addr[j], p)) continue;
      const bool together = wi.first == wj.first && p.broadcast == SmemBroadcast::Full;
      if (together != (a.lane[i] == a.lane[j])) {
        s << "lanes " << i << " and " << j << " (words " << wi.first << ", " << wj.first << ", one bank) served in cycles "
          << +a.lane[i] << " and " << +a.lane[j];
        return s.str();
      }
    }
  return "";
}

struct Divergence {
  size_t index;
  std::string report;
};

// Both sides, one request at a time; the first request after which the cycles or a part's degree differ
// (or, with check_lanes, the RTL's lane cycles break their rules), with a report naming it, the request and
// both answers.
std::optional<Divergence> lockstep(const SharedMemoryParams& p, bool broken, const std::vector<Req>& stream,
                                   bool check_lanes, size_t* compared = nullptr) {
  RtlBankArbiter rtl(p, broken, "test.smem.rtl");
  for (size_t i = 0; i < stream.size(); ++i) {
    const Req& r = stream[i];
    const uint64_t edges = rtl.clock_edges();
    const Answer m = model_answer(p, r), a = rtl_answer(rtl, p, r);
    if (compared) *compared = i + 1;
    std::ostringstream s;
    if (m.total != a.total || m.parts != a.parts) {
      s << "bank arbiter divergence at request #" << i << " (" << describe(r) << "): model: " << answer_text(m)
        << "; rtl: " << answer_text(a);
      return Divergence{i, s.str()};
    }
    // the RTL is clocked once to take each part and once per serve cycle
    if (rtl.clock_edges() - edges != p.warp_parts + a.total) {
      s << "bank arbiter took " << rtl.clock_edges() - edges << " clock edges at request #" << i << " ("
        << describe(r) << ") for " << answer_text(a);
      return Divergence{i, s.str()};
    }
    if (check_lanes) {
      const std::string why = lane_check(p, r, a);
      if (!why.empty()) {
        s << "bank arbiter lane cycles wrong at request #" << i << " (" << describe(r) << "): " << why << "; rtl: "
          << answer_text(a);
        return Divergence{i, s.str()};
      }
    }
  }
  return std::nullopt;
}

// Words of the array in bank 0, from the lowest up, by the model's own mapping.
std::vector<uint64_t> bank0_words(const SharedMemoryParams& p, size_t n) {
  std::vector<uint64_t> w;
  for (uint64_t x = 0; w.size() < n; ++x)
    if (smem_bank_of(x * p.bank_width, p) == 0) w.push_back(x);
  return w;
}

struct Case {
  std::string name;
  Req req;
};

// The scripted requests, built for the geometry: what each is named is checked on the model below.
std::vector<Case> scripted(const SharedMemoryParams& p) {
  const uint32_t W = p.bank_width;
  const std::vector<uint64_t> b0 = bank0_words(p, 32);
  std::vector<Case> v;
  auto add = [&](const std::string& name, uint32_t mask, unsigned bytes, auto addr_of) {
    Case c{name, {}};
    c.req.mask = mask;
    c.req.bytes = bytes;
    for (unsigned l = 0; l < 32; ++l) c.req.addr[l] = (mask >> l) & 1 ? uint64_t(addr_of(l)) : 0;
    v.push_back(c);
  };
  add("consecutive words", ~0u, 4, [&](unsigned l) { return l * W; });
  add("all lanes one bank", ~0u, 4, [&](unsigned l) { return b0[l] * W; });
  add("one word for all lanes", ~0u, 4, [&](unsigned) { return 0x40 * W; });
  add("two words in one bank", ~0u, 4, [&](unsigned l) { return b0[l % 2] * W; });
  add("transpose naive: a column of a 32 x 32 tile", ~0u, 4, [&](unsigned l) { return (l * 32 + 3) * 4; });
  add("transpose padded: a column of a 32 x 33 tile", ~0u, 4, [&](unsigned l) { return (l * 33 + 3) * 4; });
  add("a column of a 16 x 16 tile", ~0u, 4, [&](unsigned l) { return (l * 16 + 5) * 4; });
  add("8-byte lanes", ~0u, 8, [&](unsigned l) { return l * 8; });
  add("16-byte lanes", ~0u, 16, [&](unsigned l) { return l * 16; });
  add("32-byte lanes", ~0u, 32, [&](unsigned l) { return l * 32; });
  add("8-byte lanes, stride 2", ~0u, 8, [&](unsigned l) { return l * 16; });
  add("8-byte lanes, one pair of words", ~0u, 8, [&](unsigned) { return 0x100; });
  add("16-byte lanes, four rows", ~0u, 16, [&](unsigned l) { return (l % 4) * 0x200 + 0x30; });
  add("empty mask", 0u, 4, [&](unsigned l) { return l * 4; });
  add("one lane", 1u << 7, 4, [&](unsigned) { return 0x1234; });
  add("lanes 0 and 31 in one bank", 0x80000001u, 4, [&](unsigned l) { return b0[l ? 1 : 0] * W; });
  add("half the lanes, one bank", 0x0000FFFFu, 4, [&](unsigned l) { return b0[l] * W; });
  add("alternate lanes, stride 2", 0x55555555u, 4, [&](unsigned l) { return l * 8; });
  add("bytes of the same words", ~0u, 1, [&](unsigned l) { return l; });
  add("halfwords", ~0u, 2, [&](unsigned l) { return 2 * l; });
  add("misaligned 4-byte lanes (two words each)", ~0u, 4, [&](unsigned l) { return 4 * l + 2; });
  add("bytes 0 (taken as 4)", ~0u, 0, [&](unsigned l) { return l * 4 * 2; });
  add("the array's last words", ~0u, 4, [&](unsigned l) { return p.size - 4 * (l + 1); });
  return v;
}

std::vector<Req> requests(const std::vector<Case>& cases) {
  std::vector<Req> v;
  for (const Case& c : cases) v.push_back(c.req);
  return v;
}

// A random stream over the array: lane widths 1 to 32 bytes aligned as the functional model requires (a few
// misaligned), masks full, random, sparse, single or empty, addresses uniform in small and large windows,
// strided, or a few shared ones (broadcast). Fixed seed.
std::vector<Req> random_stream(const SharedMemoryParams& p, size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  static const unsigned kBytes[] = {1, 2, 4, 4, 4, 4, 8, 8, 16, 32, 0};
  static const uint32_t kStrides[] = {1, 2, 3, 4, 8, 16, 17, 31, 32, 33, 64};
  std::vector<Req> v;
  v.reserve(n);
  const uint64_t span = std::min<uint64_t>(p.size, uint64_t(1) << kAddrBits) - 64;
  for (size_t i = 0; i < n; ++i) {
    Req r;
    r.bytes = kBytes[rng() % std::size(kBytes)];
    const unsigned b = r.bytes ? r.bytes : 4;
    const unsigned align = std::min(b, 16u);
    const uint32_t mk = rng() % 20;
    r.mask = mk < 8 ? ~0u : mk < 16 ? uint32_t(rng()) : mk < 18 ? uint32_t(rng() & rng() & rng())
             : mk < 19 ? 1u << (rng() % 32) : 0u;
    const uint32_t pattern = rng() % 4;
    const uint64_t window = pattern == 0 ? 16 : pattern == 1 ? 512 : span;
    const uint64_t base = rng() % span;
    const uint32_t stride = kStrides[rng() % std::size(kStrides)];
    uint64_t few[3];
    for (uint64_t& f : few) f = rng() % span;
    const bool misaligned = b <= 16 && rng() % 20 == 0;
    for (unsigned l = 0; l < 32; ++l) {
      uint64_t a;
      if (pattern <= 1) a = base + rng() % window;                  // uniform in a window
      else if (rng() % 2) a = base + uint64_t(l) * stride * b;      // strided
      else a = few[rng() % (1 + rng() % 3)];                        // one of a few addresses
      a %= span;
      a -= a % align;
      if (misaligned) a += rng() % 4;
      if ((r.mask >> l) & 1) r.addr[l] = a;
    }
    v.push_back(r);
  }
  return v;
}

// The smem.* values of a shipped config file, read as the platform reads them.
SharedMemoryParams config_smem(const std::filesystem::path& file) {
  ParamTable table;
  SharedMemoryParams::declare(table);
  Config c(table);
  std::vector<std::string> others;  // the file's other sections
  std::ifstream in(file);
  const std::regex top("^([A-Za-z_][A-Za-z0-9_]*)\\s*:");
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, top) && m[1] != "smem") others.push_back(m[1]);
  c.merge_file(file.string(), others);
  return SharedMemoryParams::from(c);
}

std::vector<std::filesystem::path> shipped_configs() {
  std::vector<std::filesystem::path> v;
  for (auto& e : std::filesystem::directory_iterator(std::string(WARPTLM_SOURCE_DIR) + "/scenarios/configs"))
    if (e.path().extension() == ".yaml") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

// The first request whose model answer differs when broadcast is off: where FAULT_BROADCAST applies.
size_t first_broadcast_request(const SharedMemoryParams& p, const std::vector<Req>& stream) {
  SharedMemoryParams none = p;
  none.broadcast = SmemBroadcast::None;
  for (size_t i = 0; i < stream.size(); ++i) {
    const Answer a = model_answer(p, stream[i]), b = model_answer(none, stream[i]);
    if (a.parts != b.parts) return i;
  }
  return stream.size();
}

// The model's own answers to the scripted cases show each case is what it is named (no RTL involved).
void check_scripted_on_model(const SharedMemoryParams& p) {
  const uint32_t lanes = p.lanes_per_part();
  const bool full = p.broadcast == SmemBroadcast::Full;
  for (const Case& c : scripted(p)) {
    INFO(c.name << ": " << describe(c.req));
    const Answer a = model_answer(p, c.req);
    const uint32_t busiest = *std::max_element(a.parts.begin(), a.parts.end());
    if (c.name == "all lanes one bank") CHECK(busiest == lanes);
    if (c.name == "one word for all lanes") CHECK(busiest == (full ? 1u : lanes));
    if (c.name == "two words in one bank") CHECK(busiest == (full ? std::min(2u, lanes) : lanes));
    if (c.name == "empty mask") CHECK(a.total == p.warp_parts);
    if (c.name == "one lane") CHECK(a.total == p.warp_parts);
  }
}

void require_passes(const SharedMemoryParams& p, const std::vector<Req>& stream) {
  size_t compared = 0;
  const auto d = lockstep(p, false, stream, true, &compared);
  if (d) FAIL(d->report);
  CHECK(compared == stream.size());
}

template <class Wide>
void put_bits(Wide& w, unsigned pos, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = pos + i;
    if ((v >> i) & 1) w[b / 32] |= uint32_t(1) << (b % 32);
    else w[b / 32] &= ~(uint32_t(1) << (b % 32));
  }
}

}  // namespace

TEST_CASE("rtl bank arbiter: every shipped config's geometry is served, and agrees with the model") {
  const auto files = shipped_configs();
  REQUIRE(files.size() >= 6);
  uint32_t seed = 49;
  for (const auto& f : files) {
    const SharedMemoryParams p = config_smem(f);
    INFO(f.filename().string() << ": " << p.banks << " banks x " << p.bank_width << " B, "
                               << smem_mapping_name(p.mapping) << ", broadcast " << smem_broadcast_name(p.broadcast)
                               << ", " << p.warp_parts << " parts, " << p.size << " bytes");
    REQUIRE(RtlBankArbiter::unsupported(p) == "");
    check_scripted_on_model(p);
    require_passes(p, requests(scripted(p)));
    require_passes(p, random_stream(p, 2000, seed++));
  }
}

TEST_CASE("rtl bank arbiter: a random stream of 20,000 requests on gtx480's geometry agrees with the model") {
  const SharedMemoryParams p = gtx480_geometry();
  const std::vector<Req> stream = random_stream(p, 20000, 2049);
  // the stream reaches every kind of request: broadcasts that matter, wide lanes, deep conflicts, empty parts
  {
    SharedMemoryParams none = p;
    none.broadcast = SmemBroadcast::None;
    size_t broadcast = 0, wide = 0, deep = 0, empty = 0, partial = 0;
    for (const Req& r : stream) {
      const uint32_t d = service_cycles(r.addr, r.mask, r.bytes, p);
      broadcast += d != service_cycles(r.addr, r.mask, r.bytes, none);
      wide += r.bytes > p.bank_width && r.mask;
      deep += d >= 8;
      empty += r.mask == 0;
      partial += r.mask && r.mask != ~0u;
    }
    CHECK(broadcast > 2000);
    CHECK(wide > 2000);
    CHECK(deep > 500);
    CHECK(empty > 200);
    CHECK(partial > 5000);
  }
  require_passes(p, stream);
}

TEST_CASE("rtl bank arbiter: the xor mapping on 8-byte banks and no broadcast, in parts, agree with the model") {
  const SharedMemoryParams x = geometry(16, 8, SmemMapping::Xor, SmemBroadcast::Full, 4);
  const SharedMemoryParams n = geometry(32, 4, SmemMapping::Linear, SmemBroadcast::None, 2);
  for (const SharedMemoryParams& p : {x, n}) {
    INFO(p.banks << " banks x " << p.bank_width << " B " << smem_mapping_name(p.mapping) << " "
                 << smem_broadcast_name(p.broadcast) << ", " << p.warp_parts << " parts");
    REQUIRE(RtlBankArbiter::unsupported(p) == "");
    check_scripted_on_model(p);
    require_passes(p, requests(scripted(p)));
    require_passes(p, random_stream(p, 5000, 4900 + p.banks));
  }
  // the xor mapping spreads the transposed column that the linear mapping puts in one bank (the model says so)
  Case naive;
  for (const Case& c : scripted(x))
    if (c.name.rfind("transpose naive", 0) == 0) naive = c;
  REQUIRE(naive.req.mask == ~0u);
  SharedMemoryParams linear = x;
  linear.mapping = SmemMapping::Linear;
  CHECK(model_answer(x, naive.req).total < model_answer(linear, naive.req).total);
}

TEST_CASE("rtl bank arbiter: on the pins, a part of degree d is served in d cycles and answered d + 1 edges on") {
  const SharedMemoryParams p = gtx480_geometry();
  VerilatedContext ctx;
  Vbank_arbiter top{&ctx, "timing"};
  auto edge = [&] {
    top.clk = 1;
    top.eval();
    top.clk = 0;
    top.eval();
  };
  top.clk = 0;
  top.req_valid = 0;
  top.rst_n = 1;
  top.eval();
  top.rst_n = 0;
  top.eval();
  edge();
  top.rst_n = 1;
  top.eval();
  CHECK(top.req_ready == 1);
  CHECK(top.srv_valid == 0);
  CHECK(top.ans_valid == 0);
  // lanes 0 and 2 read word 0, lane 1 word 32 (bank 0 too), lane 3 word 1 (bank 1)
  Req r;
  r.mask = 0xF;
  r.addr[0] = 0;
  r.addr[1] = 32 * 4;
  r.addr[2] = 0;
  r.addr[3] = 4;
  const uint32_t d = conflict_degree(r.addr, r.mask, 4, p);
  REQUIRE(d == 2);
  auto present = [&](const Req& q) {
    top.req_mask = q.mask;
    top.req_bytes = q.bytes;
    for (unsigned l = 0; l < 32; ++l) put_bits(top.req_addr, l * kAddrBits, kAddrBits, q.addr[l]);
    top.req_valid = 1;
    top.eval();
  };
  present(r);
  CHECK(top.req_refused == 0);
  CHECK(top.srv_valid == 0);  // nothing happens before the edge
  edge();                     // taken
  top.req_valid = 0;
  top.eval();
  CHECK(top.req_ready == 0);
  CHECK(top.srv_valid == 1);
  CHECK(top.srv_cycle == 0);
  CHECK(top.srv_lanes == 0b1101);  // bank 0 delivers the lowest pending lane's word, to lanes 0 and 2; bank 1 to lane 3
  CHECK(top.ans_valid == 0);
  edge();
  CHECK(top.srv_valid == 1);
  CHECK(top.srv_cycle == 1);
  CHECK(top.srv_lanes == 0b0010);  // then word 32 to lane 1
  edge();                          // d + 1 = 3 edges after the request was presented
  CHECK(top.srv_valid == 0);
  CHECK(top.ans_valid == 1);
  CHECK(top.ans_degree == d);
  CHECK(top.req_ready == 1);
  edge();  // the answer is held
  CHECK(top.ans_valid == 1);
  CHECK(top.ans_degree == d);
  // an empty part takes one cycle, serving nobody
  Req empty;
  present(empty);
  edge();
  top.req_valid = 0;
  top.eval();
  CHECK(top.ans_valid == 0);
  CHECK(top.srv_valid == 1);
  CHECK(top.srv_lanes == 0);
  edge();
  CHECK(top.ans_valid == 1);
  CHECK(top.ans_degree == 1);
  // a refused request is never taken: bytes 0, a lane wider than the word ports, a lane past the address width
  Req wide;
  wide.mask = 1u << 5;
  wide.bytes = 4 * kWordsPerLane;
  wide.addr[5] = 2;  // misaligned: one word more than the ports
  Req past;
  past.mask = 1u << 9;
  past.addr[9] = (uint64_t(1) << kAddrBits) - 2;
  Req zero;
  zero.mask = 1;
  zero.bytes = 0;
  for (const Req& q : {wide, past, zero}) {
    INFO(describe(q));
    present(q);
    CHECK(top.req_refused == 1);
    edge();
    CHECK(top.srv_valid == 0);
    CHECK(top.req_ready == 1);
  }
  // the same lanes outside the mask are no reason to refuse
  wide.mask = past.mask = 1;
  for (const Req& q : {wide, past}) {
    present(q);
    CHECK(top.req_refused == 0);
  }
  top.req_valid = 0;
  top.rst_n = 0;
  top.eval();
  CHECK(top.ans_valid == 0);  // reset clears the answer
  top.final();
}

TEST_CASE("rtl bank arbiter: geometries and requests the RTL cannot serve are refused, naming why") {
  using M = SmemMapping;
  using B = SmemBroadcast;
  CHECK(RtlBankArbiter::unsupported(gtx480_geometry()) == "");
  CHECK(RtlBankArbiter::unsupported(gtx480_geometry(), true) == "");
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(32, 4, M::Linear, B::Limited)),
             Catch::Contains("smem.broadcast limited is not implemented"));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(12, 4, M::Linear, B::Full)), Catch::StartsWith("smem.banks 12 "));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(16, 4, M::Xor, B::Full)),
             Catch::StartsWith("smem.bank_width 4 with smem.banks 16 "));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(32, 8, M::Linear, B::Full)),
             Catch::StartsWith("smem.bank_width 8 with smem.banks 32 "));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(32, 4, M::Xor, B::Full)), Catch::StartsWith("smem.mapping xor "));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(8, 4, M::Linear, B::None)), Catch::StartsWith("smem.broadcast none "));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(8, 4, M::Linear, B::Full), true),
             Catch::StartsWith("smem.banks 8 has no verilated broken-broadcast bank arbiter"));
  CHECK_THAT(RtlBankArbiter::unsupported(geometry(12, 4, M::Linear, B::Full)), Catch::Contains("32 x 4 B linear full"));
  CHECK_THROWS_WITH(RtlBankArbiter(geometry(12, 4, M::Linear, B::Full), false, "sm3.smem.rtl"),
                    Catch::StartsWith("sm3.smem.rtl: smem.banks 12 "));
  // requests: checked before anything reaches the pins
  RtlBankArbiter rtl(gtx480_geometry(), false, "sm0.smem.rtl");
  Req far;
  far.mask = 1u << 3;
  far.addr[3] = uint64_t(1) << kAddrBits;  // a window beyond the array's offsets
  CHECK_THAT(rtl.refuses(far.addr, far.mask, 4), Catch::Contains("lane 3 reads bytes 0x1000000 .. 0x1000003, past"));
  CHECK_THROWS_AS(rtl.service_cycles(far.addr, far.mask, 4, nullptr), std::invalid_argument);
  Req wide;
  wide.mask = 1u << 6;
  wide.addr[6] = 2;  // 32 bytes from the middle of a word: 9 words
  CHECK_THAT(rtl.refuses(wide.addr, wide.mask, 32),
             Catch::Contains("lane 6 touches 9 bank words, more than the RTL's " + std::to_string(kWordsPerLane)));
  CHECK_THROWS_WITH(rtl.service_cycles(wide.addr, wide.mask, 32, nullptr), Catch::StartsWith("sm0.smem.rtl: lane 6"));
  wide.addr[6] = 16;  // aligned as the functional model requires: 8 words, served
  CHECK(rtl.refuses(wide.addr, wide.mask, 32) == "");
  CHECK(rtl.service_cycles(wide.addr, wide.mask, 32, nullptr) == service_cycles(wide.addr, wide.mask, 32, gtx480_geometry()));
  CHECK(rtl.refuses(far.addr, 0, 4) == "");  // lanes outside the mask are not read
}

TEST_CASE("rtl bank arbiter: every RTL signal is reachable under the transactor's hierarchical name") {
  RtlBankArbiter rtl(gtx480_geometry(), false, "sm0.smem.rtl");
  const VerilatedScopeNameMap* scopes = rtl.context().scopeNameMap();
  REQUIRE(scopes);
  std::vector<std::string> found;
  for (const auto& s : *scopes)
    if (s.second->varFind("pend_q") && s.second->varFind("first_q") && s.second->varFind("srv_lanes"))
      found.push_back(s.first);
  INFO("scopes with the registers");
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("sm0.smem.rtl", 0) == 0);
}

TEST_CASE("rtl bank arbiter: the broken broadcast variant diverges where its rule applies, and the report says so") {
  const SharedMemoryParams p = gtx480_geometry();
  SharedMemoryParams none = p;
  none.broadcast = SmemBroadcast::None;
  auto check_report = [&](const std::vector<Req>& stream) {
    const size_t first = first_broadcast_request(p, stream);
    REQUIRE(first < stream.size());
    const auto d = lockstep(p, true, stream, false);
    REQUIRE(d);
    CHECK(d->index == first);
    INFO(d->report);
    const Req& r = stream[first];
    CHECK(d->report.find("bank arbiter divergence at request #" + std::to_string(first) + " (" + describe(r) + "): ") ==
          0);
    // the model's answer, and the RTL's: the answer without broadcast
    CHECK(d->report.find("model: " + answer_text(model_answer(p, r)) + "; rtl: " +
                         answer_text(model_answer(none, r))) != std::string::npos);
    // the good RTL passes the same requests (the divergence is the fault's, not the comparison's)
    const std::vector<Req> upto(stream.begin(), stream.begin() + std::min(stream.size(), first + 200));
    CHECK_FALSE(lockstep(p, false, upto, true));
    return first;
  };
  // scripted: the first request where same-word lanes change the degree
  const std::vector<Case> cases = scripted(p);
  const size_t first = check_report(requests(cases));
  CHECK(cases[first].name == "one word for all lanes");
  // random: wherever it falls, found on the model alone
  check_report(random_stream(p, 20000, 2049));
}
