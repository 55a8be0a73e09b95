#include "dram/dram_params.hpp"

#include <algorithm>

#include "common/clock.hpp"
#include "common/errors.hpp"

namespace warptlm {

void DramParams::declare(ParamTable& t) {
  t.int_param("dram.banks", 16, 1, 256, "banks per DRAM channel, each with its own row buffer");
  t.int_param("dram.row_bytes", 2048, 128, 1 << 20,
              "bytes of one row of one bank across the channel (a multiple of 128: a line never straddles rows)");
  t.int_param("dram.tCL", 12, 1, 1000, "DRAM cycles from a read command to its first data (CAS latency)");
  t.int_param("dram.tRCD", 12, 1, 1000, "DRAM cycles from activate to a column command in that bank");
  t.int_param("dram.tRP", 12, 1, 1000, "DRAM cycles from precharge to the next activate in that bank");
  t.int_param("dram.tRAS", 28, 1, 1000, "DRAM cycles from activate to the earliest precharge of that bank");
  t.int_param("dram.tRC", 40, 1, 1000, "DRAM cycles between two activates of the same bank");
  t.int_param("dram.tCCD", 2, 1, 1000, "DRAM cycles between column commands (per burst) on the channel");
  t.int_param("dram.tRRD", 6, 0, 1000, "DRAM cycles between activates of different banks");
  t.int_param("dram.tWR", 12, 0, 1000, "DRAM cycles from the end of write data to a precharge of that bank");
  t.int_param("dram.tWTR", 5, 0, 1000, "DRAM cycles from the end of write data to the next read command");
  t.int_param("dram.tWL", 4, 0, 1000, "DRAM cycles from a write command to its first data (write latency)");
  t.bool_param("dram.dual_bus", false,
               "separate row and column command buses (HBM): an activate or precharge may issue in the cycle of a "
               "column command (GPGPU-Sim's -dram_dual_bus_interface)");
  t.int_param("dram.tRTW_bubble", 0, 0, 1000,
              "read-to-write turnaround: DRAM cycles the data bus idles between a read's last data and a write's first");
  t.int_param("dram.bank_groups", 1, 1, 64,
              "GDDR5 bank groups per channel: bank b is in group b mod bank_groups (a power of 2 dividing dram.banks)");
  t.int_param("dram.tCCDL", 0, 0, 1000,
              "DRAM cycles between column commands to banks of the same group (bank_groups > 1; tCCD between groups)");
  t.int_param("dram.tRTPL", 0, 0, 1000, "DRAM cycles from a read command to a precharge of any bank of its group");
  t.int_param("dram.burst_length", 8, 1, 64, "transfers per column access; a request moves whole bursts");
  t.int_param("dram.bus_width", 8, 1, 1024, "bytes per transfer on one channel's data bus");
  t.int_param("dram.data_rate", 4, 1, 8, "transfers per DRAM clock: 1 SDR, 2 DDR, 4 QDR (GDDR5)");
  t.int_param("dram.queue", 16, 1, 1024, "request queue entries per channel; a full queue withholds END_REQ");
  t.int_param("dram.latency", 0, 0, 100000,
              "DRAM cycles a request spends on its way from the L2 to the request queue (a delay line that any number "
              "of requests may be in; a request enters it only while the queue has a free entry, and leaves it into the "
              "queue once one is free)");
  t.enum_param("dram.latency_clock", "dram", {"dram", "core"},
               "the clock whose cycles dram.latency counts: dram (the channel's own) or core (GPGPU-Sim counts its "
               "dram_latency in core cycles, so a faster core clock shortens the delay)");
  t.enum_param("dram.scheduler", "frfcfs", {"frfcfs", "fifo"},
               "request order: first-ready FCFS (oldest row hit first) or strict arrival order");
  t.enum_param("dram.page_policy", "open", {"open", "closed"},
               "open: a row stays open until a conflict; closed: auto-precharge after the last queued hit");
  t.enum_param("dram.address_mapping", "row_bank_column", {"row_bank_column", "row_bank_column_xor"},
               "channel-local address bits, high to low; _xor hashes the bank with the low row bits (banks: power of 2)");
  t.string_param("dram.address_bits", "",
                 "channel-local address bits, most significant first, as GPGPU-Sim's address mask: R row, B bank, C "
                 "column, S byte of a burst ('.' separates groups); bits above the string are row bits. Its B bits "
                 "must number log2(dram.banks) and its C and S bits log2(dram.row_bytes). Empty: dram.address_mapping");
  t.float_param("dram.clock_mhz", 924, 1, 100000, "DRAM command clock in MHz (data moves data_rate times per clock)");
}

void DramParams::count_in_dram_cycles(double core_mhz) {
  count_in_own_cycles(latency, latency_in_core_cycles, core_mhz, clock_mhz);
}

DramParams DramParams::from(const Config& c) {
  DramParams p;
  p.banks = uint32_t(c.get_int("dram.banks"));
  p.row_bytes = uint32_t(c.get_int("dram.row_bytes"));
  p.tCL = uint32_t(c.get_int("dram.tCL"));
  p.tRCD = uint32_t(c.get_int("dram.tRCD"));
  p.tRP = uint32_t(c.get_int("dram.tRP"));
  p.tRAS = uint32_t(c.get_int("dram.tRAS"));
  p.tRC = uint32_t(c.get_int("dram.tRC"));
  p.tCCD = uint32_t(c.get_int("dram.tCCD"));
  p.tRRD = uint32_t(c.get_int("dram.tRRD"));
  p.tWR = uint32_t(c.get_int("dram.tWR"));
  p.tWTR = uint32_t(c.get_int("dram.tWTR"));
  p.tWL = uint32_t(c.get_int("dram.tWL"));
  p.tRTW_bubble = uint32_t(c.get_int("dram.tRTW_bubble"));
  p.dual_bus = c.get_bool("dram.dual_bus");
  p.bank_groups = uint32_t(c.get_int("dram.bank_groups"));
  p.tCCDL = uint32_t(c.get_int("dram.tCCDL"));
  p.tRTPL = uint32_t(c.get_int("dram.tRTPL"));
  p.burst_length = uint32_t(c.get_int("dram.burst_length"));
  p.bus_width = uint32_t(c.get_int("dram.bus_width"));
  p.data_rate = uint32_t(c.get_int("dram.data_rate"));
  p.queue = uint32_t(c.get_int("dram.queue"));
  p.latency = uint32_t(c.get_int("dram.latency"));
  p.latency_in_core_cycles = c.get_string("dram.latency_clock") == "core";
  p.scheduler = c.get_string("dram.scheduler") == "fifo" ? DramScheduler::Fifo : DramScheduler::FrFcfs;
  p.page_policy = c.get_string("dram.page_policy") == "closed" ? DramPagePolicy::Closed : DramPagePolicy::Open;
  p.address_mapping = c.get_string("dram.address_mapping") == "row_bank_column_xor" ? DramMapping::RowBankColumnXor
                                                                                     : DramMapping::RowBankColumn;
  p.address_bits = c.get_string("dram.address_bits");
  p.clock_mhz = c.get_float("dram.clock_mhz");
  p.check();
  return p;
}

namespace {
uint32_t count_of(const std::string& s, char c) { return uint32_t(std::count(s.begin(), s.end(), c)); }
bool power_of_two(uint64_t v) { return v && !(v & (v - 1)); }
}  // namespace

void DramParams::check() const {
  const DramParams& p = *this;
  if (p.row_bytes % 128 != 0)
    throw InputError(Place{"", 0, "dram.row_bytes"}, "dram.row_bytes " + std::to_string(p.row_bytes) +
                                                         " is not a multiple of 128 (a line would straddle two rows)");
  if (p.address_mapping == DramMapping::RowBankColumnXor && (p.banks & (p.banks - 1)) != 0)
    throw InputError(Place{"", 0, "dram.address_mapping"},
                     "dram.address_mapping row_bank_column_xor needs dram.banks to be a power of 2, not " +
                         std::to_string(p.banks));
  auto bad = [](const char* key, const std::string& why) { throw InputError(Place{"", 0, key}, why); };
  if (!power_of_two(p.bank_groups) || p.banks % p.bank_groups != 0)
    bad("dram.bank_groups", "dram.bank_groups " + std::to_string(p.bank_groups) +
                                " is not a power of 2 that divides dram.banks " + std::to_string(p.banks));
  if (!p.address_bits.empty()) {
    const std::string& a = p.address_bits;
    const size_t odd = a.find_first_not_of("RBCS.");
    if (odd != std::string::npos)
      bad("dram.address_bits", "dram.address_bits '" + a + "' has '" + a[odd] + "': only R, B, C, S and '.' may be used");
    const uint32_t b = count_of(a, 'B'), cs = count_of(a, 'C') + count_of(a, 'S');
    if (a.size() - count_of(a, '.') > 63)
      bad("dram.address_bits", "dram.address_bits '" + a + "' has more than 63 address bits");
    if (b >= 32 || (1ull << b) != p.banks)
      bad("dram.address_bits", "dram.address_bits '" + a + "' has " + std::to_string(b) + " bank bits (B) for dram.banks " +
                                   std::to_string(p.banks) + " (it needs log2 of a power of 2)");
    if (cs >= 32 || (1ull << cs) != p.row_bytes)
      bad("dram.address_bits", "dram.address_bits '" + a + "' has " + std::to_string(cs) + " column and burst bits (C, S) for dram.row_bytes " +
                                   std::to_string(p.row_bytes) + " (it needs log2 of a power of 2)");
  }
}

double peak_bytes_per_second(const DramParams& p) {
  return p.clock_mhz * 1e6 * double(p.data_rate) * double(p.bus_width);
}

}  // namespace warptlm
