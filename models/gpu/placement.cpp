#include "gpu/placement.hpp"

namespace warptlm {

std::unique_ptr<PlacementPolicy> make_placement(const std::string& name) {
  if (name == "round_robin") return std::make_unique<RoundRobinPlacement>();
  return nullptr;
}

}  // namespace warptlm
