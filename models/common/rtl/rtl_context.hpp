// One verilated model in the loop (docs/rtl.md) with its own context. Include this first, before anything
// includes SystemC: the models are --cc, and Verilator's headers take SystemC's time when they see it.
//  - The context evaluates on the simulation's thread: no worker threads (Verilator's default is one per
//    hardware thread, per context).
//  - Verilator erases a model's scopes from the thread's current context when the model is destroyed, so
//    the model's own context is made current first (with several models, each in its own context, it
//    would otherwise erase them from another one, perhaps one already gone).
#pragma once
#include <verilated.h>

#include <string>

namespace warptlm {

class RtlContext : public VerilatedContext {
 public:
  RtlContext() { threads(1); }
};

template <class V>
class RtlModel {
 public:
  explicit RtlModel(const std::string& name) : top(&ctx, name.c_str()) {}
  ~RtlModel() { Verilated::threadContextp(&ctx); }
  RtlModel(const RtlModel&) = delete;
  RtlModel& operator=(const RtlModel&) = delete;

  RtlContext ctx;
  V top;
};

}  // namespace warptlm
