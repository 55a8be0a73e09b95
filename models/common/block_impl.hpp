// RTL in the loop (docs/rtl.md): which implementation of a block a run uses.
//   model     the transaction-level model (the default);
//   rtl       the block's SystemVerilog, verilated, behind a transactor that turns the model's interface into
//             the RTL's pins on the block's clock;
//   lockstep  both on every request: the model's answer is used, the RTL's is compared with it, and the run
//             stops at the first difference with a report naming the cycle, the SM, the request and both
//             answers.
// A block that has RTL declares "<block>.impl"; the RTL library of a build with Verilator registers the
// block's transactor (register_rtl_blocks). Without one, rtl and lockstep are refused with how to enable them.
#pragma once
#include <cstdint>
#include <string>

namespace warptlm {

class Config;
class ParamTable;

enum class BlockImpl : uint8_t { Model, Rtl, Lockstep };
const char* block_impl_name(BlockImpl i);

// Declares "<block>.impl" (model | rtl | lockstep) for the block `what` names.
void declare_block_impl(ParamTable& t, const std::string& block, const std::string& what);

// The implementation "<block>.impl" selects. `rtl_built`: this build has the block's RTL; when it has not,
// rtl and lockstep are an InputError naming where the value was set and how to build WarpTLM with RTL.
BlockImpl block_impl(const Config& c, const std::string& block, bool rtl_built);
// How many times block_impl has answered rtl or lockstep in this process: a platform that sees it grow while
// it builds has verilated blocks, which it evaluates on one thread.
uint64_t rtl_impls_chosen();

// An implementation's answer differs from the model's: throws RunError (the run stops as a fault) with
//   RTL lockstep: <block> of SM <sm> diverges at cycle <cycle>: <request>; model: <model>; rtl: <rtl>
[[noreturn]] void lockstep_divergence(const std::string& block, uint32_t sm, uint64_t cycle, const std::string& request,
                                      const std::string& model, const std::string& rtl);

}  // namespace warptlm
