// Verilator's headers (and the verilated models, bank_arbiter_variants.hpp) come before anything that could
// include SystemC: the models are --cc, and Verilator's headers take SystemC's time when they see it.
#include "common/rtl/rtl_context.hpp"
#include "bank_arbiter_variants.hpp"

#include "smem/rtl/rtl_bank_arbiter.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "common/clock.hpp"
#include "common/errors.hpp"
#include "common/input_register.hpp"
#include "common/rtl/rtl_signals.hpp"
#include "smem/shared_memory.hpp"

namespace warptlm {

namespace {

constexpr unsigned kLanes = WARPTLM_RTL_SMEM_LANES;
constexpr unsigned kWordsPerLane = WARPTLM_RTL_SMEM_WPL;
constexpr unsigned kAddrBits = WARPTLM_RTL_SMEM_ADDR_BITS;
constexpr unsigned kPorts = kLanes * kWordsPerLane;
constexpr uint64_t kAddrLimit = uint64_t(1) << kAddrBits;  // bytes the RTL's addresses reach
static_assert(kAddrBits <= 32, "put_bits writes an address field into at most two 32-bit words");
constexpr unsigned kMaxBytes = 63;                          // req_bytes is 6 bits wide

// One verilated model behind one interface: the geometry is fixed at verilation, the pins are the same.
struct Engine {
  virtual ~Engine() = default;
  // One part: the lanes in `mask` (their warp lane numbers), served from the request to the answer.
  virtual uint32_t serve(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint8_t* lane_cycle) = 0;
  virtual VerilatedContext& context() = 0;
  virtual uint64_t edges() const = 0;
};

// `width` (at most 32) bits of `v` into a wide Verilator port from bit `pos` on: at most two 32-bit words.
template <class Wide>
void put_bits(Wide& w, unsigned pos, unsigned width, uint64_t v) {
  const uint64_t field = (width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1) << (pos % 32);
  const uint64_t bits = (v << (pos % 32)) & field;
  const unsigned word = pos / 32;
  w[word] = uint32_t((w[word] & ~uint32_t(field)) | uint32_t(bits));
  if (field >> 32) w[word + 1] = uint32_t((w[word + 1] & ~uint32_t(field >> 32)) | uint32_t(bits >> 32));
}

template <class V>
class Model final : public Engine {
 public:
  explicit Model(const std::string& name) : rtl_(name) {
    top_.clk = 0;
    top_.req_valid = 0;
    top_.rst_n = 1;  // a falling edge of rst_n: the reset is asynchronous
    top_.eval();
    top_.rst_n = 0;
    top_.eval();
    edge();  // held through an edge too
    top_.rst_n = 1;
    top_.eval();
  }
  ~Model() override { top_.final(); }

  uint32_t serve(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint8_t* lane_cycle) override {
    // the request on the pins, taken at the next rising edge
    top_.req_mask = mask;
    top_.req_bytes = uint8_t(bytes);
    for (unsigned l = 0; l < kLanes; ++l)
      put_bits(top_.req_addr, l * kAddrBits, kAddrBits, (mask >> l) & 1 ? lane_addr[l] : 0);
    top_.req_valid = 1;
    top_.eval();
    if (!top_.req_ready || top_.req_refused)
      throw std::logic_error(std::string("RTL bank arbiter ") + (top_.req_ready ? "refused" : "was not ready for") +
                             " a request the transactor had checked");
    top_.clk = 1;
    top_.eval();
    ++edges_;
    top_.req_valid = 0;
    top_.clk = 0;
    top_.eval();
    // one serve cycle per clock: the lanes served in it, until the answer
    for (unsigned n = 0; top_.srv_valid; ++n) {
      if (n > kPorts) throw std::logic_error("RTL bank arbiter still serving after " + std::to_string(n) + " cycles");
      if (lane_cycle)
        for (uint32_t s = top_.srv_lanes; s; s &= s - 1) lane_cycle[__builtin_ctz(s)] = uint8_t(top_.srv_cycle);
      edge();
    }
    if (!top_.ans_valid) throw std::logic_error("RTL bank arbiter stopped serving without an answer");
    return top_.ans_degree;
  }
  VerilatedContext& context() override { return rtl_.ctx; }
  uint64_t edges() const override { return edges_; }

 private:
  void edge() {
    top_.clk = 1;
    top_.eval();
    ++edges_;
    top_.clk = 0;
    top_.eval();
  }
  RtlModel<V> rtl_;
  V& top_ = rtl_.top;
  uint64_t edges_ = 0;
};

struct Variant {
  const char* prefix;
  uint32_t banks, bank_width;
  SmemMapping mapping;
  SmemBroadcast broadcast;
  bool fault;
  std::unique_ptr<Engine> (*make)(const std::string& name);
};

template <class V>
std::unique_ptr<Engine> make_model(const std::string& name) {
  return std::make_unique<Model<V>>(name);
}

#define WARPTLM_RTL_VARIANT(prefix, banks, bytes, mapping, broadcast, fault)                                 \
  Variant{#prefix, banks, bytes, (mapping) ? SmemMapping::Xor : SmemMapping::Linear,                        \
          (broadcast) ? SmemBroadcast::Full : SmemBroadcast::None, (fault) != 0, &make_model<prefix>},
const Variant kVariants[] = {WARPTLM_RTL_BANK_ARBITERS(WARPTLM_RTL_VARIANT)};
#undef WARPTLM_RTL_VARIANT

std::string geometry(const Variant& v) {
  std::ostringstream s;
  s << v.banks << " x " << v.bank_width << " B " << smem_mapping_name(v.mapping) << " "
    << smem_broadcast_name(v.broadcast);
  return s.str();
}

const Variant* find(const SharedMemoryParams& p, bool broken) {
  for (const Variant& v : kVariants)
    if (v.fault == broken && v.banks == p.banks && v.bank_width == p.bank_width && v.mapping == p.mapping &&
        v.broadcast == p.broadcast)
      return &v;
  return nullptr;
}

}  // namespace

struct RtlBankArbiter::Impl {
  SharedMemoryParams p;
  std::string name;
  std::unique_ptr<Engine> engine;
};

std::string RtlBankArbiter::unsupported(const SharedMemoryParams& p, bool broken_variant) {
  if (p.broadcast == SmemBroadcast::Limited)
    return "smem.broadcast limited is not implemented by the RTL bank arbiter (it serves full and none)";
  if (p.lanes_per_part() > kLanes)
    return "smem.warp_parts " + std::to_string(p.warp_parts) + " gives parts wider than the RTL's " +
           std::to_string(kLanes) + " lanes";
  if (p.size > kAddrLimit)
    return "smem.size " + std::to_string(p.size) + " reaches past the RTL bank arbiter's " +
           std::to_string(kAddrBits) + "-bit byte addresses";
  if (find(p, broken_variant)) return "";
  // the first parameter no verilated model of this kind matches, with the models there are
  std::string built;
  bool banks = false, width = false, mapping = false;
  for (const Variant& v : kVariants) {
    if (v.fault != broken_variant) continue;
    built += (built.empty() ? "" : ", ") + geometry(v);
    banks |= v.banks == p.banks;
    width |= v.banks == p.banks && v.bank_width == p.bank_width;
    mapping |= v.banks == p.banks && v.bank_width == p.bank_width && v.mapping == p.mapping;
  }
  std::string what = !banks ? "smem.banks " + std::to_string(p.banks)
                     : !width ? "smem.bank_width " + std::to_string(p.bank_width) + " with smem.banks " +
                                    std::to_string(p.banks)
                     : !mapping ? std::string("smem.mapping ") + smem_mapping_name(p.mapping) + " on this geometry"
                                : std::string("smem.broadcast ") + smem_broadcast_name(p.broadcast) +
                                      " on this geometry";
  return what + " has no verilated " + (broken_variant ? "broken-broadcast " : "") +
         "bank arbiter in this build (built: " + built + ")";
}

RtlBankArbiter::RtlBankArbiter(const SharedMemoryParams& p, bool broken_variant, const std::string& name)
    : impl_(std::make_unique<Impl>()) {
  const std::string why = unsupported(p, broken_variant);
  if (!why.empty()) throw std::invalid_argument(name + ": " + why);
  impl_->p = p;
  impl_->name = name;
  impl_->engine = find(p, broken_variant)->make(name);
}

RtlBankArbiter::~RtlBankArbiter() = default;

std::string RtlBankArbiter::refuses(const uint64_t* lane_addr, uint32_t mask, unsigned bytes) const {
  if (bytes == 0) bytes = 4;
  if (bytes > kMaxBytes)
    return std::to_string(bytes) + "-byte lanes are wider than the RTL bank arbiter's " + std::to_string(kMaxBytes) +
           " bytes";
  const uint32_t width = impl_->p.bank_width;
  for (uint32_t m = mask; m; m &= m - 1) {
    const unsigned l = unsigned(__builtin_ctz(m));
    const uint64_t a = lane_addr[l];
    if (a >= kAddrLimit || kAddrLimit - a < bytes) {
      std::ostringstream s;
      s << "lane " << l << " reads bytes 0x" << std::hex << a << " .. 0x" << a + bytes - 1 << std::dec
        << ", past the RTL bank arbiter's " << kAddrBits << "-bit byte addresses";
      return s.str();
    }
    const uint64_t words = (a + bytes - 1) / width - a / width + 1;
    if (words > kWordsPerLane)
      return "lane " + std::to_string(l) + " touches " + std::to_string(words) + " bank words, more than the RTL's " +
             std::to_string(kWordsPerLane) + " word ports per lane";
  }
  return "";
}

uint32_t RtlBankArbiter::service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes,
                                        uint32_t* part_degrees, uint8_t* lane_cycle) {
  const std::string why = refuses(lane_addr, mask, bytes);
  if (!why.empty()) throw std::invalid_argument(impl_->name + ": " + why);
  if (bytes == 0) bytes = 4;
  const SharedMemoryParams& p = impl_->p;
  const uint32_t lanes = p.lanes_per_part();
  const uint32_t part_mask = lanes >= 32 ? 0xFFFFFFFFu : ((1u << lanes) - 1);
  uint32_t total = 0;
  for (uint32_t part = 0; part < p.warp_parts; ++part) {
    const uint32_t d = impl_->engine->serve(lane_addr, mask & (part_mask << (part * lanes)), bytes, lane_cycle);
    if (part_degrees) part_degrees[part] = d;
    total += d;
  }
  return total;
}

VerilatedContext& RtlBankArbiter::context() { return impl_->engine->context(); }
uint64_t RtlBankArbiter::clock_edges() const { return impl_->engine->edges(); }
const std::string& RtlBankArbiter::name() const { return impl_->name; }

// ---------------------------------------------------------------- in the loop (smem.bank_arbiter.impl)

namespace {

// The RTL in SharedMemory's place for the service cycles of each warp access (rtl), or beside the model
// (lockstep: the model's answer is used and the RTL's must equal it, total and per part).
class BankArbiterInLoop : public BankArbiterRtl {
 public:
  BankArbiterInLoop(BlockImpl impl, const SharedMemoryParams& p, const std::string& instance, const sc_core::sc_time& period)
      : impl_(impl), p_(p), instance_(instance), period_(period),
        rtl_(p, test_fault("rtl_bank_arbiter_broadcast"), instance + ".rtl"),
        signals_(rtl_.context(), instance + ".rtl", instance + ".rtl"), rtl_parts_(p.warp_parts) {}

  uint32_t service_cycles(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint32_t* part_degrees) override {
    try {
      return serve(lane_addr, mask, bytes, part_degrees);
    } catch (const std::invalid_argument& why) {  // an access the RTL cannot take (RtlBankArbiter::refuses)
      throw RunError(instance_ + ": smem.bank_arbiter.impl " + block_impl_name(impl_) + ": an access the RTL cannot take: " +
                     why.what());
    }
  }

 private:
  uint32_t serve(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, uint32_t* part_degrees) {
    if (impl_ == BlockImpl::Rtl) {
      const uint32_t r = rtl_.service_cycles(lane_addr, mask, bytes, part_degrees);
      if (signals_.on()) signals_.sample();
      return r;
    }
    const uint32_t m = warptlm::service_cycles(lane_addr, mask, bytes, p_, part_degrees);
    const uint32_t r = rtl_.service_cycles(lane_addr, mask, bytes, rtl_parts_.data());
    if (signals_.on()) signals_.sample();
    if (r != m || !std::equal(rtl_parts_.begin(), rtl_parts_.end(), part_degrees)) diverged(lane_addr, mask, bytes, part_degrees);
    return m;
  }

  [[noreturn]] void diverged(const uint64_t* lane_addr, uint32_t mask, unsigned bytes, const uint32_t* model_parts) {
    auto degrees = [&](const uint32_t* d) {
      std::ostringstream s;
      uint32_t total = 0;
      for (uint32_t k = 0; k < p_.warp_parts; ++k) total += d[k];
      s << total << " cycles";
      if (p_.warp_parts > 1) {
        s << " (parts";
        for (uint32_t k = 0; k < p_.warp_parts; ++k) s << " " << d[k];
        s << ")";
      }
      return s.str();
    };
    std::ostringstream req;
    req << instance_ << " access of " << (bytes ? bytes : 4) << "-byte lanes, lane mask 0x" << std::hex << mask << std::dec
        << ", byte offsets [";
    bool first = true;
    for (uint32_t l = 0; l < 32; ++l) {
      if (!(mask >> l & 1)) continue;
      req << (first ? "" : " ") << l << ":" << lane_addr[l];
      first = false;
    }
    req << "]";
    lockstep_divergence("smem.bank_arbiter", sm_of(instance_), cycle_now(period_), req.str(), degrees(model_parts),
                        degrees(rtl_parts_.data()));
  }
  static uint32_t sm_of(const std::string& instance) {
    return instance.compare(0, 2, "sm") == 0 ? uint32_t(std::strtoul(instance.c_str() + 2, nullptr, 10)) : 0;
  }

  BlockImpl impl_;
  SharedMemoryParams p_;
  std::string instance_;
  sc_core::sc_time period_;
  RtlBankArbiter rtl_;
  RtlSignals signals_;
  std::vector<uint32_t> rtl_parts_;
};

std::unique_ptr<BankArbiterRtl> make_in_loop(BlockImpl impl, const SharedMemoryParams& p, const std::string& instance,
                                            const sc_core::sc_time& period) {
  const bool broken = test_fault("rtl_bank_arbiter_broadcast");
  const std::string why = RtlBankArbiter::unsupported(p, broken);
  if (!why.empty()) throw InputError(Place{"", 0, "smem.bank_arbiter.impl"}, why);
  return std::make_unique<BankArbiterInLoop>(impl, p, instance, period);
}

}  // namespace

// A factory set before (a platform's own RTL, docs/rtl.md) stays.
void register_rtl_bank_arbiter() {
  if (!BankArbiterRtl::make) BankArbiterRtl::make = &make_in_loop;
}

}  // namespace warptlm
