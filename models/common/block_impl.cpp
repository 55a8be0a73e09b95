#include "common/block_impl.hpp"

#include <atomic>

#include "common/config.hpp"
#include "common/errors.hpp"
#include "common/params.hpp"

namespace warptlm {

const char* block_impl_name(BlockImpl i) {
  switch (i) {
    case BlockImpl::Model: return "model";
    case BlockImpl::Rtl: return "rtl";
    case BlockImpl::Lockstep: return "lockstep";
  }
  return "?";
}

void declare_block_impl(ParamTable& t, const std::string& block, const std::string& what) {
  t.enum_param(block + ".impl", "model", {"model", "rtl", "lockstep"},
               what + ": model, its verilated RTL (rtl), or both compared on every request (lockstep; docs/rtl.md)");
}

namespace {
std::atomic<uint64_t> rtl_chosen{0};
}  // namespace

uint64_t rtl_impls_chosen() { return rtl_chosen.load(); }

BlockImpl block_impl(const Config& c, const std::string& block, bool rtl_built) {
  const std::string key = block + ".impl";
  const std::string v = c.get_string(key);
  const BlockImpl i = v == "rtl" ? BlockImpl::Rtl : v == "lockstep" ? BlockImpl::Lockstep : BlockImpl::Model;
  if (i != BlockImpl::Model) rtl_chosen.fetch_add(1);
  if (i != BlockImpl::Model && !rtl_built)
    throw InputError(Place{"", 0, key},
                     "'" + v + "' needs the block's RTL, and this WarpTLM was built without RTL (set at " + c.origin(key) +
                         "): install Verilator (scripts/setup, or apt-get install verilator) and configure with "
                         "-DWARPTLM_RTL=ON (docs/rtl.md)");
  return i;
}

void lockstep_divergence(const std::string& block, uint32_t sm, uint64_t cycle, const std::string& request,
                         const std::string& model, const std::string& rtl) {
  throw RunError("RTL lockstep: " + block + " of SM " + std::to_string(sm) + " diverges at cycle " + std::to_string(cycle) +
                 ": " + request + "; model: " + model + "; rtl: " + rtl);
}

}  // namespace warptlm
