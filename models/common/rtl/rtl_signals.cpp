// Verilator's headers before SystemC's (the models are --cc: Verilator keeps its own time).
#include <verilated.h>
#include <verilated_syms.h>

#include "common/rtl/rtl_signals.hpp"

#include <algorithm>
#include <cstring>

namespace warptlm {

RtlSignals::RtlSignals(VerilatedContext& ctx, const std::string& model_name, const std::string& block) {
  if (!Tracer::active()) return;
  const VerilatedScopeNameMap* scopes = ctx.scopeNameMap();
  if (!scopes) return;
  const std::string prefix = model_name + ".";
  for (const auto& sc : *scopes) {
    const std::string scope = sc.first;
    if (scope.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string inner = scope.substr(prefix.size());
    const bool ports = inner == "TOP";
    const VerilatedVarNameMap* vars = sc.second->varsp();
    if (!vars) continue;
    for (const auto& v : *vars) {
      const VerilatedVar& var = v.second;
      if (var.isParam() || var.udims() > 0 || !var.datap()) continue;
      const int bits = var.dims() == 0 ? 1 : var.packed().elements();
      if (bits <= 0) continue;
      const std::string name = block + "." + (ports ? std::string() : inner + ".") + v.first;
      ProbeView view;
      view.hex = bits > 8;
      if (ports) view.group = "RTL " + block + " ports";
      unsigned bytes = 0;
      switch (var.vltype()) {
        case VLVT_UINT8: bytes = 1; break;
        case VLVT_UINT16: bytes = 2; break;
        case VLVT_UINT32: bytes = 4; break;
        case VLVT_UINT64: bytes = 8; break;
        case VLVT_WDATA: bytes = 0; break;
        default: continue;
      }
      if (bytes) {
        traced_.push_back(Traced{var.datap(), bytes, 0, unsigned(bits), {}});
        traced_.back().probe.declare(name, unsigned(bits), view);
        if (!traced_.back().probe.on()) traced_.pop_back();
        continue;
      }
      for (int lo = 0; lo < bits; lo += 64) {
        const unsigned w = unsigned(std::min(64, bits - lo));
        traced_.push_back(Traced{var.datap(), 0, unsigned(lo / 32), w, {}});
        traced_.back().probe.declare(name + "_" + std::to_string(lo + int(w) - 1) + "_" + std::to_string(lo), w, view);
        if (!traced_.back().probe.on()) traced_.pop_back();
      }
    }
  }
}

uint64_t RtlSignals::read(const Traced& t) {
  switch (t.bytes) {
    case 1: return *static_cast<const uint8_t*>(t.data);
    case 2: return *static_cast<const uint16_t*>(t.data);
    case 4: return *static_cast<const uint32_t*>(t.data);
    case 8: return *static_cast<const uint64_t*>(t.data);
    default: break;
  }
  const uint32_t* w = static_cast<const uint32_t*>(t.data) + t.word;
  uint64_t v = w[0];
  if (t.width > 32) v |= uint64_t(w[1]) << 32;
  return t.width >= 64 ? v : v & ((uint64_t(1) << t.width) - 1);
}

}  // namespace warptlm
