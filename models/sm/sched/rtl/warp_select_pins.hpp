// The pins of an issue-selection RTL block, as the transactor (rtl_warp_select.hpp) drives them: WarpTLM's
// warp_select.sv or a user's own SystemVerilog with the same ports (docs/rtl.md, "Bring your own RTL"):
//
//   clk, rst_n                  the scheduler's clock; asynchronous reset, active low
//   cand        [W-1:0]         the candidate warps (bit i: the warp in the scheduler's slot i), W <= 32
//   age         [W*32-1:0]      warp i's age at [i*32 +: 32]: its order of arrival on the SM (smaller: older)
//   sel_valid, sel_warp         the selected warp, combinational in the same cycle
//   issue_valid, issue_warp     the warp that issued this cycle, to register at the rising edge
//
// WarpSelectPinsOf<V> wraps the verilated class V (verilator --cc; --public-flat-rw puts every signal in the
// run's waveform) in its own context. Include this header first in its file, before anything includes
// SystemC (it includes Verilator's headers).
#pragma once
#include "common/rtl/rtl_context.hpp"

#include <cstdint>
#include <string>

#include "common/rtl/rtl_signals.hpp"

namespace warptlm {

class WarpSelectPins {
 public:
  virtual ~WarpSelectPins() = default;
  virtual uint32_t warps() const = 0;  // the width of cand: the most warps a scheduler may hold
  virtual void age(uint32_t pin, uint32_t age) = 0;
  // The candidates on the pins (with the ages set): the selected pin index, or -1.
  virtual int select(uint32_t cand) = 0;
  virtual void issue(uint32_t pin) = 0;
  // The rising edge that registers the warp that issued, then the issue taken off the pins.
  virtual void edge() = 0;
};

// `Warps`: the width of V's cand port.
template <class V, uint32_t Warps = 32>
class WarpSelectPinsOf : public WarpSelectPins {
  static_assert(Warps <= 32, "cand is one 32-bit word");

 public:
  explicit WarpSelectPinsOf(const std::string& trace_name) : rtl_(trace_name), signals_(rtl_.ctx, trace_name, trace_name) {
    top_.clk = 0;
    top_.issue_valid = 0;
    top_.rst_n = 0;
    top_.eval();
    top_.rst_n = 1;
    top_.eval();
  }
  uint32_t warps() const override { return Warps; }
  void age(uint32_t pin, uint32_t age) override { top_.age[pin] = age; }
  int select(uint32_t cand) override {
    top_.cand = cand;
    top_.eval();
    if (signals_.on()) signals_.sample();
    return top_.sel_valid ? int(top_.sel_warp) : -1;
  }
  void issue(uint32_t pin) override {
    top_.issue_valid = 1;
    top_.issue_warp = pin;
  }
  void edge() override {
    top_.clk = 1;
    top_.eval();
    top_.clk = 0;
    top_.issue_valid = 0;
    top_.eval();
    if (signals_.on()) signals_.sample();
  }

 private:
  RtlModel<V> rtl_;
  V& top_ = rtl_.top;
  RtlSignals signals_;
};

}  // namespace warptlm
