#include "gpu/mechanism.hpp"

namespace warptlm {

std::vector<MechanismInfo>& MechanismRegistry::list() {
  static std::vector<MechanismInfo> l;
  return l;
}

void MechanismRegistry::add(MechanismInfo info) {
  if (find(info.name)) return;
  list().push_back(std::move(info));
}

const std::vector<MechanismInfo>& MechanismRegistry::all() { return list(); }

const MechanismInfo* MechanismRegistry::find(const std::string& name) {
  for (const MechanismInfo& m : list())
    if (m.name == name) return &m;
  return nullptr;
}

void MechanismRegistry::declare_all(ParamTable& t) {
  for (const MechanismInfo& m : list())
    if (m.declare) m.declare(t);
}

std::vector<std::unique_ptr<Mechanism>> MechanismRegistry::build(const Config& cfg, StatsRegistry& stats) {
  std::vector<std::unique_ptr<Mechanism>> v;
  for (const MechanismInfo& m : list())
    if (m.wanted(cfg)) v.push_back(m.make(cfg, stats));
  return v;
}

}  // namespace warptlm
