// PTX front end, stage 1: text -> per-function instruction lists with
// registers numbered and function-scope names resolved. Linking into kernel
// programs happens in module.cpp.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "isa/ir.hpp"
#include "isa/module.hpp"

namespace warptlm {

// Declaration limits (docs/bad-inputs.md): what PTX declarations may ask of
// the simulator before any launch; over them is an input error.
constexpr uint64_t kMaxAlign = 65536;             // .align
constexpr uint64_t kMaxDeclBytes = 1ull << 30;    // one array; a function's .local; a kernel's .shared
constexpr uint64_t kMaxParamBytes = 32768;        // one parameter (CUDA's limit for a kernel's parameters)
constexpr uint32_t kMaxRegs = 65536;              // registers (and predicates) declared per function

struct VarDecl {
  std::string name;
  Space space = Space::Global;
  DType type = DType::B8;
  uint32_t elem_size = 1, count = 1, align = 1;
  bool dynamic = false;           // extern .shared ... name[] (dynamic shared memory)
  std::vector<uint8_t> init;      // initialiser bytes (module-scope .global/.const)
  uint32_t offset = 0;            // function-scope .local: offset within the function's depot
  uint32_t line = 0;
  uint32_t bytes() const { return elem_size * count; }
};

// A call as parsed: which formal parameters get which argument frame slots.
struct PendingCall {
  uint32_t pc;                    // function-local pc of the call
  std::string callee;
  std::vector<std::pair<uint32_t, uint32_t>> args;     // (caller frame offset, size)
  std::vector<std::pair<uint32_t, uint32_t>> results;  // (caller frame offset, size)
};

struct FuncIR {
  std::string name;
  bool is_entry = false;
  bool has_body = false;
  uint32_t line = 0;
  std::vector<ParamInfo> params;       // entry: kernel params; func: formal params (frame offsets)
  std::vector<ParamInfo> results;      // func: return params (frame offsets)
  std::vector<Instr> body;
  uint32_t nregs = 0, npreds = 0, regs32 = 0;
  int32_t carry_pred = -1;              // the hidden predicate holding the carry flag (ir.hpp), if used
  std::vector<uint8_t> reg_words;       // 32-bit words of each register slot (1 or 2)
  std::vector<std::pair<uint32_t, SReg>> sregs;
  std::vector<VarDecl> shared;          // declared inside the function
  uint32_t local_bytes = 0;
  uint32_t frame_bytes = 0;
  std::vector<PendingCall> calls;
  uint32_t reqntid = 0, maxntid = 0;
  // The first instruction of the body the front end refused (its file, line and reason), if any: the
  // function is kept out of every kernel, and a kernel that is or calls it is refused with this error.
  std::shared_ptr<const InputError> refusal;
};

struct ParsedModule {
  std::string origin;
  std::vector<FuncIR> funcs;
  std::vector<VarDecl> vars;            // module scope .global/.const/.shared
};

ParsedModule parse_ptx(const std::string& text, const std::string& origin, PtxDialect dialect = {});

}  // namespace warptlm
