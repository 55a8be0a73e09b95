#include "isa/passes/passes.hpp"

#include <cmath>
#include <sstream>

#include "common/params.hpp"

namespace warptlm {

unsigned PassReport::relssp_inserted() const {
  unsigned n = 0;
  for (auto& k : relssp) n += unsigned(k.inserted.size());
  return n;
}

unsigned PassReport::splits_materialized() const {
  unsigned n = 0;
  for (auto& k : relssp) n += k.materialized_splits;
  return n;
}

static std::string join(const std::vector<std::string>& v) {
  if (v.empty()) return "(none)";
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::string PassReport::text() const {
  std::ostringstream os;
  for (auto& a : alloc) {
    os << "kernel " << a.kernel << ":\n";
    os << "  scratchpad: " << a.static_bytes_after << " B static, private below " << a.boundary_after << " B";
    if (a.static_bytes_after != a.static_bytes_before) os << " (was " << a.static_bytes_before << " B)";
    os << "\n";
    os << "  shared region: " << join(a.names(a.shared_after));
    if (a.reordered)
      os << " (reordered; was " << join(a.names(a.shared_before)) << "; weighted range " << a.cost_before << " -> "
         << a.cost_after << ")";
    else
      os << " (order kept" << (a.note.empty() ? "" : ": " + a.note) << "; weighted range " << a.cost_after << ")";
    os << "\n";
    for (auto& r : relssp) {
      if (r.kernel != a.kernel) continue;
      if (r.had_relssp) { os << "  relssp: already present, left alone\n"; continue; }
      os << "  relssp: " << r.inserted.size() << " inserted, " << r.accesses << " shared-region access"
         << (r.accesses == 1 ? "" : "es") << ", " << r.critical_edges << " critical edge"
         << (r.critical_edges == 1 ? "" : "s") << " (" << r.materialized_splits << " split block"
         << (r.materialized_splits == 1 ? "" : "s") << " emitted)\n";
      for (auto& i : r.inserted) {
        os << "    line " << i.line << ": ";
        switch (i.kind) {
          case passes::RelsspInsertion::AfterAccess: os << "after the last shared-region access of " << i.block; break;
          case passes::RelsspInsertion::BlockStart: os << "at the start of " << i.block; break;
          case passes::RelsspInsertion::EdgeFallthrough: os << "on the fall-through edge " << i.block; break;
          case passes::RelsspInsertion::EdgeTaken: os << "on the branch edge " << i.block << " (new block " << i.new_label << ")"; break;
        }
        os << "\n";
      }
    }
  }
  os << "total: " << relssp_inserted() << " relssp inserted, " << splits_materialized() << " split blocks\n";
  return os.str();
}

std::string optimize_scratchpad_sharing(const std::string& ptx, const std::string& origin, double t,
                                        PassReport* report) {
  passes::SmemAllocOptions ao;
  ao.threshold = t;
  passes::RelsspOptions ro;
  ro.threshold = t;
  std::string mid = passes::smem_alloc_pass(ptx, origin, ao, report ? &report->alloc : nullptr);
  return passes::relssp_pass(mid, origin, ro, report ? &report->relssp : nullptr);
}

uint32_t private_boundary(double t, uint32_t block_bytes) { return uint32_t(std::floor(t * block_bytes)); }

void declare_ss_pass_params(ParamTable& t) {
  t.bool_param("ss.compiler_passes", false,
               "apply the scratchpad allocation and relssp placement passes when PTX is loaded");
  declare_ss_threshold(t);
}

void declare_ss_threshold(ParamTable& t) {
  t.float_param("ss.threshold", 0.1, 0.01, 0.99, "private fraction t of a shared block's scratchpad (seed 000: 0.1)");
}

}  // namespace warptlm
