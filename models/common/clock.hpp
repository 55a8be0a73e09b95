// Clock-edge arithmetic shared by every clocked block. A block's cycle n is its
// rising edge at n clock periods; SystemC counts time in whole resolution
// units, so the arithmetic is integer and every block rounds alike.
#pragma once
#include <cmath>
#include <cstdint>
#include <systemc>

namespace warptlm {

// The time of the edge running, in SystemC time units: SystemC's time, except while a clock domain runs
// a follower domain's edge late (ClockDomain::catch_up, on the SystemC thread only): then that edge's, so
// that its blocks, and the blocks they reach inside it, count their cycles and stamp their registered
// inputs as if SystemC ran it at its own time.
inline thread_local uint64_t late_edge_value = UINT64_MAX;
inline uint64_t now_value() {
  return late_edge_value != UINT64_MAX ? late_edge_value : sc_core::sc_time_stamp().value();
}

inline sc_core::sc_time now_time() { return sc_core::sc_time::from_value(now_value()); }

// The cycle whose edge is now, or the last one passed.
inline uint64_t cycle_now(const sc_core::sc_time& period) { return now_value() / period.value(); }

// The first edge at or after t: what arrives between edges is seen at the next.
inline uint64_t edge_at_or_after(const sc_core::sc_time& period, const sc_core::sc_time& t) {
  const uint64_t pv = period.value();
  return (t.value() + pv - 1) / pv;
}

// The first edge strictly after t: where a registered input that arrives at t
// is taken (common/input_register.hpp).
inline uint64_t edge_after(const sc_core::sc_time& period, const sc_core::sc_time& t) {
  return t.value() / period.value() + 1;
}

// The edge of `cycle` in SystemC time units (a compare on hot paths needs no sc_time).
inline uint64_t edge_value(const sc_core::sc_time& period, uint64_t cycle) { return cycle * period.value(); }

// The time of the edge of `cycle`.
inline sc_core::sc_time edge_time(const sc_core::sc_time& period, uint64_t cycle) {
  return sc_core::sc_time::from_value(cycle * period.value());
}

// Wake a block at the edge of `cycle`, at once if that edge has passed (in SystemC's time: a late
// edge asks for no wake-up of its own: ClockDomain::catch_up). An
// event keeps its earliest pending notification, so the block wakes for the
// nearest of all the edges asked for.
inline void wake_at_edge(sc_core::sc_event& wake, const sc_core::sc_time& period, uint64_t cycle) {
  const sc_core::sc_time at = edge_time(period, cycle), now = sc_core::sc_time_stamp();
  wake.notify(at > now ? at - now : sc_core::SC_ZERO_TIME);
}

// A latency of `cycles` cycles of a `from_mhz` clock, in cycles of a `to_mhz` clock: the fewest of them that
// last as long (a block that counts a delay in another domain's cycles, as GPGPU-Sim counts its L2's ROP
// delay and its DRAM latency in core cycles, waits whole cycles of its own).
inline uint32_t cycles_of_clock(uint32_t cycles, double from_mhz, double to_mhz) {
  return uint32_t(std::ceil(double(cycles) * to_mhz / from_mhz - 1e-9));
}

// A block's latency configured in core cycles (`in_core`) turned, once, into its own clock's cycles.
inline void count_in_own_cycles(uint32_t& latency, bool& in_core, double core_mhz, double own_mhz) {
  if (in_core) latency = cycles_of_clock(latency, core_mhz, own_mhz);
  in_core = false;
}

}  // namespace warptlm
