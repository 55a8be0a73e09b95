#include "interconnect/icn_params.hpp"

namespace warptlm {

// Defaults: the GTX480 as GPGPU-Sim 3.x configures it (spec 002 section 1.2:
// interconnect clock 700 MHz, 32-byte flits; 256-byte partition interleave
// from its dramid@8 address mapping). The papers give no crossbar latency or
// buffer sizes; 8 cycles and 32 entries are assumptions.
void IcnParams::declare(ParamTable& t) {
  t.int_param("icn.latency", 8, 0, 10000, "crossbar cycles a transfer takes through the switch, each way");
  t.int_param("icn.port_width", 32, 1, 4096,
              "bytes per crossbar cycle on each port; a transfer of D bytes holds its port ceil(D/width) cycles");
  t.int_param("icn.queue", 32, 1, 65536,
              "request entries per output port; a full queue withholds END_REQ from the SM side");
  t.int_param("icn.reply_buffer", 0, 0, 65536,
              "flits of reply buffering at each L2 slice's input to the reply network; > 0 makes that network "
              "input-queued (a reply waits at its slice's head until its SM port is free; a full buffer withholds "
              "END_RESP from the slice); 0 queues replies at their SM port only");
  t.bool_param("icn.sm_inject", false,
               "an SM's port injects one flit (icn.port_width bytes) a cycle: a request holds it for its beats before "
               "the SM's next request leaves (GPGPU-Sim's interconnect drains each node's injection queue a flit a "
               "cycle); false: the SM side moves any number a cycle, only the output ports are occupied");
  t.bool_param("icn.ack_per_sector", false,
               "a write is acknowledged with one header flit per 32-byte sector it wrote (GPGPU-Sim's sectored L2 "
               "breaks every request into sector requests and answers each on its own); false: one header per write");
  t.float_param("icn.clock_mhz", 700, 1, 100000, "interconnect clock in MHz");
  t.int_param("icn.interleave", 256, 32, 1 << 30, "bytes of consecutive addresses mapped to one memory partition");
  t.enum_param("icn.mapping", "linear", {"linear", "hash"},
               "partition of an address: linear (addr/interleave mod P) or hash (each row of P chunks rotated by an XOR fold)");
}

IcnParams IcnParams::from(const Config& c) {
  IcnParams p;
  p.latency = uint32_t(c.get_int("icn.latency"));
  p.port_width = uint32_t(c.get_int("icn.port_width"));
  p.queue = uint32_t(c.get_int("icn.queue"));
  p.reply_buffer = uint32_t(c.get_int("icn.reply_buffer"));
  p.sm_inject = c.get_bool("icn.sm_inject");
  p.ack_per_sector = c.get_bool("icn.ack_per_sector");
  p.clock_mhz = c.get_float("icn.clock_mhz");
  p.interleave = uint64_t(c.get_int("icn.interleave"));
  p.mapping = c.get_string("icn.mapping");
  return p;
}

}  // namespace warptlm
