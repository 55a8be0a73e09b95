// Parameters of one DRAM channel (all channels of a GPU share them): bank
// geometry, DDR timing in DRAM clock cycles, data-bus width and rate, the
// request queue and the controller's policies. Defaults are the GTX480's
// GDDR5 as GPGPU-Sim 3.x configures it (CIAO Table I and its section 1.2).
#pragma once
#include <cstdint>
#include <string>

#include "common/config.hpp"

namespace warptlm {

enum class DramScheduler : uint8_t { FrFcfs, Fifo };
enum class DramPagePolicy : uint8_t { Open, Closed };
// How a channel-local address splits into row, bank and column (high to low).
enum class DramMapping : uint8_t { RowBankColumn, RowBankColumnXor };

struct DramParams {
  // geometry
  uint32_t banks = 16;         // banks per channel (all chips of the channel act as one rank)
  uint32_t row_bytes = 2048;   // bytes of one row of one bank across the channel's chips
  // timing, DRAM clock cycles
  uint32_t tCL = 12;   // read command to first data
  uint32_t tRCD = 12;  // activate to column command
  uint32_t tRP = 12;   // precharge to activate
  uint32_t tRAS = 28;  // activate to precharge
  uint32_t tRC = 40;   // activate to activate, same bank
  uint32_t tCCD = 2;   // column command to column command
  uint32_t tRRD = 6;   // activate to activate, different banks
  uint32_t tWR = 12;   // end of write data to precharge (write recovery)
  uint32_t tWTR = 5;   // end of write data to read command (GPGPU-Sim's CDLR)
  uint32_t tWL = 4;    // write command to first data
  uint32_t tRTW_bubble = 0;  // idle data-bus cycles between a read's last data and a following write's first
  // bank groups (GDDR5): column commands to one group tCCDL apart, precharges tRTPL after a read in the group
  uint32_t bank_groups = 1;  // group of bank b = b mod bank_groups (GPGPU-Sim's lower-bits indexing)
  uint32_t tCCDL = 0;
  uint32_t tRTPL = 0;
  // data bus
  uint32_t burst_length = 8;  // transfers per column access (a burst)
  uint32_t bus_width = 8;     // bytes per transfer on the channel (64 bits: 2 x32 chips)
  uint32_t data_rate = 4;     // transfers per DRAM clock: 1 SDR, 2 DDR, 4 QDR (GDDR5)
  // controller
  uint32_t queue = 16;                              // request queue entries
  uint32_t latency = 0;                             // DRAM cycles from the L2 to the request queue (a delay line)
  bool latency_in_core_cycles = false;              // dram.latency_clock core: the configured latency counts core
                                                    // cycles (the platform converts it with count_in_dram_cycles)
  bool dual_bus = false;  // a row command may issue in the cycle of a column command (HBM's two command buses)
  DramScheduler scheduler = DramScheduler::FrFcfs;
  DramPagePolicy page_policy = DramPagePolicy::Open;
  DramMapping address_mapping = DramMapping::RowBankColumn;
  // dram.address_bits: the channel-local address, most significant bit first,
  // R row, B bank, C column, S byte of a burst; empty: address_mapping decides.
  std::string address_bits;
  double clock_mhz = 924;

  // Bytes one burst moves, and the DRAM cycles it holds the data bus.
  uint32_t burst_bytes() const { return burst_length * bus_width; }
  uint32_t burst_cycles() const { return (burst_length + data_rate - 1) / data_rate; }
  // DRAM cycles a request of `bytes` holds the data bus: whole bursts (a burst
  // cannot be cut short), which is bytes / (bus_width * data_rate) for whole lines.
  uint32_t transfer_cycles(uint32_t bytes) const {
    const uint32_t bursts = bytes ? (bytes + burst_bytes() - 1) / burst_bytes() : 1;
    return bursts * burst_cycles();
  }
  double period_ps() const { return 1e6 / clock_mhz; }
  // With dram.latency_clock core: latency from core cycles into the DRAM's own.
  void count_in_dram_cycles(double core_mhz);

  static void declare(ParamTable& t);
  static DramParams from(const Config& c);  // InputError when the values do not fit together
  void check() const;                       // the same checks, for hand-built params
};

// Peak data-bus bandwidth of one channel: clock x transfers per clock x bytes per transfer.
double peak_bytes_per_second(const DramParams& p);

}  // namespace warptlm
