// An RTL block's signals in the run's waveform (docs/rtl.md): every signal Verilator keeps public
// (--public-flat-rw) in a verilated model's scopes becomes a probe under the block's hierarchical name, in
// the run's one VCD beside the model's probes. The ports (Verilator's TOP scope) are named
// "<block>.<port>" and shown in a GTKWave group of their own; internal signals "<block>.<module>.<signal>".
// A packed signal wider than 64 bits is traced as 64-bit slices "<signal>_<hi>_<lo>"; unpacked arrays and
// parameters are left out. sample() reads every traced signal after the transactor evaluates the model;
// with tracing off the block has no probes and sample() returns at once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "common/trace.hpp"

class VerilatedContext;

namespace warptlm {

class RtlSignals {
 public:
  // `ctx`: the context of one verilated model named `model_name` (its constructor's name argument);
  // `block`: the dotted name its signals take in the trace ("sm0.ssp.rtl").
  RtlSignals(VerilatedContext& ctx, const std::string& model_name, const std::string& block);
  bool on() const { return !traced_.empty(); }
  void sample() {
    for (Traced& t : traced_) t.probe.set(read(t));
  }
  // The values as they are now, shown from the later time `at` (a registered value after the edge that
  // writes it, without a simulation event); a sample() at or before `at` replaces them.
  void sample_at(const sc_core::sc_time& at) {
    for (Traced& t : traced_) t.probe.set_at(at, read(t));
  }
  size_t size() const { return traced_.size(); }

 private:
  struct Traced {
    const void* data;
    unsigned bytes;   // the storage of the variable: 1, 2, 4 or 8; 0: 32-bit words (a wide signal)
    unsigned word;    // a wide signal's 32-bit word index of this slice's low half
    unsigned width;   // bits of this slice
    Probe probe;
  };
  static uint64_t read(const Traced& t);
  std::vector<Traced> traced_;
};

}  // namespace warptlm
