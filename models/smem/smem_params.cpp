#include "smem/smem_params.hpp"

#include "smem/shared_memory.hpp"

#include <string>

namespace warptlm {

namespace {
bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

const char* smem_broadcast_name(SmemBroadcast b) {
  switch (b) {
    case SmemBroadcast::Full: return "full";
    case SmemBroadcast::Limited: return "limited";
    default: return "none";
  }
}

const char* smem_mapping_name(SmemMapping m) { return m == SmemMapping::Xor ? "xor" : "linear"; }

void SharedMemoryParams::declare(ParamTable& t) {
  declare_block_impl(t, "smem.bank_arbiter", "the shared-memory bank arbiter's implementation (rtl/bank_arbiter.sv)");
  t.int_param("smem.banks", 32, 1, 64, "shared-memory banks per SM (each serves one word per cycle)");
  t.int_param("smem.bank_width", 4, 4, 16, "bytes a bank delivers per cycle: 4, 8 or 16 (a 'word')");
  t.int_param("smem.latency", 24, 1, 10000,
              "cycles from acceptance to response of a conflict-free access (each extra service cycle adds one)");
  t.enum_param("smem.broadcast", "full", {"full", "limited", "none"},
               "same-word lanes: full = all served together; limited = one multicast word per cycle; none = no broadcast");
  t.int_param("smem.warp_parts", 1, 1, 32,
              "a warp access is served in this many lane groups one after another (1 whole, 2 half-warps, 4 quarter-warps)");
  t.enum_param("smem.mapping", "linear", {"linear", "xor"},
               "address to bank: linear = word mod banks; xor = (word mod banks) xor (row mod banks)");
  t.int_param("smem.size", 49152, 0, 1 << 24, "bytes of the shared-memory array per SM");
}

// "" when the parameters describe a buildable array, else the key at fault
// and why.
static std::string check(const SharedMemoryParams& p, std::string& key) {
  key = "smem.banks";
  if (p.banks < 1 || p.banks > 64) return std::to_string(p.banks) + " is out of range [1, 64]";
  key = "smem.bank_width";
  if (!power_of_two(p.bank_width) || p.bank_width < 4 || p.bank_width > 16)
    return std::to_string(p.bank_width) + " must be 4, 8 or 16";
  key = "smem.latency";
  if (p.latency < 1) return "must be at least 1 cycle";
  key = "smem.warp_parts";
  if (!power_of_two(p.warp_parts) || p.warp_parts > 32)
    return std::to_string(p.warp_parts) + " must divide a 32-lane warp (1, 2, 4, 8, 16 or 32)";
  key = "smem.mapping";
  if (p.mapping == SmemMapping::Xor && !power_of_two(p.banks))
    return "xor needs a power-of-two smem.banks, not " + std::to_string(p.banks);
  key.clear();
  return "";
}

void SharedMemoryParams::validate() const {
  std::string key;
  const std::string why = check(*this, key);
  if (!why.empty()) throw InputError(Place{"", 0, key}, why);
}

SharedMemoryParams SharedMemoryParams::from(const Config& c) {
  SharedMemoryParams p;
  p.banks = uint32_t(c.get_int("smem.banks"));
  p.bank_width = uint32_t(c.get_int("smem.bank_width"));
  p.latency = uint32_t(c.get_int("smem.latency"));
  const std::string b = c.get_string("smem.broadcast");
  p.broadcast = b == "limited" ? SmemBroadcast::Limited : b == "none" ? SmemBroadcast::None : SmemBroadcast::Full;
  p.warp_parts = uint32_t(c.get_int("smem.warp_parts"));
  p.mapping = c.get_string("smem.mapping") == "xor" ? SmemMapping::Xor : SmemMapping::Linear;
  p.size = uint32_t(c.get_int("smem.size"));
  p.bank_arbiter_impl = block_impl(c, "smem.bank_arbiter", BankArbiterRtl::make != nullptr);
  std::string key;
  const std::string why = check(p, key);
  if (!why.empty()) throw InputError(Place{"", 0, key}, why + " (set at " + c.origin(key) + ")");
  return p;
}

}  // namespace warptlm
