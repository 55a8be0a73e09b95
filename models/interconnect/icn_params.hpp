// Parameters of the SM <-> memory-partition crossbar.
#pragma once
#include <cstdint>
#include <string>

#include "common/config.hpp"
#include "interconnect/partition_map.hpp"

namespace warptlm {

struct IcnParams {
  uint32_t latency = 8;        // crossbar cycles through the switch, each way
  uint32_t port_width = 32;    // bytes a port moves per crossbar cycle (one flit)
  uint32_t queue = 32;         // request entries per output port (toward a partition)
  uint32_t reply_buffer = 0;   // flits each L2 slice's reply input holds; 0: replies queue at their SM port only
  bool sm_inject = false;      // an SM's input port takes one flit a cycle: a request holds it for its beats
  bool ack_per_sector = false; // a write's acknowledgement is a header flit per 32-byte sector it wrote
  double clock_mhz = 700;      // the interconnect clock domain
  uint64_t interleave = 256;   // bytes of consecutive addresses in one partition
  std::string mapping = "linear";  // linear | hash (see partition_map.hpp)

  double period_ps() const { return 1e6 / clock_mhz; }
  PartitionMap map(uint32_t partitions, uint32_t subpartitions = 1) const {
    return PartitionMap{interleave, partitions, mapping == "hash", subpartitions};
  }

  static void declare(ParamTable& t);
  static IcnParams from(const Config& c);
};

}  // namespace warptlm
